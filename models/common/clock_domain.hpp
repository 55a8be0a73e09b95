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
#include <stdexcept>
#include <systemc>
#include <vector>

#include "common/clock.hpp"
#include "common/edge_workers.hpp"
#include "common/input_register.hpp"

namespace warptlm {

class ClockDomain;

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
  // A block whose edge touches nothing an own part reads or writes (the crossbar and the L2 slices: what
  // they send a partition is a registered input, which waits, deferred, until the own parts are done): with
  // worker threads its edge runs on the domain's thread while the workers run the own parts, before every
  // other member's edge. Its edge at c needs nothing another member does at c, so the results are those of
  // member order.
  virtual bool runs_beside_own_parts() const { return false; }
  // A partition member's inputs deferred while the own parts ran (ClockDomain::defer): taken now, in the
  // order they came, before any member's edge.
  virtual void take_deferred() {}
  // Edges a clock domain gave this block (its clock_edge calls): an idle block takes none.
  uint64_t edges_taken() const;

 private:
  friend class ClockDomain;
  // Where its edges are counted (by the domain, on the SystemC thread: the block's first cache line, which
  // both threads read, is written by neither while workers run the own parts).
  const ClockDomain* counted_by_ = nullptr;
  uint32_t member_index_ = 0;
  // The edge whose own part it last ran: written by its partition's thread, on a cache line of its own.
  struct alignas(64) OwnRan {
    uint64_t edge = kNever;
  } own_ran_;
};

