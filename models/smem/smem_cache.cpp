#include "smem/smem_cache.hpp"

#include <algorithm>

namespace warptlm {

uint32_t SharedMemoryCache::data_rows_for(uint32_t bytes) {
  const uint32_t rows = bytes / kRowBytes;
  uint32_t p = 0;
  for (uint32_t c = 1; c <= kMaxDataRows; c *= 2)
    if (c + (c + kTagsPerRow - 1) / kTagsPerRow <= rows) p = c;
  return p;
}

void SharedMemoryCache::configure(uint32_t base, uint32_t bytes) {
  const uint32_t first = (base + kRowBytes - 1) / kRowBytes;  // the first whole row
  const uint32_t skipped = first * kRowBytes - base;
  rows_ = bytes > skipped ? data_rows_for(bytes - skipped) : 0;
  data_base_ = first;
  blocks_.assign(size_t(2) * rows_, Block{});
}

SharedMemoryCache::Place SharedMemoryCache::translate(uint64_t addr) const {
  Place p;
  p.group = uint32_t(addr >> 7) & 1;                     // G = A[7]
  const uint32_t r = uint32_t(addr >> 8) & row_mask();   // R' = A[15:8] & mask
  p.data_row = data_base_ + r;
  p.data_offset = p.data_row * kRowBytes + p.group * kGroupBanks * kBankBytes;
  const uint32_t tag_group = p.group ^ 1;
  p.tag_bank = tag_group * kGroupBanks + ((r >> 1) & (kGroupBanks - 1));  // R'[4:1]
  p.tag_half = r & 1;                                                     // R'[0]
  p.tag_row = tag_base_row() + (r >> 5);
  p.tag_offset = p.tag_row * kRowBytes + p.tag_bank * kBankBytes + p.tag_half * (kBankBytes / 2);
  p.index = p.group * rows_ + r;
  return p;
}

bool SharedMemoryCache::holds(uint64_t line) const { return owner_of(line) >= 0; }

int SharedMemoryCache::owner_of(uint64_t line) const {
  if (!rows_) return -1;
  const Block& b = blocks_[translate(line * kLine).index];
  return b.valid && b.line == line ? int(b.owner) : -1;
}

SharedMemoryCache::Victim SharedMemoryCache::fill(uint64_t line, uint16_t warp) {
  Victim v;
  if (!rows_) return v;
  Block& b = blocks_[translate(line * kLine).index];
  if (b.valid && b.line != line) v = Victim{true, b.line, b.owner};
  b = Block{true, line, warp};
  return v;
}

bool SharedMemoryCache::invalidate(uint64_t line) {
  if (!rows_) return false;
  Block& b = blocks_[translate(line * kLine).index];
  if (!b.valid || b.line != line) return false;
  b.valid = false;
  return true;
}

void SharedMemoryCache::clear() { std::fill(blocks_.begin(), blocks_.end(), Block{}); }

}  // namespace warptlm
