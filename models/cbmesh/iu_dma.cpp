#include "cbmesh/iu_dma.hpp"

#include <algorithm>

#include "common/errors.hpp"

namespace warptlm {

IuDma::IuDma(sc_core::sc_module_name name, uint32_t unit, uint32_t line_bytes, ClockDomain& clock,
             sc_core::sc_time period, PayloadPool& pool, DmaSequencer& sequencer)
    : sc_core::sc_module(name),
      mem_socket("mem_socket"),
      cb_socket("cb_socket"),
      unit_(unit),
      line_bytes_(line_bytes),
      clock_(clock),
      index_(clock.join(*this)),
      period_(period),
      pool_(pool),
      sequencer_(sequencer),
      no_wait_(test_fault("cbmesh_dma_no_wait")) {
  mem_socket.register_nb_transport_bw(this, &IuDma::mem_bw);
  cb_socket.register_nb_transport_bw(this, &IuDma::cb_bw);
  reads_.reserve(64);
  writes_.reserve(64);
  cb_.reserve(16);
}

void IuDma::schedule(uint64_t cycle) {
  step_due_ = std::min(step_due_, cycle);
  clock_.request(index_, cycle);
}

// ---------------------------------------------------------------- the sequencer's record of a step

void IuDma::record(const Warp& w, const Instr& in) {
  if (w.addr_space == Space::Cbv || w.addr_space == Space::Cbh) {
    cb_.emplace_back();
    CbAccess& a = cb_.back();
    for (uint32_t m = w.addr_mask; m; m &= m - 1) a.lanes[__builtin_ctz(m)] = w.addr[__builtin_ctz(m)];
    a.mask = w.addr_mask;
    a.bytes = uint8_t(w.addr_bytes);
    a.store = in.op == Op::St;
    a.space = w.addr_space;
    return;
  }
  // Its parameters and locals are the sequencer's registers: untimed.
  if (w.addr_space != Space::Global && w.addr_space != Space::Generic) return;
  if (in.op != Op::Ld && in.op != Op::Ldu && in.op != Op::St) return;
  std::vector<Line>& to = in.op == Op::St ? writes_ : reads_;
  for (uint32_t m = w.addr_mask; m; m &= m - 1) {
    const uint64_t a = w.addr[__builtin_ctz(m)];
    if (w.addr_space == Space::Generic && (in_shared_window(a) || in_local_window(a))) continue;
    for (uint64_t b = a; b < a + w.addr_bytes; b = (b / 32 + 1) * 32)
      to.push_back(Line{b / line_bytes_, 1u << ((b % line_bytes_) / 32)});
  }
}

// One request per line, its sectors merged, in address order.
void IuDma::merge(std::vector<Line>& lines) {
  if (lines.empty()) return;
  std::sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) { return a.line < b.line; });
  size_t out = 0;
  for (size_t i = 1; i < lines.size(); ++i) {
    if (lines[i].line == lines[out].line) lines[out].sectors |= lines[i].sectors;
    else lines[++out] = lines[i];
  }
  lines.resize(out + 1);
}

std::pair<uint64_t, uint64_t> IuDma::begin_transfers(uint64_t cycle) {
  merge(reads_);
  merge(writes_);
  phase_ = Phase::Gather;
  next_ = 0;
  const std::pair<uint64_t, uint64_t> lines{reads_.size(), writes_.size()};
  if (move_data(cycle)) sequencer_.dma_step_done(unit_);
  else if (sends_next()) clock_.request(index_, cycle + 1);
  return lines;
}

// ---------------------------------------------------------------- the engine's edge

uint64_t IuDma::clock_edge(uint64_t cycle) {
  take_answers(cycle);
  if (phase_ != Phase::Idle && move_data(cycle)) sequencer_.dma_step_done(unit_);
  if (step_due_ <= cycle) {
    step_due_ = kNever;
    sequencer_.dma_step_due(unit_);  // may begin a step's transfers
  }
  return sends_next() ? std::min(step_due_, cycle + 1) : step_due_;
}

bool IuDma::sends_next() const {
  if (unaccepted_ || phase_ == Phase::Idle) return false;
  const size_t count = phase_ == Phase::Gather ? reads_.size() : phase_ == Phase::Cb ? cb_.size() : writes_.size();
  return next_ < count || !outstanding_ || no_wait_;  // a request to send, or a phase with nothing awaited
}

