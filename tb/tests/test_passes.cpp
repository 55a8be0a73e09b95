// Scratchpad-sharing compiler passes (models/isa/passes): scratchpad
// allocation (spec 5.2) and relssp placement (spec 5.3) on hand-written PTX
// that encodes the paper's examples, with every expectation derived by hand
// from the paper's equations; exactly-once placement checked by enumerating
// the paths of the rewritten kernel; rewritten kernels run on the functional
// executor against the originals.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "common/params.hpp"
#include "isa/cfg.hpp"
#include "isa/memory.hpp"
#include "isa/module.hpp"
#include "isa/passes/passes.hpp"
#include "isa/ptx_parser.hpp"
#include "isa/simt.hpp"

using namespace warptlm;
using namespace warptlm::passes;

namespace {

const char* kHeader = ".version 7.5\n.target sm_75\n.address_size 64\n\n";

std::string read_kernel_file(const char* name) {
  std::ifstream f(std::string(WARPTLM_SOURCE_DIR) + "/tb/tests/kernels/" + name + ".ptx");
  REQUIRE(f.good());
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// Only the named kernel of a module file (its other kernels removed), so
// reports and paths concern just that one.
std::string only_kernel(const std::string& ptx, const std::string& kernel) {
  std::string out;
  size_t pos = 0;
  for (;;) {
    size_t e = ptx.find(".visible .entry ", pos);
    if (e == std::string::npos) { out += ptx.substr(pos); break; }
    out += ptx.substr(pos, e - pos);
    size_t close = ptx.find("\n}", e);
    REQUIRE(close != std::string::npos);
    close += 2;
    std::string name = ptx.substr(e + 16, ptx.find('(', e) - e - 16);
    if (name == kernel) out += ptx.substr(e, close - e);
    pos = close;
  }
  return out;
}

// 1-based line of the first line containing `needle` (0 if none) and that line's text.
int line_no(const std::string& text, const std::string& needle) {
  std::istringstream in(text);
  std::string l;
  for (int n = 1; std::getline(in, l); ++n)
    if (l.find(needle) != std::string::npos) return n;
  return 0;
}
std::string line_text(const std::string& text, int n) {
  std::istringstream in(text);
  std::string l;
  for (int i = 1; std::getline(in, l); ++i)
    if (i == n) return l;
  return "";
}
std::vector<int> relssp_lines(const std::string& text) {
  std::vector<int> v;
  std::istringstream in(text);
  std::string l;
  for (int n = 1; std::getline(in, l); ++n) {
    for (size_t p = l.find("relssp;"); p != std::string::npos; p = l.find("relssp;", p + 1)) v.push_back(n);
  }
  return v;
}
size_t count_lines(const std::string& s) { return size_t(std::count(s.begin(), s.end(), '\n')); }

struct PathStats {
  size_t paths = 0;
  size_t wrong_count = 0;     // paths that execute relssp other than exactly once (or at all, without accesses)
  size_t access_after = 0;    // paths with a shared-region access after their relssp
  size_t relssp_in_loop_paths = 0;
  std::string first_bad;
};

// Enumerates the paths of every kernel of `ptx` (each block at most `visits`
// times per path) and checks the relssp conditions of spec 5.3: a path with a
// shared-region access runs relssp exactly once, after its last such access;
// with `t` the shared region is computed the way the pass does.
PathStats check_paths(const std::string& ptx, double t, unsigned visits = 3, size_t max_paths = 200000) {
  PathStats st;
  ParsedModule pm = parse_ptx(ptx, "check.ptx");
  bool any_access_kernel = false;
  for (auto& f : pm.funcs) {
    if (!f.is_entry || !f.has_body) continue;
    KernelLayout l = kernel_layout(pm, f, "check.ptx");
    VarMask region = shared_region_vars(l, t);
    Cfg cfg = build_cfg(f.body);
    std::vector<VarMask> acc = shared_accesses(pm, f, l, cfg);
    bool kernel_has_access = false;
    for (auto a : acc) kernel_has_access = kernel_has_access || (a & region);
    any_access_kernel = any_access_kernel || kernel_has_access;
    std::vector<unsigned> seen(cfg.blocks.size(), 0);
    const size_t first_path = st.paths;
    std::vector<uint32_t> trail;
    std::function<void(uint32_t, unsigned, bool, bool)> walk = [&](uint32_t b, unsigned rel, bool accessed,
                                                                  bool after) {
      if (st.paths - first_path > max_paths) return;
      if (b >= cfg.blocks.size()) {  // exit
        ++st.paths;
        // Every path of a kernel that has a shared-region access crosses from
        // unsafe to safe exactly once, so it runs relssp exactly once (also a
        // path without accesses of its own, like Figure 12's BB4).
        bool ok = kernel_has_access ? rel == 1 : rel == 0;
        (void)accessed;
        if (!ok) {
          ++st.wrong_count;
          if (st.first_bad.empty()) {
            std::ostringstream os;
            os << f.name << ": relssp x" << rel << " on path";
            for (uint32_t x : trail) os << " " << x;
            st.first_bad = os.str();
          }
        }
        if (after) ++st.access_after;
        return;
      }
      if (seen[b] >= visits) return;
      ++seen[b];
      trail.push_back(b);
      for (uint32_t pc = cfg.blocks[b].first; pc <= cfg.blocks[b].last; ++pc) {
        if (f.body[pc].op == Op::Relssp) ++rel;
        if (acc[pc] & region) {
          accessed = true;
          if (rel) after = true;
        }
      }
      for (uint32_t s : cfg.blocks[b].succ) walk(s, rel, accessed, after);
      trail.pop_back();
      --seen[b];
    };
    walk(0, 0, false, false);
  }
  (void)any_access_kernel;
  return st;
}

// ---------------------------------------------------------------- functional runs

struct Arg {
  bool buffer = false;
  uint32_t index = 0;  // buffer index
  uint64_t value = 0;  // scalar value
};
Arg buf(uint32_t i) { return Arg{true, i, 0}; }
Arg val(uint64_t v) { return Arg{false, 0, v}; }

std::vector<std::vector<uint32_t>> run_functional(const std::string& ptx, const std::string& kernel, uint32_t grid,
                                                  uint32_t block, uint32_t dyn_smem,
                                                  std::vector<std::vector<uint32_t>> buffers,
                                                  const std::vector<Arg>& args) {
  GlobalMemory mem;
  Module mod(ptx, "run.ptx", mem);
  const KernelInfo* k = mod.find_kernel(kernel);
  REQUIRE(k != nullptr);
  std::vector<uint64_t> addr;
  for (auto& b : buffers) {
    uint64_t a = mem.allocate(b.size() * 4);
    mem.write(a, b.data(), b.size() * 4);
    addr.push_back(a);
  }
  LaunchState L;
  L.kernel = k;
  L.mem = &mem;
  L.grid[0] = grid;
  L.block[0] = block;
  L.dynamic_smem = dyn_smem;
  L.threads_per_block = block;
  L.warps_per_block = (block + 31) / 32;
  L.params.assign(k->param_bytes, 0);
  REQUIRE(args.size() == k->params.size());
  for (size_t i = 0; i < args.size(); ++i) {
    uint64_t v = args[i].buffer ? addr[args[i].index] : args[i].value;
    std::memcpy(&L.params[k->params[i].offset], &v, k->params[i].size);
  }
  for (uint32_t id = 0; id < grid; ++id) {
    Block b(*k, L, id, 0);
    run_block_functional(b, L);
  }
  for (size_t i = 0; i < buffers.size(); ++i) mem.read(addr[i], buffers[i].data(), buffers[i].size() * 4);
  return buffers;
}

// ---------------------------------------------------------------- PTX fixtures

// Figure 9 / Example 6.5 (spec 5.2): Entry->BB1->BB2->BB3, BB3->BB2 back edge,
// BB3->BB4->BB5->BB6->Exit; A accessed in BB1 and BB4, B in BB2 and BB3, C in
// BB5 (def) and BB6 (use). Equal sizes (256 B), five instructions per block.
const char* kFig9 = R"(
.visible .entry fig9(
	.param .u64 fig9_param_0
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<24>;
	.reg .b64 	%rd<2>;
	.shared .align 4 .b8 A[256];
	.shared .align 4 .b8 B[256];
	.shared .align 4 .b8 C[256];

$BB1:
	mov.u32 	%r1, %tid.x;
	shl.b32 	%r2, %r1, 2;
	mov.u32 	%r3, A;
	add.s32 	%r4, %r3, %r2;
	st.shared.u32 	[%r4], %r1;
$BB2:
	mov.u32 	%r5, B;
	add.s32 	%r6, %r5, %r2;
	st.shared.u32 	[%r6], %r1;
	add.s32 	%r1, %r1, 1;
	bra.uni 	$BB3;
$BB3:
	ld.shared.u32 	%r8, [%r6];
	add.s32 	%r9, %r8, 1;
	st.shared.u32 	[%r6], %r9;
	setp.lt.u32 	%p1, %r1, 4;
	@%p1 bra 	$BB2;
$BB4:
	ld.shared.u32 	%r11, [%r4];
	mov.u32 	%r13, C;
	add.s32 	%r14, %r13, %r2;
	add.s32 	%r12, %r11, %r9;
	bra.uni 	$BB5;
$BB5:
	st.shared.u32 	[%r14], %r12;
	add.s32 	%r15, %r12, 1;
	add.s32 	%r16, %r15, 1;
	add.s32 	%r17, %r16, 1;
	bra.uni 	$BB6;
$BB6:
	ld.shared.u32 	%r18, [%r14];
	add.s32 	%r19, %r18, %r17;
	ld.param.u64 	%rd1, [fig9_param_0];
	st.global.u32 	[%rd1], %r19;
	ret;
}
)";

// Figure 7 / Example 5.2: four equal-sized variables in one straight-line
// kernel; V1 is accessed at P1..P2, V2 at P3 and P5, V3 at P4 and P6, V4 at
// P7..P8. Each thread works on its own word; out[tid] = final value.
const char* kFig7 = R"(
.visible .entry fig7(
	.param .u64 fig7_param_0
)
{
	.reg .b32 	%r<40>;
	.reg .b64 	%rd<6>;
	.shared .align 4 .b8 V1[256];
	.shared .align 4 .b8 V2[256];
	.shared .align 4 .b8 V3[256];
	.shared .align 4 .b8 V4[256];

	mov.u32 	%r1, %tid.x;
	shl.b32 	%r2, %r1, 2;
	mov.u32 	%r3, V1;
	add.s32 	%r4, %r3, %r2;
	mov.u32 	%r5, V2;
	add.s32 	%r6, %r5, %r2;
	mov.u32 	%r7, V3;
	add.s32 	%r8, %r7, %r2;
	mov.u32 	%r9, V4;
	add.s32 	%r10, %r9, %r2;
	st.shared.u32 	[%r4], %r1;            // P1
	add.s32 	%r11, %r1, 3;
	ld.shared.u32 	%r12, [%r4];           // P2
	add.s32 	%r13, %r12, 5;
	st.shared.u32 	[%r6], %r13;           // P3
	add.s32 	%r14, %r12, 7;
	st.shared.u32 	[%r8], %r14;           // P4
	mul.lo.s32 	%r15, %r14, 3;
	ld.shared.u32 	%r16, [%r6];           // P5
	add.s32 	%r17, %r16, %r15;
	ld.shared.u32 	%r18, [%r8];           // P6
	add.s32 	%r19, %r18, %r17;
	st.shared.u32 	[%r10], %r19;          // P7
	xor.b32 	%r20, %r19, %r11;
	ld.shared.u32 	%r21, [%r10];          // P8
	add.s32 	%r22, %r21, %r20;
	ld.param.u64 	%rd1, [fig7_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.u32 	[%rd4], %r22;
	ret;
}
)";

// Figures 12/13, Example 6.6: a CFG consistent with the text (our copy of the
// paper has no figure): BB1 branches to BB2 and BB7; BB2 to BB3 (last access
// L1) and BB4 (no access on its path); BB3 and BB4 join at BB5 -> BB6 -> BB12;
// BB7 starts the other path's accesses, BB8 is a self-loop with accesses, BB9
// holds the last access L2 and branches to BB10/BB11, which join at BB12, the
// post-dominator (the PostDom baseline's point pi). Optimal points: OPT1 after
// L1 in BB3, OPT2 at the start of BB4, OPT3 after L2 in BB9.
const char* kFig12 = R"(
.visible .entry fig12(
	.param .u64 fig12_param_0
)
{
	.reg .pred 	%p<8>;
	.reg .b32 	%r<40>;
	.reg .b64 	%rd<6>;
	.shared .align 4 .b8 S[1024];

$BB1:
	mov.u32 	%r1, %tid.x;
	shl.b32 	%r2, %r1, 2;
	mov.u32 	%r3, S;
	add.s32 	%r4, %r3, %r2;
	setp.lt.u32 	%p1, %r1, 64;
	@%p1 bra 	$BB7;
$BB2:
	setp.lt.u32 	%p2, %r1, 96;
	@%p2 bra 	$BB4;
$BB3:
	add.s32 	%r5, %r1, 11;
	st.shared.u32 	[%r4], %r5;            // L1
	add.s32 	%r6, %r5, 1;
	bra.uni 	$BB5;
$BB4:
	add.s32 	%r6, %r1, 22;                  // BB4 first
$BB5:
	mul.lo.s32 	%r7, %r6, 3;
	bra.uni 	$BB6;
$BB6:
	add.s32 	%r8, %r7, 1;
	bra.uni 	$BB12;
$BB7:
	st.shared.u32 	[%r4], %r1;
	mov.u32 	%r9, 0;
$BB8:
	ld.shared.u32 	%r10, [%r4];
	add.s32 	%r10, %r10, %r9;
	st.shared.u32 	[%r4], %r10;
	add.s32 	%r9, %r9, 1;
	setp.lt.u32 	%p3, %r9, 3;
	@%p3 bra 	$BB8;
$BB9:
	ld.shared.u32 	%r11, [%r4];           // L2
	add.s32 	%r12, %r11, 5;
	setp.lt.u32 	%p4, %r1, 32;
	@%p4 bra 	$BB11;
$BB10:
	add.s32 	%r8, %r12, 100;
	bra.uni 	$BB12;
$BB11:
	add.s32 	%r8, %r12, 200;
$BB12:
	ld.param.u64 	%rd1, [fig12_param_0];   // pi
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.u32 	[%rd4], %r8;
	ret;
}
)";

