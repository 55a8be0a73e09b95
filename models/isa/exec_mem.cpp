// ld/st/atom/red over every state space. Addresses are recorded per lane for
// the timing model (coalescer, bank-conflict check). Atomics are applied in
// lane order, so contended updates are deterministic.
#include <algorithm>
#include <cmath>

#include "isa/exec_common.hpp"
#include "isa/write_log.hpp"

namespace warptlm {
namespace {

// Fast path for the two spaces that dominate kernels; everything else goes
// through the general resolver (which also reports faults).
[[gnu::always_inline]] inline uint8_t* lane_ptr(ExecCtx& c, Space s, uint64_t a, unsigned bytes, unsigned l, bool write) {
  if (s == Space::Global && !(a & (bytes - 1))) {
    if (uint8_t* p = c.L.mem->translate(a, bytes)) return p;
  } else if (s == Space::Shared && !(a & (bytes - 1)) && a < c.b.shared_bytes && bytes <= c.b.shared_bytes - a) {
    return c.b.shared_span(uint32_t(a), bytes);
  }
  return resolve_address(c, s, a, bytes, l, write);
}

// A lane's operand bytes in memory: a span of storage, or, for a shared-memory
// access split by the block's physical layout, a copy taken here and written
// back by finish() (after the handler's own writes).
struct LaneBytes {
  uint8_t* p;
  uint8_t copy[16];
  uint64_t shared_offset = 0;
  bool split = false;
  // (inlined into each handler's lane loop, whose per-lane cost it is)
  [[gnu::always_inline]] LaneBytes(ExecCtx& c, Space s, uint64_t a, unsigned bytes, unsigned l, bool write)
      : p(lane_ptr(c, s, a, bytes, l, write)) {
    if (!p) {
      shared_offset = a >= kSharedWindow ? a - kSharedWindow : a;
      c.b.read_shared(uint32_t(shared_offset), bytes, copy);
      p = copy;
      split = true;
    }
  }
  void finish(ExecCtx& c, unsigned bytes) const {
    if (split) c.b.write_shared(uint32_t(shared_offset), bytes, copy);
  }
};

// A write to global memory that waits for the end of the edge: the block's SM
// holds it (write_log.hpp). Shared, local and parameter bytes are the SM's own
// and change at once.
inline GlobalWriteLog* deferred_log(ExecCtx& c, Space s, uint64_t a) {
  if (!c.b.global_writes) return nullptr;
  const bool global = s == Space::Global || (s == Space::Generic && !in_shared_window(a) && !in_local_window(a));
  return global ? c.b.global_writes : nullptr;
}

// The SM's log when its global loads wait in it (sim.quantum > 1: write_log.hpp), else null.
inline GlobalWriteLog* held_loads(ExecCtx& c) {
  GlobalWriteLog* log = c.b.global_writes;
  return log && log->defers_loads() ? log : nullptr;
}

// A loaded element of B bytes as its register holds it (sign-extended for a signed type).
template <unsigned B, bool Signed>
inline uint64_t loaded_value(const uint8_t* p) {
  uint64_t v = 0;
  std::memcpy(&v, p, B);
  if (Signed && B < 8) v = uint64_t(int64_t(v << (64 - 8 * B)) >> (64 - 8 * B));
  return v;
}

// A global load held in a GlobalWriteLog, read when the log takes effect.
template <unsigned B, bool Signed>
void apply_logged_load(const GlobalWriteLog::Entry& e) {
  *e.dest = loaded_value<B, Signed>(e.at);
}

inline void record(ExecCtx& c, Space s, unsigned bytes) {
  c.w.addr_mask = c.mask;
  c.w.addr_bytes = uint8_t(bytes);
  c.w.addr_space = s;
}

// The lanes' addresses of a global access of `bytes` per lane (into the warp's address record) and, when
// every executing lane's bytes are aligned and lie in one allocation, the host address of the lowest in
// `low`: one translation for the warp (GlobalMemory::span). Null when some lane needs its own (a fault,
// another space), which the per-lane path then takes from the start.
inline uint8_t* warp_span(ExecCtx& c, Space s, const Operand& ad, unsigned bytes, uint64_t& low) {
  if ((s != Space::Global && s != Space::Generic) || !c.mask) return nullptr;
  const uint64_t* base = ad.addr_has_reg ? c.w.reg(ad.reg) : nullptr;
  uint64_t lo = UINT64_MAX, hi = 0, bits = 0;
  for_lanes(c.mask, [&](unsigned l) {
    const uint64_t a = address_of(ad, base ? base[l] : 0);
    c.w.addr[l] = a;
    lo = std::min(lo, a);
    hi = std::max(hi, a);
    bits |= a;
  });
  if (bits & (bytes - 1)) return nullptr;  // (a generic address in the shared or local window is below every allocation)
  low = lo;
  return c.L.mem->span(lo, hi - lo + bytes);
}

// ld.space.T d, [a]   (T of 1, 2, 4 or 8 bytes; vectors of 2 or 4)
template <unsigned B, bool Signed>
void h_ld(const Instr& in, ExecCtx& c) {
  const Operand& ad = in.ops[1];
  const Operand& d = in.ops[0];
  const unsigned n = in.vec;
  const unsigned total = B * n;
  record(c, in.space, total);
  GlobalWriteLog* held = held_loads(c);
  if (n == 1 && d.kind == OpKind::Reg) {  // a scalar load: its base and destination registers found once
    const uint64_t* base = ad.addr_has_reg ? c.w.reg(ad.reg) : nullptr;
    uint64_t* out = c.w.reg(d.reg);
    if (!base && in.space == Space::Param && c.mask) {  // a kernel parameter: one address, one value for every lane
      const unsigned first = unsigned(__builtin_ctz(c.mask));
      const uint64_t a = address_of(ad, 0);
      const uint64_t v = loaded_value<B, Signed>(resolve_address(c, in.space, a, B, first, false));
      for_lanes(c.mask, [&](unsigned l) {
        c.w.addr[l] = a;
        out[l] = v;
      });
      return;
    }
    uint64_t low;
    if (uint8_t* p = held ? nullptr : warp_span(c, in.space, ad, B, low)) {  // the warp's lanes in one allocation
      for_lanes(c.mask, [&](unsigned l) { out[l] = loaded_value<B, Signed>(p + (c.w.addr[l] - low)); });
      return;
    }
    for_lanes(c.mask, [&](unsigned l) {
      const uint64_t a = address_of(ad, base ? base[l] : 0);
      c.w.addr[l] = a;
      const LaneBytes m(c, in.space, a, B, l, false);  // (a split shared access: m holds the copy)
      if (held && deferred_log(c, in.space, a)) held->load(m.p, apply_logged_load<B, Signed>, out + l);
      else out[l] = loaded_value<B, Signed>(m.p);
    });
    return;
  }
  for_lanes(c.mask, [&](unsigned l) {
    uint64_t a = lane_address(c, ad, l);
    c.w.addr[l] = a;
    const LaneBytes m(c, in.space, a, total, l, false);
    uint8_t* p = m.p;
    const bool later = held && deferred_log(c, in.space, a);
    for (unsigned e = 0; e < n; ++e) {
      uint32_t slot = d.kind == OpKind::Vec ? d.vec[e] : d.reg;
      if (slot == UINT32_MAX) continue;
      if (later) held->load(p + e * B, apply_logged_load<B, Signed>, &c.w.reg(slot)[l]);
      else c.w.reg(slot)[l] = loaded_value<B, Signed>(p + e * B);
    }
  });
}

// st.space.T [a], b
template <unsigned B>
void h_st(const Instr& in, ExecCtx& c) {
  const Operand& ad = in.ops[0];
  const Operand& s = in.ops[1];
  const unsigned n = in.vec;
  const unsigned total = B * n;
  record(c, in.space, total);
  uint64_t low;
  if (n == 1 && s.kind != OpKind::Vec && !c.b.global_writes) {  // a scalar store written at once
    if (uint8_t* p = warp_span(c, in.space, ad, B, low)) {  // the warp's lanes in one allocation, in lane order
      const uint64_t* v = src(c, s);
      for_lanes(c.mask, [&](unsigned l) { std::memcpy(p + (c.w.addr[l] - low), &v[l], B); });
      return;
    }
  }
  for_lanes(c.mask, [&](unsigned l) {
    uint64_t a = lane_address(c, ad, l);
    c.w.addr[l] = a;
    LaneBytes m(c, in.space, a, total, l, true);
    if (GlobalWriteLog* log = deferred_log(c, in.space, a)) {
      uint8_t data[32];  // PTX's widest vector access
      for (unsigned e = 0; e < n && e < 4 && (e + 1) * B <= sizeof data; ++e) {
        uint64_t v = s.kind == OpKind::Vec ? c.w.reg(s.vec[e])[l] : src(c, s)[l];
        std::memcpy(data + e * B, &v, B);
      }
      log->store(m.p, data, total);
      return;
    }
    for (unsigned e = 0; e < n; ++e) {
      uint64_t v = s.kind == OpKind::Vec ? c.w.reg(s.vec[e])[l] : src(c, s)[l];
      std::memcpy(m.p + e * B, &v, B);
    }
    m.finish(c, total);
  });
}

// atom.add.f32 flushes subnormal inputs and results to zero of their sign (PTX ISA, atom); .f64 does not.
inline float flush_subnormal(float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; }

template <class T>
T atomic_apply(SubOp op, T old, T b, T cmpv) {
  switch (op) {
    case SubOp::Add:
      if constexpr (std::is_integral<T>::value) return T(std::make_unsigned_t<T>(old) + std::make_unsigned_t<T>(b));
      else if constexpr (sizeof(T) == 4) return flush_subnormal(flush_subnormal(old) + flush_subnormal(b));
      else return old + b;
    case SubOp::Min:
      if constexpr (std::is_floating_point<T>::value) return std::fmin(old, b); else return std::min(old, b);
    case SubOp::Max:
      if constexpr (std::is_floating_point<T>::value) return std::fmax(old, b); else return std::max(old, b);
    case SubOp::Exch: return b;
    case SubOp::Cas: return old == cmpv ? b : old;
    default: break;
  }
  if constexpr (std::is_integral<T>::value) {
    switch (op) {
      case SubOp::Inc: return old >= b ? T(0) : T(old + 1);
      case SubOp::Dec: return (old == 0 || old > b) ? b : T(old - 1);
      case SubOp::And: return old & b;
      case SubOp::Or: return old | b;
      case SubOp::Xor: return old ^ b;
      default: break;
    }
  }
  return old;
}

// An atomic held in a GlobalWriteLog, applied at the end of its edge.
template <class T>
void apply_logged_atomic(const GlobalWriteLog::Entry& e) {
  T old, b, cmpv;
  std::memcpy(&old, e.at, sizeof(T));
  std::memcpy(&b, &e.value[0], sizeof(T));
  std::memcpy(&cmpv, &e.value[1], sizeof(T));
  const T nv = atomic_apply<T>(SubOp(e.op), old, b, cmpv);
  std::memcpy(e.at, &nv, sizeof(T));
  if (e.dest) lane_set<T>(e.dest, 0, old);
}

// atom.space.op.T d, [a], b[, c]   and   red.space.op.T [a], b
template <class T, bool Red>
void h_atom(const Instr& in, ExecCtx& c) {
  const unsigned base = Red ? 0 : 1;
  const Operand& ad = in.ops[base];
  const uint64_t* b = src(c, in.ops[base + 1]);
  const bool cas = in.sub == SubOp::Cas;
  const uint64_t* e = cas ? src(c, in.ops[base + 1]) : nullptr;
  const uint64_t* v = cas ? src(c, in.ops[base + 2]) : b;
  uint64_t* d = Red ? nullptr : dst(c, in.ops[0]);
  record(c, in.space, sizeof(T));
  for_lanes(c.mask, [&](unsigned l) {
    uint64_t a = lane_address(c, ad, l);
    c.w.addr[l] = a;
    LaneBytes m(c, in.space, a, sizeof(T), l, true);
    if (GlobalWriteLog* log = deferred_log(c, in.space, a)) {
      log->atomic(m.p, apply_logged_atomic<T>, d ? d + l : nullptr, v[l], cas ? e[l] : 0, uint32_t(in.sub), sizeof(T));
      return;
    }
    T old;
    std::memcpy(&old, m.p, sizeof(T));
    T nv = atomic_apply<T>(in.sub, old, lane_get<T>(v, l), cas ? lane_get<T>(e, l) : T(0));
    std::memcpy(m.p, &nv, sizeof(T));
    m.finish(c, sizeof(T));
    if (d) lane_set<T>(d, l, old);
  });
}

template <template <unsigned, bool> class> struct Nothing;

ExecFn ld_for(DType t) {
  switch (t) {
    case DType::S8: return h_ld<1, true>;
    case DType::U8: case DType::B8: return h_ld<1, false>;
    case DType::S16: return h_ld<2, true>;
    case DType::U16: case DType::B16: case DType::F16: return h_ld<2, false>;
    case DType::S32: return h_ld<4, true>;
    case DType::U32: case DType::B32: case DType::F32: case DType::F16x2: return h_ld<4, false>;
    case DType::S64: case DType::U64: case DType::B64: case DType::F64: return h_ld<8, false>;
    default: return nullptr;
  }
}

ExecFn st_for(DType t) {
  switch (dtype_bytes(t)) {
    case 1: return h_st<1>;
    case 2: return h_st<2>;
    case 4: return h_st<4>;
    case 8: return h_st<8>;
    default: return nullptr;
  }
}

template <bool Red>
ExecFn atom_for(const Instr& in, std::string& why) {
  const DType t = in.type;
  const SubOp op = in.sub;
  const bool bitwise = op == SubOp::And || op == SubOp::Or || op == SubOp::Xor;
  if (op == SubOp::None) { why = "atomic without an operation"; return nullptr; }
  switch (t) {
    case DType::B32: case DType::U32: return h_atom<uint32_t, Red>;
    case DType::S32: return h_atom<int32_t, Red>;
    case DType::B64: case DType::U64: return h_atom<uint64_t, Red>;
    case DType::S64: return h_atom<int64_t, Red>;
    case DType::F32:
      if (bitwise || op == SubOp::Inc || op == SubOp::Dec || op == SubOp::Cas) break;
      return h_atom<float, Red>;
    case DType::F64:
      if (bitwise || op == SubOp::Inc || op == SubOp::Dec || op == SubOp::Cas) break;
      return h_atom<double, Red>;
    default: break;
  }
  why = std::string("atomic operation on .") + dtype_name(t) + " is not supported";
  return nullptr;
}

}  // namespace

ExecFn select_memory(const Instr& in, std::string& why) {
  switch (in.op) {
    case Op::Ld: case Op::Ldu: {
      if (in.nops != 2 || in.ops[1].kind != OpKind::Addr) { why = "ld needs a destination and an address"; return nullptr; }
      if (in.vec > 1 && (in.ops[0].kind != OpKind::Vec || in.ops[0].nvec != in.vec)) { why = "vector ld needs a matching vector destination"; return nullptr; }
      return ld_for(in.type);
    }
    case Op::St: {
      if (in.nops != 2 || in.ops[0].kind != OpKind::Addr) { why = "st needs an address and a source"; return nullptr; }
      if (in.vec > 1 && (in.ops[1].kind != OpKind::Vec || in.ops[1].nvec != in.vec)) { why = "vector st needs a matching vector source"; return nullptr; }
      return st_for(in.type);
    }
    case Op::Atom:
      if (in.nops < 3 || in.ops[1].kind != OpKind::Addr) { why = "atom needs a destination, an address and a value"; return nullptr; }
      if (in.space != Space::Global && in.space != Space::Shared && in.space != Space::Generic) { why = "atomics need global, shared or generic addresses"; return nullptr; }
      return atom_for<false>(in, why);
    case Op::Red:
      if (in.nops < 2 || in.ops[0].kind != OpKind::Addr) { why = "red needs an address and a value"; return nullptr; }
      if (in.space != Space::Global && in.space != Space::Shared && in.space != Space::Generic) { why = "reductions need global, shared or generic addresses"; return nullptr; }
      return atom_for<true>(in, why);
    default: return nullptr;
  }
}

}  // namespace warptlm
