// Banked shared memory of one SM: a TLM-2.0 approximately-timed target that
// receives one request per warp shared-memory instruction and answers it when
// the bank array has served it.
//
// Hardware: `banks` single-ported banks, each delivering one `bank_width`-byte
// word per cycle, behind one request port. An access holds the bank array for
// its service cycles (sum of its parts' conflict degrees, bank_conflict.hpp);
// a new access is taken (END_REQ) only when the array is free, otherwise
// END_REQ is withheld until it is (back-pressure on the LD/ST unit, the held
// MEM0 stage of seed 001 Sect. 1.5). The response leaves
//   acceptance + latency + service - 1
// cycles after acceptance: a conflict-free access (service 1) takes `latency`
// cycles, and each extra service cycle delays the last part's data by one.
//
// Data never travels here: the functional model moved it at issue. The
// request's GpuExtension carries the 32 per-lane byte offsets (lane_addr),
// the active lanes (lane_mask) and the bytes per lane (access_bytes). A
// request without lane_addr is a contiguous block of data_length bytes from
// its address (a cache line of a mechanism that borrows the array).
//
// Smart ticking: one SC_METHOD runs only when a withheld request can be taken
// or a response is due; it sleeps on an event otherwise. Idle cycles cost
// nothing.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "common/clock.hpp"
#include "common/clock_domain.hpp"
#include "common/gpu_payload.hpp"
#include "common/stats.hpp"
#include "common/trace.hpp"
#include "smem/bank_conflict.hpp"
#include "smem/smem_params.hpp"

namespace warptlm {

// The bank arbiter's other implementations (smem.bank_arbiter.impl: rtl | lockstep, docs/rtl.md): the RTL
// (rtl/bank_arbiter.sv) behind its transactor, or it and the model compared on every access. The same
// contract as service_cycles(). Made by the RTL library of a build with Verilator (register_rtl_blocks).
class BankArbiterRtl {
 public:
  virtual ~BankArbiterRtl() = default;
  virtual uint32_t service_cycles(const uint64_t* lane_addr, uint32_t mask, unsigned bytes, uint32_t* part_degrees) = 0;
  // For the array `p` of block `instance` ("sm3.smem"; its RTL signals trace as "<instance>.rtl"); refuses
  // (InputError) a geometry the verilated arbiter does not have. Null in a build without RTL.
  using Make = std::unique_ptr<BankArbiterRtl> (*)(BlockImpl impl, const SharedMemoryParams& p, const std::string& instance,
                                                   const sc_core::sc_time& period);
  static Make make;
};

class SharedMemory : public sc_core::sc_module, public SharedClockMember {
 public:
  tlm_utils::simple_target_socket<SharedMemory> socket;

  // `sm_id` names the stats ("sm<id>.smem.*"); `period` is this block's clock.
  SharedMemory(sc_core::sc_module_name name, uint32_t sm_id, const SharedMemoryParams& p, sc_core::sc_time period,
               StatsRegistry& stats);
  // The same array under other stats names (`instance`.requests, summed over
  // instances as `kind`.requests): a memory that acts exactly as shared memory
  // (a mesh's communication buffers).
  SharedMemory(sc_core::sc_module_name name, const std::string& instance, const std::string& kind,
               const SharedMemoryParams& p, sc_core::sc_time period, StatsRegistry& stats);
  SC_HAS_PROCESS(SharedMemory);

  const SharedMemoryParams& params() const { return p_; }
  const sc_core::sc_time& clock_period() const override { return period_; }
  uint32_t bank_of(uint64_t addr) const { return smem_bank_of(addr, p_); }
  uint64_t cycle() const { return cycle_now(period_); }

  // Capacity hooks for mechanisms that give part of the array to another use
  // (CIAO's redirected cache lines, seed 002 Sect. 4.2; scratchpad sharing,
  // seed 000). The array is `size` bytes; thread blocks hold `allocated`
  // bytes from the bottom (the dispatcher reports it); one claimant may hold
  // a tail region at the top. Requests to the tail use the same socket and
  // banks, addressed by byte offset from 0 like any shared-space access.
  static constexpr uint32_t kNoSpace = UINT32_MAX;
  // Claims the top `bytes` of the array (replacing an earlier claim) and
  // returns the offset where the region starts (size - bytes), or kNoSpace,
  // leaving the earlier claim, when blocks and tail would overlap.
  uint32_t reserve_tail(uint32_t bytes);
  void release_tail() { tail_ = 0; }
  uint32_t tail_bytes() const { return tail_; }
  uint32_t tail_base() const { return p_.size - tail_; }
  // The dispatcher reports the bytes resident thread blocks hold. Returns
  // false (and changes nothing) when blocks would overlap the tail region.
  bool set_allocated(uint32_t bytes);
  uint32_t allocated() const { return allocated_; }
  uint32_t free_bytes() const { return p_.size - allocated_ - tail_; }

