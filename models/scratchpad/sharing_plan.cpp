#include "scratchpad/sharing_plan.hpp"

#include <algorithm>
#include <cmath>

#include "isa/passes/passes.hpp"

namespace warptlm {

SharingPlan plan_sharing(uint32_t R, uint32_t R_tb, double t, uint32_t cap) {
  SharingPlan p;
  p.block_bytes = R_tb;
  if (R_tb == 0 || R_tb > R) return p;
  p.baseline = R / R_tb;
  p.private_bytes = private_boundary(t, R_tb);
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

namespace {

class Reconstructed : public SharingPolicy {
 public:
  const char* name() const override { return "reconstructed"; }
  SharingPlan plan(uint32_t R, uint32_t R_tb, double t, uint32_t cap) const override { return plan_sharing(R, R_tb, t, cap); }
};

// Every block paired: p pairs of (1 + t) R_tb bytes each, the initial slots are
// the p first blocks of the pairs (so the slot model still pairs D + k with k).
class AllPairs : public SharingPolicy {
 public:
  const char* name() const override { return "all_pairs"; }
  SharingPlan plan(uint32_t R, uint32_t R_tb, double t, uint32_t cap) const override {
    SharingPlan p;
    p.block_bytes = R_tb;
    if (R_tb == 0 || R_tb > R) return p;
    p.private_bytes = private_boundary(t, R_tb);
    const uint32_t d = R / R_tb;
    uint32_t pairs = uint32_t(std::floor(double(R) / ((1.0 + t) * R_tb) + 1e-9));
    pairs = std::min(pairs, cap / 2);
    if (d >= cap || 2 * pairs <= d) return plan_sharing(R, R_tb, t, cap);  // nothing to gain
    p.baseline = pairs;
    p.pairs = pairs;
    p.total = 2 * pairs;
    p.shsm = true;
    return p;
  }
};

}  // namespace

std::unique_ptr<SharingPolicy> make_sharing_policy(const std::string& name) {
  if (name == "all_pairs") return std::make_unique<AllPairs>();
  return std::make_unique<Reconstructed>();
}

static uint32_t round_up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

// The extra block of a pair and the pair's shared region start here, pair-relative.
static uint32_t second_base(const SharingPlan& p) { return round_up(p.private_bytes, p.align); }
static uint32_t pair_stride(const SharingPlan& p) { return round_up(second_base(p) + p.block_bytes, p.align); }

SlotMap slot_map(const SharingPlan& p, uint32_t slot) {
  SlotMap m;
  if (!slot_shared(p, slot)) {  // unshared initial slots follow the pairs
    m.high = p.pairs * pair_stride(p) + (slot - p.pairs) * round_up(p.block_bytes, p.align);
    return m;
  }
  const uint32_t base = slot_pair(p, slot) * pair_stride(p);
  // the initial block's private part; then the extra block's private part and the pair's shared region
  m.boundary = slot < p.baseline ? p.private_bytes : 0;
  m.low = base;
  m.high = base + second_base(p);
  return m;
}

uint32_t physical_offset(const SharingPlan& p, uint32_t slot, uint32_t offset) { return slot_map(p, slot)(offset); }

uint32_t layout_bytes(const SharingPlan& p) {
  if (p.unshared == 0) return p.pairs ? (p.pairs - 1) * pair_stride(p) + second_base(p) + p.block_bytes : 0;
  return p.pairs * pair_stride(p) + (p.unshared - 1) * round_up(p.block_bytes, p.align) + p.block_bytes;
}

void align_layout(SharingPlan& p, uint32_t bank_row, uint32_t smem_per_sm) {
  uint32_t a = 1;
  while (a * 2 <= bank_row) a *= 2;
  for (; a > 1; a /= 2) {
    p.align = a;
    if (layout_bytes(p) <= smem_per_sm) return;
  }
  p.align = 1;
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
