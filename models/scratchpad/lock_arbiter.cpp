#include "scratchpad/lock_arbiter.hpp"

namespace warptlm {

LockArbiter::MakeRtl LockArbiter::make_rtl = nullptr;

LockArbiterStats::LockArbiterStats(uint32_t sm_id, uint32_t max_pairs, StatsRegistry& stats)
    : released_by_(max_pairs, LockArbiterBlock::kFree), probes_(max_pairs) {
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

void LockArbiterStats::record(MemKind kind, uint32_t pair, uint32_t block, bool granted, uint32_t before, uint32_t after) {
  switch (kind) {
    case MemKind::LockAcquire:
      if (!granted) {
        ++*denials_;
      } else if (before != block) {
        ++*acquires_;
        if (released_by_[pair] != LockArbiterBlock::kFree && released_by_[pair] != block) ++*after_release_;
        released_by_[pair] = LockArbiterBlock::kFree;
      }
      break;
    case MemKind::LockRelease:
      if (granted) {
        released_by_[pair] = block;
        ++*releases_;
      }
      break;
    case MemKind::LockOwnerDone:
      if (granted && after != LockArbiterBlock::kFree) ++*transfers_;
      break;
    default: break;
  }
  probes_[pair].set(after);
}

LockArbiter::LockArbiter(sc_core::sc_module_name n, uint32_t sm_id, uint32_t max_pairs, StatsRegistry* stats)
    : sc_core::sc_module(n), socket("socket"), owner_(max_pairs, kFree),
      stats_(stats ? std::make_unique<LockArbiterStats>(sm_id, max_pairs, *stats) : nullptr),
      always_grant_(test_fault("ssp_lock_always_grants")) {
  socket.register_nb_transport_fw(this, &LockArbiter::nb_transport_fw);
}

void LockArbiter::reset() {
  std::fill(owner_.begin(), owner_.end(), kFree);
  if (stats_) stats_->reset();
}

uint32_t LockArbiter::decide(MemKind kind, uint32_t pair, uint32_t block, uint32_t partner) {
  uint32_t& o = owner_[pair];
  const uint32_t before = o;
  bool granted = false;
  switch (kind) {
    case MemKind::LockAcquire:
      granted = o == kFree || o == block || always_grant_;
      if (granted) o = block;
      break;
    case MemKind::LockRelease:
      granted = o == block;
      if (granted) o = kFree;
      break;
    case MemKind::LockOwnerDone:
      granted = o == block;
      if (granted) o = partner;
      break;
    default: break;
  }
  if (stats_) stats_->record(kind, pair, block, granted, before, o);
  return granted ? 1 : 0;
}

tlm::tlm_sync_enum LockArbiter::nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time&) {
  return answer_lock_request(p, ph, [this](MemKind k, uint32_t pair, uint32_t block, uint32_t partner) {
    return decide(k, pair, block, partner);
  });
}

std::unique_ptr<LockArbiterBlock> make_lock_arbiter(BlockImpl impl, const char* n, uint32_t sm_id, uint32_t max_pairs,
                                                    StatsRegistry& stats, const sc_core::sc_time& period) {
  if (impl == BlockImpl::Model) return std::make_unique<LockArbiter>(n, sm_id, max_pairs, stats);
  return LockArbiter::make_rtl(impl, n, sm_id, max_pairs, stats, period);
}

}  // namespace warptlm
