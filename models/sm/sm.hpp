// The streaming multiprocessor: warp slots, fetch through an instruction
// cache into per-warp instruction buffers, a scoreboard, N warp schedulers
// (ordering + filters), functional-unit pipelines, writeback with a port
// limit, barriers, and an LD/ST unit that talks TLM-2.0 to memory.
//
// Smart ticking: the core clock domain (common/clock_domain.hpp) runs the
// SM's edge only while something can happen then; otherwise it sleeps until
// the next known completion or until a memory response, an END_REQ or a new
// block (registered inputs: taken at the next edge) asks for one. The SMs of
// a domain take a shared edge in SM order. Skipped cycles are charged to the
// stall reason they would have repeated.
#pragma once
#include <array>
#include <deque>
#include <iosfwd>
#include <functional>
#include <memory>
#include <queue>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "common/clock.hpp"
#include "common/clock_domain.hpp"
#include "common/input_register.hpp"
#include "common/gpu_payload.hpp"
#include "common/stats.hpp"
#include "common/trace.hpp"
#include "common/zeroed_array.hpp"
#include "isa/simt.hpp"
#include "isa/write_log.hpp"
#include "sm/cycle_book.hpp"
#include "sm/readonly_cache.hpp"
#include "sm/sched/scheduler.hpp"
#include "sm/inorder_pipeline.hpp"
#include "sm/sm_mechanism.hpp"
#include "sm/sm_params.hpp"
#include "sm/warp_slot.hpp"

namespace warptlm {

// What a resident block takes from the SM.
// What a warp slot is doing, as the waveform shows it.
enum class WarpState : uint8_t { Empty, Ready, LongMem, Data, Fetch, Barrier, Done, Other };

struct BlockUsage {
  uint32_t warps = 0, threads = 0, registers = 0, shared = 0;
};

class Sm : public sc_core::sc_module, public ClockedBlock {
 public:
  tlm_utils::simple_initiator_socket<Sm> mem_socket;   // global and local memory: to the L1 data cache
  tlm_utils::simple_initiator_socket<Sm> smem_socket;  // shared memory
  // Line fills of the instruction and constant caches (sm.icache.fill / sm.ccache.fill: memory):
  // to the L1's read-only port, which passes them to the crossbar (or to the flat memory).
  tlm_utils::simple_initiator_socket<Sm> readonly_socket;
  // The communication buffers (ld.cbv, st.cbv, ld.cbh, st.cbh): to the CB port
  // of this SM, which a platform with communication buffers binds; unbound on
  // a GPU, whose PTX has no CB accesses.
  tlm_utils::simple_initiator_socket_optional<Sm> cb_socket;

  // `build_inside`, when given, runs at the end of the constructor: the blocks it
  // constructs become the SM's children (gpu.sm3.l1d), as the platform builds them.
  Sm(sc_core::sc_module_name name, uint32_t id, const SmParams& p, sc_core::sc_time period, StatsRegistry& stats,
     PayloadPool& pool, const std::function<void(Sm&)>& build_inside = {});

  uint32_t id() const { return id_; }
  const SmParams& params() const { return p_; }

  // Thread-block dispatch.
  BlockUsage usage_of(const LaunchState& L, uint32_t regs_per_thread) const;
  bool can_accept(const BlockUsage& u) const;
  // Blocks of this size the SM's limits let reside at once (threads, warps, blocks, registers, shared memory).
  uint32_t blocks_that_fit(const BlockUsage& u) const;
  void launch_block(std::unique_ptr<Block> b, const BlockUsage& u);
  // A stopped launch: the cycles its still-resident warps have held their slots, into resident_warp_cycles.
  void account_resident_warps();
  uint32_t resident_blocks() const { return uint32_t(blocks_.size() + arriving_.size()); }
  uint32_t peak_resident_blocks() const { return peak_blocks_; }
  std::function<void(Sm&)> on_block_done;  // called after a block retires
  // Issue log for tests and tools: (cycle, block, warp in block, pc) of every issued instruction.
  std::function<void(uint64_t, uint32_t, uint32_t, uint32_t)> on_issue;
  // A kernel fault or deadlock found inside the simulation: the platform stops
  // the simulation and reports it once sc_start returns.
  std::function<void(const std::string&)> on_run_error;
  // Cycles a shared-memory access with these lane offsets holds the bank array
  // (the platform asks the shared memory it connected); the LD/ST unit is held
  // as long with sm.ldst_occupancy: accesses. Unset: one cycle.
  // `part_degrees`, when not null, receives each part's conflict degree (the
  // in-order pipeline holds MEM0 that long per subwarp).
  std::function<uint32_t(const uint64_t* lane_offsets, uint32_t lane_mask, unsigned bytes, uint32_t* part_degrees)>
      shared_service_cycles;
  // With sm.pipeline.model: inorder, a log of each subwarp leaving WB: (cycle, warp slot, pc, subwarp,
  // wrote a register). For tests and tools, as on_issue.
  std::function<void(uint64_t, uint32_t, uint32_t, uint32_t, bool)> on_writeback;
  // The in-order pipeline (null unless sm.pipeline.model: inorder).
  const StagePipeline* pipeline() const { return pipe_.get(); }

