// Static priority-based cache allocation (statPCAL; Li et al., HPCA 2015), the
// bypass scheme seed 002 compares with (sec. V-A; spec 002 sec. 6.1 item 4):
// a static number of warps per SM hold tokens and use the L1 data cache as
// usual; the other running warps are not throttled but bypass it (their global
// loads hit if the line is there and otherwise go below without allocating),
// so more warps run without polluting the cache. Token holders are the
// `pcal.tokens` oldest running warps of the SM (as sm.warp_limit chooses its
// warps); sm.warp_limit still throttles on top if set. The bandwidth check of
// the dynamic scheme is not modelled: the static scheme fixes both numbers
// per kernel.
#pragma once
#include <cstdint>
#include <vector>

#include "common/stats.hpp"
#include "sm/sm_mechanism.hpp"

namespace warptlm {

class StatPcalUnit : public SmMechanism {
 public:
  StatPcalUnit(uint32_t warps, uint32_t tokens, Counter* bypassing_loads);
  const char* name() const override { return "statpcal"; }
  void warp_started(const WarpSlot& w) override;
  void warp_exited(const WarpSlot& w) override;
  bool l1_no_allocate(const WarpSlot& w) const override;
  bool steers_l1() const override { return true; }
  bool holds_token(uint32_t slot) const { return live_[slot] && age_[slot] <= token_age_; }
  void begin_kernel();

 private:
  void hand_out_tokens();  // the `tokens` oldest live warps hold one
  uint32_t tokens_;
  Counter* bypassing_loads_;
  std::vector<uint8_t> live_;
  std::vector<uint64_t> age_;
  uint64_t token_age_ = UINT64_MAX;  // warps no younger than this hold a token
  std::vector<uint64_t> scratch_;
};

}  // namespace warptlm
