// A clock domain's edge sequencer. Blocks that share state through the
// functional model (the SMs: execute at issue reads and writes one global
// memory) must take the same edge in a fixed order, or two SMs touching one
// address in the same cycle would see each other in whatever order SystemC ran
// them. The sequencer is the domain's one SystemC process: at each edge some
// member asked for, it runs those members in the order they joined (SM index
// order), and sleeps while none asks. A member asks for an edge with
// request(); what it hears from other blocks inside an instant is a registered
// input, so a request always names a later edge than the one running.
#pragma once
#include <cstdint>
#include <systemc>
#include <vector>

#include "common/clock.hpp"

namespace warptlm {

class ClockedBlock {
 public:
  static constexpr uint64_t kNever = UINT64_MAX;
  virtual ~ClockedBlock() = default;
  // Do the work of edge `cycle`; return the next edge this block needs (kNever: none until asked).
  virtual uint64_t clock_edge(uint64_t cycle) = 0;
};

class ClockDomain : public sc_core::sc_module {
 public:
  ClockDomain(sc_core::sc_module_name name, sc_core::sc_time period) : sc_core::sc_module(name), period_(period) {
    SC_METHOD(tick);
    sensitive << wake_;
    dont_initialize();
  }
  SC_HAS_PROCESS(ClockDomain);

  // Members take an edge in the order they join; returns the member's index.
  uint32_t join(ClockedBlock& b) {
    members_.push_back(&b);
    due_.push_back(ClockedBlock::kNever);
    after_.push_back(ClockedBlock::kNever);
    return uint32_t(members_.size() - 1);
  }
  // Member `i` needs edge `cycle`: at the earliest the first edge after now,
  // or, while this domain runs an edge, that same edge for a member whose turn
  // in it is still to come (a dispatcher that joined after the SMs sees their
  // retirements in the edge they happen).
  void request(uint32_t i, uint64_t cycle) {
    const bool later_in_this_edge = running_ && i > turn_;
    cycle = std::max(cycle, cycle_now(period_) + (later_in_this_edge ? 0 : 1));
    // The nearest edge asked for is due; a later one is kept for after it, since
    // the member's edge clears what was due.
    if (cycle < due_[i]) {
      if (due_[i] != ClockedBlock::kNever) after_[i] = std::min(after_[i], due_[i]);
      due_[i] = cycle;
    } else if (cycle > due_[i]) {
      after_[i] = std::min(after_[i], cycle);
    }
    if (cycle == due_[i] && cycle < armed_ && !(running_ && cycle == cycle_now(period_))) {
      armed_ = cycle;
      wake_at_edge(wake_, period_, cycle);
    }
  }
  const sc_core::sc_time& period() const { return period_; }
  uint64_t edges() const { return edges_; }  // edges taken so far
  // Stop taking edges for good (a launch that stopped or faulted halts the SMs).
  void halt() { halted_ = true; }

 private:
  void tick() {
    if (halted_) return;
    const uint64_t c = cycle_now(period_);
    armed_ = ClockedBlock::kNever;
    running_ = true;
    ++edges_;
    for (size_t i = 0; i < members_.size(); ++i) {
      turn_ = uint32_t(i);
      if (due_[i] > c) continue;
      due_[i] = after_[i] > c ? after_[i] : ClockedBlock::kNever;
      after_[i] = ClockedBlock::kNever;
      const uint64_t next = members_[i]->clock_edge(c);
      if (next != ClockedBlock::kNever) due_[i] = std::min(due_[i], std::max(next, c + 1));
    }
    running_ = false;
    uint64_t next = ClockedBlock::kNever;
    for (uint64_t d : due_) next = std::min(next, d);
    if (next != ClockedBlock::kNever) {
      armed_ = next;
      wake_at_edge(wake_, period_, next);
    }
  }

  sc_core::sc_time period_;
  std::vector<ClockedBlock*> members_;
  std::vector<uint64_t> due_;    // the nearest edge each member asked for
  std::vector<uint64_t> after_;  // a later edge asked for before the nearest one ran
  uint64_t armed_ = ClockedBlock::kNever;
  bool running_ = false;  // inside tick(), at member turn_
  bool halted_ = false;
  uint32_t turn_ = 0;
  uint64_t edges_ = 0;
  sc_core::sc_event wake_;
};

// A block that takes its edges from a clock domain it shares with its peers
// (the L2 slices, the DRAM channels: one SystemC wake-up per edge for all of
// them, not one per block), once the platform joins it to one; until then, as
// when a component test builds it alone, from its own SystemC process woken
// by `own`. Either way it asks for an edge with ask_edge(), always a later one
// than the edge now (what it hears from other blocks is a registered input),
// and does the edge's work in clock_edge().
class SharedClockMember : public ClockedBlock {
 public:
  // `d` must run at the block's own clock period.
  void join_domain(ClockDomain& d) {
    if (d.period() != clock_period()) SC_REPORT_ERROR(d.name(), "a block joined a clock domain of another period");
    domain_ = &d;
    member_ = d.join(*this);
  }

  virtual const sc_core::sc_time& clock_period() const = 0;

 protected:
  void ask_edge(sc_core::sc_event& own, const sc_core::sc_time& period, uint64_t cycle) {
    if (domain_) domain_->request(member_, cycle);
    else wake_at_edge(own, period, cycle);
  }

 private:
  ClockDomain* domain_ = nullptr;
  uint32_t member_ = 0;
};

}  // namespace warptlm
