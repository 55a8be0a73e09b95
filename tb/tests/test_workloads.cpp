// Every workload of the library at `tiny`, checked against its CPU reference,
// with the instruction-count invariants a run must satisfy.
#include <catch2/catch.hpp>
#include <set>

#include "common/config.hpp"
#include "common/stats.hpp"
#include "gpu/gpu_platform.hpp"
#include "isa/memory.hpp"
#include "isa/module.hpp"
#include "runtime/device.hpp"
#include "runtime/testbench.hpp"
#include "spu/spu_platform.hpp"
#include "workloads/workload.hpp"

using namespace warptlm;

namespace {

struct Outcome {
  WorkloadResult result;
  std::vector<LaunchResult> launches;
  std::map<std::string, double> counters;
};

Outcome run_workload(const std::string& name, uint64_t seed = 1, Size size = Size::Tiny,
                     const std::vector<std::string>& sets = {}) {
  GpuParams::declare(ParamTable::global());
  Config cfg;
  cfg.set("sim.mode", "functional");
  for (const std::string& s : sets) cfg.apply_set(s);
  auto wl = make_workload(name);
  REQUIRE(wl);
  const std::string platform = wl->platform();
  if (platform == "spu") SpuPlatform::configure(cfg);
  StatsRegistry stats;
  GpuTestbench tb(cfg, stats, platform);
  Device& dev = tb.device();
  Outcome o;
  o.result = wl->run(dev, size, seed);
  o.launches = tb.platform().launches();
  o.counters = stats.values();
  return o;
}

void check_workload(const std::string& name) {
  Outcome o = run_workload(name);
  INFO(name << ": " << o.result.detail);
  CHECK(o.result.verified);
  REQUIRE(!o.launches.empty());
  uint64_t w = 0, t = 0, a = 0;
  for (auto& l : o.launches) {
    CHECK(l.warp_instructions > 0);
    CHECK(l.lane_instructions >= l.warp_instructions);  // at least one active lane per warp instruction
    CHECK(l.lane_instructions <= 32 * l.warp_instructions);
    CHECK(l.thread_instructions <= l.lane_instructions);  // guard-true lanes are active lanes
    CHECK(l.thread_instructions > 0);
    w += l.warp_instructions;
    t += l.thread_instructions;
    a += l.lane_instructions;
  }
  // The summed counters are the launches' totals.
  CHECK(o.counters.at("gpu.warp_instructions") == double(w));
  CHECK(o.counters.at("gpu.thread_instructions") == double(t));
  CHECK(o.counters.at("gpu.active_lane_instructions") == double(a));
  CHECK(o.counters.at("gpu.launches") == double(o.launches.size()));
}

}  // namespace

TEST_CASE("workload registry lists every workload once and makes each") {
  auto names = workload_names();
  CHECK(names.size() >= 14);
  std::set<std::string> uniq(names.begin(), names.end());
  CHECK(uniq.size() == names.size());
  for (auto& n : names) {
    auto w = make_workload(n);
    REQUIRE(w);
    CHECK(std::string(w->name()) == n);
    CHECK(!embedded_ptx(w->module()).empty());
  }
  CHECK(make_workload("no_such_workload") == nullptr);
  Size s;
  CHECK(parse_size("medium", s));
  CHECK(s == Size::Medium);
  CHECK_FALSE(parse_size("huge", s));
}

