// Host driver for ss_backprop: seeded inputs and weights; one launch of
// ss_bp_forward over (n_hid/48) x (n_in/48) blocks of 16x16 threads; checks the
// per-patch partial sums against a double reference and the decayed weights
// exactly (one float multiply).
#include <cmath>
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class SsBackprop : public Workload {
 public:
  const char* name() const override { return "ss_backprop"; }
  const char* description() const override {
    return "scratchpad-sharing backprop (9408 B, 256 thr): 48x48 weight patch reduced in shared memory, then weight decay";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const int p = 48;
    const int n_in = wl::by_size(size, 96, 384, 480, 3072);
    const int n_hid = wl::by_size(size, 96, 384, 576, 1536);
    const int in_blocks = n_in / p;
    const float decay = 0.01f;
    std::mt19937_64 rng(seed);
    std::vector<float> x(n_in), w(size_t(n_in) * n_hid);
    for (auto& v : x) v = wl::unit_float(rng);
    for (auto& v : w) v = wl::uniform_float(rng, -1.0f, 1.0f);

    load_workload_ptx(dev, "ss_backprop");
    DevPtr dx = dev.upload(x), dw = dev.upload(w);
    DevPtr dpart = dev.malloc(uint64_t(in_blocks) * n_hid * sizeof(float));
    DevPtr dwout = dev.malloc(w.size() * sizeof(float));
    dev.launch("ss_bp_forward", Dim3(uint32_t(n_hid / p), uint32_t(in_blocks)), Dim3(16, 16),
               {arg(dx), arg(dw), arg(dpart), arg(dwout), arg(int32_t(n_hid)), arg(decay)});
    std::vector<float> part = dev.download<float>(dpart, size_t(in_blocks) * n_hid);
    std::vector<float> wout = dev.download<float>(dwout, w.size());
    for (DevPtr q : {dx, dw, dpart, dwout}) dev.free(q);

    std::vector<double> ref(part.size()), extra(part.size());
    for (int b = 0; b < in_blocks; ++b)
      for (int j = 0; j < n_hid; ++j) {
        double s = 0.0, sa = 0.0;
        for (int i = b * p; i < (b + 1) * p; ++i) {
          const double t = double(w[size_t(i) * n_hid + j]) * x[i];
          s += t;
          sa += std::fabs(t);
        }
        ref[size_t(b) * n_hid + j] = s;
        extra[size_t(b) * n_hid + j] = 1e-6 * sa;  // float rounding of 48 products and sums
      }
    const float keep = 1.0f - decay;
    std::vector<float> ref_w(w.size());
    for (size_t k = 0; k < w.size(); ++k) ref_w[k] = w[k] * keep;
    return wl::all_of({wl::check_floats("partial", part, ref, 1e-5, 1e-6, &extra),
                       wl::check_exact("w_out", wout, ref_w)});
  }
};

}  // namespace

std::unique_ptr<Workload> make_ss_backprop() { return std::make_unique<SsBackprop>(); }

}  // namespace warptlm
