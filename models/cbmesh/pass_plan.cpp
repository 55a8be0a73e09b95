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
  // The IU takes part when the SM it faces holds a block in this pass.
  if (!block(pass, mesh_.faced_sm(iu)).present) return IuRole::Idle;
  switch (mesh_.iu_side(iu)) {
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

UnitTask PassPlan::task(uint32_t pass, uint32_t unit) const {
  UnitTask t;
  const PassCoord p = coord(pass);
  if (mesh_.kind(unit) == CbMeshGeometry::UnitKind::Iu) {
    t.role = role(pass, unit);
    if (t.role == IuRole::Idle) return t;
    t.kind = UnitTask::Kind::Interface;
    t.side = mesh_.iu_side(unit);
    t.position = mesh_.iu_position(unit);
    t.iu_id = iu_id(pass, unit);
    t.block = block(pass, mesh_.faced_sm(unit));
    return t;
  }
  t.block = block(pass, unit);
  if (t.block.present) {
    t.kind = UnitTask::Kind::Compute;
    return t;
  }
  // An SM without a block stands in for the east IU of its row when the SM to
  // its west holds the row's last block, or for the south IU of its column
  // when the SM to its north holds the column's last block (never both: the
  // block to the west and the one to the north cannot both exist while this
  // one does not). That side lies on the grid's border, so it stores for real.
  const uint32_t row = unit / mesh_.cols(), col = unit % mesh_.cols();
  if (col > 0 && block(pass, unit - 1).present) {
    t.side = MeshSide::East;
    t.position = row;
    t.block = block(pass, unit - 1);
    t.iu_id = mesh_.rows() * p.y + row;
  } else if (row > 0 && block(pass, unit - mesh_.cols()).present) {
    t.side = MeshSide::South;
    t.position = col;
    t.block = block(pass, unit - mesh_.cols());
    t.iu_id = mesh_.cols() * p.x + col;
  } else {
    t.block = GridBlock{};
    return t;
  }
  t.kind = UnitTask::Kind::Interface;
  t.role = IuRole::Storer;
  return t;
}

}  // namespace warptlm
