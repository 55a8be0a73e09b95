#include "smem/shared_memory.hpp"

#include <algorithm>
#include <string>

namespace warptlm {

BankArbiterRtl::Make BankArbiterRtl::make = nullptr;

SharedMemory::SharedMemory(sc_core::sc_module_name name, uint32_t sm_id, const SharedMemoryParams& p,
                           sc_core::sc_time period, StatsRegistry& stats)
    : SharedMemory(name, "sm" + std::to_string(sm_id) + ".smem", "smem", p, period, stats) {}

SharedMemory::SharedMemory(sc_core::sc_module_name name, const std::string& inst, const std::string& kind,
                           const SharedMemoryParams& p, sc_core::sc_time period, StatsRegistry& stats)
    : sc_core::sc_module(name), socket("socket"), p_(p), period_(period) {
  p_.validate();
  // Outstanding responses are bounded by latency + the longest service when
  // an access is taken every cycle; the ring doubles if that is ever exceeded.
  resp_.resize(p_.latency + 64);
  part_degrees_.resize(p_.warp_parts);
  if (p_.bank_arbiter_impl != BlockImpl::Model) rtl_ = BankArbiterRtl::make(p_.bank_arbiter_impl, p_, inst, period);

  StatGroup g(stats, inst, kind);
  requests_ = &g.counter("requests", "warp shared-memory requests received (BEGIN_REQ)");
  responses_ = &g.counter("responses", "responses sent (BEGIN_RESP); equals requests once drained");
  accesses_ = &g.counter("accesses", "warp accesses served by the bank array");
  busy_cycles_ = &g.counter("busy_cycles", "cycles the bank array was busy (sum of service cycles)");
  stall_cycles_ = &g.counter("stall_cycles", "cycles requests waited for a busy bank array (END_REQ withheld)");
  // GPGPU-Sim's shmem bank conflicts: cycles an access holds the array beyond
  // the conflict-free one per part (README: "Statistics").
  bank_conflicts_ = &stats.counter(inst + ".bank_conflicts", kind == "smem" ? "shmem_bank_conflicts" : kind + ".bank_conflicts",
                                   "bank-conflict cycles: sum over parts of (conflict degree - 1)");
  lent_cycles_ = &g.counter("lent_cycles", "cycles the bank array served the borrowing port (CIAO's cache lines)");
  yielded_cycles_ = &g.counter("yielded_cycles", "cycles warp accesses waited or were extended for the borrowing port");
  degree_hist_ = &g.histogram("conflict_degree", 33, "conflict degree of each part served (bucket 32 takes 32 and more)");
  degree_probe_.declare(inst + ".conflict_degree", 6);

  socket.register_nb_transport_fw(this, &SharedMemory::nb_transport_fw);
  SC_METHOD(step);
  sensitive << wake_;
  dont_initialize();
}


uint32_t SharedMemory::reserve_tail(uint32_t bytes) {
  if (bytes > p_.size || allocated_ > p_.size - bytes) return kNoSpace;
  tail_ = bytes;
  return p_.size - bytes;
}

bool SharedMemory::set_allocated(uint32_t bytes) {
  if (bytes > p_.size - tail_) return false;
  allocated_ = bytes;
  return true;
}

// ---------------------------------------------------------------- requests

tlm::tlm_sync_enum SharedMemory::nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time&) {
  if (ph == tlm::END_RESP) {  // the initiator took the response it left open
    resp_blocked_ = false;
    if (resp_count_) wake_at(cycle());
    return tlm::TLM_COMPLETED;
  }
  if (ph != tlm::BEGIN_REQ) return tlm::TLM_ACCEPTED;
  if (pending_) SC_REPORT_ERROR(name(), "BEGIN_REQ before END_REQ of the previous request");
  ++*requests_;
  const uint64_t now = cycle();
  if (now >= free_cycle_) {
    accept(p, now, now);
    ph = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }
  // Bank array busy: hold END_REQ until it frees.
  pending_ = &p;
  pending_since_ = now;
  wake_at(free_cycle_);
  return tlm::TLM_ACCEPTED;
}

