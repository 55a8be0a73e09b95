// Host driver for ep_transpose_opt: see drivers.hpp (run_sdk_transpose).
#include "workloads/drivers.hpp"

namespace warptlm {
namespace {

class EpTransposeOpt : public Workload {
 public:
  const char* name() const override { return "ep_transpose_opt"; }
  const char* description() const override {
    return "SDK 2.2 transpose as shipped, 16x17 padded tile (conflict-free; seed 001's optimised Transpose)";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    return wl::run_sdk_transpose(dev, "ep_transpose_opt", size, seed);
  }
};

}  // namespace

std::unique_ptr<Workload> make_ep_transpose_opt() { return std::make_unique<EpTransposeOpt>(); }

}  // namespace warptlm
