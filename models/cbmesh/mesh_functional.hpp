// The mesh's functional model: a launch runs pass by pass on the mesh's units,
// one block per unit (seed 003 sec. 2.5), each unit's warps stepped in turn
// ("execute at issue", no timing). A unit's block reaches its CBs through
// MeshPort: an access goes to the CB storage at the pass's synchronisation
// count, bar.blocksync to the block synchronisation, and the run-time writes
// the unit registers of sec. 2.9 into the block at the start of each pass and
// as the count, `restart` and `reglast` change. It is sim.mode: functional on
// the spu platform, and the reference the timing platform's data must equal.
#pragma once
#include <cstdint>
#include <array>
#include <memory>
#include <vector>

#include "cbmesh/block_sync.hpp"
#include "cbmesh/cb_storage.hpp"
#include "cbmesh/mesh_geometry.hpp"
#include "cbmesh/pass_plan.hpp"
#include "isa/simt.hpp"

namespace warptlm {

// Who moves data to and from global memory (spec 003 sec. 8's counters by source).
enum class MeshSource : uint8_t { Sm, Iu, Viu, Count };  // a block of the grid; a real IU (or a stand-in SM); a virtual IU

struct MeshRunStats {
  uint32_t passes = 0;
  uint64_t syncs_per_pass = 0;  // regspillnb
  uint64_t syncs = 0;           // all passes
  uint64_t cb_loads = 0, cb_stores = 0;  // lane accesses to the CBs
  uint64_t compute_blocks = 0, interface_blocks = 0, virtual_blocks = 0;
  InstructionCounts instructions;  // of every unit's blocks
  // Lane accesses of ld/st to global memory (a vector access counts once per lane), by source.
  uint64_t global_loads[size_t(MeshSource::Count)] = {}, global_stores[size_t(MeshSource::Count)] = {};
};

class MeshFunctional final : public MeshPort {
 public:
  // `mesh` must outlive the model. `park_vius`: virtual IUs start parked until bar.unleashvius (the report's `restart`, sec. 3.3).
  MeshFunctional(const CbMeshGeometry& mesh, uint32_t cb_bytes, bool park_vius);
  // Runs the launch (a 2-D grid; gridDim.z must be 1) to its end. RunError on a
  // fault, a synchronisation count that differs, or a deadlock (naming the units).
  void run(const KernelInfo& k, const LaunchState& L);
  const MeshRunStats& stats() const { return stats_; }

  // MeshPort
  uint8_t* cb_span(const Block& b, Space space, bool store, uint64_t offset, unsigned bytes, std::string& why) override;
  void block_synchronised(Block& b) override;
  void unleash_vius(Block& b) override;

 private:
  void run_pass(const KernelInfo& k, const LaunchState& L, const PassPlan& plan, uint32_t pass);
  void start_unit(const KernelInfo& k, const LaunchState& L, const PassPlan& plan, uint32_t pass, uint32_t unit,
                  const UnitTask& t);
  void released(const std::vector<uint32_t>& units);
  void count_global(const Warp& w, const Instr& in, MeshSource src);  // after a memory instruction executed
  // An interface unit is a reduced SM (sec. 5): no FPU, SFU or shared memory; an
  // instruction that would need one is a run error naming the unit.
  void check_reduced(uint32_t unit, const Warp& w, const Instr& in) const;
  void set_register(SReg r, uint32_t value);  // in every block of the pass
  UnitTask task(const PassPlan& plan, uint32_t pass, uint32_t unit) const;  // the plan's, less a test fault's

  const CbMeshGeometry& mesh_;
  CbStorage storage_;
  BlockSync sync_;
  bool park_vius_;
  // Test-only faults (WARPTLM_TEST_FAULT): cbmesh_one_half ignores the step
  // parity of the CBs; cbmesh_no_handover runs no virtual IU.
  bool one_half_, no_handover_;
  std::vector<std::unique_ptr<Block>> blocks_;  // by unit, this pass (null: the unit does nothing)
  std::vector<bool> finished_;
  std::vector<MeshSource> source_;  // by unit, this pass
  std::vector<bool> reduced_;       // by unit, this pass: runs an interface unit's task
  // Each unit's four CBs (by CbAccess) at the current synchronisation count (null: none there).
  std::vector<std::array<uint8_t*, 4>> cb_base_;
  uint64_t cb_base_syncs_ = UINT64_MAX;
  void refresh_cb_bases();
  MeshRunStats stats_;
};

}  // namespace warptlm
