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
#pragma once
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "common/gpu_payload.hpp"
#include "common/input_register.hpp"  // test_fault
#include "common/stats.hpp"
#include "common/trace.hpp"

namespace warptlm {

class LockArbiter : public sc_core::sc_module {
 public:
  static constexpr uint32_t kFree = 0xFFFFFFFFu;
  tlm_utils::simple_target_socket<LockArbiter> socket;

  LockArbiter(sc_core::sc_module_name n, uint32_t sm_id, uint32_t max_pairs, StatsRegistry& stats)
      : sc_core::sc_module(n), socket("socket"), owner_(max_pairs, kFree), released_by_(max_pairs, kFree), probes_(max_pairs),
        always_grant_(test_fault("ssp_lock_always_grants")) {
    socket.register_nb_transport_fw(this, &LockArbiter::nb_transport_fw);
    StatGroup g(stats, "sm" + std::to_string(sm_id) + ".ssp", "ssp");
    acquires_ = &g.counter("lock_acquires", "shared-region locks taken (first come first served)");
    denials_ = &g.counter("lock_denials", "shared-region accesses refused because the partner holds the lock (retried next cycle)");
    releases_ = &g.counter("relssp_releases", "locks released early by relssp");
    transfers_ = &g.counter("lock_transfers", "locks passed to the partner when the owner block finished");
    after_release_ = &g.counter("lock_acquires_after_relssp",
                                "locks taken by a block after another block of its pair released the region with relssp");
    for (uint32_t k = 0; k < max_pairs; ++k)
      probes_[k].declare("sm" + std::to_string(sm_id) + ".ssp.pair" + std::to_string(k) + ".owner", 32);
  }
  SC_HAS_PROCESS(LockArbiter);

  uint32_t owner(uint32_t pair) const { return owner_[pair]; }
  void reset() {
    std::fill(owner_.begin(), owner_.end(), kFree);
    std::fill(released_by_.begin(), released_by_.end(), kFree);
  }

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time&) {
    if (ph != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED;
    GpuExtension& e = gpu_ext(p);
    const uint32_t pair = uint32_t(p.get_address());
    uint32_t& o = owner_[pair];
    e.tag = 0;
    switch (e.kind) {
      case MemKind::LockAcquire:
        if (o == kFree || o == e.block || always_grant_) {
          if (o != e.block) {
            ++*acquires_;
            if (released_by_[pair] != kFree && released_by_[pair] != e.block) ++*after_release_;
            released_by_[pair] = kFree;
          }
          o = e.block;
          e.tag = 1;
        } else {
          ++*denials_;
        }
        break;
      case MemKind::LockRelease:
        if (o == e.block) {
          o = kFree;
          released_by_[pair] = e.block;
          ++*releases_;
          e.tag = 1;
        }
        break;
      case MemKind::LockOwnerDone:
        if (o == e.block) {
          const uint32_t partner = p.get_data_length();
          o = partner;
          if (partner != kFree) ++*transfers_;
          e.tag = 1;
        }
        break;
      default: break;
    }
    probes_[pair].set(o);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    ph = tlm::BEGIN_RESP;
    return tlm::TLM_COMPLETED;
  }

  std::vector<uint32_t> owner_;
  std::vector<uint32_t> released_by_;  // per pair: the block whose relssp freed it last (kFree once taken again)
  std::vector<Probe> probes_;
  Counter *acquires_, *denials_, *releases_, *transfers_, *after_release_;
  // WARPTLM_TEST_FAULT=ssp_lock_always_grants (test only): every acquire is
  // granted, so both blocks of a pair use the shared region at once and the
  // workloads' checks must see their data corrupted.
  bool always_grant_ = false;
};

}  // namespace warptlm
