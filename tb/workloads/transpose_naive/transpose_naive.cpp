// Host driver for transpose_naive: see drivers.hpp.
#include "workloads/drivers.hpp"

namespace warptlm {
namespace {

class TransposeNaive : public Workload {
 public:
  const char* name() const override { return "transpose_naive"; }
  const char* description() const override {
    return "32x32 shared-tile matrix transpose, unpadded (32-way bank conflicts on the column read)";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    return wl::run_transpose(dev, "transpose_naive", size, seed);
  }
};

}  // namespace

std::unique_ptr<Workload> make_transpose_naive() { return std::make_unique<TransposeNaive>(); }

}  // namespace warptlm
