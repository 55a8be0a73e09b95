#include "scratchpad/sharing_plan.hpp"

#include <algorithm>
#include <cmath>

namespace warptlm {

SharingPlan plan_sharing(uint32_t R, uint32_t R_tb, double t, uint32_t cap) {
  SharingPlan p;
  p.block_bytes = R_tb;
  if (R_tb == 0 || R_tb > R) return p;
  p.baseline = R / R_tb;
  p.private_bytes = uint32_t(std::floor(t * R_tb));
  if (p.baseline >= cap) {  // not limited by scratchpad: nothing to gain
    p.baseline = std::min(p.baseline, cap);
    p.unshared = p.total = p.baseline;
    return p;
  }
  const double per_extra = t * double(R_tb);  // each extra block turns an unshared block into a pair
  uint32_t pairs = per_extra > 0 ? uint32_t(std::floor(double(R - p.baseline * R_tb) / per_extra + 1e-9)) : 0;
  pairs = std::min(pairs, p.baseline);
  p.total = std::min(p.baseline + pairs, cap);
  p.pairs = p.total - p.baseline;
  p.unshared = p.baseline - p.pairs;
  p.shsm = p.total > p.baseline;
  return p;
}

uint32_t physical_offset(const SharingPlan& p, uint32_t slot, uint32_t offset) {
  const uint32_t B = p.private_bytes, pair_bytes = 2 * B + (p.block_bytes - B);
  if (!slot_shared(p, slot)) {
    const uint32_t k = slot - p.pairs;  // unshared initial slots follow the pairs
    return p.pairs * pair_bytes + k * p.block_bytes + offset;
  }
  const uint32_t pair = slot_pair(p, slot);
  const uint32_t base = pair * pair_bytes;
  if (offset < B) return base + (slot < p.baseline ? 0 : B) + offset;  // private part
  return base + 2 * B + (offset - B);                                    // the pair's shared region
}

uint32_t layout_bytes(const SharingPlan& p) {
  const uint32_t B = p.private_bytes;
  return p.pairs * (2 * B + (p.block_bytes - B)) + p.unshared * p.block_bytes;
}

static uint32_t ceil_log2(uint32_t v) {
  uint32_t b = 0;
  while ((1u << b) < v) ++b;
  return b;
}

uint32_t sharing_hardware_bits(uint32_t T, uint32_t W) {
  return 1 + T * ceil_log2(T + 1) + W + (T / 2) * ceil_log2(T);
}

}  // namespace warptlm
