#include "ciao/ciao_cache.hpp"

#include <cstring>

#include "isa/memory.hpp"
#include "smem/shared_memory.hpp"

namespace warptlm {

void CiaoSharedCache::begin_kernel(uint32_t base, uint32_t bytes, uint8_t* storage, const GlobalMemory* mem) {
  cache_.configure(base, bytes);
  storage_ = storage;
  mem_ = mem;
}

// The L1 asks in its cycle; the banks serve the access in the next (a booking ahead, SharedMemory::lend_cycle).
void CiaoSharedCache::take_bank_array() {
  banks_.lend_cycle(banks_.cycle() + 1);
}

bool CiaoSharedCache::read(uint64_t addr) {
  take_bank_array();
  return cache_.holds(addr / SharedMemoryCache::kLine);
}

void CiaoSharedCache::fill(uint64_t addr, uint16_t warp) {
  take_bank_array();
  const uint64_t line = addr / SharedMemoryCache::kLine;
  const SharedMemoryCache::Victim v = cache_.fill(line, warp);
  ++*c_.fills;
  if (v.valid) {  // a conflict between isolated warps: the victim's owner lost it to `warp`
    ++*c_.evictions;
    watch_.line_evicted(v.line * SharedMemoryCache::kLine, v.owner, warp);
  }
  copy_line(addr);
}

void CiaoSharedCache::written(uint64_t addr) {
  if (!cache_.holds(addr / SharedMemoryCache::kLine)) return;
  take_bank_array();
  copy_line(addr);
}

void CiaoSharedCache::copy_line(uint64_t addr) {
  if (!storage_ || !mem_) return;
  const uint64_t first = addr / SharedMemoryCache::kLine * SharedMemoryCache::kLine;
  uint8_t* row = storage_ + cache_.translate(first).data_offset;
  for (uint32_t k = 0; k < SharedMemoryCache::kLine; k += 4) {  // bytes outside any allocation read as zero
    const uint8_t* src = mem_->translate(first + k, 4);
    if (src) std::memcpy(row + k, src, 4);
    else std::memset(row + k, 0, 4);
  }
}

}  // namespace warptlm