TEST_CASE("workload vecadd verifies at tiny") { check_workload("vecadd"); }
TEST_CASE("workload matmul verifies at tiny") { check_workload("matmul"); }
TEST_CASE("workload matmul_report verifies at tiny") { check_workload("matmul_report"); }
TEST_CASE("workload reduce_conflict verifies at tiny") { check_workload("reduce_conflict"); }
TEST_CASE("workload reduce_seq verifies at tiny") { check_workload("reduce_seq"); }
TEST_CASE("workload transpose_naive verifies at tiny") { check_workload("transpose_naive"); }
TEST_CASE("workload transpose_padded verifies at tiny") { check_workload("transpose_padded"); }
TEST_CASE("workload histogram verifies at tiny") { check_workload("histogram"); }
TEST_CASE("workload jacobi2d verifies at tiny") { check_workload("jacobi2d"); }
TEST_CASE("workload scan verifies at tiny") { check_workload("scan"); }
TEST_CASE("workload bfs verifies at tiny") { check_workload("bfs"); }
TEST_CASE("workload blackscholes verifies at tiny") { check_workload("blackscholes"); }
TEST_CASE("workload nw verifies at tiny") { check_workload("nw"); }
TEST_CASE("workload backprop verifies at tiny") { check_workload("backprop"); }
TEST_CASE("workload dct8x8 verifies at tiny") { check_workload("dct8x8"); }
TEST_CASE("workload gemv verifies at tiny") { check_workload("gemv"); }
TEST_CASE("workload ss_backprop verifies at tiny") { check_workload("ss_backprop"); }
TEST_CASE("workload ss_dct1 verifies at tiny") { check_workload("ss_dct1"); }
TEST_CASE("workload ss_dct3 verifies at tiny") { check_workload("ss_dct3"); }
TEST_CASE("workload ss_nqu verifies at tiny") { check_workload("ss_nqu"); }
TEST_CASE("workload ss_srad1 verifies at tiny") { check_workload("ss_srad1"); }
TEST_CASE("workload ss_srad2 verifies at tiny") { check_workload("ss_srad2"); }
TEST_CASE("workload ss_fdtd3d verifies at tiny") { check_workload("ss_fdtd3d"); }
TEST_CASE("workload ss_heartwall verifies at tiny") { check_workload("ss_heartwall"); }
TEST_CASE("workload ss_histogram verifies at tiny") { check_workload("ss_histogram"); }
TEST_CASE("workload ss_mc verifies at tiny") { check_workload("ss_mc"); }
TEST_CASE("workload ss_nw verifies at tiny") { check_workload("ss_nw"); }
TEST_CASE("workload ss_dct48 verifies at tiny") { check_workload("ss_dct48"); }
TEST_CASE("workload ss_mc2 verifies at tiny") { check_workload("ss_mc2"); }
TEST_CASE("workload ss_dct2 verifies at tiny") { check_workload("ss_dct2"); }
TEST_CASE("workload ss_dct4 verifies at tiny") { check_workload("ss_dct4"); }
TEST_CASE("workload ss_nw2 verifies at tiny") { check_workload("ss_nw2"); }
TEST_CASE("workload ss_bfs verifies at tiny") { check_workload("ss_bfs"); }
TEST_CASE("workload ss_btree verifies at tiny") { check_workload("ss_btree"); }
TEST_CASE("workload ss_dct5 verifies at tiny") { check_workload("ss_dct5"); }
TEST_CASE("workload ss_gaussian verifies at tiny") { check_workload("ss_gaussian"); }
TEST_CASE("workload ss_nn verifies at tiny") { check_workload("ss_nn"); }
TEST_CASE("workload ep_transpose verifies at tiny") { check_workload("ep_transpose"); }
TEST_CASE("workload ep_transpose_opt verifies at tiny") { check_workload("ep_transpose_opt"); }
TEST_CASE("workload ep_aes_enc verifies at tiny") { check_workload("ep_aes_enc"); }
TEST_CASE("workload ep_aes_dec verifies at tiny") { check_workload("ep_aes_dec"); }
TEST_CASE("workload ep_dct verifies at tiny") { check_workload("ep_dct"); }
TEST_CASE("workload ep_dct_opt verifies at tiny") { check_workload("ep_dct_opt"); }
TEST_CASE("workload ep_idct verifies at tiny") { check_workload("ep_idct"); }
TEST_CASE("workload ep_idct_opt verifies at tiny") { check_workload("ep_idct_opt"); }
TEST_CASE("workload ep_dct_short verifies at tiny") { check_workload("ep_dct_short"); }
TEST_CASE("workload ep_dct_short_opt verifies at tiny") { check_workload("ep_dct_short_opt"); }
TEST_CASE("workload ep_idct_short verifies at tiny") { check_workload("ep_idct_short"); }
TEST_CASE("workload ep_idct_short_opt verifies at tiny") { check_workload("ep_idct_short_opt"); }
TEST_CASE("workload pb_atax verifies at tiny") { check_workload("pb_atax"); }
TEST_CASE("workload pb_bicg verifies at tiny") { check_workload("pb_bicg"); }
TEST_CASE("workload pb_mvt verifies at tiny") { check_workload("pb_mvt"); }
TEST_CASE("workload pb_gesummv verifies at tiny") { check_workload("pb_gesummv"); }
TEST_CASE("workload pb_syrk verifies at tiny") { check_workload("pb_syrk"); }
TEST_CASE("workload pb_syr2k verifies at tiny") { check_workload("pb_syr2k"); }
TEST_CASE("workload pb_gemm verifies at tiny") { check_workload("pb_gemm"); }
TEST_CASE("workload pb_2mm verifies at tiny") { check_workload("pb_2mm"); }
TEST_CASE("workload pb_2dconv verifies at tiny") { check_workload("pb_2dconv"); }
TEST_CASE("workload pb_corr verifies at tiny") { check_workload("pb_corr"); }
TEST_CASE("workload rd_kmeans verifies at tiny") { check_workload("rd_kmeans"); }
TEST_CASE("workload rd_hotspot verifies at tiny") { check_workload("rd_hotspot"); }
TEST_CASE("workload rd_lud verifies at tiny") { check_workload("rd_lud"); }
TEST_CASE("workload rd_backprop verifies at tiny") { check_workload("rd_backprop"); }
TEST_CASE("workload mr_kmn verifies at tiny") { check_workload("mr_kmn"); }
TEST_CASE("workload mr_sm verifies at tiny") { check_workload("mr_sm"); }
TEST_CASE("workload mr_wc verifies at tiny") { check_workload("mr_wc"); }
TEST_CASE("workload rd_nn verifies at tiny") { check_workload("rd_nn"); }
TEST_CASE("workload rd_gaussian verifies at tiny") { check_workload("rd_gaussian"); }
TEST_CASE("workload rd_nw verifies at tiny") { check_workload("rd_nw"); }
TEST_CASE("workload mr_pvc verifies at tiny") { check_workload("mr_pvc"); }
TEST_CASE("workload mr_ss verifies at tiny") { check_workload("mr_ss"); }
TEST_CASE("workload mr_ii verifies at tiny") { check_workload("mr_ii"); }
TEST_CASE("workload spu_matmul verifies at tiny") { check_workload("spu_matmul"); }
TEST_CASE("workload spu_jacobi verifies at tiny") { check_workload("spu_jacobi"); }
TEST_CASE("workload histogram_merge verifies at tiny") { check_workload("histogram_merge"); }
TEST_CASE("workload fwt verifies at tiny") { check_workload("fwt"); }
TEST_CASE("workload bitonic_sort verifies at tiny") { check_workload("bitonic_sort"); }
TEST_CASE("workload inline_math verifies at tiny") { check_workload("inline_math"); }
TEST_CASE("workload work_queue verifies at tiny") { check_workload("work_queue"); }

