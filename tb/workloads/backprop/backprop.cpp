// Host driver for backprop: seeded inputs, targets, weights and previous
// weight changes; bp_forward, bp_activate, bp_adjust in sequence; checks the
// unit outputs, the error terms and the updated weights against a
// double-precision reference.
#include <cmath>
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class Backprop : public Workload {
 public:
  const char* name() const override { return "backprop"; }
  const char* description() const override {
    return "backprop layer: forward sums with shared-memory tree reduction, sigmoid, momentum weight update";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const int t = 16;  // BP_T in backprop.cu
    const int n_in = wl::by_size(size, 32, 256, 4096, 32768);
    const int n_hid = wl::by_size(size, 64, 64, 128, 128);
    const int in_blocks = n_in / t;
    const float eta = 0.3f, momentum = 0.3f;
    std::mt19937_64 rng(seed);
    std::vector<float> x(n_in), target(n_hid);
    const size_t nw = size_t(n_in) * n_hid;
    std::vector<float> w(nw), oldw(nw);
    // Weights scaled by 2/sqrt(n_in) keep the sums O(1), off the sigmoid's flat tails.
    const float scale = float(2.0 / std::sqrt(double(n_in)));
    for (auto& v : x) v = wl::unit_float(rng);
    for (auto& v : target) v = wl::unit_float(rng);
    for (auto& v : w) v = wl::uniform_float(rng, -1.0f, 1.0f) * scale;
    for (auto& v : oldw) v = wl::uniform_float(rng, -0.01f, 0.01f);

    load_workload_ptx(dev, "backprop");
    DevPtr dx = dev.upload(x), dtarget = dev.upload(target), dw = dev.upload(w), doldw = dev.upload(oldw);
    DevPtr dpartial = dev.malloc(uint64_t(in_blocks) * n_hid * sizeof(float));
    DevPtr dhidden = dev.malloc(uint64_t(n_hid) * sizeof(float));
    DevPtr ddelta = dev.malloc(uint64_t(n_hid) * sizeof(float));
    const Dim3 grid{uint32_t(n_hid / t), uint32_t(in_blocks)}, block{uint32_t(t), uint32_t(t)};
    dev.launch("bp_forward", grid, block, {arg(dx), arg(dw), arg(dpartial), arg(int32_t(n_in)), arg(int32_t(n_hid))});
    dev.launch("bp_activate", Dim3(wl::ceil_div(n_hid, 32)), Dim3(32),
               {arg(dpartial), arg(dtarget), arg(dhidden), arg(ddelta), arg(int32_t(in_blocks)), arg(int32_t(n_hid))});
    dev.launch("bp_adjust", grid, block,
               {arg(dw), arg(doldw), arg(dx), arg(ddelta), arg(int32_t(n_in)), arg(int32_t(n_hid)), arg(eta),
                arg(momentum)});
    std::vector<float> hidden = dev.download<float>(dhidden, n_hid);
    std::vector<float> delta = dev.download<float>(ddelta, n_hid);
    std::vector<float> w_new = dev.download<float>(dw, nw);
    std::vector<float> oldw_new = dev.download<float>(doldw, nw);
    for (DevPtr p : {dx, dtarget, dw, doldw, dpartial, dhidden, ddelta}) dev.free(p);

    std::vector<double> ref_h(n_hid), ref_d(n_hid), ref_w(nw), ref_dw(nw);
    for (int j = 0; j < n_hid; ++j) {
      double sum = 0.0;
      for (int i = 0; i < n_in; ++i) sum += double(w[size_t(i) * n_hid + j]) * x[i];
      const double h = 1.0 / (1.0 + std::exp(-sum));
      ref_h[j] = h;
      ref_d[j] = h * (1.0 - h) * (target[j] - h);
    }
    for (int i = 0; i < n_in; ++i)
      for (int j = 0; j < n_hid; ++j) {
        const size_t idx = size_t(i) * n_hid + j;
        const double change = double(eta) * ref_d[j] * x[i] + double(momentum) * oldw[idx];
        ref_dw[idx] = change;
        ref_w[idx] = w[idx] + change;
      }
    // Float sums of O(1) terms and float expf: 1e-4 relative + 1e-5 absolute
    // covers the rounding (the sum's error is ~1e-6 even at 32768 inputs).
    return wl::all_of({wl::check_floats("hidden", hidden, ref_h, 1e-4, 1e-5),
                       wl::check_floats("delta", delta, ref_d, 1e-4, 1e-5),
                       wl::check_floats("w", w_new, ref_w, 1e-4, 1e-5),
                       wl::check_floats("oldw", oldw_new, ref_dw, 1e-4, 1e-5)});
  }
};

}  // namespace

std::unique_ptr<Workload> make_backprop() { return std::make_unique<Backprop>(); }

}  // namespace warptlm