// Gather, then the CB accesses, then scatter: each phase's requests go one per
// cycle, the next once the last was taken (END_REQ), and the phase ends when
// every answer came back.
bool IuDma::move_data(uint64_t cycle) {
  for (;;) {
    switch (phase_) {
      case Phase::Idle: return false;
      case Phase::Gather:
        if (!phase_over(reads_.size(), cycle, [&](size_t i) { send_line(reads_[i], false, cycle); })) return false;
        phase_ = Phase::Cb;
        break;
      case Phase::Cb:
        if (!phase_over(cb_.size(), cycle, [&](size_t i) { send_cb(cb_[i], cycle); })) return false;
        phase_ = Phase::Scatter;
        break;
      case Phase::Scatter:
        if (!phase_over(writes_.size(), cycle, [&](size_t i) { send_line(writes_[i], true, cycle); })) return false;
        phase_ = Phase::Idle;
        reads_.clear();
        writes_.clear();
        cb_.clear();
        return true;
    }
    next_ = 0;
  }
}

// A phase of `count` transfers sends its next one when it may; it is over once
// every one went and was answered.
template <class SendNext>
bool IuDma::phase_over(size_t count, uint64_t cycle, SendNext&& send_next) {
  if (next_ < count) {
    if (can_send(cycle)) send_next(next_++);
    return false;
  }
  return !outstanding_ || no_wait_;
}

void IuDma::send_line(const Line& l, bool write, uint64_t cycle) {
  tlm::tlm_generic_payload* p = pool_.acquire();
  p->set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  p->set_address(l.line * line_bytes_);
  p->set_data_length(line_bytes_);
  p->set_streaming_width(line_bytes_);
  GpuExtension& e = gpu_ext(*p);
  e.sm = uint16_t(unit_);
  e.kind = write ? MemKind::Store : MemKind::Load;
  e.space = uint8_t(Space::Global);
  e.sector_mask = l.sectors;
  e.issue_cycle = cycle;
  send(mem_socket, *p, cycle);
}

void IuDma::send_cb(const CbAccess& a, uint64_t cycle) {
  tlm::tlm_generic_payload* p = pool_.acquire();
  p->set_command(a.store ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  p->set_address(a.lanes[__builtin_ctz(a.mask)]);
  p->set_data_length(uint32_t(a.bytes) * uint32_t(__builtin_popcount(a.mask)));
  GpuExtension& e = gpu_ext(*p);
  e.sm = uint16_t(unit_);
  e.kind = a.store ? MemKind::Store : MemKind::Load;
  e.space = uint8_t(a.space);
  e.lane_mask = a.mask;
  e.lane_addr = a.lanes;
  e.access_bytes = a.bytes;
  e.issue_cycle = cycle;
  send(cb_socket, *p, cycle);
}

template <class Socket>
void IuDma::send(Socket& s, tlm::tlm_generic_payload& p, uint64_t cycle) {
  sent_cycle_ = cycle;
  unaccepted_ = &p;
  ++outstanding_;
  tlm::tlm_phase ph = tlm::BEGIN_REQ;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum r = s->nb_transport_fw(p, ph, t);
  if (r == tlm::TLM_UPDATED && ph == tlm::END_REQ) {
    unaccepted_ = nullptr;
  } else if (r == tlm::TLM_COMPLETED || (r == tlm::TLM_UPDATED && ph == tlm::BEGIN_RESP)) {
    unaccepted_ = nullptr;
    --outstanding_;
    p.release();
  }
}

// From below or from the CB port, at their own edges: recorded, and taken at
// this engine's first edge after.
tlm::tlm_sync_enum IuDma::mem_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time&) {
  return record_answer(0, p, ph);
}
tlm::tlm_sync_enum IuDma::cb_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time&) {
  return record_answer(1, p, ph);
}
tlm::tlm_sync_enum IuDma::record_answer(uint32_t port, tlm::tlm_generic_payload& p, tlm::tlm_phase& ph) {
  if (ph != tlm::END_REQ && ph != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
  answers_.arrive(port, Answer{&p, ph});
  clock_.request(index_, next_edge_after_now(period_));
  return answer_recorded(ph);
}

// END_REQ lets the next request go; an answer (which implies END_REQ) completes one transfer.
void IuDma::take_answers(uint64_t cycle) {
  answers_.take_before(edge_value(period_, cycle), [this](uint32_t, const Answer& a) {
    if (a.p == unaccepted_) unaccepted_ = nullptr;
    if (a.phase != tlm::BEGIN_RESP) return;
    --outstanding_;
    a.p->release();
  });
}

}  // namespace warptlm
