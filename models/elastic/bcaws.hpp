// Bank-conflict-aware warp scheduling (seed 001 sec. 5; spec 001 sec. 4): after
// a shared-memory warp instruction is scheduled, memory warps are masked for as
// long as its predicted conflicts keep MEM0 busy, so that the next memory
// subwarp finds MEM0 free instead of stalling the front end.
//   - The prediction comes from the bank-conflict history cache: per SM,
//     PC-indexed, `sets` x `ways` lines of a (pc_bits - log2 sets)-bit tag and
//     the last extra degree E = sum of the parts' degrees - subwarps (Eq. 6,
//     fn 8), log2(32) = 5 bits. A miss predicts 0; the cache is cleared at
//     every kernel launch; it learns an instruction's E when its last subwarp
//     has been served at MEM0 (last-value prediction).
//   - A shared warp scheduled at t with prediction E masks memory warps for
//     the cycles [t + S, t + S + E): the next memory warp issues at least
//     warp_safe_mem_dist = ceil(sum d / P) = S + E cycles after it (Eq. 7, one
//     port). Non-memory warps issue meanwhile; a cycle in which every ready
//     warp is a masked memory warp is a scheduling fail (fn 9).
//   - The paper's variant (sec. 6.2, fn 10; bcaws.allow_violation): the mask
//     is a soft filter; in a cycle where it would leave the issue stage idle a
//     masked memory warp issues anyway, trading the scheduling fail for a
//     bank-conflict stall.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "common/stats.hpp"
#include "sm/sm_mechanism.hpp"

namespace warptlm {

class Sm;

struct BcawsParams {
  bool enabled = false;
  bool allow_violation = false;  // the variant of sec. 6.2 (fn 10): a masked memory warp issues when no other warp can
  uint32_t sets = 256, ways = 2, pc_bits = 14;
  static constexpr uint32_t kDataBits = 5;  // log2(warp size): E is 0 .. 31
};

// The bank-conflict history cache (sec. 5.2-5.4).
class ConflictHistory {
 public:
  ConflictHistory(uint32_t sets, uint32_t ways, uint32_t pc_bits);
  // The stored E of the instruction at `pc`, or false (a miss: predict 0).
  bool lookup(uint32_t pc, uint32_t& e);
  // Learn E (saturated to 5 bits) for `pc`; a miss replaces the set's least recently used line.
  void update(uint32_t pc, uint32_t e);
  void clear();
  uint32_t tag_bits() const { return pc_bits_ - index_bits_; }
  // Storage: lines x (data + tag) bits (Table 3).
  uint64_t bits() const { return uint64_t(sets_) * ways_ * (BcawsParams::kDataBits + tag_bits()); }

 private:
  struct Line {
    bool valid = false;
    uint32_t tag = 0, e = 0;
    uint64_t used = 0;
  };
  Line* find(uint32_t pc);
  uint32_t sets_, ways_, pc_bits_, index_bits_;
  std::vector<Line> lines_;
  uint64_t clock_ = 0;
};

struct BcawsCounters {
  Counter *lookups = nullptr, *hits = nullptr, *exact = nullptr, *under = nullptr, *over = nullptr;
  Counter *mask_refusals = nullptr;  // issue checks of a memory warp refused by the mask
};

// The scheduler's part in one SM: predicts at issue, learns at resolution, masks memory warps.
class BcawsUnit : public SmMechanism {
 public:
  BcawsUnit(Sm& sm, const BcawsParams& p, uint32_t subwarps, uint32_t cycles_to_mem0, const BcawsCounters& c);
  const char* name() const override { return "bcaws"; }
  void shared_access_degrees(const Warp& w, const Instr& in, const uint32_t* parts, uint32_t n) override;
  // The issue filter: may this warp issue now?
  bool allows(const WarpSlot& w) const;
  bool allows_violation() const { return allow_violation_; }
  void begin_kernel();  // the cache and the mask are cleared at every launch
  const ConflictHistory& history() const { return history_; }

 private:
  void learn_resolved();
  struct Pending {
    uint64_t ready;
    uint32_t pc, e;
  };
  Sm& sm_;
  ConflictHistory history_;
  uint32_t subwarps_, cycles_to_mem0_;
  bool allow_violation_;
  BcawsCounters c_;
  uint64_t mask_until_ = 0;        // memory warps wait until this cycle
  std::vector<Pending> learning_;  // resolutions not yet written into the cache, in issue order
};

}  // namespace warptlm
