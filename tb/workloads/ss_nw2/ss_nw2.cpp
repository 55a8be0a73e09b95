// Host driver for ss_nw2 (NW2): the lower-right triangle of a tiled
// Needleman-Wunsch sweep, one ss_nw_shared_2 launch per tile anti-diagonal,
// starting from the upper-left triangle computed on the CPU
// (ss_nw/ss_nw_driver.hpp); the whole matrix is checked exactly.
#include "workloads/ss_nw/ss_nw_driver.hpp"

namespace warptlm {
namespace {

class SsNw2 : public Workload {
 public:
  const char* name() const override { return "ss_nw2"; }
  const char* description() const override {
    return "scratchpad-sharing NW2 (8452 B, 32 thr): Needleman-Wunsch 32x32 tiles of the lower-right triangle, "
           "score and substitution tiles";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override { return wl::run_nw_half(dev, size, seed, true); }
};

}  // namespace

std::unique_ptr<Workload> make_ss_nw2() { return std::make_unique<SsNw2>(); }

}  // namespace warptlm
