// Host driver for reduce_seq: see drivers.hpp.
#include "workloads/drivers.hpp"

namespace warptlm {
namespace {

class ReduceSeq : public Workload {
 public:
  const char* name() const override { return "reduce_seq"; }
  const char* description() const override {
    return "shared-memory tree reduction, sequential addressing (conflict free), last warp by __shfl_down_sync";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    static const wl::ReductionKernel k{"reduce_seq", "reduce_sequential", {3000, 40000, 600000, 6000000}, 2, false};
    return wl::run_reduction(dev, k, size, seed);
  }
};

}  // namespace

std::unique_ptr<Workload> make_reduce_seq() { return std::make_unique<ReduceSeq>(); }

}  // namespace warptlm
