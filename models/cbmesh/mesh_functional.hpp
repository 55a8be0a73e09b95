// The mesh's functional model: a launch runs pass by pass on the mesh's units,
// one block per unit (seed 003 sec. 2.5), each unit's warps stepped in turn
// ("execute at issue", no timing), through the mesh's run-time
// (mesh_runtime.hpp). It is sim.mode: functional on the spu platform, and the
// reference the timing mesh's data must equal.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "cbmesh/mesh_runtime.hpp"

namespace warptlm {

class MeshFunctional final : public MeshRuntime {
 public:
  MeshFunctional(const CbMeshGeometry& mesh, uint32_t cb_bytes, MeshRules rules) : MeshRuntime(mesh, cb_bytes, rules) {}
  // Runs the launch (a 2-D grid; gridDim.z must be 1) to its end. RunError on a
  // fault, a synchronisation count that differs, or a deadlock (naming the units).
  void run(const KernelInfo& k, const LaunchState& L);

 private:
  void run_pass(const KernelInfo& k, const LaunchState& L, uint32_t pass);
};

}  // namespace warptlm
