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

// How the mesh runs (the spu.* options that change the run-time's rules).
struct MeshRules {
  bool park_vius = false;    // spu.restart: virtual IUs start parked until bar.unleashvius (sec. 3.3)
  bool leave_early = false;  // spu.skip_trailing_syncs: a finished unit leaves the block synchronisation (sec. 5)
  bool dma_ius = false;      // spu.iu_model: dma: the IUs are DMA engines, not reduced SMs (sec. 5)
};

struct MeshRunStats {
  uint32_t passes = 0;
  uint64_t syncs_per_pass = 0;  // regspillnb
  uint64_t syncs = 0;           // all passes
  uint64_t cb_loads = 0, cb_stores = 0;  // lane accesses to the CBs
  uint64_t compute_blocks = 0, interface_blocks = 0, virtual_blocks = 0;
  InstructionCounts instructions;      // of the blocks SMs run (the functional mesh's count; all units' but DMAs')
  InstructionCounts dma_instructions;  // of the IUs' programs that DMA engines' sequencers ran
  uint64_t dma_line_reads = 0, dma_line_writes = 0;  // the DMA engines' line requests to memory (timing)
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
  // `mesh` must outlive the run-time.
  MeshRuntime(const CbMeshGeometry& mesh, uint32_t cb_bytes, MeshRules rules);
  const MeshRunStats& stats() const { return stats_; }
  const CbMeshGeometry& geometry() const { return mesh_; }

  // MeshPort
  uint8_t* cb_span(const Block& b, Space space, bool store, uint64_t offset, unsigned bytes, std::string& why) override;
  void block_synchronised(Block& b) override { arrive(b.sm_id); }
  void unleash_vius(Block&) override { unleash(); }

  // This pass: who moves data for unit `u`, and whether it runs an interface unit's task on a reduced SM
  // (or a DMA engine).
  MeshSource source(uint32_t u) const { return source_[u]; }
  bool reduced(uint32_t u) const { return reduced_[u]; }
  // Unit u is a DMA engine (spu.iu_model: dma): an IU position whose block no SM runs.
  bool dma_unit(uint32_t u) const { return rules_.dma_ius && mesh_.kind(u) == CbMeshGeometry::UnitKind::Iu; }
  const MeshRules& rules() const { return rules_; }
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
  void leave(uint32_t u) { released(sync_.leave(u)); }  // its program ended; its block still resident
  void finish(uint32_t u);
  bool pass_finished() const { return sync_.all_finished(); }
  // Every unit finished: the pass's synchronisation count is checked against pass 0's.
  void end_pass();
  std::string describe_wait() const { return sync_.describe_wait(); }
  // Runs unit u's block functionally until each of its warps waits at a barrier or exited (a unit's step);
  // `seen(w, in)` after each memory instruction that accessed memory. Returns whether any warp ran. A warp
  // that executes more than `budget` instructions in the step (0: no limit) is a RunError naming the unit.
  // A functional run's watch (L.watch) sees every instruction.
  template <class Seen>
  bool run_step(uint32_t u, Block& b, const LaunchState& L, Seen&& seen, uint64_t budget = 0);
  // The instructions of unit u's finished block, into the count of who ran it.
  void count_instructions(uint32_t u, const Block& b);
  // The released unit's block lets its warps go from bar.blocksync (the timing mesh also wakes its SM).
  virtual void release_unit(uint32_t u) { blocks_[u]->release_barrier(kMeshBarrier); }
  Block* block_of(uint32_t u) const { return blocks_[u]; }
  // Unit u's block is gone (its SM freed it): no register write reaches it.
  void forget_block(uint32_t u) { blocks_[u] = nullptr; }

  MeshRunStats stats_;

 private:
  void released(const std::vector<uint32_t>& units);
  [[noreturn]] void step_overrun(uint32_t u, const Warp& w, uint64_t budget) const;
  void hold_at_start(uint32_t u, Block& b);
  void set_register(SReg r, uint32_t value);  // in every block of the pass
  std::unique_ptr<Block> make_block(const KernelInfo& k, const LaunchState& L, uint32_t pass, uint32_t unit,
                                    const UnitTask& t);
  void refresh_cb_bases();

  const CbMeshGeometry& mesh_;
  CbStorage storage_;
  BlockSync sync_;
  MeshRules rules_;
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

template <class Seen>
bool MeshRuntime::run_step(uint32_t u, Block& b, const LaunchState& L, Seen&& seen, uint64_t budget) {
  bool ran = false;
  for (auto& w : b.warps) {
    if (w.done || w.at_barrier) continue;
    ran = true;
    for (uint64_t n = 0;; ++n) {
      if (budget && n == budget) step_overrun(u, w, budget);
      const Instr& in = w.kernel.prog[w.pc()];
      w.addr_mask = 0;
      const uint64_t executed = w.insts.thread;
      const StepStatus s = step(w, L);
      if (L.watch) L.watch->after_step(w);
      if (in.is_mem && w.addr_mask) {
        count_global(u, w, in);
        seen(w, in);
      }
      if (reduced_[u] && w.insts.thread != executed) {
        check_reduced_op(u, w, in);
        check_reduced_access(u, w, in);
      }
      if (s == StepStatus::Ok) continue;
      if (s == StepStatus::Exited) b.warp_exited();
      break;
    }
  }
  return ran;
}

}  // namespace warptlm
