// The SPU mesh's timing platform as an architect runs it: whole workloads
// through `warptlm run --platform spu` (seed 003; models/cbmesh/README.md).
// The timing mesh moves the same data as the functional mesh, its CB ports
// and barrier cost time, its checks fail when the mesh is broken, and the
// report's comparison against the GPU (spec 003 claim 11) comes out of the
// same runs the experiment makes (scenarios/experiments/spu.yaml).
#include <catch2/catch.hpp>
#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <map>

#include "cli_util.hpp"

using namespace cli_util;

namespace {

struct Run {
  std::map<std::string, double> counters;
  double cycles = 0;  // summed over the run's kernels
  std::string out;
  int code = -1;
};

Run run(const TempDir& t, const std::string& args) {
  static int n = 0;
  const std::string out = t / ("run" + std::to_string(n++));
  Run r;
  auto c = warptlm(t, "run " + args + " -q --out " + q(out));
  r.code = c.code;
  r.out = c.out;
  if (c.code != 0) return r;
  const YAML::Node s = YAML::LoadFile(out + "/stats.json");
  for (auto kv : s["counters"]) r.counters[kv.first.as<std::string>()] = kv.second.as<double>();
  for (auto k : s["kernels"]) r.cycles += k["cycles"].as<double>();
  return r;
}

#ifdef WARPTLM_SANITIZED
// Instrumented runs cost ten times as much: tiny grids on a 2 x 2 mesh, which still take several passes.
const std::string kSized = "--size tiny --set spu.rows=2 --set spu.cols=2";
const int kMeshSms = 4;
#else
const std::string kSized = "--size small";
const int kMeshSms = 16;
#endif

double sum_of(const Run& r, const std::string& prefix) {
  double v = 0;
  for (const char* s : {"sm", "iu", "viu"}) v += r.counters.at(prefix + s);
  return v;
}

}  // namespace

TEST_CASE("spu timing: the timing mesh moves the functional mesh's data, counts and instructions, every variant", "[ci]") {
  TempDir t;
  for (const char* wl : {"spu_matmul", "spu_jacobi"}) {
    for (const char* variant : {"", "--set spu.rows=2 --set spu.cols=3", "--set spu.restart=true",
                                "--set spu.skip_trailing_syncs=true", "--set spu.skip_trailing_syncs=true --set spu.restart=true"}) {
      INFO(wl << " " << variant);
      const std::string args = std::string("--workload ") + wl + " " + kSized + " --platform spu " + variant;
      Run f = run(t, args + " --set sim.mode=functional");
      Run m = run(t, args + " --set sim.mode=timing");
      INFO(f.out << m.out);
      REQUIRE(f.code == 0);  // both verified against the CPU reference
      REQUIRE(m.code == 0);
      for (const auto& kv : f.counters)
        if (kv.first.rfind("spu.", 0) == 0) {
          INFO(kv.first);
          CHECK(m.counters.at(kv.first) == kv.second);
        }
      CHECK(m.counters.at("gpu.thread_instructions") == f.counters.at("gpu.thread_instructions"));
      // Warp instructions may only grow: a unit that reads %restart before the barrier takes an unleash
      // (at its edge, after the SMs') branches into bar.unleashvius too, where the functional mesh, which
      // sets %restart at once, branches past it (each path is 32 threads: one warp instruction apart).
      CHECK(m.counters.at("gpu.warp_instructions") >= f.counters.at("gpu.warp_instructions"));
      CHECK(m.counters.at("gpu.warp_instructions") <= f.counters.at("gpu.warp_instructions") * 1.01);
      // The SMs' own LD/ST counts equal the mesh's by source; every CB access went through a CB port.
      CHECK(m.counters.at("ldst.global_load_lanes") == sum_of(m, "spu.global_loads."));
      CHECK(m.counters.at("ldst.global_store_lanes") == sum_of(m, "spu.global_stores."));
      CHECK(m.counters.at("cb.requests") > 0);
      CHECK(m.counters.at("cb.responses") == m.counters.at("cb.requests"));
      CHECK(m.counters.at("cb.accesses") == m.counters.at("cb.requests"));
      const double lanes = m.counters.at("spu.cb_loads") + m.counters.at("spu.cb_stores");
      CHECK(lanes >= m.counters.at("cb.requests"));
      CHECK(lanes <= 32 * m.counters.at("cb.requests"));
      CHECK(m.counters.at("spu.virtual_blocks") > 0);  // passes hand over through spills and restores
      CHECK(m.cycles > 0);
    }
  }
}