// Figure 13(b): BB1 branches to BB2 (last access L2) and BB3 (no access);
// both reach BB4. relssp goes to pi5 (after L2 in BB2) and pi7 (start of BB3),
// not to pi8 in BB1 (BB2 forbids it) nor into BB4.
const char* kFig13b = R"(
.visible .entry fig13b(
	.param .u64 fig13b_param_0
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<20>;
	.reg .b64 	%rd<6>;
	.shared .align 4 .b8 S[512];

$BB1:
	mov.u32 	%r1, %tid.x;
	setp.lt.u32 	%p1, %r1, 16;                  // pi8
	@%p1 bra 	$BB3;
$BB2:
	shl.b32 	%r2, %r1, 2;
	mov.u32 	%r3, S;
	add.s32 	%r4, %r3, %r2;
	st.shared.u32 	[%r4], %r1;            // L2
	add.s32 	%r5, %r1, 1;                   // pi6 is before L2, pi5 after it
	bra.uni 	$BB4;
$BB3:
	add.s32 	%r5, %r1, 2;                   // pi7
$BB4:
	ld.param.u64 	%rd1, [fig13b_param_0];   // pi4
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.u32 	[%rd4], %r5;
	ret;
}
)";

// A loop whose body accesses the shared region, then work after it.
const char* kLoop = R"(
.visible .entry loopk(
	.param .u64 loopk_param_0,
	.param .u32 loopk_param_1
)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<20>;
	.reg .b64 	%rd<6>;
	.shared .align 4 .b8 S[512];

	mov.u32 	%r1, %tid.x;
	ld.param.u32 	%r9, [loopk_param_1];
	shl.b32 	%r2, %r1, 2;
	mov.u32 	%r3, S;
	add.s32 	%r4, %r3, %r2;
	st.shared.u32 	[%r4], %r1;
	mov.u32 	%r5, 0;
