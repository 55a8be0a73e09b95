// PTX coverage sweep, atomic family: atom and red with add, min, max, inc, dec, exch, cas, and, or, xor
// over .u32/.s32/.b32/.u64/.s64/.b64/.f32/.f64, on global, shared and generic addresses (ptx_sweep.hpp).
// Each thread first stores a into its own word, applies the atomic with b (and c), and reads the word
// back: d is the value the atomic returned (the old one), e the word afterwards. A second set has every
// lane of a warp update one word between two barriers, for the operations whose result does not depend
// on the order. Half-precision atomics are refused, and the refusal is checked.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <string>

#include "ptx_sweep.hpp"

using namespace warptlm_test;

namespace {

struct Type {
  const char* name;
  Cls cls;
  unsigned bits;
  bool s, f;
};

// The word the form updates, by space: the thread's scratch input word (global), its 8 bytes of
// sweep_smem (shared), and the generic address of the latter.
struct Space {
  const char* name;
  const char* setup;
  const char* addr;
};
const Space kSpaces[] = {
    {"global", "", "[%rd4+24]"},
    {"shared", "mov.u64 %z0, sweep_smem; mul.wide.u32 %z1, %r1, 8; add.s64 %z0, %z0, %z1; ", "[%z0]"},
    {"", "mov.u64 %z0, sweep_smem; mul.wide.u32 %z1, %r1, 8; add.s64 %z0, %z0, %z1; cvta.shared.u64 %z2, %z0; ",
     "[%z2]"},
};

uint64_t zx(uint64_t v, unsigned bits) { return bits == 64 ? v : v & ((1ull << bits) - 1); }
int64_t sx(uint64_t v, unsigned bits) { return bits == 64 ? int64_t(v) : int64_t(v << (64 - bits)) >> (64 - bits); }

// The new value of the word: old op b (c for cas). atom.add.f32 flushes subnormal inputs and results to
// zero (PTX ISA, atom); atom.add.f64 does not.
uint64_t apply(const std::string& op, const Type& t, uint64_t old, uint64_t b, uint64_t c) {
  old = zx(old, t.bits);
  b = zx(b, t.bits);
  if (op == "add" && t.f && t.bits == 32) return f2u(ftz(ftz(u2f(uint32_t(old))) + ftz(u2f(uint32_t(b)))));
  if (op == "add" && t.f) return d2u(u2d(old) + u2d(b));
  if (op == "add") return zx(old + b, t.bits);
  if (op == "min") return (t.s ? sx(old, t.bits) < sx(b, t.bits) : old < b) ? old : b;
  if (op == "max") return (t.s ? sx(old, t.bits) > sx(b, t.bits) : old > b) ? old : b;
  if (op == "inc") return old >= b ? 0 : old + 1;
  if (op == "dec") return (old == 0 || old > b) ? b : old - 1;
  if (op == "exch") return b;
  if (op == "cas") return old == b ? zx(c, t.bits) : old;
  if (op == "and") return old & b;
  if (op == "or") return old | b;
  return old ^ b;  // xor
}

std::string bits_type(const Type& t) { return t.bits == 32 ? ".b32" : ".b64"; }

std::vector<Form> atomic_forms() {
  std::vector<Form> f;
  const Type u32{"u32", Cls::B32, 32, false, false}, s32{"s32", Cls::B32, 32, true, false},
      b32{"b32", Cls::B32, 32, false, false}, u64{"u64", Cls::B64, 64, false, false},
      s64{"s64", Cls::B64, 64, true, false}, b64{"b64", Cls::B64, 64, false, false},
      f32{"f32", Cls::F32, 32, false, true}, f64{"f64", Cls::F64, 64, false, true};
  struct OpTypes {
    const char* op;
    std::vector<Type> types;
  };
  const OpTypes ops[] = {{"add", {u32, s32, u64, f32, f64}}, {"min", {u32, s32, u64, s64}}, {"max", {u32, s32, u64, s64}},
                         {"inc", {u32}}, {"dec", {u32}}, {"exch", {b32, b64}}, {"cas", {b32, b64}},
                         {"and", {b32, b64}}, {"or", {b32, b64}}, {"xor", {b32, b64}}};
  for (const OpTypes& o : ops)
    for (const Type& t : o.types)
      for (const Space& sp : kSpaces)
        for (bool red : {false, true}) {
          const std::string op = o.op;
          if (red && (op == "cas" || op == "exch")) continue;  // red has neither
          const std::string space = *sp.name ? std::string(".") + sp.name : "";
          const std::string bt = bits_type(t);
          const std::string ld = std::string("ld") + space + bt;
          const std::string st = std::string("st") + space + bt;
          std::string text = std::string(sp.setup) + st + " " + sp.addr + ", {a}; ";
          if (red) text += "red" + space + "." + op + "." + t.name + " " + sp.addr + ", {b}; mov" + bt + " {d}, {a}; ";
          else text += "atom" + space + "." + op + "." + t.name + " {d}, " + sp.addr + ", {b}" + (op == "cas" ? ", {c}" : "") + "; ";
          text += ld + " {e}, " + sp.addr + ";";
          Form x{text, t.cls, t.cls, t.cls, op == "cas" ? t.cls : Cls::None, t.cls,
                 [=](const LaneIn& l) { return LaneOut{zx(l.a, t.bits), apply(op, t, l.a, l.b, l.c)}; }};
          if (op == "cas") x.da = x.db = Draw::Few;                        // equal often
          if (op == "inc" || op == "dec") x.da = x.db = Draw::Small;       // at and around the bound
          f.push_back(x);
        }
  // every lane of a warp updates its warp's word between two barriers: lane 0 stores a, the rest add b
  // in any order; d is the word afterwards
  struct Shared {
    const char* op;
    Type t;
  };
  for (const Shared& c : {Shared{"add", u32}, Shared{"add", u64}, Shared{"min", s32}, Shared{"max", u32},
                          Shared{"and", b32}, Shared{"or", b64}, Shared{"xor", b32}})
    for (bool shared : {true, false}) {
      const std::string op = c.op;
      const Type t = c.t;
      const std::string space = shared ? ".shared" : ".global";
      const std::string word =
          shared ? "shr.u32 %w2, %r1, 5; mul.wide.u32 %z1, %w2, 8; mov.u64 %z0, sweep_smem; add.s64 %z0, %z0, %z1; "
                 : "and.b32 %w2, %r1, 0xffffffe0; mul.wide.u32 %z1, %w2, 32; add.s64 %z0, %rd2, %z1; "
                   "add.s64 %z0, %z0, 24; ";  // the scratch input word of the warp's lane 0
      const std::string text = word + "and.b32 %w1, %r1, 31; setp.eq.u32 %o1, %w1, 0; @%o1 st" + space + bits_type(t) +
                               " [%z0], {a}; bar.sync 0; red" + space + "." + op + "." + t.name +
                               " [%z0], {b}; bar.sync 0; ld" + space + bits_type(t) + " {d}, [%z0];";
      f.push_back({text, t.cls, t.cls, t.cls, Cls::None, Cls::None, nullptr, [=](const LaneIn* in, LaneOut* o) {
                     uint64_t w = zx(in[0].a, t.bits);
                     for (unsigned l = 0; l < 32; ++l) w = apply(op, t, w, in[l].b, 0);
                     for (unsigned l = 0; l < 32; ++l) o[l].d = w;
                   }});
    }
  return f;
}

std::vector<Form> refused_atomic_forms() {
  std::vector<Form> f;
  auto refused = [&](const char* text, Cls k) {
    Form x{text, k, k, k, Cls::None, k};
    x.refused = true;
    f.push_back(x);
  };
  refused("atom.global.add.noftz.f16 {d}, [%rd4+24], {b};", Cls::B16);
  refused("atom.global.add.noftz.f16x2 {d}, [%rd4+24], {b};", Cls::B32);
  refused("atom.global.cas.f32 {d}, [%rd4+24], {b}, {a};", Cls::F32);
  refused("atom.local.add.u32 {d}, [%rd4+24], {b};", Cls::B32);
  return f;
}

}  // namespace

TEST_CASE("ptx sweep, atomic family: every form executes against its reference", "[ptx][sweep][atomic]") {
  const std::vector<Form> forms = atomic_forms();
  const SweepCount n = check_sweep(forms, "sweep_atomic.ptx");
  CHECK(n.executed == forms.size());
  CHECK(n.executed > 100);
}

TEST_CASE("ptx sweep, atomic family: the refused forms name file, line and instruction",
          "[ptx][sweep][atomic][error]") {
  const std::vector<Form> ok = atomic_forms();
  check_refusals(refused_atomic_forms(), {ok.begin(), ok.begin() + 4}, "sweep_atomic_refused.ptx");
}
