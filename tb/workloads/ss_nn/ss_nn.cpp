// Host driver for ss_nn: seeded layer-2 neurons (six 13x13 maps per image, in
// the range of the previous layer's scaled tanh) and seeded weights (50 output
// maps x 156), one ss_nn_layer2 launch over 50 x images blocks of 5 x 5
// threads. Each output's weighted sum is replayed on the host in the kernel's
// fmaf order (exact); the scaled tanh is checked against double precision
// within 1e-6 (tanhf's few-ulp error on outputs of magnitude <= 1.7159).
#include <cmath>
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class SsNn : public Workload {
 public:
  const char* name() const override { return "ss_nn"; }
  const char* description() const override {
    return "Set-3 control NN (25 thr, no scratchpad): executeSecondLayer, a 5x5 output map per block from six 13x13 "
           "input maps";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    // small and medium give every SM more blocks than the 16 it holds; medium is the study's 28 images.
    const int images = wl::by_size(size, 1, 10, 28, 100);
    constexpr int kIn = 13, kMaps = 6, kOut = 5, kFeatures = 50, kPerFeature = 156;
    std::mt19937_64 rng(seed);
    std::vector<float> in(size_t(images) * kMaps * kIn * kIn), weights(size_t(kFeatures) * kPerFeature);
    for (auto& v : in) v = wl::uniform_float(rng, -1.7f, 1.7f);
    for (auto& v : weights) v = wl::uniform_float(rng, -0.1f, 0.1f);

    load_workload_ptx(dev, "ss_nn");
    DevPtr din = dev.upload(in), dw = dev.upload(weights);
    const size_t outputs = size_t(images) * kFeatures * kOut * kOut;
    DevPtr dout = dev.malloc(outputs * sizeof(float));
    dev.launch("ss_nn_layer2", Dim3(kFeatures, uint32_t(images)), Dim3(kOut, kOut), {arg(din), arg(dw), arg(dout)});
    const std::vector<float> got = dev.download<float>(dout, outputs);
    for (DevPtr p : {din, dw, dout}) dev.free(p);

    std::vector<double> ref(outputs);
    for (int img = 0; img < images; ++img)
      for (int f = 0; f < kFeatures; ++f)
        for (int y = 0; y < kOut; ++y)
          for (int x = 0; x < kOut; ++x) {
            const int w0 = f * kPerFeature;
            const size_t window = size_t(img) * kMaps * kIn * kIn + 2 * y * kIn + 2 * x;
            float sum = weights[w0];
            for (int k = 0; k < 25; ++k)
              for (int m = 0; m < kMaps; ++m)
                sum = std::fmaf(in[window + m * kIn * kIn + kIn * (k / 5) + k % 5], weights[w0 + 1 + k * kMaps + m], sum);
            const float scaled = float(0.66666667 * double(sum));
            ref[size_t(img) * kFeatures * kOut * kOut + f * kOut * kOut + y * kOut + x] = 1.7159 * std::tanh(double(scaled));
          }
    return wl::check_floats("out", got, ref, 0.0, 1e-6);
  }
};

}  // namespace

std::unique_ptr<Workload> make_ss_nn() { return std::make_unique<SsNn>(); }

}  // namespace warptlm
