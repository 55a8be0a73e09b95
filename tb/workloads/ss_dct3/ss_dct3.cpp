// Host driver for ss_dct3: a seeded 16-bit image in [-128, 127], transformed
// in place by one launch of ss_dct_short over 32x32 tiles (128 threads each);
// the fixed-point transform (columns, then rows) is replayed on the CPU and
// every coefficient checked exactly.
#include <cmath>
#include <cstdint>
#include <random>

#include "workloads/dct_q12.hpp"
#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

using wl::kQ12;
using wl::round_shift;

class SsDct3 : public Workload {
 public:
  const char* name() const override { return "ss_dct3"; }
  const char* description() const override {
    return "scratchpad-sharing DCT3 (2176 B, 128 thr): fixed-point 8x8 DCT of shorts in place, padded 32x34 tile "
           "moved as words by half-warps, columns then rows";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const int width = wl::by_size(size, 64, 256, 512, 2048);
    const int height = wl::by_size(size, 64, 256, 512, 2048);
    std::mt19937_64 rng(seed);
    std::vector<int16_t> img(size_t(width) * height);
    for (auto& v : img) v = int16_t(int(wl::uniform_u32(rng, 256)) - 128);

    load_workload_ptx(dev, "ss_dct3");
    DevPtr dimg = dev.upload(img);
    dev.launch("ss_dct_short", Dim3(uint32_t(width / 32), uint32_t(height / 32)), Dim3(128),
               {arg(dimg), arg(int32_t(width))});
    std::vector<int16_t> out = dev.download<int16_t>(dimg, img.size());
    dev.free(dimg);

    std::vector<int16_t> ref(img.size());
    for (int by = 0; by < height; by += 8)
      for (int bx = 0; bx < width; bx += 8) {
        int16_t cols[8][8];  // after the column pass, Q2, as the tile holds it
        for (int x = 0; x < 8; ++x)
          for (int k = 0; k < 8; ++k) {
            int32_t acc = 0;
            for (int n = 0; n < 8; ++n) acc += kQ12.c[k][n] * img[size_t(by + n) * width + bx + x];
            cols[k][x] = int16_t(round_shift(acc, 10));
          }
        for (int y = 0; y < 8; ++y)
          for (int k = 0; k < 8; ++k) {
            int32_t acc = 0;
            for (int n = 0; n < 8; ++n) acc += kQ12.c[k][n] * cols[y][n];
            ref[size_t(by + y) * width + bx + k] = int16_t(round_shift(acc, 14));
          }
      }
    return wl::check_exact("coef", out, ref);
  }
};

}  // namespace

std::unique_ptr<Workload> make_ss_dct3() { return std::make_unique<SsDct3>(); }

}  // namespace warptlm
