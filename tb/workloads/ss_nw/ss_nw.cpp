// Host driver for ss_nw (NW1): the upper-left triangle of a tiled
// Needleman-Wunsch sweep, one ss_nw_shared_1 launch per tile anti-diagonal
// (ss_nw_driver.hpp), checked exactly against the CPU recurrence.
#include "workloads/ss_nw/ss_nw_driver.hpp"

namespace warptlm {
namespace {

class SsNw : public Workload {
 public:
  const char* name() const override { return "ss_nw"; }
  const char* description() const override {
    return "scratchpad-sharing NW1 (8452 B, 32 thr): Needleman-Wunsch 32x32 tiles of the upper-left triangle, "
           "score and substitution tiles";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override { return wl::run_nw_half(dev, size, seed, false); }
};

}  // namespace

std::unique_ptr<Workload> make_ss_nw() { return std::make_unique<SsNw>(); }

}  // namespace warptlm