TEST_CASE("spu timing: units that leave after their last CB access skip the multiply's trailing synchronisations") {
  // spu.skip_trailing_syncs (the report's improvement, sec. 5): block (I, J) of spu_matmul leaves after step
  // I + J + k / T + 1 instead of the schedule's 2 G + k / T - 1, so every pass but the last is shorter, and the
  // virtual IUs spill and restore only while the pass runs. The stencil's blocks have no trailing steps: only
  // its interface units, which never touch a CB, leave at once.
  TempDir t;
  const std::string mm = "--workload spu_matmul " + kSized + " --platform spu";
  Run all = run(t, mm), skip = run(t, mm + " --set spu.skip_trailing_syncs=true");
  INFO(all.out << skip.out);
  REQUIRE(all.code == 0);  // both verified against the CPU reference
  REQUIRE(skip.code == 0);
  REQUIRE(all.counters.at("spu.passes") > 1);
  CHECK(skip.counters.at("spu.block_syncs") < all.counters.at("spu.block_syncs"));
  CHECK(skip.counters.at("spu.global_stores.viu") < all.counters.at("spu.global_stores.viu"));
  CHECK(skip.counters.at("spu.global_stores.viu") > 0);  // passes still hand over through spills
  CHECK(skip.counters.at("spu.global_loads.iu") == all.counters.at("spu.global_loads.iu"));  // the same tiles in
  CHECK(skip.counters.at("spu.cb_stores") < all.counters.at("spu.cb_stores"));  // fewer VIU spills' steps restored
  CHECK(skip.cycles < all.cycles);
  const std::string jc = "--workload spu_jacobi " + kSized + " --platform spu";
  Run jall = run(t, jc), jskip = run(t, jc + " --set spu.skip_trailing_syncs=true");
  REQUIRE(jall.code == 0);
  REQUIRE(jskip.code == 0);
  CHECK(jskip.counters.at("spu.block_syncs") == jall.counters.at("spu.block_syncs"));
  CHECK(jskip.counters.at("spu.cb_loads") == jall.counters.at("spu.cb_loads"));
  CHECK(jskip.counters.at("gpu.warp_instructions") < jall.counters.at("gpu.warp_instructions"));  // IUs leave
}

TEST_CASE("spu timing: DMA interface units (spu.iu_model: dma) run the IUs' programs with no SM and move the same data") {
  TempDir t;
  for (const char* wl : {"spu_matmul", "spu_jacobi"}) {
    INFO(wl);
    const std::string args = std::string("--workload ") + wl + " " + kSized + " --platform spu";
    Run sm = run(t, args), dma = run(t, args + " --set spu.iu_model=dma"),
        fdma = run(t, args + " --set spu.iu_model=dma --set sim.mode=functional");
    INFO(sm.out << dma.out << fdma.out);
    REQUIRE(sm.code == 0);  // each verified against the CPU reference
    REQUIRE(dma.code == 0);
    REQUIRE(fdma.code == 0);
    // The same programs move the same data: every mesh counter but the engines' own equals the reduced-SM
    // run's, in timing and on the functional mesh.
    for (const auto& kv : sm.counters)
      if (kv.first.rfind("spu.", 0) == 0 && kv.first.rfind("spu.dma.", 0) != 0) {
        INFO(kv.first);
        CHECK(dma.counters.at(kv.first) == kv.second);
        CHECK(fdma.counters.at(kv.first) == kv.second);
      }
    // The IUs' instructions ran on the engines' sequencers, not on SMs; the platform has the mesh's SMs only.
    CHECK(dma.counters.at("spu.dma.thread_instructions") > 0);
    CHECK(dma.counters.at("gpu.thread_instructions") + dma.counters.at("spu.dma.thread_instructions") ==
          sm.counters.at("gpu.thread_instructions"));
    CHECK(fdma.counters.at("spu.dma.thread_instructions") == dma.counters.at("spu.dma.thread_instructions"));
    CHECK(fdma.counters.at("gpu.thread_instructions") == dma.counters.at("gpu.thread_instructions"));
    const std::string first_iu = "sm" + std::to_string(kMeshSms) + ".active_cycles";
    CHECK(sm.counters.count(first_iu) == 1);
    CHECK(dma.counters.count(first_iu) == 0);
    // The engines' traffic: every lane the SMs did not move (the mesh's lanes less the SMs' LD/ST lanes) in
    // a line request (a line holds 32 words at most), every CB access through a CB port as the SMs' were.
    const double engine_loads = sum_of(dma, "spu.global_loads.") - dma.counters.at("ldst.global_load_lanes");
    const double engine_stores = sum_of(dma, "spu.global_stores.") - dma.counters.at("ldst.global_store_lanes");
    CHECK(engine_loads >= dma.counters.at("spu.global_loads.viu"));
    CHECK(dma.counters.at("spu.global_loads.viu") > 0);
    CHECK(dma.counters.at("spu.dma.line_reads") >= engine_loads / 32);
    CHECK(dma.counters.at("spu.dma.line_writes") >= engine_stores / 32);
    CHECK(dma.counters.at("spu.dma.line_writes") > 0);
    CHECK(fdma.counters.at("spu.dma.line_reads") == 0);  // the functional mesh times nothing
    CHECK(dma.counters.at("cb.requests") == sm.counters.at("cb.requests"));
    CHECK(dma.counters.at("ldst.global_load_lanes") < sm.counters.at("ldst.global_load_lanes"));
  }
}