$LOOP:
	ld.shared.u32 	%r6, [%r4];
	add.s32 	%r6, %r6, %r5;
	st.shared.u32 	[%r4], %r6;            // last access, inside the loop
	add.s32 	%r5, %r5, 1;
	setp.lt.u32 	%p1, %r5, %r9;
	@%p1 bra 	$LOOP;                         // back edge
	mul.lo.s32 	%r7, %r6, 3;                   // after the loop
	ld.param.u64 	%rd1, [loopk_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.u32 	[%rd4], %r7;
	ret;
}
)";

// A conditional ret out of a block that accessed the shared region, with a
// later access on the fall-through path: the ret edge is critical.
const char* kCondRet = R"(
.visible .entry condret(
	.param .u64 condret_param_0
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<20>;
	.reg .b64 	%rd<6>;
	.shared .align 4 .b8 S[512];

	mov.u32 	%r1, %tid.x;
	shl.b32 	%r2, %r1, 2;
	mov.u32 	%r3, S;
	add.s32 	%r4, %r3, %r2;
	st.shared.u32 	[%r4], %r1;
	ld.param.u64 	%rd1, [condret_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.u32 	[%rd4], %r1;
	setp.lt.u32 	%p1, %r1, 8;
	@%p1 ret;                                  // early exit
	ld.shared.u32 	%r5, [%r4];
	add.s32 	%r6, %r5, 1000;
	st.global.u32 	[%rd4], %r6;
	ret;
}
)";

