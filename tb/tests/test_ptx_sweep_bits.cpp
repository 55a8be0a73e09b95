// PTX coverage sweep, bit-manipulation and compare family: and, or, xor, not, cnot, shl, shr, popc, clz,
// brev, bfe, bfi, bfind, shf, prmt, predicate logic, setp and selp on integers (ptx_sweep.hpp).
// Each reference is the PTX ISA's definition written out here bit by bit.
#include <catch2/catch.hpp>

#include <cstdint>

#include "ptx_sweep.hpp"

using namespace warptlm_test;

namespace {

int64_t sx(uint64_t v, unsigned bits) { return bits == 64 ? int64_t(v) : int64_t(v << (64 - bits)) >> (64 - bits); }
uint64_t zx(uint64_t v, unsigned bits) { return bits == 64 ? v : v & ((1ull << bits) - 1); }
Cls cls_of(unsigned bits) { return bits == 16 ? Cls::B16 : bits == 32 ? Cls::B32 : Cls::B64; }
LaneOut out(uint64_t d, uint64_t e = 0) { return LaneOut{d, e}; }

unsigned popcount(uint64_t v) { unsigned n = 0; for (; v; v &= v - 1) ++n; return n; }
unsigned leading_zeros(uint64_t v, unsigned bits) {
  unsigned n = 0;
  for (int i = int(bits) - 1; i >= 0 && !((v >> i) & 1); --i) ++n;
  return n;
}
uint64_t reverse(uint64_t v, unsigned bits) {
  uint64_t r = 0;
  for (unsigned i = 0; i < bits; ++i) r |= ((v >> i) & 1) << (bits - 1 - i);
  return r;
}

// bfe: the field at pos (b, 8 bits) of len (c, 8 bits), zero- or sign-extended; a field reaching past
// the top takes the top bit (signed) or zeros; len 0 gives 0.
uint64_t bfe(uint64_t a, uint32_t pos8, uint32_t len8, bool s, unsigned bits) {
  const unsigned pos = pos8 & 0xFF, len = len8 & 0xFF;
  const int64_t sa = sx(a, bits);
  bool sbit;
  if (!s || len == 0) sbit = false;
  else sbit = ((pos + len - 1 >= bits ? uint64_t(sa) >> (bits - 1) : uint64_t(sa) >> (pos + len - 1)) & 1) != 0;
  uint64_t d = 0;
  for (unsigned i = 0; i < bits; ++i) {
    const bool bit = i < len && pos + i < bits ? ((zx(a, bits) >> (pos + i)) & 1) != 0 : sbit;
    d |= uint64_t(bit) << i;
  }
  return d;
}
// bfi: b with a's low len bits inserted at pos
uint64_t bfi(uint64_t a, uint64_t b, uint32_t pos8, uint32_t len8, unsigned bits) {
  const unsigned pos = pos8 & 0xFF, len = len8 & 0xFF;
  uint64_t d = zx(b, bits);
  for (unsigned i = 0; i < len && pos + i < bits; ++i)
    d = (d & ~(1ull << (pos + i))) | (((a >> i) & 1) << (pos + i));
  return d;
}
// bfind: the position of the most significant non-sign bit (0xFFFFFFFF if none); .shiftamt: bits - 1 - it
uint64_t bfind(uint64_t a, bool s, unsigned bits, bool shiftamt) {
  uint64_t v = zx(a, bits);
  if (s && sx(a, bits) < 0) v = zx(~v, bits);
  if (v == 0) return 0xFFFFFFFFu;
  const unsigned msb = bits - 1 - leading_zeros(v, bits);
  return shiftamt ? bits - 1 - msb : msb;
}

uint32_t prmt(uint32_t a, uint32_t b, uint32_t c) {
  const uint64_t x = (uint64_t(b) << 32) | a;
  uint32_t d = 0;
  for (int i = 0; i < 4; ++i) {
    const uint32_t sel = (c >> (4 * i)) & 0xF;
    uint32_t byte = uint32_t(x >> (8 * (sel & 7))) & 0xFF;
    if (sel & 8) byte = (byte & 0x80) ? 0xFF : 0;
    d |= byte << (8 * i);
  }
  return d;
}

bool compare_int(const std::string& cmp, uint64_t a, uint64_t b, bool s, unsigned bits) {
  const int64_t x = sx(a, bits), y = sx(b, bits);
  const uint64_t u = zx(a, bits), v = zx(b, bits);
  if (cmp == "eq") return u == v;
  if (cmp == "ne") return u != v;
  if (cmp == "lt") return s ? x < y : u < v;
  if (cmp == "le") return s ? x <= y : u <= v;
  if (cmp == "gt") return s ? x > y : u > v;
  if (cmp == "ge") return s ? x >= y : u >= v;
  if (cmp == "lo") return u < v;
  if (cmp == "ls") return u <= v;
  if (cmp == "hi") return u > v;
  return u >= v;  // hs
}

std::vector<Form> bit_forms() {
  std::vector<Form> f;
  for (unsigned bits : {16u, 32u, 64u}) {
    const Cls k = cls_of(bits);
    const std::string b = ".b" + std::to_string(bits);
    f.push_back({"and" + b + " {d}, {a}, {b};", k, k, k, Cls::None, Cls::None, [](const LaneIn& l) { return out(l.a & l.b); }});
    f.push_back({"or" + b + " {d}, {a}, {b};", k, k, k, Cls::None, Cls::None, [](const LaneIn& l) { return out(l.a | l.b); }});
    f.push_back({"xor" + b + " {d}, {a}, {b};", k, k, k, Cls::None, Cls::None, [](const LaneIn& l) { return out(l.a ^ l.b); }});
    f.push_back({"not" + b + " {d}, {a};", k, k, Cls::None, Cls::None, Cls::None, [=](const LaneIn& l) { return out(zx(~l.a, bits)); }});
    f.push_back({"cnot" + b + " {d}, {a};", k, k, Cls::None, Cls::None, Cls::None,
                 [=](const LaneIn& l) { return out(zx(l.a, bits) == 0 ? 1 : 0); }});
    // shifts: the amount is a .u32; amounts past the width give 0 (or the sign for shr.s)
    Form shl{"shl" + b + " {d}, {a}, {b};", k, k, Cls::B32, Cls::None, Cls::None,
             [=](const LaneIn& l) { return out(zx(l.b >= bits ? 0 : l.a << l.b, bits)); }};
    shl.db = Draw::Small;
    f.push_back(shl);
    Form shr{"shr.u" + std::to_string(bits) + " {d}, {a}, {b};", k, k, Cls::B32, Cls::None, Cls::None,
             [=](const LaneIn& l) { return out(l.b >= bits ? 0 : zx(l.a, bits) >> l.b); }};
    shr.db = Draw::Small;
    f.push_back(shr);
    Form sar{"shr.s" + std::to_string(bits) + " {d}, {a}, {b};", k, k, Cls::B32, Cls::None, Cls::None,
             [=](const LaneIn& l) { return out(zx(uint64_t(sx(l.a, bits) >> (l.b >= bits ? bits - 1 : l.b)), bits)); }};
    sar.db = Draw::Small;
    f.push_back(sar);
    Form shr_big = shr;  // amounts drawn from the whole .u32 range
    shr_big.db = Draw::Any;
    f.push_back(shr_big);
    if (bits >= 32) {
      f.push_back({"popc" + b + " {d}, {a};", Cls::B32, k, Cls::None, Cls::None, Cls::None,
                   [](const LaneIn& l) { return out(popcount(l.a)); }});
      f.push_back({"clz" + b + " {d}, {a};", Cls::B32, k, Cls::None, Cls::None, Cls::None,
                   [=](const LaneIn& l) { return out(leading_zeros(l.a, bits)); }});
      f.push_back({"brev" + b + " {d}, {a};", k, k, Cls::None, Cls::None, Cls::None,
                   [=](const LaneIn& l) { return out(reverse(l.a, bits)); }});
      for (bool s : {false, true}) {
        const std::string t = (s ? ".s" : ".u") + std::to_string(bits);
        Form e{"bfe" + t + " {d}, {a}, {b}, {c};", k, k, Cls::B32, Cls::B32, Cls::None,
               [=](const LaneIn& l) { return out(bfe(l.a, uint32_t(l.b), uint32_t(l.c), s, bits)); }};
        e.db = e.dc = Draw::Small;
        f.push_back(e);
        f.push_back({"bfind" + t + " {d}, {a};", Cls::B32, k, Cls::None, Cls::None, Cls::None,
                     [=](const LaneIn& l) { return out(bfind(l.a, s, bits, false)); }});
        f.push_back({"bfind.shiftamt" + t + " {d}, {a};", Cls::B32, k, Cls::None, Cls::None, Cls::None,
                     [=](const LaneIn& l) { return out(bfind(l.a, s, bits, true)); }});
      }
      // bfi d, a, b, pos, len: pos from c, len 9 and 40; then pos 5 and len from c
      for (unsigned len : {9u, 40u}) {
        Form i{"bfi" + b + " {d}, {a}, {b}, {c}, " + std::to_string(len) + ";", k, k, k, Cls::B32, Cls::None,
               [=](const LaneIn& l) { return out(bfi(l.a, l.b, uint32_t(l.c), len, bits)); }};
        i.dc = Draw::Small;
        f.push_back(i);
      }
      Form i{"bfi" + b + " {d}, {a}, {b}, 5, {c};", k, k, k, Cls::B32, Cls::None,
             [=](const LaneIn& l) { return out(bfi(l.a, l.b, 5, uint32_t(l.c), bits)); }};
      i.dc = Draw::Small;
      f.push_back(i);
    }
  }
  // funnel shifts: {b:a} shifted; .wrap takes the amount mod 32, .clamp caps it at 32
  for (bool left : {true, false})
    for (bool clamp : {false, true}) {
      Form s{std::string("shf.") + (left ? "l" : "r") + (clamp ? ".clamp" : ".wrap") + ".b32 {d}, {a}, {b}, {c};",
             Cls::B32, Cls::B32, Cls::B32, Cls::B32, Cls::None, [=](const LaneIn& l) {
               const uint32_t n = clamp ? (uint32_t(l.c) > 32 ? 32 : uint32_t(l.c)) : uint32_t(l.c) & 31;
               const uint64_t x = (uint64_t(uint32_t(l.b)) << 32) | uint32_t(l.a);
               return out(left ? uint32_t((x << n) >> 32) : uint32_t(x >> n));
             }};
      s.dc = Draw::Small;
      f.push_back(s);
    }
  f.push_back({"prmt.b32 {d}, {a}, {b}, {c};", Cls::B32, Cls::B32, Cls::B32, Cls::B32, Cls::None,
               [](const LaneIn& l) { return out(prmt(uint32_t(l.a), uint32_t(l.b), uint32_t(l.c))); }});
  // predicate logic
  f.push_back({"and.pred {d}, {a}, {b};", Cls::P, Cls::P, Cls::P, Cls::None, Cls::None, [](const LaneIn& l) { return out(l.a & l.b); }});
  f.push_back({"or.pred {d}, {a}, {b};", Cls::P, Cls::P, Cls::P, Cls::None, Cls::None, [](const LaneIn& l) { return out(l.a | l.b); }});
  f.push_back({"xor.pred {d}, {a}, {b};", Cls::P, Cls::P, Cls::P, Cls::None, Cls::None, [](const LaneIn& l) { return out(l.a ^ l.b); }});
  f.push_back({"not.pred {d}, {a};", Cls::P, Cls::P, Cls::None, Cls::None, Cls::None, [](const LaneIn& l) { return out(l.a ^ 1); }});
  // integer compares: setp with both destinations and a combining predicate, and selp
  for (unsigned bits : {16u, 32u, 64u})
    for (bool s : {true, false}) {
      const Cls k = cls_of(bits);
      const std::string t = (s ? ".s" : ".u") + std::to_string(bits);
      for (const char* cmp : {"eq", "ne", "lt", "le", "gt", "ge"}) {
        Form p{std::string("setp.") + cmp + t + " {d}|{e}, {a}, {b};", Cls::P, k, k, Cls::None, Cls::P,
               [=](const LaneIn& l) { const bool r = compare_int(cmp, l.a, l.b, s, bits); return out(r, !r); }};
        p.da = p.db = Draw::Few;
        f.push_back(p);
        f.push_back(p);  // and over the whole range
        f.back().da = f.back().db = Draw::Any;
      }
    }
  for (const char* cmp : {"lo", "ls", "hi", "hs"})
    f.push_back({std::string("setp.") + cmp + ".u32 {d}, {a}, {b};", Cls::P, Cls::B32, Cls::B32, Cls::None, Cls::None,
                 [=](const LaneIn& l) { return out(compare_int(cmp, l.a, l.b, false, 32)); }});
  f.push_back({"setp.lt.and.s32 {d}|{e}, {a}, {b}, {c};", Cls::P, Cls::B32, Cls::B32, Cls::P, Cls::P, [](const LaneIn& l) {
                 const bool r = int32_t(l.a) < int32_t(l.b);
                 return out(r && l.c, !r && l.c);
               }});
  f.push_back({"setp.ne.or.u64 {d}, {a}, {b}, !{c};", Cls::P, Cls::B64, Cls::B64, Cls::P, Cls::None,
               [](const LaneIn& l) { return out(l.a != l.b || !l.c); }});
  f.push_back({"setp.eq.xor.b32 {d}, {a}, {b}, {c};", Cls::P, Cls::B32, Cls::B32, Cls::P, Cls::None,
               [](const LaneIn& l) { return out((uint32_t(l.a) == uint32_t(l.b)) != bool(l.c)); }});
  f.push_back({"selp.b32 {d}, {a}, {b}, {c};", Cls::B32, Cls::B32, Cls::B32, Cls::P, Cls::None,
               [](const LaneIn& l) { return out(l.c ? l.a : l.b); }});
  f.push_back({"selp.b64 {d}, {a}, {b}, {c};", Cls::B64, Cls::B64, Cls::B64, Cls::P, Cls::None,
               [](const LaneIn& l) { return out(l.c ? l.a : l.b); }});
  f.push_back({"selp.u16 {d}, {a}, {b}, {c};", Cls::B16, Cls::B16, Cls::B16, Cls::P, Cls::None,
               [](const LaneIn& l) { return out(l.c ? l.a : l.b); }});
  f.push_back({"slct.s32.s32 {d}, {a}, {b}, {c};", Cls::B32, Cls::B32, Cls::B32, Cls::B32, Cls::None,
               [](const LaneIn& l) { return out(int32_t(l.c) >= 0 ? l.a : l.b); }});
  return f;
}

// Forms of the family the front end refuses: each refuses its own kernel, naming file, line and instruction.
std::vector<Form> refused_bit_forms() {
  std::vector<Form> f;
  for (const char* mode : {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"}) {
    Form p{std::string("prmt.b32.") + mode + " {d}, {a}, {b}, {c};", Cls::B32, Cls::B32, Cls::B32, Cls::B32};
    p.refused = true;
    f.push_back(p);
  }
  return f;
}

}  // namespace

TEST_CASE("ptx sweep, bit family: every form executes against its reference", "[ptx][sweep][bits]") {
  const std::vector<Form> forms = bit_forms();
  const SweepCount n = check_sweep(forms, "sweep_bits.ptx");
  CHECK(n.executed == forms.size());
  CHECK(n.executed > 120);
}

TEST_CASE("ptx sweep, bit family: the refused forms name file, line and instruction, and the rest still run",
          "[ptx][sweep][bits][error]") {
  const std::vector<Form> ok = bit_forms();
  check_refusals(refused_bit_forms(), {ok.begin(), ok.begin() + 4}, "sweep_bits_refused.ptx");
}
