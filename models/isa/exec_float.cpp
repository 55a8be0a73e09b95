// Floating-point ALU and special-function unit operations (f32, f64). IEEE
// forms (.rn add/mul/fma/div/sqrt/rcp) are bit exact; .approx SFU forms use the
// host's libm and differ from the hardware in the last bits.
#include <cfenv>
#include <cmath>

#include "isa/exec_common.hpp"

namespace warptlm {
namespace {

inline float ftz(float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; }
inline double ftz(double x) { return x; }
template <class T> inline T sat01(T x) { return std::isnan(x) ? T(0) : x < T(0) ? T(0) : x > T(1) ? T(1) : x; }
inline bool directed(Rnd r) { return r == Rnd::Rz || r == Rnd::Rm || r == Rnd::Rp; }

struct FAdd { template <class T> static T f(T a, T b) { return a + b; } };
struct FSub { template <class T> static T f(T a, T b) { return a - b; } };
struct FMul { template <class T> static T f(T a, T b) { return a * b; } };
struct FDiv { template <class T> static T f(T a, T b) { return a / b; } };
struct FMin { template <class T> static T f(T a, T b) { return std::isnan(a) ? b : std::isnan(b) ? a : (a < b || (a == b && std::signbit(a))) ? a : b; } };
struct FMax { template <class T> static T f(T a, T b) { return std::isnan(a) ? b : std::isnan(b) ? a : (a > b || (a == b && !std::signbit(a))) ? a : b; } };
struct FCopysign { template <class T> static T f(T a, T b) { return std::copysign(b, a); } };

// Post-processing of .ftz/.sat, with inputs flushed first.
template <class T, class F>
void h_fbin(const Instr& in, ExecCtx& c) {
  const uint64_t* a = src(c, in.ops[1]);
  const uint64_t* b = src(c, in.ops[2]);
  uint64_t* d = dst(c, in.ops[0]);
  if (!(in.flags & (F_FTZ | F_SAT)) && !directed(in.rnd)) {
    for_lanes(c.mask, [&](unsigned l) { lane_set<T>(d, l, F::f(lane_get<T>(a, l), lane_get<T>(b, l))); });
    return;
  }
  RoundingScope rs(in.rnd);
  const bool z = in.flags & F_FTZ, s = in.flags & F_SAT;
  for_lanes(c.mask, [&](unsigned l) {
    T x = lane_get<T>(a, l), y = lane_get<T>(b, l);
    if (z) { x = ftz(x); y = ftz(y); }
    T r = F::f(x, y);
    if (z) r = ftz(r);
    if (s) r = sat01(r);
    lane_set<T>(d, l, r);
  });
}

template <class T>
void h_fma(const Instr& in, ExecCtx& c) {
  const uint64_t* a = src(c, in.ops[1]);
  const uint64_t* b = src(c, in.ops[2]);
  const uint64_t* e = src(c, in.ops[3]);
  uint64_t* d = dst(c, in.ops[0]);
  if (!(in.flags & (F_FTZ | F_SAT)) && !directed(in.rnd)) {
    for_lanes(c.mask, [&](unsigned l) { lane_set<T>(d, l, std::fma(lane_get<T>(a, l), lane_get<T>(b, l), lane_get<T>(e, l))); });
    return;
  }
  RoundingScope rs(in.rnd);
  const bool z = in.flags & F_FTZ, s = in.flags & F_SAT;
  for_lanes(c.mask, [&](unsigned l) {
    T x = lane_get<T>(a, l), y = lane_get<T>(b, l), w = lane_get<T>(e, l);
    if (z) { x = ftz(x); y = ftz(y); w = ftz(w); }
    T r = std::fma(x, y, w);
    if (z) r = ftz(r);
    if (s) r = sat01(r);
    lane_set<T>(d, l, r);
  });
}

enum class FU { Abs, Neg, Sqrt, Rsqrt, Rcp, Sin, Cos, Lg2, Ex2, Tanh };
template <class T, FU K>
void h_funary(const Instr& in, ExecCtx& c) {
  const uint64_t* a = src(c, in.ops[1]);
  uint64_t* d = dst(c, in.ops[0]);
  const bool z = in.flags & F_FTZ, s = in.flags & F_SAT;
  RoundingScope rs(directed(in.rnd) ? in.rnd : Rnd::Rn);
  for_lanes(c.mask, [&](unsigned l) {
    T x = lane_get<T>(a, l);
    if (z) x = ftz(x);
    T r;
    switch (K) {
      case FU::Abs: r = std::fabs(x); break;
      case FU::Neg: r = -x; break;
      case FU::Sqrt: r = std::sqrt(x); break;
      case FU::Rsqrt: r = T(1) / std::sqrt(x); break;
      case FU::Rcp: r = T(1) / x; break;
      case FU::Sin: r = std::sin(x); break;
      case FU::Cos: r = std::cos(x); break;
      case FU::Lg2: r = std::log2(x); break;
      case FU::Ex2: r = std::exp2(x); break;
      case FU::Tanh: r = std::tanh(x); break;
    }
    if (z) r = ftz(r);
    if (s) r = sat01(r);
    lane_set<T>(d, l, r);
  });
}

template <class T>
void h_testp(const Instr& in, ExecCtx& c) {
  const uint64_t* a = src(c, in.ops[1]);
  uint32_t t = 0;
  for_lanes(c.mask, [&](unsigned l) {
    T x = lane_get<T>(a, l);
    bool r = false;
    switch (in.sub) {
      case SubOp::Finite: r = std::isfinite(x); break;
      case SubOp::Infinite: r = std::isinf(x); break;
      case SubOp::Number: r = !std::isnan(x); break;
      case SubOp::NotANumber: r = std::isnan(x); break;
      case SubOp::Normal: r = std::isnormal(x); break;
      case SubOp::Subnormal: r = std::fpclassify(x) == FP_SUBNORMAL; break;
      default: break;
    }
    if (r) t |= 1u << l;
  });
  uint32_t& p = c.w.preds[in.ops[0].reg];
  p = (p & ~c.mask) | (t & c.mask);
}

template <class T>
ExecFn select_typed(const Instr& in) {
  switch (in.op) {
    case Op::Add: return h_fbin<T, FAdd>;
    case Op::Sub: return h_fbin<T, FSub>;
    case Op::Mul: return h_fbin<T, FMul>;
    case Op::Div: return h_fbin<T, FDiv>;
    case Op::Min: return h_fbin<T, FMin>;
    case Op::Max: return h_fbin<T, FMax>;
    case Op::Copysign: return h_fbin<T, FCopysign>;
    case Op::Fma: case Op::Mad: return h_fma<T>;
    case Op::Abs: return h_funary<T, FU::Abs>;
    case Op::Neg: return h_funary<T, FU::Neg>;
    case Op::Sqrt: return h_funary<T, FU::Sqrt>;
    case Op::Rsqrt: return h_funary<T, FU::Rsqrt>;
    case Op::Rcp: return h_funary<T, FU::Rcp>;
    case Op::Sin: return h_funary<T, FU::Sin>;
    case Op::Cos: return h_funary<T, FU::Cos>;
    case Op::Lg2: return h_funary<T, FU::Lg2>;
    case Op::Ex2: return h_funary<T, FU::Ex2>;
    case Op::Tanh: return h_funary<T, FU::Tanh>;
    case Op::Testp: return h_testp<T>;
    default: return nullptr;
  }
}

}  // namespace

ExecFn select_float(const Instr& in, std::string& why) {
  if (uses_carry(in)) {
    if (dtype_float(in.type)) why = "a carry chain takes .u32, .s32, .u64 or .s64";
    return nullptr;
  }
  if (in.type == DType::F32) return select_typed<float>(in);
  if (in.type == DType::F64) return select_typed<double>(in);
  if (in.type == DType::F16 || in.type == DType::F16x2 || in.type == DType::BF16) {
    switch (in.op) {
      case Op::Add: case Op::Sub: case Op::Mul: case Op::Fma: case Op::Min: case Op::Max: case Op::Neg: case Op::Abs:
        why = "half-precision arithmetic is not supported";
        return nullptr;
      default: break;
    }
  }
  return nullptr;
}

}  // namespace warptlm
