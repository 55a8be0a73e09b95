// Host driver for ss_backprop: seeded inputs and weights in Rodinia's layout
// ((n_in + 1) x (n_hid + 1) weights, row and column 0 the bias entries); one
// launch of ss_bp_forward over (n_hid/48) x (n_in/48) blocks of 16x16
// threads. The products and the kernel's reduction order are replayed on the
// CPU in float, so the per-patch column sums and the weights the kernel
// writes back (its reduced patch, as Rodinia's kernel leaves them) are checked
// exactly.
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class SsBackprop : public Workload {
 public:
  const char* name() const override { return "ss_backprop"; }
  const char* description() const override {
    return "scratchpad-sharing backprop (9408 B, 256 thr): Rodinia's bpnn_layerforward with 48x48 patches: products "
           "and a log2 reduction in shared memory, reduced patch written back";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const int p = 48;
    const int n_in = wl::by_size(size, 96, 384, 480, 3072);
    const int n_hid = wl::by_size(size, 96, 384, 576, 1536);
    const int in_blocks = n_in / p, stride = n_hid + 1;
    std::mt19937_64 rng(seed);
    std::vector<float> x(n_in + 1), w(size_t(n_in + 1) * stride);
    for (auto& v : x) v = wl::unit_float(rng);
    for (auto& v : w) v = wl::uniform_float(rng, -1.0f, 1.0f);

    load_workload_ptx(dev, "ss_backprop");
    DevPtr dx = dev.upload(x), dw = dev.upload(w);
    DevPtr dpart = dev.malloc(uint64_t(in_blocks) * n_hid * sizeof(float));
    dev.launch("ss_bp_forward", Dim3(uint32_t(n_hid / p), uint32_t(in_blocks)), Dim3(16, 16),
               {arg(dx), arg(dw), arg(dpart), arg(int32_t(n_hid))});
    std::vector<float> part = dev.download<float>(dpart, size_t(in_blocks) * n_hid);
    std::vector<float> wout = dev.download<float>(dw, w.size());
    for (DevPtr q : {dx, dw, dpart}) dev.free(q);

    // The kernel's arithmetic per patch: float products, then for power = 2,
    // 4, .., 64 row r (r % power == 0) += row r + power/2 if that row exists.
    std::vector<float> ref_w = w, ref_part(part.size());
    std::vector<float> m(size_t(p) * p);
    for (int by = 0; by < in_blocks; ++by)
      for (int bx = 0; bx < n_hid / p; ++bx) {
        const int i0 = by * p, j0 = bx * p;
        for (int r = 0; r < p; ++r)
          for (int c = 0; c < p; ++c) m[size_t(r) * p + c] = w[size_t(i0 + r + 1) * stride + j0 + c + 1] * x[i0 + r + 1];
        for (int power = 2; power / 2 < p; power *= 2)
          for (int r = 0; r + power / 2 < p; r += power)
            for (int c = 0; c < p; ++c) m[size_t(r) * p + c] = m[size_t(r) * p + c] + m[size_t(r + power / 2) * p + c];
        for (int r = 0; r < p; ++r)
          for (int c = 0; c < p; ++c) ref_w[size_t(i0 + r + 1) * stride + j0 + c + 1] = m[size_t(r) * p + c];
        for (int c = 0; c < p; ++c) ref_part[size_t(by) * n_hid + j0 + c] = m[c];
      }
    return wl::all_of({wl::check_exact("partial", part, ref_part), wl::check_exact("weights", wout, ref_w)});
  }
};

}  // namespace

std::unique_ptr<Workload> make_ss_backprop() { return std::make_unique<SsBackprop>(); }

}  // namespace warptlm
