#include "interconnect/crossbar.hpp"

#include <algorithm>
#include <string>

namespace warptlm {

namespace {
unsigned bits_for(uint64_t max) { return max ? unsigned(64 - __builtin_clzll(max)) : 1; }  // probe width
}  // namespace

Crossbar::Crossbar(sc_core::sc_module_name name, const IcnParams& p, uint32_t partitions, sc_core::sc_time period,
                   StatsRegistry& stats, uint32_t subpartitions)
    : sc_core::sc_module(name),
      sm_socket("sm_socket"),
      part_socket("part_socket", partitions * subpartitions),
      p_(p),
      map_(p.map(partitions, subpartitions)),
      period_(period),
      stats_(stats),
      out_(map_.slices()) {
  StatGroup g(stats, "icn", "icn");
  requests_ = &g.counter("requests", "requests taken from the SM side");
  responses_ = &g.counter("responses", "responses delivered to the SM side");
  queue_wait_ = &g.counter("queue_wait_cycles", "cycles requests waited in output FIFOs for their port");
  resp_queue_wait_ = &g.counter("resp_queue_wait_cycles",
                                "cycles responses waited for their SM return port (input-queued replies: in their input buffer)");
  backpressured_ = &g.counter("backpressure_stalls", "requests whose END_REQ was withheld (output FIFO full)");
  backpressure_cycles_ = &g.counter("backpressure_cycles", "cycles requests waited for an output FIFO slot");
  reply_refused_ = &g.counter("reply_backpressure_stalls",
                              "replies whose END_RESP was withheld (their L2 slice's reply input buffer full)");
  reply_refused_cycles_ = &g.counter("reply_backpressure_cycles", "cycles replies waited for reply input buffer room");
  rin_.resize(out_.size());
  for (uint32_t q = 0; q < rin_.size(); ++q) {
    rin_[q].fifo.reserve(p_.reply_buffer ? p_.reply_buffer : 1);
    if (input_queued_replies()) rin_[q].held.declare("icn.from_part" + std::to_string(q) + ".reply_flits", 16);
  }
  for (uint32_t q = 0; q < out_.size(); ++q) {
    OutPort& o = out_[q];
    o.fifo.reserve(p_.queue);
    o.busy = &g.counter("to_part" + std::to_string(q) + ".busy_cycles", "cycles this output port moved a request");
    o.depth.declare("icn.to_part" + std::to_string(q) + ".queue", bits_for(p_.queue));
    part_socket[q].register_nb_transport_bw(this, &Crossbar::nb_transport_bw, int(q));
  }
  sm_socket.register_nb_transport_fw(this, &Crossbar::nb_transport_fw);
  every_edge_fault_ = test_fault("idle_edges");
  SC_METHOD(tick);
  sensitive << wake_;
  dont_initialize();
}

// The SM side is known once everything is bound: one return port per binding.
void Crossbar::end_of_elaboration() {
  const uint32_t n = uint32_t(sm_socket.size());
  ret_.resize(n);
  StatGroup g(stats_, "icn", "icn");
  for (uint32_t i = 0; i < n; ++i) {
    ret_[i].fifo.reserve(16);
    ret_[i].busy = &g.counter("to_sm" + std::to_string(i) + ".busy_cycles", "cycles this return port moved a response");
    ret_[i].depth.declare("icn.to_sm" + std::to_string(i) + ".queue", 16);  // unbounded FIFO: shown up to 65535
  }
  for (OutPort& o : out_) o.waiters.reserve(n);
  in_.resize(n);
  stalled_.assign(n, false);
  inject_free_.assign(n, 0);
  in_busy_.assign((n + 63) / 64, 0);
  ret_busy_.assign((n + 63) / 64, 0);
  grant_rr_.assign(n, 0);
  grant_.assign(n, -1);
  granted_ports_.reserve(n);
}

// Reads send a header only; writes and atomics carry their data (data_length bytes).
uint32_t Crossbar::request_beats(const tlm::tlm_generic_payload& p) const {
  const GpuExtension* e = find_gpu_ext(p);
  const bool data = (e && e->kind == MemKind::Atomic) || p.is_write();
  if (!data) return 1;
  return std::max(1u, (p.get_data_length() + p_.port_width - 1) / p_.port_width);
}

// Read and atomic responses carry data; write acknowledgements are a header, or with icn.ack_per_sector
// one header for each 32-byte sector the write carried (one flit each).
uint32_t Crossbar::response_beats(const tlm::tlm_generic_payload& p) const {
  const GpuExtension* e = find_gpu_ext(p);
  const bool data = (e && e->kind == MemKind::Atomic) || !p.is_write();
  if (!data) return p_.ack_per_sector ? std::max(1u, (p.get_data_length() + 31) / 32) : 1;
  return std::max(1u, (p.get_data_length() + p_.port_width - 1) / p_.port_width);
}

// ---------------------------------------------------------------- forward

tlm::tlm_sync_enum Crossbar::nb_transport_fw(int port, tlm::tlm_generic_payload& p, tlm::tlm_phase& ph,
                                             sc_core::sc_time&) {
  const uint32_t i = uint32_t(port);
  if (ph == tlm::END_RESP) {
    from_sms_.arrive(i, Input{&p, ph});
    wake_at(next_edge_after_now(period_));
    return tlm::TLM_COMPLETED;
  }
  if (ph != tlm::BEGIN_REQ) return tlm::TLM_ACCEPTED;
  wake_at(next_edge_after_now(period_));
  const bool taken = in_[i].offer(p, cycle());  // into the port's input buffer
  mark(in_busy_, uint32_t(i));
  if (!taken) ++*backpressured_;
  return answer_offer(taken, ph);
}

// The head of SM port i's input buffer goes to its partition's output FIFO,
// or waits at the head, blocking the port, until the FIFO has a slot.
void Crossbar::request_arrived(uint32_t i, tlm::tlm_generic_payload& p, uint64_t now) {
  const uint32_t q = map_.slice_of(p.get_address());
  OutPort& o = out_[q];
  if (o.fifo.size() < p_.queue) {
    enqueue_request(i, q, p, now);
    in_[i].pop(now);
    return;
  }
  o.waiters.push_back(Stalled{&p, i, now});
  stalled_[i] = true;
}

// Each SM port in order: the request that waited for buffer room gets it (and
// its END_REQ), then the buffer's head moves on unless the port is stalled.
// A port leaves the set the edges visit when it has nothing to move: empty, or
// stalled with no request it could admit (its buffer frees only when the
// partition takes its head, which puts it back: partition_accepted).
void Crossbar::take_requests(uint64_t now) {
  for_each_in(in_busy_, [&](uint32_t i) {
    RequestBuffer& b = in_[i];
    if (tlm::tlm_generic_payload* p = b.admit_waiting(now)) send_end_req(sm_socket[i], *p);
    if (!stalled_[i] && inject_free_[i] <= now)
      if (const RequestBuffer::Entry* h = b.head(edge_value(period_, now))) request_arrived(i, *h->p, now);
    const bool can_admit = b.has_waiting() && b.size() < RequestBuffer::kDepth;
    if ((b.empty() && !b.has_waiting()) || (stalled_[i] && !can_admit)) unmark(in_busy_, i);
  });
}

// The request wins its output port in FIFO order: it starts when the port has
// finished the transfer before it, holds it for its beats, and reaches the
// partition `latency` cycles after its last beat left.
void Crossbar::enqueue_request(uint32_t sm_port, uint32_t q, tlm::tlm_generic_payload& p, uint64_t at) {
  OutPort& o = out_[q];
  const uint32_t beats = request_beats(p);
  if (p_.sm_inject) inject_free_[sm_port] = at + beats;  // its flits enter the switch one a cycle
  const uint64_t start = std::max(at, o.free_at);
  o.free_at = start + beats;
  *o.busy += beats;
  *queue_wait_ += start - at;
  ++*requests_;
  gpu_ext(p).push_route(int16_t(sm_port));
  const uint64_t deliver = start + beats - 1 + p_.latency;
  o.fifo.push_back(Transfer{&p, deliver});
  o.depth.set(o.fifo.size());
  if (o.fifo.size() == 1) wake_at(deliver);
}

void Crossbar::deliver_request(uint32_t q, uint64_t now) {
  OutPort& o = out_[q];
  if (o.fifo.empty() || o.awaiting_end_req || o.fifo.front().deliver > now || o.last_delivery == now) return;
  o.last_delivery = now;
  o.awaiting_end_req = true;
  tlm::tlm_generic_payload* p = o.fifo.front().p;
  tlm::tlm_phase ph = tlm::BEGIN_REQ;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum s = part_socket[q]->nb_transport_fw(*p, ph, t);
  const bool taken = s == tlm::TLM_COMPLETED || (s == tlm::TLM_UPDATED && (ph == tlm::END_REQ || ph == tlm::BEGIN_RESP));
  if (taken && o.awaiting_end_req && !o.fifo.empty() && o.fifo.front().p == p) partition_accepted(q, now);
  if (s == tlm::TLM_COMPLETED || (s == tlm::TLM_UPDATED && ph == tlm::BEGIN_RESP)) enqueue_response(q, *p, now);
}

// The partition took the head: its FIFO slot frees, and the oldest SM port
// waiting for this partition gets its END_REQ.
void Crossbar::partition_accepted(uint32_t q, uint64_t now) {
  OutPort& o = out_[q];
  o.fifo.pop_front();
  o.depth.set(o.fifo.size());
  o.awaiting_end_req = false;
  if (!o.fifo.empty()) wake_at(std::max(o.fifo.front().deliver, now + 1));
  if (o.waiters.empty()) return;
  const Stalled s = o.waiters.front();
  o.waiters.pop_front();
  const uint64_t at = std::max(now, s.since);
  *backpressure_cycles_ += at - s.since;
  enqueue_request(s.sm_port, q, *s.p, at);
  in_[s.sm_port].pop(now);
  stalled_[s.sm_port] = false;
  mark(in_busy_, s.sm_port);  // its next head, or the request waiting for the slot that freed
}

// ---------------------------------------------------------------- return

tlm::tlm_sync_enum Crossbar::nb_transport_bw(int part, tlm::tlm_generic_payload& p, tlm::tlm_phase& ph,
                                             sc_core::sc_time&) {
  if (ph != tlm::END_REQ && ph != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
  if (ph == tlm::BEGIN_RESP && input_queued_replies()) return offer_reply(uint32_t(part), p, ph);
  from_parts_.arrive(uint32_t(part), Input{&p, ph});
  wake_at(next_edge_after_now(period_));
  return answer_recorded(ph);
}

// What arrived before this edge: first the partitions (a taken head frees a
// FIFO slot, a response enters its return port), then the SM ports in order.
void Crossbar::take_inputs(uint64_t now) {
  from_parts_.take_before(edge_value(period_, now), [&](uint32_t q, const Input& in) {
    OutPort& o = out_[q];
    const bool is_head = o.awaiting_end_req && !o.fifo.empty() && o.fifo.front().p == in.p;
    if (is_head) partition_accepted(q, now);  // END_REQ, or a BEGIN_RESP that implies it
    if (in.phase != tlm::BEGIN_RESP) return;
    if (input_queued_replies()) queue_reply(q, *in.p, now);
    else enqueue_response(q, *in.p, now);
  });
  from_sms_.take_before(edge_value(period_, now), [&](uint32_t i, const Input&) {
    ret_[i].awaiting_end_resp = false;  // END_RESP: the SM took a response it had left open
  });
  take_requests(now);
}

void Crossbar::enqueue_response(uint32_t, tlm::tlm_generic_payload& p, uint64_t at) {
  if (input_queued_replies())  // an L2 slice answers on the backward path, after END_REQ
    SC_REPORT_ERROR("Crossbar", "a partition answered a request with its reply; icn.reply_buffer > 0 needs replies sent as BEGIN_RESP");
  ReturnPort& r = ret_[uint32_t(gpu_ext(p).pop_route())];
  return_transfer(r, p, response_beats(p), std::max(at, r.free_at), at);
}

// A response takes SM return port r from `start` for its beats (having waited
// since `since`) and reaches the SM's side `latency` cycles after its last beat.
void Crossbar::return_transfer(ReturnPort& r, tlm::tlm_generic_payload& p, uint32_t beats, uint64_t start,
                               uint64_t since) {
  r.free_at = start + beats;
  *r.busy += beats;
  *resp_queue_wait_ += start - since;
  const uint64_t deliver = start + beats - 1 + p_.latency;
  r.fifo.push_back(Transfer{&p, deliver});
  r.depth.set(std::min<size_t>(r.fifo.size(), 0xFFFF));
  mark(ret_busy_, uint32_t(&r - ret_.data()));
  if (r.fifo.size() == 1) wake_at(deliver);
}

void Crossbar::deliver_response(uint32_t i, uint64_t now) {
  ReturnPort& r = ret_[i];
  if (r.fifo.empty() || r.awaiting_end_resp || r.fifo.front().deliver > now || r.last_delivery == now) return;
  tlm::tlm_generic_payload* p = r.fifo.front().p;
  r.fifo.pop_front();
  r.depth.set(std::min<size_t>(r.fifo.size(), 0xFFFF));
  if (r.fifo.empty()) unmark(ret_busy_, i);
  r.last_delivery = now;
  r.awaiting_end_resp = true;
  ++*responses_;
  tlm::tlm_phase ph = tlm::BEGIN_RESP;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum s = sm_socket[i]->nb_transport_bw(*p, ph, t);
  if (s == tlm::TLM_COMPLETED || (s == tlm::TLM_UPDATED && ph == tlm::END_RESP)) r.awaiting_end_resp = false;
  if (!r.fifo.empty() && !r.awaiting_end_resp) wake_at(std::max(r.fifo.front().deliver, now + 1));
}

// ---------------------------------------------------------------- input-queued return

// Room for a reply of `beats` flits. Flits freed in this very cycle are not
// counted, so the answer does not depend on whether the slice or the crossbar
// runs first at a shared edge.
bool Crossbar::reply_input_has_room(const ReplyInput& in, uint32_t beats, uint64_t now) const {
  return reply_fits(in.flits + (in.freed_at == now ? in.freed_flits : 0), beats);  // an empty buffer takes any reply
}

// An L2 slice offers a reply: taken (END_RESP with the call) when its input
// buffer has room, refused until then. A slice offers one reply at a time.
tlm::tlm_sync_enum Crossbar::offer_reply(uint32_t q, tlm::tlm_generic_payload& p, tlm::tlm_phase& ph) {
  ReplyInput& in = rin_[q];
  const uint64_t now = cycle();
  const uint32_t beats = response_beats(p);
  wake_at(next_edge_after_now(period_));
  if (in.refused) SC_REPORT_ERROR("Crossbar", "BEGIN_RESP from an L2 slice before END_RESP of its previous reply");
  if (!reply_input_has_room(in, beats, now)) {
    in.refused = &p;
    in.refused_beats = beats;
    in.refused_since = now;
    ++*reply_refused_;
    const OutPort& o = out_[q];  // a reply to the request the slice has not yet taken takes it all the same
    if (o.awaiting_end_req && !o.fifo.empty() && o.fifo.front().p == &p) from_parts_.arrive(q, Input{&p, tlm::END_REQ});
    return tlm::TLM_ACCEPTED;
  }
  in.hold(in.flits + beats);
  from_parts_.arrive(q, Input{&p, ph});
  return answer_recorded(ph);
}

// A reply enters slice q's input buffer (its flits were counted when it was
// taken: at its offer, or at its admission after a refusal).
void Crossbar::queue_reply(uint32_t q, tlm::tlm_generic_payload& p, uint64_t now) {
  rin_[q].fifo.push_back(Reply{&p, now, uint32_t(gpu_ext(p).pop_route()), response_beats(p)});
}

// One allocation round: every input whose head has arrived and who is not
// still sending asks for the head's SM port; a free port grants the asking
// input that comes first from its round-robin pointer, which then moves past it.
void Crossbar::allocate_reply_switch(uint64_t now) {
  const uint32_t inputs = uint32_t(rin_.size());
  for (uint32_t q = 0; q < inputs; ++q) {
    const ReplyInput& in = rin_[q];
    if (in.fifo.empty() || in.busy_until > now || in.fifo.front().arrived > now) continue;
    const uint32_t i = in.fifo.front().sm_port;
    if (ret_[i].free_at > now) continue;  // the port still moves another reply's flits
    int32_t& g = grant_[i];
    if (g < 0) {
      granted_ports_.push_back(i);
      g = int32_t(q);
      continue;
    }
    const uint32_t rr = grant_rr_[i];
    if ((q + inputs - rr) % inputs < (uint32_t(g) + inputs - rr) % inputs) g = int32_t(q);
  }
  for (uint32_t i : granted_ports_) {
    const uint32_t q = uint32_t(grant_[i]);
    grant_[i] = -1;
    grant_rr_[i] = (q + 1) % inputs;
    send_reply(q, now);
  }
  granted_ports_.clear();
}

// The granted head crosses the switch: it holds its input and its SM port for
// its flits, leaves the input buffer, and reaches the SM's return FIFO
// `latency` cycles after its last flit.
void Crossbar::send_reply(uint32_t q, uint64_t now) {
  ReplyInput& in = rin_[q];
  const Reply r = in.fifo.front();
  in.fifo.pop_front();
  if (in.freed_at != now) {
    in.freed_at = now;
    in.freed_flits = 0;
  }
  in.hold(in.flits - r.beats);
  in.freed_flits += r.beats;
  in.busy_until = now + r.beats;
  return_transfer(ret_[r.sm_port], *r.p, r.beats, now, r.arrived);
}

// A reply refused in an earlier cycle enters once its buffer has room; the
// slice gets its END_RESP.
void Crossbar::admit_refused_reply(uint32_t q, uint64_t now) {
  ReplyInput& in = rin_[q];
  if (!in.refused || in.refused_since >= now) return;
  if (!reply_fits(in.flits, in.refused_beats)) return;  // flits freed in this tick count: the slice waits on us
  tlm::tlm_generic_payload* p = in.refused;
  in.refused = nullptr;
  *reply_refused_cycles_ += now - in.refused_since;
  in.hold(in.flits + in.refused_beats);
  queue_reply(q, *p, now);
  tlm::tlm_phase ph = tlm::END_RESP;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  part_socket[q]->nb_transport_fw(*p, ph, t);
}

// The next cycle at which a reply can move: a head's arrival, its input's
// last flit or its port's, whichever is latest. A refused reply is tried at the
// next edge, then in every tick that sends a reply (the only way room appears).
uint64_t Crossbar::next_reply_event(uint64_t now) const {
  uint64_t next = UINT64_MAX;
  for (const ReplyInput& in : rin_) {
    if (!in.fifo.empty()) {
      const Reply& h = in.fifo.front();
      next = std::min(next, std::max({h.arrived, in.busy_until, ret_[h.sm_port].free_at, now + 1}));
    }
    if (in.refused && in.refused_since >= now) next = std::min(next, now + 1);  // room comes only with a send
  }
  return next;
}

// ---------------------------------------------------------------- the cycle

void Crossbar::tick() {
  const uint64_t now = cycle();
  ++edges_taken_;
  take_inputs(now);
  for (uint32_t q = 0; q < out_.size(); ++q) deliver_request(q, now);
  if (input_queued_replies()) {
    allocate_reply_switch(now);
    for (uint32_t q = 0; q < rin_.size(); ++q) admit_refused_reply(q, now);
  }
  for_each_in(ret_busy_, [&](uint32_t i) { deliver_response(i, now); });
  // Sleep until the earliest transfer due; queues that wait on END_REQ/END_RESP wake us when it comes.
  uint64_t next = UINT64_MAX;
  for (const OutPort& o : out_)
    if (!o.fifo.empty() && !o.awaiting_end_req) next = std::min(next, std::max(o.fifo.front().deliver, now + 1));
  for_each_in(ret_busy_, [&](uint32_t i) {
    const ReturnPort& r = ret_[i];
    if (!r.awaiting_end_resp) next = std::min(next, std::max(r.fifo.front().deliver, now + 1));
  });
  if (!from_sms_.empty() || !from_parts_.empty()) next = std::min(next, now + 1);
  if (input_queued_replies()) next = std::min(next, next_reply_event(now));
  for_each_in(in_busy_, [&](uint32_t i) {
    if (!stalled_[i] && !in_[i].empty()) next = std::min(next, std::max(now + 1, inject_free_[i]));
    if (in_[i].has_waiting() && in_[i].size() < RequestBuffer::kDepth) next = std::min(next, now + 1);
  });
  if (every_edge_fault_) next = now + 1;
  if (next != UINT64_MAX) wake_at(next);
}

}  // namespace warptlm
