// Host drivers shared by workload variants that differ only in their kernel:
// the two reductions (interleaved vs sequential addressing), the two
// transposes (unpadded vs padded tile) and the tiled DCTs (ss_dct1, ss_dct48;
// the inverse ss_dct2).
#pragma once
#include <cmath>
#include <random>
#include <string>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace wl {

struct ReductionKernel {
  const char* workload;          // PTX module (embedded under this name)
  const char* kernel;            // entry point
  uint32_t sizes[4];             // elements at tiny, small, medium, large
  uint32_t elements_per_thread;  // inputs one thread adds while loading
  bool dynamic_smem;             // the kernel's tile is extern __shared__
};

// Sums a seeded float vector with repeated launches (each pass reduces every
// block's slice to one partial) until one value remains; the first pass's
// partials are checked exactly, the total within a stated tolerance.
inline WorkloadResult run_reduction(Device& dev, const ReductionKernel& k, Size size, uint64_t seed) {
    const uint32_t n = wl::by_size<uint32_t>(size, k.sizes[0], k.sizes[1], k.sizes[2], k.sizes[3]);
    const uint32_t block = 256;
    const uint32_t per_block = k.elements_per_thread * block;  // input elements one block reduces
    // Inputs are k/64 for integer k in [-64, 64]: every per-block partial sum
    // (at most 512 terms) is then exact in float whatever the order, so the
    // first-pass partials are checked exactly.
    std::mt19937_64 rng(seed);
    std::vector<float> in(n);
    for (auto& v : in) v = float(int(wl::uniform_u32(rng, 129)) - 64) / 64.0f;

    load_workload_ptx(dev, k.workload);
    DevPtr src = dev.upload(in);
    std::vector<DevPtr> owned{src};
    std::vector<float> first_pass;
    uint32_t count = n;
    do {
      const uint32_t blocks = wl::ceil_div(count, per_block);
      DevPtr dst = dev.malloc(uint64_t(blocks) * sizeof(float));
      owned.push_back(dst);
      dev.launch(k.kernel, Dim3(blocks), Dim3(block), {arg(src), arg(dst), arg(uint32_t(count))},
                 k.dynamic_smem ? block * uint32_t(sizeof(float)) : 0);
      if (count == n) first_pass = dev.download<float>(dst, blocks);
      src = dst;
      count = blocks;
    } while (count > 1);
    const float total = dev.download<float>(src, 1)[0];
    for (DevPtr p : owned) dev.free(p);

    // Reference: the same grouping in double (exact for these inputs).
    std::vector<float> ref_first(wl::ceil_div(n, per_block));
    double sum = 0.0, sumabs = 0.0;
    for (size_t b = 0; b < ref_first.size(); ++b) {
      double s = 0.0;
      for (size_t i = b * per_block; i < std::min<size_t>(n, (b + 1) * per_block); ++i) s += in[i];
      ref_first[b] = float(s);
      sum += s;
    }
    for (float v : in) sumabs += std::fabs(v);
    WorkloadResult partials = wl::check_exact("partial", first_pass, ref_first);
    if (!partials.verified) return partials;
    // Later passes add partials that may exceed float's exact range for huge
    // n: tolerance 1e-5 absolute + 1e-6 * sum |x| (normally the result is exact).
    WorkloadResult whole =
        wl::check_floats("sum", std::vector<float>{total}, std::vector<double>{sum}, 0.0, 1e-5 + 1e-6 * sumabs);
    if (!whole.verified) return whole;
    WorkloadResult r;
    r.verified = true;
    r.detail = std::to_string(ref_first.size()) + " block partials match; sum of " + std::to_string(n) +
               " elements = " + wl::fmt_float(total);
    return r;
}