class ClockDomain : public sc_core::sc_module {
 public:
  ClockDomain(sc_core::sc_module_name name, sc_core::sc_time period) : sc_core::sc_module(name), period_(period) {
    every_edge_fault_ = test_fault("idle_edges");  // test-only: every member takes every edge
    late_time_fault_ = test_fault("late_edge_sc_time");  // test-only: a late edge's blocks read SystemC's time
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
    b.counted_by_ = this;
    b.member_index_ = i;
    taken_.push_back(0);
    due_.push_back(ClockedBlock::kNever);
    after_.push_back(ClockedBlock::kNever);
    asked_.push_back(ClockedBlock::kNever);
    again_.push_back(false);
    part_of_.push_back(kNoPartition);
    if (now_.size() * 64 < members_.size()) {
      now_.push_back(0);
      // the wheel keeps kWheel slots of one bit per member: a word more in each
      std::vector<uint64_t> wider(kWheel * now_.size(), 0);
      for (uint32_t k = 0; k < kWheel; ++k)
        for (size_t w = 0; w + 1 < now_.size(); ++w) wider[k * now_.size() + w] = wheel_[k * (now_.size() - 1) + w];
      wheel_.swap(wider);
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
    // a follower's late edge reaches a member (the DRAM answers an L2 slice); with worker threads it runs
    // beside the own parts, whose requests keep to their own path (a worker never reads the flag)
    if (!EdgeWorkers::on_worker() && followers_running_) {
      if (part_of_[i] != kNoPartition) throw std::logic_error("a follower clock domain asked for an SM partition's edge");
      ask(i, cycle, current_, true);  // before any member's turn in this edge: as if asked before it began
      return;
    }
    if (own_phase_) {
      // (a partition's input must wait: deferring(); the workers ask for their own partitions' members)
      if (!EdgeWorkers::on_worker() && beside_running_ && part_of_[i] != kNoPartition)
        throw std::logic_error("a block running beside the own parts asked for an SM partition's edge");
      if (asked_[i] == ClockedBlock::kNever) {
        // the partition's list when its own part may run on a worker (only its thread asks for it)
        if (own_parallel_ && part_of_[i] != kNoPartition) partitions_[part_of_[i]].asked.push_back(i);
        else asked_serial_.push_back(i);
      }
      asked_[i] = std::min(asked_[i], cycle);
      return;
    }
    ask(i, cycle, running_ ? current_ : cycle_now(period_), running_ && i > turn_);
  }
  const sc_core::sc_time& period() const { return period_; }
  uint64_t edges() const { return edges_; }  // edges taken so far
  // Stop taking edges for good (a launch that stopped or faulted halts the SMs); a follower runs its
  // edges due by now and goes on at its own times.
  void halt() {
    halted_ = true;
    for (ClockDomain* f : followers_) {
      if (!f->catching_up_) f->catch_up(sc_core::sc_time_stamp().value());
      f->leader_ = nullptr;
      f->arm_next();
    }
  }
  // Domain `f` follows this one: its members hear from no block but this domain's members, and what
  // they send those is a registered input. Then an edge of f at time τ needs every input sent before τ
  // and none sent later, and the results are the same whenever it runs between τ and this domain's
  // first edge at or after τ, before any member takes that edge. So while this domain will take that
  // edge, f's edge waits for it and runs there (catch_up), with worker threads beside the own parts;
  // f wakes on its own only for edges this domain will not take (it sleeps, or is halted).
  void lead(ClockDomain& f) {
    followers_.push_back(&f);
    f.leader_ = this;
  }
  // A follower's edges due by now, run at once (a reader of its members' state: stats, samples).
  void catch_up_now() {
    if (!leader_ || catching_up_) return;
    catch_up(sc_core::sc_time_stamp().value());
    arm_next();
  }
  // Worker threads for the members' own parts (sim.threads); null: this thread runs them. Called once every
  // member has joined: the members that run beside the own parts are read then.
  void use_workers(EdgeWorkers* w) {
    workers_ = w;
    beside_.assign(now_.size(), 0);
    has_beside_ = false;
    if (!w) return;  // one thread: every member in member order
    for (uint32_t i = 0; i < members_.size(); ++i)
      if (members_[i]->runs_beside_own_parts() && part_of_[i] == kNoPartition) {
        beside_[i >> 6] |= uint64_t(1) << (i & 63);
        has_beside_ = true;
      }
  }
  // Whether a member running beside the own parts (runs_beside_own_parts) is taking its edge now, so that what
  // it sends into a partition must wait: the receiving member keeps it and calls defer() once, and the domain
  // has it take_deferred() when the own parts are done.
  bool deferring() const { return beside_running_; }
  void defer(uint32_t i) { deferred_.push_back(i); }

 private:
  static constexpr uint32_t kNoPartition = UINT32_MAX;

  // Member i asked for edge `cycle` at edge `now` (running_: the edge this domain runs; a later turn in it
  // may still take it).
  void ask(uint32_t i, uint64_t cycle, uint64_t now, bool later_in_this_edge) {
    cycle = std::max(cycle, now + (later_in_this_edge ? 0 : 1));
    if (later_in_this_edge && cycle == now && members_[i]->own_ran_.edge == now) again_[i] = true;
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
    if (cycle == due_[i] && !(running_ && cycle == now)) arm_at(cycle);
  }

  // An edge visits only the members due at it: the calendar holds each member's
  // nearest edge asked for, and the edge marks its members in now_ (an entry a
  // later request overtook is dropped when it comes up).
  void tick() {
    if (halted_) return;
    const uint64_t c = cycle_now(period_);
    armed_ = ClockedBlock::kNever;
    // a follower's edge that its leader will take waits for it (or ran in it already)
    if (leader_ && (earliest_due() != c || covered(c))) {
      arm_next();
      return;
    }
    run_edge(c);
    arm_next();
    for (ClockDomain* f : followers_) f->arm_next();
  }

  void run_edge(uint64_t c) {
    running_ = true;
    current_ = c;
    ++edges_;
    mark_due(c);
    run_own_parts(c);  // with worker threads, the followers catch up beside the own parts
    if (!followers_caught_up_) catch_up_followers(c);
    followers_caught_up_ = false;
    for (uint32_t i : deferred_) members_[i]->take_deferred();
    deferred_.clear();
    // in member order; a member asked for during the edge, whose turn is still to come, joins it
    for (size_t w = 0; w < now_.size(); ++w)
      while (now_[w]) {
        const uint32_t i = uint32_t(w * 64 + unsigned(__builtin_ctzll(now_[w])));
        now_[w] &= now_[w] - 1;
        turn_ = i;
        if (due_[i] > c) continue;
        if (again_[i]) {
          again_[i] = false;
          members_[i]->edge_own_work(c);
        }
        take_edge(i, c);
      }
    running_ = false;
    if (every_edge_fault_)
      for (uint32_t i = 0; i < members_.size(); ++i) request(i, c + 1);
  }

  // The earliest edge a member is due at (kNever: none).
  uint64_t earliest_due() {
    while (!calendar_.empty() && due_[calendar_.top().member] != calendar_.top().cycle) calendar_.pop();
    const uint64_t next = calendar_.empty() ? ClockedBlock::kNever : calendar_.top().cycle;
    return std::min(next, earliest_on_wheel());
  }
  // Wake for the earliest edge due, unless already woken for it or (a follower) its leader takes it.
  void arm_next() {
    const uint64_t next = earliest_due();
    if (next != ClockedBlock::kNever) arm_at(next);
  }
  void arm_at(uint64_t cycle) {
    if (cycle >= armed_) return;  // (an event keeps its earliest notification)
    // a follower decides once its leader's edge is over (arm_next), and its late edges ask for no wake-up
    if (leader_ && (catching_up_ || leader_->running_ || covered(cycle))) return;
    armed_ = cycle;
    wake_at_edge(wake_, period_, cycle);
  }

  // A follower's edge `cycle` runs in its leader's next edge: the leader wakes for the first of its edges
  // at or after it, or sooner (then it decides again after that edge: arm_next).
  bool covered(uint64_t cycle) const {
    return !leader_->halted_ && leader_->armed_ <= edge_at_or_after(leader_->period_, edge_time(period_, cycle));
  }
  // The followers' edges at or before this domain's edge c, before any member of this one takes c.
  void catch_up_followers(uint64_t c) {
    followers_caught_up_ = true;
    if (followers_.empty()) return;
    followers_running_ = true;
    try {
      for (ClockDomain* f : followers_) f->catch_up(edge_value(period_, c));
    } catch (...) {
      followers_running_ = false;
      throw;
    }
    followers_running_ = false;
  }
  // This follower's edges due at or before time value `until`, each at its own time as its members see it.
  void catch_up(uint64_t until) {
    struct Late {  // restores SystemC's time and the flag, whatever the edge throws
      ClockDomain& d;
      explicit Late(ClockDomain& x) : d(x) { d.catching_up_ = true; }
      ~Late() {
        late_edge_value = UINT64_MAX;
        d.catching_up_ = false;
      }
    } late(*this);
    for (uint64_t c; (c = earliest_due()) != ClockedBlock::kNever && edge_value(period_, c) <= until;) {
      if (!late_time_fault_) late_edge_value = edge_value(period_, c);
      run_edge(c);
    }
  }

  // Member i's edge c: its nearest edge asked for moves on to the next one, and what it returns is asked for.
  void take_edge(uint32_t i, uint64_t c) {
    due_[i] = after_[i] > c ? after_[i] : ClockedBlock::kNever;
    after_[i] = ClockedBlock::kNever;
    if (due_[i] != ClockedBlock::kNever) schedule(i, due_[i]);
    ++taken_[i];
    const uint64_t next = members_[i]->clock_edge(c);
    if (next != ClockedBlock::kNever && std::max(next, c + 1) < due_[i]) {
      due_[i] = std::max(next, c + 1);
      schedule(i, due_[i]);
    }
  }

  // The members that run beside the own parts and are due at edge c take it, in member order, on this thread
  // while the workers run the own parts; they leave the edge's list.
  void run_beside(uint64_t c) {
    beside_running_ = true;
    catch_up_followers(c);
    for (size_t w = 0; w < beside_.size(); ++w)
      for (uint64_t bits = now_[w] & beside_[w]; bits; bits &= bits - 1) {
        const uint32_t i = uint32_t(w * 64 + unsigned(__builtin_ctzll(bits)));
        now_[w] &= ~(uint64_t(1) << (i & 63));
        if (due_[i] > c) continue;
        take_edge(i, c);
      }
    beside_running_ = false;
  }

  // Member i is due at `cycle` (due_[i] == cycle): within kWheel cycles of the
  // last edge taken, a bit in that cycle's slot of the wheel; further, an entry
  // in the calendar. Either may hold members a later request overtook: a bit
  // or an entry counts only while due_ still names its cycle.
  void schedule(uint32_t i, uint64_t cycle) {
    if (cycle - last_edge_ - 1 >= kWheel) {  // (cycle > last_edge_ always: a request names a later edge)
      calendar_.push(Due{cycle, i});
      return;
    }
    const uint32_t k = uint32_t(cycle % kWheel);
    wheel_[k * now_.size() + (i >> 6)] |= uint64_t(1) << (i & 63);
    wheel_mask_ |= uint64_t(1) << k;
  }

  // The members due at edge c, from c's slot of the wheel and the calendar into now_.
  void mark_due(uint64_t c) {
    last_edge_ = c;
    const uint32_t k = uint32_t(c % kWheel);
    if (wheel_mask_ & (uint64_t(1) << k)) {
      uint64_t* slot = &wheel_[k * now_.size()];
      for (size_t w = 0; w < now_.size(); ++w) {
        for (uint64_t bits = slot[w]; bits; bits &= bits - 1) {
          const uint32_t i = uint32_t(w * 64 + unsigned(__builtin_ctzll(bits)));
          if (due_[i] == c) now_[w] |= uint64_t(1) << (i & 63);
        }
        slot[w] = 0;
      }
      wheel_mask_ &= ~(uint64_t(1) << k);
    }
    while (!calendar_.empty() && calendar_.top().cycle <= c) {
      const Due d = calendar_.top();
      calendar_.pop();
      if (due_[d.member] == d.cycle) now_[d.member >> 6] |= uint64_t(1) << (d.member & 63);
    }
  }

  // The earliest cycle after the last edge with a member due on the wheel (kNever: none). A slot's
  // cycle is the one in (last_edge_, last_edge_ + kWheel] that maps to it; a slot whose bits were all
  // overtaken empties here, so the domain never wakes for an edge with no member due.
  uint64_t earliest_on_wheel() {
    while (wheel_mask_) {
      const uint32_t from = uint32_t((last_edge_ + 1) % kWheel);
      const uint64_t rotated = from ? (wheel_mask_ >> from) | (wheel_mask_ << (kWheel - from)) : wheel_mask_;
      const uint32_t ahead = unsigned(__builtin_ctzll(rotated));
      const uint64_t cycle = last_edge_ + 1 + ahead;
      const uint32_t k = uint32_t(cycle % kWheel);
      uint64_t* slot = &wheel_[k * now_.size()];
      for (size_t w = 0; w < now_.size(); ++w)
        for (uint64_t bits = slot[w]; bits; bits &= bits - 1)
          if (due_[w * 64 + unsigned(__builtin_ctzll(bits))] == cycle) return cycle;
      std::fill(slot, slot + now_.size(), 0);
      wheel_mask_ &= ~(uint64_t(1) << k);
    }
    return ClockedBlock::kNever;
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
      workers_->start(parts_.size(), owner_.data(), [](void* d, size_t k) {
        static_cast<ClockDomain*>(d)->run_partition(k);
      }, this);
      if (has_beside_) {
        try {
          run_beside(c);
        } catch (...) {  // the own parts end first, and a fault of theirs comes first, as in member order
          beside_running_ = false;
          workers_->finish();
          throw;
        }
      }
      workers_->finish();
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
        members_[i]->own_ran_.edge = own_cycle_;
        members_[i]->edge_own_work(own_cycle_);
      }
  }

