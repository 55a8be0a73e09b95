// Registered inputs: how a clocked block takes what other blocks send it.
//
// A socket callback only records the message with its arrival time and port;
// the block acts on it at its first clock edge strictly after the arrival, in
// the order (arrival time, port, order of arrival on that port). A sender is one
// process, so the order on one port is its own; two senders that deliver at the
// same instant are taken in port order, never in the order SystemC happened to
// run them. A message that arrives exactly on the receiver's edge therefore
// waits for the next edge, like a flip-flop that samples before its D input
// changes. This is the rule that keeps results independent of observation
// (docs/determinism.md).
#pragma once
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "common/clock.hpp"

namespace warptlm {

template <class Msg>
class InputRegister {
 public:
  // Record a message arriving now on `port`.
  void arrive(uint32_t port, const Msg& m) {
    const uint64_t t = now_value();
    q_.push_back(Entry{t, port, m});
    // keep (time, port) order; equal keys keep their arrival order
    size_t i = q_.size() - 1;
    while (i > head_ && later(q_[i - 1], t, port)) {
      std::swap(q_[i - 1], q_[i]);
      --i;
    }
  }
  bool empty() const { return head_ == q_.size(); }
  // Hand every message that arrived before the edge at time value `e` (edge_value()) to f(port, msg), in order.
  template <class F>
  void take_before(uint64_t e, F&& f) {
    while (head_ < q_.size() && q_[head_].time < e) {
      const Entry x = q_[head_++];
      f(x.port, x.msg);
    }
    if (head_ == q_.size()) {
      q_.clear();
      head_ = 0;
    }
  }

 private:
  struct Entry {
    uint64_t time;
    uint32_t port;
    Msg msg;
  };
  static bool later(const Entry& a, uint64_t t, uint32_t port) { return a.time > t || (a.time == t && a.port > port); }
  std::vector<Entry> q_;
  size_t head_ = 0;
};

// The first edge of a clock of `period` strictly after now: where a registered input is taken.
inline uint64_t next_edge_after_now(const sc_core::sc_time& period) { return cycle_now(period) + 1; }

// A request port's input buffer. A BEGIN_REQ that finds room is taken into
// it at once (END_REQ returned with the call); one that finds it full waits,
// END_REQ withheld, until the block admits it at an edge. Room is counted as
// the block's last edge left it: a request the block moved on in cycle c still
// holds its slot until c+1, so the answer is the same whichever of sender and
// receiver SystemC ran first in that instant. Two entries let a sender move one
// request every cycle into a block that takes one every cycle (the one taken
// this cycle and the next). The block takes a request at its first edge after
// it arrived, like any registered input. One buffer serves one sender.
class RequestBuffer {
 public:
  static constexpr uint32_t kDepth = 2;
  struct Entry {
    tlm::tlm_generic_payload* p;
    uint64_t time;  // when it arrived (or was admitted), in SystemC time units
  };
  // BEGIN_REQ now, in the block's cycle `cycle`: true if taken (answer END_REQ), false if it waits.
  bool offer(tlm::tlm_generic_payload& p, uint64_t cycle) {
    if (occupancy(cycle) < kDepth) {
      q_.push_back(Entry{&p, now_value()});
      return true;
    }
    if (waiting_) SC_REPORT_ERROR("RequestBuffer", "BEGIN_REQ before END_REQ of the previous request");
    waiting_ = &p;
    return false;
  }
  // At the block's edge `cycle`: admit the request that waited, if a slot is free
  // now; returns it so the block sends its END_REQ, else null.
  tlm::tlm_generic_payload* admit_waiting(uint64_t cycle) {
    if (!waiting_ || occupancy(cycle) >= kDepth) return nullptr;
    tlm::tlm_generic_payload* p = waiting_;
    waiting_ = nullptr;
    q_.push_back(Entry{p, now_value()});
    return p;
  }
  // The oldest request that arrived before the edge at time value `e` (edge_value()), or null.
  const Entry* head(uint64_t e) const { return head_ < q_.size() && q_[head_].time < e ? &q_[head_] : nullptr; }
  // The head moves on into the block in cycle `cycle`; its slot frees from the next cycle.
  void pop(uint64_t cycle) {
    if (taken_cycle_ != cycle) { taken_cycle_ = cycle; taken_ = 0; }
    ++taken_;
    if (++head_ == q_.size()) { q_.clear(); head_ = 0; }
  }
  bool empty() const { return head_ == q_.size(); }
  bool has_waiting() const { return waiting_ != nullptr; }
  size_t size() const { return q_.size() - head_; }

 private:
  uint32_t occupancy(uint64_t cycle) const { return uint32_t(size()) + (taken_cycle_ == cycle ? taken_ : 0); }
  std::vector<Entry> q_;
  size_t head_ = 0;
  tlm::tlm_generic_payload* waiting_ = nullptr;
  uint64_t taken_cycle_ = UINT64_MAX;
  uint32_t taken_ = 0;
};

// The answers of a socket callback that only records what arrived:
// a forward BEGIN_REQ offered to an input buffer gets END_REQ with the call if
// it was taken; a backward END_REQ is accepted; a backward BEGIN_RESP completes.
inline tlm::tlm_sync_enum answer_offer(bool taken, tlm::tlm_phase& ph) {
  if (!taken) return tlm::TLM_ACCEPTED;  // END_REQ when a slot frees
  ph = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}
inline tlm::tlm_sync_enum answer_recorded(tlm::tlm_phase& ph) {
  if (ph == tlm::END_REQ) return tlm::TLM_ACCEPTED;
  ph = tlm::END_RESP;
  return tlm::TLM_COMPLETED;
}
// END_REQ on the backward path, for a request admitted after it waited.
template <class Socket>
void send_end_req(Socket&& initiator, tlm::tlm_generic_payload& p) {
  tlm::tlm_phase ph = tlm::END_REQ;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  initiator->nb_transport_bw(p, ph, t);
}

// A broken memory-conservation rule found inside `block` (a response that
// answers nothing outstanding): told to the platform through `on_run_error`,
// which stops the run as a fault; a block tested alone reports it to SystemC.
inline void conservation_broken(const std::function<void(const std::string&)>& on_run_error,
                                const sc_core::sc_object& block, const std::string& what) {
  const std::string msg = std::string("memory conservation broken in ") + block.name() + ": " + what;
  if (on_run_error) on_run_error(msg);
  else SC_REPORT_ERROR(block.name(), msg.c_str());
}

// Test-only faults: WARPTLM_TEST_FAULT=NAME makes one block break its rule, so
// that a test can show its check catches the break (docs/determinism.md).
inline bool test_fault(const char* name) {
  const char* f = std::getenv("WARPTLM_TEST_FAULT");
  return f && std::strcmp(f, name) == 0;
}

}  // namespace warptlm
