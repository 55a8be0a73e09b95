// Host driver for ss_dct1: a seeded float image in [-128, 128), one launch of
// ss_dct_float over 32x16-pixel tiles (64 threads each), every coefficient
// checked against a double-precision 2-D DCT-II.
#include "workloads/drivers.hpp"
#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class SsDct1 : public Workload {
 public:
  const char* name() const override { return "ss_dct1"; }
  const char* description() const override {
    return "scratchpad-sharing DCT1 (2112 B, 64 thr): float 8x8 DCT, row and column passes over a padded 16x33 tile";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    static const wl::DctTileKernel k{"ss_dct1", "ss_dct_float", {64, 256, 512, 2048}, {64, 256, 512, 1024}, 32, 16, 64};
    return wl::run_dct_tiles(dev, k, size, seed);
  }
};

}  // namespace

std::unique_ptr<Workload> make_ss_dct1() { return std::make_unique<SsDct1>(); }

}  // namespace warptlm
