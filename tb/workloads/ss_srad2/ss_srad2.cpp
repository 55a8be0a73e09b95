// Host driver for ss_srad2: a seeded speckled image (shared with ss_srad1),
// its differences and diffusion coefficients computed on the CPU in float (as
// ss_srad1 would), one launch of ss_srad2 over 24x24-thread tiles updating J
// in place; checks the updated image against a double reference.
#include <cmath>

#include "workloads/ss_srad1/ss_srad_common.hpp"
#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class SsSrad2 : public Workload {
 public:
  const char* name() const override { return "ss_srad2"; }
  const char* description() const override {
    return "scratchpad-sharing SRAD2 (11520 B, 576 thr): Rodinia srad_cuda_2, SRAD divergence and image update in "
           "place over 24x24 tiles";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const int rows = wl::by_size(size, 48, 192, 288, 1536);
    const int cols = wl::by_size(size, 48, 192, 240, 1536);
    const std::vector<float> J = wl::srad_image(rows, cols, seed);
    const float q0sqr = wl::srad_q0sqr(J), lambda = 0.5f;
    const size_t n = J.size();
    std::vector<float> c(n), d[4];
    for (auto& v : d) v.resize(n);
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) {
        const size_t idx = size_t(i) * cols + j;
        const wl::SradStage1<float> s = wl::srad_stage1<float>(J, rows, cols, i, j, q0sqr);
        c[idx] = s.c;
        d[0][idx] = s.dn;
        d[1][idx] = s.ds;
        d[2][idx] = s.dw;
        d[3][idx] = s.de;
      }
    const uint32_t gx = cols / 24, gy = rows / 24;

    load_workload_ptx(dev, "ss_srad2");
    DevPtr dJ = dev.upload(J), dC = dev.upload(c);
    DevPtr dd[4];
    for (int k = 0; k < 4; ++k) dd[k] = dev.upload(d[k]);
    dev.launch("ss_srad2", Dim3(gx, gy), Dim3(24, 24),
               {arg(dJ), arg(dC), arg(dd[0]), arg(dd[1]), arg(dd[2]), arg(dd[3]), arg(int32_t(rows)),
                arg(int32_t(cols)), arg(lambda)});
    std::vector<float> out = dev.download<float>(dJ, n);
    for (DevPtr p : {dJ, dC, dd[0], dd[1], dd[2], dd[3]}) dev.free(p);

    std::vector<double> ref(n);
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) {
        const size_t idx = size_t(i) * cols + j;
        const double cs = c[size_t(i < rows - 1 ? i + 1 : rows - 1) * cols + j];
        const double ce = c[size_t(i) * cols + (j < cols - 1 ? j + 1 : cols - 1)];
        const double div = double(c[idx]) * d[0][idx] + cs * d[1][idx] + double(c[idx]) * d[2][idx] + ce * d[3][idx];
        ref[idx] = J[idx] + 0.25 * lambda * div;
      }
    // J ~ 1..3, one float update: 1e-5 relative + 1e-6.
    return wl::check_floats("J", out, ref, 1e-5, 1e-6);
  }
};

}  // namespace

std::unique_ptr<Workload> make_ss_srad2() { return std::make_unique<SsSrad2>(); }

}  // namespace warptlm
