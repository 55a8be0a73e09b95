#include "cbmesh/spu_mechanism.hpp"

#include "cbmesh/mesh_functional.hpp"
#include "common/errors.hpp"

namespace warptlm {

void register_spu() { register_mechanism<SpuMechanism>("spu", "cbmesh"); }

void SpuMechanism::declare(ParamTable& t) {
  t.bool_param("spu.enabled", false,
               "run launches on the Stencil Processing Unit's mesh (seed 003); the spu platform (--platform spu) sets it");
  t.int_param("spu.rows", 4, 1, 64, "rows of SMs in the mesh (the report's 4 x 4, sec. 2.1)");
  t.int_param("spu.cols", 4, 1, 64, "columns of SMs in the mesh");
  t.int_param("spu.cb_bytes", 1024, 4, 1 << 20,
              "bytes of one communication buffer (each is double-buffered); the report leaves it open (CB_SIZE, sec. "
              "2.3); a multiple of 4");
  t.int_param("spu.sync_latency", 1, 1, 1000,
              "cycles from the last unit's arrival at a block synchronisation until the released warps may issue "
              "(1: the next cycle, as after a thread barrier; the report gives no figure, sec. 2.4)");
  t.bool_param("spu.restart", false,
               "virtual IUs start parked and wait uncounted until a unit executes bar.unleashvius (the report's "
               "restart optimisation, sec. 3.3)");
  t.enum_param("spu.iu_model", "sm", {"sm", "dma"},
               "what an interface unit is: sm, a reduced SM (the report's, sec. 5: no shared memory, L1, SFU or "
               "FPU); dma, a DMA engine whose sequencer runs the IU's program at no instruction cost and moves "
               "its data (the report's improvement, sec. 5); with dma the platform has R C SMs");
  t.bool_param("spu.skip_trailing_syncs", false,
               "a unit that finishes leaves the block synchronisation, so a block may exit after the synchronisation "
               "that follows its last CB access instead of performing the pass's dummy ones (the report's "
               "improvement, sec. 5; kernels read it through Device::attribute)");
}

bool SpuMechanism::wanted(const Config& c) { return c.get_bool("spu.enabled"); }

SpuParams SpuMechanism::params_from(const Config& c) {
  auto fail = [&c](const char* key, const std::string& why) {
    throw InputError(Place{"", 0, key}, why + " (set at " + c.origin(key) + ")");
  };
  SpuParams p;
  p.rows = uint32_t(c.get_int("spu.rows"));
  p.cols = uint32_t(c.get_int("spu.cols"));
  p.cb_bytes = uint32_t(c.get_int("spu.cb_bytes"));
  p.rules.park_vius = c.get_bool("spu.restart");
  p.rules.leave_early = c.get_bool("spu.skip_trailing_syncs");
  p.sync_latency = uint32_t(c.get_int("spu.sync_latency"));
  p.rules.dma_ius = c.get_string("spu.iu_model") == "dma";
  if (p.cb_bytes % 4) fail("spu.cb_bytes", "a CB holds whole 32-bit words: " + std::to_string(p.cb_bytes) + " bytes");
  const uint64_t units = platform_sms(p);
  if (uint64_t(c.get_int("gpu.num_sms")) != units)
    fail("gpu.num_sms", "the mesh's " + std::to_string(p.rows) + " x " + std::to_string(p.cols) + " SMs" +
                            (p.rules.dma_ius ? std::string(" (its interface units are DMA engines, spu.iu_model: dma)")
                                       : " and " + std::to_string(2 * (p.rows + p.cols)) + " interface units") +
                            " need gpu.num_sms = " + std::to_string(units) + ", not " +
                            std::to_string(c.get_int("gpu.num_sms")) + " (--platform spu sets it)");
  if (c.get_int("sim.fast_forward") > 0)
    fail("sim.fast_forward", "fast-forwarding on the SPU mesh: a pass's units synchronise with each other, so a "
                             "launch cannot switch from the functional mesh to the timing mesh part-way");
  if (c.get_string("sim.mode") == "timing" && c.get_string("sm.pipeline.model") == "inorder")
    fail("sm.pipeline.model", "the in-order pipeline's memory stages serve shared memory only; the mesh's SMs send "
                              "CB accesses to their CB ports from the LD/ST unit (sm.pipeline.model: decoupled)");
  const std::string ciao = c.get_string("ciao.variant");
  if (c.get_string("sim.mode") == "timing" && (ciao == "p" || ciao == "c") && !p.rules.dma_ius)
    fail("ciao.variant", "CIAO-" + std::string(ciao == "p" ? "P" : "C") + " with the SPU mesh: it redirects warps' "
                         "lines into their SM's unused shared memory, and the mesh's interface units have none "
                         "(reduced SMs, sec. 5); CIAO-T (ciao.variant: t), CCWS and statPCAL combine, and CIAO-P "
                         "and CIAO-C do when the IUs are DMA engines (spu.iu_model: dma: every SM is a whole SM)");
  if (c.get_string("gpu.placement") != "round_robin")
    fail("gpu.placement", "'" + c.get_string("gpu.placement") + "' with the SPU mesh: the mesh places every block "
                          "by its own pass schedule (block (I, J) on unit (I, J)), so a placement policy would "
                          "never be asked; leave gpu.placement round_robin (a warp ordering such as "
                          "sm.warp_scheduler: locality combines)");
  if (c.get_bool("ss.enabled") || c.get_bool("ss.compiler_passes"))
    fail(c.get_bool("ss.enabled") ? "ss.enabled" : "ss.compiler_passes",
         "scratchpad sharing with the SPU mesh: its compiler passes rewrite the gpu platform's PTX, not the mesh's, "
         "and the mesh runs one block per SM (nothing to share)");
  return p;
}

uint64_t SpuMechanism::platform_sms(const SpuParams& p) {
  return uint64_t(p.rows) * p.cols + (p.rules.dma_ius ? 0 : 2ull * (p.rows + p.cols));
}

uint64_t SpuMechanism::storage_bits(const SpuParams& p) {
  const CbMeshGeometry g(p.rows, p.cols);
  const uint64_t cb_bits = uint64_t(g.buffers()) * p.cb_bytes * 8;
  uint32_t ptr_bits = 1;
  while ((1ull << ptr_bits) < g.buffers() + 1) ++ptr_bits;  // a buffer index, or none
  const uint64_t sms = uint64_t(p.rows) * p.cols;
  return (cb_bits + sms - 1) / sms + 11 * 32 + 4 * ptr_bits;
}

SpuMechanism::SpuMechanism(const Config& c, StatsRegistry& stats) : p_(params_from(c)), geo_(p_.rows, p_.cols) {
  // One mesh-wide counter each (no per-SM instances: the mesh runs as a whole).
  auto counter = [&stats](const std::string& name, const std::string& meaning) {
    return &stats.counter(name, name, meaning);
  };
  passes_ = counter("spu.passes", "passes the mesh ran (one block per SM each, sec. 2.5)");
  syncs_ = counter("spu.block_syncs", "mesh-wide block synchronisations, all passes");
  cb_loads_ = counter("spu.cb_loads", "lane loads from the CBs (ld.cbv, ld.cbh)");
  cb_stores_ = counter("spu.cb_stores", "lane stores to the CBs (st.cbv, st.cbh)");
  compute_blocks_ = counter("spu.compute_blocks", "blocks of the grid run on the mesh's SMs");
  interface_blocks_ = counter("spu.interface_blocks", "blocks run as real interface units (loaders, storers; SMs standing in for IUs)");
  virtual_blocks_ = counter("spu.virtual_blocks", "blocks run as virtual interface units (spill, restore)");
  static const char* kSource[3] = {"sm", "iu", "viu"};
  static const char* kWho[3] = {"the grid's blocks on the SMs", "the real interface units (and SMs standing in for them)",
                                "the virtual interface units (restores; spills)"};
  for (int i = 0; i < 3; ++i) {
    global_loads_[i] = counter(std::string("spu.global_loads.") + kSource[i], std::string("lane loads from global memory by ") + kWho[i]);
    global_stores_[i] = counter(std::string("spu.global_stores.") + kSource[i], std::string("lane stores to global memory by ") + kWho[i]);
  }
  dma_warp_instructions_ = counter("spu.dma.warp_instructions",
                                   "warp instructions of the IUs' programs that DMA engines' sequencers ran (spu.iu_model: dma)");
  dma_thread_instructions_ = counter("spu.dma.thread_instructions", "thread instructions of those programs");
  dma_line_reads_ = counter("spu.dma.line_reads", "line reads the DMA engines sent below the SMs (timing)");
  dma_line_writes_ = counter("spu.dma.line_writes", "line writes the DMA engines sent below the SMs (timing)");
  const double bits = double(storage_bits(p_));
  stats.derived("cost.spu.bits", [bits] { return bits; },
                "storage per SM of the SPU mesh: its share of the double-buffered CBs, the 11 unit registers and the "
                "four CB pointers (sec. 2.2, 2.9)");
}

namespace {
// The mesh's part in SM u: what its warps execute as a unit of the mesh.
class SpuSmPart final : public SmMechanism {
 public:
  SpuSmPart(const std::unique_ptr<CbMesh>& mesh, uint32_t unit) : mesh_(mesh), unit_(unit) { set_active(true); }
  const char* name() const override { return "spu"; }
  // An interface unit is a reduced SM: an operation it has no unit for stops the run.
  void at_issue(const WarpSlot& w, const Instr& in, uint32_t active) override {
    if (!mesh_->reduced(unit_)) return;
    if (guard_true(*w.fw, in, active)) mesh_->check_reduced_op(unit_, *w.fw, in);  // some lane executes it
  }
  void memory_executed(const Warp& w, const Instr& in) override {
    if (mesh_->reduced(unit_)) mesh_->check_reduced_access(unit_, w, in);
    mesh_->count_global(unit_, w, in);
  }
  void block_retired(const Block* b) override { mesh_->unit_retired(b->sm_id); }
  void warp_exited(const WarpSlot& w) override {
    if (mesh_->rules().leave_early && w.block->warps_done == w.block->warps.size()) mesh_->unit_exited(w.block->sm_id);
  }
  // An interface unit has no L1 (sec. 5): its global loads allocate nothing there (the SM's L1 is the mesh
  // SM's; a reduced SM's loads pass it by).
  bool steers_l1() const override { return true; }
  bool l1_no_allocate(const WarpSlot&) const override { return mesh_->reduced(unit_); }

