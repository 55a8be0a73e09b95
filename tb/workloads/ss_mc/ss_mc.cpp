// Host driver for ss_mc (MC1): see ss_mc_driver.hpp.
#include "workloads/ss_mc/ss_mc_driver.hpp"

namespace warptlm {
namespace {

class SsMc : public Workload {
 public:
  const char* name() const override { return "ss_mc"; }
  const char* description() const override {
    return "scratchpad-sharing MC1 (9216 B, 32 thr): marching-cubes edge vertices and normals in per-thread shared lists";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    return wl::run_marching_cubes(dev, size, seed, "ss_mc", "ss_mc_vertices", 32);
  }
};

}  // namespace

std::unique_ptr<Workload> make_ss_mc() { return std::make_unique<SsMc>(); }

}  // namespace warptlm
