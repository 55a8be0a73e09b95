// Integer ALU, bit manipulation, compare/select and register moves. Each
// handler runs one decoded instruction over the executing lanes.
#include <cmath>
#include <limits>
#include <type_traits>

#include "isa/exec_common.hpp"

namespace warptlm {
namespace {

template <class T> using U = std::make_unsigned_t<T>;
template <class T> constexpr unsigned bits() { return sizeof(T) * 8; }
// The low bits of a * b, wrapping: 16-bit operands multiply as unsigned int (not as the int they would
// promote to, whose overflow is undefined).
template <class T> inline T mul_lo(T a, T b) {
  using P = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, U<T>>;
  return T(U<T>(P(U<T>(a)) * P(U<T>(b))));
}

// Wider type for .wide/.hi forms.
template <class T> struct Wide;
template <> struct Wide<int16_t> { using type = int32_t; };
template <> struct Wide<uint16_t> { using type = uint32_t; };
template <> struct Wide<int32_t> { using type = int64_t; };
template <> struct Wide<uint32_t> { using type = uint64_t; };
template <> struct Wide<int64_t> { using type = __int128; };
template <> struct Wide<uint64_t> { using type = unsigned __int128; };
template <class T> using W = typename Wide<T>::type;

struct OAdd { template <class T> static T f(T a, T b) { return T(U<T>(a) + U<T>(b)); } };
struct OSub { template <class T> static T f(T a, T b) { return T(U<T>(a) - U<T>(b)); } };
struct OMulLo { template <class T> static T f(T a, T b) { return mul_lo(a, b); } };
struct OMulHi { template <class T> static T f(T a, T b) { return T(W<T>(a) * W<T>(b) >> bits<T>()); } };
struct OMin { template <class T> static T f(T a, T b) { return a < b ? a : b; } };
struct OMax { template <class T> static T f(T a, T b) { return a > b ? a : b; } };
struct ODiv {
  template <class T> static T f(T a, T b) {
    if (b == 0) return T(~U<T>(0));
    if (std::is_signed<T>::value && a == std::numeric_limits<T>::min() && b == T(-1)) return a;
    return a / b;
  }
};
struct ORem {
  template <class T> static T f(T a, T b) {
    if (b == 0) return a;
    if (std::is_signed<T>::value && b == T(-1)) return 0;
    return a % b;
  }
};
struct OAnd { template <class T> static T f(T a, T b) { return a & b; } };
struct OOr { template <class T> static T f(T a, T b) { return a | b; } };
struct OXor { template <class T> static T f(T a, T b) { return a ^ b; } };

template <class T, class F>
void h_bin(const Instr& in, ExecCtx& c) {
  const uint64_t* a = src(c, in.ops[1]);
  const uint64_t* b = src(c, in.ops[2]);
  uint64_t* d = dst(c, in.ops[0]);
  for_lanes(c.mask, [&](unsigned l) { lane_set<T>(d, l, F::f(lane_get<T>(a, l), lane_get<T>(b, l))); });
}

// add.sat.s32 / sub.sat.s32: clamp to the signed range.
template <bool Sub>
void h_addsat(const Instr& in, ExecCtx& c) {
  const uint64_t* a = src(c, in.ops[1]);
  const uint64_t* b = src(c, in.ops[2]);
  uint64_t* d = dst(c, in.ops[0]);
  for_lanes(c.mask, [&](unsigned l) {
    int64_t r = Sub ? int64_t(lane_get<int32_t>(a, l)) - lane_get<int32_t>(b, l)
                    : int64_t(lane_get<int32_t>(a, l)) + lane_get<int32_t>(b, l);
    r = std::min<int64_t>(std::max<int64_t>(r, INT32_MIN), INT32_MAX);
    lane_set<int32_t>(d, l, int32_t(r));
  });
}

// mad.hi.sat.s32: the product's high word plus c, saturated to the s32 range (the only saturating mad).
void h_madhisat(const Instr& in, ExecCtx& c) {
  const uint64_t* a = src(c, in.ops[1]);
  const uint64_t* b = src(c, in.ops[2]);
  const uint64_t* e = src(c, in.ops[3]);
  uint64_t* d = dst(c, in.ops[0]);
  for_lanes(c.mask, [&](unsigned l) {
    const int64_t hi = (int64_t(lane_get<int32_t>(a, l)) * lane_get<int32_t>(b, l)) >> 32;
    const int64_t r = std::min<int64_t>(std::max<int64_t>(hi + lane_get<int32_t>(e, l), INT32_MIN), INT32_MAX);
    lane_set<int32_t>(d, l, int32_t(r));
  });
}

template <class T>
void h_mulwide(const Instr& in, ExecCtx& c) {
  const uint64_t* a = src(c, in.ops[1]);
  const uint64_t* b = src(c, in.ops[2]);
  uint64_t* d = dst(c, in.ops[0]);
  for_lanes(c.mask, [&](unsigned l) { lane_set<W<T>>(d, l, W<T>(lane_get<T>(a, l)) * W<T>(lane_get<T>(b, l))); });
}

template <class T, int Form>  // 0 lo, 1 hi, 2 wide
void h_mad(const Instr& in, ExecCtx& c) {
  const uint64_t* a = src(c, in.ops[1]);
  const uint64_t* b = src(c, in.ops[2]);
  const uint64_t* e = src(c, in.ops[3]);
  uint64_t* d = dst(c, in.ops[0]);
  for_lanes(c.mask, [&](unsigned l) {
    T x = lane_get<T>(a, l), y = lane_get<T>(b, l);
    if (Form == 0) lane_set<T>(d, l, T(U<T>(U<T>(mul_lo(x, y)) + U<T>(lane_get<T>(e, l)))));
    else if (Form == 1) lane_set<T>(d, l, T(U<T>(T(W<T>(x) * W<T>(y) >> bits<T>())) + U<T>(lane_get<T>(e, l))));
    else if constexpr (sizeof(T) < 8)  // the wide product (exact) plus c, wrapping
      lane_set<W<T>>(d, l, W<T>(U<W<T>>(W<T>(x) * W<T>(y)) + U<W<T>>(lane_get<W<T>>(e, l))));
  });
}

// Carry chains (add.cc / addc, sub.cc / subc, mad.cc / madc): each lane's carry flag is its bit of the
// function's hidden carry predicate, the instruction's last operand (ir.hpp). A subtraction's flag is a
// borrow: subc computes a - (b + CF) and sets CF when b + CF exceeds a.
template <class T>
inline T add_carry(T x, T y, bool cin, bool& cout) {  // T unsigned
  const T s = T(x + y), r = T(s + T(cin));
  cout = s < x || r < s;
  return r;
}
template <class T>
inline T sub_borrow(T x, T y, bool bin, bool& bout) {  // T unsigned
  bout = x < y || T(x - y) < T(bin);
  return T(T(x - y) - T(bin));
}
inline void set_lane_bit(uint32_t& mask, unsigned l, bool v) { mask = v ? mask | (1u << l) : mask & ~(1u << l); }

template <class T, bool Sub, bool CarryIn, bool CarryOut>
void h_addc(const Instr& in, ExecCtx& c) {
  const uint64_t* a = src(c, in.ops[1]);
  const uint64_t* b = src(c, in.ops[2]);
  uint64_t* d = dst(c, in.ops[0]);
  uint32_t& cf = c.w.preds[in.ops[in.nops - 1].reg];
  uint32_t out = cf;
  for_lanes(c.mask, [&](unsigned l) {
    const bool cin = CarryIn && (cf >> l & 1u);
    bool carry = false;
    const T x = lane_get<T>(a, l), y = lane_get<T>(b, l);
    lane_set<T>(d, l, Sub ? sub_borrow<T>(x, y, cin, carry) : add_carry<T>(x, y, cin, carry));
    if (CarryOut) set_lane_bit(out, l, carry);
  });
  if (CarryOut) cf = out;
}

// mad.lo.cc / mad.hi.cc / madc: the low or high half of a x b (signed for .s types), plus c, plus the carry in.
template <class T, bool Hi, bool CarryIn, bool CarryOut>
void h_madc(const Instr& in, ExecCtx& c) {
  using V = U<T>;
  const uint64_t* a = src(c, in.ops[1]);
  const uint64_t* b = src(c, in.ops[2]);
  const uint64_t* e = src(c, in.ops[3]);
  uint64_t* d = dst(c, in.ops[0]);
  uint32_t& cf = c.w.preds[in.ops[in.nops - 1].reg];
  uint32_t out = cf;
  for_lanes(c.mask, [&](unsigned l) {
    const T x = lane_get<T>(a, l), y = lane_get<T>(b, l);
    const V p = Hi ? V(T(W<T>(x) * W<T>(y) >> bits<T>())) : V(V(x) * V(y));
    bool carry = false;
    lane_set<T>(d, l, T(add_carry<V>(p, V(lane_get<T>(e, l)), CarryIn && (cf >> l & 1u), carry)));
    if (CarryOut) set_lane_bit(out, l, carry);
  });
  if (CarryOut) cf = out;
}

template <class T, bool Mad>
void h_mul24(const Instr& in, ExecCtx& c) {
  const uint64_t* a = src(c, in.ops[1]);
  const uint64_t* b = src(c, in.ops[2]);
  const uint64_t* e = Mad ? src(c, in.ops[3]) : nullptr;
  uint64_t* d = dst(c, in.ops[0]);
  const bool hi = in.flags & F_HI;
  for_lanes(c.mask, [&](unsigned l) {
    int64_t x = int64_t(lane_get<T>(a, l)), y = int64_t(lane_get<T>(b, l));
    if (std::is_signed<T>::value) { x = int64_t(uint64_t(x) << 40) >> 40; y = int64_t(uint64_t(y) << 40) >> 40; }
    else { x &= 0xFFFFFF; y &= 0xFFFFFF; }
    int64_t p = x * y;
    uint32_t r = hi ? uint32_t(uint64_t(p) >> 16) : uint32_t(p);
    if (Mad) r += uint32_t(lane_get<T>(e, l));
    lane_set<uint32_t>(d, l, r);
  });
}

template <class T>
void h_sad(const Instr& in, ExecCtx& c) {
  const uint64_t* a = src(c, in.ops[1]);
  const uint64_t* b = src(c, in.ops[2]);
  const uint64_t* e = src(c, in.ops[3]);
  uint64_t* d = dst(c, in.ops[0]);
  for_lanes(c.mask, [&](unsigned l) {
    T x = lane_get<T>(a, l), y = lane_get<T>(b, l);
    U<T> diff = x > y ? U<T>(x) - U<T>(y) : U<T>(y) - U<T>(x);
    lane_set<T>(d, l, T(diff + U<T>(lane_get<T>(e, l))));
  });
}

template <class T, bool Left>
void h_shift(const Instr& in, ExecCtx& c) {
  const uint64_t* a = src(c, in.ops[1]);
  const uint64_t* b = src(c, in.ops[2]);
  uint64_t* d = dst(c, in.ops[0]);
  for_lanes(c.mask, [&](unsigned l) {
    T x = lane_get<T>(a, l);
    uint32_t n = lane_get<uint32_t>(b, l);
    T r;
    if (Left) r = n >= bits<T>() ? T(0) : T(U<T>(x) << n);
    else if (std::is_signed<T>::value) r = n >= bits<T>() ? T(x < 0 ? -1 : 0) : T(x >> n);
    else r = n >= bits<T>() ? T(0) : T(x >> n);
    lane_set<T>(d, l, r);
  });
}

enum class Un { Not, Cnot, Neg, Abs, Popc, Clz, Brev, Bfind, BfindShift };
template <class T, Un K>
void h_unary(const Instr& in, ExecCtx& c) {
  const uint64_t* a = src(c, in.ops[1]);
  uint64_t* d = dst(c, in.ops[0]);
  for_lanes(c.mask, [&](unsigned l) {
    T x = lane_get<T>(a, l);
    U<T> ux = U<T>(x);
    switch (K) {
      case Un::Not: lane_set<T>(d, l, T(~ux)); break;
      case Un::Cnot: lane_set<T>(d, l, T(x == 0 ? 1 : 0)); break;
      case Un::Neg: lane_set<T>(d, l, T(U<T>(0) - ux)); break;
      case Un::Abs: lane_set<T>(d, l, x < 0 ? T(U<T>(0) - ux) : x); break;
      case Un::Popc: lane_set<uint32_t>(d, l, uint32_t(__builtin_popcountll(uint64_t(ux)))); break;
      case Un::Clz: lane_set<uint32_t>(d, l, ux == 0 ? bits<T>() : uint32_t(__builtin_clzll(uint64_t(ux)) - (64 - bits<T>()))); break;
      case Un::Brev: {
        U<T> r = 0;
        for (unsigned i = 0; i < bits<T>(); ++i) if (ux >> i & 1) r |= U<T>(1) << (bits<T>() - 1 - i);
        lane_set<T>(d, l, T(r));
        break;
      }
      case Un::Bfind:
      case Un::BfindShift: {
        // position of the most significant non-sign bit; 0xFFFFFFFF when none
        U<T> v = (std::is_signed<T>::value && x < 0) ? U<T>(~ux) : ux;
        uint32_t pos = v == 0 ? 0xFFFFFFFFu : uint32_t(63 - __builtin_clzll(uint64_t(v)));
        if (K == Un::BfindShift && pos != 0xFFFFFFFFu) pos = bits<T>() - 1 - pos;
        lane_set<uint32_t>(d, l, pos);
        break;
      }
    }
  });
}

template <class T>
void h_bfe(const Instr& in, ExecCtx& c) {
  const uint64_t* a = src(c, in.ops[1]);
  const uint64_t* b = src(c, in.ops[2]);
  const uint64_t* e = src(c, in.ops[3]);
  uint64_t* d = dst(c, in.ops[0]);
  for_lanes(c.mask, [&](unsigned l) {
    U<T> x = U<T>(lane_get<T>(a, l));
    unsigned pos = lane_get<uint32_t>(b, l) & 0xFF, len = lane_get<uint32_t>(e, l) & 0xFF;
    bool sbit;
    if (std::is_signed<T>::value) {
      unsigned msb = (len == 0) ? 0 : std::min(pos + len - 1, bits<T>() - 1);
      sbit = len != 0 && (x >> msb & 1);
    } else {
      sbit = false;
    }
    U<T> r = 0;
    for (unsigned i = 0; i < bits<T>(); ++i) {
      bool bit = (i < len && pos + i < bits<T>()) ? (x >> (pos + i) & 1) : sbit;
      if (bit) r |= U<T>(1) << i;
    }
    lane_set<T>(d, l, T(r));
  });
}

template <class T>
void h_bfi(const Instr& in, ExecCtx& c) {
  const uint64_t* a = src(c, in.ops[1]);
  const uint64_t* b = src(c, in.ops[2]);
  const uint64_t* p = src(c, in.ops[3]);
  const uint64_t* n = src(c, in.ops[4]);
  uint64_t* d = dst(c, in.ops[0]);
  for_lanes(c.mask, [&](unsigned l) {
    U<T> x = U<T>(lane_get<T>(a, l)), r = U<T>(lane_get<T>(b, l));
    unsigned pos = lane_get<uint32_t>(p, l) & 0xFF, len = lane_get<uint32_t>(n, l) & 0xFF;
    for (unsigned i = 0; i < len && pos + i < bits<T>(); ++i) {
      U<T> m = U<T>(1) << (pos + i);
      r = (x >> i & 1) ? (r | m) : (r & ~m);
    }
    lane_set<T>(d, l, T(r));
  });
}

void h_prmt(const Instr& in, ExecCtx& c) {
  const uint64_t* a = src(c, in.ops[1]);
  const uint64_t* b = src(c, in.ops[2]);
  const uint64_t* s = src(c, in.ops[3]);
  uint64_t* d = dst(c, in.ops[0]);
  for_lanes(c.mask, [&](unsigned l) {
    uint64_t tmp = (uint64_t(uint32_t(b[l])) << 32) | uint32_t(a[l]);
    uint32_t sel = uint32_t(s[l]), r = 0;
    for (unsigned i = 0; i < 4; ++i) {
      unsigned n = sel >> (4 * i) & 0xF;
      uint32_t byte = uint32_t(tmp >> (8 * (n & 7))) & 0xFF;
      if (n & 8) byte = (byte & 0x80) ? 0xFF : 0;
      r |= byte << (8 * i);
    }
    lane_set<uint32_t>(d, l, r);
  });
}

template <bool Left>
void h_shf(const Instr& in, ExecCtx& c) {
  const uint64_t* a = src(c, in.ops[1]);
  const uint64_t* b = src(c, in.ops[2]);
  const uint64_t* s = src(c, in.ops[3]);
  uint64_t* d = dst(c, in.ops[0]);
  const bool clamp = in.flags & F_CLAMP;
  for_lanes(c.mask, [&](unsigned l) {
    uint64_t v = (uint64_t(uint32_t(b[l])) << 32) | uint32_t(a[l]);
    uint32_t n = uint32_t(s[l]);
    n = clamp ? std::min<uint32_t>(n, 32) : (n & 31);
    lane_set<uint32_t>(d, l, Left ? uint32_t((v << n) >> 32) : uint32_t(v >> n));
  });
}

// ---------------------------------------------------------------- compare and select

template <class T>
inline bool compare(Cmp k, T a, T b) {
  if constexpr (std::is_floating_point<T>::value) {
    bool nan = std::isnan(a) || std::isnan(b);
    switch (k) {
      case Cmp::Eq: return !nan && a == b;
      case Cmp::Ne: return !nan && a != b;
      case Cmp::Lt: return !nan && a < b;
      case Cmp::Le: return !nan && a <= b;
      case Cmp::Gt: return !nan && a > b;
      case Cmp::Ge: return !nan && a >= b;
      case Cmp::Equ: return nan || a == b;
      case Cmp::Neu: return nan || a != b;
      case Cmp::Ltu: return nan || a < b;
      case Cmp::Leu: return nan || a <= b;
      case Cmp::Gtu: return nan || a > b;
      case Cmp::Geu: return nan || a >= b;
      case Cmp::Num: return !nan;
      case Cmp::Nan: return nan;
      default: return false;
    }
  } else {
    using UT = std::make_unsigned_t<T>;
    switch (k) {
      case Cmp::Eq: return a == b;
      case Cmp::Ne: return a != b;
      case Cmp::Lt: return a < b;
      case Cmp::Le: return a <= b;
      case Cmp::Gt: return a > b;
      case Cmp::Ge: return a >= b;
      case Cmp::Lo: return UT(a) < UT(b);
      case Cmp::Ls: return UT(a) <= UT(b);
      case Cmp::Hi: return UT(a) > UT(b);
      case Cmp::Hs: return UT(a) >= UT(b);
      default: return false;
    }
  }
}

// The lanes of `mask` where `a K b` holds, K fixed: a loop per comparison, with no choice inside it.
template <class T, Cmp K>
uint32_t lanes_where(uint32_t mask, const uint64_t* x, const uint64_t* y) {
  uint32_t t = 0;
  for_lanes(mask, [&](unsigned l) { t |= uint32_t(compare<T>(K, lane_get<T>(x, l), lane_get<T>(y, l))) << l; });
  return t;
}

template <class T>
uint32_t lanes_where(Cmp k, uint32_t mask, const uint64_t* x, const uint64_t* y) {
  switch (k) {
    case Cmp::Eq: return lanes_where<T, Cmp::Eq>(mask, x, y);
    case Cmp::Ne: return lanes_where<T, Cmp::Ne>(mask, x, y);
    case Cmp::Lt: return lanes_where<T, Cmp::Lt>(mask, x, y);
    case Cmp::Le: return lanes_where<T, Cmp::Le>(mask, x, y);
    case Cmp::Gt: return lanes_where<T, Cmp::Gt>(mask, x, y);
    case Cmp::Ge: return lanes_where<T, Cmp::Ge>(mask, x, y);
    case Cmp::Lo: return lanes_where<T, Cmp::Lo>(mask, x, y);
    case Cmp::Ls: return lanes_where<T, Cmp::Ls>(mask, x, y);
    case Cmp::Hi: return lanes_where<T, Cmp::Hi>(mask, x, y);
    case Cmp::Hs: return lanes_where<T, Cmp::Hs>(mask, x, y);
    case Cmp::Equ: return lanes_where<T, Cmp::Equ>(mask, x, y);
    case Cmp::Neu: return lanes_where<T, Cmp::Neu>(mask, x, y);
    case Cmp::Ltu: return lanes_where<T, Cmp::Ltu>(mask, x, y);
    case Cmp::Leu: return lanes_where<T, Cmp::Leu>(mask, x, y);
    case Cmp::Gtu: return lanes_where<T, Cmp::Gtu>(mask, x, y);
    case Cmp::Geu: return lanes_where<T, Cmp::Geu>(mask, x, y);
    case Cmp::Num: return lanes_where<T, Cmp::Num>(mask, x, y);
    case Cmp::Nan: return lanes_where<T, Cmp::Nan>(mask, x, y);
    default: return 0;
  }
}

inline uint32_t pred_value(ExecCtx& c, const Operand& o) {
  if (o.kind == OpKind::Imm) return o.imm ? 0xFFFFFFFFu : 0;
  uint32_t v = c.w.preds[o.reg];
  return o.negate ? ~v : v;
}

// setp.cmp[.bool].T p[|q], a, b[, c]
template <class T>
void h_setp(const Instr& in, ExecCtx& c) {
  // operand layout: ops[0]=p, optionally ops[1]=q (second destination), then a, b, [c]
  unsigned i = 1;
  int qslot = -1;
  if (in.ops[1].kind == OpKind::Pred && !in.ops[1].negate && in.nops >= 4 && in.ops[2].kind != OpKind::Pred) {
    qslot = int(in.ops[1].reg);
    i = 2;
  }
  const uint64_t* x = src(c, in.ops[i]);
  const uint64_t* y = src(c, in.ops[i + 1]);
  const uint32_t t = lanes_where<T>(in.cmp, c.mask, x, y);
  uint32_t p = t, q = ~t;
  if (in.sub != SubOp::None && in.nops > i + 2) {
    uint32_t cv = pred_value(c, in.ops[i + 2]);
    switch (in.sub) {
      case SubOp::And: p = t & cv; q = ~t & cv; break;
      case SubOp::Or: p = t | cv; q = ~t | cv; break;
      default: p = t ^ cv; q = ~t ^ cv; break;
    }
  }
  uint32_t& pd = c.w.preds[in.ops[0].reg];
  pd = (pd & ~c.mask) | (p & c.mask);
  if (qslot >= 0) {
    uint32_t& qd = c.w.preds[size_t(qslot)];
    qd = (qd & ~c.mask) | (q & c.mask);
  }
}

// set.cmp[.bool].dtype.stype d, a, b[, c]
template <class S>
void h_set(const Instr& in, ExecCtx& c) {
  const uint64_t* x = src(c, in.ops[1]);
  const uint64_t* y = src(c, in.ops[2]);
  uint64_t* d = dst(c, in.ops[0]);
  uint32_t cv = (in.sub != SubOp::None && in.nops > 3) ? pred_value(c, in.ops[3]) : 0;
  const bool fdst = in.type == DType::F32;
  for_lanes(c.mask, [&](unsigned l) {
    bool t = compare<S>(in.cmp, lane_get<S>(x, l), lane_get<S>(y, l));
    bool cl = cv >> l & 1;
    if (in.sub == SubOp::And) t = t && cl;
    else if (in.sub == SubOp::Or) t = t || cl;
    else if (in.sub == SubOp::Xor) t = t != cl;
    if (fdst) lane_set<float>(d, l, t ? 1.0f : 0.0f);
    else lane_set<uint32_t>(d, l, t ? 0xFFFFFFFFu : 0u);
  });
}

void h_selp(const Instr& in, ExecCtx& c) {
  const uint64_t* a = src(c, in.ops[1]);
  const uint64_t* b = src(c, in.ops[2]);
  uint64_t* d = dst(c, in.ops[0]);
  const uint32_t p = pred_value(c, in.ops[3]);
  for_lanes(c.mask, [&](unsigned l) { d[l] = (p >> l & 1) ? a[l] : b[l]; });
}

template <class S>
void h_slct(const Instr& in, ExecCtx& c) {
  const uint64_t* a = src(c, in.ops[1]);
  const uint64_t* b = src(c, in.ops[2]);
  const uint64_t* s = src(c, in.ops[3]);
  uint64_t* d = dst(c, in.ops[0]);
  for_lanes(c.mask, [&](unsigned l) { d[l] = lane_get<S>(s, l) >= S(0) ? a[l] : b[l]; });
}

// ---------------------------------------------------------------- moves

void h_mov(const Instr& in, ExecCtx& c) {
  const uint64_t* a = src(c, in.ops[1]);
  uint64_t* d = dst(c, in.ops[0]);
  if (c.mask == 0xFFFFFFFFu) std::memcpy(d, a, 32 * sizeof(uint64_t));
  else for_lanes(c.mask, [&](unsigned l) { d[l] = a[l]; });
}

void h_mov_pred(const Instr& in, ExecCtx& c) {
  uint32_t v = pred_value(c, in.ops[1]);
  uint32_t& pd = c.w.preds[in.ops[0].reg];
  pd = (pd & ~c.mask) | (v & c.mask);
}

// mov.bN d, {a, b[, c, d]}: pack; mov.bN {a, b, ...}, d: unpack.
void h_mov_pack(const Instr& in, ExecCtx& c) {
  const Operand& v = in.ops[1];
  uint64_t* d = dst(c, in.ops[0]);
  const unsigned part = dtype_bytes(in.type) * 8 / v.nvec;
  for_lanes(c.mask, [&](unsigned l) {
    uint64_t r = 0;
    for (unsigned e = 0; e < v.nvec; ++e) {
      uint64_t x = c.w.reg(v.vec[e])[l];
      if (part < 64) x &= (uint64_t(1) << part) - 1;
      r |= x << (part * e);
    }
    d[l] = r;
  });
}
void h_mov_unpack(const Instr& in, ExecCtx& c) {
  const Operand& v = in.ops[0];
  const uint64_t* a = src(c, in.ops[1]);
  const unsigned part = dtype_bytes(in.type) * 8 / v.nvec;
  for_lanes(c.mask, [&](unsigned l) {
    uint64_t x = a[l];
    for (unsigned e = 0; e < v.nvec; ++e) {
      if (v.vec[e] == UINT32_MAX) continue;
      uint64_t y = part < 64 ? (x >> (part * e)) & ((uint64_t(1) << part) - 1) : x;
      c.w.reg(v.vec[e])[l] = y;
    }
  });
}

void h_mov_clock(const Instr& in, ExecCtx& c) {
  uint64_t* d = dst(c, in.ops[0]);
  // The core cycle at issue (%clock, %clock64; %globaltimer too, in cycles rather
  // than nanoseconds). Functional mode has no cycles: the warp's issued
  // instructions stand in, so the value still only grows.
  (void)in;
  const uint64_t now = c.b.clock ? *c.b.clock : c.L.clock ? *c.L.clock : c.w.insts.warp;
  for_lanes(c.mask, [&](unsigned l) { d[l] = now; });
}

// ---------------------------------------------------------------- selection

template <template <class> class H>
ExecFn by_int(DType t) {
  switch (t) {
    case DType::S16: return H<int16_t>::fn;
    case DType::U16: case DType::B16: return H<uint16_t>::fn;
    case DType::S32: return H<int32_t>::fn;
    case DType::U32: case DType::B32: return H<uint32_t>::fn;
    case DType::S64: return H<int64_t>::fn;
    case DType::U64: case DType::B64: return H<uint64_t>::fn;
    default: return nullptr;
  }
}

// The .wide forms exist for 16- and 32-bit sources only: no 128-bit code is instantiated for 64-bit ones.
template <class T>
constexpr ExecFn mul_wide_fn() {
  if constexpr (sizeof(T) < 8) return h_mulwide<T>;
  else return nullptr;
}
template <class T>
constexpr ExecFn mad_wide_fn() {
  if constexpr (sizeof(T) < 8) return h_mad<T, 2>;
  else return nullptr;
}

#define WARPTLM_HOLDER(NAME, EXPR) \
  template <class T> struct NAME { static constexpr ExecFn fn = EXPR; };
WARPTLM_HOLDER(HAdd, (h_bin<T, OAdd>))
WARPTLM_HOLDER(HSub, (h_bin<T, OSub>))
WARPTLM_HOLDER(HMulLo, (h_bin<T, OMulLo>))
WARPTLM_HOLDER(HMulHi, (h_bin<T, OMulHi>))
WARPTLM_HOLDER(HMulWide, (mul_wide_fn<T>()))
WARPTLM_HOLDER(HMadLo, (h_mad<T, 0>))
WARPTLM_HOLDER(HMadHi, (h_mad<T, 1>))
WARPTLM_HOLDER(HMadWide, (mad_wide_fn<T>()))
WARPTLM_HOLDER(HMin, (h_bin<T, OMin>))
WARPTLM_HOLDER(HMax, (h_bin<T, OMax>))
WARPTLM_HOLDER(HDiv, (h_bin<T, ODiv>))
WARPTLM_HOLDER(HRem, (h_bin<T, ORem>))
WARPTLM_HOLDER(HAnd, (h_bin<T, OAnd>))
WARPTLM_HOLDER(HOr, (h_bin<T, OOr>))
WARPTLM_HOLDER(HXor, (h_bin<T, OXor>))
WARPTLM_HOLDER(HShl, (h_shift<T, true>))
WARPTLM_HOLDER(HShr, (h_shift<T, false>))
WARPTLM_HOLDER(HNot, (h_unary<T, Un::Not>))
WARPTLM_HOLDER(HCnot, (h_unary<T, Un::Cnot>))
WARPTLM_HOLDER(HNeg, (h_unary<T, Un::Neg>))
WARPTLM_HOLDER(HAbs, (h_unary<T, Un::Abs>))
WARPTLM_HOLDER(HPopc, (h_unary<T, Un::Popc>))
WARPTLM_HOLDER(HClz, (h_unary<T, Un::Clz>))
WARPTLM_HOLDER(HBrev, (h_unary<T, Un::Brev>))
WARPTLM_HOLDER(HBfind, (h_unary<T, Un::Bfind>))
WARPTLM_HOLDER(HBfindS, (h_unary<T, Un::BfindShift>))
WARPTLM_HOLDER(HBfe, (h_bfe<T>))
WARPTLM_HOLDER(HBfi, (h_bfi<T>))
WARPTLM_HOLDER(HSad, (h_sad<T>))
WARPTLM_HOLDER(HSetp, (h_setp<T>))
#undef WARPTLM_HOLDER

// Carry chains take .u32, .s32, .u64 and .s64; an add or a subtraction is the same bits either way.
template <bool Sub, bool CarryIn, bool CarryOut>
ExecFn addc_for(DType t) {
  switch (t) {
    case DType::U32: case DType::S32: return h_addc<uint32_t, Sub, CarryIn, CarryOut>;
    case DType::U64: case DType::S64: return h_addc<uint64_t, Sub, CarryIn, CarryOut>;
    default: return nullptr;
  }
}
template <bool Hi, bool CarryIn, bool CarryOut>
ExecFn madc_for(DType t) {
  switch (t) {
    case DType::U32: return h_madc<uint32_t, Hi, CarryIn, CarryOut>;
    case DType::S32: return h_madc<int32_t, Hi, CarryIn, CarryOut>;
    case DType::U64: return h_madc<uint64_t, Hi, CarryIn, CarryOut>;
    case DType::S64: return h_madc<int64_t, Hi, CarryIn, CarryOut>;
    default: return nullptr;
  }
}
ExecFn carry_chain_fn(const Instr& in, std::string& why) {
  const bool out = writes_carry(in), cin = reads_carry(in), hi = in.flags & F_HI;
  ExecFn fn = nullptr;
  switch (in.op) {
    case Op::Add: fn = addc_for<false, false, true>(in.type); break;
    case Op::Sub: fn = addc_for<true, false, true>(in.type); break;
    case Op::Addc: fn = out ? addc_for<false, true, true>(in.type) : addc_for<false, true, false>(in.type); break;
    case Op::Subc: fn = out ? addc_for<true, true, true>(in.type) : addc_for<true, true, false>(in.type); break;
    case Op::Mad: case Op::Madc:
      if (in.flags & F_WIDE) { why = "a carry chain's mad is .lo or .hi, not .wide"; return nullptr; }
      if (!cin) fn = hi ? madc_for<true, false, true>(in.type) : madc_for<false, false, true>(in.type);
      else if (out) fn = hi ? madc_for<true, true, true>(in.type) : madc_for<false, true, true>(in.type);
      else fn = hi ? madc_for<true, true, false>(in.type) : madc_for<false, true, false>(in.type);
      break;
    default: break;
  }
  if (!fn) why = "a carry chain takes .u32, .s32, .u64 or .s64";
  return fn;
}

ExecFn setp_for(DType t) {
  switch (t) {
    case DType::F32: return h_setp<float>;
    case DType::F64: return h_setp<double>;
    default: return by_int<HSetp>(t);
  }
}

ExecFn set_for(DType s) {
  switch (s) {
    case DType::F32: return h_set<float>;
    case DType::F64: return h_set<double>;
    case DType::S16: return h_set<int16_t>;
    case DType::U16: case DType::B16: return h_set<uint16_t>;
    case DType::S32: return h_set<int32_t>;
    case DType::U32: case DType::B32: return h_set<uint32_t>;
    case DType::S64: return h_set<int64_t>;
    case DType::U64: case DType::B64: return h_set<uint64_t>;
    default: return nullptr;
  }
}

}  // namespace

ExecFn select_int(const Instr& in, std::string& why) {
  const DType t = in.type;
  if (dtype_float(t) && in.op != Op::Setp && in.op != Op::Set && in.op != Op::Selp && in.op != Op::Mov &&
      in.op != Op::Slct)
    return nullptr;
  if (uses_carry(in)) return carry_chain_fn(in, why);
  switch (in.op) {
    case Op::Add:
      if (in.flags & F_SAT) return t == DType::S32 ? h_addsat<false> : nullptr;
      return by_int<HAdd>(t);
    case Op::Sub:
      if (in.flags & F_SAT) return t == DType::S32 ? h_addsat<true> : nullptr;
      return by_int<HSub>(t);
    case Op::Mul:
      if (in.flags & F_SAT) { why = "mul has no .sat form"; return nullptr; }
      if (in.flags & F_WIDE) return by_int<HMulWide>(t);
      if (in.flags & F_HI) return by_int<HMulHi>(t);
      return by_int<HMulLo>(t);
    case Op::Mad:
      if (in.flags & F_SAT) {
        if ((in.flags & F_HI) && t == DType::S32) return h_madhisat;
        why = "mad saturates in its .hi.s32 form only";
        return nullptr;
      }
      if (in.flags & F_WIDE) return by_int<HMadWide>(t);
      if (in.flags & F_HI) return by_int<HMadHi>(t);
      return by_int<HMadLo>(t);
    case Op::Mul24:
      if (t == DType::S32) return h_mul24<int32_t, false>;
      if (t == DType::U32) return h_mul24<uint32_t, false>;
      return nullptr;
    case Op::Mad24:
      if (t == DType::S32) return h_mul24<int32_t, true>;
      if (t == DType::U32) return h_mul24<uint32_t, true>;
      return nullptr;
    case Op::Sad: return by_int<HSad>(t);
    case Op::Min: return by_int<HMin>(t);
    case Op::Max: return by_int<HMax>(t);
    case Op::Div: return by_int<HDiv>(t);
    case Op::Rem: return by_int<HRem>(t);
    case Op::And: case Op::Or: case Op::Xor: case Op::Not:
      if (t == DType::Pred) {
        why = "predicate logic is handled by the warp group";
        return nullptr;
      }
      return in.op == Op::And ? by_int<HAnd>(t) : in.op == Op::Or ? by_int<HOr>(t) : in.op == Op::Xor ? by_int<HXor>(t) : by_int<HNot>(t);
    case Op::Cnot: return by_int<HCnot>(t);
    case Op::Shl: return by_int<HShl>(t);
    case Op::Shr: return by_int<HShr>(t);
    case Op::Neg: return by_int<HNeg>(t);
    case Op::Abs: return by_int<HAbs>(t);
    case Op::Popc: return by_int<HPopc>(t);
    case Op::Clz: return by_int<HClz>(t);
    case Op::Brev: return by_int<HBrev>(t);
    case Op::Bfind: return (in.flags & F_SHIFTAMT) ? by_int<HBfindS>(t) : by_int<HBfind>(t);
    case Op::Bfe: return by_int<HBfe>(t);
    case Op::Bfi: return by_int<HBfi>(t);
    case Op::Prmt:
      if (in.sub != SubOp::None) { why = "only the default prmt mode is supported"; return nullptr; }
      return h_prmt;
    case Op::ShfL: return h_shf<true>;
    case Op::ShfR: return h_shf<false>;
    case Op::Setp:
      if (in.nops < 3) { why = "setp needs a destination and two sources"; return nullptr; }
      return setp_for(t);
    case Op::Set: return in.nops >= 3 ? set_for(in.type2) : nullptr;
    case Op::Selp: return in.nops == 4 ? h_selp : nullptr;
    case Op::Slct:
      if (in.type2 == DType::F32) return h_slct<float>;
      if (in.type2 == DType::S32) return h_slct<int32_t>;
      return nullptr;
    case Op::Mov:
      if (in.nops != 2) return nullptr;
      if (in.ops[1].kind == OpKind::Clock) return h_mov_clock;
      if (t == DType::Pred) return h_mov_pred;
      if (in.ops[1].kind == OpKind::Vec) return h_mov_pack;
      if (in.ops[0].kind == OpKind::Vec) return h_mov_unpack;
      if (in.ops[0].kind != OpKind::Reg) { why = "mov destination must be a register"; return nullptr; }
      if (in.ops[1].kind != OpKind::Reg && in.ops[1].kind != OpKind::Imm) { why = "unsupported mov source"; return nullptr; }
      return h_mov;
    default: return nullptr;
  }
}

}  // namespace warptlm
