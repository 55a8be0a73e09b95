// SM timing core, driven by hand-built PTX instruction streams: issue timing
// of dependent chains, sustained issue rate, warp-scheduler orderings
// (observed through %clock read at issue), barriers, occupancy in the
// dispatcher, stall accounting.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <tuple>
#include <sstream>

#include "common/config.hpp"
#include "common/stats.hpp"
#include "gpu/gpu_platform.hpp"
#include "interconnect/crossbar.hpp"
#include "l1/l1_params.hpp"
#include "l2/l2_slice.hpp"
#include "scratchpad/sharing_unit.hpp"
#include "runtime/device.hpp"
#include "runtime/testbench.hpp"
#include "sm/coalescer.hpp"
#include "sm/sm.hpp"
#include "sm_rig.hpp"

using namespace warptlm;

namespace {

using namespace sm_rig;

// Each warp records %clock at A (start), B (after 8 independent adds), then
// loads from memory, uses the value (a long-latency stall), and records C.
const char* kOrderKernel = R"(
.visible .entry order(.param .u64 out, .param .u64 in)
{
  .reg .pred %p<2>;
  .reg .b32 %r<40>;
  .reg .b64 %rd<10>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r10, %clock;
  add.s32 %r20, %r1, 1;
  add.s32 %r21, %r1, 2;
  add.s32 %r22, %r1, 3;
  add.s32 %r23, %r1, 4;
  add.s32 %r24, %r1, 5;
  add.s32 %r25, %r1, 6;
  add.s32 %r26, %r1, 7;
  add.s32 %r27, %r1, 8;
  mov.u32 %r11, %clock;
  ld.param.u64 %rd1, [in];
  cvta.to.global.u64 %rd2, %rd1;
  ld.global.u32 %r12, [%rd2];
  add.s32 %r13, %r12, %r27;
  mov.u32 %r14, %clock;
  ld.param.u64 %rd3, [out];
  cvta.to.global.u64 %rd4, %rd3;
  shr.u32 %r2, %r1, 5;
  mul.wide.u32 %rd5, %r2, 16;
  add.s64 %rd6, %rd4, %rd5;
  and.b32 %r3, %r1, 31;
  setp.ne.u32 %p1, %r3, 0;
  @%p1 bra DONE;
  st.global.u32 [%rd6], %r10;
  st.global.u32 [%rd6+4], %r11;
  st.global.u32 [%rd6+8], %r14;
  st.global.u32 [%rd6+12], %r13;
DONE:
  ret;
}
)";

struct WarpTimes { uint32_t a, b, c; };

std::vector<WarpTimes> run_order(Rig& rig, uint32_t warps) {
  rig.dev->load_ptx(std::string(kHeader) + kOrderKernel, "order.ptx");
  DevPtr out = rig.dev->malloc(16 * warps);
  DevPtr in = rig.dev->upload(std::vector<uint32_t>{5});
  rig.launch("order", Dim3(1), Dim3(32 * warps), {arg(out), arg(in)});
  auto v = rig.dev->download<uint32_t>(out, 4 * warps);
  std::vector<WarpTimes> t;
  for (uint32_t w = 0; w < warps; ++w) {
    CHECK(v[4 * w + 3] == 5 + 32 * w + 8);  // the loaded value reached the dependent add
    t.push_back(WarpTimes{v[4 * w], v[4 * w + 1], v[4 * w + 2]});
  }
  return t;
}

}  // namespace

TEST_CASE("sm: a dependent chain of adds of latency L issues one instruction per L cycles") {
  for (uint32_t L : {7u}) {
    Rig rig(simple_sm(L));
    rig.dev->load_ptx(std::string(kHeader) + chain_kernel("chain32", 32) + chain_kernel("chain96", 96), "chain.ptx");
    DevPtr out = rig.dev->malloc(4);
    rig.launch("chain32", Dim3(1), Dim3(32), {arg(out)});
    CHECK(rig.dev->download<uint32_t>(out, 1)[0] == 31 + 32);
    rig.launch("chain96", Dim3(1), Dim3(32), {arg(out)});
    CHECK(rig.dev->download<uint32_t>(out, 1)[0] == 31 + 96);
    const auto& ls = rig.gpu->launches();
    REQUIRE(ls.size() == 2);
    // 64 more dependent adds cost exactly 64 * L cycles.
    CHECK(ls[1].cycles - ls[0].cycles == 64 * L);
    // The scheduler waited on the dependence, not on anything else.
    CHECK(rig.counter("sched.data") >= 64 * (L - 1));
  }
}

TEST_CASE("sm: independent instructions from W warps reach the configured issue rate") {
  // 2 schedulers, each issuing 1 per cycle into 2 integer pipelines of 32 lanes: 2 warp-instructions per cycle.
  auto sets = simple_sm(4);
  for (auto& s : sets) {
    if (s.first == "sm.num_schedulers") s.second = "2";
    if (s.first == "sm.unit.int.count") s.second = "2";
    if (s.first == "sm.ibuffer_entries") s.second = "8";
  }
  sets.push_back({"sm.fetch_warps_per_cycle", "2"});
  Rig rig(sets);
  rig.dev->load_ptx(std::string(kHeader) + independent_kernel("ind64", 64) + independent_kernel("ind192", 192), "ind.ptx");
  DevPtr out = rig.dev->malloc(4);
  const uint32_t W = 8;
  rig.launch("ind64", Dim3(1), Dim3(32 * W), {arg(out)});
  rig.launch("ind192", Dim3(1), Dim3(32 * W), {arg(out)});
  const auto& ls = rig.gpu->launches();
  const double extra_insts = double(ls[1].warp_instructions - ls[0].warp_instructions);
  CHECK(extra_insts == 128.0 * W);
  const double extra_cycles = double(ls[1].cycles - ls[0].cycles);
  const double rate = extra_insts / extra_cycles;
  INFO("measured " << rate << " warp-instructions per cycle over " << extra_cycles << " cycles");
  CHECK(rate == Approx(2.0).epsilon(0.03));
}

TEST_CASE("sm: issue rate follows the unit count and lane width") {
  // One 8-lane integer pipeline: a warp holds it 4 cycles, so 0.25 warp-instructions per cycle.
  auto sets = simple_sm(4);
  for (auto& s : sets)
    if (s.first == "sm.unit.int.lanes") s.second = "8";
  Rig rig(sets);
  rig.dev->load_ptx(std::string(kHeader) + independent_kernel("ind64", 64) + independent_kernel("ind192", 192), "ind.ptx");
  DevPtr out = rig.dev->malloc(4);
  rig.launch("ind64", Dim3(1), Dim3(128), {arg(out)});
  rig.launch("ind192", Dim3(1), Dim3(128), {arg(out)});
  const auto& ls = rig.gpu->launches();
  const double rate = double(ls[1].warp_instructions - ls[0].warp_instructions) / double(ls[1].cycles - ls[0].cycles);
  CHECK(rate == Approx(0.25).epsilon(0.02));
  CHECK(rig.counter("sched.structural") > 0);
}

TEST_CASE("sm: lrr rotates over the warps") {
  auto sets = simple_sm(1);
  sets.push_back({"sm.warp_scheduler", "lrr"});
  Rig rig(sets);
  auto t = run_order(rig, 4);
  // every warp starts before any warp finishes its 8 adds: strict rotation
  for (int w = 0; w < 3; ++w) CHECK(t[w].a < t[w + 1].a);
  CHECK(t[3].a < t[0].b);
  CHECK(t[1].a - t[0].a == 1);
}

TEST_CASE("sm: gto stays on one warp until it stalls then takes the oldest") {
  auto sets = simple_sm(1);
  sets.push_back({"sm.warp_scheduler", "gto"});
  Rig rig(sets);
  auto t = run_order(rig, 4);
  // greedy: each warp runs from A to B before the next warp starts; then by age
  for (int w = 0; w < 3; ++w) {
    CHECK(t[w].b < t[w + 1].a);
    CHECK(t[w].a < t[w + 1].a);
  }
}

TEST_CASE("sm: oldest-first issues in age order") {
  auto sets = simple_sm(1);
  sets.push_back({"sm.warp_scheduler", "oldest"});
  Rig rig(sets);
  auto t = run_order(rig, 4);
  for (int w = 0; w < 3; ++w) CHECK(t[w].b < t[w + 1].a);
  for (int w = 0; w < 3; ++w) CHECK(t[w].c <= t[w + 1].c);
}

TEST_CASE("sm: two-level keeps a small active set and demotes warps that wait on memory") {
  auto sets = simple_sm(1);
  sets.push_back({"sm.warp_scheduler", "two_level"});
  sets.push_back({"sm.two_level.active", "2"});
  sets.push_back({"sm.two_level.inner", "lrr"});
  Rig rig(sets);
  auto t = run_order(rig, 4);
  // warps 0 and 1 rotate; warps 2 and 3 only start once 0 and 1 are demoted on their loads
  CHECK(t[0].a < t[1].a);
  CHECK(t[1].a < t[0].b);
  CHECK(std::min(t[2].a, t[3].a) > std::max(t[0].b, t[1].b));
  // ... and they start before the loads of 0 and 1 return (demotion, not completion)
  CHECK(std::min(t[2].a, t[3].a) < std::min(t[0].c, t[1].c));
}

TEST_CASE("sm: a barrier holds every warp until the last one arrives") {
  Rig rig(simple_sm(4));
  const char* k = R"(
.visible .entry bar(.param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<20>;
  .reg .b64 %rd<6>;
  mov.u32 %r1, %tid.x;
  shr.u32 %r2, %r1, 5;
  mov.u32 %r5, 0;
  setp.ne.u32 %p1, %r2, 3;
  @%p1 bra ARRIVE;
LOOP:
  add.s32 %r5, %r5, 1;
  setp.lt.u32 %p2, %r5, 100;
  @%p2 bra LOOP;
ARRIVE:
  mov.u32 %r10, %clock;
  bar.sync 0;
  mov.u32 %r11, %clock;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r2, 8;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r10;
  st.global.u32 [%rd4+4], %r11;
  ret;
}
)";
  rig.dev->load_ptx(std::string(kHeader) + k, "bar.ptx");
  DevPtr out = rig.dev->malloc(32);
  rig.launch("bar", Dim3(1), Dim3(128), {arg(out)});
  auto v = rig.dev->download<uint32_t>(out, 8);
  const uint32_t last_arrival = v[2 * 3];
  for (int w = 0; w < 3; ++w) CHECK(v[2 * w] + 300 < last_arrival);   // warps 0-2 arrive long before warp 3
  for (int w = 0; w < 4; ++w) CHECK(v[2 * w + 1] > last_arrival);     // nobody passes before warp 3 arrives
}

