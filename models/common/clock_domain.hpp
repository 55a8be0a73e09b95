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
#include "common/edge_workers.hpp"

namespace warptlm {

class ClockedBlock {
 public:
  static constexpr uint64_t kNever = UINT64_MAX;
  virtual ~ClockedBlock() = default;
  // Do the work of edge `cycle`; return the next edge this block needs (kNever: none until asked).
  virtual uint64_t clock_edge(uint64_t cycle) = 0;
  // A block whose edge splits in two (the SMs): edge_own_work(cycle), which
  // touches nothing outside the block, runs for every such member of the edge
  // before any member's clock_edge (on the domain's worker threads, if it has
  // them); clock_edge then does what reaches other blocks, in member order. A
  // block that joins an edge late (asked for it during the edge) runs its own
  // part inside its clock_edge.
  virtual bool splits_edge() const { return false; }
  virtual void edge_own_work(uint64_t) {}
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
    splits_.push_back(b.splits_edge());
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
  // Worker threads for the members' own parts (sim.threads); null: this thread runs them.
  void use_workers(EdgeWorkers* w) { workers_ = w; }

 private:
  void tick() {
    if (halted_) return;
    const uint64_t c = cycle_now(period_);
    armed_ = ClockedBlock::kNever;
    running_ = true;
    ++edges_;
    run_own_parts(c);
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

  // The own parts of the members due at edge c, in member order or on the workers.
  void run_own_parts(uint64_t c) {
    own_.clear();
    for (size_t i = 0; i < members_.size(); ++i)
      if (splits_[i] && due_[i] <= c) own_.push_back(uint32_t(i));
    if (own_.empty()) return;
    own_cycle_ = c;
    if (workers_ && own_.size() > 1) {
      owner_.resize(own_.size());
      const uint32_t t = workers_->threads();
      for (size_t k = 0; k < own_.size(); ++k) owner_[k] = own_[k] % t;  // member i on thread i mod t
      workers_->run(own_.size(), owner_.data(), [](void* d, size_t k) {
        ClockDomain& self = *static_cast<ClockDomain*>(d);
        self.members_[self.own_[k]]->edge_own_work(self.own_cycle_);
      }, this);
      return;
    }
    for (uint32_t i : own_) {
      turn_ = i;
      members_[i]->edge_own_work(c);
    }
    turn_ = 0;
  }

  sc_core::sc_time period_;
  std::vector<ClockedBlock*> members_;
  std::vector<bool> splits_;
  std::vector<uint32_t> own_;  // the members whose own parts run in this edge
  std::vector<uint32_t> owner_;  // the thread of each
  uint64_t own_cycle_ = 0;
  EdgeWorkers* workers_ = nullptr;

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