 private:
  const std::unique_ptr<CbMesh>& mesh_;  // built after the SMs
  uint32_t unit_;
};
}  // namespace

void SpuMechanism::build_in_sm(SmSite& site) { site.sm.add_mechanism(std::make_unique<SpuSmPart>(mesh_, site.index)); }

void SpuMechanism::build_in_platform(PlatformSite& site) {
  mesh_ = std::make_unique<CbMesh>("cbmesh", geo_, p_.cb_bytes, p_.rules, p_.sync_latency, site);
  mesh_->on_pass_end = [this](const MeshRunStats& s) { add_counts(s); };
}

BlockSchedule* SpuMechanism::schedule_launch(const KernelInfo& k, LaunchState& L) {
  return mesh_ ? &mesh_->begin_launch(k, L) : nullptr;
}

std::string SpuMechanism::describe_stop() const { return mesh_ ? mesh_->describe_stop() : std::string(); }

void SpuMechanism::add_counts(const MeshRunStats& s) {
  for (int i = 0; i < 3; ++i) {
    *global_loads_[i] += s.global_loads[i];
    *global_stores_[i] += s.global_stores[i];
  }
  *passes_ += s.passes;
  *syncs_ += s.syncs;
  *cb_loads_ += s.cb_loads;
  *cb_stores_ += s.cb_stores;
  *compute_blocks_ += s.compute_blocks;
  *interface_blocks_ += s.interface_blocks;
  *virtual_blocks_ += s.virtual_blocks;
  *dma_warp_instructions_ += s.dma_instructions.warp;
  *dma_thread_instructions_ += s.dma_instructions.thread;
  *dma_line_reads_ += s.dma_line_reads;
  *dma_line_writes_ += s.dma_line_writes;
}

bool SpuMechanism::run_functional(const KernelInfo& k, LaunchState& L, LaunchResult& r) {
  MeshFunctional mesh(geo_, p_.cb_bytes, p_.rules);
  mesh.run(k, L);
  const MeshRunStats& s = mesh.stats();
  r.warp_instructions += s.instructions.warp;
  r.thread_instructions += s.instructions.thread;
  r.lane_instructions += s.instructions.lane;
  add_counts(s);
  return true;
}

bool SpuMechanism::attribute(const std::string& name, uint64_t& value) const {
  if (name == "spu.rows") value = p_.rows;
  else if (name == "spu.cols") value = p_.cols;
  else if (name == "spu.cb_bytes") value = p_.cb_bytes;
  else if (name == "spu.skip_trailing_syncs") value = p_.rules.leave_early;
  else return false;
  return true;
}

}  // namespace warptlm