TEST_CASE("spu: bad values of the mesh's parameters are refused naming the key") {
  TempDir t;
  const std::pair<const char*, const char*> bad[] = {
      {"spu.iu_model=fpga", "spu.iu_model"},          {"spu.skip_trailing_syncs=maybe", "spu.skip_trailing_syncs"},
      {"spu.cb_bytes=6", "spu.cb_bytes"},             {"spu.sync_latency=0", "spu.sync_latency"},
      {"spu.rows=0", "spu.rows"}};
  for (const auto& [set, key] : bad) {
    INFO(set);
    Run r = run(t, std::string("--workload spu_matmul --size tiny --platform spu --set ") + set);
    CHECK(r.code != 0);
    CHECK(contains(r.out, key));
  }
}

TEST_CASE("spu timing: a DMA engine's step lasts until its transfers completed") {
  // With a flat memory of 5100 cycles, every pass after the first has a virtual IU that restores a CB from
  // global memory in every step, so each of those steps lasts the latency at least. An engine that reached
  // the barrier without awaiting its answers (the test-only fault) leaves the SMs' compute alone on the path.
  TempDir t;
  // the built-in defaults: instruction fetch from a perfect cache, so only the engines' transfers meet the latency
  const std::string args = "--workload spu_matmul " + kSized +
                           " --platform spu --config builtin --set spu.iu_model=dma --set mem.model=flat --set mem.fixed_latency=5100";
  Run slow = run(t, args);
  REQUIRE(slow.code == 0);
  const double passes = slow.counters.at("spu.passes"), syncs = slow.counters.at("spu.block_syncs");
  REQUIRE(passes > 1);
  const double bound = 5100.0 * syncs * (passes - 1) / passes;
  CHECK(slow.cycles >= bound);
  setenv("WARPTLM_TEST_FAULT", "cbmesh_dma_no_wait", 1);
  Run fault = run(t, args);
  unsetenv("WARPTLM_TEST_FAULT");
  REQUIRE(fault.code == 0);  // the data moved (when the sequencer ran); only the time is wrong
  CHECK(fault.cycles < bound);
}

TEST_CASE("spu timing: the barrier's latency lies on every synchronisation's path, the CB ports' banks on every access") {
  TempDir t;
  for (const char* wl : {"spu_matmul", "spu_jacobi"}) {
    INFO(wl);
    const std::string args = std::string("--workload ") + wl + " " + kSized + " --platform spu";
    Run one = run(t, args), eight = run(t, args + " --set spu.sync_latency=8");
    REQUIRE(one.code == 0);
    REQUIRE(eight.code == 0);
    // Every unit waits at every synchronisation for the release, 7 cycles later each time.
    CHECK(eight.cycles - one.cycles >= 7 * one.counters.at("spu.block_syncs"));
    CHECK(eight.counters.at("spu.cb_loads") == one.counters.at("spu.cb_loads"));
    // One bank: a CB access of a warp's distinct words takes a cycle per word (the shared-memory rule).
    Run banked = run(t, args + " --set smem.banks=1");
    REQUIRE(banked.code == 0);
    CHECK(one.counters.at("cb.bank_conflicts") < banked.counters.at("cb.bank_conflicts"));
    CHECK(banked.counters.at("cb.busy_cycles") ==
          banked.counters.at("cb.accesses") + banked.counters.at("cb.bank_conflicts"));
    CHECK(banked.cycles > one.cycles);
    CHECK(banked.counters.at("spu.cb_stores") == one.counters.at("spu.cb_stores"));
  }
}

