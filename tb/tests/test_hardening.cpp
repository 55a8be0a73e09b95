// Hardening (issue: the false deadlock, operand and bounds checks, honest
// failure outputs): each case runs the warptlm executable on a minimal input
// and checks the exit code, the message and the outputs. The bad-input
// catalogue (docs/bad-inputs.md) points at these cases.
#include "cli_util.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstring>

using namespace cli_util;

namespace {
// The run's status as stats.json records it.
std::string status_of(const TempDir& d) { return YAML::LoadFile(d / "out/stats.json")["status"].as<std::string>(); }
}  // namespace

// ---------------------------------------------------------------- conservation

TEST_CASE("conservation: a fill lost below the L1 is a deadlock naming the blocks that hold its requests", "[hardening][conservation]") {
  TempDir d;
  auto r = warptlm(d, "run --workload vecadd --size tiny --config gtx480 --out " + q(d / "out"), "");
  REQUIRE(r.code == 0);
  setenv("WARPTLM_TEST_FAULT", "l1_lose_fill", 1);
  r = warptlm(d, "run --workload vecadd --size tiny --config gtx480 --out " + q(d / "out"));
  unsetenv("WARPTLM_TEST_FAULT");
  CHECK(r.code == 1);
  CHECK(contains(r.out, "deadlock in kernel 'vecadd'"));
  CHECK(contains(r.out, "memory blocks holding requests without a response:"));
  CHECK(contains(r.out, ".l1d ("));
  CHECK(status_of(d) == "deadlock");
}

TEST_CASE("conservation: a fill taken twice (by the L1, or by the SM's instruction cache) stops the run as a fault at once", "[hardening][conservation]") {
  const std::pair<const char*, const char*> faults[] = {{"l1_duplicate_fill", "no fill outstanding"},
                                                        {"sm_duplicate_readonly_fill", "line fill came back that no"}};
  for (const auto& [fault, message] : faults) {
    INFO(fault);
    TempDir d;
    setenv("WARPTLM_TEST_FAULT", fault, 1);
    auto r = warptlm(d, "run --workload vecadd --size tiny --config gtx480 --out " + q(d / "out"));
    unsetenv("WARPTLM_TEST_FAULT");
    CHECK(r.code == 1);
    CHECK(contains(r.out, "memory conservation broken in gpu.sm"));
    CHECK(contains(r.out, message));
    CHECK(status_of(d) == "fault");
  }
}

TEST_CASE("conservation: write acknowledgements lost in DRAM fail the end-of-run check of a run that finished", "[hardening][conservation]") {
  TempDir d;
  // a small L2 so that dirty lines are written back to DRAM during the run
  const std::string args = "run --workload vecadd --size tiny --config gtx480 --set l2.slice_size=1024 --out " + q(d / "out");
  auto r = warptlm(d, args);
  REQUIRE(r.code == 0);
  CHECK(contains(slurp(d / "out/stats.json"), "\"dram.writes\""));
  setenv("WARPTLM_TEST_FAULT", "dram_drop_write_ack", 1);
  r = warptlm(d, args);
  unsetenv("WARPTLM_TEST_FAULT");
  CHECK(r.code == 1);
  CHECK(contains(r.out, "memory conservation broken: requests without exactly one response in dram"));
  CHECK(status_of(d) == "fault");
}

// ---------------------------------------------------------------- minimal PTX inputs

