// PTX coverage sweep, integer family: add, sub, mul, mad, mul24, mad24, sad, div, rem, abs, neg, min, max
// and the carry chain, over the .16, .32 and .64 signed and unsigned types nvcc emits (ptx_sweep.hpp).
// Each reference is the PTX ISA's definition written out here in host integers.
#include <catch2/catch.hpp>

#include <climits>
#include <cstdint>

#include "ptx_sweep.hpp"

using namespace warptlm_test;

namespace {

using u128 = unsigned __int128;
using s128 = __int128;

// Sign-extend the low `bits` of v.
int64_t sx(uint64_t v, unsigned bits) { return bits == 64 ? int64_t(v) : int64_t(v << (64 - bits)) >> (64 - bits); }
uint64_t zx(uint64_t v, unsigned bits) { return bits == 64 ? v : v & ((1ull << bits) - 1); }

Cls cls_of(unsigned bits) { return bits == 16 ? Cls::B16 : bits == 32 ? Cls::B32 : Cls::B64; }
std::string ty(bool s, unsigned bits) { return std::string(s ? ".s" : ".u") + std::to_string(bits); }

// a op b on `bits`-bit operands, signed or not, as 128-bit integers.
s128 val(uint64_t v, bool s, unsigned bits) { return s ? s128(sx(v, bits)) : s128(zx(v, bits)); }

LaneOut out(uint64_t d, uint64_t e = 0) { return LaneOut{d, e}; }

// The high `bits` of the 2 x bits product, signed or not (unsigned 64-bit products need the unsigned
// 128-bit type).
uint64_t hi_product(uint64_t a, uint64_t b, bool s, unsigned bits) {
  if (s) return uint64_t((s128(sx(a, bits)) * s128(sx(b, bits))) >> bits);
  return uint64_t((u128(zx(a, bits)) * u128(zx(b, bits))) >> bits);
}

std::vector<Form> integer_forms() {
  std::vector<Form> f;
  for (unsigned bits : {16u, 32u, 64u}) {
    const Cls k = cls_of(bits);
    for (bool s : {true, false}) {
      const std::string t = ty(s, bits);
      f.push_back({"add" + t + " {d}, {a}, {b};", k, k, k, Cls::None, Cls::None,
                   [=](const LaneIn& l) { return out(zx(l.a + l.b, bits)); }});
      f.push_back({"sub" + t + " {d}, {a}, {b};", k, k, k, Cls::None, Cls::None,
                   [=](const LaneIn& l) { return out(zx(l.a - l.b, bits)); }});
      f.push_back({"mul.lo" + t + " {d}, {a}, {b};", k, k, k, Cls::None, Cls::None,
                   [=](const LaneIn& l) { return out(zx(l.a * l.b, bits)); }});
      f.push_back({"mul.hi" + t + " {d}, {a}, {b};", k, k, k, Cls::None, Cls::None, [=](const LaneIn& l) {
                     return out(zx(hi_product(l.a, l.b, s, bits), bits));
                   }});
      f.push_back({"mad.lo" + t + " {d}, {a}, {b}, {c};", k, k, k, k, Cls::None,
                   [=](const LaneIn& l) { return out(zx(l.a * l.b + l.c, bits)); }});
      f.push_back({"mad.hi" + t + " {d}, {a}, {b}, {c};", k, k, k, k, Cls::None, [=](const LaneIn& l) {
                     return out(zx(hi_product(l.a, l.b, s, bits) + l.c, bits));
                   }});
      if (bits < 64) {
        const Cls w = cls_of(bits * 2);
        f.push_back({"mul.wide" + t + " {d}, {a}, {b};", w, k, k, Cls::None, Cls::None, [=](const LaneIn& l) {
                       return out(zx(uint64_t(val(l.a, s, bits) * val(l.b, s, bits)), 2 * bits));
                     }});
        if (bits == 32)
          f.push_back({"mad.wide" + t + " {d}, {a}, {b}, {c};", w, k, k, w, Cls::None, [=](const LaneIn& l) {
                         return out(uint64_t(val(l.a, s, bits) * val(l.b, s, bits)) + l.c);
                       }});
      }
      // division: b = 0 is undefined in PTX, and so is the signed MIN / -1 overflow
      auto div_defined = [=](const LaneIn& l) {
        return zx(l.b, bits) != 0 && !(s && sx(l.a, bits) == (bits == 64 ? INT64_MIN : -(int64_t(1) << (bits - 1))) &&
                                         sx(l.b, bits) == -1);
      };
      Form dv{"div" + t + " {d}, {a}, {b};", k, k, k, Cls::None, Cls::None,
              [=](const LaneIn& l) { return out(zx(uint64_t(val(l.a, s, bits) / val(l.b, s, bits)), bits)); }};
      dv.defined = div_defined;
      f.push_back(dv);
      Form rm{"rem" + t + " {d}, {a}, {b};", k, k, k, Cls::None, Cls::None,
              [=](const LaneIn& l) { return out(zx(uint64_t(val(l.a, s, bits) % val(l.b, s, bits)), bits)); }};
      rm.defined = div_defined;
      f.push_back(rm);
      f.push_back({"min" + t + " {d}, {a}, {b};", k, k, k, Cls::None, Cls::None, [=](const LaneIn& l) {
                     return out(val(l.a, s, bits) < val(l.b, s, bits) ? zx(l.a, bits) : zx(l.b, bits));
                   }});
      f.push_back({"max" + t + " {d}, {a}, {b};", k, k, k, Cls::None, Cls::None, [=](const LaneIn& l) {
                     return out(val(l.a, s, bits) > val(l.b, s, bits) ? zx(l.a, bits) : zx(l.b, bits));
                   }});
      if (s) {
        // abs and neg of the most negative value give it back (two's complement)
        f.push_back({"abs" + t + " {d}, {a};", k, k, Cls::None, Cls::None, Cls::None,
                     [=](const LaneIn& l) { return out(zx(sx(l.a, bits) < 0 ? 0 - l.a : l.a, bits)); }});
        f.push_back({"neg" + t + " {d}, {a};", k, k, Cls::None, Cls::None, Cls::None,
                     [=](const LaneIn& l) { return out(zx(0 - l.a, bits)); }});
      }
      if (bits >= 32)  // sad: c + |a - b|
        f.push_back({"sad" + t + " {d}, {a}, {b}, {c};", k, k, k, k, Cls::None, [=](const LaneIn& l) {
                       const s128 x = val(l.a, s, bits), y = val(l.b, s, bits);
                       return out(zx(uint64_t(x > y ? x - y : y - x) + l.c, bits));
                     }});
    }
  }
  // saturating 32-bit add and subtract, and mad.hi.sat
  auto sat32 = [](s128 r) { return uint64_t(uint32_t(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : int32_t(r))); };
  f.push_back({"add.sat.s32 {d}, {a}, {b};", Cls::B32, Cls::B32, Cls::B32, Cls::None, Cls::None,
               [=](const LaneIn& l) { return out(sat32(s128(sx(l.a, 32)) + sx(l.b, 32))); }});
  f.push_back({"sub.sat.s32 {d}, {a}, {b};", Cls::B32, Cls::B32, Cls::B32, Cls::None, Cls::None,
               [=](const LaneIn& l) { return out(sat32(s128(sx(l.a, 32)) - sx(l.b, 32))); }});
  f.push_back({"mad.hi.sat.s32 {d}, {a}, {b}, {c};", Cls::B32, Cls::B32, Cls::B32, Cls::B32, Cls::None,
               [=](const LaneIn& l) { return out(sat32(((s128(sx(l.a, 32)) * sx(l.b, 32)) >> 32) + sx(l.c, 32))); }});
  // 24-bit multiplies: the operands' low 24 bits (sign-extended for .s32), the 48-bit product's low or
  // high 32 bits
  for (bool s : {true, false}) {
    const std::string t = ty(s, 32);
    auto p48 = [=](const LaneIn& l) { return s ? s128(sx(l.a, 24)) * sx(l.b, 24) : s128(zx(l.a, 24)) * zx(l.b, 24); };
    f.push_back({"mul24.lo" + t + " {d}, {a}, {b};", Cls::B32, Cls::B32, Cls::B32, Cls::None, Cls::None,
                 [=](const LaneIn& l) { return out(zx(uint64_t(p48(l)), 32)); }});
    f.push_back({"mul24.hi" + t + " {d}, {a}, {b};", Cls::B32, Cls::B32, Cls::B32, Cls::None, Cls::None,
                 [=](const LaneIn& l) { return out(zx(uint64_t(p48(l) >> 16), 32)); }});
    f.push_back({"mad24.lo" + t + " {d}, {a}, {b}, {c};", Cls::B32, Cls::B32, Cls::B32, Cls::B32, Cls::None,
                 [=](const LaneIn& l) { return out(zx(uint64_t(p48(l)) + l.c, 32)); }});
    f.push_back({"mad24.hi" + t + " {d}, {a}, {b}, {c};", Cls::B32, Cls::B32, Cls::B32, Cls::B32, Cls::None,
                 [=](const LaneIn& l) { return out(zx(uint64_t(p48(l) >> 16) + l.c, 32)); }});
  }
  // carry chains: the flag of add.cc / sub.cc read back by addc / subc
  f.push_back({"add.cc.u32 {d}, {a}, {b}; addc.u32 {e}, 0, 0;", Cls::B32, Cls::B32, Cls::B32, Cls::None, Cls::B32,
               [](const LaneIn& l) { const uint64_t r = zx(l.a, 32) + zx(l.b, 32); return out(zx(r, 32), r >> 32); }});
  f.push_back({"sub.cc.u64 {d}, {a}, {b}; subc.u64 {e}, 0, 0;", Cls::B64, Cls::B64, Cls::B64, Cls::None, Cls::B64,
               [](const LaneIn& l) { return out(l.a - l.b, l.a < l.b ? ~0ull : 0); }});
  f.push_back({"mad.lo.cc.u32 {d}, {a}, {b}, {c}; madc.hi.u32 {e}, {a}, {b}, 0;", Cls::B32, Cls::B32, Cls::B32,
               Cls::B32, Cls::B32, [](const LaneIn& l) {
                 const uint64_t p = zx(l.a, 32) * zx(l.b, 32);
                 const uint64_t lo = zx(p, 32) + zx(l.c, 32);
                 return out(zx(lo, 32), zx((p >> 32) + (lo >> 32), 32));
               }});
  return f;
}

}  // namespace

