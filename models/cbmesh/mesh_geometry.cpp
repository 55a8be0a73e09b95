#include "cbmesh/mesh_geometry.hpp"

#include <stdexcept>

namespace warptlm {

CbMeshGeometry::CbMeshGeometry(uint32_t rows, uint32_t cols) : rows_(rows), cols_(cols) {
  if (rows == 0 || cols == 0) throw std::invalid_argument("CB mesh: rows and columns must be at least 1");
}

MeshSide CbMeshGeometry::iu_side(uint32_t unit) const {
  const uint32_t k = unit - sms();
  if (k < cols_) return MeshSide::North;
  if (k < 2 * cols_) return MeshSide::South;
  if (k < 2 * cols_ + rows_) return MeshSide::West;
  return MeshSide::East;
}

uint32_t CbMeshGeometry::iu_position(uint32_t unit) const {
  const uint32_t k = unit - sms();
  if (k < cols_) return k;
  if (k < 2 * cols_) return k - cols_;
  if (k < 2 * cols_ + rows_) return k - 2 * cols_;
  return k - 2 * cols_ - rows_;
}

uint32_t CbMeshGeometry::iu_unit(MeshSide side, uint32_t position) const {
  switch (side) {
    case MeshSide::North: return sms() + position;
    case MeshSide::South: return sms() + cols_ + position;
    case MeshSide::West: return sms() + 2 * cols_ + position;
    case MeshSide::East: return sms() + 2 * cols_ + rows_ + position;
  }
  return 0;
}

// An SM reads the CB above and to its left and writes the CB below and to its
// right; a north IU writes down, a south IU reads from above, a west IU writes
// right, an east IU reads from the left (data flows north-west to south-east).
int32_t CbMeshGeometry::prevv(uint32_t unit) const {
  if (kind(unit) == UnitKind::Sm) return int32_t(vertical_cb(unit / cols_, unit % cols_) + cbs());
  if (iu_side(unit) == MeshSide::South) return int32_t(vertical_cb(rows_, iu_position(unit)) + cbs());
  return kNone;
}

int32_t CbMeshGeometry::prevh(uint32_t unit) const {
  if (kind(unit) == UnitKind::Sm) return int32_t(horizontal_cb(unit / cols_, unit % cols_) + cbs());
  if (iu_side(unit) == MeshSide::East) return int32_t(horizontal_cb(iu_position(unit), cols_) + cbs());
  return kNone;
}

int32_t CbMeshGeometry::nextv(uint32_t unit) const {
  if (kind(unit) == UnitKind::Sm) return int32_t(vertical_cb(unit / cols_ + 1, unit % cols_));
  if (iu_side(unit) == MeshSide::North) return int32_t(vertical_cb(0, iu_position(unit)));
  return kNone;
}

int32_t CbMeshGeometry::nexth(uint32_t unit) const {
  if (kind(unit) == UnitKind::Sm) return int32_t(horizontal_cb(unit / cols_, unit % cols_ + 1));
  if (iu_side(unit) == MeshSide::West) return int32_t(horizontal_cb(iu_position(unit), 0));
  return kNone;
}

int32_t CbMeshGeometry::pointer(uint32_t unit, CbAccess a) const {
  switch (a) {
    case CbAccess::LoadV: return prevv(unit);
    case CbAccess::StoreV: return nextv(unit);
    case CbAccess::LoadH: return prevh(unit);
    case CbAccess::StoreH: return nexth(unit);
  }
  return kNone;
}

int32_t CbMeshGeometry::buffer(int32_t p, uint64_t syncs) const {
  if (p == kNone) return kNone;
  return int32_t((uint64_t(p) + uint64_t(cbs()) * (syncs % 2)) % buffers());
}

uint32_t CbMeshGeometry::writer(uint32_t cb) const {
  const uint32_t vertical = (rows_ + 1) * cols_;
  if (cb < vertical) {
    const uint32_t line = cb / cols_, col = cb % cols_;
    return line == 0 ? iu_unit(MeshSide::North, col) : sm_unit(line - 1, col);
  }
  const uint32_t k = cb - vertical, row = k / (cols_ + 1), line = k % (cols_ + 1);
  return line == 0 ? iu_unit(MeshSide::West, row) : sm_unit(row, line - 1);
}

uint32_t CbMeshGeometry::reader(uint32_t cb) const {
  const uint32_t vertical = (rows_ + 1) * cols_;
  if (cb < vertical) {
    const uint32_t line = cb / cols_, col = cb % cols_;
    return line == rows_ ? iu_unit(MeshSide::South, col) : sm_unit(line, col);
  }
  const uint32_t k = cb - vertical, row = k / (cols_ + 1), line = k % (cols_ + 1);
  return line == cols_ ? iu_unit(MeshSide::East, row) : sm_unit(row, line);
}

std::string CbMeshGeometry::unit_name(uint32_t unit) const {
  if (kind(unit) == UnitKind::Sm) return "sm" + std::to_string(unit);
  static const char* const side[] = {"north", "south", "west", "east"};
  return std::string("iu_") + side[int(iu_side(unit))] + std::to_string(iu_position(unit));
}

uint32_t CbMeshGeometry::faced_sm(uint32_t iu) const {
  const uint32_t pos = iu_position(iu);
  switch (iu_side(iu)) {
    case MeshSide::North: return sm_unit(0, pos);
    case MeshSide::South: return sm_unit(rows_ - 1, pos);
    case MeshSide::West: return sm_unit(pos, 0);
    case MeshSide::East: return sm_unit(pos, cols_ - 1);
  }
  return 0;
}

}  // namespace warptlm