  // Issue filters added by mechanisms apply to every scheduler of this SM.
  void add_issue_filter(std::shared_ptr<IssueFilter> f);
  WarpScheduler& scheduler(uint32_t i) { return *scheds_[i]; }
  const std::vector<WarpSlot>& slots() const { return slots_; }
  // The SM's physical shared memory (sm.shared_mem bytes), as a mapping mechanism sees it: its blocks'
  // shared memory and whatever else the mechanism keeps there (a cache in the unused rows).
  uint8_t* shared_storage() {
    if (shared_storage_.size() != p_.shared_mem) shared_storage_.assign(p_.shared_mem, 0);
    return shared_storage_.data();
  }

  uint64_t cycle() const { return cycle_; }
  // A block outside the SM changed its resident warps (a barrier across SMs
  // released them): the SM takes an edge at `cycle` to look at them again.
  void wake(uint64_t cycle) { wake_at(cycle); }
  // The core clock domain that runs this SM's edges, in SM order with the others.
  void attach_clock(ClockDomain& d);
  // The global, shared-memory and read-only ports reach blocks of this SM's own partition of the core clock
  // domain (its L1 and shared memory): their requests leave in the own part of the edge.
  void set_private_ports(bool v) { private_ports_ = v; }
  // The threads of the engine that runs the SMs' own parts (sim.threads), for the test-only fault alone.
  void set_engine_threads(uint32_t n) { engine_threads_ = n; }
  // sim.quantum: core cycles the SM's global memory effects wait for (write_log.hpp); above 1 its global loads
  // wait with its stores and atomics, and all take effect at the quantum's last edge, in issue order:
  // on_effects_held(that edge) asks the platform for it, which calls commit_held_effects for every SM in SM
  // order once their parts of the edge are done.
  void set_quantum(uint32_t q);
  std::function<void(uint64_t)> on_effects_held;
  void commit_held_effects() {
    if (!writes_.empty()) writes_.commit();
  }
  uint64_t held_global_loads() const { return writes_.loads_logged(); }  // lane loads that waited for a quantum's end
  // Mechanisms (sm_mechanism.hpp), attached by the platform inside `build_inside`;
  // one may provide the warp ordering sm.warp_scheduler names.
  void add_mechanism(std::unique_ptr<SmMechanism> m);
  SmMechanism* mechanism(const std::string& name);
  // Instructions of the warps of retired blocks (the functional warps' own counts).
  const InstructionCounts& retired_instructions() const { return retired_; }
  // Warp instructions issued so far (all blocks, retired or not).
  uint64_t issued_warp_instructions() const { return warp_insts_->value; }
  // Sampling's cache warming (docs/sampling.md): a block of launch `L` (kernel `k`) that ran functionally
  // would have fetched the kernel's code through the instruction cache and read its parameters through the
  // constant cache (sm.ccache.params): their lines go in, outside simulated time; each line that a fill from
  // memory would have brought is passed to `below` with its bytes (for the L2).
  void warm_front_end(const KernelInfo& k, const LaunchState& L, const std::function<void(uint64_t, uint32_t)>& below);
  // Events that show the SM's warps are getting somewhere (exits, memory writes, barrier arrivals).
  uint64_t progress_events() const { return progress_; }
  // One line per resident warp: where it is and what it waits on (a barrier, a memory
  // request, a mechanism's issue gate), with the PTX line at its PC. `spinning`: the
  // watchdog saw no progress, so a warp at no barrier is looping (and says what it waits on now).
  void describe_warps(std::ostream& os, bool spinning) const;
  // The launch in flight; `clock` receives the current cycle for %clock.
  void set_launch(const LaunchState* L, uint64_t* clock) {
    launch_ = L;
    clock_out_ = clock;
    longest_block_life_ = 0;
  }
  // The code the launch runs (a mechanism's version of the kernel, once the launch is planned): each of its
  // instructions' class and unit, decoded once for the issue stage.
  void decode_issue_classes(const KernelInfo* k);
  // Core cycles from install to retirement of the longest-lived block of the launch retired so far
  // (interval sampling: how long a launch's tail must stay timed).
  uint64_t longest_block_life() const { return longest_block_life_; }