  // A port that borrows the bank array for whole-line accesses (CIAO's cache
  // of isolated warps' lines, seed 002 sec. IV-B: a 128-byte line striped over
  // one bank group and its tag in the other, read or written in one access)
  // takes the array for cycle `at`, later than the current cycle (it books
  // the cycle ahead: a registered input, so the outcome does not depend on
  // which process runs first). The port has priority: a warp access being
  // served in that cycle yields it and ends a cycle later; one that would
  // start in it starts after it.
  void lend_cycle(uint64_t at);

  // Bank-array state for schedulers (bank-conflict-aware scheduling, seed 001
  // Sect. 4): the first cycle the array can take a new access, and whether a
  // request is waiting for it.
  uint64_t free_cycle() const { return free_cycle_; }
  bool request_waiting() const { return pending_ != nullptr; }
  size_t responses_pending() const { return resp_count_; }
  // Called when an access enters the bank array, with its extension and
  // service cycles (a conflict-history cache learns per-PC degrees here).
  std::function<void(const GpuExtension&, uint32_t service)> on_service;
  // Times the process ran (tests check that idle time costs nothing).
  uint64_t activations() const { return activations_; }

 private:
  struct Response { uint64_t cycle; tlm::tlm_generic_payload* p; };

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
  void step();
  void accept(tlm::tlm_generic_payload& p, uint64_t now, uint64_t arrived);  // bank array takes the access
  uint32_t serve(tlm::tlm_generic_payload& p);  // service cycles; samples per-part degrees
  void send_response(tlm::tlm_generic_payload& p);
  void wake_at(uint64_t cycle) { ask_edge(wake_, period_, cycle); }
  // In its SM's partition of the core clock domain (platform): the edge is all its own part, since what it
  // answers goes to its SM alone.
  bool splits_edge() const override { return true; }
  void edge_own_work(uint64_t c) override {
    own_cycle_ = c;
    step();
  }
  uint64_t clock_edge(uint64_t c) override {
    if (own_cycle_ != c) step();
    own_cycle_ = UINT64_MAX;
    return kNever;  // step() asked for its next edge
  }
  uint64_t own_cycle_ = UINT64_MAX;
  void push_response(const Response& r);

  SharedMemoryParams p_;
  sc_core::sc_time period_;
  sc_core::sc_event wake_;
  uint64_t free_cycle_ = 0;                       // bank array busy before this cycle
  uint64_t serving_since_ = 0;                    // the access in the array started here (ends at free_cycle_)
  std::vector<uint64_t> lent_;                    // cycles lent ahead to the borrowing port, ascending, from lent_head_
  size_t lent_head_ = 0;
  tlm::tlm_generic_payload* pending_ = nullptr;   // request whose END_REQ is withheld
  uint64_t pending_since_ = 0;
  bool resp_blocked_ = false;                     // initiator has not sent END_RESP yet
  // Responses in order of their cycle (acceptances are at least one service
  // apart, so cycles only grow): a ring that grows only when full.
  std::vector<Response> resp_;
  size_t resp_head_ = 0, resp_count_ = 0;
  std::vector<uint32_t> part_degrees_;
  std::unique_ptr<BankArbiterRtl> rtl_;  // smem.bank_arbiter.impl rtl or lockstep; null: the model's service_cycles()
  uint32_t allocated_ = 0, tail_ = 0;
  uint64_t activations_ = 0;

  Counter *requests_, *responses_, *accesses_, *busy_cycles_, *stall_cycles_, *bank_conflicts_;
  Counter *lent_cycles_, *yielded_cycles_;
  Histogram* degree_hist_;
  // Waveform probe "sm<i>.smem.conflict_degree": the degree of the access the
  // bank array is serving (its busiest part), 0 while the array is free (set
  // ahead with Probe::set_at: no wake-up of its own, tracing changes no timing).
  Probe degree_probe_;
};

}  // namespace warptlm
