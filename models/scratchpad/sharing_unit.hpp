// The SM's resource access unit for scratchpad sharing (seed 000, sections
// 2.3-2.6 and 4): it keeps which block sits in which slot of the kernel's
// sharing plan, decides at issue whether a warp may touch the shared region
// (asking the lock arbiter over TLM), applies relssp, passes ownership on when
// an owner block finishes, classifies warps for Owner-Warp-First, and maps a
// block's scratchpad offsets to the physical layout of its pair.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/config.hpp"
#include "common/gpu_payload.hpp"
#include "common/stats.hpp"
#include "isa/simt.hpp"
#include "scratchpad/sharing_plan.hpp"

namespace warptlm {

struct SharingParams {
  bool enabled = false;       // ss.enabled
  double threshold = 0.1;     // ss.threshold: private fraction t
  std::string owf_order;      // ss.owf_order: owner_first | unshared_first
  bool owf_greedy = false;    // ss.owf_greedy
  std::string policy;         // ss.policy
  bool bank_aligned = true;   // ss.layout
  static void declare(ParamTable& t);
  static SharingParams from(const Config& c);
};

// Warp classes of OWF (spec 3.1).
enum class WarpClass : uint8_t { Owner = 0, Unshared = 1, NonOwner = 2 };

class SharingUnit {
 public:
  // One request to the lock arbiter: returns its decision (1 granted / done, 0 denied).
  using ArbiterCall = std::function<uint32_t(MemKind kind, uint32_t pair, uint32_t block, uint32_t partner)>;

  SharingUnit(uint32_t sm_id, StatsRegistry& stats, ArbiterCall arbiter);

  void begin_kernel(const SharingPlan& plan);
  bool active() const { return plan_.shsm; }
  const SharingPlan& plan() const { return plan_; }

  // dispatch
  bool has_free_slot() const;
  void block_arrived(const Block* b);   // takes the lowest free slot
  void block_retired(const Block* b);   // ownership passes to the partner; the slot frees

  // issue: may this warp issue `in` now? (acquires the pair lock on its first shared-region access)
  bool may_issue(const Warp& w, const Instr& in);
  void relssp(const Warp& w, uint32_t lanes);

  // Setup for worked examples: the block with this linear id owns its pair's
  // lock from the moment it arrives (as if it had touched the shared region before).
  void preassign_lock(uint32_t block_linear_id) { preassigned_ = block_linear_id; }

  WarpClass warp_class(const Block* b) const;
  // The block's scratchpad offsets in its pair's physical layout (identity for a block without a slot).
  SlotMap physical_map(const Block* b) const;
  bool shared_block(const Block* b) const;

 private:
  int slot_of(const Block* b) const;
  bool touches_shared_region(const Warp& w, const Instr& in) const;

  uint32_t sm_id_;
  ArbiterCall arbiter_;
  SharingPlan plan_;
  std::vector<const Block*> slot_block_;
  std::vector<SlotMap> slot_maps_;               // per slot: where its offsets lie physically
  std::vector<bool> owns_;                       // per slot: holds its pair's lock
  std::vector<std::vector<uint32_t>> released_;  // per slot, per warp: lanes that executed relssp
  Counter *shared_blocks_, *unshared_blocks_;
  uint32_t preassigned_ = 0xFFFFFFFFu;
};

}  // namespace warptlm
