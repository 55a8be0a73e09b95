// Placeholder global memory for the SM timing core: one TLM-2.0 AT target that
// answers every request after a fixed latency with unlimited bandwidth. The
// memory hierarchy (L1D, crossbar, L2, DRAM) replaces it behind the same socket.
#pragma once
#include <functional>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/peq_with_get.h>

#include "common/gpu_payload.hpp"
#include "common/stats.hpp"

namespace warptlm {

class FlatMemory : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<FlatMemory> socket;

  FlatMemory(sc_core::sc_module_name name, sc_core::sc_time latency, StatsRegistry& stats)
      : sc_core::sc_module(name), socket("socket"), latency_(latency), peq_("peq") {
    socket.register_nb_transport_fw(this, &FlatMemory::nb_transport_fw);
    requests_ = &stats.counter("mem.requests", "mem.requests", "requests to the flat global memory");
    responses_ = &stats.counter("mem.responses", "mem.responses", "responses from the flat global memory");
    SC_METHOD(respond);
    sensitive << peq_.get_event();
    dont_initialize();
  }
  SC_HAS_PROCESS(FlatMemory);

  // Sees each request as it arrives (testbenches record the traffic with it).
  std::function<void(tlm::tlm_generic_payload&)> on_request;

 private:
  tlm::tlm_sync_enum nb_transport_fw(int id, tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
    if (ph != tlm::BEGIN_REQ) return tlm::TLM_ACCEPTED;  // END_RESP: nothing to do
    ++*requests_;
    if (on_request) on_request(p);
    gpu_ext(p).push_route(int16_t(id));
    peq_.notify(p, t + latency_);
    ph = tlm::END_REQ;  // accepted at once: this memory never back-pressures
    return tlm::TLM_UPDATED;
  }
  void respond() {
    while (tlm::tlm_generic_payload* p = peq_.get_next_transaction()) {
      int id = gpu_ext(*p).pop_route();
      p->set_response_status(tlm::TLM_OK_RESPONSE);
      tlm::tlm_phase ph = tlm::BEGIN_RESP;
      sc_core::sc_time t = sc_core::SC_ZERO_TIME;
      ++*responses_;
      socket[id]->nb_transport_bw(*p, ph, t);
    }
  }

  sc_core::sc_time latency_;
  tlm_utils::peq_with_get<tlm::tlm_generic_payload> peq_;
  Counter *requests_, *responses_;
};

}  // namespace warptlm