TEST_CASE("sm: every scheduler-cycle is charged to exactly one issue outcome") {
  // copies not placed in L2, so requests reach every level down to DRAM
  Rig rig({{"gpu.num_sms", "2"}, {"l2.preload_copies", "false"}}, "gtx480");
  rig.dev->load_ptx(std::string(kHeader) + kOrderKernel, "order.ptx");
  DevPtr out = rig.dev->malloc(16 * 64);
  DevPtr in = rig.dev->upload(std::vector<uint32_t>{5});
  rig.launch("order", Dim3(8), Dim3(256), {arg(out), arg(in)});
  auto v = rig.stats.values();
  for (int s = 0; s < 2; ++s) {
    const std::string sm = "sm" + std::to_string(s);
    double active = v.at(sm + ".active_cycles");
    CHECK(active > 0);
    for (int k = 0; k < 2; ++k) {
      double sum = 0;
      for (const char* r : {"issued", "no_warp", "long_mem", "data", "structural", "barrier", "fetch", "other"})
        sum += v.at(sm + ".sched" + std::to_string(k) + "." + r);
      CHECK(sum == active);
    }
  }
  CHECK(v.at("sched.issued") == v.at("sm.warp_instructions"));
  CHECK(v.at("sm.warp_instructions") == v.at("gpu.warp_instructions"));
  // every request gets exactly one response, at every level of the hierarchy
  CHECK(v.at("ldst.requests") == v.at("ldst.responses"));
  CHECK(v.at("l1d.requests") == v.at("ldst.requests") - v.at("smem.requests"));
  for (const char* b : {"l1d", "smem", "icn", "l2", "dram"}) {
    INFO(b);
    if (std::string(b) != "smem") CHECK(v.at(std::string(b) + ".requests") > 0);  // this kernel uses no shared memory
    CHECK(v.at(std::string(b) + ".requests") == v.at(std::string(b) + ".responses"));
  }
}

TEST_CASE("sm: static warp limiting lets only the oldest warps issue") {
  auto sets = simple_sm(1);
  sets.push_back({"sm.warp_scheduler", "lrr"});
  sets.push_back({"sm.warp_limit", "2"});
  Rig rig(sets);
  auto t = run_order(rig, 4);
  CHECK(std::min(t[2].a, t[3].a) > std::max(t[0].c, t[1].c) - 2);  // 2 and 3 wait until 0 and 1 are done
  CHECK(rig.counter("sched.other") > 0);
}

namespace {
// A block with `smem` bytes of shared memory and some work, so blocks overlap.
std::string footprint_kernel(uint32_t smem);
}  // namespace

TEST_CASE("sm: static warp limiting lets a held warp through while its block waits at a barrier") {
  // One block of 4 warps and a limit of 2: warps 0 and 1 reach bar.sync and
  // wait for 2 and 3, which the limit holds; without the barrier rule the
  // block never finishes (the watchdog ends the run with an error).
  auto sets = simple_sm(1);
  sets.push_back({"sm.warp_limit", "2"});
  Rig rig(sets);
  rig.dev->load_ptx(footprint_kernel(512), "fp.ptx");  // a word per thread
  DevPtr out = rig.dev->malloc(4);
  CHECK_NOTHROW(rig.launch("fp", Dim3(1), Dim3(128), {arg(out)}));
  CHECK(rig.counter("sm.warp_instructions") == 4 * 162);  // every warp ran all 162 of its instructions
}

namespace {
std::string footprint_kernel(uint32_t smem) {
  std::ostringstream os;
  os << kHeader << ".visible .entry fp(.param .u64 out)\n{\n .reg .pred %p<2>;\n .reg .b32 %r<8>;\n .reg .b64 %rd<4>;\n"
     << " .shared .align 4 .b8 buf[" << smem << "];\n"
     << " mov.u32 %r1, %tid.x;\n shl.b32 %r2, %r1, 2;\n mov.u32 %r3, buf;\n add.s32 %r4, %r3, %r2;\n"
     << " st.shared.u32 [%r4], %r1;\n mov.u32 %r5, 0;\nLOOP:\n add.s32 %r5, %r5, 1;\n setp.lt.u32 %p1, %r5, 50;\n"
     << " @%p1 bra LOOP;\n bar.sync 0;\n ld.shared.u32 %r6, [%r4];\n ld.param.u64 %rd1, [out];\n"
     << " cvta.to.global.u64 %rd2, %rd1;\n st.global.u32 [%rd2], %r6;\n ret;\n}\n";
  return os.str();
}

// Resident blocks per SM the dispatcher reaches on ss_baseline (16 KB, 3072 threads, 16 blocks).
uint32_t peak_blocks(uint32_t smem, uint32_t threads) {
  Rig rig({{"gpu.num_sms", "2"}}, "ss_baseline");
  rig.dev->load_ptx(footprint_kernel(smem), "fp.ptx");
  DevPtr out = rig.dev->malloc(4);
  rig.launch("fp", Dim3(64), Dim3(threads), {arg(out)});
  return std::max(rig.gpu->sm(0).peak_resident_blocks(), rig.gpu->sm(1).peak_resident_blocks());
}
}  // namespace

// Baseline (unshared) blocks per SM of spec 000, Table 1 / section 6.4, reached by the live dispatcher.
TEST_CASE("sm: dispatcher occupancy backprop 9408 B by 256 threads is 1 block per SM") { CHECK(peak_blocks(9408, 256) == 1); }
TEST_CASE("sm: dispatcher occupancy FDTD3d 3840 B by 128 threads is 4 blocks per SM") { CHECK(peak_blocks(3840, 128) == 4); }
TEST_CASE("sm: dispatcher occupancy kmeans 4608 B by 576 threads is 3 blocks per SM") { CHECK(peak_blocks(4608, 576) == 3); }
TEST_CASE("sm: dispatcher occupancy lud 3872 B by 484 threads is 4 blocks per SM") { CHECK(peak_blocks(3872, 484) == 4); }
TEST_CASE("sm: dispatcher occupancy NW 8452 B by 32 threads is 1 block per SM") { CHECK(peak_blocks(8452, 32) == 1); }
TEST_CASE("sm: dispatcher occupancy without a shared-memory limit is the 16-block cap") { CHECK(peak_blocks(256, 64) == 16); }

TEST_CASE("sm: a writeback port limit delays results that complete in the same cycle") {
  // Two warps on two schedulers run dependent chains in lockstep: with one
  // writeback port their results collide every time and one chain slips.
  const char* k = R"(
.visible .entry chains(.param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<6>;
  mov.u32 %r1, %tid.x;
  shr.u32 %r2, %r1, 5;
  mov.u32 %r10, %clock;
  add.s32 %r3, %r1, 1;
  add.s32 %r3, %r3, 1;
  add.s32 %r3, %r3, 1;
  add.s32 %r3, %r3, 1;
  add.s32 %r3, %r3, 1;
  add.s32 %r3, %r3, 1;
  add.s32 %r3, %r3, 1;
  add.s32 %r3, %r3, 1;
  mov.u32 %r11, %clock;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r2, 8;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r10;
  st.global.u32 [%rd4+4], %r11;
  ret;
}
)";
  auto sets = simple_sm(6);
  for (auto& s : sets) {
    if (s.first == "sm.num_schedulers") s.second = "2";
    if (s.first == "sm.unit.int.count") s.second = "2";
  }
  sets.push_back({"sm.writeback_ports", "1"});
  Rig rig(sets);
  rig.dev->load_ptx(std::string(kHeader) + k, "chains.ptx");
  DevPtr out = rig.dev->malloc(16);
  rig.launch("chains", Dim3(1), Dim3(64), {arg(out)});
  auto v = rig.dev->download<uint32_t>(out, 4);
  const uint32_t span0 = v[1] - v[0], span1 = v[3] - v[2];
  // Without contention: the first add issues the cycle after the first clock read,
  // each later add L = 6 cycles after the one it depends on, and the second
  // clock read (independent of the chain) the cycle after the last add: 2 + 7L.
  // The shared port makes at least one chain longer.
  CHECK(std::min(span0, span1) >= 2 + 7 * 6);
  CHECK(std::max(span0, span1) > 2 + 7 * 6);
}

TEST_CASE("sm: an instruction cache costs misses that a perfect front end does not") {
  auto sets = simple_sm(4);
  sets.push_back({"sm.icache.perfect", "false"});
  sets.push_back({"sm.icache.size", "256"});
  sets.push_back({"sm.icache.line", "64"});
  sets.push_back({"sm.icache.assoc", "2"});
  sets.push_back({"sm.icache.miss_latency", "30"});
  Rig rig(sets);
  rig.dev->load_ptx(std::string(kHeader) + independent_kernel("ind192", 192), "ind.ptx");
  DevPtr out = rig.dev->malloc(4);
  rig.launch("ind192", Dim3(1), Dim3(32), {arg(out)});
  // 192+ instructions of 8 bytes span 25+ lines of 64 bytes; a 256-byte cache holds 4 of them.
  const double misses = rig.counter("icache.misses"), hits = rig.counter("icache.hits");
  CHECK(misses >= 24);
  CHECK(hits > 0);
  // every miss costs miss_latency cycles in which this single warp cannot issue
  CHECK(rig.gpu->launches()[0].cycles >= uint64_t(misses) * 30);
  CHECK(rig.counter("sched.fetch") >= misses * 29);
}

namespace {
// clk: each warp's lane 0 stores %clock read by its first instruction.
const char* kClockKernel = R"(
.visible .entry clk(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<6>;
  mov.u32 %r1, %clock;
  mov.u32 %r2, %tid.x;
  and.b32 %r3, %r2, 31;
  setp.ne.u32 %p1, %r3, 0;
  @%p1 bra DONE;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  shr.u32 %r4, %r2, 5;
  mul.wide.u32 %rd3, %r4, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r1;
DONE:
  ret;
}
)";

// The cycle each of `warps` warps read %clock first, and the launch's cycles.
std::pair<std::vector<uint32_t>, uint64_t> first_clocks(Rig& rig, uint32_t warps) {
  rig.dev->load_ptx(std::string(kHeader) + kClockKernel, "clk.ptx");
  DevPtr out = rig.dev->malloc(4 * warps);
  rig.launch("clk", Dim3(1), Dim3(32 * warps), {arg(out)});
  return {rig.dev->download<uint32_t>(out, warps), rig.gpu->launches().back().cycles};
}

std::vector<std::pair<std::string, std::string>> icache_from_memory() {
  auto sets = simple_sm(4);
  sets.push_back({"sm.icache.perfect", "false"});
  sets.push_back({"sm.icache.fill", "memory"});
  return sets;
}
}  // namespace

TEST_CASE("sm: a perfect front end fetches the first instructions in one cycle (reference for the fill tests)") {
  Rig rig(simple_sm(4));
  const auto [clk, cycles] = first_clocks(rig, 4);
  // the block's warps join at the SM's first edge (1) and fetch there; the buffer is
  // filled hit_latency (1) later and the first instruction issues then
  CHECK(clk[0] == 2);
}

