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
  t.bool_param("spu.restart", false,
               "virtual IUs start parked and wait uncounted until a unit executes bar.unleashvius (the report's "
               "restart optimisation, sec. 3.3)");
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
  p.park_vius = c.get_bool("spu.restart");
  if (p.cb_bytes % 4) fail("spu.cb_bytes", "a CB holds whole 32-bit words: " + std::to_string(p.cb_bytes) + " bytes");
  const uint64_t units = uint64_t(p.rows) * p.cols + 2ull * (p.rows + p.cols);
  if (uint64_t(c.get_int("gpu.num_sms")) != units)
    fail("gpu.num_sms", "the mesh's " + std::to_string(p.rows) + " x " + std::to_string(p.cols) + " SMs and " +
                            std::to_string(2 * (p.rows + p.cols)) + " interface units need gpu.num_sms = " +
                            std::to_string(units) + ", not " + std::to_string(c.get_int("gpu.num_sms")) +
                            " (--platform spu sets it)");
  if (c.get_string("sim.mode") != "functional")
    fail("sim.mode", "the SPU mesh runs in sim.mode: functional so far (its timing platform, the CB mesh and "
                     "barrier modules on the SMs' sockets, is not built yet): add --set sim.mode=functional");
  if (c.get_bool("ss.enabled") || c.get_bool("ss.compiler_passes"))
    fail(c.get_bool("ss.enabled") ? "ss.enabled" : "ss.compiler_passes",
         "scratchpad sharing with the SPU mesh: its compiler passes rewrite the gpu platform's PTX, not the mesh's, "
         "and the mesh runs one block per SM (nothing to share)");
  return p;
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
  const double bits = double(storage_bits(p_));
  stats.derived("cost.spu.bits", [bits] { return bits; },
                "storage per SM of the SPU mesh: its share of the double-buffered CBs, the 11 unit registers and the "
                "four CB pointers (sec. 2.2, 2.9)");
}

bool SpuMechanism::run_functional(const KernelInfo& k, LaunchState& L, LaunchResult& r) {
  MeshFunctional mesh(geo_, p_.cb_bytes, p_.park_vius);
  mesh.run(k, L);
  const MeshRunStats& s = mesh.stats();
  r.warp_instructions += s.instructions.warp;
  r.thread_instructions += s.instructions.thread;
  r.lane_instructions += s.instructions.lane;
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
  return true;
}

bool SpuMechanism::attribute(const std::string& name, uint64_t& value) const {
  if (name == "spu.rows") value = p_.rows;
  else if (name == "spu.cols") value = p_.cols;
  else if (name == "spu.cb_bytes") value = p_.cb_bytes;
  else return false;
  return true;
}

}  // namespace warptlm