// A small used array declared after a large unused one: allocation moves the
// used one into the private part, so nothing touches the shared region.
const char* kPrivateOnly = R"(
.visible .entry privonly(
	.param .u64 privonly_param_0
)
{
	.reg .b32 	%r<20>;
	.reg .b64 	%rd<6>;
	.shared .align 4 .b8 Big[1024];
	.shared .align 4 .b8 Small[64];

	mov.u32 	%r1, %tid.x;
	and.b32 	%r2, %r1, 15;
	shl.b32 	%r3, %r2, 2;
	mov.u32 	%r4, Small;
	add.s32 	%r5, %r4, %r3;
	st.shared.u32 	[%r5], %r1;
	bar.sync 	0;
	ld.shared.u32 	%r6, [%r5];
	ld.param.u64 	%rd1, [privonly_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.u32 	[%rd4], %r6;
	ret;
}
)";

std::string mod(const char* body) { return std::string(kHeader) + body; }

}  // namespace

// ================================================================ allocation

TEST_CASE("passes: Figure 9 access-range table is reproduced and {A B} is chosen", "[passes][alloc]") {
  std::vector<SmemKernelReport> rep;
  SmemAllocOptions opt;
  opt.threshold = 0.34;  // R_tb = 768: private part 261 B holds one 256 B variable, two go to the shared region
  std::string out = smem_alloc_pass(mod(kFig9), "fig9.ptx", opt, &rep);
  REQUIRE(rep.size() == 1);
  const SmemKernelReport& r = rep[0];
  REQUIRE(r.nodes.size() == 8);  // Entry, BB1..BB6, Exit
  const VarMask A = r.mask({"A"}), B = r.mask({"B"}), C = r.mask({"C"});
  const std::vector<std::string> rows = {"Entry", "$BB1", "$BB2", "$BB3", "$BB4", "$BB5", "$BB6", "Exit"};
  // The table of spec 5.2 (Figure 9): IN A B C, OUT A B C, IN AB BC CA, OUT AB BC CA.
  const char* table[8] = {
      "fff fff fff fff",  // Entry
      "fff tff fff tft",  // BB1
      "ttf ttf ttt ttt",  // BB2
      "ttf ttf ttt ttt",  // BB3
      "tff fff ttt ftt",  // BB4
      "fff fft ftt ftt",  // BB5
      "fft fff ftt fff",  // BB6
      "fff fff fff fff",  // Exit
  };
  const VarMask cols[3] = {A, B, C};
  const VarMask sets[3] = {A | B, B | C, C | A};
  for (size_t row = 0; row < rows.size(); ++row) {
    int n = r.node_of_label(rows[row]);
    REQUIRE(n == int(row));
    std::string got;
    for (int k = 0; k < 3; ++k) got += r.acc_in(size_t(n), cols[k]) ? 't' : 'f';
    got += ' ';
    for (int k = 0; k < 3; ++k) got += r.acc_out(size_t(n), cols[k]) ? 't' : 'f';
    got += ' ';
    for (int k = 0; k < 3; ++k) got += r.acc_in(size_t(n), sets[k]) ? 't' : 'f';
    got += ' ';
    for (int k = 0; k < 3; ++k) got += r.acc_out(size_t(n), sets[k]) ? 't' : 'f';
    INFO("row " << rows[row]);
    CHECK(got == table[row]);
  }
  // BB2/BB3 form the loop (weight 10 each instruction, 5 instructions a block).
  CHECK(r.nodes[2].loop_depth == 1);
  CHECK(r.nodes[3].loop_depth == 1);
  CHECK(r.nodes[4].loop_depth == 0);
  // Example 6.5: {A, B} has the smallest range. Counted by hand at instruction
  // level: AB covers BB1's access (1), BB2+BB3 (10 x 10) and BB4 up to its
  // access (1) = 102; BC covers BB2..BB6's access = 100 + 5 + 5 + 1 = 111; CA
  // covers BB1's access through BB6's access = 1 + 100 + 5 + 5 + 1 = 112.
  CHECK(r.range_cost(A | B) == Approx(102));
  CHECK(r.range_cost(B | C) == Approx(111));
  CHECK(r.range_cost(C | A) == Approx(112));
  CHECK(r.shared_after == (A | B));
  CHECK(r.shared_before == (B | C));  // declared order A, B, C: the last two are shared
  CHECK(r.reordered);
  CHECK(r.cost_after == Approx(102));
  // Rewritten declarations: C first (private), then A, B; offsets follow.
  int lc = line_no(out, "b8 C[256]"), la = line_no(out, "b8 A[256]"), lb = line_no(out, "b8 B[256]");
  CHECK(lc > 0);
  CHECK(lc < la);
  CHECK(la < lb);
  CHECK(count_lines(out) == count_lines(mod(kFig9)));  // no line moved
  CHECK(r.vars[2].offset_after == 0);
  CHECK(r.vars[0].offset_after == 256);
  CHECK(r.vars[1].offset_after == 512);
  // The rewritten module still loads, and its layout matches the report.
  ParsedModule pm = parse_ptx(out, "fig9.ptx");
  KernelLayout l = kernel_layout(pm, pm.funcs[0], "fig9.ptx");
  CHECK(l.vars[l.index_of("C")].offset == 0);
  CHECK(l.vars[l.index_of("B")].offset == 512);
  GlobalMemory mem;
  CHECK_NOTHROW(Module(out, "fig9.ptx", mem));
}