TEST_CASE("sm: an instruction-cache miss filled from memory costs the memory's round trip, once per line") {
  Rig rig(icache_from_memory());
  const auto [clk, cycles] = first_clocks(rig, 4);
  // The fetch at the first edge (1) misses and its fill leaves then; the flat memory answers
  // 100 cycles later (101), the SM takes the answer at its next edge (a registered input:
  // 102) and the instructions are in the buffer hit_latency (1) later: the first instruction
  // issues at 103, where a perfect front end issues it at 2.
  CHECK(clk[0] == 1 + 100 + 1 + 1);
  // The other warps missed on the same line while it was in flight: they waited for the
  // one fill (merged), not for fills of their own, and got their instructions one per
  // cycle after it (the fetch stage serves one warp per cycle).
  for (uint32_t w = 1; w < 4; ++w) CHECK(clk[w] >= clk[0]);
  CHECK(clk[3] <= clk[0] + 8);
  const double misses = rig.counter("icache.misses");
  // the kernel's 15 instructions (120 bytes, from address 0 of instruction memory) fill one 128-byte line
  CHECK(misses == 1);
  CHECK(rig.counter("icache.merged") == 3);
  CHECK(rig.counter("readonly_port.requests") == misses);
  CHECK(rig.counter("readonly_port.responses") == misses);
  CHECK(rig.counter("mem.requests") >= misses);  // the fills went to memory
}

TEST_CASE("sm: instruction-cache MSHRs bound the lines in flight; a refused fetch waits for a fill") {
  auto sets = icache_from_memory();
  sets.push_back({"sm.icache.line", "16"});  // two instructions per line: the warps of a launch miss on many lines
  sets.push_back({"sm.icache.mshr_entries", "1"});
  sets.push_back({"sm.icache.mshr_merges", "2"});
  Rig rig(sets);
  const auto [clk, cycles] = first_clocks(rig, 4);
  // One line in flight at a time: the third and fourth warp find the entry's two requests
  // taken and are refused until the fill; every line of the kernel costs a full round trip
  // in turn, so the launch takes at least (lines) x 100 cycles.
  CHECK(rig.counter("icache.reservation_fails") > 0);
  CHECK(rig.counter("icache.misses") >= 8);
  CHECK(cycles >= uint64_t(rig.counter("icache.misses")) * 100);
  CHECK(clk[0] == 103);
  CHECK(clk[3] > clk[0]);
}

TEST_CASE("sm: kernel parameters read through the constant cache wait for its fill; a second launch hits") {
  auto sets = simple_sm(4);
  sets.push_back({"sm.ccache.fill", "memory"});
  sets.push_back({"sm.ccache.params", "true"});
  Rig rig(sets);
  rig.dev->load_ptx(std::string(kHeader) + chain_kernel("chain4", 4), "chain.ptx");
  DevPtr out = rig.dev->malloc(4 * 64);
  rig.launch("chain4", Dim3(1), Dim3(64), {arg(out)});
  const uint64_t first = rig.gpu->launches().back().cycles;
  // one parameter (8 bytes): one 64-byte line, missed by the first warp, merged by the second
  CHECK(rig.counter("ccache.misses") == 1);
  CHECK(rig.counter("ccache.merged") == 1);
  CHECK(rig.counter("readonly_port.requests") == 1);
  rig.launch("chain4", Dim3(1), Dim3(64), {arg(out)});
  const uint64_t second = rig.gpu->launches().back().cycles;
  CHECK(rig.counter("ccache.misses") == 1);  // the line stayed: the same kernel's parameter slot
  CHECK(rig.counter("ccache.hits") == 2);
  // the miss cost the memory's 100-cycle round trip that the second launch does not pay
  CHECK(first >= second + 100);
}

namespace {
// callk: each thread passes its index to a device function that doubles it; the
// argument and the result travel through .param (st.param a0, ld.param x in the
// callee, st.param r, ld.param rv at the call site).
const char* kCallKernel = R"(
.func (.param .b32 r) twice(.param .b32 x)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [x];
  add.s32 %r2, %r1, %r1;
  st.param.b32 [r], %r2;
  ret;
}
.visible .entry callk(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r5, %clock;
  {
  .param .b32 a0;
  st.param.b32 [a0], %r1;
  .param .b32 rv;
  call.uni (rv), twice, (a0);
  ld.param.b32 %r2, [rv];
  }
  add.s32 %r3, %r2, 0;
  mov.u32 %r6, %clock;
  sub.s32 %r7, %r6, %r5;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r3;
  st.global.u32 [%rd4+128], %r7;
  ret;
}
)";

// Runs callk with one warp: the cycles from before the call to after the first use of
// its result (the same for every lane), checking the result.
uint32_t call_cycles(Rig& rig) {
  rig.dev->load_ptx(std::string(kHeader) + kCallKernel, "call.ptx");
  DevPtr out = rig.dev->malloc(4 * 64);
  rig.launch("callk", Dim3(1), Dim3(32), {arg(out)});
  const auto v = rig.dev->download<uint32_t>(out, 64);
  for (uint32_t i = 0; i < 32; ++i) CHECK(v[i] == 2 * i);  // the value went through both copies
  for (uint32_t i = 1; i < 32; ++i) CHECK(v[32 + i] == v[32]);
  return v[32];
}
std::vector<std::pair<std::string, std::string>> call_params(const std::string& where) {
  auto sets = simple_sm(4);
  sets.push_back({"sm.call_params", where});
  return sets;
}
}  // namespace

TEST_CASE("sm: from the parameter buffer a call's parameters cost no memory access (reference for the next test)") {
  Rig rig(call_params("buffer"));
  const uint32_t cycles = call_cycles(rig);
  // only the kernel's two global stores are memory requests
  CHECK(rig.counter("mem.requests") == 2);
  CHECK(cycles < 100);  // no memory round trip on the way
}

TEST_CASE("sm: with sm.call_params local a call's parameters are local-memory accesses that wait for memory") {
  Rig rig(call_params("local"));
  const uint32_t cycles = call_cycles(rig);
  // Each of the four parameter accesses is one more request: a warp's word of a frame slot
  // is one 128-byte line of local memory, the lanes interleaved.
  CHECK(rig.counter("mem.requests") == 2 + 4);
  // The callee's load of its argument and the call site's load of the result read frame
  // words nothing has filled (the stores went to other words: the caller's argument, the
  // callee's result): each waits for the flat memory's 100-cycle round trip.
  CHECK(cycles >= 2 * 100);
}

namespace {
// Peak resident blocks per SM for fp (64 blocks of 256 threads) on 2 SMs of
// ss_baseline (65536 registers per SM) with `sets`, a ptxas register table
// (none if empty) and a launch's own register count (0: none).
uint32_t peak_blocks_with_registers(std::vector<std::pair<std::string, std::string>> sets, const std::string& table,
                                    uint32_t launch_regs) {
  sets.push_back({"gpu.num_sms", "2"});
  Rig rig(sets, "ss_baseline");
  rig.dev->load_ptx(footprint_kernel(1024), "fp.ptx");
  if (!table.empty()) rig.dev->load_compiled_registers(table, "fp.regs");
  if (launch_regs) rig.dev->set_registers_per_thread(launch_regs);
  DevPtr out = rig.dev->malloc(4);
  rig.launch("fp", Dim3(64), Dim3(256), {arg(out)});
  return std::max(rig.gpu->sm(0).peak_resident_blocks(), rig.gpu->sm(1).peak_resident_blocks());
}
}  // namespace

TEST_CASE("sm: registers per thread set for a launch limit the blocks per SM") {
  // 64 registers x 256 threads = 16384 per block: 4 blocks.
  CHECK(peak_blocks_with_registers({}, "", 64) == 4);
}


namespace {
// A random kernel of `phases` phases; each writes a word per thread (its thread
// id + phase + 1000 x block id) at a random scratchpad offset (private or shared
// region), waits at a barrier, reads its neighbour's word, and waits again.
// Every thread stores the sum it read.
std::string random_sharing_kernel(std::mt19937& rng, uint32_t bytes, uint32_t threads, std::vector<uint32_t>& offsets) {
  const uint32_t phases = 2 + rng() % 5;
  std::ostringstream os;
  os << kHeader << ".visible .entry rnd(.param .u64 out)\n{\n .reg .b32 %r<16>;\n .reg .b64 %rd<6>;\n"
     << " .shared .align 4 .b8 buf[" << bytes << "];\n"
     << " mov.u32 %r1, %tid.x;\n mov.u32 %r2, buf;\n shl.b32 %r3, %r1, 2;\n add.s32 %r4, %r1, 1;\n"
     << " rem.u32 %r4, %r4, " << threads << ";\n shl.b32 %r4, %r4, 2;\n mov.u32 %r10, 0;\n"
     << " mov.u32 %r13, %ctaid.x;\n mul.lo.u32 %r13, %r13, 1000;\n";  // each block writes its own values
  offsets.clear();
  for (uint32_t p = 0; p < phases; ++p) {
    const uint32_t off = (rng() % ((bytes - threads * 4) / 4 + 1)) * 4;
    offsets.push_back(off);
    os << " add.s32 %r5, %r2, " << off << ";\n add.s32 %r6, %r5, %r3;\n add.s32 %r7, %r1, " << p << ";\n add.s32 %r7, %r7, %r13;\n"
       << " st.shared.u32 [%r6], %r7;\n bar.sync 0;\n add.s32 %r8, %r5, %r4;\n ld.shared.u32 %r9, [%r8];\n"
       << " add.s32 %r10, %r10, %r9;\n bar.sync 0;\n";
  }
  os << " ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd2, %rd1;\n mov.u32 %r11, %ctaid.x;\n"
     << " mad.lo.s32 %r12, %r11, " << threads << ", %r1;\n mul.wide.u32 %rd3, %r12, 4;\n add.s64 %rd4, %rd2, %rd3;\n"
     << " st.global.u32 [%rd4], %r10;\n ret;\n}\n";
  return os.str();
}
}  // namespace

namespace {
// One physical scratchpad per SM: a pair's blocks write the same shared-region
// bytes, so a lock that let both in, or a relssp placed too early, changes the sums.
// With the passes the owner gives the region up by relssp; without, when it retires.
// (One simulation per process: each ordering and pass setting is its own test case.)
void sharing_stress(const char* sched, bool passes) {
    {
      std::mt19937 rng(2024 + uint32_t(std::string(sched).size()) * 7 + (passes ? 1 : 0));
      Rig rig({{"gpu.num_sms", "2"}, {"ss.enabled", "true"}, {"sm.warp_scheduler", sched},
               {"ss.compiler_passes", passes ? "true" : "false"}}, "ss_baseline");
      for (int round = 0; round < 6; ++round) {
        const uint32_t threads = 64 * (1 + rng() % 3);
        // a footprint that leaves scratchpad unused: 16384 / bytes is not whole
        const uint32_t bytes = 4 * (threads + rng() % (4096 - threads)) + 4 * threads;
        std::vector<uint32_t> offsets;
        const std::string ptx = random_sharing_kernel(rng, bytes, threads, offsets);
        rig.dev->load_ptx(ptx, "rnd" + std::to_string(round) + ".ptx");
        const uint32_t blocks = 20 + rng() % 20;
        DevPtr out = rig.dev->malloc(uint64_t(blocks) * threads * 4);
        INFO("round " << round << ": " << bytes << " bytes, " << threads << " threads, " << offsets.size() << " phases");
        REQUIRE_NOTHROW(rig.launch("rnd", Dim3(blocks), Dim3(threads), {arg(out)}));
        auto v = rig.dev->download<uint32_t>(out, size_t(blocks) * threads);
        uint32_t bad = 0;
        for (uint32_t b = 0; b < blocks; ++b)
          for (uint32_t t = 0; t < threads; ++t) {
            uint32_t want = 0;
            for (uint32_t p = 0; p < offsets.size(); ++p) want += (t + 1) % threads + p + b * 1000;
            bad += v[size_t(b) * threads + t] != want;
          }
        CHECK(bad == 0);
      }
      CHECK(rig.counter("ssp.shared_blocks") > 0);  // pairs were formed
      CHECK(rig.counter("ssp.lock_denials") > 0);   // and waited for each other's shared regions
      CHECK(rig.counter("ssp.lock_violations") == 0);
      if (passes) {
        CHECK(rig.counter("ssp.relssp_releases") > 0);
        CHECK(rig.counter("ssp.lock_acquires_after_relssp") > 0);  // partners took the region after the owner's relssp
      } else {
        CHECK(rig.counter("ssp.lock_transfers") > 0);  // partners inherited it when the owner retired
      }
    }
}
}  // namespace