namespace {
const char* kHead = ".version 7.5\n.target sm_75\n.address_size 64\n\n";

std::string entry(const std::string& body, const std::string& params = ".param .u64 out") {
  return std::string(kHead) + ".visible .entry k(" + params + ")\n{\n" + body + "}\n";
}

int line_of(const std::string& text, const std::string& needle) {
  const size_t at = text.find(needle);
  if (at == std::string::npos) return -1;
  return 1 + int(std::count(text.begin(), text.begin() + long(at), '\n'));
}

struct Job {
  std::string grid = "[1, 1, 1]", block = "[32, 1, 1]";
  std::string buffers = "    out:\n      type: u32\n      count: 64\n      init: zeros\n      dump: out.bin\n";
  std::string args = "[out]";
  std::string extra;  // more lines under kernel:
};

// Writes k.ptx and run.yaml into d/job and runs them in `mode` (extra CLI args after).
CmdResult run_ptx(const TempDir& d, const std::string& ptx, const std::string& mode, const Job& j = Job(),
                  const std::string& cli = "") {
  std::filesystem::create_directories(d / "job");
  write_text(d / "job/k.ptx", ptx);
  write_text(d / "job/run.yaml", "kernel:\n  ptx: k.ptx\n  name: k\n  grid: " + j.grid + "\n  block: " + j.block +
                                     "\n  buffers:\n" + j.buffers + "  args: " + j.args + "\n" + j.extra);
  return warptlm(d, "run " + q(d / "job/run.yaml") + " --set sim.mode=" + mode + " --out " + q(d / "out") + " " + cli);
}

// A PTX input the loader must refuse: exit 2 in both modes, naming k.ptx, the
// line of `at` and the words `says`.
void refused(const std::string& ptx, const std::string& at, const std::string& says) {
  const int line = line_of(ptx, at);
  REQUIRE(line > 0);
  for (const char* mode : {"functional", "timing"}) {
    TempDir d;
    const CmdResult r = run_ptx(d, ptx, mode);
    INFO(mode << "\n" << r.out);
    CHECK(r.code == 2);
    CHECK(contains(r.out, "k.ptx:" + std::to_string(line)));
    CHECK(contains(r.out, says));
  }
}

// The dumped out buffer (written beside the run file, or in the output directory).
std::string dumped(const TempDir& d) {
  return std::filesystem::exists(d / "job/out.bin") ? slurp(d / "job/out.bin") : slurp(d / "out/out.bin");
}

const std::string kRegs = "  .reg .pred %p<3>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n";
const std::string kOut = "  ld.param.u64 %rd1, [out];\n";
}  // namespace

TEST_CASE("verifier: setp with a data register as its destination is refused at load", "[hardening][verifier]") {
  refused(entry(kRegs + "  setp.eq.s32 %r1, %r2, %r3;\n  ret;\n"), "setp.eq", "where a predicate is needed");
}

TEST_CASE("verifier: a data register as selp's condition is refused at load", "[hardening][verifier]") {
  refused(entry(kRegs + "  selp.b32 %r1, %r2, %r3, %r4;\n  ret;\n"), "selp", "where a predicate or an immediate is needed");
}

TEST_CASE("verifier: a predicate as a data source is refused at load", "[hardening][verifier]") {
  refused(entry(kRegs + "  add.s32 %r1, %p1, 1;\n  ret;\n"), "add.s32", "is a predicate where a data register or an immediate is needed");
}

TEST_CASE("verifier: a register declared .s16 cannot guard an instruction", "[hardening][verifier]") {
  refused(entry("  .reg .s16 %p<3>;\n  @%p1 bra DONE;\nDONE:\n  ret;\n"), "@%p1", "is not a predicate");
}

TEST_CASE("verifier: too few operands and an immediate destination are refused at load", "[hardening][verifier]") {
  refused(entry(kRegs + "  add.s32 %r1, %r2;\n  ret;\n"), "add.s32", "2 operands given, 3 expected");
  refused(entry(kRegs + "  add.s32 5, %r2, %r3;\n  ret;\n"), "add.s32", "is an immediate where a data register is needed");
}

TEST_CASE("verifier: an entry with no instructions is refused instead of running past its end", "[hardening][verifier]") {
  refused(entry("  .reg .b32 %r<2>;\n"), ".visible .entry", "has no instructions");
}

TEST_CASE("verifier: control that can fall off the last instruction is refused", "[hardening][verifier]") {
  refused(entry(kRegs + kOut + "  st.global.u32 [%rd1], 1;\n"), "st.global", "can run past the end of 'k'");
  refused(entry(kRegs + "  setp.eq.s32 %p1, %r1, 0;\n  @%p1 ret;\n"), "@%p1 ret", "not an unguarded ret, exit, bra or trap");
  refused(entry(kRegs + "  bra DONE;\n  ret;\nDONE:\n"), "bra DONE", "branch to a label after the last instruction");
}

TEST_CASE("verifier: barrier ids and thread counts outside the hardware's are refused", "[hardening][verifier]") {
  refused(entry("  bar.sync 16;\n  ret;\n"), "bar.sync 16", "barrier id 16 is out of range");
  refused(entry("  bar.sync 0, 33;\n  ret;\n"), "bar.sync 0, 33", "multiple of 32");
}

