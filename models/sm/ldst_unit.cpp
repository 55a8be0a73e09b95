// The SM's LD/ST unit: after address generation it classifies each warp
// memory instruction by state space and turns it into requests.
//   global, local:  coalesced into one request per line (with the mask of
//                   32-byte sectors the lanes touch) or per sector, toward the
//                   L1 data cache; local memory is laid out word-interleaved
//                   per lane, so a warp reading the same local word coalesces;
//   shared:         one request per warp instruction with the lanes'
//                   offsets, toward the banked shared memory (which finds the
//                   conflict degree);
//   call frames:    a device function's parameters and a call's arguments
//                   and results (ld/st.param outside the kernel's own
//                   parameters) are local memory with sm.call_params: local,
//                   as GPGPU-Sim places them; otherwise the parameter buffer;
//   const, param:   the constant cache (a tag array) answers a hit in its hit
//                   latency; a miss costs a fixed latency or (sm.ccache.fill:
//                   memory) waits for a line filled through the read-only
//                   port. Kernel parameters are read through it (sm.ccache.
//                   params) or from a parameter buffer in fixed time.
// Requests leave one per cycle per path and wait for END_REQ, so a full L1 or
// busy shared-memory banks back-pressure the unit. With sm.ldst_occupancy:
// accesses an instruction also holds the unit one cycle per access it makes
// (hold_ldst_unit in sm.cpp), so memory instructions of every space queue
// behind one another as in a unit with one dispatch register.
#include <algorithm>

#include "sm/coalescer.hpp"
#include "sm/sm.hpp"

