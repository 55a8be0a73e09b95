// A booking of single cycles, up to kSpan cycles ahead of the present: slot c mod kSpan holds which
// round of kSpan cycles it was booked for, so a booking needs no clearing when time moves past it.
// The operand collector books its result buses, its dispatch ports and each unit's completions in one.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

namespace warptlm {

struct CycleBook {
  static constexpr uint64_t kSpan = 256;
  std::array<uint32_t, kSpan> round{};  // 1 + c / kSpan of the cycle c booked in slot c % kSpan (0: none)

  // Is cycle c booked? Callers ask about cycles from now to now + kSpan - 1 only.
  bool booked(uint64_t c) const { return round[c % kSpan] == uint32_t(c / kSpan + 1); }
  void book(uint64_t c) { round[c % kSpan] = uint32_t(c / kSpan + 1); }
};

// Interchangeable resources booked per cycle (the result buses, a group's dispatch ports): one book each.
struct CycleBooks {
  std::vector<CycleBook> books;

  bool empty() const { return books.empty(); }
  // Is one of them free in cycle c?
  bool free_at(uint64_t c) const {
    for (const CycleBook& b : books)
      if (!b.booked(c)) return true;
    return false;
  }
  // Book cycle c in the first free then (none when all are booked; callers found one free).
  void book_one(uint64_t c) {
    for (CycleBook& b : books)
      if (!b.booked(c)) return b.book(c);
  }
};

}  // namespace warptlm
