// The timing mesh (models/cbmesh/cb_mesh.hpp) on small hand-written PTX: a CB
// access takes its CB port's time (banks and conflicts as shared memory), an
// interface unit that needs an FPU halts the run naming the unit and the PTX
// line, and a unit that skips a synchronisation is named, never hung. One
// timing platform per test case (a SystemC design elaborates once per process).
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "common/config.hpp"
#include "common/errors.hpp"
#include "common/stats.hpp"
#include "gpu/gpu_platform.hpp"
#include "runtime/device.hpp"
#include "runtime/testbench.hpp"
#include "spu/spu_platform.hpp"

using namespace warptlm;

namespace {

const char* kHeader = ".version 7.5\n.target sm_75\n.address_size 64\n";

// A 1 x 1 mesh (one SM, four IUs) in timing mode.
struct MeshRig {
  Config cfg;
  StatsRegistry stats;
  std::unique_ptr<GpuTestbench> tb;
  explicit MeshRig(uint32_t cb_bytes = 4096, const std::vector<std::pair<std::string, std::string>>& sets = {}) {
    GpuParams::declare(ParamTable::global());
    cfg.set("sim.mode", "timing");
    for (const auto& kv : sets) cfg.set(kv.first, kv.second);
    cfg.set("spu.rows", "1");
    cfg.set("spu.cols", "1");
    cfg.set("spu.cb_bytes", std::to_string(cb_bytes));
    SpuPlatform::configure(cfg);
    tb = std::make_unique<GpuTestbench>(cfg, stats, "spu");
  }
  void load(const std::string& body) { tb->device().load_ptx(std::string(kHeader) + body, "mesh_timing.ptx"); }
  void launch(const std::string& k, const std::vector<KernelArg>& args = {}, uint32_t threads = 32) {
    run_host_program([&] { tb->device().launch(k, Dim3(1), Dim3(threads), args); });
  }
  double counter(const std::string& n) { return stats.values().at(n); }
};

}  // namespace

TEST_CASE("Timing mesh: a CB store with a 32-way bank conflict holds the CB port 32 cycles, a conflict-free one 1",
          "[cbmesh][meshtiming]") {
  MeshRig rig;
  // The SM stores lane l's word at byte l * stride of its south CB; the IUs only synchronise.
  rig.load(".visible .entry strided(.param .u32 stride)\n{\n.reg .b32 %r<6>;\n.reg .pred %p<2>;\n"
           "mov.u32 %r1, %regiu;\nsetp.ne.u32 %p1, %r1, 0;\n@%p1 bra DONE;\nmov.u32 %r2, %tid.x;\n"
           "ld.param.u32 %r3, [stride];\nmul.lo.u32 %r4, %r2, %r3;\nst.cbv.u32 [%r4], %r2;\n"
           "DONE:\nbar.blocksync 0;\nret;\n}\n");
  rig.launch("strided", {arg(uint32_t(4))});
  const double quiet = rig.counter("cb.bank_conflicts");
  const uint64_t flat = rig.tb->platform().launches().back().cycles;
  CHECK(quiet == 0);
  CHECK(rig.counter("sm0.cb.accesses") == 1);
  rig.launch("strided", {arg(uint32_t(128))});  // 32 words apart: every lane in bank 0 of 32
  CHECK(rig.counter("sm0.cb.bank_conflicts") == 31);
  CHECK(rig.counter("sm0.cb.busy_cycles") == 1 + 32);
  CHECK(rig.counter("sm0.cb.accesses") == 2);
  CHECK(rig.counter("cb.requests") == 2);  // the IUs made no CB access
  const uint64_t conflicted = rig.tb->platform().launches().back().cycles;
  CHECK(conflicted >= flat + 31);
  CHECK(rig.counter("spu.block_syncs") == 2);
}

// A float add guarded by `%regiu <cmp> 0` (ne: on the IUs; eq: on the SM), then `syncs` synchronisations.
static std::string fpu_kernel(const char* cmp, int syncs) {
  std::string k = std::string(".visible .entry k()\n{\n.reg .b32 %r<4>;\n.reg .f32 %f<4>;\n.reg .pred %p<2>;\n") +
                  "mov.u32 %r1, %regiu;\nsetp." + cmp + ".u32 %p1, %r1, 0;\nmov.f32 %f2, 0f3F800000;\n" +
                  "@%p1 add.f32 %f1, %f2, %f2;\n";
  for (int i = 0; i < syncs; ++i) k += "bar.blocksync 0;\n";
  return k + "ret;\n}\n";
}

TEST_CASE("Timing mesh: an interface unit that needs the FPU halts the run, naming the unit and the PTX line",
          "[cbmesh][meshtiming]") {
  MeshRig rig;
  rig.load(fpu_kernel("ne", 1));
  CHECK_THROWS_WITH(rig.launch("k"), Catch::Contains("iu_") && Catch::Contains("FPU") &&
                                         Catch::Contains("mesh_timing.ptx:12"));
}

