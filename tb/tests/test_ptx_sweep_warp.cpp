// PTX coverage sweep, warp-level family: vote.sync (all, any, uni, ballot), shfl.sync (up, down, bfly,
// idx, with the predicate), match.sync (any, all; .b32 and .b64), redux.sync (add, min, max on .u32/.s32;
// and, or, xor on .b32) and activemask, on full warps and on warps where a predicate leaves some lanes
// out (ptx_sweep.hpp). The references compute each lane's result from the whole warp's operands.
#include <catch2/catch.hpp>

#include <cstdint>

#include "ptx_sweep.hpp"

using namespace warptlm_test;

namespace {

// The lanes whose c predicate is set (the lanes a guarded form runs on).
uint32_t guard_mask(const LaneIn* in) {
  uint32_t m = 0;
  for (unsigned l = 0; l < 32; ++l)
    if (in[l].c) m |= 1u << l;
  return m;
}

// A form that runs on the lanes whose c is set, with that set as its member mask:
// "vote.sync.ballot.b32 %w1, {c}, 0xffffffff; @{c} <op> ..., %w1;".
std::string guarded(const std::string& op) { return "vote.sync.ballot.b32 %w1, {c}, 0xffffffff; @{c} " + op; }

std::vector<Form> warp_forms() {
  std::vector<Form> f;
  const Cls N = Cls::None, P = Cls::P, R = Cls::B32, W = Cls::B64;
  // votes on full warps, and on a subset running under a guard
  f.push_back({"vote.sync.ballot.b32 {d}, {a}, 0xffffffff;", R, P, N, N, N, nullptr, [](const LaneIn* in, LaneOut* o) {
                 uint32_t b = 0;
                 for (unsigned l = 0; l < 32; ++l) b |= uint32_t(in[l].a) << l;
                 for (unsigned l = 0; l < 32; ++l) o[l].d = b;
               }});
  for (const char* mode : {"all", "any", "uni"}) {
    const std::string m = mode;
    f.push_back({guarded("vote.sync." + m + ".pred {d}, {a}, %w1;"), P, P, N, P, N, nullptr,
                 [=](const LaneIn* in, LaneOut* o) {
                   const uint32_t g = guard_mask(in);
                   uint32_t v = 0;
                   for (unsigned l = 0; l < 32; ++l) v |= uint32_t(in[l].a) << l;
                   v &= g;
                   const bool r = m == "all" ? v == g : m == "any" ? v != 0 : (v == 0 || v == g);
                   for (unsigned l = 0; l < 32; ++l)
                     if (g >> l & 1) o[l].d = r;
                 }});
  }
  // activemask inside a divergent branch: the lanes that took it (a guard alone leaves every lane active)
  f.push_back({"@!{c} bra $Lskip; activemask.b32 {d}; $Lskip:", R, N, N, P, N, nullptr, [](const LaneIn* in, LaneOut* o) {
                 const uint32_t g = guard_mask(in);
                 for (unsigned l = 0; l < 32; ++l)
                   if (g >> l & 1) o[l].d = g;
               }});
  // shuffles with the valid-lane predicate: b is the lane or offset (0..31), c = 0x1f (whole warp)
  for (const char* mode : {"up", "down", "bfly", "idx"}) {
    const std::string m = mode;
    const char* cval = m == "up" ? "0" : "0x1f";
    Form s{"shfl.sync." + m + ".b32 {d}|{e}, {a}, {b}, " + cval + ", 0xffffffff;", R, R, R, N, P, nullptr,
           [=](const LaneIn* in, LaneOut* o) {
             for (unsigned l = 0; l < 32; ++l) {
               // up, down and bfly take the whole b (an offset past the warp leaves the lane's own value);
               // idx takes b's low five bits
               const int b = int(in[l].b);
               int j = m == "up" ? int(l) - b : m == "down" ? int(l) + b : m == "bfly" ? int(l ^ unsigned(b)) : (b & 31);
               const bool valid = j >= 0 && j <= 31;
               if (!valid) j = int(l);
               o[l].d = uint32_t(in[j].a);
               o[l].e = valid;
             }
           }};
    s.db = Draw::Small;
    f.push_back(s);
  }
  // match: values drawn from 0..3 so lanes share them; .all on a warp whose values all agree too
  auto match_any = [](bool wide) {
    return [=](const LaneIn* in, LaneOut* o) {
      const uint32_t g = guard_mask(in);
      for (unsigned l = 0; l < 32; ++l) {
        if (!(g >> l & 1)) continue;
        uint32_t same = 0;
        for (unsigned k = 0; k < 32; ++k)
          if ((g >> k & 1) && (wide ? in[k].a == in[l].a : uint32_t(in[k].a) == uint32_t(in[l].a))) same |= 1u << k;
        o[l].d = same;
      }
    };
  };
  auto match_all = [](bool wide) {
    return [=](const LaneIn* in, LaneOut* o) {
      const uint32_t g = guard_mask(in);
      bool all = true;
      unsigned first = 32;
      for (unsigned k = 0; k < 32; ++k) {
        if (!(g >> k & 1)) continue;
        if (first == 32) first = k;
        all = all && (wide ? in[k].a == in[first].a : uint32_t(in[k].a) == uint32_t(in[first].a));
      }
      for (unsigned l = 0; l < 32; ++l)
        if (g >> l & 1) { o[l].d = all ? g : 0; o[l].e = all; }
    };
  };
  for (bool wide : {false, true}) {
    const Cls k = wide ? W : R;
    const std::string t = wide ? ".b64" : ".b32";
    Form any{guarded("match.any.sync" + t + " {d}, {a}, %w1;"), R, k, N, P, N, nullptr, match_any(wide)};
    any.da = Draw::Few;
    f.push_back(any);
    Form all{guarded("match.all.sync" + t + " {d}|{e}, {a}, %w1;"), R, k, N, P, P, nullptr, match_all(wide)};
    all.da = Draw::Few;
    f.push_back(all);
    // one value per warp: lane 0's b broadcast first, so .all finds agreement
    Form agree{std::string("shfl.sync.idx.b32 %w2, {b}, 0, 0x1f, 0xffffffff; ") +
                   (wide ? "cvt.u64.u32 {a}, %w2; " : "mov.b32 {a}, %w2; ") + "match.all.sync" + t +
                   " {d}|{e}, {a}, 0xffffffff;",
               R, k, R, N, P, nullptr, [](const LaneIn*, LaneOut* o) {
                 for (unsigned l = 0; l < 32; ++l) { o[l].d = 0xFFFFFFFFu; o[l].e = 1; }
               }};
    f.push_back(agree);
  }
  // redux over the guarded lanes
  struct Red { const char* op; const char* type; };
  for (const Red& r : {Red{"add", "u32"}, Red{"add", "s32"}, Red{"min", "u32"}, Red{"min", "s32"}, Red{"max", "u32"},
                       Red{"max", "s32"}, Red{"and", "b32"}, Red{"or", "b32"}, Red{"xor", "b32"}}) {
    const std::string op = r.op, type = r.type;
    f.push_back({guarded("redux.sync." + op + "." + type + " {d}, {a}, %w1;"), R, R, N, P, N, nullptr,
                 [=](const LaneIn* in, LaneOut* o) {
                   const uint32_t g = guard_mask(in);
                   bool first = true;
                   uint32_t acc = 0;
                   for (unsigned l = 0; l < 32; ++l) {
                     if (!(g >> l & 1)) continue;
                     const uint32_t v = uint32_t(in[l].a);
                     if (first) { acc = v; first = false; continue; }
                     if (op == "add") acc += v;
                     else if (op == "and") acc &= v;
                     else if (op == "or") acc |= v;
                     else if (op == "xor") acc ^= v;
                     else if (op == "min") acc = type == "s32" ? (int32_t(v) < int32_t(acc) ? v : acc) : (v < acc ? v : acc);
                     else acc = type == "s32" ? (int32_t(v) > int32_t(acc) ? v : acc) : (v > acc ? v : acc);
                   }
                   for (unsigned l = 0; l < 32; ++l)
                     if (g >> l & 1) o[l].d = acc;
                 }});
  }
  return f;
}

std::vector<Form> refused_warp_forms() {
  std::vector<Form> f;
  auto refused = [&](const char* text, Cls d, Cls a) {
    Form x{text, d, a};
    x.refused = true;
    f.push_back(x);
  };
  refused("redux.sync.min.f32 {d}, {a}, 0xffffffff;", Cls::F32, Cls::F32);
  refused("redux.sync.add.b32 {d}, {a}, 0xffffffff;", Cls::B32, Cls::B32);
  refused("shfl.sync.idx.b64 {d}, {a}, 0, 0x1f, 0xffffffff;", Cls::B64, Cls::B64);
  return f;
}

}  // namespace

TEST_CASE("ptx sweep, warp-level family: every form executes against its reference", "[ptx][sweep][warp]") {
  const std::vector<Form> forms = warp_forms();
  const SweepCount n = check_sweep(forms, "sweep_warp.ptx");
  CHECK(n.executed == forms.size());
  CHECK(n.executed >= 23);
}

TEST_CASE("ptx sweep, warp-level family: the refused forms name file, line and instruction",
          "[ptx][sweep][warp][error]") {
  const std::vector<Form> ok = warp_forms();
  check_refusals(refused_warp_forms(), {ok.begin(), ok.begin() + 2}, "sweep_warp_refused.ptx");
}
