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
// Null only for a shared-memory access that its block's physical layout splits
// (Block::shared_span): the caller moves it with Block::read_shared/write_shared.
uint8_t* resolve_address(ExecCtx& c, Space space, uint64_t addr, unsigned bytes, unsigned lane, bool write);

// Per-lane effective address of an Addr operand.
// A lane's address: base register plus offset, computed in the base's width
// (a 32-bit register's address wraps at 2^32, as `[%r1+8]` with %r1 = -4 does).
inline uint64_t address_of(const Operand& o, uint64_t base) {
  const uint64_t a = base + o.imm;
  return o.addr_32 ? uint64_t(uint32_t(a)) : a;
}
inline uint64_t lane_address(ExecCtx& c, const Operand& o, unsigned l) {
  return address_of(o, o.addr_has_reg ? c.w.reg(o.reg)[l] : 0);
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
