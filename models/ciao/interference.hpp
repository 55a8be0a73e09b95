// CIAO's interference detection (spec 002 sec. 3; seed sec. III-A, IV-A): per
// SM, a VTA-hit counter per warp, the SM's instruction counter, the
// interference list (per interfered warp, its most frequent recent interferer
// under a 2-bit saturating counter) and the cutoff test of the individual
// re-reference score
//     IRS_i = N_VTAHit^i / (N_executed-inst / N_active-warps)        (Eq. 1)
// done without a divider: IRS_i > c  iff  hits_i * N_active > c * N_inst.
#pragma once
#include <cstdint>
#include <vector>

namespace warptlm {

// When a different interferer replaces the recorded one (spec 002 sec. 3.2, rule 4).
enum class ListReplace : uint8_t {
  AtZero,    // (b): the counter counts down to 00; a different warp meeting 00 replaces (default)
  OnZero,    // (a): the event that brings the counter to 00 replaces
};

class InterferenceList {
 public:
  static constexpr uint8_t kMax = 3;  // 2-bit saturating counter
  struct Entry {
    bool valid = false;
    uint16_t wid = 0;  // the interfering warp
    uint8_t count = 0;
  };
  InterferenceList(uint32_t entries, ListReplace rule) : rule_(rule), e_(entries) {}
  // Warp `interfered` lost a line to `interferer` (a VTA hit).
  void update(uint16_t interfered, uint16_t interferer);
  const Entry& operator[](uint16_t interfered) const { return e_[interfered % e_.size()]; }
  void clear();
  uint32_t entries() const { return uint32_t(e_.size()); }

 private:
  ListReplace rule_;
  std::vector<Entry> e_;
};

// The samplers (sec. IV-A): count the SM's instructions and signal the end of
// each low-cutoff and high-cutoff epoch, every `low` and `high` instructions.
class EpochSamplers {
 public:
  enum : uint8_t { kNone = 0, kLow = 1, kHigh = 2 };
  EpochSamplers(uint64_t low, uint64_t high) : low_(low), high_(high), to_low_(low), to_high_(high) {}
  // One instruction issued: which epochs end with it (kLow | kHigh).
  uint8_t instruction() {
    uint8_t ends = kNone;
    if (--to_low_ == 0) to_low_ = low_, ends |= kLow;
    if (--to_high_ == 0) to_high_ = high_, ends |= kHigh;
    return ends;
  }
  void reset() { to_low_ = low_, to_high_ = high_; }

 private:
  uint64_t low_, high_, to_low_, to_high_;
};

class InterferenceDetector {
 public:
  // `windowed`: IRS over the counts since the last high-cutoff epoch (spec 002 sec. 3.1 (b)) instead of
  // since the kernel started (the literal hardware, (a)).
  InterferenceDetector(uint32_t warps, uint32_t list_entries, ListReplace rule, bool windowed);
  // A VTA hit of `interfered` whose line `interferer` evicted.
  void vta_hit(uint16_t interfered, uint16_t interferer);
  void instruction() { ++inst_total_; }
  // IRS_i > cutoff with `active` warps counted on the SM (Eq. 1, multiplied out).
  bool above(uint16_t w, double cutoff, uint32_t active) const;
  double irs(uint16_t w, uint32_t active) const;  // Eq. 1 (diagnostics)
  uint64_t hits(uint16_t w) const { return hits_[w] - (windowed_ ? snap_hits_[w] : 0); }
  uint64_t instructions() const { return inst_total_ - (windowed_ ? snap_inst_ : 0); }
  uint64_t inst_total() const { return inst_total_; }
  const InterferenceList& list() const { return list_; }
  void close_window();  // at each high-cutoff epoch (windowed only)
  void reset();         // kernel launch: counters and the list start over
  uint32_t warps() const { return uint32_t(hits_.size()); }

 private:
  bool windowed_;
  std::vector<uint64_t> hits_, snap_hits_;
  uint64_t inst_total_ = 0, snap_inst_ = 0;
  InterferenceList list_;
};

}  // namespace warptlm
