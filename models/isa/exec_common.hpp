// Shared helpers of the instruction handlers: lane-contiguous operand access,
// the lane loop, and memory resolution with fault reporting.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>

#include "isa/simt.hpp"

namespace warptlm {

// A lane's value of type T from a 64-bit register slot (low bytes, little endian).
template <class T>
inline T lane_get(const uint64_t* p, unsigned l) {
  T v;
  std::memcpy(&v, &p[l], sizeof(T));
  return v;
}
template <class T>
inline void lane_set(uint64_t* p, unsigned l, T v) {
  uint64_t x = 0;
  std::memcpy(&x, &v, sizeof(T));
  p[l] = x;
}

inline const uint64_t* src(ExecCtx& c, const Operand& o) {
  return o.kind == OpKind::Imm ? o.immv : c.w.reg(o.reg);
}
inline uint64_t* dst(ExecCtx& c, const Operand& o) { return c.w.reg(o.reg); }

// Run f(lane) for every executing lane.
template <class F>
inline void for_lanes(uint32_t mask, F&& f) {
  if (mask == 0xFFFFFFFFu) {
    for (unsigned l = 0; l < 32; ++l) f(l);
  } else {
    for (uint32_t m = mask; m; m &= m - 1) f(unsigned(__builtin_ctz(m)));
  }
}

// A memory access that faults: the executor adds kernel, block, thread and PTX place.
struct MemFault {
  unsigned lane;
  uint64_t addr;
  Space space;
  std::string why;
};

// Host pointer for `bytes` at `addr` in `space` for lane `lane`, or throws MemFault.
uint8_t* resolve_address(ExecCtx& c, Space space, uint64_t addr, unsigned bytes, unsigned lane, bool write);

// Per-lane effective address of an Addr operand.
inline uint64_t lane_address(ExecCtx& c, const Operand& o, unsigned l) {
  return (o.addr_has_reg ? c.w.reg(o.reg)[l] : 0) + o.imm;
}

// Rounding-mode scope for the rare directed-rounding float forms.
struct RoundingScope {
  int saved;
  explicit RoundingScope(Rnd r);
  ~RoundingScope();
};

// Handler groups (exec_*.cpp): each returns nullptr when it does not handle `in`.
ExecFn select_int(const Instr& in, std::string& why);
ExecFn select_float(const Instr& in, std::string& why);
ExecFn select_convert(const Instr& in, std::string& why);
ExecFn select_memory(const Instr& in, std::string& why);
ExecFn select_warp(const Instr& in, std::string& why);
ExecFn select_control(const Instr& in, std::string& why);

}  // namespace warptlm