 private:
  struct Resident { std::unique_ptr<Block> block; BlockUsage usage; uint32_t warps_retired; uint64_t installed; uint32_t cta_slot; };
  struct Arriving { std::unique_ptr<Block> block; BlockUsage usage; uint64_t time; };  // sent, not yet started
  struct Completion {
    uint64_t cycle;
    uint64_t seq;          // tie-break: deterministic order
    uint32_t slot;
    const Instr* in;
    bool long_latency;
    bool operator>(const Completion& o) const { return cycle != o.cycle ? cycle > o.cycle : seq > o.seq; }
  };
  struct MemOp {
    uint32_t slot;
    const Instr* in;
    uint32_t remaining;   // responses still to come
    bool long_latency;    // global/local (true) or shared (false)
    bool in_pipe;         // the in-order pipeline completes it at WB: the response only closes the request
    bool held_result;     // its loads or atomic results wait in the write log (to the edge's or quantum's end), until commit:
    uint64_t replay_mark; // the log's commits() at its issue: its data is in its registers once commits() passed it
    uint64_t lanes[32];   // shared-memory requests: per-lane offsets, owned here while in flight
  };
  // Requests waiting to leave the LD/ST unit, in order, one per cycle per path.
  struct RequestQueue {
    std::vector<tlm::tlm_generic_payload*> ring;
    std::vector<uint64_t> ready;  // cycle each request may leave (address generation done)
    size_t head = 0, count = 0;
    bool waiting_end_req = false;
    tlm::tlm_generic_payload* awaiting = nullptr;  // the request not yet accepted
    uint64_t next_send = 0;  // first cycle the next request may leave: one a cycle, and not in the cycle END_REQ came
    void init(size_t n) { ring.assign(n, nullptr); ready.assign(n, 0); }
    size_t size() const { return count; }
    void push(tlm::tlm_generic_payload* p, uint64_t ready_cycle) {
      if (count == ring.size()) {  // grow (rare: only when a deep burst meets back-pressure)
        std::vector<tlm::tlm_generic_payload*> r(ring.size() * 2);
        std::vector<uint64_t> rd(ring.size() * 2);
        for (size_t i = 0; i < count; ++i) { r[i] = ring[(head + i) % ring.size()]; rd[i] = ready[(head + i) % ring.size()]; }
        ring.swap(r);
        ready.swap(rd);
        head = 0;
      }
      ring[(head + count) % ring.size()] = p;
      ready[(head + count) % ring.size()] = ready_cycle;
      ++count;
    }
    tlm::tlm_generic_payload* front() const { return ring[head]; }
    uint64_t front_ready() const { return ready[head]; }
    void pop() { head = (head + 1) % ring.size(); --count; }
  };