namespace warptlm {

// Local memory in the timing model's address space: per SM, per warp slot,
// lane-interleaved 4-byte words (what the hardware does so that a warp's
// access to one local variable coalesces).
static constexpr uint64_t kLocalTimingBase = 0x0000F00000000000ull;

uint32_t Sm::alloc_memop(WarpSlot& w, const Instr& in, bool long_latency) {
  uint32_t mo;
  if (free_memops_.empty()) {
    mo = uint32_t(memops_.size());
    memops_.emplace_back();
  } else {
    mo = free_memops_.back();
    free_memops_.pop_back();
  }
  MemOp& m = memops_[mo];
  m.slot = w.slot;
  m.in = &in;
  m.remaining = 0;
  m.long_latency = long_latency;
  m.in_pipe = false;
  m.held_result = held_results_;
  m.replay_mark = writes_.commits();
  return mo;
}

tlm::tlm_generic_payload* Sm::new_request(WarpSlot& w, const Instr& in, uint32_t mo) {
  tlm::tlm_generic_payload* p = pool_.acquire();
  const bool store = in.op == Op::St;
  p->set_command(store ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  GpuExtension& e = gpu_ext(*p);
  e.sm = uint16_t(id_);
  e.warp = uint16_t(w.slot);
  e.block = w.block->linear_id;
  e.pc = in.pc;
  e.kind = store ? MemKind::Store : (in.op == Op::Atom || in.op == Op::Red) ? MemKind::Atomic : MemKind::Load;
  e.nc_load = (in.flags & F_NC) != 0;
  e.tag = mo;
  e.issue_cycle = cycle_;
  ++memops_[mo].remaining;
  ++*mem_requests_;
  return p;
}

uint32_t Sm::send_memory(WarpSlot& w, const Instr& in, uint64_t agen_done) {
  Warp& f = *w.fw;
  Space sp = f.addr_space;
  const uint32_t first = unsigned(__builtin_ctz(f.addr_mask));
  if (sp == Space::Generic) {
    const uint64_t a = f.addr[first];
    sp = in_shared_window(a) ? Space::Shared : in_local_window(a) ? Space::Local : Space::Global;
  }
  for (unsigned i = 0; i < in.nwrites; ++i) ++w.pending[in.writes[i]];
  ++w.inflight;
  // Address generation: requests leave (or the constant cache answers from)
  // the cycle it is done; sm.op.mem.latency 1 means the issue cycle itself.
  const uint64_t ready = agen_done;
  if (sp == Space::Const || sp == Space::Param || (sp == Space::ParamFunc && !p_.call_params_local)) {
    if (p_.ccache_fill.from_memory && (sp == Space::Const || (sp == Space::Param && p_.params_in_ccache))) {
      return read_constant_lines(w, in, sp, ready);
    }
    // Constant cache (tags only) and the parameter buffer: fixed time.
    uint32_t lat = p_.ccache_hit_latency;
    if (sp == Space::Const) {
      bool hit = true;
      for (uint32_t m = f.addr_mask; m; m &= m - 1)
        hit &= ccache_->access(f.addr[__builtin_ctz(m)]) == ReadOnlyCache::Lookup::Hit;
      if (hit) ++*ccache_stats_.hits;
      else { ++*ccache_stats_.misses; lat = p_.ccache_miss_latency; }
    }
    if (p_.inorder && lat == p_.ccache_hit_latency) {  // a hit (or the parameter buffer) answers inside the memory stages
      timing_in_pipe_ = true;
      return 1;
    }
    completions_.push(Completion{ready + lat, seq_++, w.slot, &in, false});
    return 1;
  }
  if (sp == Space::Shared) return send_shared(w, in, alloc_memop(w, in, false), ready);
  if (sp == Space::Cbv || sp == Space::Cbh) return send_cb(w, in, sp, alloc_memop(w, in, false), ready);
  for (unsigned i = 0; i < in.nwrites; ++i) ++w.pending_long[in.writes[i]];
  return coalesce_global(w, in, sp, alloc_memop(w, in, true), ready);
}

uint32_t Sm::coalesce_global(WarpSlot& w, const Instr& in, Space sp, uint32_t mo, uint64_t ready) {
  Warp& f = *w.fw;
  const uint32_t line_bytes = p_.mem_line;
  // A thread's local words: its local variables, then (sm.call_params: local) its call frame, placed in the
  // timing model's address space by Sm::place_local_memory (sm.local_layout).
  const uint32_t lb = f.kernel.local_bytes ? (f.kernel.local_bytes + 3) & ~3u : 4;
  const Space timing_space = sp == Space::ParamFunc ? Space::Local : sp;
  if (timing_space == Space::Global) {
    if (in.op == Op::Ld || in.op == Op::Ldu) *global_load_lanes_ += uint64_t(__builtin_popcount(f.addr_mask));
    else if (in.op == Op::St) *global_store_lanes_ += uint64_t(__builtin_popcount(f.addr_mask));
  }
  // A bypass policy of a mechanism (global loads only): hits served, misses pass below unallocated.
  // A side store of the L1 (global loads and stores).
  bool no_allocate = false, redirect = false;
  if (timing_space == Space::Global && (in.op == Op::Ld || in.op == Op::St))
    for (SmMechanism* m : l1_steering_)
      if (m->active()) {
        no_allocate |= in.op == Op::Ld && m->l1_no_allocate(w);
        redirect |= m->l1_redirect(w);
      }
  const uint64_t* addr = f.addr;
  uint64_t local[32];
  if (timing_space == Space::Local) {  // each thread's local words interleave with its warp's other lanes'
    for (uint32_t m = f.addr_mask; m; m &= m - 1) {
      const unsigned l = unsigned(__builtin_ctz(m));
      const uint64_t a = f.addr[l];
      const uint64_t off = sp == Space::ParamFunc ? lb + a : a >= kLocalWindow ? a - kLocalWindow : a;
      local[l] = kLocalTimingBase + w.local_base + (off / 4) * w.local_word_stride + l * 4 + off % 4;
    }
    addr = local;
  }
  CoalescedLines c;
  coalesce_lines(addr, f.addr_mask, f.addr_bytes, line_bytes, c);
  const uint64_t* lines = c.line;
  const uint32_t *sectors = c.sectors, *masks = c.lanes;
  const uint32_t n = c.n;
  uint8_t order[64];  // sm.line_order: address_down, the lines highest address first
  if (p_.lines_down) {
    for (uint32_t k = 0; k < n; ++k) order[k] = uint8_t(k);
    for (uint32_t k = 1; k < n; ++k)  // (insertion sort: a few lines, 32 at most for word accesses)
      for (uint32_t i = k; i > 0 && lines[order[i - 1]] < lines[order[i]]; --i) std::swap(order[i - 1], order[i]);
  }
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t j = p_.lines_down ? order[k] : k;
    if (!p_.coalesce_sectors) {
      tlm::tlm_generic_payload* p = new_request(w, in, mo);
      p->set_address(lines[j] * line_bytes);
      p->set_data_length(p_.store_segment && in.op == Op::St ? store_segment_bytes(sectors[j]) : line_bytes);
      GpuExtension& e = gpu_ext(*p);
      e.sector_mask = sectors[j];
      e.lane_mask = masks[j];
      e.space = uint8_t(timing_space);
      e.l1_no_allocate = no_allocate;
      e.l1_redirect = redirect;
      gq_.push(p, ready);
    } else {
      for (uint32_t s = sectors[j]; s;) {
        const uint32_t sec = p_.lines_down ? 31 - uint32_t(__builtin_clz(s)) : uint32_t(__builtin_ctz(s));
        s &= ~(1u << sec);
        tlm::tlm_generic_payload* p = new_request(w, in, mo);
        p->set_address(lines[j] * line_bytes + sec * 32);
        p->set_data_length(32);
        GpuExtension& e = gpu_ext(*p);
        e.sector_mask = 1u << sec;
        e.lane_mask = masks[j];
        e.space = uint8_t(timing_space);
        e.l1_no_allocate = no_allocate;
        e.l1_redirect = redirect;
        gq_.push(p, ready);
      }
    }
  }
  return memops_[mo].remaining;
}

uint32_t Sm::send_shared(WarpSlot& w, const Instr& in, uint32_t mo, uint64_t ready) {
  Warp& f = *w.fw;
  MemOp& m = memops_[mo];
  // the block's physical layout (identity unless a mechanism placed it: Sm::place_shared_memory)
  const SharedAddressMap& to_physical = w.block->shared_map;
  for (uint32_t k = f.addr_mask; k; k &= k - 1) {
    const unsigned l = unsigned(__builtin_ctz(k));
    const uint64_t a = f.addr[l];
    m.lanes[l] = in_shared_window(a) ? a - kSharedWindow : a;
    m.lanes[l] = to_physical(uint32_t(m.lanes[l]));
  }
  sq_.push(lane_request(w, in, mo, Space::Shared), ready);
  if (p_.inorder) {  // the pipeline holds MEM0 for each part's degree, and completes the instruction at WB
    m.in_pipe = true;
    timing_in_pipe_ = true;
    shared_sent_ = true;
    if (shared_service_cycles) shared_service_cycles(m.lanes, f.addr_mask, f.addr_bytes, part_degrees_);
    for (auto& x : mechs_)
      if (x->active()) x->shared_access_degrees(f, in, part_degrees_, p_.subwarps());
    return 1;
  }
  return p_.ldst_per_access && shared_service_cycles ? shared_service_cycles(m.lanes, f.addr_mask, f.addr_bytes, nullptr) : 1;
}

// A communication-buffer access (ld.cbv, st.cbv, ld.cbh, st.cbh): one request
// per warp instruction to the SM's CB port, which serves it as shared memory
// serves a shared access (banks, conflicts, latency). Its lanes carry byte
// offsets within the CB; the data moved at issue (the block's MeshPort).
uint32_t Sm::send_cb(WarpSlot& w, const Instr& in, Space sp, uint32_t mo, uint64_t ready) {
  const Warp& f = *w.fw;
  MemOp& m = memops_[mo];
  for (uint32_t k = f.addr_mask; k; k &= k - 1) {
    const unsigned l = unsigned(__builtin_ctz(k));
    m.lanes[l] = f.addr[l];
  }
  cq_.push(lane_request(w, in, mo, sp), ready);
  return 1;
}

// One request for a warp's access to a banked array (shared memory, a CB
// port): the per-lane offsets of memory op `mo`, its active lanes and width.
tlm::tlm_generic_payload* Sm::lane_request(WarpSlot& w, const Instr& in, uint32_t mo, Space sp) {
  const Warp& f = *w.fw;
  tlm::tlm_generic_payload* p = new_request(w, in, mo);
  uint64_t* lanes = memops_[mo].lanes;
  p->set_address(lanes[__builtin_ctz(f.addr_mask)]);
  p->set_data_length(f.addr_bytes * uint32_t(__builtin_popcount(f.addr_mask)));
  GpuExtension& e = gpu_ext(*p);
  e.lane_mask = f.addr_mask;
  e.lane_addr = lanes;
  e.access_bytes = f.addr_bytes;
  e.space = uint8_t(sp);
  return p;
}

// ---------------------------------------------------------------- constant cache filled from memory

// A constant or parameter load: one lookup per distinct line the lanes touch;
// the load completes hit_latency after its last line is present.
uint32_t Sm::read_constant_lines(WarpSlot& w, const Instr& in, Space sp, uint64_t ready) {
  Warp& f = *w.fw;
  const uint32_t mo = alloc_memop(w, in, false);
  uint64_t lines[32];
  uint32_t n = 0;
  uint64_t prev = 0;  // the previous lane's address (none before the first)
  for (uint32_t m = f.addr_mask; m; m &= m - 1) {
    const uint64_t a = f.addr[__builtin_ctz(m)];
    if (m != f.addr_mask && a == prev) continue;  // a uniform load: every lane reads the line the first found
    prev = a;
    const uint64_t line = ccache_->line_address(sp == Space::Param ? launch_->param_address + a : a);
    uint32_t j = 0;
    while (j < n && lines[j] != line) ++j;
    if (j == n) lines[n++] = line;
  }
  memops_[mo].remaining = 1;  // held until every line is looked up
  for (uint32_t j = 0; j < n; ++j) look_up_constant_line(lines[j], mo, ready);
  constant_line_present(mo, ready);
  return n;
}

// One line of a constant load is looked up: a hit is present now; otherwise
// the load counts one more line to wait for (a fill, or a retry once refused).
void Sm::look_up_constant_line(uint64_t line, uint32_t mo, uint64_t ready) {
  switch (ccache_->access(line)) {
    case ReadOnlyCache::Lookup::Hit:
      ++*ccache_stats_.hits;
      return;
    case ReadOnlyCache::Lookup::Miss:
      ++*ccache_stats_.misses;
      request_fill(line, p_.ccache_line, true, ready);
      const_waits_.push_back(LineWait{line, mo});
      break;
    case ReadOnlyCache::Lookup::Pending:
      ++*ccache_stats_.merged;
      const_waits_.push_back(LineWait{line, mo});
      break;
    case ReadOnlyCache::Lookup::ReservationFail:
      ++*ccache_stats_.fails;
      const_retries_.push_back(LineWait{line, mo});
      break;
  }
  ++memops_[mo].remaining;
}

// A line the load waited for is present at cycle `at`: after its last one the
// load completes hit_latency later.
void Sm::constant_line_present(uint32_t mo, uint64_t at) {
  MemOp& m = memops_[mo];
  if (--m.remaining) return;
  free_memops_.push_back(mo);
  if (m.in_pipe) return;  // the in-order pipeline completed it at WB
  completions_.push(Completion{at + p_.ccache_hit_latency, seq_++, m.slot, m.in, false});
}

// A constant line came back: the accesses waiting for it are answered, then
// the refused accesses try again, in order, now that an MSHR is free (each
// retry's own count is released after its new lookup has counted again).
void Sm::constant_line_filled(uint64_t line) {
  if (!ccache_->fill(line)) {
    throw RunError(std::string("memory conservation broken in ") + name() + ": a constant line fill came back that no access asked for");  // told in SM order
  }
  size_t keep = 0;
  for (const LineWait& x : const_waits_) {
    if (x.line == line) constant_line_present(x.mo, cycle_);
    else const_waits_[keep++] = x;
  }
  const_waits_.resize(keep);
  retrying_.swap(const_retries_);
  for (const LineWait& x : retrying_) {
    look_up_constant_line(x.line, x.mo, cycle_);
    constant_line_present(x.mo, cycle_);
  }
  retrying_.clear();
}

// ---------------------------------------------------------------- the read-only port

// A line fill of the instruction or constant cache: a read of the whole line
// through the read-only port, leaving at `ready`.
void Sm::request_fill(uint64_t line, uint32_t bytes, bool constant, uint64_t ready) {
  tlm::tlm_generic_payload* p = pool_.acquire();
  p->set_command(tlm::TLM_READ_COMMAND);
  p->set_address(line);
  p->set_data_length(bytes);
  p->set_streaming_width(bytes);
  GpuExtension& e = gpu_ext(*p);
  e.sm = uint16_t(id_);
  e.kind = MemKind::Load;
  e.space = uint8_t(constant ? Space::Const : Space::Global);
  e.tag = line | (constant ? 1 : 0);
  e.issue_cycle = cycle_;
  ++*fill_requests_;
  rq_.push(p, ready);
}

void Sm::take_fills() {
  fills_in_.take_before(edge_value(period_, cycle_), [this](uint32_t, uint64_t tag) {
    ++*fill_responses_;
    // WARPTLM_TEST_FAULT=sm_duplicate_readonly_fill: the first fill is taken twice (the check must catch it)
    const int copies = duplicate_fill_fault_ && fill_responses_->value == 1 ? 2 : 1;
    for (int i = 0; i < copies; ++i) {
      if (tag & 1) constant_line_filled(tag & ~uint64_t(1));
      else instruction_line_filled(tag);
    }
  });
}

tlm::tlm_sync_enum Sm::readonly_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time&) {
  end_request(rq_, p, ph);
  if (ph != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
  const uint64_t tag = gpu_ext(p).tag;
  p.release();
  fills_in_.arrive(0, tag);
  wake_at(now_cycle() + 1);
  return tlm::TLM_COMPLETED;
}

// ---------------------------------------------------------------- leaving the unit

// One request per path per cycle, each once its address is ready and the
// previous one was accepted. Returns whether one may leave next cycle.
bool Sm::send_requests() {
  send_own_requests();
  return send_shared_requests();
}

// With private ports (set_private_ports): the paths to the SM's own L1 and
// shared memory leave in the own part of the edge, the CB path in the shared part.
void Sm::send_own_requests() {
  send_one(gq_, mem_socket);
  send_one(sq_, smem_socket);
  send_one(rq_, readonly_socket);
}

bool Sm::send_shared_requests() {
  send_one(cq_, cb_socket);
  return next_request_cycle() <= cycle_ + 1;
}

uint64_t Sm::next_request_cycle() const {
  uint64_t next = UINT64_MAX;
  for (const RequestQueue* q : {&gq_, &sq_, &rq_, &cq_})  // a queue waiting for END_REQ is woken by it
    if (q->size() && !q->waiting_end_req) next = std::min(next, std::max({q->front_ready(), q->next_send, cycle_ + 1}));
  return next;
}

template <class Socket>
bool Sm::send_one(RequestQueue& q, Socket& s) {
  if (!q.size() || q.waiting_end_req || q.front_ready() > cycle_ || q.next_send > cycle_) return false;
  q.next_send = cycle_ + 1;
  tlm::tlm_generic_payload* p = q.front();
  tlm::tlm_phase ph = tlm::BEGIN_REQ;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  q.pop();
  if (&q == &gq_ && !queue_waiters_.empty() && gq_.size() < p_.ldst_queue) queue_has_room();
  if (&q == &gq_ && mem_probes_.req.on()) probe_request(*p);
  const tlm::tlm_sync_enum r = s->nb_transport_fw(*p, ph, t);
  if (r == tlm::TLM_ACCEPTED) {  // back-pressure: END_REQ (or the response itself) comes later
    q.waiting_end_req = true;
    q.awaiting = p;
  }
  return true;
}

void Sm::response_arrived(uint32_t mo) {
  ++*mem_responses_;
  MemOp& m = memops_[mo];
  if (--m.remaining) return;
  if (m.held_result && writes_.commits() == m.replay_mark) refuse_early_response();  // its data is not in yet
  free_memops_.push_back(mo);
  if (m.in_pipe) return;  // the in-order pipeline completed it at WB
  // the returning data takes a writeback slot in this cycle
  completions_.push(Completion{cycle_, seq_++, m.slot, m.in, m.long_latency});
}

// A held global load's or atomic's response came before its quantum's end (sim.quantum): its warp could read its
// registers before the value reaches them.
void Sm::refuse_early_response() const {
  throw RunError("SM " + std::to_string(id_) + ": a global load's or atomic's response came back at cycle " + std::to_string(cycle_) +
                 ", before the end of the quantum it was issued in (sim.quantum " + std::to_string(quantum_) +
                 "), which would leave its registers stale: lower sim.quantum to at most the shortest global load "
                 "round trip (l1d.hit_latency for an L1 hit)");
}

// Responses that arrived before this edge, global before shared when they
// arrived together (a registered input).
void Sm::take_responses() {
  responses_in_.take_before(edge_value(period_, cycle_), [this](uint32_t, uint32_t mo) { response_arrived(mo); });
}

// Backward path of either socket: END_REQ frees the queue for its next
// request (a BEGIN_RESP also counts as END_REQ for the request awaiting it);
// BEGIN_RESP completes part of a memory instruction.
void Sm::end_request(RequestQueue& q, const tlm::tlm_generic_payload& p, const tlm::tlm_phase& ph) {
  if (ph != tlm::END_REQ && !(ph == tlm::BEGIN_RESP && &p == q.awaiting)) return;
  // A registered input: the next request leaves at the first edge after
  // END_REQ, whichever of the two blocks ran first in this instant.
  q.waiting_end_req = false;
  q.awaiting = nullptr;
  q.next_send = std::max(q.next_send, now_cycle() + 1);
  wake_at(q.next_send);
}

tlm::tlm_sync_enum Sm::backward(RequestQueue& q, tlm::tlm_generic_payload& p, tlm::tlm_phase& ph) {
  end_request(q, p, ph);
  if (ph != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
  if (&q == &gq_) {
    ++*global_responses_;
    *global_latency_ += now_cycle() - gpu_ext(p).issue_cycle;
    if (mem_probes_.resp.on()) probe_response(p);
  }
  const uint32_t mo = uint32_t(gpu_ext(p).tag);
  p.release();
  responses_in_.arrive(&q == &gq_ ? 0 : &q == &sq_ ? 1 : 2, mo);
  wake_at(now_cycle() + 1);
  return tlm::TLM_COMPLETED;
}

// The global port's waveform: a transaction shows for the cycle it passes, "idle" from the next edge.
static uint64_t probe_kind(MemKind k) { return k == MemKind::Store ? 2 : k == MemKind::Atomic ? 3 : 1; }

void Sm::probe_request(tlm::tlm_generic_payload& p) {
  const GpuExtension& e = gpu_ext(p);
  mem_probes_.req.pulse(probe_kind(e.kind), edge_time(period_, cycle_ + 1));
  mem_probes_.req_addr.set(p.get_address());
  mem_probes_.req_warp.set(e.warp);
}

void Sm::probe_response(tlm::tlm_generic_payload& p) {
  const GpuExtension& e = gpu_ext(p);
  const uint64_t now = now_cycle();
  mem_probes_.resp.pulse(probe_kind(e.kind), edge_time(period_, now + 1));
  mem_probes_.resp_addr.set(p.get_address());
  mem_probes_.resp_warp.set(e.warp);
  mem_probes_.resp_latency.set(now - e.issue_cycle);
}

tlm::tlm_sync_enum Sm::mem_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time&) { return backward(gq_, p, ph); }
tlm::tlm_sync_enum Sm::smem_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time&) { return backward(sq_, p, ph); }
tlm::tlm_sync_enum Sm::cb_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time&) { return backward(cq_, p, ph); }

}  // namespace warptlm
