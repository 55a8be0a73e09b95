#include "ciao/statpcal.hpp"

#include <algorithm>

namespace warptlm {

StatPcalUnit::StatPcalUnit(uint32_t warps, uint32_t tokens, Counter* bypassing_loads)
    : tokens_(tokens), bypassing_loads_(bypassing_loads), live_(warps, 0), age_(warps, 0) {
  scratch_.reserve(warps);
  set_active(true);
}

void StatPcalUnit::warp_started(const WarpSlot& w) {
  live_[w.slot] = 1;
  age_[w.slot] = w.age;
  hand_out_tokens();
}

void StatPcalUnit::warp_exited(const WarpSlot& w) {
  live_[w.slot] = 0;
  hand_out_tokens();
}

void StatPcalUnit::hand_out_tokens() {
  scratch_.clear();
  for (size_t s = 0; s < live_.size(); ++s)
    if (live_[s]) scratch_.push_back(age_[s]);
  token_age_ = UINT64_MAX;
  if (scratch_.size() <= tokens_) return;
  std::nth_element(scratch_.begin(), scratch_.begin() + (tokens_ - 1), scratch_.end());
  token_age_ = scratch_[tokens_ - 1];
}

bool StatPcalUnit::l1_no_allocate(const WarpSlot& w) const {
  if (holds_token(w.slot)) return false;
  ++*bypassing_loads_;
  return true;
}

void StatPcalUnit::begin_kernel() {
  std::fill(live_.begin(), live_.end(), 0);
  token_age_ = UINT64_MAX;
}

}  // namespace warptlm
