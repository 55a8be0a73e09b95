#include "gpu/cache_warmer.hpp"

#include <algorithm>

#include "common/gpu_payload.hpp"
#include "gpu/dispatcher.hpp"
#include "isa/memory.hpp"
#include "l1/l1_cache.hpp"
#include "l2/l2_slice.hpp"
#include "sm/coalescer.hpp"
#include "sm/sm.hpp"

namespace warptlm {

uint32_t CacheWarmer::sm_of(const Block& b) const {
  const int s = dispatcher_ ? dispatcher_->sm_of_skipped(b.linear_id - first_block_, sms_) : -1;
  return s >= 0 ? uint32_t(s) : b.sm_id % sms_;
}

void CacheWarmer::into_l2(uint64_t addr, uint32_t sectors, bool write) {
  if (map_ && !l2s_.empty()) l2s_[map_->slice_of(addr)]->warm(addr, sectors, write);
}

void CacheWarmer::warm_front_ends(const KernelInfo& k, const LaunchState& L, uint64_t blocks) {
  const auto fill = [this](uint64_t line, uint32_t bytes) {  // its 32-byte sectors of the L2's line
    const uint32_t n = std::max(1u, bytes / 32), first = uint32_t(line % line_bytes_ / 32);
    into_l2(line, (n >= 32 ? ~0u : (1u << n) - 1) << first, false);
  };
  for (uint64_t i = 0; i < std::min<uint64_t>(blocks, sms_); ++i) {
    const int s = dispatcher_ ? dispatcher_->sm_of_skipped(i, sms_) : -1;
    sms_of_[s >= 0 ? uint32_t(s) : uint32_t(i)]->warm_front_end(k, L, fill);
  }
}

void CacheWarmer::warm_line(uint32_t sm, uint64_t addr, uint32_t sectors, MemKind kind, bool nc) {
  const uint32_t below = l1s_.empty() ? sectors : l1s_[sm]->warm(addr, sectors, kind, uint8_t(Space::Global), nc);
  if (below) into_l2(addr, below, kind != MemKind::Load);
  ++warmed_;
}

void CacheWarmer::drop_outside_window() {
  // the oldest launch goes once the launches after it reach the window by themselves
  uint64_t after = 0;
  for (size_t i = 1; i < kept_.size(); ++i) after += kept_[i].a.size();
  size_t drop = 0;
  while (drop + 1 < kept_.size() && after >= window_lines_) {
    ++drop;
    after -= kept_[drop].a.size();
  }
  for (size_t i = 0; i < drop; ++i) {
    kept_[i].clear();
    spare_.push_back(std::move(kept_[i]));
  }
  kept_.erase(kept_.begin(), kept_.begin() + long(drop));
}

void CacheWarmer::replay() {
  drop_outside_window();
  for (Trace& launch : kept_) {
    launch.each([this](const Access& a) { warm_line(a.sm, a.addr, a.sectors, a.kind, a.nc); });
    launch.clear();
    spare_.push_back(std::move(launch));
  }
  kept_.clear();
}

void CacheWarmer::accessed(const Block& b, const Warp& w, const Instr& in) {
  MemKind kind;
  if (in.op == Op::Ld || in.op == Op::Ldu) kind = MemKind::Load;
  else if (in.op == Op::St) kind = MemKind::Store;
  else if (in.op == Op::Atom || in.op == Op::Red) kind = MemKind::Atomic;
  else return;
  const uint64_t first = w.addr[__builtin_ctz(w.addr_mask)];
  const bool global = w.addr_space == Space::Global ||
                      (w.addr_space == Space::Generic && !in_shared_window(first) && !in_local_window(first));
  if (!global) return;
  CoalescedLines c;
  coalesce_lines(w.addr, w.addr_mask, w.addr_bytes, line_bytes_, c);
  const uint32_t sm = l1s_.empty() ? 0 : sm_of(b);
  const bool nc = (in.flags & F_NC) != 0;
  if (deferred_) {
    Trace& kept = kept_.back();
    for (uint32_t j = 0; j < c.n; ++j) kept.add({c.line[j] * line_bytes_, c.sectors[j], uint16_t(sm), kind, nc}, launch_cap_);
    return;
  }
  for (uint32_t j = 0; j < c.n; ++j) warm_line(sm, c.line[j] * line_bytes_, c.sectors[j], kind, nc);
}

}  // namespace warptlm