  uint64_t clock_edge(uint64_t cycle) override;
  bool splits_edge() const override { return true; }
  void edge_own_work(uint64_t cycle) override;
  void own_step(uint64_t cycle);  // the SM's own part of an edge
  uint64_t shared_step();         // what reaches other blocks, in SM order; returns the next edge
  uint64_t own_next_change() const;
  GlobalWriteLog writes_;         // the edge's global stores and atomics (isa/write_log.hpp)
  // What the own part tells the shared part, on one cache line: the shared part runs on the SystemC
  // thread, the own part maybe on a worker, and the less of the SM's state they both touch the better.
  struct alignas(64) OwnReport {
    uint64_t cycle = UINT64_MAX;  // the edge whose own part has run, until its shared part
    uint64_t next = UINT64_MAX;   // the next cycle the own state changes by itself (when no progress)
    uint32_t retired = 0;         // blocks retired, to report in SM order
    bool repeat = false, idle = false, progress = false, has_blocks = false, failed = false;
  } own_;
  bool reporting_later_ = false;     // inside the own part: retirements wait for the shared part
  // WARPTLM_TEST_FAULT=engine_run_ahead: the SMs a worker thread takes (SM i on thread i mod threads) write
  // global memory as they issue, ahead of the edge's end (the thread-count matrix must see it).
  const bool run_ahead_fault_ = test_fault("engine_run_ahead");
  uint32_t engine_threads_ = 1;
  uint32_t quantum_ = 1;
  bool held_results_ = false;        // the instruction being sent to memory left register writes in the write log
  std::string own_error_;            // a fault found in the own part
  void wake_at(uint64_t cycle);  // ask the core clock domain for an edge
  uint64_t now_cycle() const;
  void writeback();
  uint32_t issue(WarpScheduler& s);
  uint32_t issue_in_order(WarpScheduler& s, Stall& why, WarpSlot*& first_issued);
  uint64_t candidate_mask(WarpScheduler& s, bool unrecorded_only) const;
  Stall worst_recorded_stall(uint32_t sid, Stall why) const;
  void mark_exited(WarpSlot& w);
  // Can `w` issue now? A warp held by the warp limit or a filter, or still stalled
  // as last recorded, is answered here (inline: most warps, every cycle). The
  // warp limit lets a warp through while its block waits at a barrier (else a
  // block wider than the limit would wait forever for its held warps).
  Stall check(WarpScheduler& s, WarpSlot& w, const Instr*& in, uint32_t& unit) {
    if ((w.age > warp_limit_age_ && !w.block->waits_at_barrier()) || !s.allowed(w)) return Stall::Other;
    // A recorded stall implies the warp is neither done nor at a barrier (both
    // need an issue, which clears the record): no need to look at the warp.
    if (has_ooo_) return check_with_out_of_order(w, in, unit);
    if (w.blocked != Stall::Issued) return w.blocked;
    return check_next_instruction(w, in, unit);
  }
  // check() when a mechanism issues out of order: a warp stalled on a long-latency load may issue its instruction.
  Stall check_with_out_of_order(WarpSlot& w, const Instr*& in, uint32_t& unit);
  // Out-of-order issue: an active mechanism's instruction in place of a warp's stalled one
  // (SmMechanism::instead_of_stall), if its registers and a unit are free; else the warp stays LongMem.
  Stall check_out_of_order(WarpSlot& w, const Instr*& in, uint32_t& unit);
  // With an operand collector, issue needs a free collector unit (the functional unit is taken at
  // dispatch); without, a free functional unit the warp's scheduler may use (`unit`).
  bool can_take_unit(const WarpSlot& w, UnitKind kind, uint32_t& unit) {
    if (!p_.regfile_banks) return free_unit_for(w, kind, unit);
    const CollectorGroup g = p_.collector_group(kind);
    return !collector_ports_full(g) && free_collector(g, w.slot) != nullptr;
  }
  bool free_unit_for(const WarpSlot& w, UnitKind kind, uint32_t& unit) const;
  bool memory_gates_open(const Warp& f, const Instr& in);
  std::vector<SmMechanism*> ooo_;        // the mechanisms that issue out of order
  bool has_ooo_ = false;                 // !ooo_.empty(), read on every issue check
  SmMechanism* ooo_mech_ = nullptr;      // the one whose instruction check() chose
  bool idle_pass_ = false;               // issue's second look: no warp of the scheduler issued in order
  Stall check_next_instruction(WarpSlot& w, const Instr*& in, uint32_t& unit);
  Stall wait_for_queue(WarpSlot& w);
  void queue_has_room();
  std::vector<WarpSlot*> queue_waiters_;  // warps whose recorded stall is a full LD/ST queue
  // Execute at issue; `on_unit` is false for an exit retired at decode (no unit, no issue slot).
  void execute(WarpSlot& w, const Instr& in, uint32_t unit, bool on_unit);
  // Operand collector (sm.regfile_banks > 0)
  // A collector unit is allocated the cycle after issue: the first one free by
  // then (its entry holds the cycle it frees) among those the warp in `slot` may take (with sm.sub_cores its
  // scheduler's own), or null.
  uint64_t* free_collector(CollectorGroup g, uint32_t slot) {
    auto& set = collector_free_[size_t(g)];
    uint64_t* f = set.data();
    uint64_t* end = f + set.size();
    if (p_.sub_cores) {
      const size_t per = set.size() / p_.num_schedulers;
      f += (slot % p_.num_schedulers) * per;
      end = f + per;
    }
    for (; f != end; ++f)
      if (*f <= cycle_ + 1) return f;
    return nullptr;
  }
  // Register r of warp slot `slot` lives in bank (r + slot) mod sm.regfile_banks (a mask for a power of 2);
  // with sm.sub_cores in bank (r + slot) mod (banks / N) of its scheduler's banks.
  uint32_t bank_of(uint32_t r, uint32_t slot) const {
    const uint32_t b = bank_mask_ ? (r + slot) & bank_mask_ : (r + slot) % bank_span_;
    return sub_core_bank_stride_ ? b + (slot % p_.num_schedulers) * sub_core_bank_stride_ : b;
  }
  uint32_t bank_mask_ = 0, bank_span_ = 1;  // the banks a warp's registers spread over (all, or its sub-core's)
  // With sm.sub_cores, bank_span_: sub-core s's banks start at s x this (0 without sub-cores, and under
  // WARPTLM_TEST_FAULT=sm_sub_core_banks_shared, which puts every sub-core's warps on the first one's banks).
  uint32_t sub_core_bank_stride_ = 0;
  uint64_t reserve_bank_read(uint32_t bank, uint64_t earliest);
  uint64_t collect_operands(const WarpSlot& w, const Instr& in, UnitKind kind, uint64_t occupancy, uint64_t done_after,
                            uint32_t& unit);
  void hold_ldst_unit(uint32_t unit, uint64_t start, uint32_t accesses);
  bool exits_at_decode(const Instr& in) const { return p_.exit_at_decode && in.op == Op::Exit; }
  // LD/ST unit (ldst_unit.cpp)
  // Each returns the accesses the instruction makes (requests, shared-array cycles or constant lines).
  uint32_t send_memory(WarpSlot& w, const Instr& in, uint64_t agen_done);
  uint32_t coalesce_global(WarpSlot& w, const Instr& in, Space sp, uint32_t mo, uint64_t ready);
  uint32_t send_shared(WarpSlot& w, const Instr& in, uint32_t mo, uint64_t ready);
  uint32_t send_cb(WarpSlot& w, const Instr& in, Space sp, uint32_t mo, uint64_t ready);
  tlm::tlm_generic_payload* lane_request(WarpSlot& w, const Instr& in, uint32_t mo, Space sp);
  uint32_t alloc_memop(WarpSlot& w, const Instr& in, bool long_latency);
  tlm::tlm_generic_payload* new_request(WarpSlot& w, const Instr& in, uint32_t mo);
  bool send_requests();
  void send_own_requests();
  bool send_shared_requests();
  bool private_ports_ = false;
  uint64_t next_request_cycle() const;  // earliest cycle a queued request may leave, UINT64_MAX if none
  template <class Socket>
  bool send_one(RequestQueue& q, Socket& s);
  void response_arrived(uint32_t mo);
  [[noreturn]] void refuse_early_response() const;
  void take_responses();
  InputRegister<uint32_t> responses_in_;  // memory-op index of each response, port 0 global, 1 shared, 2 CB
  tlm::tlm_sync_enum backward(RequestQueue& q, tlm::tlm_generic_payload& p, tlm::tlm_phase& ph);
  void end_request(RequestQueue& q, const tlm::tlm_generic_payload& p, const tlm::tlm_phase& ph);
  tlm::tlm_sync_enum mem_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
  tlm::tlm_sync_enum smem_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
  tlm::tlm_sync_enum cb_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
  void complete_fetches();
  uint32_t start_fetches();
  // Read-only caches filled from memory (readonly_cache.hpp)
  struct LineWait { uint64_t line; uint32_t mo; };  // a constant access waiting for a line
  uint64_t fetch_address(const WarpSlot& w, uint32_t pc) const;
  bool fetch_from_icache(WarpSlot& w, uint32_t pc, uint64_t& ready);
  uint32_t read_constant_lines(WarpSlot& w, const Instr& in, Space sp, uint64_t ready);
  void look_up_constant_line(uint64_t line, uint32_t mo, uint64_t ready);
  void constant_line_present(uint32_t mo, uint64_t at);
  void request_fill(uint64_t line, uint32_t bytes, bool constant, uint64_t ready);
  void take_fills();
  void instruction_line_filled(uint64_t line);
  void constant_line_filled(uint64_t line);
  tlm::tlm_sync_enum readonly_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
  InputRegister<uint64_t> fills_in_;  // line address of each fill, | 1 for the constant cache
  std::vector<LineWait> const_waits_, const_retries_, retrying_;
  bool duplicate_fill_fault_ = false;  // WARPTLM_TEST_FAULT=sm_duplicate_readonly_fill
  void retire_warp(WarpSlot& w);
  void retire_block(Block* b);
  void release(WarpSlot& w, const Instr& in, bool long_latency);
  void update_warp_limit();
  // Cached stall of a warp, kept in per-scheduler counts so a scheduler whose
  // warps are all stalled is charged without looking at each of them.
  Stall set_blocked(WarpSlot& w, Stall s);
  void set_needs_fetch(const WarpSlot& w, bool v) {
    uint64_t bit = uint64_t(1) << (w.slot & 63);
    if (v) needs_fetch_[w.slot >> 6] |= bit; else needs_fetch_[w.slot >> 6] &= ~bit;
  }
  // A fetch is in flight for `w` (its instruction cache access or line fill); earliest_fetch_ follows.
  void set_fetch_pending(WarpSlot& w, bool v) {
    const uint64_t bit = uint64_t(1) << (w.slot & 63);
    if (v) { fetching_[w.slot >> 6] |= bit; ++fetches_pending_; }
    else { fetching_[w.slot >> 6] &= ~bit; --fetches_pending_; }
    w.fetch_pending = v;
  }
  uint64_t earliest_pending_fetch();  // the earliest fetch_ready of the fetches in flight
  // f(slot) for every warp slot with a fetch in flight, in slot order.
  template <class F>
  void for_each_fetching(F&& f) {
    for (size_t wd = 0; wd < fetching_.size(); ++wd)
      for (uint64_t bits = fetching_[wd]; bits; bits &= bits - 1) f(slots_[wd * 64 + unsigned(__builtin_ctzll(bits))]);
  }

