// Host driver for ss_mc2 (MC2): see ss_mc_driver.hpp.
#include "workloads/ss_mc/ss_mc_driver.hpp"

namespace warptlm {
namespace {

class SsMc2 : public Workload {
 public:
  const char* name() const override { return "ss_mc2"; }
  const char* description() const override {
    return "scratchpad-sharing MC2 (13824 B, 48 thr): marching-cubes edge vertices and normals in per-thread shared lists";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    return wl::run_marching_cubes(dev, size, seed, "ss_mc2", "ss_mc2_vertices", 48);
  }
};

}  // namespace

std::unique_ptr<Workload> make_ss_mc2() { return std::make_unique<SsMc2>(); }

}  // namespace warptlm
