// The Stencil Processing Unit's mesh (seed 003 sec. 2.1-2.2): R x C SMs,
// interface units (IUs) on every side, and the communication buffers (CBs)
// between neighbours, double-buffered. Pure geometry: unit numbering, which
// CB a unit reads and writes on each side, and the physical buffer a pointer
// selects at a given block-synchronisation count.
//
// Unit numbering (generalises the report's 4 x 4 tables, spec 2.1):
//   SMs           0 .. RC-1           row-major, id = C*row + col (row 0 north, col 0 west)
//   north IUs     RC .. RC+C-1        above cols 0..C-1
//   south IUs     RC+C .. RC+2C-1     below cols 0..C-1
//   west IUs      RC+2C .. RC+2C+R-1  left of rows 0..R-1
//   east IUs      RC+2C+R .. +2R-1    right of rows 0..R-1
// CB numbering: vertical CB on boundary line l (0..R) above column c is l*C + c;
// horizontal CB in row r on boundary line l (0..C) is (R+1)C + r(C+1) + l.
// A reader's pointer carries +NCB (the other half of the 2 NCB buffers), so a
// store in step t and the load in step t+1 meet in one buffer.
#pragma once

#include <cstdint>
#include <string>

namespace warptlm {

enum class MeshSide : uint8_t { North, South, West, East };
// The four CB accesses of spec 2.3: ld.cbv reads north, st.cbv writes south,
// ld.cbh reads west, st.cbh writes east.
enum class CbAccess : uint8_t { LoadV, StoreV, LoadH, StoreH };

class CbMeshGeometry {
 public:
  static constexpr int32_t kNone = -1;  // no CB on that side
  enum class UnitKind : uint8_t { Sm, Iu };

  CbMeshGeometry(uint32_t rows, uint32_t cols);

  uint32_t rows() const { return rows_; }
  uint32_t cols() const { return cols_; }
  uint32_t sms() const { return rows_ * cols_; }
  uint32_t ius() const { return 2 * (rows_ + cols_); }
  uint32_t units() const { return sms() + ius(); }
  uint32_t cbs() const { return (rows_ + 1) * cols_ + rows_ * (cols_ + 1); }  // logical CBs
  uint32_t buffers() const { return 2 * cbs(); }                                // physical, double-buffered

  UnitKind kind(uint32_t unit) const { return unit < sms() ? UnitKind::Sm : UnitKind::Iu; }
  MeshSide iu_side(uint32_t unit) const;       // an IU's side of the mesh
  uint32_t iu_position(uint32_t unit) const;   // its column (north, south) or row (west, east)
  uint32_t iu_unit(MeshSide side, uint32_t position) const;
  uint32_t faced_sm(uint32_t iu) const;        // the SM next to an IU (on the mesh's edge)
  uint32_t sm_unit(uint32_t row, uint32_t col) const { return row * cols_ + col; }

  uint32_t vertical_cb(uint32_t line, uint32_t col) const { return line * cols_ + col; }
  uint32_t horizontal_cb(uint32_t row, uint32_t line) const { return (rows_ + 1) * cols_ + row * (cols_ + 1) + line; }

  // The report's per-unit pointers (spec 2.2): readers carry +NCB; kNone: no CB.
  int32_t prevv(uint32_t unit) const;  // the CB above, read
  int32_t prevh(uint32_t unit) const;  // the CB to the left, read
  int32_t nextv(uint32_t unit) const;  // the CB below, written
  int32_t nexth(uint32_t unit) const;  // the CB to the right, written
  int32_t pointer(uint32_t unit, CbAccess a) const;

  // The physical buffer a pointer selects after `syncs` block synchronisations
  // of the pass: (pointer + NCB x syncs) mod 2 NCB. kNone stays kNone.
  int32_t buffer(int32_t pointer, uint64_t syncs) const;
  int32_t buffer(uint32_t unit, CbAccess a, uint64_t syncs) const { return buffer(pointer(unit, a), syncs); }

  // The unit that writes / reads logical CB `cb` (each CB has one of each).
  uint32_t writer(uint32_t cb) const;
  uint32_t reader(uint32_t cb) const;

  std::string unit_name(uint32_t unit) const;  // "sm5", "iu_north2"

 private:
  uint32_t rows_, cols_;
};

}  // namespace warptlm
