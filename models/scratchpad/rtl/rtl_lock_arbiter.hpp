// The pair-lock arbiter's RTL in the loop (docs/rtl.md): the transactor that puts the verilated
// lock_arbiter.sv where the model (LockArbiter) sits, on the resource access unit's socket, and the lockstep
// pair that runs both. Made through LockArbiter::make_rtl (ss.lock_arbiter.impl: rtl | lockstep).
//
// The transactor turns each TLM request into the RTL's pins in the core cycle the unit sends it: the request
// on req_*, rd_pair on the same pair; the combinational answer req_granted is the transaction's answer (the
// model answers at once, TLM_COMPLETED), and a rising edge of clk then writes the owner table. The RTL takes
// one request per edge, and the unit may send several in one core cycle (two schedulers' warps, a block's
// arrival and another's end), one after another, each seeing the one before: the transactor gives each its
// own edge, so the RTL's clock runs at the request rate (a ported arbiter serving its ports in order would
// do the same work in one core cycle). In the waveform a request shows in its core cycle and its effect on
// the owner table from the next.
#pragma once
#include <cstdint>
#include <memory>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "scratchpad/lock_arbiter.hpp"

namespace warptlm {

class LockArbiterPins;  // the verilated model behind its pins (rtl_lock_arbiter.cpp)

class RtlLockArbiter : public sc_core::sc_module, public LockArbiterBlock {
 public:
  tlm_utils::simple_target_socket<RtlLockArbiter> socket;

  // `stats` null: no counters or probes (the RTL inside a lockstep pair). `trace_name`: the dotted name its
  // signals take in the waveform. Refuses (InputError) an SM with more locks than the verilated arbiter has.
  RtlLockArbiter(sc_core::sc_module_name n, uint32_t sm_id, uint32_t max_pairs, StatsRegistry* stats,
                 const std::string& trace_name, const sc_core::sc_time& period);
  ~RtlLockArbiter() override;
  SC_HAS_PROCESS(RtlLockArbiter);

  tlm::tlm_target_socket<>& target() override { return socket; }
  sc_core::sc_object& object() override { return *this; }
  uint32_t owner(uint32_t pair) const override;
  void reset() override;
  uint32_t decide(MemKind kind, uint32_t pair, uint32_t block, uint32_t partner);

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time&);
  sc_core::sc_time period_;  // the core clock's
  std::unique_ptr<LockArbiterPins> pins_;
  std::unique_ptr<LockArbiterStats> stats_;
};

// ss.lock_arbiter.impl: lockstep. Every request goes over TLM to the model, whose answer the unit gets, and
// to the RTL's transactor; the grant and the pair's owner after it must agree, or the run stops
// (lockstep_divergence) naming the cycle, the SM, the request and both answers.
class LockstepLockArbiter : public sc_core::sc_module, public LockArbiterBlock {
 public:
  tlm_utils::simple_target_socket<LockstepLockArbiter> socket;
  LockstepLockArbiter(sc_core::sc_module_name n, uint32_t sm_id, uint32_t max_pairs, StatsRegistry& stats,
                      const std::string& trace_name, const sc_core::sc_time& period);
  SC_HAS_PROCESS(LockstepLockArbiter);

  tlm::tlm_target_socket<>& target() override { return socket; }
  sc_core::sc_object& object() override { return *this; }
  uint32_t owner(uint32_t pair) const override { return model_.owner(pair); }
  void reset() override {
    model_.reset();
    rtl_.reset();
  }

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time&);
  uint32_t sm_id_;
  sc_core::sc_time period_;
  tlm_utils::simple_initiator_socket<LockstepLockArbiter> to_model_, to_rtl_;
  LockArbiter model_;
  RtlLockArbiter rtl_;
};

// Sets LockArbiter::make_rtl (called by register_rtl_blocks).
void register_rtl_lock_arbiter();

}  // namespace warptlm
