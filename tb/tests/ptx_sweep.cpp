// The PTX coverage sweep's driver (ptx_sweep.hpp): kernel generation, operand draws, the check.
#include "ptx_sweep.hpp"

#include <catch2/catch.hpp>

#include <cfenv>
#include <cmath>
#include <cstring>
#include <random>
#include <sstream>

#include "isa_fixture.hpp"

using namespace warptlm;

namespace warptlm_test {

namespace {

constexpr unsigned kThreads = 256;  // 8 warps of one block per form
constexpr unsigned kInWords = 4;    // a, b, c and a pad word per thread
constexpr unsigned kOutWords = 2;   // d, e per thread

// Register of operand slot s (0 d, 1 a, 2 b, 3 c, 4 e) in class k.
std::string reg_of(Cls k, unsigned s) {
  switch (k) {
    case Cls::P: return "%q" + std::to_string(s);
    case Cls::B16: return "%h" + std::to_string(s);
    case Cls::B32: return "%x" + std::to_string(s);
    case Cls::B64: return "%y" + std::to_string(s);
    case Cls::F32: return "%f" + std::to_string(s);
    case Cls::F64: return "%g" + std::to_string(s);
    default: return "";
  }
}

// Moves the 64-bit input word `from` into the operand register of class k.
std::string load_operand(Cls k, unsigned s, const std::string& from) {
  const std::string r = reg_of(k, s);
  switch (k) {
    case Cls::P: return "  setp.ne.u64 " + r + ", " + from + ", 0;\n";
    case Cls::B16: return "  cvt.u16.u64 " + r + ", " + from + ";\n";
    case Cls::B32: return "  cvt.u32.u64 " + r + ", " + from + ";\n";
    case Cls::B64: return "  mov.b64 " + r + ", " + from + ";\n";
    case Cls::F32: return "  cvt.u32.u64 %r9, " + from + ";\n  mov.b32 " + r + ", %r9;\n";
    case Cls::F64: return "  mov.b64 " + r + ", " + from + ";\n";
    default: return "";
  }
}

// A destination's starting value (what a lane that does not execute the form leaves behind).
std::string preset_result(Cls k, unsigned s) {
  const std::string r = reg_of(k, s);
  switch (k) {
    case Cls::P: return "  setp.ne.u32 " + r + ", 0, 0;\n";
    case Cls::B16: return "  mov.u16 " + r + ", 0xBEEF;\n";
    case Cls::B32: return "  mov.u32 " + r + ", 0xDEADBEEF;\n";
    case Cls::B64: return "  mov.u64 " + r + ", 0xDEADBEEFDEADBEEF;\n";
    case Cls::F32: return "  mov.b32 " + r + ", 0xDEADBEEF;\n";
    case Cls::F64: return "  mov.b64 " + r + ", 0xDEADBEEFDEADBEEF;\n";
    default: return "";
  }
}
uint64_t preset_value(Cls k) {
  switch (k) {
    case Cls::P: return 0;
    case Cls::B16: return 0xBEEF;
    case Cls::B32: case Cls::F32: return 0xDEADBEEF;
    default: return 0xDEADBEEFDEADBEEFull;
  }
}

// Stores the result register into the 64-bit word at [%rd6 + off].
std::string store_result(Cls k, unsigned s, unsigned off) {
  const std::string r = reg_of(k, s);
  std::string mv;
  switch (k) {
    case Cls::P: mv = "  selp.u64 %rd8, 1, 0, " + r + ";\n"; break;
    case Cls::B16: mv = "  cvt.u64.u16 %rd8, " + r + ";\n"; break;
    case Cls::B32: mv = "  cvt.u64.u32 %rd8, " + r + ";\n"; break;
    case Cls::B64: mv = "  mov.b64 %rd8, " + r + ";\n"; break;
    case Cls::F32: mv = "  mov.b32 %r9, " + r + ";\n  cvt.u64.u32 %rd8, %r9;\n"; break;
    case Cls::F64: mv = "  mov.b64 %rd8, " + r + ";\n"; break;
    default: return "";
  }
  return mv + "  st.global.u64 [%rd6+" + std::to_string(off) + "], %rd8;\n";
}

std::string fill(std::string text, const Form& f) {
  const std::pair<const char*, std::string> subst[] = {{"{d}", reg_of(f.d, 0)}, {"{a}", reg_of(f.a, 1)},
                                                       {"{b}", reg_of(f.b, 2)}, {"{c}", reg_of(f.c, 3)},
                                                       {"{e}", reg_of(f.e, 4)}};
  for (const auto& [key, reg] : subst)
    for (size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + reg.size()))
      text.replace(at, std::strlen(key), reg);
  return text;
}

const std::vector<uint64_t>& edges(Cls k) {
  static const std::vector<uint64_t> p = {0, 1};
  static const std::vector<uint64_t> b16 = {0, 1, 2, 15, 16, 17, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0x8001, 0xFFFE, 0xFFFF};
  static const std::vector<uint64_t> b32 = {0, 1, 2, 3, 31, 32, 33, 63, 64, 0xFF, 0x80, 0x7FFF, 0x8000, 0xFFFF,
                                            0x10000, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFE, 0xFFFFFFFF};
  static const std::vector<uint64_t> b64 = {0, 1, 2, 63, 64, 65, 0xFFFFFFFF, 0x100000000ull, 0x7FFFFFFF, 0x80000000,
                                            0x7FFFFFFFFFFFFFFFull, 0x8000000000000000ull, 0x8000000000000001ull,
                                            0xFFFFFFFFFFFFFFFEull, 0xFFFFFFFFFFFFFFFFull};
  static const std::vector<uint64_t> f32 = {
      f2u(0.0f), f2u(-0.0f), f2u(1.0f), f2u(-1.0f), f2u(0.5f), f2u(1.5f), f2u(2.5f), f2u(-2.5f), f2u(3.0f),
      f2u(INFINITY), f2u(-INFINITY), 0x7FC00000u, 0xFFC00001u, 0x00000001u, 0x807FFFFFu, 0x00800000u, 0x7F7FFFFFu,
      f2u(2147483648.0f), f2u(-2147483904.0f), f2u(4294967296.0f), f2u(1e20f), f2u(-1e-20f), f2u(65504.0f),
      f2u(65520.0f), f2u(3.14159265f), f2u(0.1f), f2u(-7.75f), f2u(1.0e-39f)};
  static const std::vector<uint64_t> f64 = {
      d2u(0.0), d2u(-0.0), d2u(1.0), d2u(-1.0), d2u(0.5), d2u(2.5), d2u(-2.5), d2u(INFINITY), d2u(-INFINITY),
      0x7FF8000000000000ull, 0xFFF8000000000001ull, 0x0000000000000001ull, 0x800FFFFFFFFFFFFFull,
      0x0010000000000000ull, 0x7FEFFFFFFFFFFFFFull, d2u(9223372036854775808.0), d2u(-9223372036854777856.0),
      d2u(18446744073709551616.0), d2u(4294967296.5), d2u(1e300), d2u(-1e-300), d2u(3.4028235677973366e38),
      d2u(1e-45), d2u(3.141592653589793), d2u(0.1)};
  switch (k) {
    case Cls::P: return p;
    case Cls::B16: return b16;
    case Cls::B32: return b32;
    case Cls::B64: return b64;
    case Cls::F32: return f32;
    default: return f64;
  }
}

bool is_float(Cls k) { return k == Cls::F32 || k == Cls::F64; }

uint64_t draw(Cls k, Draw how, std::mt19937_64& g) {
  auto pick = [&](const std::vector<uint64_t>& v) { return v[g() % v.size()]; };
  const unsigned r = unsigned(g() % 10);
  auto finite = [&](uint64_t v) {
    return k == Cls::F32 ? std::isfinite(u2f(uint32_t(v))) : std::isfinite(u2d(v));
  };
  auto in_range = [&](double lo, double hi) -> uint64_t {
    std::uniform_real_distribution<double> u(lo, hi);
    return k == Cls::F32 ? f2u(float(u(g))) : d2u(u(g));
  };
  switch (how) {
    case Draw::Small: return g() % 71;
    case Draw::Few: return g() % 4;
    case Draw::Unit:
      if (r < 2) return k == Cls::F32 ? pick({f2u(0.0f), f2u(-0.0f), f2u(1.0f), f2u(-1.0f), f2u(0.5f), f2u(3.0f)})
                                      : pick({d2u(0.0), d2u(-0.0), d2u(1.0), d2u(-1.0), d2u(0.5), d2u(3.0)});
      return in_range(-4, 4);
    case Draw::Positive:
      if (r < 3) return in_range(1e-3, 1e3);
      if (r < 6) return in_range(0.25, 4);
      for (;;) {
        const uint64_t v = k == Cls::F32 ? (g() & 0x7FFFFFFFu) : (g() & 0x7FFFFFFFFFFFFFFFull);
        if (finite(v) && v != 0) return v;
      }
    default: break;
  }
  for (;;) {
    uint64_t v;
    if (k == Cls::P) return g() & 1;
    if (r < 4) v = pick(edges(k));
    else if (r < 6 && is_float(k)) v = in_range(-1000, 1000);
    else if (r < 7 && is_float(k)) v = k == Cls::F32 ? f2u(float(int32_t(g() % 2001) - 1000))
                                                     : d2u(double(int64_t(g() % 20001) - 10000) / 4);
    else if (r < 6) v = g() % 100;
    else v = g();
    if (k == Cls::B16 || k == Cls::B32 || k == Cls::F32) v &= k == Cls::B16 ? 0xFFFF : 0xFFFFFFFFu;
    if (how == Draw::Finite && !finite(v)) continue;
    return v;
  }
}

uint64_t class_mask(Cls k) {
  switch (k) {
    case Cls::P: return 1;
    case Cls::B16: return 0xFFFF;
    case Cls::B32: case Cls::F32: return 0xFFFFFFFFu;
    default: return ~0ull;
  }
}

// ULP distance between two floats of class k (NaN against NaN is 0; NaN against a number is huge).
uint64_t ulp_distance(Cls k, uint64_t x, uint64_t y) {
  if (k == Cls::F32) {
    const float a = u2f(uint32_t(x)), b = u2f(uint32_t(y));
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : ~0ull;
    auto key = [](uint32_t u) { return (u & 0x80000000u) ? int64_t(0x80000000u) - int64_t(u) : int64_t(u); };
    const int64_t d = key(uint32_t(x)) - key(uint32_t(y));
    return uint64_t(d < 0 ? -d : d);
  }
  const double a = u2d(x), b = u2d(y);
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : ~0ull;
  auto key = [](uint64_t u) {
    return (u >> 63) ? -(__int128(u & 0x7FFFFFFFFFFFFFFFull)) : __int128(u);
  };
  const __int128 d = key(x) - key(y);
  const __int128 m = d < 0 ? -d : d;
  return m > __int128(~0ull) ? ~0ull : uint64_t(m);
}

bool matches(const Form& f, Cls k, uint64_t got, uint64_t want) {
  got &= class_mask(k);
  want &= class_mask(k);
  if (!is_float(k)) return got == want;
  const double g = k == Cls::F32 ? double(u2f(uint32_t(got))) : u2d(got);
  const double w = k == Cls::F32 ? double(u2f(uint32_t(want))) : u2d(want);
  if (std::isnan(g) || std::isnan(w)) return std::isnan(g) && std::isnan(w);
  if (f.rel > 0 || f.abs > 0) {
    if (std::isinf(w) || std::isinf(g)) return g == w;
    return std::fabs(g - w) <= f.abs || std::fabs(g - w) <= f.rel * std::fabs(w);
  }
  return ulp_distance(k, got, want) <= f.ulps;
}

std::string hex(uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

}  // namespace

uint32_t f2u(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
float u2f(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
uint64_t d2u(double d) { uint64_t u; std::memcpy(&u, &d, 8); return u; }
double u2d(uint64_t u) { double d; std::memcpy(&d, &u, 8); return d; }
int host_round_mode(const char* rnd) {
  const std::string r = rnd;
  if (r == "rz") return FE_TOWARDZERO;
  if (r == "rm") return FE_DOWNWARD;
  if (r == "rp") return FE_UPWARD;
  return FE_TONEAREST;
}
void set_host_round(int mode) { std::fesetround(mode); }
int get_host_round() { return std::fegetround(); }
float ftz(float f) { return std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0f, f) : f; }

std::string sweep_module(const std::vector<Form>& forms) {
  // sweep_smem: 8 bytes of shared memory per thread for the forms that work in shared memory
  std::string m = ".version 8.0\n.target sm_80\n.address_size 64\n.shared .align 8 .b8 sweep_smem[2048];\n";
  for (size_t i = 0; i < forms.size(); ++i) {
    const Form& f = forms[i];
    m += "\n.visible .entry form" + std::to_string(i) + "(.param .u64 out, .param .u64 in)\n{\n";
    m += "  .reg .pred %q<5>;\n  .reg .b16 %h<5>;\n  .reg .b32 %x<5>;\n  .reg .b64 %y<5>;\n"
         "  .reg .f32 %f<5>;\n  .reg .f64 %g<5>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<10>;\n"
         "  .reg .b64 %z<4>;\n  .reg .b32 %w<4>;\n  .reg .pred %o<4>;\n";
    m += "  ld.param.u64 %rd1, [out];\n  ld.param.u64 %rd2, [in];\n  mov.u32 %r1, %tid.x;\n"
         "  mul.wide.u32 %rd3, %r1, " + std::to_string(kInWords * 8) + ";\n  add.s64 %rd4, %rd2, %rd3;\n"
         "  mul.wide.u32 %rd5, %r1, " + std::to_string(kOutWords * 8) + ";\n  add.s64 %rd6, %rd1, %rd5;\n";
    const Cls src[3] = {f.a, f.b, f.c};
    for (unsigned s = 0; s < 3; ++s) {
      if (src[s] == Cls::None) continue;
      m += "  ld.global.u64 %rd7, [%rd4+" + std::to_string(8 * s) + "];\n";
      m += load_operand(src[s], s + 1, "%rd7");
    }
    m += preset_result(f.d, 0) + preset_result(f.e, 4);
    m += "  " + fill(f.text, f) + "\n";
    m += store_result(f.d, 0, 0) + store_result(f.e, 4, 8);
    m += "  ret;\n}\n";
  }
  return m;
}

SweepCount run_sweep(const std::vector<Form>& forms, const std::string& origin, const std::string& mode) {
  SweepCount count;
  IsaFixture fx({{"sim.mode", mode}});
  Device& dev = *fx.dev;
  // a timing launch runs in a testbench thread of the simulation (runtime/testbench.hpp)
  auto launch = [&](const std::string& kernel, Dim3 block, const std::vector<KernelArg>& args) {
    if (mode == "timing") run_host_program([&] { dev.launch(kernel, Dim3(1), block, args); });
    else dev.launch(kernel, Dim3(1), block, args);
  };
  const std::string module = sweep_module(forms);
  dev.load_ptx(module, origin);
  for (size_t i = 0; i < forms.size(); ++i) {
    const Form& f = forms[i];
    const std::string kernel = "form" + std::to_string(i);
    const std::string name = "form " + std::to_string(i) + " `" + f.text + "` (" + mode + ")";
    if (f.refused) {
      // the launch fails naming the file, the form's line and its instruction; the module stays loaded
      const int line = line_of(module, fill(f.text, f));
      std::string msg = "(the launch ran)";
      try {
        launch(kernel, Dim3(32), {arg(DevPtr(0)), arg(DevPtr(0))});
      } catch (const InputError& e) {
        msg = e.what();
      } catch (const RunError& e) {
        msg = std::string("(a run error) ") + e.what();
      }
      const std::string op = f.text.substr(0, f.text.find(' '));
      if (!names_file_line(msg, origin, line) || msg.find(op) == std::string::npos)
        count.wrong.push_back(name + ": expected a refusal naming " + origin + ":" + std::to_string(line) + " and `" +
                              op + "`, got: " + msg);
      ++count.refused;
      continue;
    }
    std::mt19937_64 g(0x5EEDull * (i + 1) + std::hash<std::string>{}(f.text));
    std::vector<uint64_t> in(kThreads * kInWords, 0);
    std::vector<LaneIn> lanes(kThreads);
    for (unsigned t = 0; t < kThreads; ++t) {
      LaneIn& l = lanes[t];
      for (int tries = 0;; ++tries) {
        if (f.a != Cls::None) l.a = draw(f.a, f.da, g);
        if (f.b != Cls::None) l.b = draw(f.b, f.db, g);
        if (f.c != Cls::None) l.c = draw(f.c, f.dc, g);
        if (!f.defined || f.defined(l)) break;
        REQUIRE(tries < 1000);
      }
      in[t * kInWords + 0] = l.a;
      in[t * kInWords + 1] = l.b;
      in[t * kInWords + 2] = l.c;
    }
    const DevPtr out = dev.upload(std::vector<uint64_t>(kThreads * kOutWords, 0x5A5A5A5A5A5A5A5Aull));
    try {
      launch(kernel, Dim3(kThreads), {arg(out), arg(dev.upload(in))});
    } catch (const std::exception& e) {
      count.wrong.push_back(name + ": the launch failed: " + e.what());
      continue;
    }
    const auto got = dev.download<uint64_t>(out, kThreads * kOutWords);
    std::vector<LaneOut> want(kThreads);
    for (unsigned w = 0; w < kThreads / 32; ++w) {
      if (f.warp) {
        for (unsigned l = 0; l < 32; ++l) want[w * 32 + l] = {preset_value(f.d), preset_value(f.e)};
        f.warp(&lanes[w * 32], &want[w * 32]);
      } else {
        for (unsigned l = 0; l < 32; ++l) want[w * 32 + l] = f.lane(lanes[w * 32 + l]);
      }
    }
    unsigned bad = 0;
    std::string first;
    for (unsigned t = 0; t < kThreads; ++t) {
      const bool ok_d = matches(f, f.d, got[t * kOutWords], want[t].d);
      const bool ok_e = f.e == Cls::None || matches(f, f.e, got[t * kOutWords + 1], want[t].e);
      if (ok_d && ok_e) continue;
      if (++bad <= 4)
        first += "\n  thread " + std::to_string(t) + " a=" + hex(lanes[t].a) + " b=" + hex(lanes[t].b) +
                 " c=" + hex(lanes[t].c) + ": got d=" + hex(got[t * kOutWords] & class_mask(f.d)) +
                 (f.e != Cls::None ? " e=" + hex(got[t * kOutWords + 1] & class_mask(f.e)) : "") +
                 ", want d=" + hex(want[t].d & class_mask(f.d)) +
                 (f.e != Cls::None ? " e=" + hex(want[t].e & class_mask(f.e)) : "");
    }
    if (bad) count.wrong.push_back(name + ": " + std::to_string(bad) + " of " + std::to_string(kThreads) + " lanes wrong" + first);
    ++count.executed;
  }
  return count;
}

SweepCount check_sweep(const std::vector<Form>& forms, const std::string& origin) {
  SweepCount n;
  for (const char* mode : {"functional", "timing"}) {
    const SweepCount m = run_sweep(forms, origin, mode);
    for (const std::string& w : m.wrong) {
      INFO(w);
      CHECK(false);
    }
    CHECK(m.wrong.empty());
    if (n.executed + n.refused) CHECK((m.executed == n.executed && m.refused == n.refused));
    n = m;
  }
  return n;
}

void check_refusals(const std::vector<Form>& refused, const std::vector<Form>& executable, const std::string& origin) {
  std::vector<Form> forms = refused;
  forms.insert(forms.end(), executable.begin(), executable.end());
  const SweepCount n = check_sweep(forms, origin);
  CHECK(n.refused == refused.size());
  CHECK(n.executed == executable.size());
}

}  // namespace warptlm_test
