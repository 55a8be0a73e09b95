// Where virtual IUs spill and restore CBs in global memory (seed 003 sec.
// 2.10, Algorithm 2), in elements of the spill buffer g_CB, generalised to an
// R x C mesh and with the report's inconsistencies resolved (models/cbmesh/README.md):
//   pass p = CPassx + CPassy x Passx owns spillNB slots; a slot holds the C
//   south CBs then the R east CBs of one step, CB_SIZE elements each;
//   an IU addresses its CB by its position on its side (the report's iu_id
//   modulo the side's length), not by the grid-wide id;
//   the slot is the step in which the CB was written: a spill after the
//   n-th synchronisation stores slot n - 1, the restore before the n-th
//   synchronisation loads slot n, so a value crosses a pass boundary in one
//   step, as it crosses a CB inside a pass (write in step t, read in t + 1).
#pragma once

#include <cstdint>

#include "cbmesh/mesh_geometry.hpp"
#include "cbmesh/pass_plan.hpp"

namespace warptlm {

class SpillLayout {
 public:
  SpillLayout(const CbMeshGeometry& mesh, const PassPlan& plan, uint64_t cb_elements, uint64_t syncs_per_pass)
      : mesh_(mesh), plan_(plan), cb_(cb_elements), steps_(syncs_per_pass) {}

  uint64_t slot_elements() const { return (mesh_.cols() + mesh_.rows()) * cb_; }
  uint64_t pass_elements() const { return slot_elements() * steps_; }
  uint64_t total_elements() const { return pass_elements() * plan_.passes(); }  // the g_CB allocation

  // The element of g_CB holding element `e` of the CB a south (East: east) VIU
  // at `position` spills in pass `p`, written in step `slot`.
  uint64_t spill(PassCoord p, MeshSide side, uint32_t position, uint64_t slot, uint64_t e) const {
    const uint64_t within = side == MeshSide::East ? mesh_.cols() * cb_ + position * cb_ : position * cb_;
    return plan_.index(p) * pass_elements() + slot * slot_elements() + within + e;
  }
  // The element a north (West: west) VIU at `position` restores in pass `p`
  // for step `slot`: the south spill of the pass above (east spill of the pass
  // to the left).
  uint64_t restore(PassCoord p, MeshSide side, uint32_t position, uint64_t slot, uint64_t e) const {
    if (side == MeshSide::West) return spill(PassCoord{p.x - 1, p.y}, MeshSide::East, position, slot, e);
    return spill(PassCoord{p.x, p.y - 1}, MeshSide::South, position, slot, e);
  }

  // Algorithm 2's split of a CB among a block's threads: TILE elements each,
  // thread t (threadIdx.y x blockDim.x + threadIdx.x) from H = t x TILE.
  // Requires cb_elements % threads == 0 (checked by the run-time).
  static uint64_t tile(uint64_t cb_elements, uint64_t threads) { return cb_elements / threads; }
  static uint64_t first_element(uint64_t thread, uint64_t tile) { return thread * tile; }

 private:
  const CbMeshGeometry& mesh_;
  const PassPlan& plan_;
  uint64_t cb_, steps_;
};

}  // namespace warptlm
