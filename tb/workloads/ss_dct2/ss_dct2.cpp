// Host driver for ss_dct2: the float DCT coefficients of a seeded image, one
// launch of ss_idct_float over 32x16 tiles (64 threads each), every pixel
// checked exactly against the host's replay of the kernel's fmaf order.
#include "workloads/drivers.hpp"
#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class SsDct2 : public Workload {
 public:
  const char* name() const override { return "ss_dct2"; }
  const char* description() const override {
    return "scratchpad-sharing DCT2 (2112 B, 64 thr): float 8x8 inverse DCT, rows and columns in place in a padded "
           "16x33 tile, stored from the tile";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    // small and medium give every SM more blocks than the 14 resident under sharing.
    static const wl::DctTileKernel k{"ss_dct2", "ss_idct_float", {64, 512, 1024, 2048}, {64, 256, 512, 1024}, 32, 16, 64};
    return wl::run_idct_tiles(dev, k, size, seed);
  }
};

}  // namespace

std::unique_ptr<Workload> make_ss_dct2() { return std::make_unique<SsDct2>(); }

}  // namespace warptlm
