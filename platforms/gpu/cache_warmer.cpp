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
  L1DataCache* l1 = l1s_.empty() ? nullptr : l1s_[sm_of(b)].get();
  for (uint32_t j = 0; j < c.n; ++j) {
    const uint64_t addr = c.line[j] * line_bytes_;
    const uint32_t below = l1 ? l1->warm(addr, c.sectors[j], kind, uint8_t(Space::Global)) : c.sectors[j];
    if (below) into_l2(addr, below, kind != MemKind::Load);
  }
  warmed_ += c.n;
}

}  // namespace warptlm