TEST_CASE("passes: Figure 7 example chooses V2 V3 for the shared region", "[passes][alloc]") {
  std::vector<SmemKernelReport> rep;
  SmemAllocOptions opt;
  opt.threshold = 0.5;  // R_tb = 1024: two variables private, two shared
  std::string out = smem_alloc_pass(mod(kFig7), "fig7.ptx", opt, &rep);
  REQUIRE(rep.size() == 1);
  const SmemKernelReport& r = rep[0];
  const VarMask V1 = r.mask({"V1"}), V2 = r.mask({"V2"}), V3 = r.mask({"V3"}), V4 = r.mask({"V4"});
  // Straight line: {V1, V4} spans P1..P8, {V2, V3} only P3..P6.
  // Instructions from P1 through P8 are 15, from P3 through P6 7.
  CHECK(r.range_cost(V1 | V4) == Approx(15));
  CHECK(r.range_cost(V2 | V3) == Approx(7));
  CHECK(r.range_cost(V3 | V4) == Approx(9));  // the declared order's shared pair: P4..P8
  CHECK(r.range_cost(V1 | V2) == Approx(9));
  CHECK(r.shared_before == (V3 | V4));
  CHECK(r.shared_after == (V2 | V3));
  CHECK(r.names(r.shared_after) == std::vector<std::string>{"V2", "V3"});
  CHECK(line_no(out, "b8 V1[") < line_no(out, "b8 V4["));
  CHECK(line_no(out, "b8 V4[") < line_no(out, "b8 V2["));
  CHECK(line_no(out, "b8 V2[") < line_no(out, "b8 V3["));
}

TEST_CASE("passes: allocation keeps the order when it is already best and reports the analysis", "[passes][alloc]") {
  // Figure 9 with t = 0.67: two variables private, one shared; C (last) has
  // the smallest range of the singletons, so nothing moves.
  std::vector<SmemKernelReport> rep;
  SmemAllocOptions opt;
  opt.threshold = 0.67;
  std::string out = smem_alloc_pass(mod(kFig9), "fig9.ptx", opt, &rep);
  const SmemKernelReport& r = rep[0];
  CHECK_FALSE(r.reordered);
  CHECK(out == mod(kFig9));
  CHECK(r.shared_after == r.mask({"C"}));
  CHECK(r.range_cost(r.mask({"C"})) < r.range_cost(r.mask({"A"})));
  CHECK(r.range_cost(r.mask({"C"})) < r.range_cost(r.mask({"B"})));
  // Per-instruction access facts: BB1's store touches A only.
  int st = line_no(out, "st.shared.u32 \t[%r4], %r1;");
  bool found = false;
  for (auto& p : r.points)
    if (int(p.line) == st) found = true;
  CHECK(found);
}

// ================================================================ relssp placement

