// A booking of single cycles, up to kSpan cycles ahead of the present: slot c mod kSpan holds which
// round of kSpan cycles it was booked for, so a booking needs no clearing when time moves past it.
// The operand collector books its result buses, its dispatch ports and each unit's completions in one.
#pragma once
#include <array>
#include <cstdint>

namespace warptlm {

struct CycleBook {
  static constexpr uint64_t kSpan = 256;
  std::array<uint32_t, kSpan> round{};  // 1 + c / kSpan of the cycle c booked in slot c % kSpan (0: none)

  // Is cycle c booked? Callers ask about cycles from now to now + kSpan - 1 only.
  bool booked(uint64_t c) const { return round[c % kSpan] == uint32_t(c / kSpan + 1); }
  void book(uint64_t c) { round[c % kSpan] = uint32_t(c / kSpan + 1); }
};

// Interchangeable resources booked per cycle (the result buses, a group's dispatch ports): per slot the
// round it was booked for and how many of the `count` resources that cycle holds.
struct CycleBooks {
  uint32_t count = 0;  // resources (0: none modelled)
  std::array<uint32_t, CycleBook::kSpan> round{};
  std::array<uint8_t, CycleBook::kSpan> used{};

  void assign(uint32_t n) {
    count = n;
    round.fill(0);
    used.fill(0);
  }
  bool empty() const { return count == 0; }
  // Is one of them free in cycle c?
  bool free_at(uint64_t c) const {
    const size_t i = c % CycleBook::kSpan;
    return round[i] != uint32_t(c / CycleBook::kSpan + 1) || used[i] < count;
  }
  // Book one of them in cycle c (none when all are booked; callers found one free).
  void book_one(uint64_t c) {
    const size_t i = c % CycleBook::kSpan;
    const uint32_t r = uint32_t(c / CycleBook::kSpan + 1);
    if (round[i] != r) round[i] = r, used[i] = 0;
    if (used[i] < count) ++used[i];
  }
};

}  // namespace warptlm
