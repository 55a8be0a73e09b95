// The Stencil Processing Unit's mesh as a mechanism of the platform (seed 003;
// models/cbmesh/README.md): the spu platform (platforms/spu/) builds the GPU's
// blocks with this mechanism, which widens the PTX dialect with the mesh's
// instructions, runs each launch pass by pass on the mesh (sim.mode:
// functional: MeshFunctional; timing: the CbMesh block beside the SMs, with a
// part in each SM for what the SM executes), and answers the host's
// questions about the mesh (Device::attribute: spu.rows, spu.cols,
// spu.cb_bytes, which a host program needs to size the spill buffer, and
// spu.skip_trailing_syncs, which tells its kernels whether to leave early).
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "cbmesh/mesh_geometry.hpp"
#include "common/config.hpp"
#include "common/stats.hpp"
#include "gpu/mechanism.hpp"
#include "cbmesh/cb_mesh.hpp"

namespace warptlm {

struct SpuParams {
  uint32_t rows = 4, cols = 4;  // spu.rows, spu.cols: the mesh of SMs
  uint32_t cb_bytes = 1024;     // spu.cb_bytes: one CB (one half of its double buffer)
  MeshRules rules;              // spu.restart, spu.skip_trailing_syncs, spu.iu_model
  uint32_t sync_latency = 1;    // spu.sync_latency: cycles from the last arrival until released warps may issue
};

struct MeshRunStats;

class SpuMechanism : public Mechanism {
 public:
  static void declare(ParamTable& t);
  static bool wanted(const Config& c);
  static SpuParams params_from(const Config& c);
  // Storage per SM, as the report counts the mesh (sec. 2.2, 2.9): its share of
  // the 2 NCB CB buffers, the unit registers and the four CB pointers.
  static uint64_t storage_bits(const SpuParams& p);
  // The platform's SMs: the mesh's R C, and its 2 (R + C) IUs when they are reduced SMs.
  static uint64_t platform_sms(const SpuParams& p);

  SpuMechanism(const Config& c, StatsRegistry& stats);
  const char* name() const override { return "spu"; }
  void widen_dialect(PtxDialect& d) const override { d.mesh = true; }
  bool run_functional(const KernelInfo& k, LaunchState& L, LaunchResult& r) override;
  bool attribute(const std::string& name, uint64_t& value) const override;
  void build_in_sm(SmSite& site) override;
  void build_in_platform(PlatformSite& site) override;
  BlockSchedule* schedule_launch(const KernelInfo& k, LaunchState& L) override;
  std::string describe_stop() const override;

 private:
  void add_counts(const MeshRunStats& s);
  SpuParams p_;
  std::unique_ptr<CbMesh> mesh_;  // timing mode
  CbMeshGeometry geo_;
  Counter *global_loads_[3], *global_stores_[3];
  Counter *passes_, *syncs_, *cb_loads_, *cb_stores_, *compute_blocks_, *interface_blocks_, *virtual_blocks_;
  Counter *dma_warp_instructions_, *dma_thread_instructions_, *dma_line_reads_, *dma_line_writes_;
};

void register_spu();

}  // namespace warptlm