TEST_CASE("passes: relssp lands at OPT1 OPT2 OPT3 of Figures 12 and 13", "[passes][relssp]") {
  std::vector<RelsspKernelReport> rep;
  RelsspOptions opt;
  const std::string in = mod(kFig12);
  std::string out = relssp_pass(in, "fig12.ptx", opt, &rep);
  REQUIRE(rep.size() == 1);
  const RelsspKernelReport& r = rep[0];
  std::vector<int> lines = relssp_lines(out);
  const int L1 = line_no(in, "// L1"), L2 = line_no(in, "// L2"), BB4 = line_no(in, "// BB4 first");
  CHECK(lines == std::vector<int>{L1, BB4, L2});
  CHECK(line_text(out, L1).find("st.shared.u32 \t[%r4], %r5; relssp;") != std::string::npos);  // OPT1: right after L1
  CHECK(line_text(out, BB4).find("relssp; add.s32") != std::string::npos);                     // OPT2: start of BB4
  CHECK(line_text(out, L2).find("[%r4]; relssp;") != std::string::npos);                        // OPT3: right after L2
  CHECK(line_text(out, line_no(in, "// pi")).find("relssp") == std::string::npos);            // not at the post-dominator
  // The facts behind it.
  auto node = [&](const char* l) { return r.nodes[size_t(r.node_of_label(l))]; };
  CHECK(node("$BB3").ins_out);
  CHECK(node("$BB4").ins_in);
  CHECK(node("$BB9").ins_out);
  CHECK_FALSE(node("$BB5").ins_in);
  CHECK_FALSE(node("$BB12").ins_in);
  CHECK_FALSE(node("$BB2").safe_out);
  CHECK(node("$BB4").safe_in);
  CHECK_FALSE(node("$BB8").safe_in);
  CHECK(r.critical_edges == 1);  // the BB8 self-loop
  CHECK(r.materialized_splits == 0);
  CHECK(r.inserted.size() == 3);
  CHECK(count_lines(out) == count_lines(in));
  // Every path: exactly once, never before an access.
  PathStats ps = check_paths(out, opt.threshold);
  INFO(ps.first_bad);
  CHECK(ps.paths > 4);
  CHECK(ps.wrong_count == 0);
  CHECK(ps.access_after == 0);
  // The input itself (no relssp) fails the check: the checker has teeth.
  CHECK(check_paths(in, opt.threshold).wrong_count > 0);

  // Figure 13(b).
  const std::string in_b = mod(kFig13b);
  std::string out_b = relssp_pass(in_b, "fig13b.ptx", opt, nullptr);
  CHECK(relssp_lines(out_b) == std::vector<int>{line_no(in_b, "// L2"), line_no(in_b, "// pi7")});
  CHECK(line_text(out_b, line_no(in_b, "// L2")).find("%r1; relssp;") != std::string::npos);
  CHECK(check_paths(out_b, opt.threshold).wrong_count == 0);
}

TEST_CASE("passes: a kernel without shared-region accesses gets no relssp", "[passes][relssp]") {
  // No shared memory at all.
  const std::string count = only_kernel(read_kernel_file("barriers"), "barrier_count");
  PassReport rep;
  std::string out = optimize_scratchpad_sharing(count, "barriers.ptx", 0.1, &rep);
  CHECK(out == count);
  CHECK(rep.relssp_inserted() == 0);
  // Shared memory only in the private part after allocation.
  PassReport rep2;
  const std::string in = mod(kPrivateOnly);
  std::string out2 = optimize_scratchpad_sharing(in, "priv.ptx", 0.1, &rep2);
  REQUIRE(rep2.alloc.size() == 1);
  CHECK(rep2.alloc[0].reordered);
  CHECK(rep2.alloc[0].names(rep2.alloc[0].shared_after) == std::vector<std::string>{"Big"});
  CHECK(line_no(out2, "Small[64]") < line_no(out2, "Big[1024]"));
  REQUIRE(rep2.relssp.size() == 1);
  CHECK(rep2.relssp[0].accesses == 0);
  CHECK(rep2.relssp_inserted() == 0);
  CHECK(relssp_lines(out2).empty());
  // Without the allocation (Small stays above the boundary) relssp is needed.
  std::vector<RelsspKernelReport> rr;
  std::string out3 = relssp_pass(in, "priv.ptx", RelsspOptions{}, &rr);
  CHECK(rr[0].accesses == 2);
  CHECK(relssp_lines(out3).size() == 1);
}

TEST_CASE("passes: relssp after a loop with shared accesses not inside it", "[passes][relssp]") {
  const std::string in = mod(kLoop);
  std::vector<RelsspKernelReport> rep;
  std::string out = relssp_pass(in, "loop.ptx", RelsspOptions{}, &rep);
  std::vector<int> lines = relssp_lines(out);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0] == line_no(in, "// after the loop"));
  CHECK(line_text(out, lines[0]).find("relssp; mul.lo.s32") != std::string::npos);
  CHECK(lines[0] > line_no(in, "// back edge"));
  PathStats ps = check_paths(out, 0.1);
  CHECK(ps.wrong_count == 0);
  CHECK(ps.access_after == 0);
  // Functionally identical.
  std::vector<std::vector<uint32_t>> bufs = {std::vector<uint32_t>(64, 0)};
  auto a = run_functional(in, "loopk", 1, 64, 0, bufs, {buf(0), val(5)});
  auto b = run_functional(out, "loopk", 1, 64, 0, bufs, {buf(0), val(5)});
  CHECK(a == b);
  CHECK(a[0][3] == (3u + 0 + 1 + 2 + 3 + 4) * 3);
}

