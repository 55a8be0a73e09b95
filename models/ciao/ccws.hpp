// Cache-conscious wavefront scheduling (CCWS; Rogers, O'Connor and Aamodt,
// MICRO 2012), the comparison scheduler of seed 002 sec. V-A (spec 002 sec.
// 6.1 item 2): lost locality detected by a per-warp victim tag array raises
// the warp's lost-locality score; the warps whose scores, from the highest
// down, fill the cutoff (live warps x the base score) may issue global and
// local loads; the others wait (they issue everything else). Scores decay by
// one a cycle toward the base. The scoring follows the authors' public CCWS
// configuration (QuadroFX5800-CCWS: VTA hit points and score cap grow with the
// SM's VTA hits per issued instruction, k = 8 for both, base 100, cutoff
// dynamic).
#pragma once
#include <cstdint>
#include <vector>

#include "common/stats.hpp"
#include "l1/l1_observer.hpp"
#include "l1/victim_tag_array.hpp"
#include "sm/sm_mechanism.hpp"

namespace warptlm {

class Sm;

struct CcwsParams {
  uint32_t vta_sets = 48, vta_ways = 16;  // 16 entries per warp (twice CIAO's, spec 002 sec. 2.1)
  int64_t base_score = 100;
  double k_vc_add = 8, k_wsc = 8;
};

// The lost-locality scores of one SM's warps and the load-eligible list (the pure arithmetic, tested alone).
class LostLocalityScores {
 public:
  LostLocalityScores(uint32_t warps, const CcwsParams& p);
  void start(uint16_t w, uint64_t now);  // a warp takes the slot at the base score
  void exit(uint16_t w);
  bool live(uint16_t w) const { return live_[w]; }
  void instruction() { ++issued_; }
  // A VTA hit of warp w at cycle `now`: points = hits / issued x k_vc_add x cutoff, capped at
  // hits / issued x k_wsc x cutoff (never below the base).
  void vta_hit(uint16_t w, uint64_t now);
  int64_t score(uint16_t w, uint64_t now) const;  // decayed by one a cycle, not below the base
  // The list at `now`: true when the scores limit it (some live warp is left out).
  bool evaluate(uint64_t now);
  bool allowed(uint16_t w) const { return allowed_[w]; }
  int64_t cutoff() const { return cutoff_; }
  uint32_t allowed_count() const { return allowed_count_; }
  bool limited() const { return limited_; }  // the last evaluation left a live warp out
  void reset();

 private:
  CcwsParams p_;
  std::vector<int64_t> score_;
  std::vector<uint64_t> stamp_;      // cycle the stored score refers to
  std::vector<uint64_t> hits_;       // VTA hits of the warp in the slot
  std::vector<uint8_t> live_, allowed_;
  std::vector<uint16_t> order_;      // scratch
  std::vector<int64_t> now_score_;   // scratch
  uint64_t hit_sum_ = 0, issued_ = 0;  // VTA hits of live warps; instructions issued
  int64_t cutoff_ = 1;
  uint32_t allowed_count_ = 0;
  // The list changes only with a hit, a warp arriving or leaving, or a score still decaying: without
  // any of them since the last evaluation, evaluate keeps its result.
  bool changed_ = true, decaying_ = false, limited_ = false;
};

struct CcwsCounters {
  Counter *vta_insertions = nullptr, *vta_hits = nullptr, *limited_cycles = nullptr, *load_refusals = nullptr;
};

class CcwsUnit : public SmMechanism {
 public:
  CcwsUnit(const Sm& sm, const CcwsParams& p, uint32_t warps, const CcwsCounters& c);
  const char* name() const override { return "ccws"; }
  void warp_started(const WarpSlot& w) override;
  void warp_exited(const WarpSlot& w) override { scores_.exit(uint16_t(w.slot)); }
  void at_issue(const WarpSlot& w, const Instr&, uint32_t) override;
  L1Observer& l1_watch() { return watch_; }  // its VTA, fed by the L1's evictions and load misses
  // The issue filter: a warp outside the list may not issue a global or local load.
  bool allows(const WarpSlot& w);
  void begin_kernel();
  const LostLocalityScores& scores() const { return scores_; }

 private:
  void refresh();  // take the VTA hits seen before this edge and evaluate the list, once a cycle
  const Sm& sm_;
  CcwsCounters c_;
  VictimTagWatch watch_;
  LostLocalityScores scores_;
  uint64_t evaluated_ = UINT64_MAX;  // the sc_time value the list was last evaluated at
};

}  // namespace warptlm
