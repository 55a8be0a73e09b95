// Host driver for ss_dct5: a seeded float image in [-128, 128), one launch of
// ss_dct5 over 8x8 blocks of 8 x 8 threads; the kernel's two fmaf products are
// replayed on the host with the float-rounded cosines, so every coefficient is
// checked exactly.
#include <cmath>
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class SsDct5 : public Workload {
 public:
  const char* name() const override { return "ss_dct5"; }
  const char* description() const override {
    return "Set-3 control DCT5 (512 B, 64 thr): float 8x8 DCT, a block per 8x8 pixel block, two shared blocks and a "
           "constant cosine matrix";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    // small and medium give every SM more blocks than the 16 it holds.
    const int width = wl::by_size(size, 64, 256, 512, 2048);
    const int height = wl::by_size(size, 64, 256, 512, 2048);
    std::mt19937_64 rng(seed);
    std::vector<float> img(size_t(width) * height);
    for (auto& v : img) v = wl::uniform_float(rng, -128.0f, 128.0f);

    load_workload_ptx(dev, "ss_dct5");
    DevPtr din = dev.upload(img), dout = dev.malloc(img.size() * sizeof(float));
    dev.launch("ss_dct5", Dim3(uint32_t(width / 8), uint32_t(height / 8)), Dim3(8, 8),
               {arg(din), arg(dout), arg(int32_t(width))});
    const std::vector<float> got = dev.download<float>(dout, img.size());
    dev.free(din);
    dev.free(dout);

    // c[k][n] = C[k][n] rounded to float (the kernel's c_dct5[8 n + k]).
    float c[8][8];
    for (int k = 0; k < 8; ++k)
      for (int n = 0; n < 8; ++n)
        c[k][n] = float((k == 0 ? std::sqrt(1.0 / 8.0) : 0.5) * std::cos((2 * n + 1) * k * 3.14159265358979323846 / 16.0));
    std::vector<float> ref(img.size());
    for (int by = 0; by < height; by += 8)
      for (int bx = 0; bx < width; bx += 8) {
        float cols[8][8];
        for (int v = 0; v < 8; ++v)
          for (int u = 0; u < 8; ++u) {
            float acc = 0.0f;
            for (int i = 0; i < 8; ++i) acc = std::fmaf(c[v][i], img[size_t(by + i) * width + bx + u], acc);
            cols[v][u] = acc;
          }
        for (int v = 0; v < 8; ++v)
          for (int u = 0; u < 8; ++u) {
            float acc = 0.0f;
            for (int i = 0; i < 8; ++i) acc = std::fmaf(cols[v][i], c[u][i], acc);
            ref[size_t(by + v) * width + bx + u] = acc;
          }
      }
    return wl::check_exact("coef", got, ref);
  }
};

}  // namespace

std::unique_ptr<Workload> make_ss_dct5() { return std::make_unique<SsDct5>(); }

}  // namespace warptlm
