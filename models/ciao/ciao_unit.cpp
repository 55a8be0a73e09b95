#include "ciao/ciao_unit.hpp"

#include <systemc>

#include "ciao/ciao.hpp"
#include "common/errors.hpp"
#include "common/input_register.hpp"
#include "sm/sm.hpp"

namespace warptlm {

CiaoUnit::CiaoUnit(Sm& sm, SharedMemory& banks, const CiaoParams& p, uint32_t warps, const CiaoCounters& c)
    : sm_(sm), high_cutoff_(p.high_cutoff), low_cutoff_(p.low_cutoff), c_(c),
      watch_(p.vta_sets, p.vta_ways, p.vta_invalidate_on_hit, c.vta_insertions, c.vta_hits), detector_(warps, p.list_entries, p.list_replace, p.windowed),
      states_(warps, p.variant, c.states), epochs_(p.low_epoch, p.high_epoch),
      redirects_(p.variant != CiaoVariant::Throttle), cache_(watch_, banks, p.smem_latency, c.cache),
      fault_stall_ignored_(test_fault("ciao_stall_ignored")), fault_region_overlap_(test_fault("ciao_region_overlap")) {
  set_active(true);
}

// VTA hits of the L1 (its process) reach the detector at the SM's first edge after them.
void CiaoUnit::take_vta_hits() {
  watch_.take_hits(now_value(),
                   [this](const VictimTagWatch::Hit& h) { detector_.vta_hit(h.warp, h.evictor); });
}

// Every issued warp instruction counts; the samplers end the epochs (sec. IV-A).
void CiaoUnit::at_issue(const WarpSlot& w, const Instr&, uint32_t) {
  if (states_.stalled(uint16_t(w.slot)) && !w.block->waits_at_barrier())
    throw RunError("CIAO: warp slot " + std::to_string(w.slot) + " issued while stalled (the issue filter let it through)");
  detector_.instruction();
  const uint8_t ends = epochs_.instruction();
  if (!ends) return;
  take_vta_hits();
  if (ends & EpochSamplers::kLow) {
    ++*c_.low_epochs;
    states_.low_epoch(detector_, low_cutoff_);
  }
  if (ends & EpochSamplers::kHigh) {
    ++*c_.high_epochs;
    states_.high_epoch(detector_, high_cutoff_);
    detector_.close_window();
  }
}

bool CiaoUnit::allows(const WarpSlot& w) const {
  if (!states_.stalled(uint16_t(w.slot)) || fault_stall_ignored_) return true;
  // Warps of the block wait at one of its barriers: a stalled warp of that block may issue (spec 002 sec. 5.3).
  if (w.block->waits_at_barrier()) {
    ++*c_.barrier_passes;
    return true;
  }
  ++*c_.stall_refusals;
  return false;
}

SharedAddressMap CiaoUnit::shared_map(const Block* b) const {
  for (size_t s = 0; s < slots_.size(); ++s)
    if (slots_[s] == b) return SharedAddressMap{UINT32_MAX, uint32_t(s) * block_bytes_, 0};
  return SharedAddressMap{UINT32_MAX, 0, 0};
}

void CiaoUnit::block_arrived(const Block* b) {
  if (!redirects_) return;
  for (auto& s : slots_)
    if (!s) {
      s = b;
      return;
    }
  slots_.push_back(b);
}

void CiaoUnit::block_retired(const Block* b) {
  for (auto& s : slots_)
    if (s == b) s = nullptr;
}

void CiaoUnit::begin_kernel(uint32_t block_bytes, uint32_t region_base, const GlobalMemory* mem) {
  if (redirects_) {
    block_bytes_ = block_bytes;
    slots_.clear();
    const uint32_t size = sm_.params().shared_mem;
    const uint32_t base = fault_region_overlap_ ? 0 : std::min(region_base, size);
    cache_.begin_kernel(base, size - base, sm_.shared_storage(), mem);
    states_.set_redirect_possible(cache_.usable());
  }
  watch_.clear_watch();
  detector_.reset();
  states_.reset();
  epochs_.reset();
}

}  // namespace warptlm