TEST_CASE("the SPU workloads act on the mesh at small size: passes, synchronisations, virtual IUs, CB traffic") {
  for (const char* n : {"spu_matmul", "spu_jacobi"}) {
    INFO(n);
    Outcome o = run_workload(n, 3, Size::Small);
    INFO(o.result.detail);
    CHECK(o.result.verified);
    CHECK(o.counters.at("spu.passes") >= 4 * double(o.launches.size()));  // small grids take several passes
    CHECK(o.counters.at("spu.block_syncs") > 0);
    CHECK(o.counters.at("spu.virtual_blocks") > 0);  // the passes hand data over through spills and restores
    CHECK(o.counters.at("spu.cb_loads") > 0);
    CHECK(o.counters.at("spu.cb_stores") > 0);
    CHECK(o.counters.at("cost.spu.bits") > 0);
  }
  // On the gpu platform the mesh's PTX is refused by line, naming the platform it needs.
  GpuParams::declare(ParamTable::global());
  Config cfg;
  cfg.set("sim.mode", "functional");
  StatsRegistry stats;
  GpuTestbench tb(cfg, stats);
  CHECK_THROWS_WITH(make_workload("spu_matmul")->run(tb.device(), Size::Tiny, 1),
                    Catch::Contains("spu_matmul.ptx:") && Catch::Contains("--platform spu"));
}