TEST_CASE("ptx sweep, integer family: every form executes against its reference", "[ptx][sweep][int]") {
  const std::vector<Form> forms = integer_forms();
  const SweepCount n = check_sweep(forms, "sweep_int.ptx");
  CHECK(n.executed == forms.size());
  CHECK(n.executed >= 90);
}

TEST_CASE("ptx sweep, integer family: dp4a and dp2a are refused naming file, line and instruction",
          "[ptx][sweep][int][error]") {
  std::vector<Form> refused;
  for (const char* text : {"dp4a.u32.s32 {d}, {a}, {b}, {c};", "dp2a.lo.s32.u32 {d}, {a}, {b}, {c};"}) {
    Form x{text, Cls::B32, Cls::B32, Cls::B32, Cls::B32};
    x.refused = true;
    refused.push_back(x);
  }
  const std::vector<Form> ok = integer_forms();
  check_refusals(refused, {ok.begin(), ok.begin() + 3}, "sweep_int_refused.ptx");
}

// The sweep's own check, against deliberate faults: references that differ from the PTX ISA in one
// result, in the second destination only, or at one edge value, and a refusal expected of a form that
// executes. Each must be reported, and only those.
TEST_CASE("ptx sweep: deliberate faults in a reference or an expected refusal are reported", "[ptx][sweep]") {
  const Cls R = Cls::B32, N = Cls::None, P = Cls::P;
  std::vector<Form> forms;
  forms.push_back({"add.s32 {d}, {a}, {b};", R, R, R, N, N,  // fault: subtracts
                   [](const LaneIn& l) { return out(uint32_t(l.a - l.b)); }});
  forms.push_back({"setp.lt.s32 {d}|{e}, {a}, {b};", P, R, R, N, P, [](const LaneIn& l) {  // fault: q = p
                     const bool r = int32_t(l.a) < int32_t(l.b);
                     return out(r, r);
                   }});
  Form ran{"add.u32 {d}, {a}, {b};", R, R, R};  // fault: expected to be refused
  ran.refused = true;
  forms.push_back(ran);
  forms.push_back({"mul.lo.s32 {d}, {a}, {b};", R, R, R, N, N,  // right
                   [](const LaneIn& l) { return out(uint32_t(l.a * l.b)); }});
  forms.push_back({"sub.s32 {d}, {a}, {b};", R, R, R, N, N, [](const LaneIn& l) {  // fault: at one edge value
                     return out(uint32_t(l.a - l.b + (uint32_t(l.a) == 0x80000000u ? 1 : 0)));
                   }});
  const SweepCount n = run_sweep(forms, "sweep_faults.ptx");
  REQUIRE(n.wrong.size() == 4);
  CHECK(n.wrong[0].rfind("form 0 ", 0) == 0);
  CHECK(n.wrong[1].rfind("form 1 ", 0) == 0);
  CHECK(n.wrong[2].rfind("form 2 ", 0) == 0);
  CHECK(n.wrong[2].find("expected a refusal") != std::string::npos);  // it ran (and faulted on its null buffers)
  CHECK(n.wrong[2].find("run error") != std::string::npos);
  CHECK(n.wrong[3].rfind("form 4 ", 0) == 0);
  CHECK(n.executed == 4);
}
