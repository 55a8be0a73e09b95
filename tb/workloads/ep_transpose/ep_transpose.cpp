// Host driver for ep_transpose: see drivers.hpp (run_sdk_transpose).
#include "workloads/drivers.hpp"

namespace warptlm {
namespace {

class EpTranspose : public Workload {
 public:
  const char* name() const override { return "ep_transpose"; }
  const char* description() const override {
    return "SDK 2.2 transpose, 16x16 tile with its padding undone (seed 001's Transpose*: degree-8 column reads on 8 banks)";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    return wl::run_sdk_transpose(dev, "ep_transpose", size, seed);
  }
};

}  // namespace

std::unique_ptr<Workload> make_ep_transpose() { return std::make_unique<EpTranspose>(); }

}  // namespace warptlm
