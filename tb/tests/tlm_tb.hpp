// Component testbench kit: drive one WarpTLM block through its TLM-2.0 sockets.
//
// WarpTLM's approximately-timed rules, which every block and these testbench
// modules follow:
//  - BEGIN_REQ: the target answers TLM_UPDATED with END_REQ when it takes the
//    request now, or TLM_ACCEPTED and sends END_REQ later on the backward path
//    (back-pressure). An initiator sends no new BEGIN_REQ on a socket until the
//    previous one got END_REQ.
//  - BEGIN_RESP: the target sends it on the backward path; the initiator
//    answers TLM_COMPLETED (the response is taken at once; no END_RESP).
//  - Payloads come from a PayloadPool and carry a GpuExtension; blocks that
//    fan in push the input port on the extension's route stack and pop it to
//    send the response back.
//  - Time: requests and responses happen on clock edges of the sender's clock.
#pragma once
#include <deque>
#include <functional>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <algorithm>
#include <map>
#include <vector>

#include "common/gpu_payload.hpp"
#include "gpu/flat_memory.hpp"

namespace warptlm {
namespace tb {

struct Request {
  uint64_t cycle = 0;          // earliest cycle to send
  uint64_t addr = 0;
  bool write = false;
  uint32_t bytes = 128;
  uint32_t sector_mask = 0xF;
  MemKind kind = MemKind::Load;
  uint16_t sm = 0, warp = 0;
  std::vector<uint64_t> lanes;  // shared-memory requests: per-lane addresses (lane_mask = lanes present)
  uint8_t access_bytes = 4;
  uint8_t space = 0;            // GpuExtension.space (isa Space: 1 global, 3 local)
  bool redirect = false;        // GpuExtension.l1_redirect (to the L1's side store)
  bool nc = false;              // GpuExtension.nc_load (ld.global.nc)
};

struct Completed {
  size_t index;                 // into the requests, in the order added
  uint64_t sent, accepted, responded;  // cycles: BEGIN_REQ, END_REQ, BEGIN_RESP
};

// Sends requests in order, each no earlier than its cycle and only after the
// previous one was accepted; records when each was accepted and answered.
class TrafficInitiator : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<TrafficInitiator> socket;
  std::vector<Completed> done;

  TrafficInitiator(sc_core::sc_module_name n, sc_core::sc_time period)
      : sc_core::sc_module(n), socket("socket"), period_(period) {
    socket.register_nb_transport_bw(this, &TrafficInitiator::nb_transport_bw);
    SC_THREAD(run);
  }
  SC_HAS_PROCESS(TrafficInitiator);

  void add(const Request& r) { reqs_.push_back(r); }
  size_t requests() const { return reqs_.size(); }
  uint64_t cycle() const { return uint64_t(sc_core::sc_time_stamp() / period_); }

 private:
  void run() {
    for (size_t i = 0; i < reqs_.size(); ++i) {
      const Request& r = reqs_[i];
      if (cycle() < r.cycle) wait(period_ * double(r.cycle - cycle()));
      tlm::tlm_generic_payload* p = pool_.acquire();
      p->set_command(r.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
      p->set_address(r.addr);
      p->set_data_length(r.bytes);
      GpuExtension& e = gpu_ext(*p);
      e.sm = r.sm;
      e.warp = r.warp;
      e.kind = r.kind;
      e.tag = i;
      e.sector_mask = r.sector_mask;
      e.access_bytes = r.access_bytes;
      e.space = r.space;
      e.l1_redirect = r.redirect;
      e.nc_load = r.nc;
      e.issue_cycle = cycle();
      if (!r.lanes.empty()) {
        lane_store_.emplace_back(32, 0);
        for (size_t l = 0; l < r.lanes.size() && l < 32; ++l) lane_store_.back()[l] = r.lanes[l];
        e.lane_addr = lane_store_.back().data();
        e.lane_mask = r.lanes.size() >= 32 ? 0xFFFFFFFFu : ((1u << r.lanes.size()) - 1);
      }
      done.push_back(Completed{i, cycle(), UINT64_MAX, UINT64_MAX});
      slot_of_[i] = done.size() - 1;
      tlm::tlm_phase ph = tlm::BEGIN_REQ;
      sc_core::sc_time t = sc_core::SC_ZERO_TIME;
      tlm::tlm_sync_enum s = socket->nb_transport_fw(*p, ph, t);
      if (s == tlm::TLM_UPDATED && ph == tlm::END_REQ) done.back().accepted = cycle();
      else if (s == tlm::TLM_COMPLETED) { done.back().accepted = done.back().responded = cycle(); p->release(); }
      else wait(end_req_);  // back-pressure: wait for END_REQ
    }
  }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time&) {
    const size_t i = size_t(gpu_ext(p).tag);
    if (ph == tlm::END_REQ) {
      done[slot_of_[i]].accepted = cycle();
      end_req_.notify(sc_core::SC_ZERO_TIME);
      return tlm::TLM_ACCEPTED;
    }
    if (ph == tlm::BEGIN_RESP) {
      Completed& c = done[slot_of_[i]];
      if (c.accepted == UINT64_MAX) { c.accepted = cycle(); end_req_.notify(sc_core::SC_ZERO_TIME); }
      c.responded = cycle();
      p.release();
      return tlm::TLM_COMPLETED;
    }
    return tlm::TLM_ACCEPTED;
  }

