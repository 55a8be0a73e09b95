// Host driver for ss_dct4: the rounded DCT coefficients of a seeded 16-bit
// image in [-128, 127], transformed back in place by one launch of
// ss_idct_short over 32x32 tiles (128 threads each); the fixed-point inverse
// (columns, then rows) is replayed on the CPU and every value checked exactly.
#include <cmath>
#include <cstdint>
#include <random>

#include "workloads/drivers.hpp"
#include "workloads/dct_q12.hpp"
#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

using wl::kQ12;
using wl::round_shift;

// The kernel's 8-point inverse: x[n] = sum_k C[k][n] X[k], rounded by `shift` bits.
void inverse8(const int32_t* v, int32_t* o, int shift) {
  for (int n = 0; n < 8; ++n) {
    int32_t acc = 0;
    for (int k = 0; k < 8; ++k) acc += kQ12.c[k][n] * v[k];
    o[n] = round_shift(acc, shift);
  }
}

class SsDct4 : public Workload {
 public:
  const char* name() const override { return "ss_dct4"; }
  const char* description() const override {
    return "scratchpad-sharing DCT4 (2176 B, 128 thr): fixed-point 8x8 inverse DCT of shorts in place, padded 32x34 "
           "tile moved as words by half-warps, columns then rows";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    // small and medium give every SM more blocks than the 12 resident under sharing.
    const int width = wl::by_size(size, 64, 512, 1024, 2048);
    const int height = wl::by_size(size, 64, 512, 1024, 2048);
    std::mt19937_64 rng(seed);
    std::vector<float> img(size_t(width) * height);
    for (auto& v : img) v = float(int(wl::uniform_u32(rng, 256)) - 128);
    const std::vector<double> exact = wl::dct8x8_reference(img, width, height);
    std::vector<int16_t> coef(exact.size());
    for (size_t i = 0; i < coef.size(); ++i) coef[i] = int16_t(std::lround(exact[i]));

    load_workload_ptx(dev, "ss_dct4");
    DevPtr dimg = dev.upload(coef);
    dev.launch("ss_idct_short", Dim3(uint32_t(width / 32), uint32_t(height / 32)), Dim3(128),
               {arg(dimg), arg(int32_t(width))});
    std::vector<int16_t> out = dev.download<int16_t>(dimg, coef.size());
    dev.free(dimg);

    std::vector<int16_t> ref(coef.size());
    for (int by = 0; by < height; by += 8)
      for (int bx = 0; bx < width; bx += 8) {
        int16_t cols[8][8];  // after the column pass, Q2, as the tile holds it
        int32_t v[8], o[8];
        for (int x = 0; x < 8; ++x) {
          for (int k = 0; k < 8; ++k) v[k] = coef[size_t(by + k) * width + bx + x];
          inverse8(v, o, 10);
          for (int n = 0; n < 8; ++n) cols[n][x] = int16_t(o[n]);
        }
        for (int y = 0; y < 8; ++y) {
          for (int k = 0; k < 8; ++k) v[k] = cols[y][k];
          inverse8(v, o, 14);
          for (int n = 0; n < 8; ++n) ref[size_t(by + y) * width + bx + n] = int16_t(o[n]);
        }
      }
    return wl::check_exact("pixel", out, ref);
  }
};

}  // namespace

std::unique_ptr<Workload> make_ss_dct4() { return std::make_unique<SsDct4>(); }

}  // namespace warptlm
