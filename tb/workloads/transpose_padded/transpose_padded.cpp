// Host driver for transpose_padded: see drivers.hpp.
#include "workloads/drivers.hpp"

namespace warptlm {
namespace {

class TransposePadded : public Workload {
 public:
  const char* name() const override { return "transpose_padded"; }
  const char* description() const override {
    return "32x33 padded shared-tile matrix transpose (conflict free)";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    return wl::run_transpose(dev, "transpose_padded", size, seed);
  }
};

}  // namespace

std::unique_ptr<Workload> make_transpose_padded() { return std::make_unique<TransposePadded>(); }

}  // namespace warptlm
