#include "scratchpad/sharing_unit.hpp"

#include <algorithm>
#include <sstream>

#include "common/errors.hpp"
#include "common/input_register.hpp"  // test_fault
#include "isa/memory.hpp"
#include "isa/passes/passes.hpp"

namespace warptlm {

void SharingParams::declare(ParamTable& t) {
  t.bool_param("ss.enabled", false,
               "scratchpad sharing: extra thread blocks share scratchpad in pairs under a lock (seed 000)");
  declare_ss_threshold(t);
  t.enum_param("ss.owf_order", "owner_first", {"owner_first", "unshared_first"},
               "OWF class priority: owner > unshared > non-owner (the paper's OWF) or unshared first (its counter-example)");
  t.bool_param("ss.owf_greedy", false, "OWF keeps issuing the last warp while it can (GTO-like) inside its class");
  t.enum_param("ss.policy", "reconstructed", {"reconstructed", "all_pairs"},
               "how many blocks share: the paper's rule as reconstructed (at least D blocks progress) or every block paired");
  t.enum_param("ss.layout", "bank_aligned", {"bank_aligned", "packed"},
               "physical scratchpad layout of the pairs: regions start on a bank row where it fits (sharing adds no bank "
               "conflicts) or packed back to back at t * R_tb (offsets shift by any byte count)");
}

SharingParams SharingParams::from(const Config& c) {
  SharingParams p;
  p.enabled = c.get_bool("ss.enabled");
  p.threshold = c.get_float("ss.threshold");
  p.owf_order = c.get_string("ss.owf_order");
  p.owf_greedy = c.get_bool("ss.owf_greedy");
  p.policy = c.get_string("ss.policy");
  p.bank_aligned = c.get_string("ss.layout") == "bank_aligned";
  return p;
}

// Owner Warp First (seed 000, section 4 / spec 3.1): owner warps, then
// unshared, then non-owner warps, each class by dynamic warp id (age); the
// greedy variant keeps the last issued warp first within its class. The class
// priority can be flipped to unshared-first, the paper's counter-example.
class Owf : public WarpOrdering {
 public:
  Owf(WarpClassifier c, bool unshared_first, bool greedy)
      : classify_(std::move(c)), unshared_first_(unshared_first), greedy_(greedy) {}
  const char* name() const override { return "owf"; }
  void configure(bool unshared_first, bool greedy) {
    unshared_first_ = unshared_first;
    greedy_ = greedy;
  }
  void order(const std::vector<WarpSlot*>& warps, std::vector<WarpSlot*>& out) override {
    out = warps;  // oldest first
    auto rank = [&](const WarpSlot* w) {
      int c = classify_ ? classify_(*w) : 0;  // 0 owner, 1 unshared, 2 non-owner
      if (unshared_first_ && c < 2) c = 1 - c;
      return c * 2 + ((greedy_ && w == last_) ? 0 : 1);
    };
    std::stable_sort(out.begin(), out.end(), [&](const WarpSlot* a, const WarpSlot* b) { return rank(a) < rank(b); });
  }
  void issued(WarpSlot* w) override { last_ = w; }