TEST_CASE("sm: scratchpad sharing never deadlocks with barriers in a randomized stress of pairs under owf with the passes") {
  sharing_stress("owf", true);
}
TEST_CASE("sm: scratchpad sharing never deadlocks with barriers in a randomized stress of pairs under owf without the passes") {
  sharing_stress("owf", false);
}
TEST_CASE("sm: scratchpad sharing never deadlocks with barriers in a randomized stress of pairs under lrr with the passes") {
  sharing_stress("lrr", true);
}
TEST_CASE("sm: scratchpad sharing never deadlocks with barriers in a randomized stress of pairs under lrr without the passes") {
  sharing_stress("lrr", false);
}
TEST_CASE("sm: scratchpad sharing never deadlocks with barriers in a randomized stress of pairs under gto with the passes") {
  sharing_stress("gto", true);
}
TEST_CASE("sm: scratchpad sharing never deadlocks with barriers in a randomized stress of pairs under gto without the passes") {
  sharing_stress("gto", false);
}
TEST_CASE("sm: scratchpad sharing never deadlocks with barriers in a randomized stress of pairs under oldest with the passes") {
  sharing_stress("oldest", true);
}
TEST_CASE("sm: scratchpad sharing never deadlocks with barriers in a randomized stress of pairs under oldest without the passes") {
  sharing_stress("oldest", false);
}
TEST_CASE("sm: scratchpad sharing never deadlocks with barriers in a randomized stress of pairs under two_level with the passes") {
  sharing_stress("two_level", true);
}
TEST_CASE("sm: scratchpad sharing never deadlocks with barriers in a randomized stress of pairs under two_level without the passes") {
  sharing_stress("two_level", false);
}

namespace {
// Spec 000 section 3.2 (Figure 5): warps U (unshared), O (owner) and N
// (non-owner), one per block, each running I1 (mov), I2 (a shared-region
// load, result usable 5 cycles later) and I3 (an add that needs I2), then
// exit. O holds the pair's lock from the start. The issue log gives the
// timeline; cycles count from the first issue (= cycle 1).
struct OwfTimeline { std::map<std::pair<uint32_t, uint32_t>, uint64_t> at; uint64_t total = 0; };

SharingUnit& sharing_unit(Rig& rig) { return *static_cast<SharingUnit*>(rig.gpu->sm(0).mechanism("scratchpad_sharing")); }

std::unique_ptr<Rig> owf_rig(const char* exit_mode) {
  auto sets = simple_sm(1);
  sets.push_back({"sm.exit", exit_mode});  // the paper's example has no exit instruction: `decode`
  sets.push_back({"sm.warp_scheduler", "owf"});
  sets.push_back({"ss.enabled", "true"});
  sets.push_back({"sm.shared_mem", "2100"});  // R = 2100, R_tb = 1000, t = 0.1: D = 2, one pair (blocks 0 and 2), 3 blocks
  sets.push_back({"smem.latency", "4"});      // a shared load's result is usable 5 cycles after its issue
  sets.push_back({"sm.fetch_warps_per_cycle", "3"});
  sets.push_back({"sm.ibuffer_entries", "8"});
  auto rig = std::make_unique<Rig>(sets);
  const char* k = R"(
.visible .entry owf()
{
  .reg .b32 %r<4>;
  .shared .align 4 .b8 buf[1000];
  mov.u32 %r1, buf;
  ld.shared.u32 %r2, [%r1+500];
  add.s32 %r3, %r2, 1;
  ret;
}
)";
  rig->dev->load_ptx(std::string(kHeader) + k, "owf.ptx");
  sharing_unit(*rig).preassign_lock(0);  // block 0 = O (slot 0, paired with block 2 = N); block 1 = U
  return rig;
}

OwfTimeline owf_example(Rig& rig, bool unshared_first) {
  sharing_unit(rig).configure_owf(unshared_first, false);
  OwfTimeline t;
  uint64_t first = UINT64_MAX;
  std::vector<std::tuple<uint64_t, uint32_t, uint32_t>> log;
  rig.gpu->sm(0).on_issue = [&](uint64_t cyc, uint32_t blk, uint32_t, uint32_t pc) {
    first = std::min(first, cyc);
    log.emplace_back(cyc, blk, pc);
  };
  const double transfers = rig.stats.values()["ssp.lock_transfers"];
  rig.launch("owf", Dim3(3), Dim3(32), {});
  for (auto& [cyc, blk, pc] : log) t.at[{blk, pc}] = cyc - first + 1;
  // The paper counts an instruction of latency L issued in cycle c as done in
  // cycle c + L - 1: the example ends when N's I3 (a 1-cycle add) executes.
  t.total = t.at[{2, 2}];
  CHECK(rig.counter("ssp.lock_transfers") == transfers + 1);
  return t;
}
enum : uint32_t { O = 0, U = 1, N = 2, I1 = 0, I2 = 1, I3 = 2, EXIT = 3 };
}  // namespace

TEST_CASE("sm: Owner Warp First beats unshared-warp-first by 2 cycles on the paper's example") {
  auto rig = owf_rig("decode");
  OwfTimeline uwf = owf_example(*rig, true), owf = owf_example(*rig, false);
  CHECK(rig->counter("ssp.shared_blocks") == 4);
  CHECK(rig->counter("ssp.unshared_blocks") == 2);
  // Unshared-warp-first: U, then O, then N (Figure 5, left)
  CHECK(uwf.at[{U, I1}] == 1);
  CHECK(uwf.at[{U, I2}] == 2);
  CHECK(uwf.at[{O, I1}] == 3);
  CHECK(uwf.at[{O, I2}] == 4);
  CHECK(uwf.at[{N, I1}] == 5);
  CHECK(uwf.at[{O, I3}] == 9);   // O's load issued at 4 is usable at 9
  CHECK(uwf.at[{N, I2}] == 10);  // N waited for the lock until O finished
  // Owner-warp-first: O, then U, then N (Figure 5, right)
  CHECK(owf.at[{O, I1}] == 1);
  CHECK(owf.at[{O, I2}] == 2);
  CHECK(owf.at[{U, I1}] == 3);
  CHECK(owf.at[{U, I2}] == 4);
  CHECK(owf.at[{N, I1}] == 5);
  CHECK(owf.at[{O, I3}] == 7);
  CHECK(owf.at[{N, I2}] == 8);   // "overlapping with U"
  CHECK(owf.at[{U, I3}] == 9);
  INFO("unshared-first " << uwf.total << ", owner-first " << owf.total);
  CHECK(uwf.total == 15);
  CHECK(owf.total == 13);
}

TEST_CASE("sm: an issued exit costs the owner one cycle before the lock passes on the paper's example") {
  // With exit as an instruction of its own, each owner finishes one cycle later:
  // both totals move by one and OWF still saves 2 cycles.
  auto rig = owf_rig("issue");
  OwfTimeline uwf = owf_example(*rig, true), owf = owf_example(*rig, false);
  CHECK(uwf.at[{O, EXIT}] == 10);
  CHECK(uwf.at[{N, I2}] == 11);
  CHECK(owf.at[{O, EXIT}] == 8);
  CHECK(owf.at[{N, I2}] == 9);
  CHECK(uwf.total == 16);
  CHECK(owf.total == 14);
}

TEST_CASE("sm: address generation latency delays a load's request by its extra cycles") {
  // Flat memory of 100 cycles: a dependent add issues (L - 1) + 100 + 1 cycles after
  // its load (address generation, the memory, the writeback slot).
  auto sets = simple_sm(1);
  sets.push_back({"sm.op.mem.latency", "4"});
  Rig rig(sets);
  const char* k = R"(
.visible .entry ldadd(.param .u64 p)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd2, %rd1;
  ld.global.u32 %r1, [%rd2];
  add.s32 %r2, %r1, 1;
  st.global.u32 [%rd2], %r2;
  ret;
}
)";
  rig.dev->load_ptx(std::string(kHeader) + k, "ldadd.ptx");
  DevPtr p = rig.dev->upload(std::vector<uint32_t>{41});
  std::map<uint32_t, uint64_t> at;
  rig.gpu->sm(0).on_issue = [&](uint64_t cyc, uint32_t, uint32_t, uint32_t pc) { at.emplace(pc, cyc); };
  rig.launch("ldadd", Dim3(1), Dim3(32), {arg(p)});
  CHECK(rig.dev->download<uint32_t>(p, 1)[0] == 42);
  CHECK(at.at(3) - at.at(2) == (4 - 1) + 100 + 1);
}

namespace {
// 64 threads (2 warps): a guarded pair that splits the lanes 8 / 56 and a
// guarded store of 8 lanes among five unguarded instructions. Thread
// instructions (guard true): 64 x 5 + 8 + 56 + 8 = 392; active-lane
// instructions 8 x 64 = 512; warp instructions 2 x 8.
const char* kGuardKernel = R"(
.visible .entry guarded(.param .u64 out)
{
 .reg .pred %p<2>;
 .reg .b32 %r<4>;
 .reg .b64 %rd<4>;
 mov.u32 %r1, %tid.x;
 setp.lt.u32 %p1, %r1, 8;
 @%p1 add.u32 %r2, %r1, 1;
 @!%p1 add.u32 %r2, %r1, 2;
 ld.param.u64 %rd1, [out];
 cvta.to.global.u64 %rd2, %rd1;
 @%p1 st.global.u32 [%rd2], %r2;
 ret;
}
)";

void check_guard_counts(const std::string& mode) {
  Rig rig({{"gpu.num_sms", "1"}, {"sim.mode", mode}});
  rig.dev->load_ptx(std::string(kHeader) + kGuardKernel, "guarded.ptx");
  DevPtr out = rig.dev->malloc(4);
  rig.launch("guarded", Dim3(1), Dim3(64), {arg(out)});
  const LaunchResult& r = rig.gpu->launches().at(0);
  CHECK(r.warp_instructions == 2 * 8);
  CHECK(r.thread_instructions == 64 * 5 + 8 + 56 + 8);
  CHECK(r.lane_instructions == 8 * 64);
  CHECK(rig.counter("gpu.thread_instructions") == double(r.thread_instructions));
  CHECK(rig.counter("gpu.active_lane_instructions") == double(r.lane_instructions));
  if (mode == "timing") {  // the SM's issue-time counters agree with the retired blocks'
    CHECK(rig.counter("sm.thread_instructions") == double(r.thread_instructions));
    CHECK(rig.counter("sm.active_lane_instructions") == double(r.lane_instructions));
  }
}
}  // namespace