  uint32_t id_;
  SmParams p_;
  sc_core::sc_time period_;
  PayloadPool& pool_;
  const LaunchState* launch_ = nullptr;
  // Each instruction's class and unit, decoded once per launch for the kernel's program (the issue stage asks
  // at every look); an instruction from elsewhere (a mechanism's substitute) is classed when asked.
  struct IssueClass { OpClass cls; UnitKind kind; };
  std::vector<IssueClass> issue_class_;
  uintptr_t prog_base_ = 0;
  IssueClass issue_class_of(const Instr& in) const {
    const uintptr_t at = uintptr_t(&in) - prog_base_;
    if (at < issue_class_.size() * sizeof(Instr)) return issue_class_[at / sizeof(Instr)];
    const OpClass c = op_class_of(in);
    return {c, p_.unit_kind(in, c)};
  }
  uint64_t* clock_out_ = nullptr;
  std::vector<WarpSlot> slots_;
  std::vector<std::unique_ptr<WarpScheduler>> scheds_;
  std::vector<uint8_t> cta_slot_used_;  // the SM's block slots (the lowest free one takes an arriving block)
  void place_local_memory(WarpSlot& w, const Block& b, uint32_t warp_in_block, uint32_t cta_slot, const BlockUsage& u);
  std::vector<Resident> blocks_;
  std::vector<Arriving> arriving_;
  void install_arrived_blocks();
  void install_block(std::unique_ptr<Block> b, const BlockUsage& u);
  BlockUsage used_;
  std::array<std::vector<uint64_t>, size_t(UnitKind::Count)> unit_busy_;
  // Per unit of a kind: the scheduler owning it (kAnyScheduler: shared, fixed priority) and the cycles a warp
  // holds it per initiation interval, ceil(32 / its lanes). Private units come first, so a scheduler takes its own.
  static constexpr uint32_t kAnyScheduler = UINT32_MAX;
  static constexpr uint32_t kNoPc = UINT32_MAX;  // the PC probe's "none": nothing issued
  std::array<std::vector<uint32_t>, size_t(UnitKind::Count)> unit_owner_, unit_groups_;
  void build_units();
  std::array<Counter*, size_t(UnitKind::Count)> unit_busy_cycles_{};  // with partitioned units (sm.unit.<kind>.private, sm.shared_units: even)
  Counter* dual_issues_ = nullptr;                                      // with sm.dual_issue
  bool issue_second(WarpScheduler& s, WarpSlot& w);
  bool checking_second_ = false, dual_fault_ = false;  // WARPTLM_TEST_FAULT=sm_dual_issue_dependent
  std::vector<uint32_t> pool_fetch_rr_;  // sm.fetch_scope: scheduler: per pool, the next slot index to look at
  bool begin_fetch(WarpSlot& w);
  uint32_t fetch_from_pool(uint32_t sched);
  // operand collector: per bank, the read and write cycles booked from bank_base_ (the latest cycle an
  // instruction collected at) to bank_base_ + 63, kept in two words from bank_store_ on (bit i of the pair =
  // bank_store_ + i), which move on 64 cycles at a time rather than every cycle;
  // per group, the cycle each collector unit is free again
  std::vector<std::array<uint64_t, 2>> bank_bits_;
  uint64_t bank_base_ = 0, bank_store_ = 0;
  // The booked cycles of bank b from bank_base_ on (bit i = bank_base_ + i), and booking cycle bank_base_ + off.
  uint64_t bank_window(uint32_t b) const {
    const auto& w = bank_bits_[b];
    const uint64_t k = bank_base_ - bank_store_;
    return k ? (w[0] >> k) | (w[1] << (64 - k)) : w[0];
  }
  void book_bank(uint32_t b, uint64_t off) {
    const uint64_t pos = bank_base_ - bank_store_ + off;
    bank_bits_[b][pos >> 6] |= uint64_t(1) << (pos & 63);
  }
  // sm.result_buses: the cycles each result bus is booked, and each unit's booked completions
  CycleBooks result_buses_;
  std::array<ZeroedArray<CycleBook>, size_t(UnitKind::Count)> completion_books_;
  // sm.collector_ports: per group, the cycles each dispatch port is booked, and how many
  // instructions its ports took into collector units in cycle port_in_cycle_
  std::array<CycleBooks, size_t(CollectorGroup::Count)> collector_out_;
  std::array<uint32_t, size_t(CollectorGroup::Count)> port_in_used_{};
  uint64_t port_in_cycle_ = UINT64_MAX;
  // sm.collector_ports: has the group's every port taken an instruction into a collector unit this cycle?
  bool collector_ports_full(CollectorGroup g) const {
    const uint32_t ports = p_.collector_ports[size_t(g)];
    return ports && port_in_cycle_ == cycle_ && port_in_used_[size_t(g)] >= ports;
  }
  uint64_t first_free_start(UnitKind kind, size_t u, uint64_t earliest, uint64_t done_after) const;
  void book_completion(UnitKind kind, size_t u, uint64_t done);
  void book_register_writes(const WarpSlot& w, const Instr& in, uint64_t done);
  // Cycles from a unit taking an instruction to its result's write: the class's latency, the lane groups after
  // the first, and sm.unit_stages on every unit but the LD/ST unit (its dispatch and writeback registers).
  uint64_t result_after(UnitKind kind, const OpClassParams& op, uint32_t groups) const {
    return op.latency + groups - 1 + (kind == UnitKind::LDST ? 0 : p_.unit_stages);
  }
  std::array<std::vector<uint64_t>, size_t(CollectorGroup::Count)> collector_free_;
  Counter *oc_reads_ = nullptr, *oc_conflicts_ = nullptr;
  std::priority_queue<Completion, std::vector<Completion>, std::greater<Completion>> completions_;
  std::deque<MemOp> memops_;  // stable addresses: in-flight shared requests point at their lanes
  std::vector<uint32_t> free_memops_;
  uint64_t seq_ = 0, age_ = 0;
  uint64_t cycle_ = 0, last_tick_ = UINT64_MAX;
  uint64_t longest_block_life_ = 0;
  bool had_warps_ = false;
  bool ordering_changed_ = false;
  bool exited_at_decode_ = false;  // a warp retired at its instruction buffer this cycle
  uint32_t peak_blocks_ = 0;
  uint32_t fetch_rr_ = 0;
  uint32_t fetches_pending_ = 0;
  std::vector<uint64_t> needs_fetch_;                                  // slots with an empty instruction buffer
  std::vector<uint64_t> fetching_;                                     // slots with a fetch in flight (fetch_pending)
  std::vector<uint32_t> ready_;                                        // per scheduler: warps not known to be stalled
  std::vector<uint8_t> unrecorded_;  // per slot: a resident warp with no recorded stall, not exited (read without touching the slot)
  std::vector<uint32_t> exited_;     // per scheduler: exited warps still resident (counted in ready_)
  std::vector<std::array<uint32_t, size_t(Stall::Count)>> blocked_;    // per scheduler: warps stalled, by reason
  ClockDomain* clock_ = nullptr;
  uint32_t clock_index_ = 0;
  std::unique_ptr<ReadOnlyCache> icache_;
  std::unique_ptr<ReadOnlyCache> ccache_;  // constant cache: same tag-array model
  RequestQueue gq_, sq_, rq_, cq_;  // global/local, shared, read-only fills, communication buffers
  // Per scheduler: its warps' order as last listed, and the ordering's order_version and the scheduler's
  // warps_version it was listed at; walk_ is the list issue_in_order walks this cycle.
  std::vector<std::vector<WarpSlot*>> orders_;
  std::vector<std::pair<uint64_t, uint64_t>> order_seen_;
  const std::vector<WarpSlot*>* walk_ = nullptr;
  const std::vector<WarpSlot*>& order_now(WarpScheduler& s);
  std::vector<Stall> last_reason_;
  uint64_t warp_limit_age_ = UINT64_MAX;  // static warp limiting: the youngest age allowed to issue
  std::vector<std::unique_ptr<SmMechanism>> mechs_;
  std::vector<SmMechanism*> l1_steering_;  // the mechanisms that steer global accesses in the L1 (steers_l1)
  // The active mechanism that maps shared-memory addresses, or null (asked as each block arrives).
  const SmMechanism* shared_mapper() const {
    for (auto& m : mechs_)
      if (m->maps_shared_memory() && m->active()) return m.get();
    return nullptr;
  }
  // The SM's physical shared memory (sm.shared_mem bytes), where a mapping
  // mechanism places its blocks' shared memory: blocks it lays over the same
  // bytes share their contents, in the functional model too.
  std::vector<uint8_t> shared_storage_;
  void place_shared_memory(Block& b, const SmMechanism& mapper);