TEST_CASE("spu_matmul at the report's size moves the derived global traffic: the minimum A/B loads, whole-CB spills", "[ci]") {
  // Spec 003 sec. 4.6 (derived from the report's 192 x 192, 16 x 16 tiles, 4 x 4 mesh): the IUs load A and B
  // once each (2 n^2, the minimum), the SMs load nothing from global memory and store C (n^2); every pass
  // performs T = 2 G + K - 1 synchronisations (G = K = 12 tiles: 35), and the 48 spilling VIU positions of the
  // run (12 pass sides x 4) each spill their whole CB (256 words) after every one, as the 48 restoring VIU
  // positions restore one before every one: 48 T 256 each way.
  const double n = 192, g = 12, t = 2 * g + g - 1, cb = 256;
  Outcome o = run_workload("spu_matmul", 1, Size::Medium);
  INFO(o.result.detail);
  REQUIRE(o.result.verified);
  CHECK(o.counters.at("spu.passes") == 9);
  CHECK(o.counters.at("spu.block_syncs") == 9 * t);
  CHECK(o.counters.at("spu.global_loads.iu") == 2 * n * n);  // 73,728
  CHECK(o.counters.at("spu.global_loads.sm") == 0);
  CHECK(o.counters.at("spu.global_stores.sm") == n * n);     // 36,864
  CHECK(o.counters.at("spu.global_stores.viu") == 48 * t * cb);  // 430,080
  CHECK(o.counters.at("spu.global_loads.viu") == 48 * t * cb);
  // The restart optimisation (sec. 3.3) parks the VIUs until the first unit of the pass starts: same
  // results and the same useful loads, less VIU traffic (claim 10).
  Outcome r = run_workload("spu_matmul", 1, Size::Medium, {"spu.restart=true"});
  REQUIRE(r.result.verified);
  CHECK(r.counters.at("spu.global_loads.iu") == 2 * n * n);
  CHECK(r.counters.at("spu.global_loads.viu") < o.counters.at("spu.global_loads.viu"));
  CHECK(r.counters.at("spu.global_stores.viu") < o.counters.at("spu.global_stores.viu"));
  CHECK(r.counters.at("spu.block_syncs") == o.counters.at("spu.block_syncs"));
}

