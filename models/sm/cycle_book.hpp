// A booking of single cycles ahead of a moving base: bit i stands for cycle base + i, for the next
// kSpan cycles. The operand collector books its result buses and each unit's completion slots in one.
#pragma once
#include <array>
#include <cstdint>

namespace warptlm {

struct CycleBook {
  static constexpr uint64_t kSpan = 256;
  std::array<uint64_t, kSpan / 64> words{};

  // Is the cycle `off` past the base booked? Cycles beyond the span are never booked.
  bool booked(uint64_t off) const { return off < kSpan && (words[off >> 6] >> (off & 63) & 1); }
  void book(uint64_t off) {
    if (off < kSpan) words[off >> 6] |= uint64_t(1) << (off & 63);
  }
  // The base moves on by `shift` cycles: the bookings before it are gone.
  void advance(uint64_t shift) {
    if (shift >= kSpan) {
      words.fill(0);
      return;
    }
    const size_t q = size_t(shift >> 6), n = words.size();
    const unsigned r = unsigned(shift & 63);
    for (size_t i = 0; i < n; ++i) {
      const uint64_t lo = i + q < n ? words[i + q] : 0, hi = i + q + 1 < n ? words[i + q + 1] : 0;
      words[i] = r ? (lo >> r) | (hi << (64 - r)) : lo;
    }
  }
};

}  // namespace warptlm