TEST_CASE("passes: critical edges are split with a new label and branch", "[passes][relssp]") {
  // barrier_reduce: the reduction loop, then `if (t == 0) out = s[0]`; the
  // branch around that store is a critical edge into the ret block.
  const std::string in = only_kernel(read_kernel_file("barriers"), "barrier_reduce");
  std::vector<RelsspKernelReport> rep;
  std::string out = relssp_pass(in, "barriers.ptx", RelsspOptions{}, &rep);
  REQUIRE(rep.size() == 1);
  const RelsspKernelReport& r = rep[0];
  // BB0->BB1_1, BB0->BB1_4, BB1_1->BB1_3, BB1_3->BB1_1, BB1_3->BB1_4, BB1_4->BB1_6
  CHECK(r.critical_edges == 6);
  CHECK(r.materialized_splits == 1);
  REQUIRE(r.inserted.size() == 2);
  CHECK(out.find("@%p4 bra \t$__ssp_split_0;") != std::string::npos);
  CHECK(out.find("$__ssp_split_0: relssp; bra.uni $L__BB1_6;") != std::string::npos);
  CHECK(out.find("[_ZZ14barrier_reduceE1s]; relssp;") != std::string::npos);
  CHECK(count_lines(out) == count_lines(in));
  PathStats ps = check_paths(out, 0.1);
  INFO(ps.first_bad);
  CHECK(ps.wrong_count == 0);
  CHECK(ps.access_after == 0);

  // A conditional ret: the edge to the exit is split (relssp; ret).
  const std::string in2 = mod(kCondRet);
  std::vector<RelsspKernelReport> rep2;
  std::string out2 = relssp_pass(in2, "condret.ptx", RelsspOptions{}, &rep2);
  CHECK(rep2[0].critical_edges == 1);
  CHECK(out2.find("@%p1 bra $__ssp_split_0;") != std::string::npos);
  CHECK(out2.find("$__ssp_split_0: relssp; ret;") != std::string::npos);
  CHECK(line_text(out2, line_no(in2, "ld.shared.u32 \t%r5")).find("relssp;") != std::string::npos);
  PathStats ps2 = check_paths(out2, 0.1);
  CHECK(ps2.wrong_count == 0);
  CHECK(ps2.access_after == 0);
  std::vector<std::vector<uint32_t>> bufs = {std::vector<uint32_t>(64, 0)};
  CHECK(run_functional(in2, "condret", 1, 64, 0, bufs, {buf(0)}) ==
        run_functional(out2, "condret", 1, 64, 0, bufs, {buf(0)}));

  // materialize_all_splits emits the empty taken-edge splits too (a bra each).
  RelsspOptions all;
  all.materialize_all_splits = true;
  std::vector<RelsspKernelReport> rep3;
  std::string out3 = relssp_pass(in, "barriers.ptx", all, &rep3);
  CHECK(rep3[0].materialized_splits == 4);  // four taken edges; the fall-through splits need no text
  CHECK(check_paths(out3, 0.1).wrong_count == 0);
}

// ================================================================ whole pipeline

TEST_CASE("passes: rewritten PTX runs with the same results as the original", "[passes][functional]") {
  const std::string barriers = read_kernel_file("barriers");
  const std::string atomics = read_kernel_file("atomics");
  const std::string dyn = read_kernel_file("dyn_smem");
  PassReport rb, ra, rd;
  const std::string ob = optimize_scratchpad_sharing(barriers, "barriers.ptx", 0.1, &rb);
  const std::string oa = optimize_scratchpad_sharing(atomics, "atomics.ptx", 0.5, &ra);  // 16 of 32 B private
  const std::string od = optimize_scratchpad_sharing(dyn, "dyn_smem.ptx", 0.1, &rd);
  CHECK(rb.relssp_inserted() >= 3);
  CHECK(ra.relssp_inserted() >= 1);
  CHECK(rd.relssp_inserted() >= 1);
  for (auto o : {std::make_pair(&ob, 0.1), std::make_pair(&oa, 0.5), std::make_pair(&od, 0.1)}) {
    PathStats ps = check_paths(*o.first, o.second);
    INFO(ps.first_bad);
    CHECK(ps.wrong_count == 0);
    CHECK(ps.access_after == 0);
  }

  const uint32_t bs = 256, grid = 3;
  std::vector<uint32_t> input(bs * grid);
  for (uint32_t i = 0; i < input.size(); ++i) input[i] = (i * 2654435761u) % 1000;
  {
    std::vector<std::vector<uint32_t>> bufs = {input, std::vector<uint32_t>(grid, 0)};
    auto a = run_functional(barriers, "barrier_reduce", grid, bs, 0, bufs, {buf(0), buf(1)});
    auto b = run_functional(ob, "barrier_reduce", grid, bs, 0, bufs, {buf(0), buf(1)});
    CHECK(a == b);
    uint32_t sum = 0;
    for (uint32_t i = 0; i < bs; ++i) sum += input[i];
    CHECK(a[1][0] == sum);
  }
  {
    std::vector<std::vector<uint32_t>> bufs = {input, std::vector<uint32_t>(bs * grid, 0)};
    auto a = run_functional(barriers, "barrier_loop", grid, bs, 0, bufs, {buf(0), buf(1), val(4)});
    auto b = run_functional(ob, "barrier_loop", grid, bs, 0, bufs, {buf(0), buf(1), val(4)});
    CHECK(a == b);
  }
  {
    std::vector<std::vector<uint32_t>> bufs = {std::vector<uint32_t>(8 * grid, 0)};
    auto a = run_functional(atomics, "atomics_shared", grid, 128, 0, bufs, {buf(0)});
    auto b = run_functional(oa, "atomics_shared", grid, 128, 0, bufs, {buf(0)});
    CHECK(a == b);
    CHECK(a[0][0] == 128);
  }
  {
    const uint32_t n = 64;
    std::vector<std::vector<uint32_t>> bufs = {std::vector<uint32_t>(input.begin(), input.begin() + n * 2),
                                               std::vector<uint32_t>(n * 2, 0), std::vector<uint32_t>(n * 2, 0)};
    auto a = run_functional(dyn, "dyn_smem", 2, n, 2 * n * 4, bufs, {buf(0), buf(1), buf(2)});
    auto b = run_functional(od, "dyn_smem", 2, n, 2 * n * 4, bufs, {buf(0), buf(1), buf(2)});
    CHECK(a == b);
  }
  {
    // Figure 7 kernel: reordered declarations, relssp placed, same output.
    PassReport r7;
    const std::string in = mod(kFig7);
    const std::string out = optimize_scratchpad_sharing(in, "fig7.ptx", 0.5, &r7);
    CHECK(r7.alloc[0].reordered);
    REQUIRE(relssp_lines(out).size() == 1);
    CHECK(relssp_lines(out)[0] == line_no(in, "// P6"));
    std::vector<std::vector<uint32_t>> bufs = {std::vector<uint32_t>(64, 0)};
    auto a = run_functional(in, "fig7", 1, 64, 0, bufs, {buf(0)});
    auto b = run_functional(out, "fig7", 1, 64, 0, bufs, {buf(0)});
    CHECK(a == b);
    CHECK(a[0][1] != 0);
  }
  {
    // Reordered so that nothing is shared: no relssp, same output.
    const std::string in = mod(kPrivateOnly);
    const std::string out = optimize_scratchpad_sharing(in, "priv.ptx", 0.1, nullptr);
    CHECK(out != in);
    std::vector<std::vector<uint32_t>> bufs = {std::vector<uint32_t>(64, 0)};
    auto a = run_functional(in, "privonly", 1, 16, 0, bufs, {buf(0)});
    auto b = run_functional(out, "privonly", 1, 16, 0, bufs, {buf(0)});
    CHECK(a == b);
    CHECK(a[0][7] == 7);
  }
  // The report text names the kernels and the insertions.
  const std::string txt = rb.text();
  CHECK(txt.find("kernel barrier_reduce") != std::string::npos);
  CHECK(txt.find("relssp:") != std::string::npos);
}

