// The LD/ST unit's coalescer (README, "LD/ST unit"): the lines of sm.mem_line bytes that a
// warp's global or local access touches, each with its 32-byte sectors and the lanes that touch it, in the
// order the lanes first reach them. The timing SM sends a request per line (or per sector); sampling's
// cache warming (platforms/gpu/cache_warmer.hpp) replays a functional launch's accesses through the same lines.
#pragma once
#include <algorithm>
#include <cstdint>

namespace warptlm {

struct CoalescedLines {
  uint64_t line[64];     // line number: byte address / line bytes
  uint32_t sectors[64];  // 32-byte sectors of the line (bit i: bytes 32 i to 32 i + 31)
  uint32_t lanes[64];    // lanes whose access falls in the line
  uint32_t n = 0;
};

// `addr`: the lanes' byte addresses (those of `mask`), each access `bytes` long; a lane's access may
// straddle into the next sector (vector accesses). `line_bytes` is a power of two (sm.mem_line).
inline void coalesce_lines(const uint64_t* addr, uint32_t mask, uint32_t bytes, uint32_t line_bytes, CoalescedLines& c) {
  c.n = 0;
  if (!bytes) return;
  const unsigned line_shift = unsigned(__builtin_ctz(line_bytes));
  // The lanes in runs: each lane's element the one after the previous lane's (a unit stride; one run for a
  // whole warp's, two for a 16-wide block's two rows), or each lane's the same as the previous lane's (a
  // broadcast). A run's bytes [first, last] give its lines, their sectors and their lanes at once. Runs come
  // in lane order and a run's lines in address order, so lines are listed in the order the lanes first
  // reach them; a line a later run reaches again is merged.
  for (uint32_t m = mask; m;) {
    const unsigned l0 = unsigned(__builtin_ctz(m));
    const bool same = l0 < 31 && (mask >> (l0 + 1) & 1) && addr[l0 + 1] == addr[l0];
    const uint64_t step = same ? 0 : bytes;
    unsigned l1 = l0;
    while (l1 < 31 && (mask >> (l1 + 1) & 1) && addr[l1 + 1] == addr[l1] + step) ++l1;
    m &= l1 == 31 ? 0u : ~0u << (l1 + 1);
    const uint64_t first = addr[l0], last = addr[l1] + bytes - 1;
    for (uint64_t line = first >> line_shift; line <= last >> line_shift; ++line) {
      const uint64_t lo = std::max(first, line << line_shift), hi = std::min(last, ((line + 1) << line_shift) - 1);
      uint32_t sectors = 0;
      for (uint64_t s = (lo & (line_bytes - 1)) >> 5; s <= (hi & (line_bytes - 1)) >> 5; ++s) sectors |= 1u << s;
      const uint64_t lane_lo = same ? l0 : l0 + (lo - first) / bytes, lane_hi = same ? l1 : l0 + (hi - first) / bytes;
      uint32_t j = c.n;
      while (j > 0 && c.line[j - 1] != line) --j;  // (the line just listed first)
      if (j == 0) {
        if (c.n == 64) break;  // (64 lines hold any 32 accesses of up to 32 bytes)
        j = ++c.n;
        c.line[j - 1] = line;
        c.sectors[j - 1] = c.lanes[j - 1] = 0;
      }
      c.sectors[j - 1] |= sectors;
      c.lanes[j - 1] |= uint32_t(((2ull << lane_hi) - 1) & ~((1ull << lane_lo) - 1));
    }
  }
}

// sm.store_data: segment. The bytes a store request of a line carries: the smallest aligned segment of
// 2^k 32-byte sectors holding every sector in `sectors` (non-empty), as compute capability 2.x sizes a
// transaction (32, 64 or 128 B in a 128 B line): sectors 0 and 3 need the whole line, 2 and 3 its upper half.
inline uint32_t store_segment_bytes(uint32_t sectors) {
  const uint32_t lo = uint32_t(__builtin_ctz(sectors)), hi = 31 - uint32_t(__builtin_clz(sectors));
  uint32_t span = 1;
  while (lo / span != hi / span) span *= 2;
  return span * 32;
}

}  // namespace warptlm
