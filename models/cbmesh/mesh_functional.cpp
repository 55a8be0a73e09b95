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
      progress |= run_step(u, *b, L, [](const Warp&, const Instr&) {});
      if (b->warps_done == b->warps.size()) {
        count_instructions(u, *b);
        finish(u);
        ub.block.reset();
        --left;
      }
    }
    if (!progress && left) throw RunStopped("deadlock", "deadlock on the mesh, " + describe_wait());
  }
  end_pass();
}

void MeshFunctional::run(const KernelInfo& k, const LaunchState& L) {
  begin_run(k, L);
  for (uint32_t pass = 0; pass < plan().passes(); ++pass) run_pass(k, L, pass);
}

}  // namespace warptlm
