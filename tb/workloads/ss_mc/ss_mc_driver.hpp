// The marching-cubes host driver shared by ss_mc (MC1: 9216 B, 32 threads) and
// ss_mc2 (MC2: 13824 B, 48 threads): a seeded metaball field on an (n+1)^3
// grid, one launch of `kernel` with one block of `threads` threads per
// `threads` cubes, every vertex and normal checked against a CPU reference.
#pragma once
#include <cmath>
#include <random>
#include <string>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace wl {

struct F3 {
  float x, y, z;
};

inline WorkloadResult run_marching_cubes(Device& dev, Size size, uint64_t seed, const char* module, const char* kernel,
                                         uint32_t threads) {
    const int n = wl::by_size(size, 8, 16, 24, 64), m = n + 1;
    const float iso = 1.0f;
    std::mt19937_64 rng(seed);
    float cx[3], cy[3], cz[3], r2[3];
    for (int b = 0; b < 3; ++b) {
      cx[b] = wl::uniform_float(rng, 0.3f, 0.7f) * n;
      cy[b] = wl::uniform_float(rng, 0.3f, 0.7f) * n;
      cz[b] = wl::uniform_float(rng, 0.3f, 0.7f) * n;
      const float rad = wl::uniform_float(rng, 0.15f, 0.3f) * n;
      r2[b] = rad * rad;
    }
    std::vector<float> field(size_t(m) * m * m);
    for (int z = 0; z < m; ++z)
      for (int y = 0; y < m; ++y)
        for (int x = 0; x < m; ++x) {
          float f = 0.0f;
          for (int b = 0; b < 3; ++b) {
            const float dx = x - cx[b], dy = y - cy[b], dz = z - cz[b];
            f += r2[b] / (dx * dx + dy * dy + dz * dz + 0.5f);
          }
          field[(size_t(z) * m + y) * m + x] = f + wl::uniform_float(rng, -0.02f, 0.02f);
        }
    const size_t cubes = size_t(n) * n * n;

    load_workload_ptx(dev, module);
    DevPtr dfield = dev.upload(field);
    DevPtr dpos = dev.malloc(cubes * 12 * sizeof(F3)), dnrm = dev.malloc(cubes * 12 * sizeof(F3));
    DevPtr dcnt = dev.malloc(cubes * 4);
    dev.memset(dpos, 0, cubes * 12 * sizeof(F3));
    dev.memset(dnrm, 0, cubes * 12 * sizeof(F3));
    dev.launch(kernel, Dim3(wl::ceil_div(cubes, threads)), Dim3(threads),
               {arg(dfield), arg(int32_t(n)), arg(iso), arg(dpos), arg(dnrm), arg(dcnt)});
    std::vector<float> pos = dev.download<float>(dpos, cubes * 36), nrm = dev.download<float>(dnrm, cubes * 36);
    std::vector<int32_t> cnt = dev.download<int32_t>(dcnt, cubes);
    for (DevPtr q : {dfield, dpos, dnrm, dcnt}) dev.free(q);

    const int ea[12] = {0, 2, 4, 6, 0, 1, 4, 5, 0, 1, 2, 3};
    const int eb[12] = {1, 3, 5, 7, 2, 3, 6, 7, 4, 5, 6, 7};
    std::vector<double> ref_pos(cubes * 36, 0.0), ref_nrm(cubes * 36, 0.0);
    std::vector<int32_t> ref_cnt(cubes);
    size_t total = 0;
    for (size_t q = 0; q < cubes; ++q) {
      const int x = int(q % n), y = int((q / n) % n), z = int(q / (size_t(n) * n));
      float v[8], g[8][3];
      for (int c = 0; c < 8; ++c) v[c] = field[(size_t(z + (c >> 2 & 1)) * m + y + (c >> 1 & 1)) * m + x + (c & 1)];
      for (int c = 0; c < 8; ++c) {
        g[c][0] = v[c | 1] - v[c & ~1];
        g[c][1] = v[c | 2] - v[c & ~2];
        g[c][2] = v[c | 4] - v[c & ~4];
      }
      int k = 0;
      for (int e = 0; e < 12; ++e) {
        const int a = ea[e], b = eb[e];
        if ((v[a] < iso) == (v[b] < iso)) continue;
        const double f = (double(iso) - v[a]) / (double(v[b]) - v[a]);
        const size_t o = (q * 12 + k) * 3;
        for (int d = 0; d < 3; ++d) ref_pos[o + d] = double((d == 0 ? x : d == 1 ? y : z) + (a >> d & 1)) +
                                                     f * double((b >> d & 1) - (a >> d & 1));
        double nv[3], len = 0.0;
        for (int d = 0; d < 3; ++d) {
          nv[d] = g[a][d] + f * (double(g[b][d]) - g[a][d]);
          len += nv[d] * nv[d];
        }
        len = std::sqrt(len + 1e-20);
        for (int d = 0; d < 3; ++d) ref_nrm[o + d] = nv[d] / len;
        ++k;
      }
      ref_cnt[q] = k;
      total += k;
    }
    // Positions are grid coordinates (< 65) from one interpolation; normals are
    // unit vectors from gradients of size ~0.01..1: 1e-4 relative + 1e-4.
    WorkloadResult r = wl::all_of({wl::check_exact("count", cnt, ref_cnt),
                                   wl::check_floats("pos", pos, ref_pos, 1e-5, 1e-4),
                                   wl::check_floats("normal", nrm, ref_nrm, 1e-4, 1e-4)});
    if (r.verified) r.detail = std::to_string(total) + " vertices in " + std::to_string(cubes) + " cubes match";
    return r;
}

}  // namespace wl
}  // namespace warptlm
