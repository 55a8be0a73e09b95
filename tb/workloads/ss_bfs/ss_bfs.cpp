// Host driver for ss_bfs: a seeded layered graph, BFS from node 0 with one
// ss_bfs_level launch per round until no thread sets `over`; every node's
// cost and visited byte, and the cleared mask, checked exactly.
//
// The kernel marks neighbours in the same mask it reads, so a node marked in
// a round may be expanded later in that round, and a node's cost is written
// by whichever neighbour gets there first. Its results are order-independent
// only when every edge goes from one BFS layer to the next: then every write
// to a node's cost is its layer. The graph is built that way: node 0 is layer
// 0, layer sizes grow six-fold until the nodes run out, every node of a layer
// but the last has 1..11 edges (mean 6, as the 65536-node input of the study's
// BFS) to random nodes of the next layer, and every node of a layer but the
// first has an edge from the layer before. Node ids are a seeded permutation,
// so each round's frontier is scattered over the blocks.
#include <algorithm>
#include <numeric>
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class SsBfs : public Workload {
 public:
  const char* name() const override { return "ss_bfs"; }
  const char* description() const override {
    return "Set-3 control BFS (256 thr, no scratchpad): frontier-mask BFS level kernel on a layered random graph";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    // small and medium give every SM more 256-thread blocks than it holds at once.
    const int nodes = wl::by_size(size, 4096, 16384, 262144, 1048576);
    const uint32_t block = 256;
    std::mt19937_64 rng(seed);

    // Layers of node ids: id 0 first, the others in a seeded order.
    std::vector<int> order(nodes);
    std::iota(order.begin(), order.end(), 0);
    for (int i = nodes - 1; i > 1; --i) std::swap(order[i], order[1 + wl::uniform_u32(rng, uint32_t(i))]);
    std::vector<std::vector<int>> layers{{0}};
    int next = 1, width = 1;
    while (next < nodes) {
      width = std::min(nodes - next, width * 6);
      layers.emplace_back(order.begin() + next, order.begin() + next + width);
      next += width;
    }
    std::vector<int> layer_of(nodes);
    for (size_t l = 0; l < layers.size(); ++l)
      for (int v : layers[l]) layer_of[v] = int(l);
    std::vector<std::vector<int>> adj(nodes);
    for (size_t l = 0; l + 1 < layers.size(); ++l) {
      const std::vector<int>& to = layers[l + 1];
      std::vector<bool> reached(to.size(), false);
      for (int v : layers[l]) {
        const uint32_t degree = 1 + wl::uniform_u32(rng, 11);
        for (uint32_t k = 0; k < degree; ++k) {
          const uint32_t j = wl::uniform_u32(rng, uint32_t(to.size()));
          adj[v].push_back(to[j]);
          reached[j] = true;
        }
      }
      for (size_t j = 0; j < to.size(); ++j)
        if (!reached[j]) adj[layers[l][wl::uniform_u32(rng, uint32_t(layers[l].size()))]].push_back(to[j]);
    }
    std::vector<int32_t> node_rec(2 * size_t(nodes)), edges;  // {first edge, edge count} per node
    for (int v = 0; v < nodes; ++v) {
      node_rec[2 * size_t(v)] = int32_t(edges.size());
      node_rec[2 * size_t(v) + 1] = int32_t(adj[v].size());
      edges.insert(edges.end(), adj[v].begin(), adj[v].end());
    }
    std::vector<uint8_t> mask(nodes, 0), visited(nodes, 0);
    std::vector<int32_t> cost(nodes, -1);
    mask[0] = 1;
    cost[0] = 0;

    load_workload_ptx(dev, "ss_bfs");
    DevPtr dnodes = dev.upload(node_rec), dedges = dev.upload(edges), dmask = dev.upload(mask);
    DevPtr dvisited = dev.upload(visited), dcost = dev.upload(cost), dover = dev.malloc(1);
    int rounds = 0;
    for (uint8_t over = 1; over && rounds <= nodes; ++rounds) {
      dev.memset(dover, 0, 1);
      dev.launch("ss_bfs_level", Dim3(wl::ceil_div(nodes, block)), Dim3(block),
                 {arg(dnodes), arg(dedges), arg(dmask), arg(dvisited), arg(dcost), arg(dover), arg(int32_t(nodes))});
      over = dev.download<uint8_t>(dover, 1)[0];
    }
    const std::vector<int32_t> got_cost = dev.download<int32_t>(dcost, nodes);
    const std::vector<uint8_t> got_visited = dev.download<uint8_t>(dvisited, nodes);
    const std::vector<uint8_t> got_mask = dev.download<uint8_t>(dmask, nodes);
    for (DevPtr p : {dnodes, dedges, dmask, dvisited, dcost, dover}) dev.free(p);

    std::vector<int32_t> ref_cost(nodes);
    for (int v = 0; v < nodes; ++v) ref_cost[v] = layer_of[v];  // every node is reached, at its layer
    WorkloadResult r = wl::all_of({wl::check_exact("cost", got_cost, ref_cost),
                                   wl::check_exact("visited", got_visited, std::vector<uint8_t>(nodes, 1)),
                                   wl::check_exact("mask", got_mask, std::vector<uint8_t>(nodes, 0))});
    if (r.verified)
      r.detail += " (" + std::to_string(rounds) + " launches, " + std::to_string(layers.size()) + " layers, " +
                  std::to_string(edges.size()) + " edges)";
    return r;
  }
};

}  // namespace

std::unique_ptr<Workload> make_ss_bfs() { return std::make_unique<SsBfs>(); }

}  // namespace warptlm
