// The timing mesh (seed 003 sec. 2.3-2.5): the SystemC block that holds the
// mesh's communication buffers, its SPU-wide barrier and its pass dispatcher,
// beside the platform's SMs (unit u of the mesh is the platform's SM u).
//
//  - CB ports: each unit reaches its four CBs through one port that acts
//    exactly as shared memory (sec. 2.3: "Acting exactly as shared memory"):
//    a SharedMemory bank array with the smem.* banks, latency and conflicts,
//    bound to the SM's cb_socket, one access at a time (stats sm<u>.cb.*).
//    The data moved at issue through the run-time's MeshPort; the port times it.
//  - The barrier: bar.blocksync arrivals, bar.unleashvius and the units'
//    finished blocks reach it from the SMs' edges and act spu.sync_latency - 1
//    cycles later, in its own edge after the SMs'; a release frees the units'
//    warps and wakes their SMs for the next edge. With spu.sync_latency 1 the
//    released warps issue in the cycle after the last arrival, as after a
//    thread barrier (sec. 2.4: "the same type of mechanism").
//  - The pass dispatcher (a BlockSchedule): a pass's blocks go out together,
//    one per unit; the next pass once every unit of this one finished (sec. 2.5).
//  - With spu.iu_model: dma the IU positions hold DMA engines (iu_dma.hpp),
//    children of this block, and the platform has only the R C SMs: the mesh
//    keeps the IUs' blocks and runs each engine's sequencer a step at a time
//    (at the pass's start, and at the edge after each release); the engine's
//    CB port is bound to it and its memory socket below the SMs, after the
//    SMs' L1s. A step's bar.blocksync (or its block's end) reaches the barrier
//    once the step's transfers completed; the engines take their edges after
//    the SMs' and before the barrier's.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <systemc>
#include <vector>

#include "cbmesh/iu_dma.hpp"
#include "cbmesh/mesh_runtime.hpp"
#include "common/clock_domain.hpp"
#include "gpu/dispatcher.hpp"
#include "gpu/mechanism.hpp"
#include "smem/shared_memory.hpp"

namespace warptlm {

class CbMesh : public sc_core::sc_module,
               public ClockedBlock,
               public MeshRuntime,
               public BlockSchedule,
               public DmaSequencer {
 public:
  // Builds a CB port per unit, binds SM u's cb_socket (or IU u's DMA engine) to port u, and joins the core
  // clock (after the SMs and the engines).
  CbMesh(sc_core::sc_module_name name, const CbMeshGeometry& mesh, uint32_t cb_bytes, MeshRules rules,
         uint32_t sync_latency, PlatformSite& site);

  // A launch starts: its plan; the schedule the dispatcher follows.
  BlockSchedule& begin_launch(const KernelInfo& k, LaunchState& L);
  // Each pass's counts, when it ends (the mechanism adds them to its counters).
  std::function<void(const MeshRunStats&)> on_pass_end;

  // MeshPort: the barrier's inputs, from the SMs' edges.
  void block_synchronised(Block& b) override;
  void unleash_vius(Block& b) override { signal(Signal::Unleash, b.sm_id); }
  // SM u retired its block of this pass (before the block is freed).
  void unit_retired(uint32_t u);
  // The last warp of SM u's block exited (spu.skip_trailing_syncs: the unit leaves the synchronisation now,
  // its stores still in flight; the pass ends when it retires).
  void unit_exited(uint32_t u) { signal(Signal::Leave, u); }

  // BlockSchedule
  uint64_t blocks() const override { return blocks_total_; }
  void dispatch(const std::function<void(uint32_t, std::unique_ptr<Block>)>& send) override;
  bool finished() const override { return !pass_running_ && next_pass_ >= plan().passes(); }
  // A stopped launch: which units the barrier waits for in the pass that runs.
  std::string describe_stop() const { return pass_running_ ? describe_wait() : std::string(); }

 private:
  enum class Signal : uint8_t { Arrive, Unleash, Leave, Finish };
  struct Pending {
    uint64_t due;  // the barrier's edge that takes it
    Signal what;
    uint32_t unit;
  };
  void signal(Signal s, uint32_t unit);
  uint64_t clock_edge(uint64_t cycle) override;
  void release_unit(uint32_t u) override;
  // DmaSequencer: run IU u's next step; its transfers completed.
  void dma_step_due(uint32_t u) override;
  void dma_step_done(uint32_t u) override;
  IuDma& dma(uint32_t u) { return *dmas_[u - geometry().sms()]; }

  std::vector<Sm*> sms_;
  std::vector<std::unique_ptr<SharedMemory>> ports_;
  ClockDomain& clock_;
  uint32_t clock_index_ = 0;
  sc_core::sc_time period_;
  uint32_t sync_latency_;
  std::function<void(const std::string&)> fault_;
  // A DMA step's instructions per warp at most: sim.watchdog_cycles, or this with the watchdog off (a
  // spinning program would otherwise hold simulated time still, out of reach of sim.max_cycles).
  static constexpr uint64_t kStepBudgetWithoutWatchdog = 100'000'000;
  uint64_t step_budget_;
  std::vector<std::unique_ptr<IuDma>> dmas_;        // spu.iu_model: dma: one per IU position
  std::vector<std::unique_ptr<Block>> dma_blocks_;  // by unit: the block an engine's sequencer runs this pass
  std::vector<bool> dma_arrived_;                   // by unit: the step ran up to bar.blocksync
  std::vector<Pending> pending_;  // in due order (one latency for all)
  uint64_t cycle_ = 0;
  const KernelInfo* kernel_ = nullptr;
  LaunchState* launch_ = nullptr;
  uint64_t blocks_total_ = 0;
  uint32_t next_pass_ = 0;
  bool pass_running_ = false;
};

}  // namespace warptlm