TEST_CASE("Timing mesh: an SM that runs the same kernel's FPU code is fine, and its synchronisations count",
          "[cbmesh][meshtiming]") {
  MeshRig rig;
  rig.load(fpu_kernel("eq", 2));
  rig.launch("k");
  CHECK(rig.counter("spu.block_syncs") == 2);
  CHECK(rig.counter("spu.passes") == 1);
  CHECK(rig.counter("spu.interface_blocks") == 4);
  CHECK(rig.counter("spu.compute_blocks") == 1);
}

TEST_CASE("Timing mesh: a unit that skips a synchronisation is reported by name, not hung", "[cbmesh][meshtiming]") {
  MeshRig rig;
  // The SM synchronises twice, the IUs once: they finish while it waits at the second.
  rig.load(".visible .entry k()\n{\n.reg .b32 %r<4>;\n.reg .pred %p<2>;\n"
           "mov.u32 %r1, %regiu;\nsetp.ne.u32 %p1, %r1, 0;\nbar.blocksync 0;\n@%p1 bra DONE;\n"
           "bar.blocksync 0;\nDONE:\nret;\n}\n");
  CHECK_THROWS_WITH(rig.launch("k"), Catch::Contains("sm0") && Catch::Contains("iu_") &&
                                         Catch::Contains("same number"));
}

// The IUs spin forever; the SM waits at the first synchronisation.
static const char* kSpinningIus =
    ".visible .entry k()\n{\n.reg .b32 %r<4>;\n.reg .pred %p<2>;\n"
    "mov.u32 %r1, %regiu;\nsetp.ne.u32 %p1, %r1, 0;\nmov.u32 %r2, 0;\n@%p1 bra SPIN;\n"
    "bar.blocksync 0;\nret;\nSPIN:\nadd.u32 %r2, %r2, 1;\nbra SPIN;\n}\n";

TEST_CASE("Timing mesh: a unit that never reaches the barrier is named when the watchdog stops the run",
          "[cbmesh][meshtiming]") {
  MeshRig rig(4096, {{"sim.watchdog_cycles", "20000"}});
  rig.load(kSpinningIus);
  CHECK_THROWS_WITH(rig.launch("k"), Catch::Contains("deadlock") &&
                                         Catch::Contains("spu: block synchronisation 1 of pass 0: waiting for iu_north0") &&
                                         Catch::Contains("(arrived: sm0)"));
}

TEST_CASE("Timing mesh with DMA interface units: an IU program that needs the FPU halts the run naming the engine",
          "[cbmesh][meshtiming]") {
  MeshRig rig(4096, {{"spu.iu_model", "dma"}});
  rig.load(fpu_kernel("ne", 1));
  CHECK_THROWS_WITH(rig.launch("k"), Catch::Contains("iu_") && Catch::Contains("DMA engine") &&
                                         Catch::Contains("FPU") && Catch::Contains("mesh_timing.ptx:12"));
}

TEST_CASE("Timing mesh with DMA interface units: a sequencer that spins is stopped by the step budget",
          "[cbmesh][meshtiming]") {
  MeshRig rig(4096, {{"spu.iu_model", "dma"}, {"sim.watchdog_cycles", "20000"}});
  rig.load(kSpinningIus);
  CHECK_THROWS_WITH(rig.launch("k"), Catch::Contains("iu_north0") && Catch::Contains("20000 instructions in one step") &&
                                         Catch::Contains("mesh_timing.ptx:"));
}

TEST_CASE("Timing mesh with DMA interface units: the engines synchronise with the SM, on a platform of one SM",
          "[cbmesh][meshtiming]") {
  MeshRig rig(4096, {{"spu.iu_model", "dma"}});
  rig.load(fpu_kernel("eq", 2));
  rig.launch("k");
  CHECK(rig.counter("spu.block_syncs") == 2);
  CHECK(rig.counter("spu.interface_blocks") == 4);
  CHECK(rig.counter("spu.compute_blocks") == 1);
  CHECK(rig.counter("spu.dma.warp_instructions") > 0);
  CHECK(rig.stats.values().count("sm1.active_cycles") == 0);
  CHECK(rig.counter("sm0.active_cycles") > 0);
}

TEST_CASE("Timing mesh with DMA interface units: a program with a thread barrier before its synchronisations runs",
          "[cbmesh][meshtiming]") {
  // Two warps per block: the second warp's bar.sync releases the first, which the sequencer must run again.
  MeshRig rig(4096, {{"spu.iu_model", "dma"}, {"sim.watchdog_cycles", "20000"}});
  rig.load(".visible .entry k()\n{\nbar.sync 0;\nbar.blocksync 0;\nbar.sync 0;\nbar.blocksync 0;\nret;\n}\n");
  rig.launch("k", {}, 64);
  CHECK(rig.counter("spu.block_syncs") == 2);
  CHECK(rig.counter("spu.dma.warp_instructions") == 4 * 2 * 5);  // four engines, two warps, five instructions
}

