#include "cbmesh/pass_plan.hpp"

#include <stdexcept>

namespace warptlm {

PassPlan::PassPlan(const CbMeshGeometry& mesh, uint32_t grid_x, uint32_t grid_y)
    : mesh_(mesh),
      grid_x_(grid_x),
      grid_y_(grid_y),
      passes_x_((grid_x + mesh.cols() - 1) / mesh.cols()),
      passes_y_((grid_y + mesh.rows() - 1) / mesh.rows()) {
  if (grid_x == 0 || grid_y == 0) throw std::invalid_argument("SPU pass plan: the grid must have at least one block");
}

GridBlock PassPlan::block(uint32_t pass, uint32_t sm) const {
  const PassCoord p = coord(pass);
  GridBlock b;
  b.x = mesh_.cols() * p.x + sm % mesh_.cols();
  b.y = mesh_.rows() * p.y + sm / mesh_.cols();
  b.present = b.x < grid_x_ && b.y < grid_y_;
  return b;
}

uint32_t PassPlan::blocks_in_pass(uint32_t pass) const {
  uint32_t n = 0;
  for (uint32_t sm = 0; sm < mesh_.sms(); ++sm) n += block(pass, sm).present;
  return n;
}

// A north IU is a real loader in the first pass row, a west IU in the first
// pass column; a south IU stores for real in the last pass row, an east IU in
// the last pass column; every other IU is virtual (spec 2.7: "if an IU is
// inactive because the thread block grid is larger than the actual
// architecture, this IU is turned into a VIU for the all pass").
IuRole PassPlan::role(uint32_t pass, uint32_t iu) const {
  const PassCoord p = coord(pass);
  const uint32_t pos = mesh_.iu_position(iu);
  const MeshSide side = mesh_.iu_side(iu);
  // The IU takes part when the SM it faces holds a block in this pass.
  uint32_t faced = 0;
  switch (side) {
    case MeshSide::North: faced = mesh_.sm_unit(0, pos); break;
    case MeshSide::South: faced = mesh_.sm_unit(mesh_.rows() - 1, pos); break;
    case MeshSide::West: faced = mesh_.sm_unit(pos, 0); break;
    case MeshSide::East: faced = mesh_.sm_unit(pos, mesh_.cols() - 1); break;
  }
  if (!block(pass, faced).present) return IuRole::Idle;
  switch (side) {
    case MeshSide::North: return p.y == 0 ? IuRole::Loader : IuRole::Restore;
    case MeshSide::West: return p.x == 0 ? IuRole::Loader : IuRole::Restore;
    case MeshSide::South: return p.y + 1 == passes_y_ ? IuRole::Storer : IuRole::Spill;
    case MeshSide::East: return p.x + 1 == passes_x_ ? IuRole::Storer : IuRole::Spill;
  }
  return IuRole::Idle;
}

uint32_t PassPlan::iu_id(uint32_t pass, uint32_t iu) const {
  const PassCoord p = coord(pass);
  const MeshSide side = mesh_.iu_side(iu);
  const uint32_t pos = mesh_.iu_position(iu);
  if (side == MeshSide::North || side == MeshSide::South) return mesh_.cols() * p.x + pos;
  return mesh_.rows() * p.y + pos;
}

}  // namespace warptlm
