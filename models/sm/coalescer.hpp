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
  const unsigned line_shift = unsigned(__builtin_ctz(line_bytes));
  if (mask == 0xFFFFFFFFu && bytes) {
    // Every lane, each the element after the previous lane's (the unit stride): the lines, their sectors and
    // their lanes follow from the first and the last byte, as the loop below would find them.
    bool unit = true;
    for (unsigned l = 1; l < 32; ++l) unit &= addr[l] == addr[0] + uint64_t(l) * bytes;
    if (unit) {
      const uint64_t first = addr[0], last = addr[0] + 32ull * bytes - 1;
      for (uint64_t line = first >> line_shift; line <= last >> line_shift && c.n < 64; ++line) {
        const uint64_t lo = std::max(first, line << line_shift), hi = std::min(last, ((line + 1) << line_shift) - 1);
        uint32_t sectors = 0;
        for (uint64_t s = (lo & (line_bytes - 1)) >> 5; s <= (hi & (line_bytes - 1)) >> 5; ++s) sectors |= 1u << s;
        const uint64_t lane_lo = (lo - first) / bytes, lane_hi = (hi - first) / bytes;
        c.line[c.n] = line;
        c.sectors[c.n] = sectors;
        c.lanes[c.n] = uint32_t(((2ull << lane_hi) - 1) & ~((1ull << lane_lo) - 1));
        ++c.n;
      }
      return;
    }
  }
  for (uint32_t m = mask; m; m &= m - 1) {
    const unsigned l = unsigned(__builtin_ctz(m));
    const uint64_t a = addr[l];
    for (uint64_t b = a; b < a + bytes; b = ((b >> 5) + 1) << 5) {
      const uint64_t line = b >> line_shift;
      const uint32_t sector = uint32_t((b & (line_bytes - 1)) >> 5);
      uint32_t j = 0;
      while (j < c.n && c.line[j] != line) ++j;
      if (j == c.n) {
        c.line[j] = line;
        c.sectors[j] = c.lanes[j] = 0;
        ++c.n;
      }
      c.sectors[j] |= 1u << sector;
      c.lanes[j] |= 1u << l;
    }
  }
}

}  // namespace warptlm
