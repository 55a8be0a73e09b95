// Scratchpad sharing (seed 000): how many thread blocks an SM holds when
// blocks share scratchpad in pairs, which slots are paired, and the hardware
// the mechanism costs.
#pragma once
#include "sm/sm_mechanism.hpp"
#include <cstdint>
#include <memory>
#include <string>

namespace warptlm {

// Per SM, for one kernel.
struct SharingPlan {
  uint32_t baseline = 0;   // D: blocks the scratchpad alone allows without sharing
  uint32_t pairs = 0;      // extra blocks, each paired with one of the first `pairs` initial slots
  uint32_t unshared = 0;   // initial slots left unshared (D - pairs)
  uint32_t total = 0;      // resident blocks with sharing (D + pairs)
  bool shsm = false;       // ShSM: this SM launches more blocks than the baseline
  uint32_t private_bytes = 0;  // t * R_tb rounded down: offsets below are private
  uint32_t block_bytes = 0;    // R_tb
  uint32_t align = 1;          // every region of the layout starts at a multiple of this (align_layout)
};

// The reconstructed formula of spec 000 section 2.2 (the paper defers it to
// Jatala et al. HPDC'16): maximise 2p + u subject to p + u >= D and
// p (1 + t) R_tb + u R_tb <= R, capped by the SM's other limits (`cap`: blocks
// allowed by threads, warps, block slots and registers).
SharingPlan plan_sharing(uint32_t smem_per_sm, uint32_t smem_per_block, double t, uint32_t cap);

// How many blocks an SM holds with sharing and how they pair is a policy: the
// paper defers the count to its HPDC'16 companion, so the reconstruction can
// be swapped for another rule (ss.policy).
class SharingPolicy {
 public:
  virtual ~SharingPolicy() = default;
  virtual const char* name() const = 0;
  virtual SharingPlan plan(uint32_t smem_per_sm, uint32_t smem_per_block, double t, uint32_t cap) const = 0;
};
// "reconstructed": plan_sharing above (keeps at least D blocks able to progress).
// "all_pairs": the naive scheme the paper rejects (Example 3.3): every block in
// a pair, as many pairs as fit, even if fewer than D blocks can then progress.
std::unique_ptr<SharingPolicy> make_sharing_policy(const std::string& name);

// Slot s of a plan: the k-th extra slot (D + k) pairs with initial slot k.
inline bool slot_shared(const SharingPlan& p, uint32_t s) { return s < p.pairs || (s >= p.baseline && s < p.total); }
inline uint32_t slot_partner(const SharingPlan& p, uint32_t s) { return s < p.baseline ? s + p.baseline : s - p.baseline; }
inline uint32_t slot_pair(const SharingPlan& p, uint32_t s) { return s < p.baseline ? s : s - p.baseline; }

// Physical layout per pair (spec 2.4, inferred): [private of the initial
// block][private of the extra block][shared region]; unshared blocks after
// all pairs. The extra block's private part starts at the private size rounded
// up to `align`, and its shared offsets continue from there, so both blocks of
// a pair see the shared region at the same place and every block's offsets
// move by a multiple of `align`. Returns the physical offset of `offset` for a
// block in `slot`.
uint32_t physical_offset(const SharingPlan& p, uint32_t slot, uint32_t offset);
// The same mapping for one slot as two base registers: offsets below
// `boundary` move by `low`, the others by `high` (identity when default).
using SlotMap = SharedAddressMap;  // a slot's two base registers (sm/sm_mechanism.hpp)
SlotMap slot_map(const SharingPlan& p, uint32_t slot);
// Bytes the layout occupies (must fit the SM's scratchpad).
uint32_t layout_bytes(const SharingPlan& p);
// Choose p.align: the largest power of two up to `bank_row` (banks x bank
// width) whose layout still fits `smem_per_sm`. With a full bank row every
// block meets the banks exactly as it would alone, so sharing adds no bank
// conflicts; align 1 (the packed layout) always fits.
void align_layout(SharingPlan& p, uint32_t bank_row, uint32_t smem_per_sm);

// Storage the mechanism adds per SM (spec 2.6): ShSM bit, ShTB table of T
// entries of ceil(log2(T+1)) bits, an owner bit per warp, and floor(T/2)
// locks of ceil(log2 T) bits. T = blocks per SM, W = warps per SM.
uint32_t sharing_hardware_bits(uint32_t max_blocks, uint32_t max_warps);

}  // namespace warptlm