  sc_core::sc_time period_;
  std::vector<ClockedBlock*> members_;
  std::vector<uint64_t> taken_;  // edges each member took
  friend class ClockedBlock;
  struct alignas(64) Partition {  // (one a cache line at least: two threads write neighbours' `asked`)
    uint32_t key;                  // the SM index (or 2^31 + member for a partition of one)
    std::vector<uint32_t> members;  // in member order
    // members asked for during a parallel own phase (written by its thread, taken by the SystemC thread: a
    // line apart from the list the thread reads)
    alignas(64) std::vector<uint32_t> asked;
  };
  std::vector<Partition> partitions_;
  std::vector<uint32_t> part_of_;  // each member's partition (kNoPartition: its edge does not split)
  std::vector<uint32_t> parts_;    // the partitions with an own part in this edge
  std::vector<uint64_t> part_bits_;  // the same as bits, while they are listed
  std::vector<uint32_t> owner_;    // the thread of each
  std::vector<uint64_t> asked_;    // requests made during the own parts, per member
  std::vector<uint32_t> asked_serial_;  // members asked for during a serial own phase
  std::vector<bool> again_;        // asked again for this edge after its own part ran
  uint64_t own_cycle_ = 0;
  std::vector<uint64_t> beside_;   // the members that run beside the own parts (bit per member)
  bool has_beside_ = false;
  bool beside_running_ = false;    // one of them is taking its edge while the workers run
  std::vector<uint32_t> deferred_; // members holding inputs deferred while it did
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
  // The wheel: for each of the kWheel cycles after the last edge taken, the members due at it (a bit
  // each, now_.size() words per slot, slot = cycle mod kWheel), and which slots hold bits.
  static constexpr uint32_t kWheel = 64;
  std::vector<uint64_t> wheel_;
  uint64_t wheel_mask_ = 0;
  uint64_t last_edge_ = 0;  // the last edge taken (0 before the first)
  uint64_t armed_ = ClockedBlock::kNever;  // the edge this domain's wake-up is pending for
  bool running_ = false;  // inside an edge (current_), at member turn_
  uint64_t current_ = 0;
  // Leader and followers (lead()): a follower's edges run late, in the leader's edges.
  std::vector<ClockDomain*> followers_;
  ClockDomain* leader_ = nullptr;
  bool followers_running_ = false;    // (leader) a follower's late edge is running
  bool followers_caught_up_ = false;  // (leader) the followers ran their edges up to this one
  bool catching_up_ = false;          // (follower) running late edges
  bool halted_ = false;
  bool every_edge_fault_ = false;
  bool late_time_fault_ = false;
  uint32_t turn_ = 0;
  uint64_t edges_ = 0;
  sc_core::sc_event wake_;
};

inline uint64_t ClockedBlock::edges_taken() const { return counted_by_ ? counted_by_->taken_[member_index_] : 0; }

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
  // An input arriving while a block beside the own parts takes its edge must wait for take_deferred();
  // defer_inputs() has the domain call it (once per edge: call it when the first input is held).
  bool inputs_deferred() const { return domain_ && domain_->deferring(); }
  // A reader of the block's state from outside its edges (stats): the edges its domain still owes, if it
  // follows another (ClockDomain::lead), run first.
  void catch_up_domain() {
    if (domain_) domain_->catch_up_now();
  }
  void defer_inputs() { domain_->defer(member_); }

 private:
  ClockDomain* domain_ = nullptr;
  uint32_t member_ = 0;
};

}  // namespace warptlm
