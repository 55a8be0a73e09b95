// The bytes of the mesh's communication buffers (seed 003 sec. 2.3): 2 NCB
// physical buffers of `cb_bytes` each, addressed like shared memory (an
// offset inside the CB). A unit reaches the CB on one side through its
// pointer and the pass's synchronisation count (CbMeshGeometry::buffer), so a
// store in step t is what the neighbour loads in step t + 1, and the producer's
// stores in step t + 1 go to the other half. No full/empty bits: a load of a
// location the producer did not write in the previous step returns what the
// buffer held (spec 2.3).
#pragma once

#include <cstdint>
#include <vector>

#include "cbmesh/mesh_geometry.hpp"

namespace warptlm {

class CbStorage {
 public:
  CbStorage(const CbMeshGeometry& mesh, uint32_t cb_bytes);

  uint32_t cb_bytes() const { return cb_bytes_; }
  // The CB `unit` reaches with access `a` after `syncs` synchronisations, or
  // nullptr where it has none (an IU's inner side faces no CB on three sides).
  uint8_t* cb(uint32_t unit, CbAccess a, uint64_t syncs);

  // Copy `size` bytes at `offset` of that CB; a missing CB or a range past its
  // end is a RunError naming the unit and the access.
  void store(uint32_t unit, CbAccess a, uint64_t syncs, uint32_t offset, const void* src, uint32_t size);
  void load(uint32_t unit, CbAccess a, uint64_t syncs, uint32_t offset, void* dst, uint32_t size);

 private:
  uint8_t* checked(uint32_t unit, CbAccess a, uint64_t syncs, uint32_t offset, uint32_t size);
  const CbMeshGeometry& mesh_;
  uint32_t cb_bytes_;
  std::vector<uint8_t> bytes_;
};

}  // namespace warptlm
