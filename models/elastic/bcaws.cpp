#include "elastic/bcaws.hpp"

#include <algorithm>

#include "sm/sm.hpp"

namespace warptlm {

ConflictHistory::ConflictHistory(uint32_t sets, uint32_t ways, uint32_t pc_bits)
    : sets_(sets), ways_(ways), pc_bits_(pc_bits), index_bits_(uint32_t(__builtin_ctz(sets))),
      lines_(size_t(sets) * ways) {}

ConflictHistory::Line* ConflictHistory::find(uint32_t pc) {
  const uint32_t set = pc & (sets_ - 1), tag = (pc >> index_bits_) & ((1u << tag_bits()) - 1);
  for (uint32_t w = 0; w < ways_; ++w) {
    Line& l = lines_[size_t(set) * ways_ + w];
    if (l.valid && l.tag == tag) return &l;
  }
  return nullptr;
}

bool ConflictHistory::lookup(uint32_t pc, uint32_t& e) {
  Line* l = find(pc);
  if (!l) return false;
  l->used = ++clock_;
  e = l->e;
  return true;
}

void ConflictHistory::update(uint32_t pc, uint32_t e) {
  e = std::min(e, (1u << BcawsParams::kDataBits) - 1);
  Line* l = find(pc);
  if (!l) {  // an invalid line of the set, else its least recently used
    const uint32_t set = pc & (sets_ - 1);
    for (uint32_t w = 0; w < ways_; ++w) {
      Line& c = lines_[size_t(set) * ways_ + w];
      if (!c.valid) {
        l = &c;
        break;
      }
      if (!l || c.used < l->used) l = &c;
    }
    l->valid = true;
    l->tag = (pc >> index_bits_) & ((1u << tag_bits()) - 1);
  }
  l->e = e;
  l->used = ++clock_;
}

void ConflictHistory::clear() {
  std::fill(lines_.begin(), lines_.end(), Line{});
  clock_ = 0;
}

BcawsUnit::BcawsUnit(Sm& sm, const BcawsParams& p, uint32_t subwarps, uint32_t cycles_to_mem0, const BcawsCounters& c)
    : sm_(sm), history_(p.sets, p.ways, p.pc_bits), subwarps_(subwarps), cycles_to_mem0_(cycles_to_mem0),
      allow_violation_(p.allow_violation), c_(c) {
  set_active(true);
}

// The accumulator is valid once the instruction's last subwarp has been served
// at MEM0: its first subwarp reaches MEM0 cycles_to_mem0 after issue and the
// parts follow back to back, so it learns sum d cycles later.
void BcawsUnit::learn_resolved() {
  const uint64_t now = sm_.cycle();
  size_t k = 0;
  for (; k < learning_.size() && learning_[k].ready <= now; ++k) history_.update(learning_[k].pc, learning_[k].e);
  if (k) learning_.erase(learning_.begin(), learning_.begin() + long(k));
}

// A shared-memory warp instruction is scheduled: predict, mask, and queue what it will teach.
void BcawsUnit::shared_access_degrees(const Warp&, const Instr& in, const uint32_t* parts, uint32_t n) {
  learn_resolved();
  uint32_t sum = 0;
  for (uint32_t k = 0; k < n; ++k) sum += parts[k];
  const uint32_t actual = sum - n;  // each part takes at least one cycle
  uint32_t predicted = 0;
  ++*c_.lookups;
  if (history_.lookup(in.pc, predicted)) ++*c_.hits;
  ++*(predicted == std::min(actual, 31u) ? c_.exact : predicted < actual ? c_.under : c_.over);
  const uint64_t now = sm_.cycle();
  if (predicted) mask_until_ = std::max(mask_until_, now + subwarps_ + predicted);
  learning_.push_back(Pending{now + cycles_to_mem0_ + sum, in.pc, actual});
}

bool BcawsUnit::allows(const WarpSlot& w) const {
  if (sm_.cycle() >= mask_until_ || !w.fw || w.fw->done) return true;
  const uint32_t pc = w.fw->pc();
  if (pc >= w.fw->kernel.prog.size() || !w.fw->kernel.prog[pc].is_mem) return true;
  ++*c_.mask_refusals;
  return false;
}

void BcawsUnit::begin_kernel() {
  history_.clear();
  learning_.clear();
  mask_until_ = 0;
}

}  // namespace warptlm
