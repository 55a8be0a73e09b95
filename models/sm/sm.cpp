#include "sm/sm.hpp"

#include <algorithm>
#include <sstream>

#include "common/errors.hpp"

namespace warptlm {

namespace {
// When several warps stall for different reasons, the scheduler-cycle is
// charged to the most actionable one: structural, data, fetch, filtered, then
// memory, barrier, no warp.
int stall_rank(Stall s) {
  switch (s) {
    case Stall::Structural: return 0;
    case Stall::Data: return 1;
    case Stall::Fetch: return 2;
    case Stall::Other: return 3;
    case Stall::LongMem: return 4;
    case Stall::Barrier: return 5;
    default: return 6;
  }
}
uint32_t lane_groups(uint32_t lanes) { return (32 + lanes - 1) / lanes; }
}  // namespace

Sm::Sm(sc_core::sc_module_name name, uint32_t id, const SmParams& p, sc_core::sc_time period, StatsRegistry& stats,
       PayloadPool& pool, const std::function<void(Sm&)>& build_inside)
    : sc_core::sc_module(name), mem_socket("mem_socket"), smem_socket("smem_socket"),
      readonly_socket("readonly_socket"), cb_socket("cb_socket"), id_(id),
      p_(p), period_(period), pool_(pool) {
  slots_.resize(p_.max_warps);
  for (uint32_t i = 0; i < p_.max_warps; ++i) slots_[i].slot = i;
  unrecorded_.assign(p_.max_warps, 0);
  exited_.assign(p_.num_schedulers, 0);
  for (uint32_t s = 0; s < p_.num_schedulers; ++s) {
    scheds_.push_back(std::make_unique<WarpScheduler>(s, make_issue_ordering(p_, id, s, period)));
  }
  last_reason_.assign(p_.num_schedulers, Stall::NoWarp);
  ready_.assign(p_.num_schedulers, 0);
  blocked_.assign(p_.num_schedulers, {});
  needs_fetch_.assign((p_.max_warps + 63) / 64, 0);
  fetching_.assign((p_.max_warps + 63) / 64, 0);
  build_units();
  pool_fetch_rr_.assign(p_.num_schedulers, 0);
  if (!p_.icache_perfect)
    icache_ = std::make_unique<ReadOnlyCache>(p_.icache_size, p_.icache_line, p_.icache_assoc, p_.icache_fill);
  orders_.resize(p_.num_schedulers);
  for (auto& o : orders_) o.reserve(p_.max_warps);
  order_seen_.assign(p_.num_schedulers, {WarpOrdering::kEveryCycle, UINT64_MAX});

  const std::string inst = "sm" + std::to_string(id);
  StatGroup g(stats, inst, "sm");
  warp_insts_ = &g.counter("warp_instructions", "warp instructions issued");
  thread_insts_ = &g.counter("thread_instructions", "thread instructions issued (lanes whose guard is true)");
  lane_insts_ = &g.counter("active_lane_instructions", "active-lane instructions issued (guarded or not)");
  active_cycles_ = &g.counter("active_cycles", "cycles with at least one resident block");
  resident_warp_cycles_ = &g.counter("resident_warp_cycles",
                                     "sum over warps of the cycles each held a warp slot, its first and last included "
                                     "(achieved occupancy = this / (active_cycles x sm.max_warps))");
  blocks_done_ = &g.counter("blocks", "thread blocks retired");
  if (p_.dual_issue)
    dual_issues_ = &g.counter("dual_issues", "second instructions a scheduler issued from the warp it issued in the same cycle (sm.dual_issue)");
  if (p_.units_partitioned()) {
    StatGroup ug(stats, inst + ".unit", "unit");
    for (size_t k = 0; k < size_t(UnitKind::Count); ++k)
      unit_busy_cycles_[k] = &ug.counter(std::string(unit_kind_name(UnitKind(k))) + "_busy_cycles",
                                         std::string("cycles warp instructions held a ") + unit_kind_name(UnitKind(k)) +
                                             " unit, summed over its units (utilization = this / (units x cycles))");
  }
  if (p_.regfile_banks) {
    bank_bits_.assign(p_.regfile_banks, {0, 0});
    bank_span_ = p_.sub_cores ? p_.regfile_banks / p_.num_schedulers : p_.regfile_banks;
    bank_mask_ = (bank_span_ & (bank_span_ - 1)) == 0 ? bank_span_ - 1 : 0;
    if (p_.sub_cores && !test_fault("sm_sub_core_banks_shared")) sub_core_bank_stride_ = bank_span_;
    result_buses_.assign(p_.result_buses);
    // A group's dispatch ports are booked only where they can bind: each unit takes at most one instruction a
    // cycle, so ports as many as the units the group's instructions can reach never refuse one.
    std::array<uint32_t, size_t(CollectorGroup::Count)> reachable{};
    for (size_t k = 0; k < size_t(UnitKind::Count); ++k) {
      const UnitKind kind = UnitKind(k);
      const bool unused = (kind == UnitKind::INT && p_.int_all_on_sp) || (kind == UnitKind::BRANCH && p_.control_on_sp);
      if (!unused) reachable[size_t(p_.collector_group(kind))] += p_.units[k].count;
    }
    for (size_t g = 0; g < size_t(CollectorGroup::Count); ++g)
      if (p_.collector_ports[g] && p_.collector_ports[g] < reachable[g]) collector_out_[g].assign(p_.collector_ports[g]);
    for (size_t g = 0; g < size_t(CollectorGroup::Count); ++g) collector_free_[g].assign(p_.collectors[g], 0);
    StatGroup oc(stats, inst + ".collector", "collector");
    oc_reads_ = &oc.counter("reads", "register reads by the operand collector (one per distinct source register)");
    oc_conflicts_ = &oc.counter("bank_conflict_cycles", "read cycles lost waiting for a busy register-file bank");
  }
  StatGroup ls(stats, inst + ".ldst", "ldst");
  mem_requests_ = &ls.counter("requests", "memory requests sent (one per distinct line)");
  global_load_lanes_ = &ls.counter("global_load_lanes", "lanes of ld and ldu that read global memory (a vector access counts once per lane)");
  global_store_lanes_ = &ls.counter("global_store_lanes", "lanes of st that write global memory (a vector access counts once per lane)");
  mem_responses_ = &ls.counter("responses", "memory responses received");
  global_responses_ = &ls.counter("global_responses", "responses on the global port (global and local accesses, L1 hits included)");
  global_latency_ = &ls.counter("global_latency_cycles", "sum over ldst.global_responses of core cycles from the request's "
                                                         "issue to its response (their ratio is the average memory latency)");
  stall_.resize(p_.num_schedulers);
  for (uint32_t s = 0; s < p_.num_schedulers; ++s) {
    StatGroup sg(stats, inst + ".sched" + std::to_string(s), "sched");
    for (size_t r = 0; r < size_t(Stall::Count); ++r)
      stall_[s][r] = &sg.counter(stall_name(Stall(r)), "scheduler cycles charged to this issue outcome");
  }
  ccache_stats_ = cache_counters(stats, inst + ".ccache", "constant cache", "constant-cache accesses", p_.ccache_fill.from_memory);
  if (icache_)
    icache_stats_ = cache_counters(stats, inst + ".icache", "instruction cache", "fetches", p_.icache_fill.from_memory);
  if (p_.ccache_fill.from_memory || (icache_ && p_.icache_fill.from_memory)) {
    StatGroup rp(stats, inst + ".readonly_port", "readonly_port");
    fill_requests_ = &rp.counter("requests", "line fills the instruction and constant caches sent below");
    fill_responses_ = &rp.counter("responses", "line fills that came back");
  }
  sched_probes_.resize(p_.num_schedulers);
  static const std::vector<std::string> outcomes = {"issued", "no_warp", "long_mem", "data", "structural", "barrier", "fetch", "other"};
  static const std::vector<std::string> states = {"empty", "ready", "long_mem", "data", "fetch", "barrier", "done", "other"};
  for (uint32_t s = 0; s < p_.num_schedulers; ++s) {
    const std::string sn = inst + ".sched" + std::to_string(s);
    sched_probes_[s].issued_warp.declare(sn + ".issued_warp", 8, ProbeView{{}, {{255, "none"}}, false, {}});
    sched_probes_[s].outcome.declare(sn + ".outcome", 3, outcomes);
    sched_probes_[s].pc.declare(sn + ".pc", 32, ProbeView{{}, {{kNoPc, "none"}}, false, {}});
    sched_probes_[s].active_mask.declare(sn + ".active_mask", 32, ProbeView{{}, {}, true, {}});
    sched_probes_[s].issue_cycles.declare(sn + ".issue_cycles", 32);
    const SchedProbes& q = sched_probes_[s];
    sched_probes_on_ = sched_probes_on_ || q.issued_warp.on() || q.outcome.on() || q.pc.on() || q.active_mask.on() ||
                       q.issue_cycles.on();
  }
  {
    static const std::vector<std::string> kinds = {"idle", "load", "store", "atomic"};
    const std::string mn = inst + ".mem.";
    mem_probes_.req.declare(mn + "req", 2, kinds);
    mem_probes_.req_addr.declare(mn + "req_addr", 64, ProbeView{{}, {}, true, {}});
    mem_probes_.req_warp.declare(mn + "req_warp", 8);
    mem_probes_.resp.declare(mn + "resp", 2, kinds);
    mem_probes_.resp_addr.declare(mn + "resp_addr", 64, ProbeView{{}, {}, true, {}});
    mem_probes_.resp_warp.declare(mn + "resp_warp", 8);
    mem_probes_.resp_latency.declare(mn + "resp_latency", 32);
  }
  warp_state_.resize(p_.max_warps);
  for (uint32_t w = 0; w < p_.max_warps; ++w) {
    warp_state_[w].declare(inst + ".warp" + std::to_string(w) + ".state", 3, states);
    warp_states_traced_ |= warp_state_[w].on();
  }
  mem_socket.register_nb_transport_bw(this, &Sm::mem_bw);
  smem_socket.register_nb_transport_bw(this, &Sm::smem_bw);
  cb_socket.register_nb_transport_bw(this, &Sm::cb_bw);
  readonly_socket.register_nb_transport_bw(this, &Sm::readonly_bw);
  duplicate_fill_fault_ = test_fault("sm_duplicate_readonly_fill");
  dual_fault_ = test_fault("sm_dual_issue_dependent");  // test only: the second instruction skips the scoreboard
  gq_.init(p_.ldst_queue + 64);
  sq_.init(64);
  cq_.init(16);
  rq_.init(16);
  ccache_ = std::make_unique<ReadOnlyCache>(p_.ccache_size, p_.ccache_line, p_.ccache_assoc, p_.ccache_fill);
  if (p_.inorder) {
    if (p_.pipeline_backend == "unified") pipe_ = std::make_unique<InOrderPipeline>(pipeline_shape());
    declare_pipeline_stats(stats, inst);
  }
  if (build_inside) build_inside(*this);
  if (p_.inorder && !pipe_)  // neither the SM nor a mechanism provides the named pipeline
    throw InputError(Place{"", 0, "sm.pipeline.backend"}, "unknown in-order pipeline '" + p_.pipeline_backend + "'");
  for (auto& s : scheds_)  // neither the SM nor a mechanism provides the named ordering
    if (!s->has_ordering()) throw InputError("unknown warp scheduler '" + p_.warp_scheduler + "'");
}

// The functional units of each kind: the private ones first (unit j to scheduler j mod N, with their own
// lane count), then the shared ones: whole and free for any scheduler (fixed priority: schedulers issue in
// index order each cycle, so the lowest-numbered takes a unit first, spec 004 sec. 2.14 SP), or with
// sm.shared_units: even split into N slices of lanes / N, slice s owned by scheduler s (EP).
void Sm::build_units() {
  const uint32_t N = p_.num_schedulers;
  for (size_t k = 0; k < size_t(UnitKind::Count); ++k) {
    const UnitParams& u = p_.units[k];
    auto& owner = unit_owner_[k];
    auto& groups = unit_groups_[k];
    for (uint32_t j = 0; j < u.private_count; ++j) {
      owner.push_back(j % N);
      groups.push_back(lane_groups(u.private_lanes ? u.private_lanes : u.lanes));
    }
    for (uint32_t j = u.private_count; j < u.count; ++j) {
      if (!p_.shared_even) {
        owner.push_back(kAnyScheduler);
        groups.push_back(lane_groups(u.lanes));
        continue;
      }
      for (uint32_t s = 0; s < N; ++s) {
        owner.push_back(s);
        groups.push_back(lane_groups(u.lanes / N));
      }
    }
    unit_busy_[k].assign(owner.size(), 0);
    if (p_.result_buses && UnitKind(k) != UnitKind::LDST && u.count) completion_books_[k] = ZeroedArray<CycleBook>(owner.size());
  }
}

Sm::CacheCounters Sm::cache_counters(StatsRegistry& stats, const std::string& group, const std::string& what,
                                     const char* requests, bool from_memory) {
  StatGroup g(stats, group, group.substr(group.rfind('.') + 1));
  CacheCounters c;
  c.hits = &g.counter("hits", what + " hits");
  c.misses = &g.counter("misses", what + " misses");
  if (from_memory) {
    c.merged = &g.counter("merged", std::string(requests) + " that found their line in flight and waited for its fill");
    c.fails = &g.counter("reservation_fails", std::string(requests) + " refused (no MSHR or way free), tried again at a later fill");
  }
  return c;
}

void Sm::add_mechanism(std::unique_ptr<SmMechanism> m) {
  // A warp's class comes from the first active mechanism that classifies warps.
  const WarpClassifier classify = [this](const WarpSlot& w) {
    for (auto& x : mechs_)
      if (x->active()) return x->warp_class(w.block);
    return 0;
  };
  for (auto& s : scheds_)
    if (!s->has_ordering())
      if (auto ord = m->make_ordering(p_.warp_scheduler, classify)) s->set_ordering(std::move(ord));
  if (p_.inorder && !pipe_) pipe_ = m->make_pipeline(p_.pipeline_backend, pipeline_shape());
  if (m->steers_l1()) l1_steering_.push_back(m.get());
  if (m->issues_out_of_order()) ooo_.push_back(m.get());
  has_ooo_ = !ooo_.empty();
  mechs_.push_back(std::move(m));
}

SmMechanism* Sm::mechanism(const std::string& name) {
  for (auto& m : mechs_)
    if (name == m->name()) return m.get();
  return nullptr;
}

uint64_t Sm::now_cycle() const { return cycle_now(period_); }

// ---------------------------------------------------------------- dispatch

BlockUsage Sm::usage_of(const LaunchState& L, uint32_t regs_per_thread) const {
  BlockUsage u;
  u.warps = L.warps_per_block;
  u.threads = u.warps * 32;
  uint32_t per_warp = regs_per_thread * 32;
  per_warp = (per_warp + p_.reg_alloc_unit - 1) / p_.reg_alloc_unit * p_.reg_alloc_unit;
  u.registers = per_warp * u.warps;
  const KernelInfo& k = *L.kernel;
  const uint32_t smem = SmParams::block_shared_bytes(k.static_smem, L.dynamic_smem);
  u.shared = smem ? (smem + p_.smem_alloc_unit - 1) / p_.smem_alloc_unit * p_.smem_alloc_unit : 0;
  return u;
}

uint32_t Sm::blocks_that_fit(const BlockUsage& u) const {
  uint32_t n = p_.max_blocks;
  if (u.warps) n = std::min({n, p_.max_warps / u.warps, p_.max_threads / u.threads});
  if (u.registers) n = std::min(n, p_.registers / u.registers);
  if (u.shared) n = std::min(n, p_.shared_mem / u.shared);
  return std::max(n, 1u);
}

// Where warp slot w's local memory lies in the timing model's address space (what the L1, the L2 and the
// DRAM see; the data itself is the functional model's). Word d of lane l is at
// local_base + d * local_word_stride + 4 * l.
//  - warp_slot: the slot's frame in one piece, (local variables + call frame) x 32 lanes, its lanes'
//    words interleaved so that a warp's access to one variable is one line.
//  - word_major (GPGPU-Sim's -gpgpu_local_mem_map 1, shader_core_ctx::translate_local_memaddr): word d of
//    every thread the GPU can hold for this kernel is one region of N words, N = threads per block x blocks
//    per SM x SMs; inside it, a block's threads are together, block slot k of SM s at place k x SMs + s.
void Sm::place_local_memory(WarpSlot& w, const Block& b, uint32_t warp_in_block, uint32_t cta_slot, const BlockUsage& u) {
  if (p_.local_word_major) {
    const uint64_t per_block = uint64_t(u.warps) * 32;  // threads, padded to whole warps
    const uint64_t blocks = std::max<uint64_t>(blocks_that_fit(u), cta_slot + 1);
    const uint64_t place = uint64_t(p_.gpu_sms) * cta_slot + id_;
    w.local_base = 4 * (per_block * place + uint64_t(warp_in_block) * 32);
    w.local_word_stride = 4 * per_block * blocks * p_.gpu_sms;
    return;
  }
  const KernelInfo& k = b.kernel;
  const uint32_t lb = k.local_bytes ? (k.local_bytes + 3) & ~3u : 4;
  const uint32_t fb = p_.call_params_local ? (k.frame_bytes + 3) & ~3u : 0;
  w.local_base = (uint64_t(id_) * slots_.size() + w.slot) * (lb + fb) * 32;
  w.local_word_stride = 128;
}

bool Sm::can_accept(const BlockUsage& u) const {
  const bool room = blocks_.size() + arriving_.size() < p_.max_blocks && used_.warps + u.warps <= p_.max_warps &&
                    used_.threads + u.threads <= p_.max_threads && used_.registers + u.registers <= p_.registers;
  if (!room) return false;
  // A mechanism that keeps its own block slots replaces the byte count.
  bool replaced = false;
  for (auto& m : mechs_)
    if (m->active()) {
      if (!m->admits_block()) return false;
      replaced |= m->replaces_shared_capacity();
    }
  return replaced || used_.shared + u.shared <= p_.shared_mem;
}

// A block arrives from the dispatcher: its resources are taken now, and its
// warps join the schedulers at the SM's next edge (a registered input).
void Sm::launch_block(std::unique_ptr<Block> b, const BlockUsage& u) {
  used_.warps += u.warps;
  used_.threads += u.threads;
  used_.registers += u.registers;
  used_.shared += u.shared;
  for (auto& m : mechs_)
    if (m->active()) m->block_arrived(b.get());
  if (const SmMechanism* mapper = shared_mapper()) place_shared_memory(*b, *mapper);
  arriving_.push_back(Arriving{std::move(b), u, now_value()});
  wake_at(now_cycle() + 1);
}

// The block's offsets [0, size) land where the mapper's two base registers put
// them; what earlier blocks left there stays (the hardware clears nothing).
void Sm::place_shared_memory(Block& b, const SmMechanism& mapper) {
  if (shared_storage_.size() != p_.shared_mem) shared_storage_.assign(p_.shared_mem, 0);
  const SharedAddressMap m = mapper.shared_map(&b);
  const uint32_t n = b.shared_bytes;
  if (n == 0) return;
  const uint32_t split = std::min(m.boundary, n);  // offsets [0, split) move by low, the rest by high
  uint64_t end = split ? uint64_t(m.low) + split : 0;
  if (split < n) end = std::max(end, uint64_t(m.high) + n);
  if (end > shared_storage_.size())
    throw RunError("SM " + std::to_string(id_) + ": block " + std::to_string(b.linear_id) + "'s " + std::to_string(n) +
                   " bytes of shared memory are mapped past the SM's " + std::to_string(shared_storage_.size()) + " bytes");
  b.place_shared(shared_storage_.data(), m);
}

void Sm::install_arrived_blocks() {
  const uint64_t edge = edge_value(period_, cycle_);
  size_t n = 0;
  while (n < arriving_.size() && arriving_[n].time < edge) install_block(std::move(arriving_[n].block), arriving_[n].usage), ++n;
  if (n) arriving_.erase(arriving_.begin(), arriving_.begin() + long(n));
}

void Sm::install_block(std::unique_ptr<Block> b, const BlockUsage& u) {
  const KernelInfo& k = b->kernel;
  if (b->warps.empty()) b->make_warps();  // (a block from the dispatcher comes without)
  b->global_writes = &writes_;
  b->clock = &cycle_;
  uint32_t cta_slot = 0;
  while (cta_slot < cta_slot_used_.size() && cta_slot_used_[cta_slot]) ++cta_slot;
  if (cta_slot == cta_slot_used_.size()) cta_slot_used_.push_back(0);  // (a mechanism may admit more than sm.max_blocks)
  cta_slot_used_[cta_slot] = 1;
  uint32_t next = 0;
  for (Warp& fw : b->warps) {
    while (slots_[next].resident) ++next;
    WarpSlot& w = slots_[next];
    w.resident = true;
    w.fw = &fw;
    w.block = b.get();
    place_local_memory(w, *b, uint32_t(&fw - b->warps.data()), cta_slot, u);
    w.age = age_++;
    w.installed_cycle = cycle_;
    w.ibuf_count = 0;
    w.fetch_pending = false;
    w.pending.assign(size_t(k.num_regs) + k.num_preds, 0);
    w.pending_long.assign(size_t(k.num_regs) + k.num_preds, 0);
    w.inflight = 0;
    w.in_pipe = 0;
    w.last_stall = Stall::Issued;
    w.blocked = Stall::Issued;
    w.exited = false;
    w.issue_kind = WarpSlot::IssueKind::InOrder;
    w.ran_out_of_order = false;
    w.queue_blocked_at = 0;
    w.waits_for_queue = false;
    ++ready_[w.slot % p_.num_schedulers];
    unrecorded_[w.slot] = 1;
    set_needs_fetch(w, true);
    scheds_[w.slot % p_.num_schedulers]->add_warp(&w);
    for (auto& m : mechs_)
      if (m->active()) m->warp_started(w);
  }
  blocks_.push_back(Resident{std::move(b), u, 0, cycle_, cta_slot});
  peak_blocks_ = std::max(peak_blocks_, uint32_t(blocks_.size()));
  update_warp_limit();
}

void Sm::add_issue_filter(std::shared_ptr<IssueFilter> f) {
  for (auto& s : scheds_) s->add_filter(f);
}

void Sm::update_warp_limit() {
  warp_limit_age_ = UINT64_MAX;
  if (!p_.warp_limit) return;
  // the N oldest warps still running may issue
  std::vector<uint64_t> ages;
  for (auto& w : slots_)
    if (w.resident && !w.fw->done) ages.push_back(w.age);
  if (ages.size() <= p_.warp_limit) return;
  std::nth_element(ages.begin(), ages.begin() + (p_.warp_limit - 1), ages.end());
  warp_limit_age_ = ages[p_.warp_limit - 1];
}

void Sm::account_resident_warps() {
  commit_held_effects();  // a stopped launch: what its warps issued reaches memory
  for (WarpSlot& w : slots_)
    if (w.resident) {
      *resident_warp_cycles_ += cycle_ - w.installed_cycle + 1;
      w.installed_cycle = cycle_ + 1;  // counted up to here
    }
}

void Sm::retire_warp(WarpSlot& w) {
  scheds_[w.slot % p_.num_schedulers]->remove_warp(&w);
  Block* b = w.block;
  warp_state_[w.slot].set(uint64_t(WarpState::Empty));
  if (w.fetch_pending) {
    set_fetch_pending(w, false);
    earliest_fetch_ = earliest_pending_fetch();  // it may have been this warp's
  }
  set_blocked(w, Stall::Issued);
  --ready_[w.slot % p_.num_schedulers];
  unrecorded_[w.slot] = 0;
  if (w.exited) --exited_[w.slot % p_.num_schedulers];
  w.exited = false;
  set_needs_fetch(w, false);
  w.resident = false;
  *resident_warp_cycles_ += cycle_ - w.installed_cycle + 1;
  w.fw = nullptr;
  w.block = nullptr;
  for (auto& r : blocks_)
    if (r.block.get() == b && ++r.warps_retired == b->warps.size()) {
      retire_block(b);
      break;
    }
}

void Sm::retire_block(Block* b) {
  auto it = std::find_if(blocks_.begin(), blocks_.end(), [&](const Resident& r) { return r.block.get() == b; });
  used_.warps -= it->usage.warps;
  used_.threads -= it->usage.threads;
  used_.registers -= it->usage.registers;
  used_.shared -= it->usage.shared;
  cta_slot_used_[it->cta_slot] = 0;
  for (auto& w : it->block->warps) retired_ += w.insts;
  longest_block_life_ = std::max(longest_block_life_, cycle_ - it->installed);
  for (auto& m : mechs_)
    if (m->active()) m->block_retired(b);
  blocks_.erase(it);
  ++*blocks_done_;
  update_warp_limit();
  if (reporting_later_) ++own_.retired;  // told in SM order, at the end of the edge
  else if (on_block_done) on_block_done(*this);
}

// ---------------------------------------------------------------- the cycle

// An edge in two parts (docs/determinism.md). The SM's own work, which touches
// nothing outside the SM, may run on a worker thread beside the other SMs'
// (edge_own_work); what reaches other blocks follows in SM order
// (clock_edge): the edge's global writes, the requests that leave the LD/ST
// unit, the blocks that retired, a fault.
void Sm::edge_own_work(uint64_t cycle) {
  if (own_.cycle == cycle) return;  // asked again in the edge: its own part ran
  own_.cycle = cycle;
  own_.repeat = cycle == last_tick_;
  if (own_.repeat) return;  // asked twice for one edge: the work is done
  own_.failed = false;
  if (run_ahead_fault_) writes_.set_ahead(engine_threads_ > 1 && id_ % engine_threads_ != 0);
  reporting_later_ = true;
  try {
    own_step(cycle);
  } catch (const RunError& e) {
    own_error_ = e.what();  // reported in SM order, in clock_edge
    own_.failed = true;
  }
  reporting_later_ = false;
}

uint64_t Sm::clock_edge(uint64_t cycle) {
  if (own_.cycle != cycle) edge_own_work(cycle);  // no worker ran it ahead
  own_.cycle = UINT64_MAX;
  if (own_.repeat) return cycle_ + 1;
  try {
    if (own_.failed) throw RunError(own_error_);
    return shared_step();
  } catch (const RunError& e) {
    // Exceptions must not escape a SystemC process; the platform reports it.
    writes_.commit();
    if (on_run_error) on_run_error(e.what());
    return kNever;
  }
}

void Sm::wake_at(uint64_t cycle) { if (clock_) clock_->request(clock_index_, cycle); }

void Sm::attach_clock(ClockDomain& d) {
  clock_ = &d;
  clock_index_ = d.join(*this, id_);  // the SM's partition: it, its shared memory and its L1
}

void Sm::own_step(uint64_t cycle) {
  cycle_ = cycle;
  if (had_warps_ && last_tick_ != UINT64_MAX && cycle_ > last_tick_ + 1) {
    const uint64_t skipped = cycle_ - last_tick_ - 1;
    for (uint32_t s = 0; s < p_.num_schedulers; ++s) *stall_[s][size_t(last_reason_[s])] += skipped;
    *active_cycles_ += skipped;
    if (p_.inorder) *pipe_stats_.sched_fail += skipped;  // asleep: the pipeline was empty and no warp could issue
  }
  last_tick_ = cycle_;
  own_.idle = false;
  own_.progress = false;
  if (!responses_in_.empty()) take_responses();
  if (!fills_in_.empty()) take_fills();
  if (!arriving_.empty()) install_arrived_blocks();
  if (blocks_.empty()) {
    had_warps_ = false;
    own_.idle = true;
    return;
  }
  had_warps_ = true;
  ++*active_cycles_;
  bool progress = false;
  ordering_changed_ = false;
  exited_at_decode_ = false;
  if (p_.inorder) {
    complete_fetches();
    progress |= inorder_cycle();
  } else {
    writeback();
    complete_fetches();
    for (auto& s : scheds_) progress |= issue(*s) > 0;
  }
  progress |= ordering_changed_;  // an ordering rearranged its warps: look again next cycle
  progress |= exited_at_decode_;  // a warp left without issuing: what it freed may issue next cycle
  progress |= start_fetches() > 0;
  if (private_ports_) send_own_requests();
  own_.progress = progress;
  own_.has_blocks = !blocks_.empty();
  if (!own_.has_blocks) had_warps_ = false;
  own_.next = progress || !own_.has_blocks ? UINT64_MAX : own_next_change();
}

void Sm::set_quantum(uint32_t q) {
  quantum_ = q ? q : 1;
  // WARPTLM_TEST_FAULT=quantum_loads_at_issue (test-only): the loads read at issue while the stores wait, so a
  // thread's load misses its own store of the quantum (the quantum's store-then-load test must see it).
  writes_.set_defer_loads(quantum_ > 1 && !test_fault("quantum_loads_at_issue"));
}

uint64_t Sm::shared_step() {
  if (clock_out_) *clock_out_ = cycle_;  // the launch's clock, for blocks that run outside an SM (%clock)
  // The edge's global memory effects, in SM order. With sim.quantum the quantum's wait for its last edge,
  // where the platform has every SM's go in SM order (on_effects_held); an SM left without blocks lets its
  // own go at once.
  if (!writes_.empty()) {
    if (quantum_ == 1 || own_.idle || !own_.has_blocks) writes_.commit();
    else if (on_effects_held) on_effects_held(cycle_ - cycle_ % quantum_ + quantum_ - 1);
  }
  for (; own_.retired; --own_.retired)
    if (on_block_done) on_block_done(*this);
  const bool inputs = !arriving_.empty() || !responses_in_.empty() || !fills_in_.empty();
  if (own_.idle) return inputs ? cycle_ + 1 : kNever;  // a block sent this cycle starts at the next edge
  const bool progress = (private_ports_ ? send_shared_requests() : send_requests()) | own_.progress | inputs;
  if (!own_.has_blocks) return inputs ? cycle_ + 1 : kNever;
  // Sleep until the next cycle something can change.
  if (progress) return cycle_ + 1;
  const uint64_t next = std::min(next_request_cycle(), own_.next);
  return next == UINT64_MAX ? kNever : next;  // kNever: waiting on memory
}

// The next cycle the SM's own state changes by itself: a completion, a fetch, a
// unit or collector freeing (the own part computes it, so the state stays in
// the cache of the thread that runs it).
uint64_t Sm::own_next_change() const {
  uint64_t next = UINT64_MAX;
  if (!completions_.empty()) next = std::min(next, std::max(completions_.top().cycle, cycle_ + 1));
  if (fetches_pending_) next = std::min(next, earliest_fetch_);
  for (auto& units : unit_busy_)
    for (uint64_t b : units)
      if (b > cycle_) next = std::min(next, b);
  for (auto& cus : collector_free_)  // an instruction may issue the cycle before its collector unit frees
    for (uint64_t f : cus)
      if (f > cycle_ + 1) next = std::min(next, f - 1);
  return next;
}

void Sm::writeback() {
  uint32_t ports = p_.writeback_ports ? p_.writeback_ports : UINT32_MAX, n = 0;
  while (!completions_.empty() && completions_.top().cycle <= cycle_ && n < ports) {
    Completion c = completions_.top();
    completions_.pop();
    release(slots_[c.slot], *c.in, c.long_latency);
    ++n;
  }
}

void Sm::release(WarpSlot& w, const Instr& in, bool long_latency) {
  for (unsigned i = 0; i < in.nwrites; ++i) {
    --w.pending[in.writes[i]];
    if (long_latency) --w.pending_long[in.writes[i]];
  }
  --w.inflight;
  set_blocked(w, Stall::Issued);
  if (w.ready_to_free()) retire_warp(w);
}

Stall Sm::set_blocked(WarpSlot& w, Stall s) {
  if (w.blocked == s) return s;
  const uint32_t sid = w.slot % p_.num_schedulers;
  if (w.blocked == Stall::Issued) --ready_[sid]; else --blocked_[sid][size_t(w.blocked)];
  if (s == Stall::Issued) ++ready_[sid]; else ++blocked_[sid][size_t(s)];
  w.blocked = s;
  unrecorded_[w.slot] = s == Stall::Issued && !w.exited;
  return s;
}

// A warp whose next instruction is a memory one with its registers ready, stopped only by a full LD/ST
// queue: its stall is recorded (the scheduler passes over it) until a request leaves the queue, since nothing
// else can change the answer before (its registers only free, its buffer holds the instruction).
Stall Sm::wait_for_queue(WarpSlot& w) {
  if (!w.waits_for_queue) {
    w.waits_for_queue = true;
    queue_waiters_.push_back(&w);
  }
  return set_blocked(w, Stall::Structural);
}

// A request left the LD/ST queue: the warps that waited for room are looked at again.
void Sm::queue_has_room() {
  for (WarpSlot* w : queue_waiters_) {
    w->waits_for_queue = false;
    if (w->blocked == Stall::Structural) set_blocked(*w, Stall::Issued);
  }
  queue_waiters_.clear();
}

void Sm::probe_issue(uint32_t sid, Stall outcome, const WarpSlot* issued) {
  if (!sched_probes_on_) return;  // no scheduler probe traced (their values are for the waveform only)
  SchedProbes& p = sched_probes_[sid];
  p.outcome.set(uint64_t(outcome));
  p.issued_warp.set(issued ? issued->slot : 255);
  p.pc.set(issued ? issued_pc_ : kNoPc);
  p.active_mask.set(issued ? issued_mask_ : 0);
  if (outcome == Stall::Issued) p.issue_cycles.set(++p.issue_count);
}

static WarpState state_of(Stall r) {
  switch (r) {
    case Stall::Issued: return WarpState::Ready;
    case Stall::LongMem: return WarpState::LongMem;
    case Stall::Data: return WarpState::Data;
    case Stall::Fetch: return WarpState::Fetch;
    case Stall::Barrier: return WarpState::Barrier;
    case Stall::NoWarp: return WarpState::Done;
    default: return WarpState::Other;
  }
}

// One look down this cycle's order: issues up to issue_width warps and keeps
// the highest-ranked reason of those that could not.
uint32_t Sm::issue_in_order(WarpScheduler& s, Stall& why, WarpSlot*& first_issued) {
  uint32_t issued = 0;
  // A warp whose stall is recorded cannot issue (check() answers its record). When nothing else
  // looks at it (no out-of-order issue, warp limit or filter, an ordering that ignores stalls, its
  // state untraced), the look ends once every warp without a record has been considered, and the
  // records rank by their counts: the same outcome, without visiting every stalled warp.
  const bool skip_recorded = !has_ooo_ && !warp_states_traced_ && warp_limit_age_ == UINT64_MAX &&
                             !s.has_filters() && !s.ordering().watches_stalls();
  // warps without a record not yet considered (an exited warp would find itself done: NoWarp, which
  // ranks last, so passing over it changes nothing)
  uint32_t unseen = ready_[s.id()] - exited_[s.id()];
  // An ordering that selects (an issue-selection circuit) is asked for one warp at a time among the
  // candidates: the warps without a recorded stall when those are skipped, else all; each warp it gives is
  // taken out. Otherwise the cycle's order is walked.
  const bool selects = s.ordering().selects();
  uint64_t candidates = selects ? candidate_mask(s, skip_recorded) : 0;
  for (size_t k = 0;; ++k) {
    WarpSlot* w;
    if (selects) {
      if (!candidates || !(w = s.ordering().select(s.warps(), candidates))) break;
      candidates &= ~(uint64_t(1) << (w->slot / p_.num_schedulers));
    } else {
      if (k == walk_->size()) break;
      w = (*walk_)[k];
    }
    if (skip_recorded) {
      if (unseen == 0) break;
      if (!unrecorded_[size_t(w - slots_.data())]) continue;  // stalled as recorded, or retired this cycle
      --unseen;
    }
    if (!w->resident) continue;  // retired earlier this cycle (an exit at decode), before a second look
    const Instr* in = nullptr;
    uint32_t unit = 0;
    const Stall r = check(s, *w, in, unit);
    warp_state_[w->slot].set(uint64_t(state_of(r)));
    if (r == Stall::Issued) {
      if (exits_at_decode(*in)) {
        execute(*w, *in, unit, false);  // the warp leaves at its instruction buffer; the slot stays free
        exited_at_decode_ = true;
        continue;
      }
      if (!first_issued) {
        first_issued = w;
        issued_pc_ = in->pc;
        issued_mask_ = w->fw->active_mask();
      }
      execute(*w, *in, unit, true);
      s.ordering().issued(w);
      if (p_.dual_issue) issue_second(s, *w);
      if (++issued >= p_.issue_width) break;
      continue;
    }
    w->last_stall = r;
    if (s.ordering().stalled(w, r)) ordering_changed_ = true;
    if (stall_rank(r) < stall_rank(why)) why = r;
  }
  if (skip_recorded && !issued) why = worst_recorded_stall(s.id(), why);
  return issued;
}

// This cycle's order of scheduler `s`'s warps: the list made the last time, while neither the ordering (its
// order_version) nor the scheduler's warps changed since, else a new one.
const std::vector<WarpSlot*>& Sm::order_now(WarpScheduler& s) {
  const uint32_t sid = s.id();
  const uint64_t v = s.ordering().order_version();
  auto& seen = order_seen_[sid];
  if (v == WarpOrdering::kEveryCycle || v != seen.first || s.warps_version() != seen.second) {
    s.ordering().order(s.warps(), orders_[sid]);
    seen = {v, s.warps_version()};
  }
  return orders_[sid];
}

// The warps of scheduler `s` an issue-selection circuit chooses among, as a mask over the scheduler's slots:
// every resident warp, or with `unrecorded_only` those without a recorded stall.
uint64_t Sm::candidate_mask(WarpScheduler& s, bool unrecorded_only) const {
  uint64_t m = 0;
  for (const WarpSlot* w : s.warps())
    if (!unrecorded_only || unrecorded_[w->slot]) m |= uint64_t(1) << (w->slot / p_.num_schedulers);
  return m;
}

// The highest-ranked of `why` and the stalls recorded for the scheduler's warps.
Stall Sm::worst_recorded_stall(uint32_t sid, Stall why) const {
  for (size_t r = 0; r < size_t(Stall::Count); ++r)
    if (blocked_[sid][r] && stall_rank(Stall(r)) < stall_rank(why)) why = Stall(r);
  return why;
}

// Dual issue (sm.dual_issue; Kepler's second dispatch unit, spec 004 sec. 1.3 and 2.4): the warp's next
// instruction in program order issues in the same cycle when the warp could issue it now. The scoreboard
// already holds the first instruction's destinations, so a second that reads or writes one of them waits
// (independence); a taken branch or a reconvergence emptied the buffer (fetch); the unit the first took is
// busy, so the second needs another. An exit retired at decode is left for the next cycle.
bool Sm::issue_second(WarpScheduler& s, WarpSlot& w) {
  if (!w.resident || w.fw->done) return false;
  const Instr* in = nullptr;
  uint32_t unit = 0;
  checking_second_ = true;
  const Stall r = check(s, w, in, unit);
  checking_second_ = false;
  if (r != Stall::Issued || exits_at_decode(*in)) return false;
  execute(w, *in, unit, true);
  ++*dual_issues_;
  return true;
}

uint32_t Sm::issue(WarpScheduler& s) {
  const uint32_t sid = s.id();
  if (s.warps().empty()) {
    ++*stall_[sid][size_t(Stall::NoWarp)];
    last_reason_[sid] = Stall::NoWarp;
    probe_issue(sid, Stall::NoWarp, nullptr);
    return 0;
  }
  if (ready_[sid] == 0 && !has_ooo_) {
    // Every warp waits on its registers or its fetch, as already recorded.
    const Stall why = worst_recorded_stall(sid, Stall::NoWarp);
    ++*stall_[sid][size_t(why)];
    last_reason_[sid] = why;
    probe_issue(sid, why, nullptr);
    return 0;
  }
  if (!s.ordering().selects()) walk_ = &order_now(s);
  Stall why = Stall::NoWarp;
  WarpSlot* first_issued = nullptr;
  s.take_soft_refusal();
  uint32_t issued = issue_in_order(s, why, first_issued);
  if (!issued && s.take_soft_refusal()) {  // nothing issued and a soft filter held a warp back: look again without it
    s.yield_soft_filters(true);
    issued = issue_in_order(s, why, first_issued);
    s.yield_soft_filters(false);
  }
  if (!issued && has_ooo_) {  // no warp issued in order: out-of-order issue may act on the scheduler's idle cycle
    idle_pass_ = true;
    issued = issue_in_order(s, why, first_issued);
    idle_pass_ = false;
  }
  Stall outcome = issued ? Stall::Issued : why;
  ++*stall_[sid][size_t(outcome)];
  last_reason_[sid] = outcome;
  probe_issue(sid, outcome, first_issued);
  return issued;
}

Stall Sm::check_next_instruction(WarpSlot& w, const Instr*& in, uint32_t& unit) {
  Warp& f = *w.fw;
  if (f.done) return Stall::NoWarp;
  if (f.at_barrier) return Stall::Barrier;
  if (w.queue_blocked_at == f.insts.warp + 1 && !has_ooo_ && gq_.size() >= p_.ldst_queue) return wait_for_queue(w);
  if (p_.strict_barrel && w.in_pipe) return set_blocked(w, Stall::Data);  // its last instruction is still in the pipeline
  const uint32_t pc = f.pc();
  if (w.ibuf_count == 0 || w.ibuf_pc != pc) return set_blocked(w, Stall::Fetch);
  in = &f.kernel.prog[pc];
  if (has_ooo_)
    for (SmMechanism* m : ooo_) {
      if (!m->active()) continue;
      const Instr* with = nullptr;
      const SmMechanism::Replay r = m->replay(w, *in, &with);
      if (r == SmMechanism::Replay::Skip) {
        // Its result is in place: the warp moves past it with no issue slot, and the fetch stage does not
        // fetch it (spec 004 sec. 3.8, Fig. 5.8): the buffer's window slides on by one, as full as it was.
        m->replayed(w);
        const StepStatus st = step_in_place_of(f, *launch_, nullptr);
        if (st == StepStatus::Exited)  // hints never include an exit: a mechanism that skips one is broken
          throw RunError("SM " + std::to_string(id_) + ": a mechanism's replay skipped the last instruction of block " +
                         std::to_string(w.block->linear_id) + "/warp " + std::to_string(f.index));
        if (f.pc() == pc + 1) {
          ++w.ibuf_pc;
        } else {  // the skip left a SIMT entry: the buffer no longer holds the next instruction
          w.ibuf_count = 0;
          set_needs_fetch(w, true);
        }
        return check_next_instruction(w, in, unit);
      }
      if (r == SmMechanism::Replay::Replace) {
        in = with;
        w.issue_kind = WarpSlot::IssueKind::Replace;
        ooo_mech_ = m;
      }
      break;
    }
  bool data = false, mem = false;
  for (unsigned i = 0; i < in->nreads; ++i)
    if (w.pending[in->reads[i]]) (w.pending_long[in->reads[i]] ? mem : data) = true;
  for (unsigned i = 0; i < in->nwrites; ++i)
    if (w.pending[in->writes[i]]) (w.pending_long[in->writes[i]] ? mem : data) = true;
  if ((data || mem) && !(checking_second_ && dual_fault_)) {
    if (data) return set_blocked(w, Stall::Data);
    return set_blocked(w, Stall::LongMem);
  }
  if (has_ooo_ && w.ran_out_of_order) {  // its buffer held the out-of-order instructions: fetch the in-order one again
    w.ran_out_of_order = false;
    w.ibuf_count = 0;
    set_needs_fetch(w, true);
    w.issue_kind = WarpSlot::IssueKind::InOrder;
    return set_blocked(w, Stall::Fetch);
  }
  if (exits_at_decode(*in)) return Stall::Issued;  // needs no functional unit
  const auto [cls, kind] = issue_class_of(*in);
  if (cls == OpClass::Mem && gq_.size() >= p_.ldst_queue) {  // requests still waiting to leave
    w.queue_blocked_at = f.insts.warp + 1;
    return has_ooo_ ? Stall::Structural : wait_for_queue(w);
  }
  if (!can_take_unit(w, kind, unit)) return Stall::Structural;
  // A mechanism's issue gate: else retry next cycle.
  if (cls == OpClass::Mem && !memory_gates_open(f, *in)) return Stall::Other;
  return Stall::Issued;
}

void Sm::decode_issue_classes(const KernelInfo* k) {
  issue_class_.clear();
  prog_base_ = 0;
  if (!k || k->prog.empty()) return;
  prog_base_ = uintptr_t(k->prog.data());
  issue_class_.reserve(k->prog.size());
  for (const Instr& in : k->prog) {
    const OpClass c = op_class_of(in);
    issue_class_.push_back({c, p_.unit_kind(in, c)});
  }
}

// Without an operand collector: a free functional unit of `kind` the warp's scheduler may use (`unit`).
bool Sm::free_unit_for(const WarpSlot& w, UnitKind kind, uint32_t& unit) const {
  const auto& units = unit_busy_[size_t(kind)];
  const auto& owner = unit_owner_[size_t(kind)];
  const uint32_t sched = w.slot % p_.num_schedulers;
  for (uint32_t u = 0; u < units.size(); ++u)
    if (units[u] <= cycle_ && (owner[u] == kAnyScheduler || owner[u] == sched)) {
      unit = u;
      return true;
    }
  return false;
}

// Every active mechanism's issue gate for a memory instruction (Mechanism::may_issue_memory).
bool Sm::memory_gates_open(const Warp& f, const Instr& in) {
  for (auto& m : mechs_)
    if (m->active() && !m->may_issue_memory(f, in)) return false;
  return true;
}

Stall Sm::check_with_out_of_order(WarpSlot& w, const Instr*& in, uint32_t& unit) {
  w.issue_kind = WarpSlot::IssueKind::InOrder;
  if (w.blocked != Stall::Issued) return w.blocked == Stall::LongMem ? check_out_of_order(w, in, unit) : w.blocked;
  const Stall r = check_next_instruction(w, in, unit);
  return r == Stall::LongMem ? check_out_of_order(w, in, unit) : r;
}

Stall Sm::check_out_of_order(WarpSlot& w, const Instr*& in, uint32_t& unit) {
  if (!w.resident || w.fw->done || w.fw->at_barrier) return Stall::LongMem;
  for (SmMechanism* m : ooo_) {
    if (!m->active()) continue;
    const Instr* a = m->instead_of_stall(w, idle_pass_);
    if (!a) continue;
    // Its sources must be written (RAW: the scoreboard); WAR and WAW are the mechanism's to prevent
    // (docs/mechanisms.md, the out-of-order hooks).
    for (unsigned i = 0; i < a->nreads; ++i)
      if (w.pending[a->reads[i]]) return Stall::LongMem;
    const auto [cls, kind] = issue_class_of(*a);
    // the gates apply to memory instructions issued out of order too
    if (cls == OpClass::Mem && (gq_.size() >= p_.ldst_queue || !memory_gates_open(*w.fw, *a))) return Stall::LongMem;
    if (!can_take_unit(w, kind, unit)) return Stall::LongMem;
    in = a;
    w.issue_kind = WarpSlot::IssueKind::OutOfOrder;
    ooo_mech_ = m;
    return Stall::Issued;
  }
  return Stall::LongMem;
}

// ---------------------------------------------------------------- operand collector

// One read of `bank` at the earliest cycle from `earliest` on that no earlier
// instruction holds (banks serve reads in issue order, one per cycle). The
// booking window starts at this cycle (collect_operands moved it here).
uint64_t Sm::reserve_bank_read(uint32_t bank, uint64_t earliest) {
  const uint64_t off = earliest - bank_base_;
  if (off >= 64) return earliest;  // beyond the booking window: never reached by reads issued a few cycles apart
  const uint64_t open = ~bank_window(bank) & (~uint64_t(0) << off);
  if (!open) return bank_base_ + 64;
  const unsigned c = unsigned(__builtin_ctzll(open));
  book_bank(bank, c);
  return bank_base_ + c;
}

// The first cycle from `earliest` on at which unit u of `kind` may take an instruction (`earliest` itself when
// the booking span ends first). With sm.result_buses (GPGPU-Sim's pipelined units and result buses,
// shader_core_ctx::execute; `done_after` > 0) its result, written done_after later, must find a result bus
// free and no earlier instruction of u completing that same cycle; with sm.collector_ports a dispatch port of
// its collector group must be free the cycle before (opndcoll_rfu_t::dispatch_ready_cu).
inline uint64_t Sm::first_free_start(UnitKind kind, size_t u, uint64_t earliest, uint64_t done_after) const {
  const auto& out_ports = collector_out_[size_t(p_.collector_group(kind))];
  const uint64_t end = cycle_ + CycleBook::kSpan;  // the books reach that far
  for (uint64_t s = earliest; s + done_after < end; ++s) {
    if (!out_ports.empty() && !out_ports.free_at(s - 1)) continue;
    if (!done_after) return s;
    const uint64_t done = s + done_after;
    if (!completion_books_[size_t(kind)][u].booked(done) && result_buses_.free_at(done)) return s;
  }
  return earliest;
}

inline void Sm::book_completion(UnitKind kind, size_t u, uint64_t done) {
  if (done >= cycle_ + CycleBook::kSpan) return;
  completion_books_[size_t(kind)][u].book(done);
  result_buses_.book_one(done);
}

// The result's write takes each destination register's bank in the cycle it is written (GPGPU-Sim's
// register-file writes win their banks over reads, opndcoll_rfu_t::writeback): reads booked later avoid it.
inline void Sm::book_register_writes(const WarpSlot& w, const Instr& in, uint64_t done) {
  const uint64_t off = done - bank_base_;
  if (off >= 64) return;
  for (unsigned i = 0; i < in.nwrites; ++i) book_bank(bank_of(in.writes[i], w.slot), off);
}

// The instruction issued this cycle (t) waits in the issue-to-collector
// register and takes a collector unit of its group at t + 1, which asks the
// banks; each distinct source register is read from bank (register + warp
// slot) mod banks from t + 2 on; the cycle after its last read it is
// dispatched to the collector-to-unit register, freeing the collector unit,
// and its functional unit takes it the cycle after, or when one of its kind is
// free (the collector unit is held until the register ahead of it empties).
// Returns the cycle the functional unit takes it.
uint64_t Sm::collect_operands(const WarpSlot& w, const Instr& in, UnitKind kind, uint64_t occupancy, uint64_t done_after,
                                  uint32_t& unit) {
  if (cycle_ > bank_base_) {  // slide the booking window to this cycle; its words follow 64 cycles at a time
    bank_base_ = cycle_;
    const uint64_t shift = bank_base_ - bank_store_;
    if (shift >= 64) {
      for (auto& b : bank_bits_) b = {shift >= 128 ? 0 : b[1] >> (shift - 64), 0};
      bank_store_ = bank_base_;
    }
  }
  uint64_t last = cycle_ + 1;
  for (unsigned i = 0; i < in.nreads; ++i) {
    const uint32_t r = in.reads[i];
    bool again = false;
    for (unsigned j = 0; j < i && !again; ++j) again = in.reads[j] == r;
    if (again) continue;
    const uint64_t c = reserve_bank_read(bank_of(r, w.slot), cycle_ + 2);
    *oc_conflicts_ += c - (cycle_ + 2);
    ++*oc_reads_;
    last = std::max(last, c);
  }
  const CollectorGroup g = p_.collector_group(kind);
  auto& units = unit_busy_[size_t(kind)];
  // the units the warp's scheduler may use: every one, or with private units (sm.sub_cores) its own and the shared
  const auto& owner = unit_owner_[size_t(kind)];
  const uint32_t sched = w.slot % p_.num_schedulers;
  auto may_use = [&](size_t v) { return owner[v] == kAnyScheduler || owner[v] == sched; };
  size_t u = units.size();
  for (size_t v = 0; v < units.size(); ++v)  // the first unit free soonest
    if (may_use(v) && (u == units.size() || units[v] < units[u])) u = v;
  uint64_t start = std::max(last + 2, units[u]);
  const bool books_result = !result_buses_.empty() && kind != UnitKind::LDST;
  auto& out_ports = collector_out_[size_t(g)];
  if (books_result || !out_ports.empty()) {  // the first cycle a unit, its writeback and a dispatch port are free
    start = UINT64_MAX;
    for (size_t v = 0; v < units.size() && start > last + 2; ++v) {  // none starts before last + 2
      if (!may_use(v)) continue;
      const uint64_t s = first_free_start(kind, v, std::max(last + 2, units[v]), books_result ? done_after : 0);
      if (s < start) start = s, u = v;
    }
    if (books_result) {
      book_completion(kind, u, start + done_after);
      book_register_writes(w, in, start + done_after);
    }
    if (start - 1 < cycle_ + CycleBook::kSpan) out_ports.book_one(start - 1);
  }
  if (p_.collector_ports[size_t(g)]) {  // one of the group's ports took it into its collector unit this cycle
    if (port_in_cycle_ != cycle_) port_in_cycle_ = cycle_, port_in_used_.fill(0);
    ++port_in_used_[size_t(g)];
  }
  units[u] = start + occupancy;
  unit = uint32_t(u);
  *free_collector(g, w.slot) = start - 1;  // check() found one free
  return start;
}

// sm.ldst_occupancy: accesses. The LD/ST unit takes one access of the
// instruction it holds per cycle (GPGPU-Sim's dispatch register: one request
// per cycle toward the L1, a bank-conflicted shared access held for its
// conflict cycles), so the unit that took it at `start` is busy for at least
// `accesses` cycles and the next memory instruction, of any space, waits in
// its collector unit.
void Sm::hold_ldst_unit(uint32_t unit, uint64_t start, uint32_t accesses) {
  uint64_t& busy = unit_busy_[size_t(UnitKind::LDST)][unit];
  busy = std::max(busy, start + accesses);
}

void Sm::execute(WarpSlot& w, const Instr& in, uint32_t unit, bool on_unit) {
  Warp& f = *w.fw;
  const auto [cls, kind] = issue_class_of(in);
  const uint32_t groups = on_unit ? unit_groups_[size_t(kind)][unit] : lane_groups(p_.units[size_t(kind)].lanes);
  const OpClassParams& op = p_.ops[size_t(cls)];
  // the cycle the functional unit takes it: now, or after the operand collector
  uint64_t start = cycle_;
  if (on_unit) {
    if (p_.regfile_banks) start = collect_operands(w, in, kind, uint64_t(groups) * op.ii, result_after(kind, op, groups), unit);
    else unit_busy_[size_t(kind)][unit] = cycle_ + uint64_t(groups) * op.ii;
    if (unit_busy_cycles_[size_t(kind)]) *unit_busy_cycles_[size_t(kind)] += uint64_t(groups) * op.ii;
  }
  const uint32_t pc_before = f.pc();
  const uint32_t active = f.active_mask();
  f.addr_mask = 0;
  for (auto& m : mechs_)
    if (m->active()) m->at_issue(w, in, active);
  if (on_issue) on_issue(cycle_, w.block->linear_id, f.index, in.pc);
  const InstructionCounts before = f.insts;
  const uint64_t held_before = writes_.register_writes_logged();
  // Execute at issue: registers and memory change now (global memory at the edge's or quantum's end).
  const WarpSlot::IssueKind kind_of_issue = has_ooo_ ? w.issue_kind : WarpSlot::IssueKind::InOrder;
  if (has_ooo_) w.issue_kind = WarpSlot::IssueKind::InOrder;
  StepStatus st = StepStatus::Ok;
  if (kind_of_issue == WarpSlot::IssueKind::OutOfOrder) {
    execute_detached(f, *launch_, in);  // off the program order: the pc and the SIMT stack stay
    w.ran_out_of_order = true;
    ooo_mech_->issued_out_of_order(w, in);
  } else if (kind_of_issue == WarpSlot::IssueKind::Replace) {
    st = step_in_place_of(f, *launch_, &in);
    ooo_mech_->replayed(w);
  } else {
    st = step(f, *launch_);
  }
  if (in.is_mem && f.addr_mask)
    for (auto& m : mechs_)
      if (m->active()) m->memory_executed(f, in);
  ++*warp_insts_;
  *thread_insts_ += f.insts.thread - before.thread;
  *lane_insts_ += f.insts.lane - before.lane;
  // The buffer holds sequential instructions; a redirect flushes it. An out-of-order instruction came from
  // outside it (the in-order one stays buffered).
  if (kind_of_issue != WarpSlot::IssueKind::OutOfOrder) {
    if (f.done || f.pc() != pc_before + 1) w.ibuf_count = 0;
    else { ++w.ibuf_pc; --w.ibuf_count; }
  }
  if (w.ibuf_count == 0 && !f.done) set_needs_fetch(w, true);
  if (p_.inorder) {
    enter_pipeline(w, in);
  } else if (in.is_mem && f.addr_mask) {
    held_results_ = writes_.register_writes_logged() != held_before;
    const uint32_t accesses = send_memory(w, in, start + (op.latency - 1) + (groups - 1));
    held_results_ = false;
    if (on_unit && p_.ldst_per_access) hold_ldst_unit(unit, start, accesses);
  } else if (in.nwrites) {
    for (unsigned i = 0; i < in.nwrites; ++i) ++w.pending[in.writes[i]];
    ++w.inflight;
    completions_.push(Completion{start + result_after(kind, op, groups), seq_++, w.slot, &in, false});
  }
  // Progress, for the run's watchdog: a write to memory, a barrier arrival or an exit.
  if (st == StepStatus::Exited || in.op == Op::Bar || in.op == Op::BarArrive || in.op == Op::BarRed ||
      ((in.op == Op::St || in.op == Op::Atom || in.op == Op::Red) && f.addr_mask))
    ++progress_;
  if (st == StepStatus::Exited) {
    w.block->warp_exited();
    for (auto& m : mechs_)
      if (m->active()) m->warp_exited(w);
    if (p_.warp_limit) update_warp_limit();
    if (w.ready_to_free()) retire_warp(w);
    else mark_exited(w);
  }
}

// The warp ran its exit but still waits for results: it stays resident, and
// the issue look passes over it (it would find it done).
void Sm::mark_exited(WarpSlot& w) {
  w.exited = true;
  unrecorded_[w.slot] = 0;
  ++exited_[w.slot % p_.num_schedulers];
}

// ---------------------------------------------------------------- front end

void Sm::complete_fetches() {
  if (!fetches_pending_ || cycle_ < earliest_fetch_) return;
  uint64_t earliest = UINT64_MAX;
  for_each_fetching([&](WarpSlot& w) {
    if (w.fetch_ready > cycle_) {
      earliest = std::min(earliest, w.fetch_ready);
      return;
    }
    set_fetch_pending(w, false);
    w.ibuf_pc = w.fetch_pc;
    w.ibuf_count = p_.ibuffer_entries;
    set_blocked(w, Stall::Issued);
  });
  earliest_fetch_ = earliest;
}

uint64_t Sm::earliest_pending_fetch() {
  uint64_t earliest = UINT64_MAX;
  for_each_fetching([&](const WarpSlot& w) { earliest = std::min(earliest, w.fetch_ready); });
  return earliest;
}

uint32_t Sm::start_fetches() {
  if (p_.fetch_per_scheduler) {
    uint32_t fetched = 0;
    for (uint32_t s = 0; s < p_.num_schedulers; ++s) fetched += fetch_from_pool(s);
    return fetched;
  }
  // Round robin over the warps with an empty buffer, starting after the one served last.
  // A refused fetch spends its slot of the fetch stage (started) but fetches nothing.
  uint32_t started = 0, fetched = 0;
  const uint32_t n = uint32_t(slots_.size()), words = uint32_t(needs_fetch_.size());
  uint32_t from = fetch_rr_;
  for (uint32_t pass = 0; pass < 2 && started < p_.fetch_warps_per_cycle; ++pass) {
    const uint32_t lo = pass == 0 ? from : 0, hi = pass == 0 ? n : from;
    for (uint32_t wd = lo >> 6; wd < words && started < p_.fetch_warps_per_cycle; ++wd) {
      uint64_t bits = needs_fetch_[wd];
      if (wd == (lo >> 6)) bits &= ~uint64_t(0) << (lo & 63);
      while (bits && started < p_.fetch_warps_per_cycle) {
        const uint32_t i = wd * 64 + uint32_t(__builtin_ctzll(bits));
        bits &= bits - 1;
        if (i >= hi) { wd = words; break; }
        fetch_rr_ = (i + 1 == n) ? 0 : i + 1;
        ++started;
        fetched += begin_fetch(slots_[i]);
      }
    }
  }
  return fetched;
}

// sm.fetch_scope: scheduler (spec 004 sec. 2.5): each warp pool's fetch stage serves
// sm.fetch_warps_per_cycle of its own warps (slots s, s + N, ...) with an empty buffer, round robin
// from the one after the warp it served last.
uint32_t Sm::fetch_from_pool(uint32_t sched) {
  const uint32_t N = p_.num_schedulers, n = uint32_t(slots_.size());
  if (sched >= n) return 0;
  const uint32_t m = (n - sched + N - 1) / N;  // slots in the pool
  uint32_t& rr = pool_fetch_rr_[sched];
  const uint32_t from = rr;
  uint32_t started = 0, fetched = 0;
  for (uint32_t j = 0; j < m && started < p_.fetch_warps_per_cycle; ++j) {
    const uint32_t k = (from + j) % m, i = sched + k * N;
    if (!((needs_fetch_[i >> 6] >> (i & 63)) & 1)) continue;
    rr = (k + 1) % m;  // the next look starts after this warp
    ++started;
    fetched += begin_fetch(slots_[i]);
  }
  return fetched;
}

// The fetch stage serves warp `w` (its buffer is empty): the instruction cache answers, or refuses
// (the fetch slot is spent, the warp tries again). True when a fetch is now in flight.
bool Sm::begin_fetch(WarpSlot& w) {
  const uint32_t pc = w.fw->stack.back().pc;
  uint64_t ready = cycle_ + p_.icache_hit_latency;
  if (icache_ && !fetch_from_icache(w, pc, ready)) return false;
  set_fetch_pending(w, true);
  w.fetch_ready = ready;
  earliest_fetch_ = std::min(earliest_fetch_, ready);
  w.fetch_pc = pc;
  w.ibuf_count = 0;
  set_needs_fetch(w, false);
  return true;
}

// Timing address of instruction `pc`: in the kernel's place in instruction
// memory when fills come from memory; else the tag array's own numbering.
uint64_t Sm::fetch_address(const WarpSlot& w, uint32_t pc) const {
  if (p_.icache_fill.from_memory) return launch_->code_address + uint64_t(pc) * 8;
  return (uint64_t(w.block->kernel.uid) << 32) | (uint64_t(pc) * 8);
}

void Sm::warm_front_end(const KernelInfo& k, const LaunchState& L, const std::function<void(uint64_t, uint32_t)>& below) {
  if (icache_) {
    const uint64_t base = p_.icache_fill.from_memory ? L.code_address : uint64_t(k.uid) << 32;
    for (uint64_t a = icache_->line_address(base); a < base + uint64_t(k.prog.size()) * 8; a += p_.icache_line)
      if (icache_->warm(a) && p_.icache_fill.from_memory) below(a, p_.icache_line);
  }
  if (ccache_ && p_.params_in_ccache)
    for (uint64_t a = ccache_->line_address(L.param_address); a < L.param_address + L.params.size(); a += p_.ccache_line)
      if (ccache_->warm(a) && p_.ccache_fill.from_memory) below(a, p_.ccache_line);
}

// The instruction cache's answer to a fetch: false if refused (reservation
// fail); else `ready` becomes the cycle the instructions are in the buffer
// (a hit leaves the hit-latency cycle it holds), UINT64_MAX while the warp
// waits for its line's fill.
bool Sm::fetch_from_icache(WarpSlot& w, uint32_t pc, uint64_t& ready) {
  const uint64_t addr = fetch_address(w, pc);
  switch (icache_->access(addr)) {
    case ReadOnlyCache::Lookup::Hit:
      ++*icache_stats_.hits;
      return true;
    case ReadOnlyCache::Lookup::Miss:
      ++*icache_stats_.misses;
      if (!icache_->fills_from_memory()) {
        ready = cycle_ + p_.icache_miss_latency;
        return true;
      }
      request_fill(icache_->line_address(addr), p_.icache_line, false, cycle_);
      break;
    case ReadOnlyCache::Lookup::Pending:
      ++*icache_stats_.merged;
      break;
    case ReadOnlyCache::Lookup::ReservationFail:
      ++*icache_stats_.fails;
      return false;
  }
  w.fetch_line = icache_->line_address(addr);
  ready = UINT64_MAX;
  return true;
}

// A line of instructions came back: the warps waiting for it get their
// instructions hit_latency later, as many per cycle as the fetch stage serves.
void Sm::instruction_line_filled(uint64_t line) {
  if (!icache_ || !icache_->fill(line)) {
    throw RunError(std::string("memory conservation broken in ") + name() + ": an instruction line fill came back that no fetch asked for");  // told in SM order
  }
  uint32_t k = 0;
  for_each_fetching([&](WarpSlot& w) {
    if (!w.resident || w.fetch_ready != UINT64_MAX || w.fetch_line != line) return;
    w.fetch_ready = cycle_ + p_.icache_hit_latency + k / p_.fetch_warps_per_cycle;
    earliest_fetch_ = std::min(earliest_fetch_, w.fetch_ready);
    ++k;
  });
}

// ---------------------------------------------------------------- reports

void Sm::describe_warps(std::ostream& os, bool spinning) const {
  for (const WarpSlot& w : slots_) {
    if (!w.resident || w.fw->done) continue;
    const Warp& f = *w.fw;
    uint32_t pc = f.pc() == kNoPc ? 0 : f.pc();
    // a warp at a barrier has moved past it: name the barrier
    if (f.at_barrier && pc > 0 && (f.kernel.prog[pc - 1].op == Op::Bar || f.kernel.prog[pc - 1].op == Op::BarRed)) --pc;
    const Instr& in = f.kernel.prog[pc];
    // the recorded stall (a warp the fast issue look skips keeps it, not last_stall), unless an issue
    // gate held the warp when it was last considered; else the stall found then
    const Stall last = w.blocked != Stall::Issued && w.last_stall != Stall::Other ? w.blocked : w.last_stall;
    const char* now = w.blocked == Stall::LongMem || last == Stall::LongMem ? "waits on a memory request"
                      : last == Stall::Other                          ? "is held by an issue gate (a mechanism's lock or filter)"
                      : w.inflight                                            ? "waits on results in flight"
                                                                              : "is ready to issue";
    std::string what = f.at_barrier ? "waits at a barrier" : spinning ? std::string("spins without progress (now ") + now + ")" : now;
    os << "\n  sm" << id_ << "/block " << w.block->linear_id << "/warp " << f.index << " " << what << " at pc " << pc
       << ", " << f.kernel.origin << ":" << in.line << " `" << in.text << "`";
  }
}

}  // namespace warptlm

