// CIAO's part in one SM (spec 002 sec. 8, items 1, 3, 4): it watches the L1
// data cache (evictions fill the victim tag array, load misses probe it), counts
// the SM's instructions at issue, runs the epochs of Algorithm 1 and holds
// stalled warps back through an issue filter.
//
// Timing: the L1 runs in its own process, so a VTA hit is recorded with its
// time and reaches the detector at the SM's first edge strictly after it (a
// registered input, docs/determinism.md rule 1); the epochs run at issue, in
// the SM's edge.
#pragma once
#include <cstdint>
#include <vector>

#include "ciao/ciao_cache.hpp"
#include "ciao/interference.hpp"
#include "ciao/warp_states.hpp"
#include "l1/l1_observer.hpp"
#include "l1/victim_tag_array.hpp"
#include "sm/sm_mechanism.hpp"

namespace warptlm {

class Sm;
struct CiaoParams;

struct CiaoCounters {
  CiaoStateCounters states;
  CiaoCacheCounters cache;
  Counter *vta_insertions = nullptr, *vta_hits = nullptr, *high_epochs = nullptr, *low_epochs = nullptr;
  Counter *stall_refusals = nullptr, *barrier_passes = nullptr;
};

class CiaoUnit : public SmMechanism {
 public:
  CiaoUnit(Sm& sm, SharedMemory& banks, const CiaoParams& p, uint32_t warps, const CiaoCounters& c);
  const char* name() const override { return "ciao"; }

  // the SM's side
  void warp_started(const WarpSlot& w) override { states_.arrive(uint16_t(w.slot), w.age); }
  void warp_exited(const WarpSlot& w) override { states_.exit(uint16_t(w.slot)); }
  void at_issue(const WarpSlot& w, const Instr&, uint32_t) override;
  // CIAO-P and CIAO-C: isolated warps' global accesses go to the shared-memory cache (the L1's side store),
  // and the kernel's blocks sit at fixed places in the SM's shared memory, below the cache's region.
  bool l1_redirect(const WarpSlot& w) const override { return redirects_ && states_.isolated(uint16_t(w.slot)); }
  bool steers_l1() const override { return redirects_; }
  bool maps_shared_memory() const override { return redirects_; }
  SharedAddressMap shared_map(const Block* b) const override;
  void block_arrived(const Block* b) override;
  void block_retired(const Block* b) override;
  CiaoSharedCache& shared_cache() { return cache_; }
  // The issue filter: a stalled warp waits, unless warps of its block wait for it at a barrier. A stalled
  // warp that issues anyway is a run error (at_issue).
  bool allows(const WarpSlot& w) const;

  // the L1's side: its evictions and load misses (the VTA, shared with the shared-memory cache)
  L1Observer& l1_watch() { return watch_; }

  // A launch: counters, lists, states and the VTA start over (spec 002 sec. 5.3); CIAO-P/C place the
  // kernel's blocks in slots of `block_bytes` from 0 and the cache in [region_base, shared memory's end).
  void begin_kernel(uint32_t block_bytes, uint32_t region_base, const GlobalMemory* mem);
  const WarpStates& states() const { return states_; }

 private:
  void take_vta_hits();  // the hits the L1 saw before this edge, into the detector
  Sm& sm_;
  double high_cutoff_, low_cutoff_;
  CiaoCounters c_;
  VictimTagWatch watch_;
  InterferenceDetector detector_;
  WarpStates states_;
  EpochSamplers epochs_;
  bool redirects_;  // CIAO-P or CIAO-C
  CiaoSharedCache cache_;
  uint32_t block_bytes_ = 0;
  std::vector<const Block*> slots_;  // the block in each shared-memory slot
  // WARPTLM_TEST_FAULT=ciao_stall_ignored: the filter lets stalled warps through (the issue check must catch it)
  bool fault_stall_ignored_;
  // WARPTLM_TEST_FAULT=ciao_region_overlap: the cache's region starts at 0, over the blocks' shared memory
  // (the workloads' checks must catch the corruption)
  bool fault_region_overlap_;
};

}  // namespace warptlm
