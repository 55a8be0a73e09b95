// PTX coverage sweep, floating-point family: add, sub, mul, fma, mad, div, sqrt, rcp, rsqrt, sin, cos,
// lg2, ex2, tanh, min, max, abs, neg, copysign, testp, setp and selp on .f32 and .f64, every rounding
// modifier, .ftz and .sat (ptx_sweep.hpp). IEEE forms are checked bit for bit against the host's IEEE
// arithmetic in the same rounding mode; .approx forms within the error bound the PTX ISA states for them.
// Half-precision arithmetic is refused, and the refusal is checked.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>

#include "ptx_sweep.hpp"

using namespace warptlm_test;

namespace {

LaneOut out(uint64_t d, uint64_t e = 0) { return LaneOut{d, e}; }

// Operands and results as host floats; `volatile` keeps the compiler from folding them outside the
// rounding mode in_rounding sets.
float fa(const LaneIn& l) { volatile float x = u2f(uint32_t(l.a)); return x; }
float fb(const LaneIn& l) { volatile float x = u2f(uint32_t(l.b)); return x; }
float fc(const LaneIn& l) { volatile float x = u2f(uint32_t(l.c)); return x; }
double da(const LaneIn& l) { volatile double x = u2d(l.a); return x; }
double db(const LaneIn& l) { volatile double x = u2d(l.b); return x; }
double dc(const LaneIn& l) { volatile double x = u2d(l.c); return x; }

float sat01(float x) { return std::isnan(x) ? 0.0f : x < 0 ? 0.0f : x > 1 ? 1.0f : x; }

// PTX min/max: a NaN operand gives the other one; -0 orders below +0.
template <class T>
T fmin_ptx(T a, T b) { return std::isnan(a) ? b : std::isnan(b) ? a : (a < b || (a == b && std::signbit(a))) ? a : b; }
template <class T>
T fmax_ptx(T a, T b) { return std::isnan(a) ? b : std::isnan(b) ? a : (a > b || (a == b && !std::signbit(a))) ? a : b; }

template <class T>
bool compare_float(const std::string& c, T a, T b) {
  const bool un = std::isnan(a) || std::isnan(b);
  if (c == "eq") return !un && a == b;
  if (c == "ne") return !un && a != b;
  if (c == "lt") return !un && a < b;
  if (c == "le") return !un && a <= b;
  if (c == "gt") return !un && a > b;
  if (c == "ge") return !un && a >= b;
  if (c == "equ") return un || a == b;
  if (c == "neu") return un || a != b;
  if (c == "ltu") return un || a < b;
  if (c == "leu") return un || a <= b;
  if (c == "gtu") return un || a > b;
  if (c == "geu") return un || a >= b;
  if (c == "num") return !un;
  return un;  // nan
}

std::vector<Form> float_forms() {
  std::vector<Form> f;
  const Cls F = Cls::F32, D = Cls::F64, N = Cls::None;
  for (const char* r : {"rn", "rz", "rm", "rp"}) {
    const std::string m = std::string(".") + r;
    f.push_back({"add" + m + ".f32 {d}, {a}, {b};", F, F, F, N, N,
                 [=](const LaneIn& l) { return out(f2u(in_rounding(r, [&] { return float(fa(l) + fb(l)); }))); }});
    f.push_back({"sub" + m + ".f32 {d}, {a}, {b};", F, F, F, N, N,
                 [=](const LaneIn& l) { return out(f2u(in_rounding(r, [&] { return float(fa(l) - fb(l)); }))); }});
    f.push_back({"mul" + m + ".f32 {d}, {a}, {b};", F, F, F, N, N,
                 [=](const LaneIn& l) { return out(f2u(in_rounding(r, [&] { return float(fa(l) * fb(l)); }))); }});
    f.push_back({"fma" + m + ".f32 {d}, {a}, {b}, {c};", F, F, F, F, N,
                 [=](const LaneIn& l) { return out(f2u(in_rounding(r, [&] { return std::fma(fa(l), fb(l), fc(l)); }))); }});
    f.push_back({"div" + m + ".f32 {d}, {a}, {b};", F, F, F, N, N,
                 [=](const LaneIn& l) { return out(f2u(in_rounding(r, [&] { return float(fa(l) / fb(l)); }))); }});
    f.push_back({"sqrt" + m + ".f32 {d}, {a};", F, F, N, N, N,
                 [=](const LaneIn& l) { return out(f2u(in_rounding(r, [&] { return std::sqrt(fa(l)); }))); }});
    f.push_back({"rcp" + m + ".f32 {d}, {a};", F, F, N, N, N,
                 [=](const LaneIn& l) { return out(f2u(in_rounding(r, [&] { return float(1.0f / fa(l)); }))); }});
    f.push_back({"add" + m + ".f64 {d}, {a}, {b};", D, D, D, N, N,
                 [=](const LaneIn& l) { return out(d2u(in_rounding(r, [&] { return double(da(l) + db(l)); }))); }});
    f.push_back({"sub" + m + ".f64 {d}, {a}, {b};", D, D, D, N, N,
                 [=](const LaneIn& l) { return out(d2u(in_rounding(r, [&] { return double(da(l) - db(l)); }))); }});
    f.push_back({"mul" + m + ".f64 {d}, {a}, {b};", D, D, D, N, N,
                 [=](const LaneIn& l) { return out(d2u(in_rounding(r, [&] { return double(da(l) * db(l)); }))); }});
    f.push_back({"fma" + m + ".f64 {d}, {a}, {b}, {c};", D, D, D, D, N,
                 [=](const LaneIn& l) { return out(d2u(in_rounding(r, [&] { return std::fma(da(l), db(l), dc(l)); }))); }});
    f.push_back({"div" + m + ".f64 {d}, {a}, {b};", D, D, D, N, N,
                 [=](const LaneIn& l) { return out(d2u(in_rounding(r, [&] { return double(da(l) / db(l)); }))); }});
    f.push_back({"sqrt" + m + ".f64 {d}, {a};", D, D, N, N, N,
                 [=](const LaneIn& l) { return out(d2u(in_rounding(r, [&] { return std::sqrt(da(l)); }))); }});
    f.push_back({"rcp" + m + ".f64 {d}, {a};", D, D, N, N, N,
                 [=](const LaneIn& l) { return out(d2u(in_rounding(r, [&] { return double(1.0 / da(l)); }))); }});
  }
  // default rounding (.rn) and the mad spelling of fma
  f.push_back({"add.f32 {d}, {a}, {b};", F, F, F, N, N, [](const LaneIn& l) { return out(f2u(fa(l) + fb(l))); }});
  f.push_back({"mul.f64 {d}, {a}, {b};", D, D, D, N, N, [](const LaneIn& l) { return out(d2u(da(l) * db(l))); }});
  f.push_back({"mad.rn.f32 {d}, {a}, {b}, {c};", F, F, F, F, N,
               [](const LaneIn& l) { return out(f2u(std::fma(fa(l), fb(l), fc(l)))); }});
  f.push_back({"mad.rn.f64 {d}, {a}, {b}, {c};", D, D, D, D, N,
               [](const LaneIn& l) { return out(d2u(std::fma(da(l), db(l), dc(l)))); }});
  // .ftz flushes subnormal inputs and results to zero of their sign; .sat clamps to [0, 1], NaN to 0
  f.push_back({"add.ftz.f32 {d}, {a}, {b};", F, F, F, N, N,
               [](const LaneIn& l) { return out(f2u(ftz(ftz(fa(l)) + ftz(fb(l))))); }});
  f.push_back({"mul.rz.ftz.f32 {d}, {a}, {b};", F, F, F, N, N,
               [](const LaneIn& l) { return out(f2u(ftz(in_rounding("rz", [&] { return float(ftz(fa(l)) * ftz(fb(l))); })))); }});
  f.push_back({"fma.rn.ftz.f32 {d}, {a}, {b}, {c};", F, F, F, F, N,
               [](const LaneIn& l) { return out(f2u(ftz(std::fma(ftz(fa(l)), ftz(fb(l)), ftz(fc(l)))))); }});
  f.push_back({"add.sat.f32 {d}, {a}, {b};", F, F, F, N, N, [](const LaneIn& l) { return out(f2u(sat01(fa(l) + fb(l)))); }});
  f.push_back({"fma.rn.sat.f32 {d}, {a}, {b}, {c};", F, F, F, F, N,
               [](const LaneIn& l) { return out(f2u(sat01(std::fma(fa(l), fb(l), fc(l))))); }});
  f.push_back({"div.rn.ftz.f32 {d}, {a}, {b};", F, F, F, N, N,
               [](const LaneIn& l) { return out(f2u(ftz(ftz(fa(l)) / ftz(fb(l))))); }});
  // full-range division (2 ulp), and the approximations within the PTX ISA's stated bounds
  Form full{"div.full.f32 {d}, {a}, {b};", F, F, F, N, N, [](const LaneIn& l) { return out(f2u(fa(l) / fb(l))); }};
  full.ulps = 2;
  full.defined = [](const LaneIn& l) { const float b = std::fabs(u2f(uint32_t(l.b))); return b >= 0x1p-126f && b <= 0x1p126f; };
  f.push_back(full);
  Form dva{"div.approx.f32 {d}, {a}, {b};", F, F, F, N, N, [](const LaneIn& l) { return out(f2u(fa(l) / fb(l))); }};
  dva.ulps = 2;
  dva.defined = full.defined;
  f.push_back(dva);
  Form rcpa{"rcp.approx.f32 {d}, {a};", F, F, N, N, N, [](const LaneIn& l) { return out(f2u(1.0f / fa(l))); }};
  rcpa.ulps = 1;
  rcpa.da = Draw::Finite;
  f.push_back(rcpa);
  Form sqa{"sqrt.approx.f32 {d}, {a};", F, F, N, N, N, [](const LaneIn& l) { return out(f2u(std::sqrt(fa(l)))); }};
  sqa.rel = 0x1p-22;
  sqa.da = Draw::Positive;
  f.push_back(sqa);
  Form rsa{"rsqrt.approx.f32 {d}, {a};", F, F, N, N, N, [](const LaneIn& l) { return out(f2u(float(1.0 / std::sqrt(double(fa(l)))))); }};
  rsa.rel = 0x1p-22;
  rsa.da = Draw::Positive;
  f.push_back(rsa);
  Form rsd{"rsqrt.approx.f64 {d}, {a};", D, D, N, N, N, [](const LaneIn& l) { return out(d2u(1.0 / std::sqrt(da(l)))); }};
  rsd.rel = 0x1p-40;
  rsd.da = Draw::Positive;
  f.push_back(rsd);
  for (const char* fn : {"sin", "cos"}) {
    const bool s = fn[0] == 's';
    Form t{std::string(fn) + ".approx.f32 {d}, {a};", F, F, N, N, N,
           [=](const LaneIn& l) { return out(f2u(float(s ? std::sin(double(fa(l))) : std::cos(double(fa(l)))))); }};
    t.abs = 0x1p-20;  // max absolute error 2^-20.9 in [-pi, pi]
    t.da = Draw::Unit;
    t.defined = [](const LaneIn& l) { return std::fabs(u2f(uint32_t(l.a))) <= 3.14159f; };
    f.push_back(t);
  }
  Form lg{"lg2.approx.f32 {d}, {a};", F, F, N, N, N, [](const LaneIn& l) { return out(f2u(float(std::log2(double(fa(l)))))); }};
  lg.abs = 0x1p-22;
  lg.rel = 0x1p-22;
  lg.da = Draw::Positive;
  f.push_back(lg);
  Form ex{"ex2.approx.f32 {d}, {a};", F, F, N, N, N, [](const LaneIn& l) { return out(f2u(float(std::exp2(double(fa(l)))))); }};
  ex.rel = 0x1p-21;
  ex.da = Draw::Unit;
  f.push_back(ex);
  Form exz = ex;
  exz.text = "ex2.approx.ftz.f32 {d}, {a};";
  f.push_back(exz);
  Form th{"tanh.approx.f32 {d}, {a};", F, F, N, N, N, [](const LaneIn& l) { return out(f2u(float(std::tanh(double(fa(l)))))); }};
  th.rel = 0x1p-10;  // max relative error 2^-10.987
  th.abs = 0x1p-20;
  th.da = Draw::Unit;
  f.push_back(th);
  // min, max, abs, neg, copysign
  f.push_back({"min.f32 {d}, {a}, {b};", F, F, F, N, N, [](const LaneIn& l) { return out(f2u(fmin_ptx(fa(l), fb(l)))); }});
  f.push_back({"max.f32 {d}, {a}, {b};", F, F, F, N, N, [](const LaneIn& l) { return out(f2u(fmax_ptx(fa(l), fb(l)))); }});
  f.push_back({"min.ftz.f32 {d}, {a}, {b};", F, F, F, N, N, [](const LaneIn& l) { return out(f2u(fmin_ptx(ftz(fa(l)), ftz(fb(l))))); }});
  f.push_back({"min.f64 {d}, {a}, {b};", D, D, D, N, N, [](const LaneIn& l) { return out(d2u(fmin_ptx(da(l), db(l)))); }});
  f.push_back({"max.f64 {d}, {a}, {b};", D, D, D, N, N, [](const LaneIn& l) { return out(d2u(fmax_ptx(da(l), db(l)))); }});
  f.push_back({"abs.f32 {d}, {a};", F, F, N, N, N, [](const LaneIn& l) { return out(l.a & 0x7FFFFFFFu); }});
  f.push_back({"neg.f32 {d}, {a};", F, F, N, N, N, [](const LaneIn& l) { return out((l.a ^ 0x80000000u) & 0xFFFFFFFFu); }});
  f.push_back({"abs.f64 {d}, {a};", D, D, N, N, N, [](const LaneIn& l) { return out(l.a & 0x7FFFFFFFFFFFFFFFull); }});
  f.push_back({"neg.f64 {d}, {a};", D, D, N, N, N, [](const LaneIn& l) { return out(l.a ^ 0x8000000000000000ull); }});
  f.push_back({"copysign.f32 {d}, {a}, {b};", F, F, F, N, N,
               [](const LaneIn& l) { return out((l.a & 0x80000000u) | (l.b & 0x7FFFFFFFu)); }});
  f.push_back({"copysign.f64 {d}, {a}, {b};", D, D, D, N, N,
               [](const LaneIn& l) { return out((l.a & 0x8000000000000000ull) | (l.b & 0x7FFFFFFFFFFFFFFFull)); }});
  // testp
  for (const char* t : {"finite", "infinite", "number", "notanumber", "normal", "subnormal"}) {
    auto cls = [=](double x) {
      const std::string k = t;
      if (k == "finite") return std::isfinite(x);
      if (k == "infinite") return std::isinf(x);
      if (k == "number") return !std::isnan(x);
      if (k == "notanumber") return std::isnan(x);
      if (k == "normal") return std::isnormal(x);
      return std::fpclassify(x) == FP_SUBNORMAL;
    };
    f.push_back({std::string("testp.") + t + ".f32 {d}, {a};", Cls::P, F, N, N, N, [=](const LaneIn& l) {
                   const float x = u2f(uint32_t(l.a));
                   const bool sub = std::fpclassify(x) == FP_SUBNORMAL;
                   return out(std::string(t) == "subnormal" ? sub : std::string(t) == "normal" ? std::isnormal(x) : cls(x));
                 }});
    f.push_back({std::string("testp.") + t + ".f64 {d}, {a};", Cls::P, D, N, N, N,
                 [=](const LaneIn& l) { return out(cls(u2d(l.a))); }});
  }
  // ordered and unordered compares, both destinations
  for (const char* c : {"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"}) {
    f.push_back({std::string("setp.") + c + ".f32 {d}|{e}, {a}, {b};", Cls::P, F, F, N, Cls::P, [=](const LaneIn& l) {
                   const bool r = compare_float(c, fa(l), fb(l));
                   return out(r, !r);
                 }});
    f.push_back({std::string("setp.") + c + ".f64 {d}, {a}, {b};", Cls::P, D, D, N, N,
                 [=](const LaneIn& l) { return out(compare_float(c, da(l), db(l))); }});
  }
  f.push_back({"setp.lt.ftz.f32 {d}, {a}, {b};", Cls::P, F, F, N, N,
               [](const LaneIn& l) { return out(compare_float("lt", ftz(fa(l)), ftz(fb(l)))); }});
  f.push_back({"selp.f32 {d}, {a}, {b}, {c};", F, F, F, Cls::P, N, [](const LaneIn& l) { return out(l.c ? l.a : l.b); }});
  f.push_back({"selp.f64 {d}, {a}, {b}, {c};", D, D, D, Cls::P, N, [](const LaneIn& l) { return out(l.c ? l.a : l.b); }});
  return f;
}

std::vector<Form> refused_float_forms() {
  std::vector<Form> f;
  auto refused = [&](const char* text, Cls k) {
    Form x{text, k, k, k, k};
    x.refused = true;
    f.push_back(x);
  };
  refused("add.f16 {d}, {a}, {b};", Cls::B16);
  refused("mul.rn.f16 {d}, {a}, {b};", Cls::B16);
  refused("fma.rn.f16x2 {d}, {a}, {b}, {c};", Cls::B32);
  refused("min.bf16x2 {d}, {a}, {b};", Cls::B32);
  refused("neg.f16 {d}, {a};", Cls::B16);
  return f;
}

}  // namespace

TEST_CASE("ptx sweep, floating-point family: every form executes against its reference", "[ptx][sweep][float]") {
  const std::vector<Form> forms = float_forms();
  const SweepCount n = check_sweep(forms, "sweep_float.ptx");
  CHECK(n.executed == forms.size());
  CHECK(n.executed > 130);
}

TEST_CASE("ptx sweep, floating-point family: half-precision arithmetic is refused naming file, line and instruction",
          "[ptx][sweep][float][error]") {
  const std::vector<Form> ok = float_forms();
  check_refusals(refused_float_forms(), {ok.begin(), ok.begin() + 4}, "sweep_float_refused.ptx");
}
