// Sampling's cache warming (sim.sampling_warm_caches, docs/sampling.md): a launch that sampling leaves to the
// functional executor still leaves its lines in the caches, as it would have in a full run, so the next
// timed launch meets the L1 and L2 contents the launches before it imply, not those of the last timed one.
//
// Each global load, store and atomic of the functional launch is coalesced into lines as the LD/ST unit
// coalesces it (sm/coalescer.hpp) and replayed, outside simulated time, into the L1 of the SM the block
// would have run on (the placement policy's order past the SMs' room) and, for what the L1 sends below (a
// load's missing sectors, a write-through store, an atomic), into the L2 slice holding the line
// (L1DataCache::warm, L2Slice::warm). Each SM that would have taken a block also fetches the kernel's code
// through its instruction cache and its parameters through its constant cache (Sm::warm_front_end). Tags, valid and dirty sectors and the replacement order change; no
// counter, queue or DRAM row does, and a dirty victim's write-back is dropped. Local-memory accesses are
// left out (their timing addresses depend on the warp slot a block would have taken).
//
// Deferred (launch sampling, sim.sampling_warm_window): only the launches just before a timed launch shape
// what it meets in the caches, so a functional launch's line accesses are kept, not replayed at once; when a
// launch is to be timed, the most recent functional launches whose accesses together reach the window (in
// lines: sim.sampling_warm_window times the lines the L1s and the L2 hold; at least the last launch) are
// replayed, oldest first, exactly as they would have been at once, and the older ones dropped unreplayed; of
// a launch longer than four times the window, its last accesses that many (what is kept stays bounded).
// A set of an LRU cache holds the last lines its accesses reached, so once the window's lines fill every
// set, what is replayed leaves the state warming every launch would; the front ends are warmed at once.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "common/gpu_payload.hpp"  // MemKind
#include "common/stats.hpp"
#include "interconnect/partition_map.hpp"
#include "isa/simt.hpp"

namespace warptlm {

class L1DataCache;
class L2Slice;
class BlockDispatcher;
class Sm;

class CacheWarmer : public MemoryAccessObserver {
 public:
  CacheWarmer(const std::vector<std::unique_ptr<Sm>>& sms, const std::vector<std::unique_ptr<L1DataCache>>& l1s,
              const std::vector<std::unique_ptr<L2Slice>>& l2s, uint32_t line_bytes, Counter& warmed_lines)
      : sms_of_(sms), l1s_(l1s), l2s_(l2s), line_bytes_(line_bytes), warmed_(warmed_lines) {}
  // The next functional launch's blocks go where `dispatcher`'s placement would have sent them, on `sms`
  // SMs; `map` finds a line's L2 slice (null: no L2).
  // Block `first_block` is the first the placement would place next (interval sampling: the blocks run
  // functionally inside a launch).
  void begin_launch(const BlockDispatcher* dispatcher, uint32_t sms, const PartitionMap* map, uint64_t first_block = 0) {
    dispatcher_ = dispatcher;
    sms_ = sms;
    map_ = map;
    first_block_ = first_block;
    if (deferred_) {  // a new launch's accesses to keep
      drop_outside_window();
      kept_.emplace_back();
      if (!spare_.empty()) {
        std::swap(kept_.back(), spare_.back());
        spare_.pop_back();
      }
    }
  }
  // The SM block `b` would have run on.
  uint32_t sm_of(const Block& b) const;
  // The front ends of the SMs that the launch's `blocks` would have reached: the code of `k` (the kernel the
  // timing SMs fetch, placed in instruction memory) and the launch's parameters.
  void warm_front_ends(const KernelInfo& k, const LaunchState& L, uint64_t blocks);
  void accessed(const Block& b, const Warp& w, const Instr& in) override;

  // Keep functional launches' accesses until replay(), the launches reaching `window_lines` at most.
  void defer(uint64_t window_lines) {
    deferred_ = true;
    window_lines_ = window_lines;
    launch_cap_ = size_t(std::max<uint64_t>(4 * window_lines, 1));
  }
  // Before a timed launch: the kept launches' accesses into the caches, oldest first.
  void replay();

 private:
  struct Access {  // one line of a warp's access, for deferred warming
    uint64_t addr;
    uint32_t sectors;
    uint16_t sm;
    MemKind kind;
    bool nc;  // an ld.global.nc
  };
  // One functional launch's line accesses, its last `cap` at most (a ring once full): a launch longer than
  // the window replays its last accesses, and what is kept stays bounded however long the launch runs.
  struct Trace {
    std::vector<Access> a;
    size_t next = 0;  // once full: the oldest
    void add(const Access& x, size_t cap) {
      if (a.size() < cap) {
        a.push_back(x);
      } else {
        a[next] = x;
        if (++next == cap) next = 0;
      }
    }
    template <class F>
    void each(F&& f) const {  // oldest first
      for (size_t i = next; i < a.size(); ++i) f(a[i]);
      for (size_t i = 0; i < next; ++i) f(a[i]);
    }
    void clear() {
      a.clear();
      next = 0;
    }
  };
  void warm_line(uint32_t sm, uint64_t addr, uint32_t sectors, MemKind kind, bool nc);
  void into_l2(uint64_t addr, uint32_t sectors, bool write);
  void drop_outside_window();
  const std::vector<std::unique_ptr<Sm>>& sms_of_;
  const std::vector<std::unique_ptr<L1DataCache>>& l1s_;
  const std::vector<std::unique_ptr<L2Slice>>& l2s_;
  uint32_t line_bytes_;
  Counter& warmed_;
  const PartitionMap* map_ = nullptr;  // null: no L2 (mem.model: flat)
  const BlockDispatcher* dispatcher_ = nullptr;
  uint32_t sms_ = 1;
  uint64_t first_block_ = 0;
  bool deferred_ = false;
  uint64_t window_lines_ = 0;
  size_t launch_cap_ = 1;  // the accesses a launch keeps at most: four windows
  std::vector<Trace> kept_;   // per functional launch since the last replay, oldest first
  std::vector<Trace> spare_;  // emptied, their storage kept for the next launches
};

}  // namespace warptlm
