// The PTX coverage sweep (issue: "a sweep of the PTX ISA's integer, floating-point, conversion,
// bit-manipulation, warp-level and atomic instructions for the types nvcc emits for compute_75 and up").
//
// A family file (test_ptx_sweep_<family>.cpp) lists instruction forms. Each form is one PTX instruction
// (or a few) written with placeholders for its operands; the sweep wraps every form in its own kernel of
// one module, loads the module once, and then, per form, either
//   - launches it (in functional and in timing mode) on 256 threads (8 warps) whose operands are drawn from the edge values of their type and
//     from random bits, and compares every lane's result bits with a reference computed here from the PTX
//     ISA's definition of the instruction, or
//   - for a form the front end refuses, checks that its launch fails naming the file, the line and the
//     instruction, while the module's other kernels still run.
//
// Placeholders: {d} the destination, {e} a second destination (setp p|q, match.all d|p, shfl d|p),
// {a} {b} {c} the sources. Each has a register class; a form's text may hold several instructions and
// immediates of its own, and may use: %r1 (the thread's index in its block), %rd2 (the input words'
// base), %rd4 (the address of the thread's input words, the fourth of which is scratch), sweep_smem (8 bytes of shared memory per thread),
// and the scratch registers %z0..3 (.b64), %w0..3 (.b32) and %o0..3 (.pred).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace warptlm_test {

enum class Cls : uint8_t { None, P, B16, B32, B64, F32, F64 };

// One lane's operand bits, low bits first (a P operand is 0 or 1, an F32 one its float's bits).
struct LaneIn {
  uint64_t a = 0, b = 0, c = 0;
};
struct LaneOut {
  uint64_t d = 0, e = 0;
};

// Draws for an operand position: the class's edge values and random bits (Any), or a narrower domain.
enum class Draw : uint8_t {
  Any,       // edge values and random bits of the class
  Small,     // 0 .. 70 (shift amounts, bit positions, field lengths)
  Few,       // 0 .. 3 (values that repeat across a warp)
  Finite,    // a float class's finite values only
  Unit,      // floats in [-4, 4] and edge values inside it (approximate functions)
  Positive,  // floats > 0 and finite (lg2, rsqrt, sqrt.approx)
};

struct Form {
  std::string text;  // e.g. "add.sat.s32 {d}, {a}, {b};"
  Cls d = Cls::None, a = Cls::None, b = Cls::None, c = Cls::None, e = Cls::None;
  // Per-lane reference (lane-wise instructions) ...
  std::function<LaneOut(const LaneIn&)> lane;
  // ... or per-warp reference for warp-level instructions: 32 lanes in, 32 lanes out.
  std::function<void(const LaneIn* in, LaneOut* out)> warp;
  Draw da = Draw::Any, db = Draw::Any, dc = Draw::Any;
  // Results within this many units in the last place of the reference (0: bit exact; approximate
  // instructions state their PTX ISA bound here), or, when rel > 0, within rel relative or abs absolute.
  uint32_t ulps = 0;
  double rel = 0, abs = 0;
  // Operands the PTX ISA leaves undefined (a division by zero) are redrawn.
  std::function<bool(const LaneIn&)> defined;
  bool refused = false;  // the front end refuses it: the sweep checks the refusal instead
};

// The module the sweep builds for `forms`, one kernel "form<i>" per form (exposed for the refusal checks).
std::string sweep_module(const std::vector<Form>& forms);

// Runs every form of one family (file name `origin` for messages): how many executed, how many were
// checked as refusals, and one line per form that disagreed with its reference or was not refused as
// expected (its lanes, operands, results and the reference's).
struct SweepCount {
  unsigned executed = 0, refused = 0;
  std::vector<std::string> wrong;
};
SweepCount run_sweep(const std::vector<Form>& forms, const std::string& origin, const std::string& mode = "functional");
// run_sweep in functional and in timing mode, with one failed CHECK per wrong form.
SweepCount check_sweep(const std::vector<Form>& forms, const std::string& origin);
// The refused forms of a family in one module with `executable` forms beside them: each refused one names
// file, line and instruction, and the others still run.
void check_refusals(const std::vector<Form>& refused, const std::vector<Form>& executable, const std::string& origin);

// Helpers for references.
uint32_t f2u(float f);
float u2f(uint32_t u);
uint64_t d2u(double d);
double u2d(uint64_t u);
// Runs f with the host's rounding mode set to PTX rounding rnd ("rn", "rz", "rm", "rp").
template <class F>
auto in_rounding(const char* rnd, F&& f) -> decltype(f());
int host_round_mode(const char* rnd);
void set_host_round(int mode);
int get_host_round();

template <class F>
auto in_rounding(const char* rnd, F&& f) -> decltype(f()) {
  const int old = get_host_round();
  set_host_round(host_round_mode(rnd));
  volatile auto r = f();  // stored before the mode is restored
  set_host_round(old);
  return r;
}

// Flush a subnormal to a zero of its sign (.ftz inputs and results).
float ftz(float f);

}  // namespace warptlm_test
