#include "cbmesh/mesh_functional.hpp"

#include "common/errors.hpp"

namespace warptlm {

void MeshFunctional::run_pass(const KernelInfo& k, const LaunchState& L, uint32_t pass) {
  std::vector<UnitBlock> units = begin_pass(k, L, pass);
  size_t left = units.size();
  while (left) {
    bool progress = false;
    for (UnitBlock& ub : units) {
      Block* b = ub.block.get();
      if (!b) continue;
      const uint32_t u = ub.unit;
      for (auto& w : b->warps) {
        if (w.done || w.at_barrier) continue;
        progress = true;
        for (;;) {
          const Instr& in = w.kernel.prog[w.pc()];
          w.addr_mask = 0;
          const uint64_t executed = w.insts.thread;
          const StepStatus s = step(w, L);
          if (in.is_mem && w.addr_mask) count_global(u, w, in);
          if (reduced(u) && w.insts.thread != executed) {
            check_reduced_op(u, w, in);
            check_reduced_access(u, w, in);
          }
          if (s == StepStatus::Ok) continue;
          if (s == StepStatus::Exited) b->warp_exited();
          break;
        }
      }
      if (b->warps_done == b->warps.size()) {
        for (const Warp& w : b->warps) stats_.instructions += w.insts;
        finish(u);
        ub.block.reset();
        --left;
      }
    }
    if (!progress && left) throw RunError("deadlock on the mesh, " + describe_wait());
  }
  end_pass();
}

void MeshFunctional::run(const KernelInfo& k, const LaunchState& L) {
  begin_run(k, L);
  for (uint32_t pass = 0; pass < plan().passes(); ++pass) run_pass(k, L, pass);
}

}  // namespace warptlm
