#include "ciao/ccws.hpp"

#include <algorithm>
#include <systemc>

#include "sm/sm.hpp"

namespace warptlm {

LostLocalityScores::LostLocalityScores(uint32_t warps, const CcwsParams& p)
    : p_(p), score_(warps, p.base_score), stamp_(warps, 0), hits_(warps, 0), live_(warps, 0), allowed_(warps, 0),
      now_score_(warps, 0) {
  order_.reserve(warps);
}

void LostLocalityScores::start(uint16_t w, uint64_t now) {
  changed_ = true;
  live_[w] = 1;
  score_[w] = p_.base_score;
  stamp_[w] = now;
  hits_[w] = 0;
}

void LostLocalityScores::exit(uint16_t w) {
  changed_ = true;
  live_[w] = 0;
  hit_sum_ -= hits_[w];
  hits_[w] = 0;
}

int64_t LostLocalityScores::score(uint16_t w, uint64_t now) const {
  const int64_t s = score_[w] - int64_t(now - stamp_[w]);
  return std::max(s, p_.base_score);
}

void LostLocalityScores::vta_hit(uint16_t w, uint64_t now) {
  changed_ = true;
  ++hits_[w];
  ++hit_sum_;
  const double rate = issued_ ? double(hit_sum_) / double(issued_) : 0.0;
  const int64_t points = int64_t(rate * p_.k_vc_add * double(cutoff_));
  const int64_t cap = std::max(p_.base_score, int64_t(rate * p_.k_wsc * double(cutoff_)));
  score_[w] = std::min(std::max(score(w, now) + points, p_.base_score), cap);
  stamp_[w] = now;
}

bool LostLocalityScores::evaluate(uint64_t now) {
  if (!changed_ && !decaying_) return limited_;
  changed_ = decaying_ = false;
  order_.clear();
  for (uint16_t w = 0; w < uint16_t(live_.size()); ++w) {
    allowed_[w] = 0;
    if (live_[w]) order_.push_back(w);
  }
  cutoff_ = std::max<int64_t>(1, int64_t(order_.size()) * p_.base_score);
  std::vector<int64_t>& now_score = now_score_;
  for (uint16_t w : order_) {
    now_score[w] = score(w, now);
    if (now_score[w] > p_.base_score) decaying_ = true;
  }
  std::sort(order_.begin(), order_.end(), [&](uint16_t a, uint16_t b) {
    return now_score[a] != now_score[b] ? now_score[a] > now_score[b] : a < b;
  });
  int64_t total = 0;
  allowed_count_ = 0;
  for (uint16_t w : order_) {
    total += now_score[w];
    allowed_[w] = 1;
    ++allowed_count_;
    if (total >= cutoff_) break;
  }
  limited_ = allowed_count_ < order_.size();
  return limited_;
}

void LostLocalityScores::reset() {
  std::fill(score_.begin(), score_.end(), p_.base_score);
  std::fill(stamp_.begin(), stamp_.end(), 0);
  std::fill(hits_.begin(), hits_.end(), 0);
  std::fill(live_.begin(), live_.end(), 0);
  std::fill(allowed_.begin(), allowed_.end(), 0);
  hit_sum_ = issued_ = 0;
  cutoff_ = 1;
  allowed_count_ = 0;
  changed_ = true;
  decaying_ = limited_ = false;
}

CcwsUnit::CcwsUnit(const Sm& sm, const CcwsParams& p, uint32_t warps, const CcwsCounters& c)
    : sm_(sm), c_(c), watch_(p.vta_sets, p.vta_ways, true, c.vta_insertions, c.vta_hits), scores_(warps, p) {
  set_active(true);
}

void CcwsUnit::warp_started(const WarpSlot& w) { scores_.start(uint16_t(w.slot), sm_.cycle()); }

void CcwsUnit::at_issue(const WarpSlot&, const Instr&, uint32_t) { scores_.instruction(); }

void CcwsUnit::refresh() {
  const uint64_t now = now_value();
  if (now == evaluated_) return;
  evaluated_ = now;
  const uint64_t cycle = sm_.cycle();
  watch_.take_hits(now, [&](const VictimTagWatch::Hit& h) {
    if (scores_.live(h.warp)) scores_.vta_hit(h.warp, cycle);
  });
  if (scores_.evaluate(cycle)) ++*c_.limited_cycles;
}

bool CcwsUnit::allows(const WarpSlot& w) {
  refresh();
  if (!scores_.limited() || scores_.allowed(uint16_t(w.slot)) || !w.fw || w.fw->done) return true;
  const uint32_t pc = w.fw->pc();
  if (pc >= w.fw->kernel.prog.size()) return true;
  const Instr& in = w.fw->kernel.prog[pc];
  const bool load = in.op == Op::Ld && (in.space == Space::Global || in.space == Space::Local || in.space == Space::Generic);
  if (!load) return true;
  ++*c_.load_refusals;
  return false;
}

void CcwsUnit::begin_kernel() {
  watch_.clear_watch();
  scores_.reset();
  evaluated_ = UINT64_MAX;
}

}  // namespace warptlm
