// cvt (integer, float and half conversions with rounding and saturation) and
// cvta (generic <-> state-space address conversion).
#include <cfenv>
#include <cmath>
#include <limits>

#include "isa/exec_common.hpp"

namespace warptlm {
namespace {

enum class Kind { Int, Uint, F16, F32, F64 };
Kind kind_of(DType t) {
  if (t == DType::F16) return Kind::F16;
  if (t == DType::F32) return Kind::F32;
  if (t == DType::F64) return Kind::F64;
  return dtype_signed(t) ? Kind::Int : Kind::Uint;
}

float half_to_float(uint16_t h) {
  uint32_t s = uint32_t(h >> 15) << 31, e = (h >> 10) & 0x1F, m = h & 0x3FF, bits;
  if (e == 0) {
    if (m == 0) bits = s;
    else {  // subnormal half
      float f = std::ldexp(float(m), -24);
      return s ? -f : f;
    }
  } else if (e == 31) bits = s | 0x7F800000u | (m << 13);
  else bits = s | ((e + 112) << 23) | (m << 13);
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

// To the nearest half, ties to even (a NaN becomes the canonical 0x7FFF), from a double (exact for every f32 and f64 source below the
// half range, so cvt.rn.f16.f64 rounds once).
uint16_t float_to_half(double f) {
  const uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  if (std::isnan(f)) return 0x7FFF;  // the canonical half NaN
  const double a = std::fabs(f);
  if (a >= 65520.0) return uint16_t(sign | 0x7C00);
  if (a < 6.103515625e-05) return uint16_t(sign | uint32_t(std::nearbyint(a * 16777216.0)));  // subnormal or zero
  int e;
  const double m = std::frexp(a, &e);  // a = m * 2^e, m in [0.5,1)
  uint32_t mant = uint32_t(std::nearbyint((m * 2.0 - 1.0) * 1024.0));
  int he = e - 1 + 15;
  if (mant == 1024) { mant = 0; ++he; }
  if (he >= 31) return uint16_t(sign | 0x7C00);
  return uint16_t(sign | (uint32_t(he) << 10) | mant);
}

// Read a lane's source value as a wide intermediate.
inline int64_t read_int(const uint64_t* p, unsigned l, DType t) {
  switch (dtype_bytes(t)) {
    case 1: return dtype_signed(t) ? int64_t(lane_get<int8_t>(p, l)) : int64_t(lane_get<uint8_t>(p, l));
    case 2: return dtype_signed(t) ? int64_t(lane_get<int16_t>(p, l)) : int64_t(lane_get<uint16_t>(p, l));
    case 4: return dtype_signed(t) ? int64_t(lane_get<int32_t>(p, l)) : int64_t(lane_get<uint32_t>(p, l));
    default: return int64_t(p[l]);
  }
}

// A narrow result is chopped to its type, then extended to the register:
// sign-extended for signed types (PTX cvt semantics), zero-extended otherwise.
inline void write_bits(uint64_t* d, unsigned l, uint64_t v, DType t) {
  unsigned b = dtype_bytes(t);
  if (b >= 8) { d[l] = v; return; }
  const unsigned sh = 64 - 8 * b;
  d[l] = dtype_signed(t) ? uint64_t(int64_t(v << sh) >> sh) : (v & ((uint64_t(1) << (8 * b)) - 1));
}

// Clamp an integer (held as signed or unsigned 64-bit) into the destination range.
uint64_t clamp_int(int64_t v, bool src_unsigned_big, DType dt) {
  unsigned b = dtype_bytes(dt) * 8;
  if (dtype_signed(dt)) {
    int64_t lo = b >= 64 ? INT64_MIN : -(int64_t(1) << (b - 1)), hi = b >= 64 ? INT64_MAX : (int64_t(1) << (b - 1)) - 1;
    if (src_unsigned_big) return uint64_t(hi);
    return uint64_t(std::min(std::max(v, lo), hi));
  }
  uint64_t hi = b >= 64 ? UINT64_MAX : (uint64_t(1) << b) - 1;
  if (src_unsigned_big) return std::min<uint64_t>(uint64_t(v), hi);
  if (v < 0) return 0;
  return std::min<uint64_t>(uint64_t(v), hi);
}

double round_integral(double x, Rnd r) {
  switch (r) {
    case Rnd::Rzi: return std::trunc(x);
    case Rnd::Rmi: return std::floor(x);
    case Rnd::Rpi: return std::ceil(x);
    default: return std::nearbyint(x);  // rni: nearest even (default rounding mode)
  }
}

// float -> integer: round, saturate to the destination range. NaN gives 0, except from an .f64 source
// or into a 64-bit destination, where it gives 1 << (width - 1) (PTX ISA, cvt, floating-point notes).
uint64_t float_to_int(double x, Rnd r, DType dt, bool f64_source) {
  unsigned b = dtype_bytes(dt) * 8;
  if (std::isnan(x)) return f64_source || b == 64 ? uint64_t(1) << (b - 1) : 0;
  double v = round_integral(x, r == Rnd::None ? Rnd::Rzi : r);
  if (dtype_signed(dt)) {
    double lo = -std::ldexp(1.0, int(b) - 1), hi = std::ldexp(1.0, int(b) - 1);
    if (v < lo) return uint64_t(b >= 64 ? INT64_MIN : -(int64_t(1) << (b - 1)));
    if (v >= hi) return uint64_t(b >= 64 ? INT64_MAX : (int64_t(1) << (b - 1)) - 1);
    return uint64_t(int64_t(v));
  }
  double hi = std::ldexp(1.0, int(b));
  if (v <= 0) return 0;
  if (v >= hi) return b >= 64 ? UINT64_MAX : (uint64_t(1) << b) - 1;
  return uint64_t(v);
}

void h_cvt(const Instr& in, ExecCtx& c) {
  const uint64_t* a = src(c, in.ops[1]);
  uint64_t* d = dst(c, in.ops[0]);
  const DType dt = in.type, st = in.type2;
  const Kind dk = kind_of(dt), sk = kind_of(st);
  const bool sat = in.flags & F_SAT, z = in.flags & F_FTZ;
  const bool src_float = sk == Kind::F16 || sk == Kind::F32 || sk == Kind::F64;
  const bool dst_float = dk == Kind::F16 || dk == Kind::F32 || dk == Kind::F64;
  const bool int_round = in.rnd == Rnd::Rni || in.rnd == Rnd::Rzi || in.rnd == Rnd::Rmi || in.rnd == Rnd::Rpi;
  RoundingScope rs(int_round ? Rnd::Rn : in.rnd);
  for_lanes(c.mask, [&](unsigned l) {
    if (!src_float && !dst_float) {
      int64_t v = read_int(a, l, st);
      bool big = sk == Kind::Uint && dtype_bytes(st) == 8 && uint64_t(v) > uint64_t(INT64_MAX);
      write_bits(d, l, sat ? clamp_int(v, big, dt) : uint64_t(v), dt);
      return;
    }
    if (!src_float) {  // integer -> float, rounded per the current mode
      int64_t v = read_int(a, l, st);
      bool u64 = sk == Kind::Uint && dtype_bytes(st) == 8;
      if (dk == Kind::F64) lane_set<double>(d, l, u64 ? double(uint64_t(v)) : double(v));
      else {
        if (dk == Kind::F16) {
          const double x = u64 ? double(uint64_t(v)) : double(v);
          lane_set<uint16_t>(d, l, float_to_half(sat ? std::min(std::max(x, 0.0), 1.0) : x));
          return;
        }
        float f = u64 ? float(uint64_t(v)) : float(v);
        if (sat) f = std::min(std::max(f, 0.0f), 1.0f);
        lane_set<float>(d, l, f);
      }
      return;
    }
    double x = sk == Kind::F64 ? lane_get<double>(a, l)
                               : sk == Kind::F32 ? double(lane_get<float>(a, l)) : double(half_to_float(lane_get<uint16_t>(a, l)));
    if (z && sk == Kind::F32 && std::fpclassify(float(x)) == FP_SUBNORMAL) x = std::copysign(0.0, x);
    if (!dst_float) { write_bits(d, l, float_to_int(x, in.rnd, dt, sk == Kind::F64), dt); return; }
    if (int_round) x = round_integral(x, in.rnd);
    if (sat) x = std::isnan(x) ? 0.0 : std::min(std::max(x, 0.0), 1.0);
    if (dk == Kind::F64) lane_set<double>(d, l, x);
    else if (dk == Kind::F32) {
      float f = sk == Kind::F64 ? float(lane_get<double>(a, l)) : float(x);
      if (sk == Kind::F64 && (int_round || sat)) f = float(x);
      if (z && std::fpclassify(f) == FP_SUBNORMAL) f = std::copysign(0.0f, f);
      lane_set<float>(d, l, f);
    } else {
      lane_set<uint16_t>(d, l, float_to_half(x));
    }
  });
}

// cvta.space: state-space address -> generic; cvta.to.space: generic -> state space.
template <bool To>
void h_cvta(const Instr& in, ExecCtx& c) {
  const uint64_t* a = src(c, in.ops[1]);
  uint64_t* d = dst(c, in.ops[0]);
  uint64_t window = in.space == Space::Shared ? kSharedWindow : in.space == Space::Local ? kLocalWindow : 0;
  const bool narrow = dtype_bytes(in.type) == 4;
  for_lanes(c.mask, [&](unsigned l) {
    uint64_t v = narrow ? uint32_t(a[l]) : a[l];
    uint64_t r = To ? v - window : v + window;
    d[l] = narrow ? uint32_t(r) : r;
  });
}

}  // namespace

ExecFn select_convert(const Instr& in, std::string& why) {
  if (in.op == Op::Cvt) {
    auto ok = [](DType t) {
      return t == DType::F16 || t == DType::F32 || t == DType::F64 || (!dtype_float(t) && dtype_bytes(t) > 0 && dtype_bytes(t) <= 8);
    };
    if (!ok(in.type) || !ok(in.type2)) {
      why = std::string("cvt between .") + dtype_name(in.type) + " and ." + dtype_name(in.type2) + " is not supported";
      return nullptr;
    }
    if (in.type == DType::F16 && in.type2 != DType::F16 && in.rnd != Rnd::Rn) {
      why = "a conversion to .f16 is supported with .rn rounding only";
      return nullptr;
    }
    return h_cvt;
  }
  if (in.op == Op::Cvta) return (in.flags & F_TO) ? h_cvta<true> : h_cvta<false>;
  return nullptr;
}

}  // namespace warptlm
