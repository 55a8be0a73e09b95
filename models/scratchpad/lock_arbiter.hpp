// Scratchpad-sharing lock arbiter (seed 000, sections 2.5 and 4): one lock
// per pair of thread blocks that share scratchpad, holding the id of the block
// that owns the pair's shared region. A TLM-2.0 target on the SM's socket:
// every request is decided at once (early completion, TLM_COMPLETED):
//   LockAcquire:    first come first served; granted if free or already held
//                   by the requester, else denied (the warp retries next cycle);
//   LockRelease:    relssp: the owner gives the region up;
//   LockOwnerDone:  a block finished: if it owned the lock, ownership passes
//                   to its partner (data_length carries the partner block id,
//                   or ~0 when it has none).
// The request's address is the pair index; GpuExtension.block the requester;
// the decision comes back in GpuExtension.tag (1 granted, 0 denied).
//
// ss.lock_arbiter.impl selects the implementation (docs/rtl.md): this model, or
// the arbiter's RTL (rtl/lock_arbiter.sv) behind its transactor, or both in
// lockstep. Each is a LockArbiterBlock the resource access unit binds to.
#pragma once
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "common/block_impl.hpp"
#include "common/gpu_payload.hpp"
#include "common/input_register.hpp"  // test_fault
#include "common/stats.hpp"
#include "common/trace.hpp"

namespace warptlm {

// What the resource access unit's socket binds to: the arbiter in any of its implementations.
class LockArbiterBlock {
 public:
  static constexpr uint32_t kFree = 0xFFFFFFFFu;
  virtual ~LockArbiterBlock() = default;
  virtual tlm::tlm_target_socket<>& target() = 0;
  virtual sc_core::sc_object& object() = 0;
  // A new launch: every lock free.
  virtual void reset() = 0;
  virtual uint32_t owner(uint32_t pair) const = 0;
};

// A lock request over TLM (BEGIN_REQ), answered at once (early completion, TLM_COMPLETED): the decision of
// `decide(kind, pair, block, partner)` in GpuExtension.tag. Every implementation's socket answers this way.
template <class Decide>
tlm::tlm_sync_enum answer_lock_request(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, Decide&& decide) {
  if (ph != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED;
  GpuExtension& e = gpu_ext(p);
  e.tag = decide(e.kind, uint32_t(p.get_address()), e.block, uint32_t(p.get_data_length()));
  p.set_response_status(tlm::TLM_OK_RESPONSE);
  ph = tlm::BEGIN_RESP;
  return tlm::TLM_COMPLETED;
}

// The arbiter's counters and owner probes (sm<i>.ssp), kept from what each request asked and got, the same
// for every implementation.
class LockArbiterStats {
 public:
  LockArbiterStats(uint32_t sm_id, uint32_t max_pairs, StatsRegistry& stats);
  // One request: its kind, pair, requester, whether it was granted, the owner before and after it.
  void record(MemKind kind, uint32_t pair, uint32_t block, bool granted, uint32_t before, uint32_t after);
  void reset() { std::fill(released_by_.begin(), released_by_.end(), LockArbiterBlock::kFree); }

 private:
  std::vector<uint32_t> released_by_;  // per pair: the block whose relssp freed it last (kFree once taken again)
  std::vector<Probe> probes_;
  Counter *acquires_, *denials_, *releases_, *transfers_, *after_release_;
};

class LockArbiter : public sc_core::sc_module, public LockArbiterBlock {
 public:
  tlm_utils::simple_target_socket<LockArbiter> socket;

  // `stats` null: no counters or probes (the model inside a lockstep pair keeps them).
  LockArbiter(sc_core::sc_module_name n, uint32_t sm_id, uint32_t max_pairs, StatsRegistry& stats)
      : LockArbiter(n, sm_id, max_pairs, &stats) {}
  LockArbiter(sc_core::sc_module_name n, uint32_t sm_id, uint32_t max_pairs, StatsRegistry* stats);
  SC_HAS_PROCESS(LockArbiter);

  tlm::tlm_target_socket<>& target() override { return socket; }
  sc_core::sc_object& object() override { return *this; }
  uint32_t owner(uint32_t pair) const override { return owner_[pair]; }
  void reset() override;
  // One request, decided at once: 1 granted, 0 denied (the rules above).
  uint32_t decide(MemKind kind, uint32_t pair, uint32_t block, uint32_t partner);

  // The other implementations, made by the RTL library of a build with Verilator (register_rtl_blocks):
  // a block named `n` in SM `sm_id` for `impl` (rtl or lockstep); null in a build without RTL.
  using MakeRtl = std::unique_ptr<LockArbiterBlock> (*)(BlockImpl impl, const char* n, uint32_t sm_id, uint32_t max_pairs,
                                                         StatsRegistry& stats, const sc_core::sc_time& period);
  static MakeRtl make_rtl;

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time&);

  std::vector<uint32_t> owner_;
  std::unique_ptr<LockArbiterStats> stats_;
  // WARPTLM_TEST_FAULT=ssp_lock_always_grants (test only): every acquire is
  // granted, so both blocks of a pair use the shared region at once and the
  // workloads' checks must see their data corrupted.
  bool always_grant_ = false;
};

// The arbiter's implementation as ss.lock_arbiter.impl selects it (refused when this build has no RTL).
// `period`: the core clock's.
std::unique_ptr<LockArbiterBlock> make_lock_arbiter(BlockImpl impl, const char* n, uint32_t sm_id, uint32_t max_pairs,
                                                    StatsRegistry& stats, const sc_core::sc_time& period);

}  // namespace warptlm
