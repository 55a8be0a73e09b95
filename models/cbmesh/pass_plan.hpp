// The SPU run-time's placement of a 2-D grid of blocks on the mesh (seed 003
// sec. 2.5-2.7): passes of at most R x C blocks, one block per SM, visited in
// row-major order; in each pass every IU is a real loader or storer (its side
// lies on the grid's border) or a virtual IU that restores (north, west) or
// spills (south, east) its CB through global memory; and the IU ids of the
// report (a border index that runs over the whole grid).
#pragma once

#include <cstdint>

#include "cbmesh/mesh_geometry.hpp"

namespace warptlm {

enum class IuRole : uint8_t {
  Loader,   // north/west IU on the grid's border: loads the input from global memory into its CB
  Storer,   // south/east IU on the grid's border: stores its CB's data to global memory
  Restore,  // north/west virtual IU: restores the previous pass's spilled CB
  Spill,    // south/east virtual IU: spills its CB for the next pass
  Idle,     // the SM it faces holds no block in this (partial) pass
};

struct PassCoord {
  uint32_t x = 0, y = 0;  // CPassx, CPassy
};

struct GridBlock {
  bool present = false;  // false: the SM has no block in this (partial) pass
  uint32_t x = 0, y = 0;  // blockIdx.x (column), blockIdx.y (row) in the whole grid
};

// What a unit does in a pass: nothing, a block of the grid (an SM), or an
// interface unit's work (a real IU, or an SM that stands in for the IU beside
// the last column or row of blocks of a partial pass: sec. 2.5, "a SM can act
// as an IU"; models/cbmesh/README.md).
struct UnitTask {
  enum class Kind : uint8_t { None, Compute, Interface };
  Kind kind = Kind::None;
  GridBlock block;                  // Compute: its block; Interface: the block of the SM it faces
  MeshSide side = MeshSide::North;  // Interface: the side of the pass it serves
  uint32_t position = 0;            // Interface: its column (north, south) or row (west, east)
  IuRole role = IuRole::Idle;       // Interface
  uint32_t iu_id = 0;               // Interface: the report's id
};

class PassPlan {
 public:
  // grid_x, grid_y: the launch's gridDim.x (columns) and gridDim.y (rows).
  PassPlan(const CbMeshGeometry& mesh, uint32_t grid_x, uint32_t grid_y);

  uint32_t passes_x() const { return passes_x_; }  // Passx
  uint32_t passes_y() const { return passes_y_; }
  uint32_t passes() const { return passes_x_ * passes_y_; }
  PassCoord coord(uint32_t pass) const { return PassCoord{pass % passes_x_, pass / passes_x_}; }
  uint32_t index(PassCoord p) const { return p.x + p.y * passes_x_; }

  // The block SM `sm` runs in pass `pass`: (row i, col j) of the mesh runs
  // block (C x CPassx + j, R x CPassy + i).
  GridBlock block(uint32_t pass, uint32_t sm) const;
  uint32_t blocks_in_pass(uint32_t pass) const;

  IuRole role(uint32_t pass, uint32_t iu) const;
  bool is_virtual(uint32_t pass, uint32_t iu) const {
    const IuRole r = role(pass, iu);
    return r == IuRole::Restore || r == IuRole::Spill;
  }
  // The report's IU id: north/south C x CPassx + column, west/east R x CPassy + row.
  uint32_t iu_id(uint32_t pass, uint32_t iu) const;
  // What unit `unit` (an SM or an IU) does in pass `pass`.
  UnitTask task(uint32_t pass, uint32_t unit) const;

 private:
  const CbMeshGeometry& mesh_;
  uint32_t grid_x_, grid_y_, passes_x_, passes_y_;
};

}  // namespace warptlm
