// A mechanism's part inside the SM. The SM calls these hooks at block
// admission, arrival and retirement, at issue (a gate for memory instructions
// and side effects before execution), when it maps a shared-memory address,
// and when a class-ranked warp ordering asks for a warp's class. A mechanism
// may also contribute warp orderings by name (sm.warp_scheduler). The SM names
// no mechanism: each lives in its own folder under models/ and is attached by
// the platform with Sm::add_mechanism().
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "isa/simt.hpp"
#include "sm/inorder_pipeline.hpp"
#include "sm/sched/scheduler.hpp"

namespace warptlm {

class SmMechanism {
 public:
  virtual ~SmMechanism() = default;
  virtual const char* name() const = 0;
  // Acting on the launch in flight (an inactive mechanism is never asked anything else);
  // a plain flag, read on every issue check.
  bool active() const { return active_; }

  // Block admission: a mechanism that keeps its own block slots replaces the
  // SM's shared-memory byte count with them.
  virtual bool replaces_shared_capacity() const { return false; }
  virtual bool admits_block() const { return true; }
  virtual void block_arrived(const Block*) {}
  virtual void block_retired(const Block*) {}
  // A warp took a hardware slot (its block's warps join the schedulers), and a warp executed its exit.
  virtual void warp_started(const WarpSlot&) {}
  virtual void warp_exited(const WarpSlot&) {}

  // Issue: may this memory instruction issue now (else the warp retries next cycle)?
  virtual bool may_issue_memory(const Warp&, const Instr&) { return true; }
  // Side effects of an instruction at issue, before it executes (the slot's functional warp is w.fw).
  virtual void at_issue(const WarpSlot&, const Instr&, uint32_t /*active_lanes*/) {}
  // The warp's global loads may hit in the L1 but allocate nothing there (a cache-bypass policy).
  virtual bool l1_no_allocate(const WarpSlot&) const { return false; }
  // The warp's global loads and stores go to the L1's side store (l1/l1_side_store.hpp).
  virtual bool l1_redirect(const WarpSlot&) const { return false; }
  // This mechanism answers l1_no_allocate or l1_redirect (the SM asks only those, on each global access).
  virtual bool steers_l1() const { return false; }
  // A memory instruction has executed: its lanes' addresses are in the warp
  // (Warp::addr, addr_mask, addr_space), for checks on what it really touched.
  virtual void memory_executed(const Warp&, const Instr&) {}
  // A shared-memory access issued on the in-order pipeline: the bank-conflict
  // degree of each of its `n` parts (subwarps), as MEM0 will serve them.
  virtual void shared_access_degrees(const Warp&, const Instr&, const uint32_t* /*part_degrees*/, uint32_t /*n*/) {}

  // Out-of-order issue (a hint mode): a warp whose next instruction waits on a long-latency load may issue
  // another instruction in its place this cycle. Only mechanisms that answer issues_out_of_order() are
  // asked. `idle`: asked again because no warp of the scheduler could issue in order this cycle. Returns
  // the instruction as it runs (its registers renamed as the mechanism decided), or null; the SM checks that
  // its sources are written (RAW; WAR and WAW are the mechanism's to rule out) and a unit is free, runs it
  // off the warp's program order (execute_detached) and reports it back.
  virtual bool issues_out_of_order() const { return false; }
  virtual const Instr* instead_of_stall(const WarpSlot&, bool /*idle*/) { return nullptr; }
  virtual void issued_out_of_order(const WarpSlot&, const Instr&) {}
  // The warp's next instruction in program order, `in`, when the mechanism may have run it out of order
  // already: Run it, Skip it (its result is in place: the warp moves past it without an issue slot), or
  // Replace it with *with (e.g. a copy of its renamed result into its destination). Asked again until the
  // SM reports the skip or the issue (replayed); the answer must not change in between.
  enum class Replay : uint8_t { Run, Skip, Replace };
  virtual Replay replay(const WarpSlot&, const Instr& /*in*/, const Instr** /*with*/) { return Replay::Run; }
  virtual void replayed(const WarpSlot&) {}

  // A warp's class for class-ranked orderings (0 ranks first).
  virtual int warp_class(const Block*) const { return 0; }
  // The shared-memory address map of a block (isa/simt.hpp: SharedAddressMap);
  // the SM places the block's shared memory in its physical storage by it.
  virtual bool maps_shared_memory() const { return false; }
  virtual SharedAddressMap shared_map(const Block*) const { return {}; }

  // A warp ordering this mechanism provides under `name`, or null.
  virtual std::unique_ptr<WarpOrdering> make_ordering(const std::string& /*name*/, WarpClassifier) { return nullptr; }
  // The in-order pipeline this mechanism provides under `name` (sm.pipeline.backend, with
  // sm.pipeline.model: inorder), or null.
  virtual std::unique_ptr<StagePipeline> make_pipeline(const std::string& /*name*/, const PipelineShape&) { return nullptr; }

 protected:
  void set_active(bool a) { active_ = a; }

 private:
  bool active_ = false;
};

}  // namespace warptlm
