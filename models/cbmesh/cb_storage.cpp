#include "cbmesh/cb_storage.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

#include "common/errors.hpp"

namespace warptlm {

CbStorage::CbStorage(const CbMeshGeometry& mesh, uint32_t cb_bytes)
    : mesh_(mesh), cb_bytes_(cb_bytes), bytes_(size_t(mesh.buffers()) * cb_bytes, 0) {
  if (cb_bytes == 0) throw std::invalid_argument("CB storage: a CB must hold at least one byte");
}

uint8_t* CbStorage::cb(uint32_t unit, CbAccess a, uint64_t syncs) {
  const int32_t b = mesh_.buffer(unit, a, syncs);
  return b == CbMeshGeometry::kNone ? nullptr : bytes_.data() + size_t(b) * cb_bytes_;
}

uint8_t* CbStorage::checked(uint32_t unit, CbAccess a, uint64_t syncs, uint32_t offset, uint32_t size) {
  static const char* const names[] = {"ld.cbv", "st.cbv", "ld.cbh", "st.cbh"};
  uint8_t* base = cb(unit, a, syncs);
  if (!base) throw RunError(mesh_.unit_name(unit) + ": " + names[int(a)] + " has no CB on that side");
  if (uint64_t(offset) + size > cb_bytes_)
    throw RunError(mesh_.unit_name(unit) + ": " + names[int(a)] + " of " + std::to_string(size) + " bytes at offset " +
                   std::to_string(offset) + " is past the CB's " + std::to_string(cb_bytes_) + " bytes");
  return base + offset;
}

// Stores go south and east only, loads come from north and west only (spec 2.3).
void CbStorage::store(uint32_t unit, CbAccess a, uint64_t syncs, uint32_t offset, const void* src, uint32_t size) {
  if (a != CbAccess::StoreV && a != CbAccess::StoreH) throw std::invalid_argument("CB storage: a store needs st.cbv or st.cbh");
  std::memcpy(checked(unit, a, syncs, offset, size), src, size);
}

void CbStorage::load(uint32_t unit, CbAccess a, uint64_t syncs, uint32_t offset, void* dst, uint32_t size) {
  if (a != CbAccess::LoadV && a != CbAccess::LoadH) throw std::invalid_argument("CB storage: a load needs ld.cbv or ld.cbh");
  std::memcpy(dst, checked(unit, a, syncs, offset, size), size);
}

}  // namespace warptlm
