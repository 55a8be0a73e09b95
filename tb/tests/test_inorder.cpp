// The in-order stage pipeline (sm.pipeline.model: inorder), seed 001's
// baseline core: the stage model alone against the paper's walk-through of
// Fig. 2a (spec 001 sec. 1.5) and its writeback rule, then the SM running PTX
// on elastic_baseline: bank-conflict stalls equal the conflict cycles (spec
// claim 16), every issue-stage cycle is charged to one Fig. 6 outcome, a warp
// issues as 4 subwarps, and strict barrel processing spaces a warp's
// instructions by the pipeline's depth.
#include <catch2/catch.hpp>

#include <map>
#include <sstream>

#include "common/config.hpp"
#include "common/stats.hpp"
#include "gpu/gpu_platform.hpp"
#include "runtime/device.hpp"
#include "runtime/testbench.hpp"
#include "sm/inorder_pipeline.hpp"
#include "sm/sm.hpp"
#include "inorder_rig.hpp"

using namespace warptlm;
using namespace warptlm::test;

namespace {

// Drives the stage model alone: the issue stage sends subwarp n at the first
// cycle it may; `degree(n)` is its MEM0 cycles, `writes(n)` whether it needs
// the port; `port_taken(t)` says the interconnect holds the port in cycle t.
struct Walk {
  std::map<uint32_t, uint64_t> issued, wrote;  // subwarp -> cycle
  std::vector<uint64_t> refused;               // cycles the issue stage could not issue
  std::vector<StagePipeline::Hold> why;      // and why
  std::vector<uint64_t> wb_bubbles;            // cycles nothing left WB
};

template <class Degree, class PortTaken>
Walk walk(uint32_t front, uint32_t exe, uint32_t mem, uint32_t n, Degree degree, PortTaken port_taken,
          bool all_write = true) {
  InOrderPipeline p;
  p.configure(front, exe, mem);
  Walk w;
  uint32_t next = 0;
  for (uint64_t t = 0; t < 200 && (next < n || !p.empty()); ++t) {
    if (next < n) {
      if (p.can_issue()) {
        Subwarp s;
        s.slot = next;
        s.mem0_cycles = uint8_t(degree(next));
        s.writes = all_write;
        s.last = true;
        p.issue(s);
        w.issued[next++] = t;
      } else {
        w.refused.push_back(t);
        w.why.push_back(p.frozen_by());
      }
    }
    struct Sink : SubwarpSink {
      Walk& w;
      uint64_t t;
      bool left = false;
      Sink(Walk& w, uint64_t t) : w(w), t(t) {}
      void leave(const Subwarp& s) override { w.wrote[s.slot] = t; left = true; }
    } sink(w, t);
    p.step(port_taken(t) ? 0 : 1, sink);
    if (!sink.left && t >= 5) w.wb_bubbles.push_back(t);
  }
  return w;
}

}  // namespace

TEST_CASE("inorder: the pipeline's depth and MEM0 follow its stage counts") {
  InOrderPipeline p;
  p.configure(18, 1, 4);
  CHECK(p.depth() == 24);  // spec 001 Table 4: 24 stages
  CHECK(p.mem0() == 19);
  p.configure(2, 1, 2);    // Fig. 2's illustration: F, D, EXE, MEM0, MEM1, WB
  CHECK(p.depth() == 6);
  CHECK(p.mem0() == 3);
}