TEST_CASE("sm: thread instructions count the lanes whose guard is true, active-lane instructions every active lane") {
  check_guard_counts("timing");
}

TEST_CASE("functional: thread instructions count the lanes whose guard is true, active-lane instructions every active lane") {
  check_guard_counts("functional");
}

TEST_CASE("sm: the compiler's register count sets occupancy unless gpu.regs_per_thread or the launch says otherwise") {
  // fp's PTX estimate is small; a table entry of 64 registers x 256 threads = 16384 per block: 4 blocks.
  CHECK(peak_blocks_with_registers({}, "fp 64\n", 0) == 4);
}

TEST_CASE("sm: gpu.regs_per_thread overrides the compiler's register count") {
  CHECK(peak_blocks_with_registers({{"gpu.regs_per_thread", "128"}}, "fp 64\n", 0) == 2);
}

TEST_CASE("platform: with l2.preload_copies a host-to-device copy leaves every copied sector valid in its own L2 slice") {
  Rig rig({{"l2.preload_copies", "true"}}, "gtx480");  // 6 partitions of 2 sub-partitions: 12 slices
  const uint64_t bytes = 3000;  // spans 12 256-byte interleave chunks, so every slice
  std::vector<uint8_t> data(bytes, 7);
  const DevPtr b = rig.dev->malloc(bytes);
  rig.dev->memcpy_h2d(b, data.data(), bytes);
  const PartitionMap& map = rig.gpu->icn->map();
  REQUIRE(map.subpartitions == 2);
  REQUIRE(rig.gpu->l2s.size() == 12);
  std::set<uint32_t> slices;
  uint64_t sectors = 0;
  for (uint64_t a = b / 32 * 32; a < b + bytes; a += 32, ++sectors) {
    INFO("address " << a);
    const uint32_t s = map.slice_of(a);
    CHECK(rig.gpu->l2s[s]->valid(a));
    CHECK(!rig.gpu->l2s[s ^ 1]->valid(a));  // not in the other sub-partition of its partition
    slices.insert(s);
  }
  CHECK(slices.size() == rig.gpu->l2s.size());
  CHECK(rig.counter("l2.preloaded_sectors") == double(sectors));
  // a device-to-host copy changes nothing
  std::vector<uint8_t> back(bytes);
  rig.dev->memcpy_d2h(back.data(), b, bytes);
  CHECK(rig.counter("l2.preloaded_sectors") == double(sectors));
  CHECK(back == data);
}

namespace {
// One warp: chain A of K adds reading %r1 and %r2, then chain B of K adds
// reading %r1 and %r3, with %clock read between them (%r1 .. %r3 declared in
// order, so in consecutive register slots).
std::string collector_chains_kernel(int k) {
  std::ostringstream os;
  os << ".visible .entry occ(.param .u64 out)\n{\n .reg .b32 %r<16>;\n .reg .b64 %rd<4>;\n"
     << " mov.u32 %r1, %tid.x;\n mov.u32 %r2, 3;\n mov.u32 %r3, 5;\n mov.u32 %r10, %clock;\n";
  for (int i = 0; i < k; ++i) os << " add.s32 %r1, %r1, %r2;\n";
  os << " mov.u32 %r11, %clock;\n";
  for (int i = 0; i < k; ++i) os << " add.s32 %r1, %r1, %r3;\n";
  os << " mov.u32 %r12, %clock;\n ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd2, %rd1;\n"
     << " st.global.u32 [%rd2], %r10;\n st.global.u32 [%rd2+4], %r11;\n st.global.u32 [%rd2+8], %r12;\n"
     << " st.global.u32 [%rd2+12], %r1;\n ret;\n}\n";
  return os.str();
}
}  // namespace

TEST_CASE("sm: a register-bank conflict in the operand collector costs its cycle") {
  // Two banks: %r1 and %r2 sit in different banks, %r1 and %r3 in the same one.
  // A dependent add issued at t reads its operands from t + 2 (one read per bank
  // per cycle), goes to its unit 2 cycles after its last read and completes L
  // later: the chain's period is L + 4, and L + 5 when both operands share a bank.
  const uint32_t L = 4, K = 8;
  auto sets = simple_sm(L);
  sets.push_back({"sm.regfile_banks", "2"});
  Rig rig(sets);
  rig.dev->load_ptx(std::string(kHeader) + collector_chains_kernel(int(K)), "occ.ptx");
  // the slots the loader gave the registers: bank = (slot + warp slot) mod 2
  const KernelInfo* k = rig.dev->driver().find_kernel("occ");
  REQUIRE(k);
  std::vector<const Instr*> adds;
  for (const Instr& in : k->prog)
    if (in.op == Op::Add) adds.push_back(&in);
  REQUIRE(adds.size() == 2 * K);
  auto conflict = [](const Instr& in) {
    REQUIRE(in.nreads == 2);
    return (in.reads[0] + in.reads[1]) % 2 == 0;  // same parity: same bank
  };
  REQUIRE(!conflict(*adds.front()));  // chain A
  REQUIRE(conflict(*adds.back()));    // chain B
  DevPtr out = rig.dev->malloc(16);
  rig.launch("occ", Dim3(1), Dim3(32), {arg(out)});
  const auto v = rig.dev->download<uint32_t>(out, 4);
  CHECK(v[3] - K * (3 + 5) < 32);  // some lane's tid + K x 3 + K x 5: the chains ran
  // chain B's first add waits for A's last (period L + 4), then K - 1 periods of L + 5
  CHECK(v[2] - v[1] == (L + 4) + (K - 1) * (L + 5));
  // chain B conflicts K times; the stores, which read two registers, may add their own
  CHECK(rig.counter("collector.bank_conflict_cycles") >= K);
  CHECK(rig.counter("collector.reads") >= 4 * K);
}

TEST_CASE("sm: the unit's dispatch and writeback registers add their cycles to every dependent (sm.unit_stages)") {
  // As the bank-conflict case above (chain A period L + 4, chain B L + 5), each result passing two more
  // registers: periods of L + 6 and L + 7.
  const uint32_t L = 4, K = 8;
  auto sets = simple_sm(L);
  sets.push_back({"sm.regfile_banks", "2"});
  sets.push_back({"sm.unit_stages", "2"});
  Rig rig(sets);
  rig.dev->load_ptx(std::string(kHeader) + collector_chains_kernel(int(K)), "occ.ptx");
  DevPtr out = rig.dev->malloc(16);
  rig.launch("occ", Dim3(1), Dim3(32), {arg(out)});
  const auto v = rig.dev->download<uint32_t>(out, 4);
  CHECK(v[3] - K * (3 + 5) < 32);  // the chains ran
  CHECK(v[2] - v[1] == (L + 6) + (K - 1) * (L + 7));
}

namespace {
// Runs kernel `name` of `ptx` (its one parameter: an output buffer) as one warp; returns the buffer's `words`.
std::vector<uint32_t> run_one_warp(Rig& rig, const char* ptx, const std::string& name, uint32_t words) {
  rig.dev->load_ptx(std::string(kHeader) + ptx, name + ".ptx");
  DevPtr out = rig.dev->malloc(4 * words);
  rig.launch(name, Dim3(1), Dim3(32), {arg(out)});
  return rig.dev->download<uint32_t>(out, words);
}

// One warp: moves to %r1 (t - 2) and %r2 (t - 1), %clock at t, an integer multiply-add (latency 5) reading
// %r1, an independent add (latency 4) reading %r2, an add that depends on the second, %clock. A move's result
// is written 8 cycles after it issues (collector unit, read, dispatch, unit: 4; latency 4), so the multiply-add
// issues at t + 6 and the add at t + 7; they take their units at t + 10 and t + 11, and both results are
// written at t + 15. The dependent add issues then and the second %clock at t + 16. Returns that gap.
uint32_t same_cycle_results_gap(const std::vector<std::pair<std::string, std::string>>& extra) {
  auto sets = simple_sm(4);
  sets.push_back({"sm.regfile_banks", "16"});
  sets.push_back({"sm.op.imad.latency", "5"});
  sets.push_back({"sm.op.imad.ii", "1"});
  for (auto& e : extra) sets.push_back(e);
  Rig rig(sets);
  const char* k = R"(
.visible .entry rb(.param .u64 out)
{
 .reg .b32 %r<16>;
 .reg .b64 %rd<4>;
 mov.u32 %r1, %tid.x;
 mov.u32 %r2, 3;
 mov.u32 %r10, %clock;
 mad.lo.s32 %r5, %r1, %r1, %r1;
 add.s32 %r6, %r2, 7;
 add.s32 %r7, %r6, 1;
 mov.u32 %r11, %clock;
 ld.param.u64 %rd1, [out];
 cvta.to.global.u64 %rd2, %rd1;
 st.global.u32 [%rd2], %r10;
 st.global.u32 [%rd2+4], %r11;
 st.global.u32 [%rd2+8], %r7;
 st.global.u32 [%rd2+12], %r5;
 ret;
}
)";
  const auto v = run_one_warp(rig, k, "rb", 4);
  CHECK(v[2] == 11);
  return v[1] - v[0];
}
}  // namespace

namespace {
// Lanes 0-4 of one warp load a word each from five lines 12,288 B apart (one L1D set of 4 ways with the linear
// index, one L2 slice, where the copy left them), then each loads word 0 again once its first load is back. The
// five misses fill the set in the order the LD/ST unit sent them and the fifth evicts the first filled (LRU,
// allocating on fill). In lane order line 0 went first and is gone: the second load misses. Highest address
// first (GPGPU-Sim's order) line 0 went last and the second load hits. Returns the L1D hits.
double l1_hits_after_five_lines(const std::string& order) {
  Rig rig({{"gpu.num_sms", "1"}, {"l1d.allocate", "on_fill"}, {"l1d.hash", "linear"}, {"l1d.recency", "fill"},
           {"sm.line_order", order}},
          "gtx480");
  const char* k = R"(
.visible .entry five(.param .u64 out)
{
 .reg .pred %p<2>;
 .reg .b32 %r<8>;
 .reg .b64 %rd<8>;
 ld.param.u64 %rd1, [out];
 cvta.to.global.u64 %rd2, %rd1;
 mov.u32 %r1, %tid.x;
 setp.lt.u32 %p1, %r1, 5;
 @!%p1 bra DONE;
 mul.wide.u32 %rd3, %r1, 12288;
 add.s64 %rd4, %rd2, %rd3;
 ld.global.u32 %r2, [%rd4];
 and.b32 %r3, %r2, 0;
 cvt.u64.u32 %rd5, %r3;
 add.s64 %rd6, %rd2, %rd5;
 ld.global.u32 %r4, [%rd6];
 add.s32 %r5, %r4, %r2;
 st.global.u32 [%rd2+61568], %r5;
DONE:
 ret;
}
)";
  run_one_warp(rig, k, "five", 61568 / 4 + 1);  // (the store's line is in another set)
  CHECK(rig.counter("l1d.misses") >= 5);
  return rig.counter("l1d.hits");
}
}  // namespace