 private:
  WarpClassifier classify_;
  bool unshared_first_ = false, greedy_ = false;
  WarpSlot* last_ = nullptr;
};

std::unique_ptr<WarpOrdering> SharingUnit::make_ordering(const std::string& name, WarpClassifier classify) {
  if (name != "owf") return nullptr;
  auto o = std::make_unique<Owf>(std::move(classify), p_.owf_order == "unshared_first", p_.owf_greedy);
  owf_.push_back(o.get());
  return o;
}

void SharingUnit::configure_owf(bool unshared_first, bool greedy) {
  for (Owf* o : owf_) o->configure(unshared_first, greedy);
}

SharingUnit::SharingUnit(uint32_t sm_id, const SharingParams& p, StatsRegistry& stats, PayloadPool& pool)
    : socket("ssp_socket"), sm_id_(sm_id), p_(p), pool_(pool), gate_open_(test_fault("ssp_gate_open")) {
  socket.register_nb_transport_bw(this, &SharingUnit::socket_bw);
  StatGroup g(stats, "sm" + std::to_string(sm_id) + ".ssp", "ssp");
  shared_blocks_ = &g.counter("shared_blocks", "thread blocks run in a sharing pair");
  unshared_blocks_ = &g.counter("unshared_blocks", "thread blocks run unshared while sharing was on");
  violations_ = &g.counter("lock_violations",
                           "shared-region accesses the lock forbids (after the thread's relssp, or without the lock): run errors");
}

void SharingUnit::begin_kernel(const SharingPlan& plan) {
  plan_ = plan;
  set_active(plan.shsm);
  slot_block_.assign(plan.total, nullptr);
  slot_maps_.clear();
  for (uint32_t s = 0; s < plan.total; ++s) slot_maps_.push_back(slot_map(plan, s));
  owns_.assign(plan.total, false);
  released_.assign(plan.total, {});
}

bool SharingUnit::has_free_slot() const {
  return std::find(slot_block_.begin(), slot_block_.end(), nullptr) != slot_block_.end();
}

int SharingUnit::slot_of(const Block* b) const {
  for (size_t s = 0; s < slot_block_.size(); ++s)
    if (slot_block_[s] == b) return int(s);
  return -1;
}

// A block takes the lowest free slot, with that slot's status (spec 2.3: a
// replacement inherits the slot of the block it replaces).
void SharingUnit::block_arrived(const Block* b) {
  auto it = std::find(slot_block_.begin(), slot_block_.end(), nullptr);
  const size_t s = size_t(it - slot_block_.begin());
  *it = b;
  owns_[s] = false;
  released_[s].assign(b->launch.warps_per_block, 0);  // (its warps are made as the SM installs it)
  ++*(slot_shared(plan_, uint32_t(s)) ? shared_blocks_ : unshared_blocks_);
  if (b->linear_id == preassigned_ && slot_shared(plan_, uint32_t(s)) &&
      arbiter_(MemKind::LockAcquire, slot_pair(plan_, uint32_t(s)), b->linear_id, 0))
    owns_[s] = true;
}

void SharingUnit::block_retired(const Block* b) {
  const int s = slot_of(b);
  if (s < 0) return;
  if (slot_shared(plan_, uint32_t(s)) && owns_[size_t(s)]) {
    // The owner finished: its partner (if one is resident) becomes the owner.
    const uint32_t ps = slot_partner(plan_, uint32_t(s));
    const Block* partner = slot_block_[ps];
    arbiter_(MemKind::LockOwnerDone, slot_pair(plan_, uint32_t(s)), b->linear_id,
             partner ? partner->linear_id : 0xFFFFFFFFu);
    if (partner) owns_[ps] = true;
  }
  owns_[size_t(s)] = false;
  slot_block_[size_t(s)] = nullptr;
}

bool SharingUnit::shared_block(const Block* b) const {
  const int s = slot_of(b);
  return s >= 0 && slot_shared(plan_, uint32_t(s));
}

// Spec 2.4: an access of a shared block at an offset at or above t * R_tb is a
// shared-region access.
uint32_t SharingUnit::shared_region_lanes(Space space, const uint64_t* addr, uint32_t mask) const {
  if (space != Space::Shared && space != Space::Generic) return 0;
  uint32_t lanes = 0;
  for (uint32_t m = mask; m; m &= m - 1) {
    const unsigned l = unsigned(__builtin_ctz(m));
    uint64_t a = addr[l];
    if (space == Space::Generic) {
      if (a < kSharedWindow || a >= kSharedWindow + kSharedWindowSize) continue;
      a -= kSharedWindow;
    }
    if (a >= plan_.private_bytes) lanes |= 1u << l;
  }
  return lanes;
}

void SharingUnit::lock_violation(const Warp& w, const Instr& in, uint32_t lanes, const uint64_t* addr, const char* what) {
  ++*violations_;
  const unsigned l = unsigned(__builtin_ctz(lanes));
  const uint64_t a = addr[l] >= kSharedWindow ? addr[l] - kSharedWindow : addr[l];
  const Block& b = w.block;
  std::ostringstream os;
  os << "scratchpad sharing: kernel '" << w.kernel.name << "', block (" << b.ctaid[0] << "," << b.ctaid[1] << ","
     << b.ctaid[2] << "), warp " << w.index << " (SM " << sm_id_ << "), pc " << in.pc << ", " << w.kernel.origin << ":"
     << in.line << " `" << in.text << "`: lane " << l << " touches the pair's shared region (offset " << a
     << ", shared from " << plan_.private_bytes << ") " << what;
  throw RunError(os.str());
}

// A thread past its relssp has given the region up for good (the compiler pass's contract).
void SharingUnit::check_not_released(const Warp& w, const Instr& in, size_t slot, uint32_t lanes, const uint64_t* addr) {
  if (const uint32_t late = lanes & released_[slot][w.index])
    lock_violation(w, in, late, addr, "after its relssp (the relssp was placed before a shared-region access)");
}

uint32_t SharingUnit::arbiter_(MemKind kind, uint32_t pair, uint32_t block, uint32_t partner) {
  tlm::tlm_generic_payload* q = pool_.acquire();
  q->set_command(kind == MemKind::LockAcquire ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
  q->set_address(pair);
  q->set_data_length(partner);
  GpuExtension& e = gpu_ext(*q);
  e.sm = uint16_t(sm_id_);
  e.block = block;
  e.kind = kind;
  tlm::tlm_phase ph = tlm::BEGIN_REQ;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  socket->nb_transport_fw(*q, ph, t);
  const uint32_t r = uint32_t(e.tag);
  q->release();
  return r;
}

bool SharingUnit::may_issue_memory(const Warp& w, const Instr& in) {
  const int s = slot_of(&w.block);
  if (s < 0 || !slot_shared(plan_, uint32_t(s)) || !in.is_mem || (in.space != Space::Shared && in.space != Space::Generic))
    return true;
  uint64_t addr[32];
  const uint32_t lanes = shared_region_lanes(in.space, addr, peek_addresses(w, in, addr));
  if (!lanes) return true;
  check_not_released(w, in, size_t(s), lanes, addr);
  if (owns_[size_t(s)] || gate_open_) return true;
  // First come first served: take the pair's lock, or retry next cycle.
  if (arbiter_(MemKind::LockAcquire, slot_pair(plan_, uint32_t(s)), w.block.linear_id, 0)) {
    owns_[size_t(s)] = true;
    return true;
  }
  return false;
}

// Executed at issue: the addresses the lanes used must agree with the issue
// check (the block holds the lock; no lane had released the region).
void SharingUnit::memory_executed(const Warp& w, const Instr& in) {
  const int s = slot_of(&w.block);
  if (s < 0 || !slot_shared(plan_, uint32_t(s))) return;
  const uint32_t lanes = shared_region_lanes(w.addr_space, w.addr, w.addr_mask);
  if (!lanes) return;
  check_not_released(w, in, size_t(s), lanes, w.addr);
  if (!owns_[size_t(s)]) lock_violation(w, in, lanes, w.addr, "without holding the pair's lock (the arbiter would refuse it)");
}

// Spec 4.2: the region unlocks once every live thread of the owner has
// executed relssp; a block that does not hold the lock is unaffected.
void SharingUnit::relssp(const Warp& w, uint32_t lanes) {
  const int s = slot_of(&w.block);
  if (s < 0) return;
  auto& rel = released_[size_t(s)];
  rel[w.index] |= lanes;
  if (!owns_[size_t(s)]) return;
  for (const Warp& x : w.block.warps)
    if (x.valid_mask & ~x.exited & ~rel[x.index]) return;  // a live thread has not released yet
  arbiter_(MemKind::LockRelease, slot_pair(plan_, uint32_t(s)), w.block.linear_id, 0);
  owns_[size_t(s)] = false;
}

WarpClass SharingUnit::owf_class(const Block* b) const {
  const int s = slot_of(b);
  if (s < 0 || !slot_shared(plan_, uint32_t(s))) return WarpClass::Unshared;
  return owns_[size_t(s)] ? WarpClass::Owner : WarpClass::NonOwner;
}

SlotMap SharingUnit::physical_map(const Block* b) const {
  const int s = slot_of(b);
  return s < 0 ? SlotMap{} : slot_maps_[size_t(s)];
}

}  // namespace warptlm
