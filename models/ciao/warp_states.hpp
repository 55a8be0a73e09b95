// CIAO's warp states and the scheduling decisions of Algorithm 1 (spec 002
// sec. 5; seed sec. III-C, IV-A, IV-C). Each warp slot has an active flag V
// and an isolation flag I: active (V=1, I=0) issues and uses the L1D;
// isolated (V=1, I=1) issues and its global accesses go to the shared-memory
// cache; stalled (V=0) does not issue. The pair list records, per warp, the
// interfered warp that triggered its isolation (`first`) and its stall
// (`second`).
//   - High-cutoff epoch: every warp i with V=1 and IRS_i > high has its
//     interferer j (interference list) acted on, at most once per j per epoch:
//     CIAO-P isolates an active j; CIAO-T stalls an active j; CIAO-C isolates
//     an active j and stalls an isolated one.
//   - Low-cutoff epoch: the most recent action still in force is undone when
//     the warp that triggered it has IRS <= low or has finished (stalled warps
//     come back in reverse order, sec. III-C): a stall is lifted (V=1), an
//     isolation ends (I=0). One action per epoch.
//   - Guard (not in the paper, spec 002 sec. 5.3): a stall always has a
//     trigger other than the stalled warp that can issue (V=1), so the SM
//     keeps a warp able to issue until that warp finishes; when the last
//     such warp finishes, the most recently stalled warp is reactivated, so
//     an SM never waits on itself.
#pragma once
#include <cstdint>
#include <vector>

#include "ciao/interference.hpp"
#include "common/stats.hpp"

namespace warptlm {

enum class CiaoVariant : uint8_t { Redirect, Throttle, Combined };  // CIAO-P, CIAO-T, CIAO-C

struct CiaoStateCounters {
  Counter *isolations = nullptr, *stalls = nullptr, *reactivations = nullptr, *returns_to_l1 = nullptr;
  Counter *guard_reactivations = nullptr;
};

class WarpStates {
 public:
  static constexpr int kNone = -1;
  struct Pair {
    int first = kNone, second = kNone;  // the triggering warps (slots), or kNone
    uint64_t first_age = 0, second_age = 0;
  };

  WarpStates(uint32_t warps, CiaoVariant v, const CiaoStateCounters& c);
  void arrive(uint16_t w, uint64_t age);  // a warp begins in slot w, active
  void exit(uint16_t w);                  // the warp in slot w finished
  bool stalled(uint16_t w) const { return !v_[w]; }
  bool isolated(uint16_t w) const { return v_[w] && i_[w]; }
  bool live(uint16_t w) const { return live_[w]; }
  const Pair& pair(uint16_t w) const { return pair_[w]; }
  // N_active-warps of Eq. 1: live warps with V=1 (active or isolated).
  uint32_t active_count() const;
  uint32_t stalled_count() const;
  uint32_t isolated_count() const;
  // Warps whose IRS exceeded the high cutoff at the last high-cutoff epoch (severely interfered).
  uint32_t severe_count() const { return severe_; }
  void high_epoch(const InterferenceDetector& d, double high);
  void low_epoch(const InterferenceDetector& d, double low);
  void reset();  // kernel launch
  // Whether this launch has a shared-memory cache to isolate warps into (spec 002 sec. 4.2): without one,
  // CIAO-C stalls where it would isolate and CIAO-P does nothing.
  void set_redirect_possible(bool ok) { redirect_ok_ = ok; }

 private:
  enum class Action : uint8_t { Isolate, Stall };
  struct Undo {
    uint16_t w;
    uint64_t age;
    Action a;
  };
  bool current(const Undo& u) const;
  bool trigger_done(int t, uint64_t age) const { return t == kNone || !live_[t] || age_[t] != age; }
  void act_on(uint16_t j, uint16_t trigger);
  void stall(uint16_t j, uint16_t trigger);
  void reactivate_latest_stalled();

  CiaoVariant variant_;
  CiaoStateCounters c_;
  std::vector<uint8_t> v_, i_, live_;
  std::vector<uint64_t> age_;
  std::vector<Pair> pair_;
  std::vector<Undo> undo_;  // actions in force, most recent last
  std::vector<uint8_t> acted_;  // per high epoch: interferers already acted on
  uint32_t severe_ = 0;
  bool redirect_ok_ = true;
};

}  // namespace warptlm