// Fig. 2a: W_i (issued at cycle i = 3) is a shared access of degree 2. It
// blocks the front end in i+3 (W_{i+3} stays in F), so nothing issues in
// i+4; MEM1 gets a bubble in i+4 that reaches WB in i+5; W_i writes back in
// i+6 and every later W_j at j+6.
TEST_CASE("inorder: Fig. 2a, a degree-2 conflict at MEM0 stalls the front end one cycle and leaves one WB bubble") {
  const uint32_t i = 3;
  Walk w = walk(2, 1, 2, 9, [&](uint32_t n) { return n == i ? 2 : 1; }, [](uint64_t) { return false; });
  for (uint32_t j = 0; j < i; ++j) CHECK(w.wrote[j] == j + 5);  // before the conflict: issue + 5
  REQUIRE(w.refused.size() == 1);
  CHECK(w.refused[0] == i + 4);
  CHECK(w.why[0] == StagePipeline::Hold::BankConflict);
  CHECK(w.wrote[i] == i + 6);
  for (uint32_t j = i + 1; j <= i + 3; ++j) CHECK(w.wrote[j] == j + 6);  // issued before the stall: one cycle late
  CHECK(w.issued[i + 4] == i + 5);                                        // the next fetch waits out the stall
  CHECK(w.wrote[i + 4] == i + 10);
  REQUIRE(!w.wb_bubbles.empty());
  CHECK(w.wb_bubbles[0] == i + 5);
}

TEST_CASE("inorder: a degree-d conflict holds the front end d - 1 cycles (spec claim 16)") {
  for (uint32_t d : {1u, 3u, 8u}) {
    Walk w = walk(18, 1, 4, 30, [&](uint32_t n) { return n == 2 ? d : 1; }, [](uint64_t) { return false; });
    CHECK(w.refused.size() == d - 1);
    CHECK(w.wrote[2] == w.issued[2] + 23 + (d - 1));  // 24 stages: WB 23 cycles after issue, plus the hold
  }
}

TEST_CASE("inorder: data returning from the interconnect takes WB first; a result that finds no port holds the pipeline") {
  // The port is taken in cycle 7, when subwarp 2 (issued at 2) reaches WB of the 6-stage pipeline.
  Walk w = walk(2, 1, 2, 6, [](uint32_t) { return 1; }, [](uint64_t t) { return t == 7; });
  CHECK(w.wrote[1] == 6);
  CHECK(w.wrote[2] == 8);  // one cycle late
  CHECK(w.wrote[3] == 9);  // and everything behind it
  REQUIRE(w.refused.size() == 1);
  CHECK(w.refused[0] == 8);  // the issue stage, frozen in 7, cannot take a new subwarp in 8
  CHECK(w.why[0] == StagePipeline::Hold::Writeback);
  // A subwarp with no register result (a store, a branch) needs no port and does not hold.
  Walk s = walk(2, 1, 2, 6, [](uint32_t) { return 1; }, [](uint64_t t) { return t == 7; }, false);
  CHECK(s.wrote[2] == 7);
  CHECK(s.refused.empty());
}

// ---------------------------------------------------------------- the SM on elastic_baseline


TEST_CASE("inorder: on elastic_baseline bank-conflict stalls equal the conflict cycles, 7 per degree-8 part (claim 16)") {
  Rig rig(Sets{});
  run_strided(rig, 8);
  // 2 warps x 2 shared instructions x 4 parts x (8 - 1) extra cycles; no global load returns to hold WB
  CHECK(rig.counter("shmem_bank_conflicts") == 2 * 2 * 4 * 7);
  CHECK(rig.counter("pipe.stall_bank_conflict") == rig.counter("shmem_bank_conflicts"));
  check_taxonomy(rig);
}

// The analytical check's cd is per SIMD access: a subwarp with no active lane
// passes MEM0 (one cycle) but is no access. 40 threads: warp 1 has one active
// subwarp of 4, so each of the 2 shared instructions makes 5 accesses of 8 subwarps.
TEST_CASE("inorder: idle subwarps pass MEM0 but the SIMD-access counts leave them out") {
  Rig rig(Sets{});
  run_strided(rig, 8, 40);
  CHECK(rig.counter("pipe.shared_subwarps") == 2 * 2 * 4);
  CHECK(rig.counter("pipe.shared_active_subwarps") == 2 * 5);
  CHECK(rig.counter("pipe.shared_active_mem0_cycles") == 2 * 5 * 8);  // every active part at degree 8
  CHECK(rig.counter("pipe.shared_mem0_cycles") == 2 * 5 * 8 + 2 * 3);  // and 3 idle parts at one cycle each
}

