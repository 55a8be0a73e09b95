// Host driver for dct8x8: a seeded image of 0..255 float pixels, one launch,
// every coefficient checked against the direct (non-separable) 2-D DCT
// formula in double with a cosine table the host computes itself, which also
// checks the kernel's __constant__ table.
#include <cmath>
#include <random>

#include "workloads/drivers.hpp"
#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class Dct8x8 : public Workload {
 public:
  const char* name() const override { return "dct8x8"; }
  const char* description() const override {
    return "8x8 block 2-D DCT, separable passes through shared memory, __constant__ cosine table";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const int width = wl::by_size(size, 64, 192, 512, 2048);   // multiple of 32
    const int height = wl::by_size(size, 32, 128, 512, 1024);  // multiple of 8
    std::mt19937_64 rng(seed);
    const size_t count = size_t(width) * height;
    std::vector<float> img(count);
    for (auto& v : img) v = wl::uniform_float(rng, 0.0f, 255.0f);

    load_workload_ptx(dev, "dct8x8");
    DevPtr din = dev.upload(img);
    DevPtr dout = dev.malloc(count * sizeof(float));
    dev.launch("dct8x8", Dim3(uint32_t(width / 32), uint32_t(height / 8)), Dim3(32, 8),
               {arg(din), arg(dout), arg(int32_t(width)), arg(int32_t(height))});
    std::vector<float> got = dev.download<float>(dout, count);
    dev.free(din);
    dev.free(dout);

    const std::vector<double> ref = wl::dct8x8_reference(img, width, height);
    // Coefficients reach ~2040; two 8-term float passes with a float table
    // err by at most ~1e-3: tolerance 4e-3 absolute + 1e-5 relative.
    return wl::check_floats("coef", got, ref, 1e-5, 4e-3);
  }
};

}  // namespace

std::unique_ptr<Workload> make_dct8x8() { return std::make_unique<Dct8x8>(); }

}  // namespace warptlm