// Transposes a seeded height x width float matrix (not square, not always a
// multiple of the tile) with `kernel` (also its PTX module's name) in tdim x
// tdim tiles of tdim x trows threads; exact check. Arguments (in, out, width,
// height), or (out, in, width, height) with `odata_first` (the SDK 2.2 order).
inline WorkloadResult run_transpose_tiled(Device& dev, const char* kernel, int width, int height, uint32_t tdim,
                                          uint32_t trows, bool odata_first, uint64_t seed) {
    std::mt19937_64 rng(seed);
    const size_t count = size_t(width) * height;
    std::vector<float> in(count);
    for (auto& v : in) v = wl::uniform_float(rng, -1000.0f, 1000.0f);

    load_workload_ptx(dev, kernel);
    DevPtr din = dev.upload(in);
    DevPtr dout = dev.malloc(count * sizeof(float));
    dev.set_launch_hint(1);  // seed 004 Table 6.2 / 6.1 hint (read only by locality-aware scheduling): MT: type 1
    dev.launch(kernel, Dim3(wl::ceil_div(width, tdim), wl::ceil_div(height, tdim)), Dim3(tdim, trows),
               {arg(odata_first ? dout : din), arg(odata_first ? din : dout), arg(int32_t(width)), arg(int32_t(height))});
    std::vector<float> out = dev.download<float>(dout, count);
    dev.free(din);
    dev.free(dout);

    // out is width x height: out[c][r] = in[r][c].
    std::vector<float> ref(count);
    for (int r = 0; r < height; ++r)
      for (int c = 0; c < width; ++c) ref[size_t(c) * height + r] = in[size_t(r) * width + c];
    return wl::check_exact("out", out, ref);
}

// The SDK 2.2 transpose of seed 001 (ep_transpose, ep_transpose_opt): 16 x 16 tiles of 16 x 16 threads,
// (out, in, width, height); Table 5's 256 x 256 matrix at small.
inline WorkloadResult run_sdk_transpose(Device& dev, const char* kernel, Size size, uint64_t seed) {
    return run_transpose_tiled(dev, kernel, wl::by_size(size, 48, 256, 1024, 2048), wl::by_size(size, 40, 256, 512, 2048),
                               16, 16, true, seed);
}

// The library's transposes: 32 x 32 tiles of 32 x 8 threads.
inline WorkloadResult run_transpose(Device& dev, const char* kernel, Size size, uint64_t seed) {
    return run_transpose_tiled(dev, kernel, wl::by_size(size, 72, 320, 1024, 4096), wl::by_size(size, 40, 256, 1024, 2048),
                               32, 8, false, seed);
}


// Exact 8x8 DCT-II (orthonormal) of every 8x8 block of a width x height image,
// in double: the CPU reference of the DCT workloads.
inline std::vector<double> dct8x8_reference(const std::vector<float>& img, int width, int height) {
  double c[8][8];
  for (int k = 0; k < 8; ++k)
    for (int n = 0; n < 8; ++n)
      c[k][n] = (k == 0 ? std::sqrt(1.0 / 8.0) : 0.5) * std::cos((2 * n + 1) * k * 3.14159265358979323846 / 16.0);
  std::vector<double> ref(img.size());
  for (int by = 0; by < height; by += 8)
    for (int bx = 0; bx < width; bx += 8)
      for (int v = 0; v < 8; ++v)
        for (int u = 0; u < 8; ++u) {
          double s = 0.0;
          for (int y = 0; y < 8; ++y)
            for (int x = 0; x < 8; ++x) s += c[v][y] * c[u][x] * img[size_t(by + y) * width + bx + x];
          ref[size_t(by + v) * width + bx + u] = s;
        }
  return ref;
}

// One launch of a tiled 8x8 DCT kernel over a seeded float image in
// [-128, 128), every coefficient checked against dct8x8_reference. The
// kernel takes (in, out, width) and covers a tile_w x tile_h pixel tile per
// block of `threads` threads.
struct DctTileKernel {
  const char* module;            // PTX module (embedded under this name)
  const char* kernel;            // entry point
  int widths[4], heights[4];     // image size at tiny, small, medium, large
  uint32_t tile_w, tile_h, threads;
};

