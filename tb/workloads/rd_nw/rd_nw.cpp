// Host driver for rd_nw, following Rodinia's nw: an (n+1) x (n+1) score
// matrix with its first row and column preset to -penalty * k (penalty 10, as
// Rodinia's run script), the substitution matrix built from two sequences,
// then rd_nw_shared_1 for i = 1 .. w and rd_nw_shared_2 for i = w - 1 .. 1
// (w = n / 16), 16 threads per block, and the whole matrix read back.
// Deviation: the sequences and the substitution table are seeded
// (ss_nw/ss_nw_driver.hpp's nw_problem: 20 letters, a symmetric table; Rodinia
// draws letters 1-10 and scores them with BLOSUM62). n = 2048 at large is
// Rodinia's run (Table II's 32 MB: both matrices).
//
// Check: exact, the whole score matrix against the CPU recurrence.
#include "workloads/ss_nw/ss_nw_driver.hpp"

namespace warptlm {
namespace {

class RdNw : public Workload {
 public:
  const char* name() const override { return "rd_nw"; }
  const char* description() const override {
    return "Rodinia nw: both kernels over 16x16 tiles (16-thread blocks, 2180 B shared), the whole score matrix";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    constexpr int kTile = 16;
    const int n = wl::by_size(size, 64, 512, 1024, 2048), w = n / kTile;
    const wl::NwProblem p = wl::nw_problem(n, 10, seed);
    std::vector<int32_t> start(p.full.size(), 0);
    for (int k = 0; k <= n; ++k) {
      start[k] = p.full[k];
      start[size_t(k) * p.ld] = p.full[size_t(k) * p.ld];
    }
    load_workload_ptx(dev, "rd_nw");
    DevPtr dR = dev.upload(p.R), dM = dev.upload(start);
    auto launch = [&](const char* kernel, int i) {
      dev.launch(kernel, Dim3(uint32_t(i)), Dim3(kTile),
                 {arg(dR), arg(dM), arg(int32_t(p.ld)), arg(int32_t(p.penalty)), arg(int32_t(i)), arg(int32_t(w))});
    };
    for (int i = 1; i <= w; ++i) launch("rd_nw_shared_1", i);
    for (int i = w - 1; i >= 1; --i) launch("rd_nw_shared_2", i);
    const std::vector<int32_t> got = dev.download<int32_t>(dM, p.full.size());
    dev.free(dR);
    dev.free(dM);
    WorkloadResult r = wl::check_exact("M", got, p.full);
    if (r.verified) r.detail += " (" + std::to_string(2 * w - 1) + " launches, " + std::to_string(w) + " tiles per side)";
    return r;
  }
};

}  // namespace

std::unique_ptr<Workload> make_rd_nw() { return std::make_unique<RdNw>(); }

}  // namespace warptlm