  sc_core::sc_time period_;
  PayloadPool pool_;
  std::vector<Request> reqs_;
  std::deque<std::vector<uint64_t>> lane_store_;
  std::map<size_t, size_t> slot_of_;
  sc_core::sc_event end_req_;
};

// A memory below the block under test: the flat global memory (answers every
// request after a fixed number of its cycles), recording what reached it.
struct SinkStats {
  StatsRegistry stats;  // the sink's own counters, apart from the block under test's
};
class FixedLatencySink : private SinkStats, public FlatMemory {
 public:
  struct Seen { uint64_t addr; bool write; uint64_t cycle; uint32_t sector_mask; uint32_t bytes; };
  std::vector<Seen> seen;

  FixedLatencySink(sc_core::sc_module_name n, sc_core::sc_time period, uint64_t latency_cycles)
      : FlatMemory(n, period * double(latency_cycles), SinkStats::stats) {
    on_request = [this, period](tlm::tlm_generic_payload& p) {
      seen.push_back(Seen{p.get_address(), p.is_write(), uint64_t(sc_core::sc_time_stamp() / period), gpu_ext(p).sector_mask,
                          p.get_data_length()});
    };
  }
};

// A target that answers in arrival order, `latency` cycles after each request
// arrived, one BEGIN_RESP a cycle, and keeps the base protocol's response
// rule: after a BEGIN_RESP answered TLM_ACCEPTED it sends nothing until the
// initiator's END_RESP. Records when each response was offered and released.
class PacedSink : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<PacedSink> socket;
  struct Answer { uint64_t addr; uint64_t arrived, offered, released; };  // cycles
  std::vector<Answer> answers;

  PacedSink(sc_core::sc_module_name n, sc_core::sc_time period, uint64_t latency_cycles)
      : sc_core::sc_module(n), socket("socket"), period_(period), latency_(latency_cycles) {
    socket.register_nb_transport_fw(this, &PacedSink::nb_transport_fw);
    SC_THREAD(run);
  }
  SC_HAS_PROCESS(PacedSink);

 private:
  uint64_t cycle() const { return uint64_t(sc_core::sc_time_stamp() / period_); }
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time&) {
    if (ph == tlm::END_RESP) {
      answers.at(open_).released = cycle();
      end_resp_.notify(sc_core::SC_ZERO_TIME);
      return tlm::TLM_COMPLETED;
    }
    if (ph != tlm::BEGIN_REQ) return tlm::TLM_ACCEPTED;
    answers.push_back(Answer{p.get_address(), cycle(), UINT64_MAX, UINT64_MAX});
    pending_.push_back(&p);
    arrived_.notify(sc_core::SC_ZERO_TIME);
    ph = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }
  void run() {
    for (size_t k = 0;; ++k) {
      while (k >= pending_.size()) wait(arrived_);
      const uint64_t due = std::max(answers[k].arrived + latency_, last_ + 1);
      if (cycle() < due) wait(period_ * double(due - cycle()));
      tlm::tlm_generic_payload* p = pending_[k];
      p->set_response_status(tlm::TLM_OK_RESPONSE);
      answers[k].offered = last_ = cycle();
      open_ = k;
      tlm::tlm_phase ph = tlm::BEGIN_RESP;
      sc_core::sc_time t = sc_core::SC_ZERO_TIME;
      const tlm::tlm_sync_enum s = socket->nb_transport_bw(*p, ph, t);
      if (s == tlm::TLM_COMPLETED || (s == tlm::TLM_UPDATED && ph == tlm::END_RESP)) answers[k].released = cycle();
      else wait(end_resp_);
    }
  }
  sc_core::sc_time period_;
  uint64_t latency_;
  uint64_t last_ = 0;
  size_t open_ = 0;
  std::vector<tlm::tlm_generic_payload*> pending_;
  sc_core::sc_event arrived_, end_resp_;
};

}  // namespace tb
}  // namespace warptlm
