// Host driver for ep_transpose_opt: see drivers.hpp. Sizes: the matrix of Table 5 of seed 001
// (grid 16 x 16 of 16 x 16 blocks: 256 x 256) at small.
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
    return wl::run_transpose_tiled(dev, "ep_transpose_opt", wl::by_size(size, 48, 256, 1024, 2048), wl::by_size(size, 40, 256, 512, 2048),
                                   16, 16, true, seed);
  }
};

}  // namespace

std::unique_ptr<Workload> make_ep_transpose_opt() { return std::make_unique<EpTransposeOpt>(); }

}  // namespace warptlm