TEST_CASE("sm: in lane order an access's first line is filled first and evicted by its fifth") {
  CHECK(l1_hits_after_five_lines("lanes") == 0);
}

TEST_CASE("sm: highest address first, an access's lowest line is filled last and kept") {
  CHECK(l1_hits_after_five_lines("address_down") == 1);
}

namespace {
// l1d.unified_size: one warp's lanes 0..15 each load a line of their own, then load the same lines again
// once the first loads have returned; the second pass's L1D hits. The array is one set of 16 ways (2 KB);
// the kernel declares `shared` bytes of shared memory (0: none), which a carve-out of 1 KB holds.
double carve_out_second_pass_hits(uint32_t shared) {
  Rig rig({{"gpu.num_sms", "1"}, {"l1d.sets", "1"}, {"l1d.ways", "16"}, {"l1d.hash", "linear"},
           {"l1d.allocate", "on_fill"}, {"l1d.unified_size", "2048"}, {"l1d.carveouts", "0,1"}},
          "gtx480");
  std::ostringstream os;
  os << ".visible .entry carve(.param .u64 out)\n{\n .reg .pred %p<2>;\n .reg .b32 %r<8>;\n .reg .b64 %rd<8>;\n";
  if (shared) os << " .shared .align 4 .b8 buf[" << shared << "];\n";
  os << " ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd2, %rd1;\n mov.u32 %r1, %tid.x;\n";
  if (shared) os << " mov.u32 %r7, buf;\n st.shared.u32 [%r7], %r1;\n";
  os << " setp.lt.u32 %p1, %r1, 16;\n @!%p1 bra DONE;\n mul.wide.u32 %rd3, %r1, 128;\n add.s64 %rd4, %rd2, %rd3;\n"
     << " ld.global.u32 %r2, [%rd4];\n and.b32 %r3, %r2, 0;\n cvt.u64.u32 %rd5, %r3;\n add.s64 %rd6, %rd4, %rd5;\n"
     << " ld.global.u32 %r4, [%rd6];\n add.s32 %r5, %r4, %r2;\n st.global.u32 [%rd2+4096], %r5;\nDONE:\n ret;\n}\n";
  rig.dev->load_ptx(std::string(kHeader) + os.str(), "carve.ptx");
  DevPtr out = rig.dev->malloc(4096 + 4);
  rig.launch("carve", Dim3(1), Dim3(32), {arg(out)});
  CHECK(rig.counter("l1d.misses") >= 16);  // the first pass
  return rig.counter("l1d.hits");
}
}  // namespace

TEST_CASE("sm: with a unified L1D a launch without shared memory keeps every way") {
  CHECK(carve_out_second_pass_hits(0) == 16);
}

TEST_CASE("sm: with a unified L1D a launch's shared memory takes its carve-out's ways from the L1D") {
  // 512 shared bytes take the 1 KB carve-out: 8 of the 16 ways remain, and the second pass finds only the
  // 8 lines the first pass filled last
  CHECK(carve_out_second_pass_hits(512) == 8);
}

TEST_CASE("sm: a unified L1D refuses a bad carve-out list and a launch no carve-out holds") {
  GpuParams::declare(ParamTable::global());
  Config c;
  c.merge_file(std::string(WARPTLM_SOURCE_DIR) + "/scenarios/configs/qv100.yaml");
  CHECK_NOTHROW(L1Params::from(c));
  CHECK(L1Params::from(c).carve_out_ways(0) == 256);
  CHECK(L1Params::from(c).carve_out_ways(16 * 1024) == 224);  // 256 x (1 - 16 / 128)
  c.set("l1d.carveouts", "");
  CHECK_THROWS_WITH(L1Params::from(c), Catch::Contains("l1d.carveouts"));
  c.set("l1d.carveouts", "0,8,x");
  CHECK_THROWS_WITH(L1Params::from(c), Catch::Contains("l1d.carveouts"));
  c.set("l1d.carveouts", "0,256");
  CHECK_THROWS_WITH(L1Params::from(c), Catch::Contains("larger than l1d.unified_size"));
  // a launch whose shared memory on one SM no carve-out holds: 2 KB per block, two blocks per SM, carve-outs of 1 KB
  Rig rig({{"gpu.num_sms", "1"}, {"l1d.sets", "1"}, {"l1d.ways", "16"}, {"l1d.unified_size", "2048"},
           {"l1d.carveouts", "0,1"}},
          "gtx480");
  rig.dev->load_ptx(std::string(kHeader) + ".visible .entry big()\n{\n .shared .align 4 .b8 buf[2048];\n ret;\n}\n", "big.ptx");
  CHECK_THROWS_WITH(rig.launch("big", Dim3(2), Dim3(32), {}), Catch::Contains("l1d.carveouts"));
}

TEST_CASE("sm: result buses without an operand collector are refused, naming the key") {
  GpuParams::declare(ParamTable::global());
  Config c;
  c.merge_file(std::string(WARPTLM_SOURCE_DIR) + "/scenarios/configs/gtx480.yaml");
  c.set("sm.regfile_banks", "0");
  CHECK_THROWS_WITH(SmParams::from(c), Catch::Contains("sm.result_buses"));
  c.set("sm.result_buses", "0");
  CHECK_NOTHROW(SmParams::from(c));
}

TEST_CASE("sm: unbooked results may be written in the same cycle on one unit") {
  CHECK(same_cycle_results_gap({{"sm.int_alu", "sp_all"}, {"sm.unit.sp.count", "1"}}) == 16);
}

TEST_CASE("sm: a unit writes one result a cycle (sm.result_buses)") {
  // one SP unit (sm.int_alu: sp_all sends both there), two buses: the add enters its unit a cycle later
  CHECK(same_cycle_results_gap({{"sm.int_alu", "sp_all"}, {"sm.unit.sp.count", "1"}, {"sm.result_buses", "2"}}) == 17);
}

TEST_CASE("sm: the result buses bound the results the SM writes a cycle (sm.result_buses)") {
  CHECK(same_cycle_results_gap({{"sm.int_alu", "sp_all"}, {"sm.unit.sp.count", "2"}, {"sm.result_buses", "1"}}) == 17);
}

TEST_CASE("sm: results of two units on two result buses do not wait") {
  CHECK(same_cycle_results_gap({{"sm.int_alu", "sp_all"}, {"sm.unit.sp.count", "2"}, {"sm.result_buses", "2"}}) == 16);
}

TEST_CASE("sm: integer instructions leave the SP unit without sm.int_alu: sp_all") {
  // the two integer units take them: the single SP unit's completion slot does not matter
  CHECK(same_cycle_results_gap({{"sm.unit.sp.count", "1"}, {"sm.unit.int.count", "2"}, {"sm.result_buses", "2"}}) == 16);
}

namespace {
// Two schedulers, a warp each, K independent adds per warp on two SP units: the SM issues two a cycle. The
// span from the first %clock to the last.
uint32_t two_warp_adds_span(uint32_t K, uint32_t ports) {
  auto sets = simple_sm(4);
  sets.push_back({"sm.num_schedulers", "2"});
  sets.push_back({"sm.unit.sp.count", "2"});
  sets.push_back({"sm.int_alu", "sp_all"});
  sets.push_back({"sm.regfile_banks", "16"});
  sets.push_back({"sm.collectors.sp", "8"});
  sets.push_back({"sm.collector_ports.sp", std::to_string(ports)});
  Rig rig(sets);
  std::ostringstream os;
  os << kHeader << ".visible .entry ports(.param .u64 out)\n{\n .reg .b32 %r<" << K + 8 << ">;\n .reg .b64 %rd<6>;\n"
     << " mov.u32 %r1, %tid.x;\n mov.u32 %r3, %clock;\n";
  for (uint32_t i = 0; i < K; ++i) os << " add.s32 %r" << i + 6 << ", %r1, " << i << ";\n";
  os << " mov.u32 %r4, %clock;\n ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd2, %rd1;\n"
     << " shr.u32 %r2, %r1, 5;\n mul.wide.u32 %rd3, %r2, 8;\n add.s64 %rd4, %rd2, %rd3;\n"
     << " st.global.u32 [%rd4], %r3;\n st.global.u32 [%rd4+4], %r4;\n ret;\n}\n";
  rig.dev->load_ptx(os.str(), "ports.ptx");
  DevPtr out = rig.dev->malloc(16);
  rig.launch("ports", Dim3(1), Dim3(64), {arg(out)});
  const auto v = rig.dev->download<uint32_t>(out, 4);
  return std::max(v[1], v[3]) - std::min(v[0], v[2]);
}
}  // namespace

TEST_CASE("sm: one collector port takes one instruction a cycle into the group's collector units") {
  const uint32_t K = 16;
  // %r1 (the adds' source) is written 8 cycles after its move issues; then 2 K adds, one a cycle
  CHECK(two_warp_adds_span(K, 1) >= 2 * K + 8);
}

TEST_CASE("sm: two collector ports let two schedulers issue together") {
  const uint32_t K = 16;
  // %r1 written 8 cycles after its move; then each warp's K adds in the same cycles as the other's
  CHECK(two_warp_adds_span(K, 2) <= K + 8);
}

namespace {
// Sub-cores (sm.sub_cores): `warps` warps in one block on an SM of two schedulers (warp w in slot w, scheduler
// w mod 2), each K independent instructions of `body` (%r1 is the thread's index; `body` gets the instruction's
// number), %clock read before and after. Returns the span from the first %clock to the last, over the warps.
using Sets = std::vector<std::pair<std::string, std::string>>;
Sets sub_core_sm(bool sub_cores, const Sets& extra) {
  auto sets = simple_sm(4);
  sets.push_back({"sm.num_schedulers", "2"});
  sets.push_back({"sm.unit.sp.count", "2"});
  sets.push_back({"sm.unit.int.count", "2"});
  sets.push_back({"sm.unit.sfu.count", "2"});
  sets.push_back({"sm.unit.dp.count", "2"});
  sets.push_back({"sm.unit.branch.count", "2"});
  sets.push_back({"sm.int_alu", "sp_all"});
  sets.push_back({"sm.regfile_banks", "16"});
  sets.push_back({"sm.collectors.mem", "2"});
  sets.push_back({"sm.sub_cores", sub_cores ? "true" : "false"});
  for (auto& e : extra) sets.push_back(e);
  return sets;
}
template <class Body>
uint32_t sub_core_span(Rig& rig, uint32_t warps, uint32_t K, Body body) {
  std::ostringstream os;
  os << kHeader << ".visible .entry sc(.param .u64 out)\n{\n .reg .b32 %r<" << 2 * K + 8 << ">;\n .reg .b64 %rd<"
     << K + 8 << ">;\n .reg .f64 %fd<" << K + 4 << ">;\n"
     << " mov.u32 %r1, %tid.x;\n cvt.rn.f64.u32 %fd1, %r1;\n mov.u32 %r2, 3;\n mov.u32 %r3, %clock;\n";
  for (uint32_t i = 0; i < K; ++i) os << " " << body(i) << "\n";
  os << " mov.u32 %r4, %clock;\n ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd2, %rd1;\n"
     << " shr.u32 %r5, %r1, 5;\n mul.wide.u32 %rd3, %r5, 8;\n add.s64 %rd4, %rd2, %rd3;\n"
     << " st.global.u32 [%rd4], %r3;\n st.global.u32 [%rd4+4], %r4;\n ret;\n}\n";
  rig.dev->load_ptx(os.str(), "sc.ptx");
  DevPtr out = rig.dev->malloc(8 * warps);
  rig.launch("sc", Dim3(1), Dim3(32 * warps), {arg(out)});
  const auto v = rig.dev->download<uint32_t>(out, 2 * warps);
  uint32_t first = UINT32_MAX, last = 0;
  for (uint32_t w = 0; w < warps; ++w) first = std::min(first, v[2 * w]), last = std::max(last, v[2 * w + 1]);
  return last - first;
}
std::string independent_add(uint32_t i) { return "add.s32 %r" + std::to_string(i + 8) + ", %r1, " + std::to_string(i) + ";"; }
}  // namespace

