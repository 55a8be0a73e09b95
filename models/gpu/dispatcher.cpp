#include "gpu/dispatcher.hpp"

#include "common/clock.hpp"
#include "common/errors.hpp"

#include <algorithm>

namespace warptlm {

BlockDispatcher::BlockDispatcher(sc_core::sc_module_name name, ClockDomain& clock, std::vector<Sm*> sms,
                                 std::unique_ptr<PlacementPolicy> placement)
    : sc_core::sc_module(name),
      clock_(clock),
      clock_index_(clock.join(*this)),
      period_(clock.period()),
      sms_(std::move(sms)),
      placement_(std::move(placement)),
      fits_(sms_.size()) {}

void BlockDispatcher::begin_launch(LaunchState& L, const BlockUsage& usage, uint64_t first, uint64_t blocks) {
  start(L, usage, nullptr, first, blocks);
  if (!held(cycle_now(period_))) dispatch();
}

void BlockDispatcher::begin_launch(LaunchState& L, const BlockUsage& usage, BlockSchedule& schedule) {
  schedule.ready = [this] { look_again(); };
  start(L, usage, &schedule, 0, schedule.blocks());
  if (!held(cycle_now(period_))) dispatch_scheduled();
}

bool BlockDispatcher::held(uint64_t now) {
  if (now >= release_at_) return false;
  clock_.request(clock_index_, release_at_);
  return true;
}

void BlockDispatcher::start(LaunchState& L, const BlockUsage& usage, BlockSchedule* schedule, uint64_t first,
                            uint64_t blocks) {
  schedule_ = schedule;
  launch_ = &L;
  usage_ = usage;
  next_ = first;
  total_ = blocks;
  retired_ = first;
  last_retire_cycle_ = cycle_now(period_);
  release_at_ = last_retire_cycle_ + latency_per_launch_ + blocks * latency_per_block_;
  placement_->begin_launch(uint32_t(blocks));
}

void BlockDispatcher::look_again() { clock_.request(clock_index_, cycle_now(period_)); }  // this edge, after the SMs

void BlockDispatcher::block_retired() {
  ++retired_;
  last_retire_cycle_ = cycle_now(period_);
  if (schedule_) {  // the schedule answers at this edge, after the blocks that act on the retirement
    look_again();
    return;
  }
  if (next_ < total_) look_again();
  if (retired_ == total_ && on_launch_done) on_launch_done();
}

uint64_t BlockDispatcher::clock_edge(uint64_t cycle) {
  if (cycle < release_at_) return release_at_;
  if (schedule_) {
    dispatch_scheduled();
    return kNever;
  }
  if (take_blocks && next_ < total_) pass_blocks_on();
  dispatch();
  return kNever;
}

// Interval sampling: the next blocks run elsewhere; the launch may end with them.
void BlockDispatcher::pass_blocks_on() {
  const uint64_t n = std::min(take_blocks(next_, total_ - next_), total_ - next_);
  if (!n) return;
  placement_->skip_blocks(n, uint32_t(sms_.size()));
  next_ += n;
  retired_ += n;
  last_retire_cycle_ = cycle_now(period_);
  if (retired_ == total_ && on_launch_done) on_launch_done();
}

void BlockDispatcher::send(uint32_t sm, std::unique_ptr<Block> b) {
  sms_[sm]->launch_block(std::move(b), usage_);
  ++next_;
}

// A scheduled launch: the schedule sends; the launch ends when every block
// retired and the schedule has nothing left to check.
void BlockDispatcher::dispatch_scheduled() {
  if (!launch_) return;  // this launch already ended
  try {
    schedule_->dispatch([this](uint32_t sm, std::unique_ptr<Block> b) { send(sm, std::move(b)); });
  } catch (const RunError& e) {
    if (on_run_error) on_run_error(e.what());
    return;
  }
  if (retired_ == total_ && schedule_->finished()) {
    // The schedule may finish after the last block retired (units of a mechanism's own that are no SMs).
    last_retire_cycle_ = cycle_now(period_);
    launch_ = nullptr;
    if (on_launch_done) on_launch_done();
  }
}

// Every block that fits goes out, in block order, each to the SM the placement chooses.
void BlockDispatcher::dispatch() {
  while (next_ < total_) {
    for (size_t i = 0; i < sms_.size(); ++i) fits_[i] = sms_[i]->can_accept(usage_);
    const int s = placement_->choose(uint32_t(next_), fits_);
    if (s < 0) break;
    // (its warps are made as the SM installs it, in the SM's own part)
    sms_[size_t(s)]->launch_block(std::make_unique<Block>(*launch_->kernel, *launch_, uint32_t(next_), uint32_t(s), false), usage_);
    ++next_;
  }
}

}  // namespace warptlm