TEST_CASE("verifier: a write to %tid.x is refused at load by warptlm run and by warptlm ptx-opt, with one message",
          "[hardening][verifier]") {
  const std::string ptx = entry(kRegs + "  mov.u32 %r1, 5;\n  mov.u32 %tid.x, %r1;\n  ret;\n");
  const std::string says =
      "'mov.u32 %tid.x, %r1;': the first operand '%tid.x' is written, but %tid.x is a special register, "
      "and special registers are read-only";
  refused(ptx, "mov.u32 %tid.x", says);
  // the message line, from the file name on, as each command printed it
  auto message = [](const std::string& out) {
    const size_t at = out.find("k.ptx:");
    return at == std::string::npos ? std::string() : out.substr(at, out.find('\n', at) - at);
  };
  TempDir d;
  const CmdResult run = run_ptx(d, ptx, "functional");
  const CmdResult opt = warptlm(d, "ptx-opt " + q(d / "job/k.ptx") + " -o " + q(d / "opt.ptx"));
  INFO(run.out << "\n---\n" << opt.out);
  CHECK(opt.code == 2);
  CHECK(contains(opt.out, "k.ptx:" + std::to_string(line_of(ptx, "mov.u32 %tid.x"))));
  CHECK(contains(opt.out, says));
  CHECK_FALSE(message(run.out).empty());
  CHECK(message(run.out) == message(opt.out));
  CHECK_FALSE(std::filesystem::exists(d / "opt.ptx"));
  // the kernel with a writable destination: both commands take it
  const std::string fixed = entry(kRegs + "  mov.u32 %r1, 5;\n  mov.u32 %r2, %r1;\n  ret;\n");
  TempDir e;
  CHECK(run_ptx(e, fixed, "functional").code == 0);
  CHECK(warptlm(e, "ptx-opt " + q(e / "job/k.ptx") + " -o " + q(e / "opt.ptx")).code == 0);
}

TEST_CASE("parser: duplicate labels and registers declared twice in one scope are refused", "[hardening][verifier]") {
  refused(entry("  bra L1;\nL1:\n  bra L2;\nL1:\nL2:\n  ret;\n"), "L1:\nL2:", "label 'L1' defined twice");
  refused(entry("  .reg .b32 %r<3>;\n  .reg .b32 %r1;\n  ret;\n"), ".reg .b32 %r1;", "declared twice in one scope");
  // a nested scope may hide an outer name (nvcc's call sequences do)
  TempDir d;
  const CmdResult r = run_ptx(d, entry("  .reg .b32 %r<3>;\n  {\n  .reg .b32 %r1;\n  mov.u32 %r1, 1;\n  }\n  ret;\n"), "functional");
  INFO(r.out);
  CHECK(r.code == 0);
}

TEST_CASE("parser: alignments that are zero, not powers of two or over 64 KiB are refused", "[hardening][verifier]") {
  refused(std::string(kHead) + ".global .align 0 .b8 g[4];\n" + entry("  ret;\n"), ".align 0", "not a power of two");
  refused(std::string(kHead) + ".global .align 4294967296 .b8 g[4];\n" + entry("  ret;\n"), ".align 4294967296", "not a power of two");
  refused(std::string(kHead) + ".global .align 12 .b8 g[4];\n" + entry("  ret;\n"), ".align 12", "not a power of two");
}

TEST_CASE("parser: register counts and arrays beyond the declaration limits are refused at once", "[hardening][verifier]") {
  refused(entry("  .reg .b32 %r<4294967295>;\n  ret;\n"), "%r<4294967295>", "over the limit of 65536");
  refused(entry("  ret;\n", ".param .align 1 .b8 p[4294967295]"), ".param .align 1", "larger than the limit");
  refused(entry("  ret;\n", ".param .align 1 .b8 p[40000]"), ".param .align 1", "parameters are limited to 32768 bytes");
}

