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
#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <systemc>
#include <vector>

#include "common/clock.hpp"
#include "common/edge_workers.hpp"
#include "common/input_register.hpp"

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
  // Edges a clock domain gave this block (its clock_edge calls): an idle block takes none.
  uint64_t edges_taken() const { return edges_taken_; }

 private:
  friend class ClockDomain;
  uint64_t edges_taken_ = 0;
};

class ClockDomain : public sc_core::sc_module {
 public:
  ClockDomain(sc_core::sc_module_name name, sc_core::sc_time period) : sc_core::sc_module(name), period_(period) {
    every_edge_fault_ = test_fault("idle_edges");  // test-only: every member takes every edge
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
    part_of_.push_back(kNoPartition);
    if (now_.size() * 64 < members_.size()) {
      now_.push_back(0);
      next_.push_back(0);
    }
    if (b.splits_edge()) {
      const uint32_t key = partition == kOwnPartition ? uint32_t(1u << 31) + i : partition;
      size_t p = 0;
      while (p < partitions_.size() && partitions_[p].key != key) ++p;
      if (p == partitions_.size()) {
        partitions_.push_back(Partition{key, {}, {}});
        if (part_bits_.size() * 64 < partitions_.size()) part_bits_.push_back(0);
      }
      partitions_[p].members.push_back(i);
      part_of_[i] = uint32_t(p);
    }
    return i;
  }
  // Member `i` needs edge `cycle`: at the earliest the first edge after now,
  // or, while this domain runs an edge, that same edge for a member whose turn
  // in it is still to come (a dispatcher that joined after the SMs sees their
  // retirements in the edge they happen). Asked during the edge's own parts,
  // the request is held and made once every own part is done.
  // With worker threads an own part asks only for members of its own partition
  // (a mechanism whose SM parts reach further keeps the engine on one thread).
  void request(uint32_t i, uint64_t cycle) {
    if (own_phase_) {
      if (asked_[i] == ClockedBlock::kNever) {
        // the partition's list when its own part may run on a worker (only its thread asks for it)
        if (own_parallel_ && part_of_[i] != kNoPartition) partitions_[part_of_[i]].asked.push_back(i);
        else asked_serial_.push_back(i);
      }
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
      if (running_ && cycle == now) now_[i >> 6] |= uint64_t(1) << (i & 63);  // its turn in this edge is to come
      else schedule(i, cycle);
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
  static constexpr uint32_t kNoPartition = UINT32_MAX;

  // An edge visits only the members due at it: the calendar holds each member's
  // nearest edge asked for, and the edge marks its members in now_ (an entry a
  // later request overtook is dropped when it comes up).
  void tick() {
    if (halted_) return;
    const uint64_t c = cycle_now(period_);
    armed_ = ClockedBlock::kNever;
    running_ = true;
    ++edges_;
    mark_due(c);
    run_own_parts(c);
    // in member order; a member asked for during the edge, whose turn is still to come, joins it
    for (size_t w = 0; w < now_.size(); ++w)
      while (now_[w]) {
        const uint32_t i = uint32_t(w * 64 + unsigned(__builtin_ctzll(now_[w])));
        now_[w] &= now_[w] - 1;
        turn_ = i;
        if (due_[i] > c) continue;
        due_[i] = after_[i] > c ? after_[i] : ClockedBlock::kNever;
        after_[i] = ClockedBlock::kNever;
        if (due_[i] != ClockedBlock::kNever) schedule(i, due_[i]);
        if (again_[i]) {
          again_[i] = false;
          members_[i]->edge_own_work(c);
        }
        ++members_[i]->edges_taken_;
        const uint64_t next = members_[i]->clock_edge(c);
        if (next != ClockedBlock::kNever && std::max(next, c + 1) < due_[i]) {
          due_[i] = std::max(next, c + 1);
          schedule(i, due_[i]);
        }
      }
    running_ = false;
    if (every_edge_fault_)
      for (uint32_t i = 0; i < members_.size(); ++i) request(i, c + 1);
    while (!calendar_.empty() && due_[calendar_.top().member] != calendar_.top().cycle) calendar_.pop();
    uint64_t next = calendar_.empty() ? ClockedBlock::kNever : calendar_.top().cycle;
    if (next_count_) next = std::min(next, next_cycle_);
    if (next != ClockedBlock::kNever) {
      armed_ = next;
      wake_at_edge(wake_, period_, armed_);
    }
  }

  // Member i is due at `cycle` (due_[i] == cycle): most often the edge after
  // the last one taken, kept as a bit; else an entry in the calendar.
  void schedule(uint32_t i, uint64_t cycle) {
    if (cycle != next_cycle_) {
      calendar_.push(Due{cycle, i});
      return;
    }
    uint64_t& word = next_[i >> 6];
    const uint64_t bit = uint64_t(1) << (i & 63);
    if (!(word & bit)) {
      word |= bit;
      ++next_count_;
    }
  }

  // The members due at edge c, from the next-edge bits and the calendar into now_.
  void mark_due(uint64_t c) {
    if (next_count_ && next_cycle_ <= c) {
      for (size_t w = 0; w < next_.size(); ++w) {
        for (uint64_t bits = next_[w]; bits; bits &= bits - 1) {
          const uint32_t i = uint32_t(w * 64 + unsigned(__builtin_ctzll(bits)));
          if (due_[i] == next_cycle_) now_[w] |= uint64_t(1) << (i & 63);
        }
        next_[w] = 0;
      }
      next_count_ = 0;
    }
    next_cycle_ = c + 1;
    while (!calendar_.empty() && calendar_.top().cycle <= c) {
      const Due d = calendar_.top();
      calendar_.pop();
      if (due_[d.member] == d.cycle) now_[d.member >> 6] |= uint64_t(1) << (d.member & 63);
    }
  }

  // The own parts of the members due at edge c, partition by partition, in
  // member order within one; then the requests they made.
  void run_own_parts(uint64_t c) {
    parts_.clear();
    bool any = false;
    for (size_t w = 0; w < now_.size(); ++w)
      for (uint64_t bits = now_[w]; bits; bits &= bits - 1) {
        const uint32_t p = part_of_[w * 64 + unsigned(__builtin_ctzll(bits))];
        if (p == kNoPartition) continue;
        part_bits_[p >> 6] |= uint64_t(1) << (p & 63);
        any = true;
      }
    if (!any) return;
    for (size_t w = 0; w < part_bits_.size(); ++w) {  // in the partitions' order, as they joined
      for (uint64_t bits = part_bits_[w]; bits; bits &= bits - 1)
        parts_.push_back(uint32_t(w * 64 + unsigned(__builtin_ctzll(bits))));
      part_bits_[w] = 0;
    }
    own_cycle_ = c;
    own_phase_ = true;
    own_parallel_ = workers_ && parts_.size() > 1;
    if (own_parallel_) {
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
    // A request reaches only its member's due_, after_ and again_ and the domain's next wake-up (the
    // earliest asked), so the order they are made in changes nothing.
    if (own_parallel_)
      for (uint32_t p : parts_) make_asked(partitions_[p].asked);
    make_asked(asked_serial_);
  }
  void make_asked(std::vector<uint32_t>& list) {
    for (uint32_t i : list) {
      const uint64_t at = asked_[i];
      asked_[i] = ClockedBlock::kNever;
      request(i, at);
    }
    list.clear();
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
    std::vector<uint32_t> asked;    // members asked for during a parallel own phase
  };
  std::vector<Partition> partitions_;
  std::vector<uint32_t> part_of_;  // each member's partition (kNoPartition: its edge does not split)
  std::vector<uint32_t> parts_;    // the partitions with an own part in this edge
  std::vector<uint64_t> part_bits_;  // the same as bits, while they are listed
  std::vector<uint32_t> owner_;    // the thread of each
  std::vector<uint64_t> asked_;    // requests made during the own parts, per member
  std::vector<uint32_t> asked_serial_;  // members asked for during a serial own phase
  std::vector<uint64_t> own_ran_;  // the edge whose own part each member last ran
  std::vector<bool> again_;        // asked again for this edge after its own part ran
  uint64_t own_cycle_ = 0;
  bool own_phase_ = false;
  bool own_parallel_ = false;
  EdgeWorkers* workers_ = nullptr;

  std::vector<uint64_t> due_;    // the nearest edge each member asked for
  std::vector<uint64_t> after_;  // a later edge asked for before the nearest one ran
  struct Due {
    uint64_t cycle;
    uint32_t member;
    bool operator>(const Due& o) const { return cycle != o.cycle ? cycle > o.cycle : member > o.member; }
  };
  std::priority_queue<Due, std::vector<Due>, std::greater<Due>> calendar_;  // members' due edges, earliest first
  std::vector<uint64_t> now_;    // the members due at the edge running (bit per member)
  std::vector<uint64_t> next_;   // members due at next_cycle_ (bit per member), next_count_ of them
  uint64_t next_cycle_ = ClockedBlock::kNever;
  uint32_t next_count_ = 0;
  uint64_t armed_ = ClockedBlock::kNever;
  bool running_ = false;  // inside tick(), at member turn_
  bool halted_ = false;
  bool every_edge_fault_ = false;
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
