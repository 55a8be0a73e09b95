#include "ciao/warp_states.hpp"

#include <algorithm>

namespace warptlm {

WarpStates::WarpStates(uint32_t warps, CiaoVariant v, const CiaoStateCounters& c)
    : variant_(v), c_(c), v_(warps, 1), i_(warps, 0), live_(warps, 0), age_(warps, 0), pair_(warps), acted_(warps, 0) {}

void WarpStates::arrive(uint16_t w, uint64_t age) {
  v_[w] = 1;
  i_[w] = 0;
  live_[w] = 1;
  age_[w] = age;
  pair_[w] = Pair{};
}

void WarpStates::exit(uint16_t w) {
  live_[w] = 0;
  v_[w] = 1;
  i_[w] = 0;
  pair_[w] = Pair{};
  if (active_count() == 0) reactivate_latest_stalled();
}

uint32_t WarpStates::active_count() const {
  uint32_t n = 0;
  for (size_t w = 0; w < v_.size(); ++w) n += live_[w] && v_[w];
  return n;
}

uint32_t WarpStates::stalled_count() const {
  uint32_t n = 0;
  for (size_t w = 0; w < v_.size(); ++w) n += live_[w] && !v_[w];
  return n;
}

uint32_t WarpStates::isolated_count() const {
  uint32_t n = 0;
  for (size_t w = 0; w < v_.size(); ++w) n += live_[w] && v_[w] && i_[w];
  return n;
}

// An undo record still describes the warp's state (the warp is the same one and the action still holds).
bool WarpStates::current(const Undo& u) const {
  if (!live_[u.w] || age_[u.w] != u.age) return false;
  return u.a == Action::Stall ? !v_[u.w] : i_[u.w] && pair_[u.w].first != kNone;
}

void WarpStates::stall(uint16_t j, uint16_t trigger) {
  v_[j] = 0;
  pair_[j].second = trigger;
  pair_[j].second_age = age_[trigger];
  undo_.push_back(Undo{j, age_[j], Action::Stall});
  ++*c_.stalls;
}

// The escalation of Algorithm 1 for interferer j of warp `trigger`.
void WarpStates::act_on(uint16_t j, uint16_t trigger) {
  if (!v_[j]) return;  // already stalled
  if (!redirect_ok_ && variant_ == CiaoVariant::Redirect) return;
  const bool isolated = i_[j];
  const bool throttle = variant_ == CiaoVariant::Throttle || (variant_ == CiaoVariant::Combined && !redirect_ok_);
  if (!isolated && !throttle) {
    i_[j] = 1;
    pair_[j].first = trigger;
    pair_[j].first_age = age_[trigger];
    undo_.push_back(Undo{j, age_[j], Action::Isolate});
    ++*c_.isolations;
  } else if (throttle || (isolated && variant_ == CiaoVariant::Combined)) {
    stall(j, trigger);
  }
}

void WarpStates::high_epoch(const InterferenceDetector& d, double high) {
  const uint32_t active = active_count();
  std::fill(acted_.begin(), acted_.end(), 0);
  severe_ = 0;
  for (uint16_t i = 0; i < uint16_t(v_.size()); ++i) {
    if (!live_[i] || !v_[i] || !d.above(i, high, active)) continue;
    ++severe_;
    const InterferenceList::Entry& e = d.list()[i];
    if (!e.valid || e.wid == i || e.wid >= v_.size() || !live_[e.wid] || acted_[e.wid]) continue;
    acted_[e.wid] = 1;
    act_on(e.wid, i);
  }
}

void WarpStates::low_epoch(const InterferenceDetector& d, double low) {
  while (!undo_.empty() && !current(undo_.back())) undo_.pop_back();
  if (undo_.empty()) return;
  const Undo u = undo_.back();
  Pair& p = pair_[u.w];
  const int t = u.a == Action::Stall ? p.second : p.first;
  const uint64_t t_age = u.a == Action::Stall ? p.second_age : p.first_age;
  if (!trigger_done(t, t_age) && d.above(uint16_t(t), low, active_count())) return;  // still interfering
  undo_.pop_back();
  if (u.a == Action::Stall) {
    v_[u.w] = 1;
    p.second = kNone;
    ++*c_.reactivations;
  } else {
    i_[u.w] = 0;
    p.first = kNone;
    ++*c_.returns_to_l1;
  }
}

void WarpStates::reactivate_latest_stalled() {
  for (size_t k = undo_.size(); k-- > 0;) {
    const Undo u = undo_[k];
    if (u.a != Action::Stall || !current(u)) continue;
    undo_.erase(undo_.begin() + long(k));
    v_[u.w] = 1;
    pair_[u.w].second = kNone;
    ++*c_.guard_reactivations;
    return;
  }
}

void WarpStates::reset() {
  std::fill(v_.begin(), v_.end(), 1);
  std::fill(i_.begin(), i_.end(), 0);
  std::fill(live_.begin(), live_.end(), 0);
  std::fill(pair_.begin(), pair_.end(), Pair{});
  undo_.clear();
  severe_ = 0;
}

}  // namespace warptlm