TEST_CASE("every workload is covered by a test above") {
  // Adding a workload without a test case here fails this check.
  const std::set<std::string> tested = {"vecadd", "matmul", "reduce_conflict", "reduce_seq", "transpose_naive",
                                        "transpose_padded", "histogram", "jacobi2d", "scan", "bfs",
                                        "blackscholes", "nw", "backprop", "dct8x8", "gemv",
                                        "ss_backprop", "ss_dct1", "ss_dct3", "ss_nqu", "ss_srad1",
                                        "ss_srad2", "ss_fdtd3d", "ss_heartwall", "ss_histogram", "ss_mc", "ss_nw",
                                        "ss_dct48", "ss_mc2", "ss_dct2", "ss_dct4", "ss_nw2",
                                        "ss_bfs", "ss_btree", "ss_dct5", "ss_gaussian", "ss_nn",
                                        "ep_transpose", "ep_transpose_opt", "ep_aes_enc", "ep_aes_dec",
                                        "ep_dct", "ep_dct_opt", "ep_idct", "ep_idct_opt", "ep_dct_short",
                                        "ep_dct_short_opt", "ep_idct_short", "ep_idct_short_opt",
                                        "pb_atax", "pb_bicg", "pb_mvt", "pb_gesummv", "pb_syrk", "pb_syr2k",
                                        "pb_gemm", "pb_2mm", "pb_2dconv", "pb_corr",
                                        "rd_kmeans", "rd_hotspot", "rd_lud", "rd_backprop", "mr_kmn",
                                        "mr_sm", "mr_wc", "rd_nn", "rd_gaussian", "rd_nw",
                                        "mr_pvc", "mr_ss", "mr_ii", "spu_matmul", "spu_jacobi", "matmul_report",
                                        "histogram_merge", "fwt", "bitonic_sort", "inline_math", "work_queue"};
  for (auto& n : workload_names()) CHECK(tested.count(n) == 1);
}

TEST_CASE("workload inputs follow the seed: same seed same counts, results verified for other seeds") {
  Outcome a = run_workload("bfs", 1), b = run_workload("bfs", 1), c = run_workload("bfs", 7);
  CHECK(a.result.verified);
  CHECK(c.result.verified);
  REQUIRE(a.launches.size() == b.launches.size());
  for (size_t i = 0; i < a.launches.size(); ++i) CHECK(a.launches[i].thread_instructions == b.launches[i].thread_instructions);
  // A different random graph takes a different path through the BFS.
  uint64_t ta = 0, tc = 0;
  for (auto& l : a.launches) ta += l.thread_instructions;
  for (auto& l : c.launches) tc += l.thread_instructions;
  CHECK(ta != tc);
}

// One design per process: each of these is its own test case.
static void check_small(const char* n) {
  WorkloadResult r = run_workload(n, 3, Size::Small).result;
  INFO(n << ": " << r.detail);
  CHECK(r.verified);
}
TEST_CASE("workload matmul verifies at small size with seed 3") { check_small("matmul"); }
TEST_CASE("workload histogram verifies at small size with seed 3") { check_small("histogram"); }

TEST_CASE("every workload carries the real compiler's register count for each of its entries") {
  // scripts/gen-ptx writes NAME.regs beside NAME.ptx (ptxas -v); the build embeds it.
  std::set<std::string> modules;
  for (const std::string& n : workload_names())
    if (std::string(make_workload(n)->platform()) == "gpu") modules.insert(make_workload(n)->module());
    else CHECK(embedded_registers(make_workload(n)->module()).empty());  // ptxas cannot assemble the mesh's PTX
  for (const std::string& name : modules) {
    INFO(name);
    GlobalMemory mem;
    const Module m(embedded_ptx(name), name + ".ptx", mem);
    const std::map<std::string, uint32_t> regs = parse_register_table(embedded_registers(name), name + ".regs");
    CHECK(regs.size() == m.kernel_names().size());
    for (const std::string& e : m.kernel_names()) {
      INFO(e);
      CHECK(regs.count(e) == 1);
    }
  }
}

TEST_CASE("a register table line that is not 'entry registers' is refused naming its line") {
  CHECK_THROWS_WITH(parse_register_table("# c\nk1 20\nk2 twenty\n", "t.regs"), Catch::Contains("t.regs:3"));
  CHECK_THROWS_WITH(parse_register_table("k1 0\n", "t.regs"), Catch::Contains("1..255"));
  CHECK_THROWS_WITH(parse_register_table("k1 20\nk1 21\n", "t.regs"), Catch::Contains("listed twice"));
  CHECK(parse_register_table("k1 20 # ptxas\n\nk2 255\n", "t.regs") == std::map<std::string, uint32_t>{{"k1", 20}, {"k2", 255}});
}
