// PTX coverage sweep, conversion family: cvt between every integer type pair (with and without .sat),
// float to integer with .rni/.rzi/.rmi/.rpi, integer to float with .rn/.rz/.rm/.rp, f32 <-> f64, rounding
// to an integral float, .ftz and .sat on floats, and f16 <-> f32/f64 (ptx_sweep.hpp). The half-precision
// reference rounds by searching the 65536 half values, not by the arithmetic the executor uses.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "ptx_sweep.hpp"

using namespace warptlm_test;

namespace {

LaneOut out(uint64_t d, uint64_t e = 0) { return LaneOut{d, e}; }

struct IntType {
  const char* name;
  unsigned bits;
  bool s;
};
const IntType kInts[] = {{"u8", 8, false}, {"s8", 8, true}, {"u16", 16, false}, {"s16", 16, true},
                         {"u32", 32, false}, {"s32", 32, true}, {"u64", 64, false}, {"s64", 64, true}};

Cls reg_for(unsigned bits) { return bits <= 16 ? Cls::B16 : bits == 32 ? Cls::B32 : Cls::B64; }
uint64_t zx(uint64_t v, unsigned bits) { return bits == 64 ? v : v & ((1ull << bits) - 1); }
__int128 value_of(uint64_t v, const IntType& t) {
  if (!t.s) return __int128(zx(v, t.bits));
  return t.bits == 64 ? __int128(int64_t(v)) : __int128(int64_t(v << (64 - t.bits)) >> (64 - t.bits));
}
__int128 lo_of(const IntType& t) { return t.s ? -(__int128(1) << (t.bits - 1)) : 0; }
__int128 hi_of(const IntType& t) { return t.s ? (__int128(1) << (t.bits - 1)) - 1 : (__int128(1) << t.bits) - 1; }
// The result as the destination register holds it (16-bit registers hold 8-bit results sign- or
// zero-extended to 16 bits).
uint64_t to_reg(__int128 v, const IntType& t) {
  const unsigned regbits = t.bits <= 16 ? 16 : t.bits;
  uint64_t r = uint64_t(v);
  if (t.bits < regbits) r = uint64_t(value_of(r, t));
  return zx(r, regbits);
}

// Float to integer: round, clamp to the destination range; NaN gives 0, except from an .f64 source or
// into a 64-bit destination, where it gives 1 << (width - 1) (PTX ISA, cvt, floating-point notes).
uint64_t f2i(double x, const char* rnd, const IntType& t, bool f64_source) {
  if (std::isnan(x)) return f64_source || t.bits == 64 ? to_reg(__int128(1) << (t.bits - 1), t) : 0;
  const std::string r = rnd;
  const double v = r == "rzi" ? std::trunc(x) : r == "rmi" ? std::floor(x) : r == "rpi" ? std::ceil(x) : std::nearbyint(x);
  if (v <= double(lo_of(t))) return to_reg(lo_of(t), t);
  if (v >= double(hi_of(t))) return to_reg(hi_of(t), t);
  return to_reg(__int128(v), t);
}

// Half precision by table: every finite half value in order, the nearest one (ties to the even bit
// pattern), with 65536 standing for infinity.
double half_value(uint16_t h) {
  const int e = (h >> 10) & 0x1F, m = h & 0x3FF;
  double v = e == 0 ? std::ldexp(double(m), -24) : e == 31 ? (m ? NAN : INFINITY) : std::ldexp(double(m | 0x400), e - 25);
  return (h & 0x8000) ? -v : v;
}
uint16_t to_half(double x) {
  static const std::vector<double> pos = [] {
    std::vector<double> v;
    for (uint32_t h = 0; h <= 0x7C00; ++h) v.push_back(h == 0x7C00 ? 65536.0 : half_value(uint16_t(h)));
    return v;
  }();
  if (std::isnan(x)) return 0x7FFF;
  const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  const double a = std::fabs(x);
  if (a >= 65536.0) return sign | 0x7C00;
  const size_t hi = size_t(std::lower_bound(pos.begin(), pos.end(), a) - pos.begin());
  if (pos[hi] == a) return uint16_t(sign | hi);
  const size_t lo = hi - 1;
  const double dl = a - pos[lo], dh = pos[hi] - a;
  const size_t pick = dl < dh ? lo : dh < dl ? hi : (lo % 2 == 0 ? lo : hi);
  return uint16_t(sign | pick);
}

std::vector<Form> conversion_forms() {
  std::vector<Form> f;
  const Cls F = Cls::F32, D = Cls::F64, N = Cls::None;
  // integer <-> integer: sign- or zero-extend from the source, chop to the destination; .sat clamps
  for (const IntType& dt : kInts) {
    if (dt.bits == 8) continue;  // 8-bit results live in 16-bit registers only through ld/st
    for (const IntType& st : kInts) {
      const std::string text = std::string("cvt.") + dt.name + "." + st.name + " {d}, {a};";
      f.push_back({text, reg_for(dt.bits), reg_for(st.bits), N, N, N,
                   [=](const LaneIn& l) { return out(to_reg(value_of(l.a, st), dt)); }});
      if (lo_of(st) < lo_of(dt) || hi_of(st) > hi_of(dt))  // .sat where the ranges differ
        f.push_back({std::string("cvt.sat.") + dt.name + "." + st.name + " {d}, {a};", reg_for(dt.bits),
                     reg_for(st.bits), N, N, N, [=](const LaneIn& l) {
                       const __int128 v = value_of(l.a, st);
                       return out(to_reg(std::min(std::max(v, lo_of(dt)), hi_of(dt)), dt));
                     }});
    }
  }
  // float -> integer
  for (const IntType& dt : kInts) {
    if (dt.bits == 8) continue;
    for (const char* r : {"rni", "rzi", "rmi", "rpi"}) {
      f.push_back({std::string("cvt.") + r + "." + dt.name + ".f32 {d}, {a};", reg_for(dt.bits), F, N, N, N,
                   [=](const LaneIn& l) { return out(f2i(u2f(uint32_t(l.a)), r, dt, false)); }});
      f.push_back({std::string("cvt.") + r + "." + dt.name + ".f64 {d}, {a};", reg_for(dt.bits), D, N, N, N,
                   [=](const LaneIn& l) { return out(f2i(u2d(l.a), r, dt, true)); }});
    }
  }
  f.push_back({"cvt.rzi.ftz.s32.f32 {d}, {a};", Cls::B32, F, N, N, N,
               [](const LaneIn& l) { return out(f2i(ftz(u2f(uint32_t(l.a))), "rzi", kInts[5], false)); }});
  // integer -> float, in every rounding mode
  for (const IntType& st : kInts) {
    if (st.bits == 8) continue;
    for (const char* r : {"rn", "rz", "rm", "rp"}) {
      f.push_back({std::string("cvt.") + r + ".f32." + st.name + " {d}, {a};", F, reg_for(st.bits), N, N, N,
                   [=](const LaneIn& l) {
                     return out(f2u(in_rounding(r, [&] {
                       volatile __int128 v = value_of(l.a, st);
                       return st.s ? float(int64_t(v)) : float(uint64_t(v));
                     })));
                   }});
      f.push_back({std::string("cvt.") + r + ".f64." + st.name + " {d}, {a};", D, reg_for(st.bits), N, N, N,
                   [=](const LaneIn& l) {
                     return out(d2u(in_rounding(r, [&] {
                       volatile __int128 v = value_of(l.a, st);
                       return st.s ? double(int64_t(v)) : double(uint64_t(v));
                     })));
                   }});
    }
  }
  // f32 <-> f64, integral rounding in float, .ftz and .sat
  f.push_back({"cvt.f64.f32 {d}, {a};", D, F, N, N, N, [](const LaneIn& l) { return out(d2u(double(u2f(uint32_t(l.a))))); }});
  f.push_back({"cvt.ftz.f64.f32 {d}, {a};", D, F, N, N, N,
               [](const LaneIn& l) { return out(d2u(double(ftz(u2f(uint32_t(l.a)))))); }});
  for (const char* r : {"rn", "rz", "rm", "rp"})
    f.push_back({std::string("cvt.") + r + ".f32.f64 {d}, {a};", F, D, N, N, N, [=](const LaneIn& l) {
                   return out(f2u(in_rounding(r, [&] { volatile double x = u2d(l.a); return float(x); })));
                 }});
  f.push_back({"cvt.rn.ftz.f32.f64 {d}, {a};", F, D, N, N, N, [](const LaneIn& l) { return out(f2u(ftz(float(u2d(l.a))))); }});
  for (const char* r : {"rni", "rzi", "rmi", "rpi"}) {
    auto integral = [=](double x) {
      const std::string k = r;
      return k == "rzi" ? std::trunc(x) : k == "rmi" ? std::floor(x) : k == "rpi" ? std::ceil(x) : std::nearbyint(x);
    };
    f.push_back({std::string("cvt.") + r + ".f32.f32 {d}, {a};", F, F, N, N, N,
                 [=](const LaneIn& l) { return out(f2u(float(integral(u2f(uint32_t(l.a)))))); }});
    f.push_back({std::string("cvt.") + r + ".f64.f64 {d}, {a};", D, D, N, N, N,
                 [=](const LaneIn& l) { return out(d2u(integral(u2d(l.a)))); }});
  }
  f.push_back({"cvt.sat.f32.f32 {d}, {a};", F, F, N, N, N, [](const LaneIn& l) {
                 const float x = u2f(uint32_t(l.a));
                 return out(f2u(std::isnan(x) ? 0.0f : x < 0 ? 0.0f : x > 1 ? 1.0f : x));
               }});
  f.push_back({"cvt.ftz.f32.f32 {d}, {a};", F, F, N, N, N, [](const LaneIn& l) { return out(f2u(ftz(u2f(uint32_t(l.a))))); }});
  // half precision
  f.push_back({"cvt.rn.f16.f32 {d}, {a};", Cls::B16, F, N, N, N,
               [](const LaneIn& l) { return out(to_half(u2f(uint32_t(l.a)))); }});
  f.push_back({"cvt.rn.f16.f64 {d}, {a};", Cls::B16, D, N, N, N, [](const LaneIn& l) { return out(to_half(u2d(l.a))); }});
  f.push_back({"cvt.f32.f16 {d}, {a};", F, Cls::B16, N, N, N,
               [](const LaneIn& l) { return out(f2u(float(half_value(uint16_t(l.a))))); }});
  f.push_back({"cvt.f64.f16 {d}, {a};", D, Cls::B16, N, N, N, [](const LaneIn& l) { return out(d2u(half_value(uint16_t(l.a)))); }});
  f.push_back({"cvt.rn.f16.s32 {d}, {a};", Cls::B16, Cls::B32, N, N, N,
               [](const LaneIn& l) { return out(to_half(double(int32_t(l.a)))); }});
  f.push_back({"cvt.rzi.s32.f16 {d}, {a};", Cls::B32, Cls::B16, N, N, N,
               [](const LaneIn& l) { return out(f2i(half_value(uint16_t(l.a)), "rzi", kInts[5], false)); }});
  return f;
}

std::vector<Form> refused_conversion_forms() {
  std::vector<Form> f;
  auto refused = [&](const char* text, Cls d, Cls a, Cls b = Cls::None) {
    Form x{text, d, a, b};
    x.refused = true;
    f.push_back(x);
  };
  refused("cvt.rz.f16.f32 {d}, {a};", Cls::B16, Cls::F32);
  refused("cvt.rn.bf16.f32 {d}, {a};", Cls::B16, Cls::F32);
  refused("cvt.rn.f16x2.f32 {d}, {a}, {b};", Cls::B32, Cls::F32, Cls::F32);
  refused("cvt.rn.satfinite.e4m3x2.f32 {d}, {a}, {b};", Cls::B16, Cls::F32, Cls::F32);
  return f;
}

}  // namespace

TEST_CASE("ptx sweep, conversion family: every form executes against its reference", "[ptx][sweep][cvt]") {
  const std::vector<Form> forms = conversion_forms();
  const SweepCount n = check_sweep(forms, "sweep_cvt.ptx");
  CHECK(n.executed == forms.size());
  CHECK(n.executed > 150);
}

TEST_CASE("ptx sweep, conversion family: the refused forms name file, line and instruction",
          "[ptx][sweep][cvt][error]") {
  const std::vector<Form> ok = conversion_forms();
  check_refusals(refused_conversion_forms(), {ok.begin(), ok.begin() + 4}, "sweep_cvt_refused.ptx");
}
