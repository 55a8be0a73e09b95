// Host driver for rd_backprop, one training step of Rodinia's backprop with
// its host/device split: seeded inputs, weights and previous changes in
// Rodinia's (n_in + 1) x 17 layout; rdbp_layerforward; the host sums the
// partial sums, squashes them, runs the 16 -> 1 output layer and the error
// terms (as Rodinia's host does), restores the weights the forward kernel
// overwrote, and launches rdbp_adjust_weights. Checked: the partial sums and
// the tiles' column sums written back (against a double reference), and the
// adjusted weights and changes (against the update replayed from the same
// hidden error terms). Rodinia draws weights in [0, 1) and zeroes the
// previous changes, which saturates the sigmoid at 65536 inputs and makes the
// update a no-op; here the weights are scaled by 2/sqrt(n_in) and the
// previous changes are small random values, so every output carries
// information. The access pattern is Rodinia's.
#include <cmath>
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

double squash(double x) { return 1.0 / (1.0 + std::exp(-x)); }

class RdBackprop : public Workload {
 public:
  const char* name() const override { return "rd_backprop"; }
  const char* description() const override {
    return "Rodinia backprop: forward layer in 16x16 shared tiles over 68-byte weight rows (log2 reduction), host "
           "output layer, momentum weight update";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const int hid = 16, t = 16;  // Rodinia's hidden layer and block edge
    const int n_in = wl::by_size(size, 64, 2048, 16384, 65536);
    const int blocks = n_in / t, row = hid + 1;
    const size_t nw = size_t(n_in + 1) * row;
    const float eta = 0.3f, momentum = 0.3f;  // RD_ETA, RD_MOMENTUM in rd_backprop.cu
    std::mt19937_64 rng(seed);
    std::vector<float> x(n_in + 1), w(nw), oldw(nw), hw(size_t(row) * 2);
    const float scale = float(2.0 / std::sqrt(double(n_in)));
    x[0] = 1.0f;  // the bias input
    for (int i = 1; i <= n_in; ++i) x[i] = wl::unit_float(rng);
    for (auto& v : w) v = wl::uniform_float(rng, -1.0f, 1.0f) * scale;
    for (auto& v : oldw) v = wl::uniform_float(rng, -0.01f, 0.01f);
    for (auto& v : hw) v = wl::uniform_float(rng, -1.0f, 1.0f);
    const double target = wl::unit_float(rng);

    load_workload_ptx(dev, "rd_backprop");
    DevPtr dx = dev.upload(x), dw = dev.upload(w);
    DevPtr dpartial = dev.malloc(uint64_t(blocks) * hid * sizeof(float));
    const Dim3 grid{1, uint32_t(blocks)}, block{uint32_t(t), uint32_t(t)};
    dev.launch("rdbp_layerforward", grid, block, {arg(dx), arg(dw), arg(dpartial), arg(int32_t(hid))});
    const std::vector<float> partial = dev.download<float>(dpartial, size_t(blocks) * hid);
    const std::vector<float> w_tiles = dev.download<float>(dw, nw);

    // The host's part: hidden units from the partial sums, the output layer, the error terms.
    std::vector<double> h(row, 1.0);  // h[0]: the bias unit
    for (int j = 1; j <= hid; ++j) {
      double sum = w[j];  // the bias weight, row 0
      for (int b = 0; b < blocks; ++b) sum += partial[size_t(b) * hid + j - 1];
      h[j] = squash(sum);
    }
    double out = 0.0;
    for (int j = 0; j <= hid; ++j) out += h[j] * hw[size_t(j) * 2 + 1];
    out = squash(out);
    const double delta_o = out * (1.0 - out) * (target - out);
    std::vector<float> delta(row, 0.0f);
    for (int j = 1; j <= hid; ++j) delta[j] = float(h[j] * (1.0 - h[j]) * delta_o * hw[size_t(j) * 2 + 1]);

    DevPtr ddelta = dev.upload(delta), doldw = dev.upload(oldw);
    dev.memcpy_h2d(dw, w.data(), nw * sizeof(float));  // the forward kernel left its tiles in the weights
    dev.launch("rdbp_adjust_weights", grid, block, {arg(ddelta), arg(int32_t(hid)), arg(dx), arg(dw), arg(doldw)});
    const std::vector<float> w_new = dev.download<float>(dw, nw);
    const std::vector<float> oldw_new = dev.download<float>(doldw, nw);
    for (DevPtr p : {dx, dw, dpartial, ddelta, doldw}) dev.free(p);

    // References: the block's column sums, and the update from the same error terms.
    std::vector<double> ref_partial(size_t(blocks) * hid);
    std::vector<float> sums_written(ref_partial.size());
    for (int b = 0; b < blocks; ++b)
      for (int j = 0; j < hid; ++j) {
        double s = 0.0;
        for (int r = 1; r <= t; ++r) {
          const int i = b * t + r;
          s += double(w[size_t(i) * row + j + 1]) * x[i];
        }
        ref_partial[size_t(b) * hid + j] = s;
        sums_written[size_t(b) * hid + j] = w_tiles[size_t(b * t + 1) * row + j + 1];  // the tile's row 0
      }
    std::vector<double> ref_w(w.begin(), w.end()), ref_dw(oldw.begin(), oldw.end());
    for (int i = 0; i <= n_in; ++i)
      for (int j = 1; j <= hid; ++j) {
        const size_t k = size_t(i) * row + j;
        const double change = double(eta) * delta[j] * (i ? x[i] : 1.0) + double(momentum) * oldw[k];
        ref_w[k] = w[k] + change;
        ref_dw[k] = change;
      }
    // Sums of 16 float products of O(1/sqrt(n)) terms: 1e-5 relative + 1e-6 absolute covers float rounding.
    return wl::all_of({wl::check_floats("partial sums", partial, ref_partial, 1e-5, 1e-6),
                       wl::check_exact("column sums written back", sums_written, partial),
                       wl::check_floats("w", w_new, ref_w, 1e-5, 1e-6),
                       wl::check_floats("oldw", oldw_new, ref_dw, 1e-5, 1e-6)});
  }
};

}  // namespace

std::unique_ptr<Workload> make_rd_backprop() { return std::make_unique<RdBackprop>(); }

}  // namespace warptlm