  // In-order stage pipeline (sm.pipeline.model: inorder; inorder.cpp)
  std::unique_ptr<StagePipeline> pipe_;  // sm.pipeline.backend: the SM's own (unified) or a mechanism's
  PipelineShape pipeline_shape() const;
  struct LeaveSink : SubwarpSink {
    Sm& sm;
    explicit LeaveSink(Sm& s) : sm(s) {}
    void leave(const Subwarp& s) override { sm.leave_pipeline(s); }
  } leave_sink_{*this};
  struct IssuingInstruction {  // the warp instruction whose subwarps the issue stage is sending
    uint32_t slot = 0;
    const Instr* in = nullptr;
    uint32_t next = 0, count = 0;  // next subwarp, subwarps in all (0: none in progress)
    bool writes = false, completes = false, mem = false;
    uint32_t mem0_cycles[32] = {};
  } issuing_;
  uint32_t return_slots_left_ = 0;  // writeback slots the data returning from memory still holds
  bool timing_in_pipe_ = false;     // set by send_memory: the pipeline, not a response, completes the instruction
  uint32_t part_degrees_[32] = {};  // send_shared: each part's conflict degree
  struct PipeCounters {
    Counter *issue = nullptr, *subwarp = nullptr, *sched_fail = nullptr, *bank_conflict = nullptr, *other = nullptr;
    Counter *wb_core = nullptr, *wb_returns = nullptr;
    Counter *shared_threads = nullptr, *shared_subwarps = nullptr, *shared_mem0 = nullptr;
    Counter *shared_active_subwarps = nullptr, *shared_active_mem0 = nullptr;
  } pipe_stats_;
  bool shared_sent_ = false;        // set by send_shared: the instruction went to shared memory
  void declare_pipeline_stats(StatsRegistry& stats, const std::string& inst);
  bool inorder_cycle();
  uint32_t take_returns();
  void issue_stage();
  void enter_pipeline(WarpSlot& w, const Instr& in);
  void send_next_subwarp();
  void leave_pipeline(const Subwarp& s);
  void count_issue_outcome(Stall s);