TEST_CASE("parser: the most negative 64-bit literal loads and runs", "[hardening][verifier]") {
  const std::string ptx = entry(kRegs + kOut + "  mov.s64 %rd2, -9223372036854775808;\n  st.global.u64 [%rd1], %rd2;\n  ret;\n");
  TempDir d;
  Job j;
  j.buffers = "    out:\n      type: u64\n      count: 1\n      init: zeros\n      dump: out.bin\n";
  const CmdResult r = run_ptx(d, ptx, "functional", j);
  INFO(r.out);
  REQUIRE(r.code == 0);
  const std::string got = dumped(d);
  REQUIRE(got.size() == 8);
  uint64_t v = 0;
  std::memcpy(&v, got.data(), 8);
  CHECK(v == 0x8000000000000000ull);
}

// ---------------------------------------------------------------- bounds at run time

TEST_CASE("bounds: a shared access at address -4 is a fault in both modes, not a read of host memory", "[hardening][bounds]") {
  const std::string ptx = entry(kRegs + kOut + "  .shared .align 4 .b8 buf[64];\n  mov.u64 %rd2, -4;\n"
                                "  ld.shared.u32 %r1, [%rd2];\n  st.global.u32 [%rd1], %r1;\n  ret;\n");
  for (const char* mode : {"functional", "timing"}) {
    TempDir d;
    const CmdResult r = run_ptx(d, ptx, mode);
    INFO(mode << "\n" << r.out);
    CHECK(r.code == 1);
    CHECK(contains(r.out, "shared address 0xfffffffffffffffc is past the block's 64 bytes"));
    CHECK(status_of(d) == "fault");
  }
}

TEST_CASE("bounds: a 32-bit .shared or .local address register wraps at 2^32 before the access, as nvcc's code expects",
          "[hardening][bounds]") {
  // The buffer is at offset 0 of its window: %r2 = buf - 4 is 0xfffffffc as 32 bits, so [%r2+8] is buf + 4;
  // added in 64 bits it would be 0x100000004, far past the block's (or thread's) 64 bytes, and a 64-bit base
  // of -4 stays out of range (previous test).
  for (const char* space : {"shared", "local"}) {
    const std::string s = space;
    const std::string ptx = entry(kRegs + kOut + "  ." + s + " .align 4 .b8 buf[64];\n  mov.u32 %r1, buf;\n"
                                  "  add.s32 %r2, %r1, -4;\n  st." + s + ".u32 [%r2+8], 77;\n  bar.sync 0;\n"
                                  "  ld." + s + ".u32 %r3, [%r1+4];\n  cvta.to.global.u64 %rd2, %rd1;\n"
                                  "  st.global.u32 [%rd2], %r3;\n  ret;\n");
    for (const char* mode : {"functional", "timing"}) {
      TempDir d;
      Job j;
      j.buffers = "    out:\n      type: u32\n      count: 1\n      init: zeros\n      dump: out.bin\n";
      const CmdResult r = run_ptx(d, ptx, mode, j);
      INFO(space << ", " << mode << "\n" << r.out);
      REQUIRE(r.code == 0);
      const std::string got = dumped(d);
      REQUIRE(got.size() == 4);
      uint32_t v = 0;
      std::memcpy(&v, got.data(), 4);
      CHECK(v == 77);
    }
  }
}

TEST_CASE("bounds: a wild shared store is a fault naming its line", "[hardening][bounds]") {
  const std::string ptx = entry(kRegs + "  .shared .align 4 .b8 buf[64];\n  mov.u64 %rd2, 0x7ffffffffffff000;\n"
                                "  st.shared.u32 [%rd2], 1;\n  ret;\n");
  for (const char* mode : {"functional", "timing"}) {
    TempDir d;
    const CmdResult r = run_ptx(d, ptx, mode);
    INFO(mode << "\n" << r.out);
    CHECK(r.code == 1);
    CHECK(contains(r.out, "k.ptx:" + std::to_string(line_of(ptx, "st.shared"))));
  }
}

TEST_CASE("bounds: grids beyond CUDA's limits and sizes over 32 bits are refused before the launch", "[hardening][bounds]") {
  const std::string ptx = entry("  ret;\n");
  struct Case { std::string grid, says; };
  for (const Case& c : {Case{"[65536, 65536, 64]", "the limits are 65535"}, Case{"[4294967297, 1, 1]", "over the 32-bit limit"},
                        Case{"[2147483648, 1, 1]", "the limits are 2147483647"}}) {
    TempDir d;
    Job j;
    j.grid = c.grid;
    const CmdResult r = run_ptx(d, ptx, "functional", j);
    INFO(c.grid << "\n" << r.out);
    CHECK(r.code == 2);
    CHECK(contains(r.out, c.says));
  }
}

