// The marching-cubes host driver shared by ss_mc (MC1: 9216 B, 32 threads) and
// ss_mc2 (MC2: 13824 B, 48 threads): a seeded metaball field on an (n+1)^3
// grid; the host builds the two lookup tables (vertex count and crossing
// edges per cube index, as the sample's numVertsTable / triTable) and the
// exclusive scan of the cubes' vertex counts (the sample's numVertsScanned);
// one launch of `kernel` with one block of `threads` threads per `threads`
// cubes; every vertex and normal checked against a CPU reference.
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
    const int ea[12] = {0, 2, 4, 6, 0, 1, 4, 5, 0, 1, 2, 3};
    const int eb[12] = {1, 3, 5, 7, 2, 3, 6, 7, 4, 5, 6, 7};

    // Per cube index: the crossing edges in edge order (16 slots a row).
    std::vector<uint32_t> num_verts(256, 0), edges(256 * 16, 0);
    for (int ci = 0; ci < 256; ++ci)
      for (int e = 0; e < 12; ++e)
        if ((ci >> ea[e] & 1) != (ci >> eb[e] & 1)) edges[size_t(ci) * 16 + num_verts[ci]++] = uint32_t(e);
    auto cube_index = [&](size_t q) {
      const int x = int(q % n), y = int((q / n) % n), z = int(q / (size_t(n) * n));
      uint32_t ci = 0;
      for (int c = 0; c < 8; ++c)
        ci |= uint32_t(field[(size_t(z + (c >> 2 & 1)) * m + y + (c >> 1 & 1)) * m + x + (c & 1)] < iso) << c;
      return ci;
    };
    std::vector<uint32_t> scanned(cubes);
    uint32_t total = 0;
    for (size_t q = 0; q < cubes; ++q) {
      scanned[q] = total;
      total += num_verts[cube_index(q)];
    }

    load_workload_ptx(dev, module);
    DevPtr dfield = dev.upload(field), dnum = dev.upload(num_verts), dedges = dev.upload(edges);
    DevPtr dscan = dev.upload(scanned);
    DevPtr dpos = dev.malloc(size_t(total) * 16 + 16), dnrm = dev.malloc(size_t(total) * 16 + 16);
    dev.memset(dpos, 0, size_t(total) * 16 + 16);
    dev.memset(dnrm, 0, size_t(total) * 16 + 16);
    dev.launch(kernel, Dim3(wl::ceil_div(cubes, threads)), Dim3(threads),
               {arg(dfield), arg(int32_t(n)), arg(iso), arg(dnum), arg(dedges), arg(dscan), arg(total), arg(dpos),
                arg(dnrm)});
    std::vector<float> pos = dev.download<float>(dpos, size_t(total) * 4), nrm = dev.download<float>(dnrm, size_t(total) * 4);
    for (DevPtr q : {dfield, dnum, dedges, dscan, dpos, dnrm}) dev.free(q);

    std::vector<double> ref_pos(size_t(total) * 4, 0.0), ref_nrm(size_t(total) * 4, 0.0);
    for (size_t q = 0; q < cubes; ++q) {
      const int x = int(q % n), y = int((q / n) % n), z = int(q / (size_t(n) * n));
      float v[8], g[8][3];
      for (int c = 0; c < 8; ++c) v[c] = field[(size_t(z + (c >> 2 & 1)) * m + y + (c >> 1 & 1)) * m + x + (c & 1)];
      for (int c = 0; c < 8; ++c) {
        g[c][0] = v[c | 1] - v[c & ~1];
        g[c][1] = v[c | 2] - v[c & ~2];
        g[c][2] = v[c | 4] - v[c & ~4];
      }
      size_t k = scanned[q];
      for (int e = 0; e < 12; ++e) {
        const int a = ea[e], b = eb[e];
        if ((v[a] < iso) == (v[b] < iso)) continue;
        const double f = (double(iso) - v[a]) / (double(v[b]) - v[a]);
        const size_t o = k * 4;
        for (int d = 0; d < 3; ++d) {
          ref_pos[o + d] = double((d == 0 ? x : d == 1 ? y : z) + (a >> d & 1)) + f * double((b >> d & 1) - (a >> d & 1));
          ref_nrm[o + d] = g[a][d] + f * (double(g[b][d]) - g[a][d]);
        }
        ref_pos[o + 3] = 1.0;
        ++k;
      }
    }
    // Positions are grid coordinates (< 65) from one interpolation; normals are
    // interpolated gradients of size ~0.01..10: 1e-4 relative + 1e-4.
    WorkloadResult r = wl::all_of({wl::check_floats("pos", pos, ref_pos, 1e-5, 1e-4),
                                   wl::check_floats("normal", nrm, ref_nrm, 1e-4, 1e-4)});
    if (r.verified) r.detail = std::to_string(total) + " vertices in " + std::to_string(cubes) + " cubes match";
    return r;
}

}  // namespace wl
}  // namespace warptlm