TEST_CASE("spu timing: the workloads' checks fail when the CB halves do not switch or no virtual IU runs") {
  TempDir t;
  for (const char* fault : {"cbmesh_one_half", "cbmesh_no_handover"}) {
    INFO(fault);
    setenv("WARPTLM_TEST_FAULT", fault, 1);
    Run r = run(t, "--workload spu_matmul --size tiny --set spu.rows=2 --set spu.cols=2 --platform spu");
    unsetenv("WARPTLM_TEST_FAULT");
    CHECK(r.code != 0);
    CHECK(contains(r.out, "mismatch"));
  }
  Run ok = run(t, "--workload spu_matmul --size tiny --set spu.rows=2 --set spu.cols=2 --platform spu");
  CHECK(ok.code == 0);
}

#ifndef WARPTLM_SANITIZED
TEST_CASE("spu timing: the report's finding, the mesh slower than the GPU on the 192 x 192 multiply, with the derived traffic", "[ci]") {
  // Spec 003 claims 11 and 14: the GPU's tiled multiply loads 2 n^3 / T = 884,736 A and B elements (with or
  // without its L1; the lanes are the kernel's), the mesh's IUs the minimum 2 n^2 = 73,728, its SMs none.
  TempDir t;
  Run gpu = run(t, "--workload matmul_report --size medium --config gtx480");
  Run nol1 = run(t, "--workload matmul_report --size medium --config gtx480 --set l1d.enabled=false");
  Run spu = run(t, "--workload spu_matmul --size medium --config gtx480 --platform spu");
  REQUIRE(gpu.code == 0);
  REQUIRE(nol1.code == 0);
  REQUIRE(spu.code == 0);
  CHECK(gpu.counters.at("ldst.global_load_lanes") == 884736);
  CHECK(nol1.counters.at("ldst.global_load_lanes") == 884736);
  CHECK(nol1.counters.at("l1d.hits") == 0);
  CHECK(gpu.counters.at("l1d.hits") > 0);
  CHECK(spu.counters.at("spu.global_loads.iu") == 73728);
  CHECK(spu.counters.at("spu.global_loads.sm") == 0);
  CHECK(spu.counters.at("ldst.global_load_lanes") == 73728 + spu.counters.at("spu.global_loads.viu"));
  CHECK(spu.cycles > gpu.cycles);
  CHECK(spu.cycles > nol1.cycles);
}
#endif

#ifndef WARPTLM_SANITIZED  // forty whole runs: the release build's check (CI time)
TEST_CASE("spu timing: every landed mechanism combines with the mesh or is refused naming the conflict", "[ci]") {
  TempDir t;
  // Schedulers and cache policies act inside each SM: the mesh's workloads verify under each.
  for (const char* o : {"gto", "two_level", "owf", "best_swl", "ccws", "ciao_t", "statpcal"}) {
    for (const char* wl : {"spu_matmul", "spu_jacobi"}) {
      INFO(o << " " << wl);
      Run r = run(t, std::string("--workload ") + wl + " --size tiny --config gtx480 --platform spu --overlay " + o);
      INFO(r.out);
      CHECK(r.code == 0);
      if (r.code == 0) CHECK(r.counters.at("spu.block_syncs") > 0);
    }
  }
  // CIAO-P and CIAO-C borrow an SM's unused shared memory: they combine when every unit is a whole SM (the
  // IUs DMA engines), and are refused below when the IUs are reduced SMs without one.
  for (const char* o : {"ciao_p", "ciao_c"}) {
    for (const char* wl : {"spu_matmul", "spu_jacobi"}) {
      INFO(o << " " << wl);
      Run r = run(t, std::string("--workload ") + wl +
                         " --size tiny --config gtx480 --platform spu --set spu.iu_model=dma --overlay " + o);
      INFO(r.out);
      CHECK(r.code == 0);
      if (r.code == 0) CHECK(r.counters.at("spu.dma.thread_instructions") > 0);
    }
  }
  // Those that need what the mesh's units lack, or rewrite the gpu platform's code, are refused by key.
  const std::pair<const char*, const char*> refused[] = {
      {"ciao_p", "ciao.variant"}, {"ciao_c", "ciao.variant"}, {"elastic", "sm.pipeline.model"},
      {"bca", "sm.pipeline.model"}, {"scratchpad_sharing", "ss.enabled"}, {"relssp", "ss.compiler_passes"}};
  for (const auto& [o, key] : refused) {
    INFO(o);
    Run r = run(t, std::string("--workload spu_matmul --size tiny --config gtx480 --platform spu --overlay ") + o);
    CHECK(r.code != 0);
    CHECK(contains(r.out, key));
    CHECK(contains(r.out, "mesh"));
  }
}
#endif