TEST_CASE("limits: a buffer or a local array over sim.max_memory_mb is an input error naming the budget", "[hardening][limits]") {
  {
    TempDir d;
    Job j;
    j.buffers = "    out:\n      type: u32\n      count: 1000000000\n      init: zeros\n";
    const CmdResult r = run_ptx(d, entry("  ret;\n"), "functional", j, "--set sim.max_memory_mb=64");
    INFO(r.out);
    CHECK(r.code == 2);
    CHECK(contains(r.out, "over the budget of 64 MiB (sim.max_memory_mb"));
  }
  for (const char* mode : {"functional", "timing"}) {
    TempDir d;
    const CmdResult r = run_ptx(d, entry("  .local .align 4 .b8 big[400000000];\n  ret;\n"), mode);
    INFO(mode << "\n" << r.out);
    CHECK(r.code == 2);
    CHECK(contains(r.out, "bytes of simulator memory per block"));
    CHECK(contains(r.out, "sim.max_memory_mb"));
  }
}

// ---------------------------------------------------------------- named barriers

namespace {
// Warp 0 writes shared memory and arrives at barrier 1; warp 1 waits at
// barrier 1 (64 threads) and copies what warp 0 wrote; barrier 0 is never used.
const std::string kProducerConsumer = entry(
    kRegs + kOut +
    "  .shared .align 4 .b32 buf[32];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  shl.b32 %r2, %r1, 2;\n"
    "  mov.u32 %r5, buf;\n"
    "  setp.ge.u32 %p1, %r1, 32;\n"
    "  @%p1 bra CONSUMER;\n"
    "  add.s32 %r3, %r1, 1000;\n"
    "  add.s32 %r4, %r5, %r2;\n"
    "  st.shared.u32 [%r4], %r3;\n"
    "  bar.arrive 1, 64;\n"
    "  ret;\n"
    "CONSUMER:\n"
    "  bar.sync 1, 64;\n"
    "  sub.s32 %r2, %r2, 128;\n"
    "  add.s32 %r4, %r5, %r2;\n"
    "  ld.shared.u32 %r3, [%r4];\n"
    "  cvt.u64.u32 %rd2, %r2;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r3;\n"
    "  ret;\n");
}  // namespace

TEST_CASE("barriers: a producer arrives at named barrier 1 and the consumer waits on it, in both modes", "[hardening][barriers]") {
  for (const char* mode : {"functional", "timing"}) {
    TempDir d;
    Job j;
    j.block = "[64, 1, 1]";
    const CmdResult r = run_ptx(d, kProducerConsumer, mode, j);
    INFO(mode << "\n" << r.out);
    REQUIRE(r.code == 0);
    const std::string got = dumped(d);
    REQUIRE(got.size() == 64 * 4);
    for (uint32_t i = 0; i < 32; ++i) {
      uint32_t v = 0;
      std::memcpy(&v, got.data() + 4 * i, 4);
      CHECK(v == 1000 + i);
    }
  }
}

TEST_CASE("barriers: warps waiting at different named barriers wait for their own, and a deadlock is reported", "[hardening][barriers]") {
  // warp 0 waits at barrier 1 and warp 1 at barrier 2, each for 64 threads: neither barrier fills
  const std::string ptx = entry(kRegs + "  mov.u32 %r1, %tid.x;\n  setp.ge.u32 %p1, %r1, 32;\n  @%p1 bra W1;\n"
                                "  bar.sync 1, 64;\n  ret;\nW1:\n  bar.sync 2, 64;\n  ret;\n");
  for (const char* mode : {"functional", "timing"}) {
    TempDir d;
    Job j;
    j.block = "[64, 1, 1]";
    const CmdResult r = run_ptx(d, ptx, mode, j);
    INFO(mode << "\n" << r.out);
    CHECK(r.code == 1);
    CHECK(contains(r.out, "deadlock"));
  }
}

TEST_CASE("barriers: a barrier id from a register beyond 15 is a fault at run time", "[hardening][barriers]") {
  const std::string ptx = entry(kRegs + "  mov.u32 %r1, 17;\n  bar.sync %r1;\n  ret;\n");
  TempDir d;
  const CmdResult r = run_ptx(d, ptx, "functional");
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(contains(r.out, "bad barrier id 17"));
  CHECK(contains(r.out, "k.ptx:" + std::to_string(line_of(ptx, "bar.sync %r1"))));
}

