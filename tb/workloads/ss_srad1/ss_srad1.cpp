// Host driver for ss_srad1: a seeded speckled image (ss_srad_common.hpp), one
// launch of ss_srad1 over 24x24-thread tiles; checks the four differences and
// the diffusion coefficient c against a double reference.
#include <cmath>

#include "workloads/ss_srad1/ss_srad_common.hpp"
#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class SsSrad1 : public Workload {
 public:
  const char* name() const override { return "ss_srad1"; }
  const char* description() const override {
    return "scratchpad-sharing SRAD1 (13824 B, 576 thr): Rodinia srad_cuda_1, SRAD differences and diffusion "
           "coefficient over 24x24 tiles with neighbour rows and columns in shared memory";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const int rows = wl::by_size(size, 24, 192, 288, 1536);
    const int cols = wl::by_size(size, 72, 192, 240, 1536);
    const std::vector<float> J = wl::srad_image(rows, cols, seed);
    const float q0sqr = wl::srad_q0sqr(J);
    const size_t n = J.size();
    const uint32_t gx = cols / 24, gy = rows / 24;

    load_workload_ptx(dev, "ss_srad1");
    DevPtr dJ = dev.upload(J);
    DevPtr out[5];
    for (auto& p : out) p = dev.malloc(n * sizeof(float));
    dev.launch("ss_srad1", Dim3(gx, gy), Dim3(24, 24),
               {arg(dJ), arg(out[0]), arg(out[1]), arg(out[2]), arg(out[3]), arg(out[4]), arg(int32_t(rows)),
                arg(int32_t(cols)), arg(q0sqr)});
    std::vector<float> got[5];
    for (int k = 0; k < 5; ++k) got[k] = dev.download<float>(out[k], n);
    dev.free(dJ);
    for (auto p : out) dev.free(p);

    std::vector<double> ref[5];
    for (auto& r : ref) r.resize(n);
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) {
        const size_t idx = size_t(i) * cols + j;
        const wl::SradStage1<double> s = wl::srad_stage1<double>(J, rows, cols, i, j, q0sqr);
        ref[0][idx] = s.c;
        ref[1][idx] = s.dn;
        ref[2][idx] = s.ds;
        ref[3][idx] = s.dw;
        ref[4][idx] = s.de;
      }
    // Differences are one float subtraction: 1e-6 relative + 1e-7; c goes
    // through divisions and a cancellation: 1e-4 relative + 1e-5.
    return wl::all_of({wl::check_floats("dN", got[1], ref[1], 1e-6, 1e-7),
                       wl::check_floats("dS", got[2], ref[2], 1e-6, 1e-7),
                       wl::check_floats("dW", got[3], ref[3], 1e-6, 1e-7),
                       wl::check_floats("dE", got[4], ref[4], 1e-6, 1e-7),
                       wl::check_floats("c", got[0], ref[0], 1e-4, 1e-5)});
  }
};

}  // namespace

std::unique_ptr<Workload> make_ss_srad1() { return std::make_unique<SsSrad1>(); }

}  // namespace warptlm
