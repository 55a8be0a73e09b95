// The SM's resource access unit for scratchpad sharing (seed 000, sections
// 2.3-2.6 and 4): it keeps which block sits in which slot of the kernel's
// sharing plan, decides at issue whether a warp may touch the shared region
// (asking the lock arbiter over TLM), applies relssp, passes ownership on when
// an owner block finishes, classifies warps for Owner-Warp-First (and provides
// that ordering, sm.warp_scheduler: owf), and maps a block's scratchpad offsets
// to the physical layout of its pair. It is the mechanism's part inside the SM
// (SmMechanism): the SM calls its hooks and names nothing of it.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "common/config.hpp"
#include "common/gpu_payload.hpp"
#include "common/stats.hpp"
#include "isa/simt.hpp"
#include "scratchpad/sharing_plan.hpp"
#include "sm/sm_mechanism.hpp"

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

class Owf;  // the Owner-Warp-First ordering (sharing_unit.cpp)

class SharingUnit : public SmMechanism {
 public:
  // To the SM's pair-lock arbiter (LockArbiter), answered within the call.
  tlm_utils::simple_initiator_socket_optional<SharingUnit> socket;

  // Constructed inside the SM's constructor, so the socket is the SM's (gpu.sm3.ssp_socket).
  SharingUnit(uint32_t sm_id, const SharingParams& p, StatsRegistry& stats, PayloadPool& pool);

  const char* name() const override { return "scratchpad_sharing"; }
  void begin_kernel(const SharingPlan& plan);
  const SharingPlan& plan() const { return plan_; }

  // dispatch: the plan's slots replace the scratchpad byte count
  bool replaces_shared_capacity() const override { return true; }
  bool admits_block() const override { return has_free_slot(); }
  bool has_free_slot() const;
  void block_arrived(const Block* b) override;   // takes the lowest free slot
  void block_retired(const Block* b) override;   // ownership passes to the partner; the slot frees

  // issue: may this warp issue `in` now? (acquires the pair lock on its first shared-region access)
  bool may_issue_memory(const Warp& w, const Instr& in) override;
  void at_issue(const WarpSlot& w, const Instr& in, uint32_t lanes) override {
    if (in.op == Op::Relssp) relssp(*w.fw, lanes);
  }
  // The lock-safety check on the addresses the lanes really used.
  void memory_executed(const Warp& w, const Instr& in) override;
  void relssp(const Warp& w, uint32_t lanes);

  // Setup for worked examples: the block with this linear id owns its pair's
  // lock from the moment it arrives (as if it had touched the shared region before).
  void preassign_lock(uint32_t block_linear_id) { preassigned_ = block_linear_id; }

  int warp_class(const Block* b) const override { return int(owf_class(b)); }
  WarpClass owf_class(const Block* b) const;
  // The block's scratchpad offsets in its pair's physical layout (identity for a block without a slot).
  bool maps_shared_memory() const override { return true; }
  SharedAddressMap shared_map(const Block* b) const override { return physical_map(b); }
  SlotMap physical_map(const Block* b) const;
  bool shared_block(const Block* b) const;
  // Owner Warp First (sm.warp_scheduler: owf, spec 3.1), its class priority from
  // ss.owf_order and ss.owf_greedy; configure_owf() changes it for the orderings made.
  std::unique_ptr<WarpOrdering> make_ordering(const std::string& name, WarpClassifier classify) override;
  void configure_owf(bool unshared_first, bool greedy);

 private:
  int slot_of(const Block* b) const;
  // The lanes of `mask` whose address (in `space`) lies in the shared region (offset >= t * R_tb).
  uint32_t shared_region_lanes(Space space, const uint64_t* addr, uint32_t mask) const;
  // A shared-region access the pair's lock forbids: counted, then a run error
  // naming kernel, block, warp, PC and PTX line.
  void check_not_released(const Warp& w, const Instr& in, size_t slot, uint32_t lanes, const uint64_t* addr);
  [[noreturn]] void lock_violation(const Warp& w, const Instr& in, uint32_t lanes, const uint64_t* addr, const char* what);
  // One decision of the pair-lock arbiter: 1 granted / done, 0 denied.
  uint32_t arbiter_(MemKind kind, uint32_t pair, uint32_t block, uint32_t partner);
  tlm::tlm_sync_enum socket_bw(tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_core::sc_time&) { return tlm::TLM_COMPLETED; }

  uint32_t sm_id_;
  SharingParams p_;
  std::vector<Owf*> owf_;  // the orderings this unit made
  PayloadPool& pool_;
  SharingPlan plan_;
  std::vector<const Block*> slot_block_;
  std::vector<SlotMap> slot_maps_;               // per slot: where its offsets lie physically
  std::vector<bool> owns_;                       // per slot: holds its pair's lock
  std::vector<std::vector<uint32_t>> released_;  // per slot, per warp: lanes that executed relssp
  Counter *shared_blocks_, *unshared_blocks_, *violations_;
  uint32_t preassigned_ = 0xFFFFFFFFu;
  // WARPTLM_TEST_FAULT=ssp_gate_open (test only): the issue check lets every
  // shared-region access through without the lock; the check at execution must stop it.
  bool gate_open_ = false;
};

}  // namespace warptlm