TEST_CASE("inorder: without conflicts the same kernel has no bank-conflict stall") {
  Rig rig(Sets{});
  run_strided(rig, 1);
  CHECK(rig.counter("shmem_bank_conflicts") == 0);
  CHECK(rig.counter("pipe.stall_bank_conflict") == 0);
  check_taxonomy(rig);
}

namespace {

// Issue cycles of each warp of a one-warp-per-thread-group kernel of independent adds.
std::map<uint32_t, std::vector<uint64_t>> issue_log(Rig& rig) {
  std::map<uint32_t, std::vector<uint64_t>> log;
  rig.gpu->sm(0).on_issue = [&](uint64_t c, uint32_t, uint32_t warp, uint32_t) { log[warp].push_back(c); };
  std::ostringstream os;
  os << kHeader << ".visible .entry indep(.param .u64 out)\n{\n .reg .b32 %r<20>;\n .reg .b64 %rd<5>;\n"
     << " mov.u32 %r1, %tid.x;\n";
  for (int i = 0; i < 12; ++i) os << " add.s32 %r" << i + 2 << ", %r1, " << i << ";\n";
  os << " ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd2, %rd1;\n mul.wide.u32 %rd3, %r1, 4;\n"
     << " add.s64 %rd4, %rd2, %rd3;\n st.global.u32 [%rd4], %r13;\n ret;\n}\n";
  rig.dev->load_ptx(os.str(), "indep.ptx");
  DevPtr out = rig.dev->malloc(64 * 4);
  rig.launch("indep", Dim3(1), Dim3(64), {arg(out)});
  auto v = rig.dev->download<uint32_t>(out, 64);
  for (uint32_t t = 0; t < 64; ++t) REQUIRE(v[t] == t + 11);
  return log;
}

uint64_t min_gap(const std::map<uint32_t, std::vector<uint64_t>>& log) {
  uint64_t g = UINT64_MAX;
  for (auto& [w, c] : log)
    for (size_t k = 1; k < c.size(); ++k) g = std::min(g, c[k] - c[k - 1]);
  return g;
}

}  // namespace

TEST_CASE("inorder: under strict barrel processing a warp issues again only after its last subwarp left WB") {
  Rig rig(Sets{});
  auto log = issue_log(rig);
  REQUIRE(log.size() == 2);
  // last subwarp issued 3 cycles after the first, 23 more to WB, eligible the cycle after: 24 + 4 - 1
  CHECK(min_gap(log) == 27);
  check_taxonomy(rig);
}

TEST_CASE("inorder: with relaxed barrel processing independent instructions of one warp follow each other") {
  Rig rig(Sets{{"sm.barrel", "relaxed"}});
  auto log = issue_log(rig);
  REQUIRE(log.size() == 2);
  CHECK(min_gap(log) >= 4);  // at least its 4 subwarp issue slots
  CHECK(min_gap(log) < 27);  // but not the pipeline's depth
  check_taxonomy(rig);
}

TEST_CASE("inorder: the in-order pipeline refuses configurations it cannot model, naming the key") {
  GpuParams::declare(ParamTable::global());
  auto refuse = [](const std::string& key, const std::string& value) {
    Config c;
    c.merge_file(std::string(WARPTLM_SOURCE_DIR) + "/scenarios/configs/elastic_baseline.yaml");
    c.set(key, value);
    CHECK_THROWS_WITH(SmParams::from(c), Catch::Contains(key));
  };
  refuse("sm.num_schedulers", "2");
  refuse("sm.issue_width", "2");
  refuse("sm.regfile_banks", "4");
  refuse("sm.exit", "decode");
  refuse("sm.pipeline.simd_width", "6");
}

TEST_CASE("inorder: the shared memory's parts must be the pipeline's subwarps") {
  CHECK_THROWS_WITH(Rig(Sets{{"smem.warp_parts", "2"}}), Catch::Contains("smem.warp_parts"));
}
