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
  // A block whose edge splits in two (an SM, its shared memory, its L1): its
  // own part, edge_own_work(cycle), touches nothing outside the block's
  // partition (the SM it belongs to: common/README.md), and runs for every such
  // member of the edge before any member's clock_edge, partition by partition
  // (on the domain's worker threads, if it has them); clock_edge then does what
  // reaches other blocks, in member order. A member asked for an edge during
  // it runs its own part inside its clock_edge; one asked again for the edge it
  // is in after its own part ran runs its own part again at its turn.
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

  static constexpr uint32_t kOwnPartition = UINT32_MAX;
  // Members take an edge in the order they join; returns the member's index.
  // Members of one `partition` (an SM's index, for the SM and the blocks only
  // it talks to) have their own parts run together, in member order, on one
  // thread; kOwnPartition: a partition of its own.
  uint32_t join(ClockedBlock& b, uint32_t partition = kOwnPartition) {
    const uint32_t i = uint32_t(members_.size());
    members_.push_back(&b);
    due_.push_back(ClockedBlock::kNever);
    after_.push_back(ClockedBlock::kNever);
    asked_.push_back(ClockedBlock::kNever);
    own_ran_.push_back(ClockedBlock::kNever);
    again_.push_back(false);
    if (b.splits_edge()) {
      const uint32_t key = partition == kOwnPartition ? uint32_t(1u << 31) + i : partition;
      size_t p = 0;
      while (p < partitions_.size() && partitions_[p].key != key) ++p;
      if (p == partitions_.size()) partitions_.push_back(Partition{key, {}});
      partitions_[p].members.push_back(i);
    }
    return i;
  }
  // Member `i` needs edge `cycle`: at the earliest the first edge after now,
  // or, while this domain runs an edge, that same edge for a member whose turn
  // in it is still to come (a dispatcher that joined after the SMs sees their
  // retirements in the edge they happen). Asked during the edge's own parts,
  // the request is held and made, in member order, once every own part is done.
  // With worker threads an own part asks only for members of its own partition
  // (a mechanism whose SM parts reach further keeps the engine on one thread).
  void request(uint32_t i, uint64_t cycle) {
    if (own_phase_) {
      asked_[i] = std::min(asked_[i], cycle);
      return;
    }
    const uint64_t now = cycle_now(period_);
    const bool later_in_this_edge = running_ && i > turn_;
    cycle = std::max(cycle, now + (later_in_this_edge ? 0 : 1));
    if (later_in_this_edge && cycle == now && own_ran_[i] == now) again_[i] = true;
    // The nearest edge asked for is due; a later one is kept for after it, since
    // the member's edge clears what was due.
    if (cycle < due_[i]) {
      if (due_[i] != ClockedBlock::kNever) after_[i] = std::min(after_[i], due_[i]);
      due_[i] = cycle;
    } else if (cycle > due_[i]) {
      after_[i] = std::min(after_[i], cycle);
    }
    if (cycle == due_[i] && cycle < armed_ && !(running_ && cycle == now)) {
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
      if (again_[i]) {
        again_[i] = false;
        members_[i]->edge_own_work(c);
      }
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

  // The own parts of the members due at edge c, partition by partition, in
  // member order within one; then the requests they made, in member order.
  void run_own_parts(uint64_t c) {
    parts_.clear();
    for (uint32_t p = 0; p < partitions_.size(); ++p)
      for (uint32_t i : partitions_[p].members)
        if (due_[i] <= c) {
          parts_.push_back(p);
          break;
        }
    if (parts_.empty()) return;
    own_cycle_ = c;
    own_phase_ = true;
    if (workers_ && parts_.size() > 1) {
      owner_.resize(parts_.size());
      const uint32_t t = workers_->threads();
      for (size_t k = 0; k < parts_.size(); ++k) owner_[k] = partitions_[parts_[k]].key % t;  // SM i on thread i mod t
      workers_->run(parts_.size(), owner_.data(), [](void* d, size_t k) {
        static_cast<ClockDomain*>(d)->run_partition(k);
      }, this);
    } else {
      for (size_t k = 0; k < parts_.size(); ++k) run_partition(k);
    }
    own_phase_ = false;
    turn_ = 0;
    for (uint32_t i = 0; i < asked_.size(); ++i)
      if (asked_[i] != ClockedBlock::kNever) {
        const uint64_t at = asked_[i];
        asked_[i] = ClockedBlock::kNever;
        request(i, at);
      }
  }
  void run_partition(size_t k) {
    for (uint32_t i : partitions_[parts_[k]].members)
      if (due_[i] <= own_cycle_) {
        own_ran_[i] = own_cycle_;
        members_[i]->edge_own_work(own_cycle_);
      }
  }

  sc_core::sc_time period_;
  std::vector<ClockedBlock*> members_;
  struct Partition {
    uint32_t key;                  // the SM index (or 2^31 + member for a partition of one)
    std::vector<uint32_t> members;  // in member order
  };
  std::vector<Partition> partitions_;
  std::vector<uint32_t> parts_;    // the partitions with an own part in this edge
  std::vector<uint32_t> owner_;    // the thread of each
  std::vector<uint64_t> asked_;    // requests made during the own parts, per member
  std::vector<uint64_t> own_ran_;  // the edge whose own part each member last ran
  std::vector<bool> again_;        // asked again for this edge after its own part ran
  uint64_t own_cycle_ = 0;
  bool own_phase_ = false;
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
  // `partition`: the SM whose partition the block belongs to, for a block that splits its edge (ClockedBlock).
  void join_domain(ClockDomain& d, uint32_t partition = ClockDomain::kOwnPartition) {
    if (d.period() != clock_period()) SC_REPORT_ERROR(d.name(), "a block joined a clock domain of another period");
    domain_ = &d;
    member_ = d.join(*this, partition);
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
