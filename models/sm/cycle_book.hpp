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

}  // namespace warptlm
