// Host driver for ss_dct48: a seeded float image in [-128, 128), one launch of
// ss_dct48 over 64x32-pixel tiles (256 threads and 8320 B of shared memory
// each), every coefficient checked against a double-precision 2-D DCT-II.
#include "workloads/drivers.hpp"
#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class SsDct48 : public Workload {
 public:
  const char* name() const override { return "ss_dct48"; }
  const char* description() const override {
    return "scratchpad-sharing DCT1 at 48/64 KB (8320 B, 256 thr): float 8x8 DCT, butterfly row and column passes "
           "over a padded 32x65 tile";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    static const wl::DctTileKernel k{"ss_dct48", "ss_dct48", {128, 512, 768, 2048}, {64, 256, 512, 1024}, 64, 32, 256};
    return wl::run_dct_tiles(dev, k, size, seed);
  }
};

}  // namespace

std::unique_ptr<Workload> make_ss_dct48() { return std::make_unique<SsDct48>(); }

}  // namespace warptlm