// ---------------------------------------------------------------- configs

TEST_CASE("config: values in range that do not fit together are refused naming the key", "[hardening][config]") {
  struct Case { std::string set, key, says; };
  for (const Case& c : {Case{"sm.mem_line=256", "sm.mem_line", "differs from l1d.line 128"},
                        Case{"l2.line=256", "sm.mem_line", "differs from l2.line 256"},
                        Case{"smem.size=0", "smem.size", "smaller than sm.shared_mem"},
                        Case{"icn.interleave=64", "icn.interleave", "not a multiple of l2.line"},
                        Case{"dram.row_bytes=128 --set dram.burst_length=32", "dram.burst_length", "larger than dram.row_bytes 128"},
                        Case{"stats.sample_interval=1", "stats.sample_interval", "below 100 cycles"}}) {
    TempDir d;
    const CmdResult r = warptlm(d, "run --workload vecadd --size tiny --config gtx480 --set " + c.set + " --out " + q(d / "out"));
    INFO(c.set << "\n" << r.out);
    CHECK(r.code == 2);
    CHECK(contains(r.out, c.key));
    CHECK(contains(r.out, c.says));
  }
}

TEST_CASE("config: a key given twice and a second YAML document are refused naming file and line", "[hardening][config]") {
  TempDir d;
  write_text(d / "dup.yaml", "gpu:\n  num_sms: 4\n  num_sms: 5\n");
  write_text(d / "two.yaml", "gpu:\n  num_sms: 4\n---\ngpu:\n  num_sms: 2\n");
  CmdResult r = warptlm(d, "run --workload vecadd --config " + q(d / "dup.yaml") + " --out " + q(d / "out"));
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK(contains(r.out, "dup.yaml:3"));
  CHECK(contains(r.out, "key 'gpu.num_sms' is given twice"));
  r = warptlm(d, "run --workload vecadd --config " + q(d / "two.yaml") + " --out " + q(d / "out"));
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK(contains(r.out, "two.yaml:3"));  // the '---' that opens the second document
  CHECK(contains(r.out, "a second YAML document"));
  // the run file is read the same way
  write_text(d / "run.yaml", "workload: vecadd\nsize: tiny\nsize: small\n");
  r = warptlm(d, "run " + q(d / "run.yaml") + " --out " + q(d / "out"));
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK(contains(r.out, "run.yaml:3"));
}

// ---------------------------------------------------------------- failure outputs

TEST_CASE("outputs: a run that fails before it starts leaves no earlier run's stats looking current", "[hardening][outputs]") {
  TempDir d;
  CmdResult r = warptlm(d, "run --workload vecadd --size tiny --out " + q(d / "out"));
  REQUIRE(r.code == 0);
  REQUIRE(std::filesystem::exists(d / "out/stats.json"));
  r = warptlm(d, "run --workload vecadd --size tiny --set gpu.num_smz=2 --out " + q(d / "out"));
  CHECK(r.code == 2);
  CHECK_FALSE(std::filesystem::exists(d / "out/stats.json"));
  CHECK_FALSE(std::filesystem::exists(d / "out/stats.txt"));
}

TEST_CASE("outputs: a fault in timing mode writes stats.json with status fault and no empty warning line", "[hardening][outputs]") {
  TempDir d;
  const std::string ptx = entry(kRegs + kOut + "  st.global.u32 [%rd1+1048576], 1;\n  ret;\n");
  const CmdResult r = run_ptx(d, ptx, "timing");
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(status_of(d) == "fault");
  CHECK_FALSE(contains(r.out, "warning: \n"));
  CHECK(contains(r.out, "is outside every device allocation"));
}

TEST_CASE("parser: a truncated file is refused naming the end of file", "[hardening][verifier]") {
  std::string ptx = entry(kRegs + "  ret;\n");
  ptx.erase(ptx.rfind('}'));
  TempDir d;
  const CmdResult r = run_ptx(d, ptx, "functional");
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK(contains(r.out, "k.ptx:"));
  CHECK(contains(r.out, "unexpected end of file inside function 'k'"));
}