inline WorkloadResult run_dct_tiles(Device& dev, const DctTileKernel& k, Size size, uint64_t seed) {
  const int width = by_size(size, k.widths[0], k.widths[1], k.widths[2], k.widths[3]);
  const int height = by_size(size, k.heights[0], k.heights[1], k.heights[2], k.heights[3]);
  std::mt19937_64 rng(seed);
  std::vector<float> img(size_t(width) * height);
  for (auto& v : img) v = uniform_float(rng, -128.0f, 128.0f);

  load_workload_ptx(dev, k.module);
  DevPtr din = dev.upload(img), dout = dev.malloc(img.size() * sizeof(float));
  dev.launch(k.kernel, Dim3(uint32_t(width) / k.tile_w, uint32_t(height) / k.tile_h), Dim3(k.threads),
             {arg(din), arg(dout), arg(int32_t(width))});
  std::vector<float> out = dev.download<float>(dout, img.size());
  dev.free(din);
  dev.free(dout);

  const std::vector<double> ref = dct8x8_reference(img, width, height);
  // Coefficients up to ~1024; the 9-digit cosines and float sums: 4e-3 + 1e-5 rel.
  return check_floats("coef", out, ref, 1e-5, 4e-3);
}

// One launch of a tiled 8x8 inverse DCT kernel (same shape and arguments as
// above) over the float-rounded DCT coefficients of a seeded image in
// [-128, 128). The kernel's 8-point inverse is x[n] = sum_k C[k][n] X[k]
// accumulated with fmaf for k = 0..7 from 0, rows then columns, with C rounded
// to float: replayed here in the same order, so every pixel is checked exactly.
inline WorkloadResult run_idct_tiles(Device& dev, const DctTileKernel& k, Size size, uint64_t seed) {
  const int width = by_size(size, k.widths[0], k.widths[1], k.widths[2], k.widths[3]);
  const int height = by_size(size, k.heights[0], k.heights[1], k.heights[2], k.heights[3]);
  std::mt19937_64 rng(seed);
  std::vector<float> img(size_t(width) * height);
  for (auto& v : img) v = uniform_float(rng, -128.0f, 128.0f);
  const std::vector<double> exact = dct8x8_reference(img, width, height);
  std::vector<float> coef(exact.begin(), exact.end());

  load_workload_ptx(dev, k.module);
  DevPtr din = dev.upload(coef), dout = dev.malloc(coef.size() * sizeof(float));
  dev.launch(k.kernel, Dim3(uint32_t(width) / k.tile_w, uint32_t(height) / k.tile_h), Dim3(k.threads),
             {arg(din), arg(dout), arg(int32_t(width))});
  std::vector<float> out = dev.download<float>(dout, coef.size());
  dev.free(din);
  dev.free(dout);

  float c[8][8];
  for (int u = 0; u < 8; ++u)
    for (int n = 0; n < 8; ++n)
      c[u][n] = float((u == 0 ? std::sqrt(1.0 / 8.0) : 0.5) * std::cos((2 * n + 1) * u * 3.14159265358979323846 / 16.0));
  auto inverse8 = [&c](const float* v, float* o) {
    for (int n = 0; n < 8; ++n) {
      float acc = 0.0f;
      for (int u = 0; u < 8; ++u) acc = std::fmaf(c[u][n], v[u], acc);
      o[n] = acc;
    }
  };
  std::vector<float> ref(coef.size());
  for (int by = 0; by < height; by += 8)
    for (int bx = 0; bx < width; bx += 8) {
      float blk[8][8], v[8], o[8];
      for (int y = 0; y < 8; ++y) {
        for (int x = 0; x < 8; ++x) v[x] = coef[size_t(by + y) * width + bx + x];
        inverse8(v, blk[y]);
      }
      for (int x = 0; x < 8; ++x) {
        for (int y = 0; y < 8; ++y) v[y] = blk[y][x];
        inverse8(v, o);
        for (int y = 0; y < 8; ++y) ref[size_t(by + y) * width + bx + x] = o[y];
      }
    }
  return check_exact("pixel", out, ref);
}

}  // namespace wl
}  // namespace warptlm
