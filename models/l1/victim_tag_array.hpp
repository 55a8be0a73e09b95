// The victim tag array (spec 002 sec. 2; CIAO Table I): per SM, one set per
// warp slot, each a FIFO of `ways` entries {tag of an evicted line, the warp
// that evicted it}. An eviction of a line owned by warp O, caused by warp E,
// inserts {line, E} into set O; a later miss of O that finds its line in set O
// is a VTA hit: O lost that line to interference, and E is the interferer. A
// miss of any other warp on that line is not a hit for O (it probes its own set).
// Tags only: no data. CIAO (models/ciao/) feeds it from the L1 data cache and
// from its shared-memory cache; a cache-conscious scheduler may use one too.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/stats.hpp"
#include "l1/l1_observer.hpp"

namespace warptlm {

class VictimTagArray {
 public:
  // `sets` sets (a warp slot's set is slot mod sets) of `ways` entries.
  VictimTagArray(uint32_t sets, uint32_t ways);
  // A line owned by `owner` was evicted by `evictor`: its tag goes into the owner's set,
  // replacing the set's oldest entry when the set is full (FIFO). A tag already there is refreshed in place.
  void insert(uint16_t owner, uint64_t line_addr, uint16_t evictor);
  // `warp` missed on `line_addr`: true on a VTA hit, with the evicting warp in `evictor`.
  // With `invalidate`, the entry that hit is dropped (one lost line, one hit).
  bool probe(uint16_t warp, uint64_t line_addr, uint16_t& evictor, bool invalidate);
  void clear();  // kernel launch
  uint32_t sets() const { return sets_; }
  uint32_t ways() const { return ways_; }
  // Storage in bits with `tag_bits` per tag and `wid_bits` per evicting warp, plus a valid bit per entry.
  uint64_t bits(uint32_t tag_bits, uint32_t wid_bits) const { return uint64_t(sets_) * ways_ * (tag_bits + wid_bits + 1); }
  // Entries of a warp's set, oldest first (tests, diagnostics).
  struct Entry {
    uint64_t line_addr;
    uint16_t evictor;
  };
  std::vector<Entry> entries(uint16_t warp) const;

 private:
  struct Slot {
    bool valid = false;
    uint64_t line_addr = 0;
    uint16_t evictor = 0;
    uint64_t inserted = 0;  // FIFO stamp
  };
  Slot* set_of(uint16_t warp) { return &slots_[size_t(warp % sets_) * ways_]; }
  const Slot* set_of(uint16_t warp) const { return &slots_[size_t(warp % sets_) * ways_]; }
  uint32_t sets_, ways_;
  std::vector<Slot> slots_;  // sets * ways
  uint64_t stamp_ = 0;
};

// A victim tag array watching an L1 data cache: evictions insert, load misses
// probe. The L1 runs in its own process, so a hit is recorded with its time and
// handed to the SM's side only at the SM's first edge strictly after it
// (take_hits: a registered input, docs/determinism.md rule 1).
class VictimTagWatch : public L1Observer {
 public:
  struct Hit {
    uint64_t time;  // sc_time value
    uint16_t warp, evictor;
  };
  VictimTagWatch(uint32_t sets, uint32_t ways, bool invalidate_on_hit, Counter* insertions, Counter* hits)
      : vta_(sets, ways), invalidate_(invalidate_on_hit), insertions_(insertions), hits_counter_(hits) {}
  void line_evicted(uint64_t line_addr, uint16_t owner_warp, uint16_t evicting_warp) override;
  void line_missed(uint64_t line_addr, uint16_t warp) override;
  // The hits recorded before `now` (an sc_time value), in the order they happened.
  template <class F>
  void take_hits(uint64_t now, F&& f) {
    size_t k = 0;
    for (; k < hits_.size() && hits_[k].time < now; ++k) f(hits_[k]);
    if (k) hits_.erase(hits_.begin(), hits_.begin() + long(k));
  }
  void clear_watch() {  // kernel launch
    vta_.clear();
    hits_.clear();
  }

 private:
  VictimTagArray vta_;
  bool invalidate_;
  Counter *insertions_, *hits_counter_;
  std::vector<Hit> hits_;
};

}  // namespace warptlm
