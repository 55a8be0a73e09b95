// The thread-block dispatcher: hands a launch's blocks to the SMs, in block
// order, each to the SM its placement policy chooses among those with room.
// It is a clocked block of the core domain that takes each edge after the SMs:
// it sends the first blocks when the launch starts, and in an edge where SMs
// retire blocks it looks again once every retirement of that edge is known, so
// the choice never depends on which SM ran first. An SM starts a block at its
// first edge after receiving it (a registered input, docs/determinism.md).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "common/clock_domain.hpp"
#include "gpu/placement.hpp"
#include "isa/simt.hpp"
#include "sm/sm.hpp"

namespace warptlm {

// A launch whose blocks go out in an order of their own, not each to an SM with
// room (the SPU mesh's passes: one block per unit, the next pass once all of
// this one retired). The dispatcher asks it at the launch's start and at each
// edge with retirements, after every other block of that edge.
class BlockSchedule {
 public:
  virtual ~BlockSchedule() = default;
  // The blocks the launch runs in all (the dispatcher's count to retire).
  virtual uint64_t blocks() const = 0;
  // Send what may go now, each with send(sm, block). A RunError stops the launch.
  virtual void dispatch(const std::function<void(uint32_t, std::unique_ptr<Block>)>& send) = 0;
  // Nothing is left to send or to check (the launch may end once its blocks retired).
  virtual bool finished() const = 0;
  // Set by the dispatcher: the schedule calls it when it may send again or
  // finished, and the dispatcher looks at its next edge (this one, if to come).
  std::function<void()> ready;
};

class BlockDispatcher : public sc_core::sc_module, public ClockedBlock {
 public:
  // Joins `clock` (after the SMs, which must have joined already).
  BlockDispatcher(sc_core::sc_module_name name, ClockDomain& clock, std::vector<Sm*> sms,
                  std::unique_ptr<PlacementPolicy> placement);

  // The launch latency (GPGPU-Sim's -gpgpu_kernel_launch_latency and -gpgpu_TB_launch_latency): a launch's
  // first blocks go out `per_launch` + blocks x `per_block` core cycles after it starts, counted in its cycles.
  void set_launch_latency(uint64_t per_launch, uint64_t per_block) {
    latency_per_launch_ = per_launch;
    latency_per_block_ = per_block;
  }
  // Start a launch of `blocks` blocks of `usage` each; the first go out now (after the launch latency).
  // Blocks [first, blocks) of the launch (those before `first` ran functionally: sim.fast_forward).
  void begin_launch(LaunchState& L, const BlockUsage& usage, uint64_t first, uint64_t blocks);
  // Start a launch whose blocks `schedule` sends (it outlives the launch).
  void begin_launch(LaunchState& L, const BlockUsage& usage, BlockSchedule& schedule);
  // An SM retired a block of the launch in flight.
  void block_retired();
  bool launch_running() const { return retired_ < total_; }
  uint64_t blocks_retired() const { return retired_; }
  uint64_t blocks_total() const { return total_; }
  // The launch's last cycle: its last block's retirement (a scheduled launch: when its schedule finished).
  uint64_t last_retire_cycle() const { return last_retire_cycle_; }
  const PlacementPolicy& placement() const { return *placement_; }
  // A launch ran untimed on the functional executor: the placement moves on past its blocks.
  void skip_blocks(uint64_t blocks, uint32_t sms) { placement_->skip_blocks(blocks, sms); }
  int sm_of_skipped(uint64_t i, uint32_t sms) const { return placement_->sm_of_skipped(i, sms); }
  std::function<void()> on_launch_done;  // the launch's last block retired
  // Interval sampling (sim.sampling: intervals): asked at each edge with retirements, before blocks go out,
  // how many of the next blocks (from block `next`, `left` of them waiting) run elsewhere (the platform runs
  // them on the functional executor at once); they count as dispatched and retired, and the placement moves
  // on past them. Null: none.
  std::function<uint64_t(uint64_t next, uint64_t left)> take_blocks;
  std::function<void(const std::string&)> on_run_error;  // a schedule's RunError

 private:
  uint64_t clock_edge(uint64_t cycle) override;
  void start(LaunchState& L, const BlockUsage& usage, BlockSchedule* schedule, uint64_t first, uint64_t blocks);
  void look_again();  // an edge now (this one, if the dispatcher's turn in it is to come)
  bool held(uint64_t now);  // the launch latency has not run out: an edge asked for when it does
  void dispatch();
  void dispatch_scheduled();
  void pass_blocks_on();
  void send(uint32_t sm, std::unique_ptr<Block> b);

  ClockDomain& clock_;
  uint32_t clock_index_;
  sc_core::sc_time period_;
  std::vector<Sm*> sms_;
  std::unique_ptr<PlacementPolicy> placement_;
  std::vector<bool> fits_;
  LaunchState* launch_ = nullptr;
  BlockSchedule* schedule_ = nullptr;
  BlockUsage usage_;
  uint64_t next_ = 0, total_ = 0, retired_ = 0, last_retire_cycle_ = 0;
  uint64_t latency_per_launch_ = 0, latency_per_block_ = 0;
  uint64_t release_at_ = 0;  // the launch's first blocks go out at this edge
};

}  // namespace warptlm