TEST_CASE("sm: with sm.sub_cores a warp takes only its own sub-core's units") {
  // One warp (scheduler 0), K independent adds, each holding its SP unit 4 cycles (ii 4); 8 collector units.
  // Without sub-cores it takes both SP units: an add every 2 cycles once its operands are read. With them only
  // its own: every 4 cycles, and the second %clock waits for a collector unit (4 of the sub-core's), which
  // frees only as the first K - 4 adds enter the one unit.
  const uint32_t K = 32;
  const Sets extra = {{"sm.op.alu.ii", "4"}, {"sm.collectors.sp", "8"}};
  Rig shared(sub_core_sm(false, extra));
  Rig own(sub_core_sm(true, extra));
  const uint32_t both_units = sub_core_span(shared, 1, K, independent_add);
  const uint32_t one_unit = sub_core_span(own, 1, K, independent_add);
  CHECK(both_units <= 2 * K + 8);
  CHECK(one_unit >= 4 * (K - 4 - 1));
  CHECK(own.counter("sm0.unit.sp_busy_cycles") >= 4 * K);  // every add held its unit 4 cycles
}

TEST_CASE("sm: with sm.sub_cores a warp takes only its own sub-core's collector units") {
  // One warp, K independent adds (ii 1), two collector units for the SP set. A collector unit taken at t + 1 is
  // free again at t + 3 (reads at t + 2, dispatch), so with one unit the warp issues every 2 cycles; with two,
  // every cycle. Without sub-cores the warp has both; with them, its sub-core's one.
  const uint32_t K = 32;
  Rig shared(sub_core_sm(false, {{"sm.collectors.sp", "2"}}));
  Rig own(sub_core_sm(true, {{"sm.collectors.sp", "2"}}));
  Rig own_two(sub_core_sm(true, {{"sm.collectors.sp", "4"}}));
  CHECK(sub_core_span(shared, 1, K, independent_add) <= K + 8);
  CHECK(sub_core_span(own, 1, K, independent_add) >= 2 * (K - 1));
  CHECK(sub_core_span(own_two, 1, K, independent_add) <= K + 8);
}

namespace {
// Register-bank conflict cycles of `warps` warps each running K adds of two distinct registers, on two
// sub-cores with one bank each (sm.regfile_banks 2): every read pair of a warp conflicts in its own bank.
Sets one_bank_sub_cores() {
  return sub_core_sm(true, {{"sm.regfile_banks", "2"}, {"sm.collectors.sp", "8"}, {"sm.fetch_warps_per_cycle", "2"}});
}
double sub_core_bank_conflicts(Rig& rig, uint32_t warps) {
  const uint32_t K = 16;
  sub_core_span(rig, warps, K, [](uint32_t i) {
    return "add.s32 %r" + std::to_string(i + 8) + ", %r1, %r2;";
  });
  return rig.counter("sm0.collector.bank_conflict_cycles");
}
}  // namespace

TEST_CASE("sm: with sm.sub_cores a sub-core's register banks serve its own warps alone") {
  // Two warps, one per sub-core, issue the same reads in the same cycles. Each sub-core's warp conflicts with
  // itself in its one bank; the other sub-core's reads go to the other bank, so the two warps lose exactly
  // twice one warp's cycles. (WARPTLM_TEST_FAULT=sm_sub_core_banks_shared puts both in the first bank: the
  // test `... sub-core's register banks ... fault` checks that this comparison then fails.)
  Rig a(one_bank_sub_cores()), b(one_bank_sub_cores());
  const double one = sub_core_bank_conflicts(a, 1);
  CHECK(one >= 16);  // each add's second read waits a cycle
  CHECK(sub_core_bank_conflicts(b, 2) == 2 * one);
}

TEST_CASE("sm: sub-cores whose register banks were shared would conflict across warps (fault)") {
  // The test-only fault gives every sub-core's warps the first sub-core's bank: the two warps' reads now
  // collide, and the conflict cycles exceed twice one warp's, which the check above would catch.
  setenv("WARPTLM_TEST_FAULT", "sm_sub_core_banks_shared", 1);
  Rig a(one_bank_sub_cores()), b(one_bank_sub_cores());
  unsetenv("WARPTLM_TEST_FAULT");
  const double one = sub_core_bank_conflicts(a, 1);
  const double two = sub_core_bank_conflicts(b, 2);
  CHECK(two > 2 * one);
}

TEST_CASE("sm: a generic collector set serves every kind of instruction from one pool") {
  // K pairs of an integer add (SP set) and an FP64 add (SFU set), all independent. With one collector unit per
  // specialized set the two kinds are collected side by side, a pair every 2 cycles; one generic unit takes
  // them in turn, an instruction every 2 cycles.
  const uint32_t K = 16;
  const Sets units = {{"sm.unit.dp.lanes", "32"}, {"sm.op.dp.ii", "1"}, {"sm.op.dp.latency", "4"}};
  auto pair = [](uint32_t i) {
    return i % 2 ? "add.f64 %fd" + std::to_string(i / 2 + 2) + ", %fd1, %fd1;" : independent_add(i / 2);
  };
  Sets special = units, generic = units;
  special.insert(special.end(), {{"sm.collectors.sp", "1"}, {"sm.collectors.sfu", "1"}});
  generic.insert(generic.end(), {{"sm.collectors.generic", "1"}});
  Rig a(sub_core_sm(false, special));
  Rig b(sub_core_sm(false, generic));
  const uint32_t side_by_side = sub_core_span(a, 1, 2 * K, pair);
  const uint32_t one_pool = sub_core_span(b, 1, 2 * K, pair);
  CHECK(side_by_side <= 2 * K + 8);
  CHECK(one_pool >= 2 * (2 * K - 1));
}

TEST_CASE("sm: sub-cores are refused without an operand collector or with counts the schedulers do not divide") {
  GpuParams::declare(ParamTable::global());
  auto refused = [](const Sets& sets, const char* key) {
    Config c;
    c.merge_file(std::string(WARPTLM_SOURCE_DIR) + "/scenarios/configs/gtx480.yaml");
    c.set("sm.sub_cores", "true");
    c.set("sm.unit.sfu.count", "2");
    c.set("sm.unit.dp.count", "2");
    c.set("sm.unit.branch.count", "2");
    for (auto& [k, v] : sets) c.set(k, v);
    if (!key) {
      CHECK_NOTHROW(SmParams::from(c));
      return;
    }
    CHECK_THROWS_WITH(SmParams::from(c), Catch::Contains(key));
  };
  refused({}, nullptr);  // gtx480 with two of every unit: two sub-cores of 8 banks, 3 + 4 + 1 collector units
  refused({{"sm.regfile_banks", "0"}, {"sm.result_buses", "0"}}, "sm.sub_cores");
  refused({{"sm.regfile_banks", "15"}}, "sm.regfile_banks");
  refused({{"sm.collectors.sp", "5"}}, "sm.collectors.sp");
  refused({{"sm.collectors.generic", "3"}}, "sm.collectors.generic");
  refused({{"sm.unit.sfu.count", "1"}}, "sm.unit.sfu.count");
  refused({{"sm.shared_units", "even"}}, "sm.shared_units");
}

namespace {
// A branch that holds its unit 8 cycles, then an independent FP32 add, with %clock read before and after
// (integer moves: on the integer unit). Returns the gap.
uint32_t branch_then_add_gap(const char* pipe) {
  auto sets = simple_sm(4);
  sets.push_back({"sm.control_pipe", pipe});
  sets.push_back({"sm.op.branch.ii", "8"});
  sets.push_back({"sm.unit.sp.count", "1"});
  Rig rig(sets);
  const char* k = R"(
.visible .entry cp(.param .u64 out)
{
 .reg .b32 %r<8>;
 .reg .f32 %f<4>;
 .reg .b64 %rd<4>;
 mov.u32 %r1, %tid.x;
 mov.f32 %f1, 0f3F800000;
 ld.param.u64 %rd1, [out];
 cvta.to.global.u64 %rd2, %rd1;
 mov.u32 %r2, %clock;
 bra.uni NEXT;
NEXT:
 add.f32 %f2, %f1, %f1;
 mov.u32 %r3, %clock;
 st.global.u32 [%rd2], %r2;
 st.global.u32 [%rd2+4], %r3;
 st.global.f32 [%rd2+8], %f2;
 ret;
}
)";
  const auto v = run_one_warp(rig, k, "cp", 3);
  CHECK(v[2] == 0x40000000u);  // 2.0f
  return v[1] - v[0];
}
}  // namespace

TEST_CASE("sm: a branch on the branch unit leaves the SP unit free") {
  CHECK(branch_then_add_gap("branch") == 3);  // branch at t + 1, add at t + 2, %clock at t + 3
}

TEST_CASE("sm: branches take the SP units with sm.control_pipe: sp") {
  CHECK(branch_then_add_gap("sp") == 10);  // the add waits for the SP unit until t + 9
}

TEST_CASE("sm: a store's segment is the aligned run of sectors it writes") {
  CHECK(store_segment_bytes(0b0001) == 32);
  CHECK(store_segment_bytes(0b0100) == 32);
  CHECK(store_segment_bytes(0b0011) == 64);
  CHECK(store_segment_bytes(0b1100) == 64);
  CHECK(store_segment_bytes(0b0110) == 128);  // sectors 1 and 2 straddle the halves
  CHECK(store_segment_bytes(0b1001) == 128);
  CHECK(store_segment_bytes(0b1111) == 128);
}

