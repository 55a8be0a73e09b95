// jacobi2d's input grid and CPU sweeps, shared by jacobi2d (the GPU's shared
// tile) and spu_jacobi (the SPU mesh's halos through the CBs).
#pragma once
#include <random>
#include <utility>
#include <vector>

#include "workloads/util.hpp"

namespace warptlm {
namespace wl {

// A seeded nx x ny grid: hot boundary values (50 to 100), the interior 0 to 1, drawn row by row.
inline std::vector<float> jacobi_grid(std::mt19937_64& rng, int nx, int ny) {
  std::vector<float> grid(size_t(nx) * ny);
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x) {
      const bool edge = x == 0 || y == 0 || x == nx - 1 || y == ny - 1;
      grid[size_t(y) * nx + x] = edge ? uniform_float(rng, 50.0f, 100.0f) : uniform_float(rng, 0.0f, 1.0f);
    }
  return grid;
}

// `iters` sweeps out = 0.2 (c + north + south + west + east) in float, boundary
// points copied, the five points added in the kernels' order (no fma is
// possible: the multiply comes last), so the devices' results match bit for bit.
inline std::vector<float> jacobi_sweeps(std::vector<float> cur, int nx, int ny, int iters) {
  std::vector<float> next(cur.size());
  for (int it = 0; it < iters; ++it) {
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) {
        const size_t i = size_t(y) * nx + x;
        float v = cur[i];
        if (x > 0 && y > 0 && x < nx - 1 && y < ny - 1) {
          const float sum = cur[i] + cur[i - nx] + cur[i + nx] + cur[i - 1] + cur[i + 1];
          v = 0.2f * sum;
        }
        next[i] = v;
      }
    std::swap(cur, next);
  }
  return cur;
}

}  // namespace wl
}  // namespace warptlm
