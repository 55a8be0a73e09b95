// The mesh's run-time (seed 003 sec. 2.5-2.9), shared by the functional mesh
// and the timing mesh: it places a launch pass by pass (PassPlan), builds each
// unit's block with the unit registers of sec. 2.9, keeps the CB storage and
// the block synchronisation (BlockSync), and is the MeshPort a unit's block
// reaches them through. A CB access goes to the CB storage at the pass's
// synchronisation count; a release writes the new count (and `restart`,
// `reglast`) into the pass's blocks and lets the released units' warps go.
// The two models differ only in who owns and steps the blocks: the functional
// mesh steps them itself, the timing mesh sends them to the SMs.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <utility>
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
  InstructionCounts instructions;  // of every unit's blocks (the functional mesh's count)
  // Lane accesses of ld/st to global memory (a vector access counts once per lane), by source.
  uint64_t global_loads[size_t(MeshSource::Count)] = {}, global_stores[size_t(MeshSource::Count)] = {};
};

// A unit's block placed for a pass.
struct UnitBlock {
  uint32_t unit;
  std::unique_ptr<Block> block;
};

class MeshRuntime : public MeshPort {
 public:
  // `mesh` must outlive the run-time. `park_vius`: virtual IUs start parked until bar.unleashvius (the report's
  // `restart`, sec. 3.3). `leave_early`: a unit that finishes leaves the block synchronisation (spec sec. 6).
  MeshRuntime(const CbMeshGeometry& mesh, uint32_t cb_bytes, bool park_vius, bool leave_early = false);
  const MeshRunStats& stats() const { return stats_; }
  const CbMeshGeometry& geometry() const { return mesh_; }

  // MeshPort
  uint8_t* cb_span(const Block& b, Space space, bool store, uint64_t offset, unsigned bytes, std::string& why) override;
  void block_synchronised(Block& b) override { arrive(b.sm_id); }
  void unleash_vius(Block&) override { unleash(); }

  // This pass: who moves data for unit `u`, and whether it runs an interface unit's task on a reduced SM.
  MeshSource source(uint32_t u) const { return source_[u]; }
  bool reduced(uint32_t u) const { return reduced_[u]; }
  // After a memory instruction of unit `u` executed: counts its global lane accesses.
  void count_global(uint32_t u, const Warp& w, const Instr& in);
  // An interface unit is a reduced SM (sec. 5): no FPU, SFU or shared memory; an
  // instruction that needs one (before it executes: its operation; after: a
  // shared-memory address) is a RunError naming the unit and the PTX line.
  void check_reduced_op(uint32_t u, const Warp& w, const Instr& in) const;
  void check_reduced_access(uint32_t u, const Warp& w, const Instr& in) const;

 protected:
  // A launch's plan (a 2-D grid; InputError otherwise); the counts start again.
  void begin_run(const KernelInfo& k, const LaunchState& L);
  const PassPlan& plan() const { return *plan_; }
  // What unit `u` does in pass `pass` (the plan's, less a test fault's).
  UnitTask task(uint32_t pass, uint32_t u) const;
  // Pass `pass` starts: the barrier's participants, and a block for each (unit order).
  std::vector<UnitBlock> begin_pass(const KernelInfo& k, const LaunchState& L, uint32_t pass);
  // The barrier's inputs: unit `u` reached bar.blocksync; bar.unleashvius; unit `u` finished its block.
  void arrive(uint32_t u) { released(sync_.arrive(u)); }
  void unleash();
  void finish(uint32_t u);
  bool pass_finished() const { return sync_.all_finished(); }
  // Every unit finished: the pass's synchronisation count is checked against pass 0's.
  void end_pass();
  std::string describe_wait() const { return sync_.describe_wait(); }
  // The released unit's block lets its warps go from bar.blocksync (the timing mesh also wakes its SM).
  virtual void release_unit(uint32_t u) { blocks_[u]->release_barrier(kMeshBarrier); }
  Block* block_of(uint32_t u) const { return blocks_[u]; }
  // Unit u's block is gone (its SM freed it): no register write reaches it.
  void forget_block(uint32_t u) { blocks_[u] = nullptr; }

  MeshRunStats stats_;

 private:
  void released(const std::vector<uint32_t>& units);
  void hold_at_start(uint32_t u, Block& b);
  void set_register(SReg r, uint32_t value);  // in every block of the pass
  std::unique_ptr<Block> make_block(const KernelInfo& k, const LaunchState& L, uint32_t pass, uint32_t unit,
                                    const UnitTask& t);
  void refresh_cb_bases();

  const CbMeshGeometry& mesh_;
  CbStorage storage_;
  BlockSync sync_;
  bool park_vius_;
  // Test-only faults (WARPTLM_TEST_FAULT): cbmesh_one_half ignores the step
  // parity of the CBs; cbmesh_no_handover runs no virtual IU.
  bool one_half_, no_handover_;
  std::unique_ptr<PassPlan> plan_;
  std::vector<Block*> blocks_;      // by unit, this pass (null: none, or finished)
  std::vector<MeshSource> source_;  // by unit, this pass
  std::vector<bool> reduced_;       // by unit, this pass: runs an interface unit's task on an IU
  // Each unit's four CBs (by CbAccess) at the current synchronisation count (null: none there).
  std::vector<std::array<uint8_t*, 4>> cb_base_;
  uint64_t cb_base_syncs_ = UINT64_MAX;
};

}  // namespace warptlm