TEST_CASE("passes: pipeline is idempotent on relssp and reports errors with file and line", "[passes]") {
  PassReport r1, r2;
  const std::string once = optimize_scratchpad_sharing(mod(kFig12), "fig12.ptx", 0.1, &r1);
  const std::string twice = optimize_scratchpad_sharing(once, "fig12.ptx", 0.1, &r2);
  CHECK(once == twice);
  REQUIRE(r2.relssp.size() == 1);
  CHECK(r2.relssp[0].had_relssp);
  // Bad PTX: the parser's InputError names the file and line.
  const std::string bad = mod(".visible .entry k()\n{\n\tfrobnicate.u32 %r1;\n}\n");
  try {
    optimize_scratchpad_sharing(bad, "bad.ptx", 0.1, nullptr);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("bad.ptx:7") != std::string::npos);
  }
  CHECK_THROWS_AS(optimize_scratchpad_sharing(mod(kFig9), "fig9.ptx", 1.0, nullptr), InputError);
}

TEST_CASE("passes: parameters are declared", "[passes]") {
  ParamTable t;
  declare_ss_pass_params(t);
  declare_ss_pass_params(t);  // redeclaring is a no-op
  REQUIRE(t.find("ss.compiler_passes") != nullptr);
  CHECK(t.find("ss.compiler_passes")->default_value == "false");
  REQUIRE(t.find("ss.threshold") != nullptr);
  CHECK(t.find("ss.threshold")->default_value == "0.1");
}

TEST_CASE("passes: every PTX kernel in the repository is rewritten safely and still loads", "[passes]") {
  // Our test kernels and the workload library: the output links, no line
  // moves, and on every enumerated path relssp runs exactly once and after the
  // last shared-region access.
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (const char* dir : {"/tb/tests/kernels", "/tb/workloads"})
    for (auto& e : fs::recursive_directory_iterator(std::string(WARPTLM_SOURCE_DIR) + dir))
      if (e.path().extension() == ".ptx") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 10);
  unsigned with_relssp = 0;
  for (auto& p : files) {
    std::ifstream f(p);
    std::stringstream ss;
    ss << f.rdbuf();
    const std::string in = ss.str();
    INFO(p.filename().string());
    if (in.find("bar.blocksync") != std::string::npos) {
      // The SPU mesh's PTX: the passes (the gpu platform's dialect) refuse it by its line.
      CHECK_THROWS_AS(optimize_scratchpad_sharing(in, p.filename().string(), 0.1, nullptr), InputError);
      continue;
    }
    PassReport rep;
    const std::string out = optimize_scratchpad_sharing(in, p.filename().string(), 0.1, &rep);
    CHECK(count_lines(out) == count_lines(in));
    GlobalMemory mem;
    CHECK_NOTHROW(Module(out, p.filename().string(), mem));
    PathStats ps = check_paths(out, 0.1, 2, 20000);
    INFO(ps.first_bad);
    CHECK(ps.wrong_count == 0);
    CHECK(ps.access_after == 0);
    if (rep.relssp_inserted()) ++with_relssp;
    // Idempotent: a second run changes nothing.
    CHECK(optimize_scratchpad_sharing(out, p.filename().string(), 0.1, nullptr) == out);
  }
  CHECK(with_relssp >= 10);
}
