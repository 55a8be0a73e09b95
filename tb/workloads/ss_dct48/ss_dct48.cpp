// Host driver for ss_dct48: a seeded float image in [-128, 128), one launch of
// ss_dct48 over 64x32-pixel tiles (256 threads and 8320 B of shared memory
// each), every coefficient checked against a double-precision 2-D DCT-II.
#include <cmath>
#include <random>

#include "workloads/drivers.hpp"
#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class SsDct48 : public Workload {
 public:
  const char* name() const override { return "ss_dct48"; }
  const char* description() const override {
    return "scratchpad-sharing DCT1 at 48/64 KB (8320 B, 256 thr): float 8x8 DCT, butterfly row and column passes "
           "over a padded 32x65 tile";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const int width = wl::by_size(size, 128, 512, 768, 2048);
    const int height = wl::by_size(size, 64, 256, 512, 1024);
    std::mt19937_64 rng(seed);
    std::vector<float> img(size_t(width) * height);
    for (auto& v : img) v = wl::uniform_float(rng, -128.0f, 128.0f);

    dev.load_ptx(embedded_ptx("ss_dct48"), "ss_dct48.ptx");
    DevPtr din = dev.upload(img), dout = dev.malloc(img.size() * sizeof(float));
    dev.launch("ss_dct48", Dim3(uint32_t(width / 64), uint32_t(height / 32)), Dim3(256),
               {arg(din), arg(dout), arg(int32_t(width))});
    std::vector<float> out = dev.download<float>(dout, img.size());
    dev.free(din);
    dev.free(dout);

    const std::vector<double> ref = wl::dct8x8_reference(img, width, height);
    // Coefficients up to ~1024; the 9-digit cosines and float sums: 4e-3 + 1e-5 rel.
    return wl::check_floats("coef", out, ref, 1e-5, 4e-3);
  }
};

}  // namespace

std::unique_ptr<Workload> make_ss_dct48() { return std::make_unique<SsDct48>(); }

}  // namespace warptlm