void SharedMemory::lend_cycle(uint64_t at) {
  ++*lent_cycles_;
  if (at >= serving_since_ && at < free_cycle_) {  // the access in the array yields this cycle
    ++free_cycle_;
    ++*yielded_cycles_;
    if (resp_count_) resp_[(resp_head_ + resp_count_ - 1) % resp_.size()].cycle += 1;  // its response is the newest
    return;
  }
  // Bookings of past cycles can no longer delay an access (a kernel that leaves the banks idle never
  // consumes them): drop them, so the list holds only the cycles ahead.
  const uint64_t now = cycle();
  while (lent_head_ < lent_.size() && lent_[lent_head_] < now) ++lent_head_;
  if (lent_head_ == lent_.size()) lent_.clear(), lent_head_ = 0;
  lent_.push_back(at);  // booked ahead: taken into account when an access reaches it
}

void SharedMemory::accept(tlm::tlm_generic_payload& p, uint64_t now, uint64_t arrived) {
  const uint32_t service = serve(p);
  serving_since_ = now;
  free_cycle_ = now + service;
  // cycles lent inside the access's span push its end back, one each
  while (lent_head_ < lent_.size() && lent_[lent_head_] < free_cycle_) {
    if (lent_[lent_head_] >= now) {
      ++free_cycle_;
      ++*yielded_cycles_;
    }
    ++lent_head_;
  }
  ++*accesses_;
  *busy_cycles_ += service;
  *stall_cycles_ += now - arrived;
  if (on_service) on_service(gpu_ext(p), service);
  push_response(Response{free_cycle_ + p_.latency - 1, &p});
  if (degree_probe_.on()) {
    const uint32_t d = gpu_ext(p).lane_addr ? *std::max_element(part_degrees_.begin(), part_degrees_.end()) : service;
    degree_probe_.set(std::min(d, 63u));
    degree_probe_.set_at(period_ * double(free_cycle_), 0);  // free again then, unless the next access is taken
  }
}

uint32_t SharedMemory::serve(tlm::tlm_generic_payload& p) {
  const GpuExtension& e = gpu_ext(p);
  if (!e.lane_addr) {  // a contiguous block: one part
    const uint32_t d = block_degree(p.get_address(), p.get_data_length(), p_);
    degree_hist_->sample(d);
    *bank_conflicts_ += d - 1;
    return d;
  }
  const uint32_t service = rtl_ ? rtl_->service_cycles(e.lane_addr, e.lane_mask, e.access_bytes, part_degrees_.data())
                                : service_cycles(e.lane_addr, e.lane_mask, e.access_bytes, p_, part_degrees_.data());
  for (uint32_t d : part_degrees_) degree_hist_->sample(d);
  *bank_conflicts_ += service - p_.warp_parts;
  return service;
}

// ---------------------------------------------------------------- the cycle

void SharedMemory::step() {
  ++activations_;
  const uint64_t now = cycle();
  while (resp_count_ && !resp_blocked_ && resp_[resp_head_].cycle <= now) {
    tlm::tlm_generic_payload* p = resp_[resp_head_].p;
    resp_head_ = (resp_head_ + 1) % resp_.size();
    --resp_count_;
    send_response(*p);
  }
  if (pending_ && now >= free_cycle_) {
    tlm::tlm_generic_payload* p = pending_;
    pending_ = nullptr;
    accept(*p, now, pending_since_);
    tlm::tlm_phase ph = tlm::END_REQ;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    socket->nb_transport_bw(*p, ph, t);
  }
  // Sleep until the next thing that can happen: the earliest pending timed
  // notification of wake_ wins, so arming both is safe.
  if (pending_) wake_at(free_cycle_);
  if (resp_count_ && !resp_blocked_) wake_at(resp_[resp_head_].cycle);
}

void SharedMemory::send_response(tlm::tlm_generic_payload& p) {
  p.set_response_status(tlm::TLM_OK_RESPONSE);
  tlm::tlm_phase ph = tlm::BEGIN_RESP;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  ++*responses_;
  const tlm::tlm_sync_enum s = socket->nb_transport_bw(p, ph, t);
  // TLM_ACCEPTED: the initiator sends END_RESP later; no new BEGIN_RESP until then.
  if (s == tlm::TLM_ACCEPTED) resp_blocked_ = true;
}

void SharedMemory::push_response(const Response& r) {
  if (resp_count_ == resp_.size()) {  // full: unroll into a ring twice the size
    std::vector<Response> bigger(resp_.size() * 2);
    for (size_t i = 0; i < resp_count_; ++i) bigger[i] = resp_[(resp_head_ + i) % resp_.size()];
    resp_.swap(bigger);
    resp_head_ = 0;
  }
  resp_[(resp_head_ + resp_count_) % resp_.size()] = r;
  if (resp_count_++ == 0) wake_at(r.cycle);
}

}  // namespace warptlm
