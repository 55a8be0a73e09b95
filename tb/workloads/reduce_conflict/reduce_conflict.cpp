// Host driver for reduce_conflict: see drivers.hpp.
#include "workloads/drivers.hpp"

namespace warptlm {
namespace {

class ReduceConflict : public Workload {
 public:
  const char* name() const override { return "reduce_conflict"; }
  const char* description() const override {
    return "shared-memory tree reduction, interleaved addressing (bank conflicts), dynamic shared memory";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    static const wl::ReductionKernel k{"reduce_conflict", "reduce_interleaved", {1500, 20000, 300000, 3000000}, 1, true};
    return wl::run_reduction(dev, k, size, seed);
  }
};

}  // namespace

std::unique_ptr<Workload> make_reduce_conflict() { return std::make_unique<ReduceConflict>(); }

}  // namespace warptlm
