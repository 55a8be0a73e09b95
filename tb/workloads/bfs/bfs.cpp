// Host driver for bfs: a seeded random directed graph in CSR form (mostly
// small degrees, a few hubs; half the edges local, half random), BFS from node
// 0 with one bfs_level launch per level until no node changes. Exact check of
// every node's distance (-1 = unreachable) against a CPU queue BFS.
#include <deque>
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class Bfs : public Workload {
 public:
  const char* name() const override { return "bfs"; }
  const char* description() const override {
    return "level-synchronous BFS on a random CSR graph, one launch per level (divergence, irregular loads)";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const int nodes = wl::by_size(size, 1024, 8192, 262144, 2097152);
    const uint32_t block = 256;
    std::mt19937_64 rng(seed);
    std::vector<int32_t> row_ptr(size_t(nodes) + 1, 0), col_idx;
    for (int v = 0; v < nodes; ++v) {
      uint32_t degree = 1 + wl::uniform_u32(rng, 6);                  // 1..6
      if (wl::uniform_u32(rng, 32) == 0) degree += 16 + wl::uniform_u32(rng, 32);  // hubs
      for (uint32_t k = 0; k < degree; ++k) {
        int u;
        if (rng() & 1) u = int((uint32_t(v) + 1 + wl::uniform_u32(rng, 16)) % uint32_t(nodes));
        else u = int(wl::uniform_u32(rng, uint32_t(nodes)));
        col_idx.push_back(u);
      }
      row_ptr[size_t(v) + 1] = int32_t(col_idx.size());
    }
    std::vector<int32_t> dist(nodes, -1);
    dist[0] = 0;

    load_workload_ptx(dev, "bfs");
    DevPtr drow = dev.upload(row_ptr), dcol = dev.upload(col_idx), ddist = dev.upload(dist);
    DevPtr dchanged = dev.malloc(sizeof(int32_t));
    int level = 0;
    for (;; ++level) {
      dev.memset(dchanged, 0, sizeof(int32_t));
      dev.launch("bfs_level", Dim3(wl::ceil_div(nodes, block)), Dim3(block),
                 {arg(drow), arg(dcol), arg(ddist), arg(int32_t(level)), arg(int32_t(nodes)), arg(dchanged)});
      if (dev.download<int32_t>(dchanged, 1)[0] == 0) break;
      if (level > nodes) break;  // cannot happen in a correct BFS; avoids a runaway loop
    }
    std::vector<int32_t> got = dev.download<int32_t>(ddist, nodes);
    for (DevPtr p : {drow, dcol, ddist, dchanged}) dev.free(p);

    std::vector<int32_t> ref(nodes, -1);
    std::deque<int> queue{0};
    ref[0] = 0;
    int max_level = 0;
    while (!queue.empty()) {
      const int v = queue.front();
      queue.pop_front();
      for (int e = row_ptr[v]; e < row_ptr[size_t(v) + 1]; ++e) {
        const int u = col_idx[e];
        if (ref[u] < 0) {
          ref[u] = ref[v] + 1;
          max_level = std::max(max_level, ref[u]);
          queue.push_back(u);
        }
      }
    }
    WorkloadResult r = wl::check_exact("dist", got, ref);
    if (r.verified)
      r.detail += " (" + std::to_string(level + 1) + " level launches, depth " + std::to_string(max_level) + ", " +
                  std::to_string(col_idx.size()) + " edges)";
    else if (level != max_level)
      r.detail += " (device ran " + std::to_string(level + 1) + " levels, expected " + std::to_string(max_level + 1) + ")";
    return r;
  }
};

}  // namespace

std::unique_ptr<Workload> make_bfs() { return std::make_unique<Bfs>(); }

}  // namespace warptlm