namespace {
// Three stores on gtx480 (40-byte flits, 128 B lines): one word (sector 0), sectors 0 and 3 of the next line,
// sectors 2 and 3 of the one after. Every request takes one flit and a store's data the rest: returns the
// flits beyond one per request.
double store_extra_flits(const char* mode) {
  Rig rig({{"gpu.num_sms", "1"}, {"l2.preload_copies", "false"}, {"sm.store_data", mode}}, "gtx480");
  const char* k = R"(
.visible .entry seg(.param .u64 out)
{
 .reg .pred %p<2>;
 .reg .b32 %r<4>;
 .reg .b64 %rd<8>;
 mov.u32 %r1, %tid.x;
 ld.param.u64 %rd1, [out];
 cvta.to.global.u64 %rd2, %rd1;
 setp.eq.u32 %p1, %r1, 0;
 @%p1 st.global.u32 [%rd2], %r1;
 mul.wide.u32 %rd3, %r1, 96;
 add.s64 %rd4, %rd2, %rd3;
 st.global.u32 [%rd4+128], %r1;
 mul.wide.u32 %rd5, %r1, 32;
 add.s64 %rd6, %rd2, %rd5;
 st.global.u32 [%rd6+320], %r1;
 ret;
}
)";
  rig.dev->load_ptx(std::string(kHeader) + k, "seg.ptx");
  DevPtr out = rig.dev->malloc(512);
  REQUIRE(out % 128 == 0);
  rig.launch("seg", Dim3(1), Dim3(2), {arg(out)});
  const auto v = rig.dev->download<uint32_t>(out, 128);
  CHECK(v[32 + 24] == 1);  // lane 1's second store: 128 + 96 B
  CHECK(v[88] == 1);       // lane 1's third: 320 + 32 B
  double flits = 0;
  for (uint32_t q = 0; q < rig.gpu->l2s.size(); ++q) flits += rig.counter("icn.to_part" + std::to_string(q) + ".busy_cycles");
  return flits - rig.counter("icn.requests");
}
}  // namespace

TEST_CASE("sm: with sm.store_data: segment a store carries 32, 64 or 128 bytes") {
  CHECK(store_extra_flits("segment") == 0 + 3 + 1);  // 1, 4 and 2 flits
}

TEST_CASE("sm: with sm.store_data: line every store carries its line") {
  CHECK(store_extra_flits("line") == 3 + 3 + 3);
}

TEST_CASE("sm: an instruction holds its collector unit until its functional unit takes it") {
  // One SP-group collector unit: independent adds (one register read each) issue
  // every 2 cycles (issue t, collector unit at t + 1, read t + 2, dispatched at
  // t + 3, when the next instruction, issued at t + 2, takes the collector unit).
  const uint32_t K = 8;
  auto sets = simple_sm(4);
  sets.push_back({"sm.regfile_banks", "16"});
  sets.push_back({"sm.collectors.sp", "1"});
  Rig rig(sets);
  std::ostringstream os;
  os << kHeader << ".visible .entry ind(.param .u64 out)\n{\n .reg .b32 %r<" << K + 8 << ">;\n .reg .b64 %rd<4>;\n"
     << " mov.u32 %r1, %tid.x;\n add.s32 %r2, %r1, 1;\n mov.u32 %r3, %clock;\n";
  for (uint32_t i = 0; i < K; ++i) os << " add.s32 %r" << i + 6 << ", %r1, " << i << ";\n";
  os << " mov.u32 %r4, %clock;\n ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd2, %rd1;\n"
     << " st.global.u32 [%rd2], %r3;\n st.global.u32 [%rd2+4], %r4;\n st.global.u32 [%rd2+8], %r" << K + 5 << ";\n ret;\n}\n";
  rig.dev->load_ptx(os.str(), "ind.ptx");
  // the first %clock read holds the collector unit 1 issue cycle, or 2 if the loader gives %clock a register slot
  const KernelInfo* k = rig.dev->driver().find_kernel("ind");
  REQUIRE(k);
  REQUIRE(k->prog.size() > 3);
  const uint32_t hold = k->prog[2].nreads ? 2 : 1;  // mov %r3, %clock
  DevPtr out = rig.dev->malloc(12);
  rig.launch("ind", Dim3(1), Dim3(32), {arg(out)});
  const auto v = rig.dev->download<uint32_t>(out, 3);
  CHECK(v[2] - (K - 1) < 32);  // some lane's tid + K - 1
  CHECK(v[1] - v[0] == hold + 2 * K);
  CHECK(rig.counter("sched.structural") > 0);
}

namespace {
// One warp: a store that sets up the shared words, then three independent
// loads: a global load whose lanes are 128 B apart (32 line requests), a
// shared load whose lanes are 128 B apart (all 32 in bank 0 of 32 four-byte
// banks: a 32-way conflict) and a global load of one word. Returns the
// issue-cycle gaps (shared - first global, second global - shared).
std::pair<uint64_t, uint64_t> ldst_gaps(const std::string& occupancy) {
  auto sets = simple_sm(1);
  sets.push_back({"sm.ldst_occupancy", occupancy});
  sets.push_back({"sm.ldst_queue", "64"});  // the request queue never fills here: the gaps are the unit's
  sets.push_back({"smem.banks", "32"});
  sets.push_back({"smem.bank_width", "4"});
  sets.push_back({"smem.warp_parts", "1"});
  Rig rig(sets);
  const char* k = R"(
.visible .entry lsu(.param .u64 p)
{
 .reg .b32 %r<10>;
 .reg .b64 %rd<6>;
 .shared .align 4 .b8 buf[4096];
 mov.u32 %r1, %tid.x;
 ld.param.u64 %rd1, [p];
 cvta.to.global.u64 %rd2, %rd1;
 mul.wide.u32 %rd3, %r1, 128;
 add.s64 %rd4, %rd2, %rd3;
 mov.u32 %r6, buf;
 shl.b32 %r2, %r1, 7;
 add.u32 %r7, %r6, %r2;
 st.shared.u32 [%r7], %r1;
 ld.global.u32 %r3, [%rd4];
 ld.shared.u32 %r4, [%r7];
 ld.global.u32 %r5, [%rd2];
 add.s32 %r8, %r3, %r4;
 add.s32 %r9, %r8, %r5;
 st.global.u32 [%rd4], %r9;
 ret;
}
)";
  rig.dev->load_ptx(std::string(kHeader) + k, "lsu.ptx");
  const KernelInfo* kin = rig.dev->driver().find_kernel("lsu");
  REQUIRE(kin);
  std::vector<uint32_t> loads;  // ld.param, then the three measured loads
  for (uint32_t pc = 0; pc < kin->prog.size(); ++pc)
    if (kin->prog[pc].op == Op::Ld) loads.push_back(pc);
  REQUIRE(loads.size() == 4);
  std::vector<uint32_t> init(32 * 32, 0);
  init[0] = 5;
  DevPtr p = rig.dev->upload(init);
  std::map<uint32_t, uint64_t> at;
  rig.gpu->sm(0).on_issue = [&](uint64_t cyc, uint32_t, uint32_t, uint32_t pc) { at.emplace(pc, cyc); };
  rig.launch("lsu", Dim3(1), Dim3(32), {arg(p)});
  const auto v = rig.dev->download<uint32_t>(p, 32 * 32);
  for (uint32_t t = 0; t < 32; ++t) CHECK(v[32 * t] == (t == 0 ? 5u : 0u) + t + 5);  // each lane's three loads
  return {at.at(loads[2]) - at.at(loads[1]), at.at(loads[3]) - at.at(loads[2])};
}
}  // namespace

TEST_CASE("sm: with sm.ldst_occupancy interval memory instructions of any space follow one another each cycle") {
  const auto gaps = ldst_gaps("interval");
  CHECK(gaps.first == 1);
  CHECK(gaps.second == 1);
}

TEST_CASE("sm: with sm.ldst_occupancy accesses a memory instruction holds the LD/ST unit one cycle per access") {
  // 32 line requests hold the unit 32 cycles before the shared load; its
  // 32-way bank conflict holds it 32 more before the next global load.
  const auto gaps = ldst_gaps("accesses");
  CHECK(gaps.first == 32);
  CHECK(gaps.second == 32);
}

// ---------------------------------------------------------------- the LD/ST unit's coalescer

namespace {
// The coalescer's definition, byte by byte: each lane's bytes, in lane order, into the line holding them,
// listed in the order the lanes first reach them.
CoalescedLines coalesce_bytewise(const uint64_t* addr, uint32_t mask, uint32_t bytes, uint32_t line_bytes) {
  CoalescedLines c;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(mask >> l & 1)) continue;
    for (uint64_t b = addr[l]; b < addr[l] + bytes; ++b) {
      const uint64_t line = b / line_bytes;
      uint32_t j = 0;
      while (j < c.n && c.line[j] != line) ++j;
      if (j == c.n) c.line[c.n] = line, c.sectors[c.n] = c.lanes[c.n] = 0, ++c.n;
      c.sectors[j] |= 1u << (b % line_bytes / 32);
      c.lanes[j] |= 1u << l;
    }
  }
  return c;
}
}  // namespace

TEST_CASE("sm: the coalescer's lines, sectors and lanes match a byte-by-byte account for any access pattern") {
  // Unit strides, rows of a 2D block, broadcasts (to the warp, to each half), gathers, misaligned and vector
  // accesses, partial masks.
  std::mt19937_64 rng(7);
  size_t patterns = 0, multi_run = 0;
  for (uint32_t line_bytes : {128u, 32u}) {
    for (uint32_t bytes : {1u, 2u, 4u, 8u, 16u, 32u, 12u}) {
      for (int trial = 0; trial < 400; ++trial) {
        uint64_t addr[32];
        const uint64_t base = 0x1000000000ull + (rng() % 4096);
        const int kind = trial % 6;
        for (unsigned l = 0; l < 32; ++l) {
          switch (kind) {
            case 0: addr[l] = base + l * bytes; break;                                    // unit stride
            case 1: addr[l] = base + (l / 16) * 2048 + (l % 16) * bytes; break;           // two rows of 16
            case 2: addr[l] = base; break;                                                // one address
            case 3: addr[l] = base + (rng() % 1024); break;                               // a gather
            case 4: addr[l] = base + (l / 16) * 2048; break;                              // a row's element each half
            default: addr[l] = base + (l < 8 ? l * bytes : 4096 + (31 - l) * bytes); break;  // runs out of order
          }
        }
        const uint32_t mask = trial % 3 == 0 ? 0xFFFFFFFFu : uint32_t(rng());
        CoalescedLines got;
        coalesce_lines(addr, mask, bytes, line_bytes, got);
        const CoalescedLines want = coalesce_bytewise(addr, mask, bytes, line_bytes);
        CAPTURE(line_bytes, bytes, trial, kind, mask);
        REQUIRE(got.n == want.n);
        for (uint32_t j = 0; j < want.n; ++j) {
          CHECK(got.line[j] == want.line[j]);
          CHECK(got.sectors[j] == want.sectors[j]);
          CHECK(got.lanes[j] == want.lanes[j]);
        }
        ++patterns;
        multi_run += (kind == 1 || kind == 4) && want.n >= 2;
      }
    }
  }
  CHECK(patterns == 2 * 7 * 400);
  CHECK(multi_run > 0);  // the two-row pattern makes runs that share no line
}