  // waveform probes (one compare each when tracing is off)
  struct SchedProbes { Probe issued_warp, outcome, pc, active_mask, issue_cycles; uint64_t issue_count = 0; };
  std::vector<SchedProbes> sched_probes_;
  std::vector<Probe> warp_state_;  // per slot: a WarpState
  uint64_t earliest_fetch_ = UINT64_MAX;  // the earliest fetch_ready of the fetches in flight (UINT64_MAX: none)
  bool warp_states_traced_ = false;  // some slot's state probe is on: issue shows it every warp it considers
  uint32_t issued_pc_ = 0, issued_mask_ = 0;  // the first instruction issued in this look (the probes' PC and mask)
  void probe_issue(uint32_t sid, Stall outcome, const WarpSlot* issued);
  bool sched_probes_on_ = false;  // any scheduler probe traced
  // the global memory port's transactions: a request's kind, line address and warp in the cycle it leaves;
  // a response's kind, address, warp and round trip in the cycle it returns ("idle" between them)
  struct PortProbes { Probe req, req_addr, req_warp, resp, resp_addr, resp_warp, resp_latency; } mem_probes_;
  void probe_request(tlm::tlm_generic_payload& p);
  void probe_response(tlm::tlm_generic_payload& p);

  // stats
  Counter *warp_insts_, *thread_insts_, *lane_insts_, *active_cycles_, *resident_warp_cycles_, *mem_requests_, *mem_responses_, *blocks_done_;
  Counter *global_load_lanes_, *global_store_lanes_;  // the kernel's global traffic in lane accesses
  Counter *global_responses_, *global_latency_;       // the global port's round trips (avg_mem_latency)
  // a read-only cache's outcomes (merged and reservation fails only when it fills from memory)
  struct CacheCounters {
    Counter *hits = nullptr, *misses = nullptr, *merged = nullptr, *fails = nullptr;
  };
  static CacheCounters cache_counters(StatsRegistry& stats, const std::string& group, const std::string& what,
                                      const char* requests, bool from_memory);
  CacheCounters icache_stats_, ccache_stats_;
  Counter *fill_requests_ = nullptr, *fill_responses_ = nullptr;
  InstructionCounts retired_;  // by the blocks retired so far
  uint64_t progress_ = 0;
  std::vector<std::array<Counter*, size_t(Stall::Count)>> stall_;
};

}  // namespace warptlm
