// A read-only cache of the SM front end and LD/ST unit: the instruction cache
// and the constant cache (which also holds kernel parameters where the GPU
// reads them through it). A set-associative tag array with LRU replacement.
//
// Two ways to serve a miss (sm.icache.fill / sm.ccache.fill):
//   fixed:  the line is installed at once and the requester pays a fixed
//           miss latency (a cache with no path to memory);
//   memory: the line is reserved and an MSHR taken; the SM sends a fill
//           request down the memory hierarchy, and every request for the
//           line waits for that fill (merged into the MSHR, up to `merges`
//           requests). With every MSHR busy, or every way of the set reserved,
//           the access is refused (a reservation fail) and tried again later.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "sm/sm_params.hpp"

namespace warptlm {

class ReadOnlyCache {
 public:
  enum class Lookup : uint8_t { Hit, Miss, Pending, ReservationFail };

  ReadOnlyCache(uint32_t size, uint32_t line, uint32_t assoc, const FillParams& fill)
      : line_(line), assoc_(assoc), sets_(std::max<uint32_t>(1, size / (line * assoc))), from_memory_(fill.from_memory),
        merges_(fill.merges), ways_(size_t(sets_) * assoc), mshrs_(fill.mshrs) {}

  bool fills_from_memory() const { return from_memory_; }
  uint32_t line_bytes() const { return line_; }
  uint64_t line_address(uint64_t addr) const { return addr / line_ * line_; }

  // Looks up the line holding byte address `addr`.
  Lookup access(uint64_t addr) {
    const uint64_t line = addr / line_;
    Way* set = &ways_[size_t(line % sets_) * assoc_];
    ++tick_;
    for (uint32_t w = 0; w < assoc_; ++w)
      if (set[w].tag == line) {
        set[w].lru = tick_;
        if (!set[w].pending) return Lookup::Hit;
        Mshr* m = find_mshr(line);
        if (m->merged >= merges_) return Lookup::ReservationFail;
        ++m->merged;
        return Lookup::Pending;
      }
    Way* victim = nullptr;
    for (uint32_t w = 0; w < assoc_; ++w)
      if (!set[w].pending && (!victim || set[w].lru < victim->lru)) victim = &set[w];
    if (!from_memory_) {  // fixed: installed at once
      victim->tag = line;
      victim->lru = tick_;
      return Lookup::Miss;
    }
    Mshr* m = find_mshr(UINT64_MAX);
    if (!victim || !m) return Lookup::ReservationFail;
    victim->tag = line;
    victim->lru = tick_;
    victim->pending = true;
    m->line = line;
    m->merged = 1;
    return Lookup::Miss;
  }

  // Sampling's cache warming (docs/sampling.md): the line holding `addr` as an access and its fill would
  // have left it, outside simulated time (no MSHR). True when it was absent (its fill came from below).
  bool warm(uint64_t addr) {
    const uint64_t line = addr / line_;
    Way* set = &ways_[size_t(line % sets_) * assoc_];
    ++tick_;
    Way* victim = nullptr;
    for (uint32_t w = 0; w < assoc_; ++w) {
      if (set[w].tag == line) {
        set[w].lru = tick_;
        return false;
      }
      if (!set[w].pending && (!victim || set[w].lru < victim->lru)) victim = &set[w];
    }
    if (victim) victim->tag = line, victim->lru = tick_;
    return true;
  }

  // The fill of the line holding `addr` came back: the line becomes valid and
  // its MSHR frees. False if no MSHR waited for it (a broken conservation rule).
  bool fill(uint64_t addr) {
    const uint64_t line = addr / line_;
    Mshr* m = find_mshr(line);
    if (!m) return false;
    m->line = UINT64_MAX;
    Way* set = &ways_[size_t(line % sets_) * assoc_];
    for (uint32_t w = 0; w < assoc_; ++w)
      if (set[w].tag == line) set[w].pending = false;
    return true;
  }

  uint32_t mshrs_in_use() const {
    return uint32_t(std::count_if(mshrs_.begin(), mshrs_.end(), [](const Mshr& m) { return m.line != UINT64_MAX; }));
  }

 private:
  struct Way {
    uint64_t tag = UINT64_MAX, lru = 0;
    bool pending = false;  // reserved: its fill is on the way
  };
  struct Mshr {
    uint64_t line = UINT64_MAX;  // UINT64_MAX: free
    uint32_t merged = 0;         // requests waiting for the fill
  };
  Mshr* find_mshr(uint64_t line) {
    for (Mshr& m : mshrs_)
      if (m.line == line) return &m;
    return nullptr;
  }

  uint32_t line_, assoc_, sets_;
  bool from_memory_;
  uint32_t merges_;
  std::vector<Way> ways_;
  std::vector<Mshr> mshrs_;
  uint64_t tick_ = 0;
};

}  // namespace warptlm
