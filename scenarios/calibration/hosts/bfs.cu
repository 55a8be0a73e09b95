// Calibration host program for bfs: tb/workloads/bfs/bfs.cpp's seeded CSR graph, one bfs_level launch per
// level (the changed flag zeroed before each, read after) until nothing changes, exact check of every
// node's distance against a CPU queue BFS.
//   bfs [tiny|small|medium|large]
#include <algorithm>
#include <deque>

#include "../../../tb/workloads/bfs/bfs.cu"
#include "host_common.h"

int main(int argc, char** argv) {
  using namespace calib;
  const Size size = size_arg(argc, argv);
  const int nodes = by_size(size, 1024, 8192, 262144, 2097152);
  const uint32_t block = 256;
  std::mt19937_64 rng(kSeed);
  std::vector<int32_t> row_ptr(size_t(nodes) + 1, 0), col_idx;
  for (int v = 0; v < nodes; ++v) {
    uint32_t degree = 1 + uniform_u32(rng, 6);
    if (uniform_u32(rng, 32) == 0) degree += 16 + uniform_u32(rng, 32);
    for (uint32_t k = 0; k < degree; ++k) {
      int u;
      if (rng() & 1) u = int((uint32_t(v) + 1 + uniform_u32(rng, 16)) % uint32_t(nodes));
      else u = int(uniform_u32(rng, uint32_t(nodes)));
      col_idx.push_back(u);
    }
    row_ptr[size_t(v) + 1] = int32_t(col_idx.size());
  }
  std::vector<int32_t> dist(nodes, -1);
  dist[0] = 0;
  int32_t* drow = upload(row_ptr);
  int32_t* dcol = upload(col_idx);
  int32_t* ddist = upload(dist);
  int32_t* dchanged = alloc<int32_t>(1);
  int level = 0;
  for (;; ++level) {
    CALIB_CHECK(cudaMemset(dchanged, 0, sizeof(int32_t)));
    bfs_level<<<ceil_div(nodes, block), block>>>(drow, dcol, ddist, level, nodes, dchanged);
    CALIB_CHECK(cudaGetLastError());
    if (download(dchanged, 1)[0] == 0) break;
    if (level > nodes) break;
  }
  const std::vector<int32_t> got = download(ddist, nodes);
  for (int32_t* p : {drow, dcol, ddist, dchanged}) CALIB_CHECK(cudaFree(p));

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
  const bool ok = check_exact("dist", got, ref);
  std::printf("%d level launches, depth %d, %zu edges\n", level + 1, max_level, col_idx.size());
  return ok ? 0 : 1;
}
