#include "l1/victim_tag_array.hpp"

#include <algorithm>
#include <systemc>

#include "common/clock.hpp"

namespace warptlm {

VictimTagArray::VictimTagArray(uint32_t sets, uint32_t ways) : sets_(sets), ways_(ways), slots_(size_t(sets) * ways) {}

void VictimTagArray::insert(uint16_t owner, uint64_t line_addr, uint16_t evictor) {
  Slot* set = set_of(owner);
  Slot* target = nullptr;
  for (uint32_t w = 0; w < ways_; ++w) {
    Slot& s = set[w];
    if (s.valid && s.line_addr == line_addr) {  // already a victim of this warp: the latest interferer, age kept
      s.evictor = evictor;
      return;
    }
    // an empty entry (never filled, or dropped by a hit) first, else the oldest
    if (!target || (target->valid && (!s.valid || s.inserted < target->inserted))) target = &s;
  }
  *target = Slot{true, line_addr, evictor, ++stamp_};
}

bool VictimTagArray::probe(uint16_t warp, uint64_t line_addr, uint16_t& evictor, bool invalidate) {
  Slot* set = set_of(warp);
  for (uint32_t w = 0; w < ways_; ++w)
    if (set[w].valid && set[w].line_addr == line_addr) {
      evictor = set[w].evictor;
      if (invalidate) set[w].valid = false;
      return true;
    }
  return false;
}

void VictimTagArray::clear() {
  std::fill(slots_.begin(), slots_.end(), Slot{});
  stamp_ = 0;
}

std::vector<VictimTagArray::Entry> VictimTagArray::entries(uint16_t warp) const {
  const Slot* set = set_of(warp);
  std::vector<const Slot*> valid;
  for (uint32_t w = 0; w < ways_; ++w)
    if (set[w].valid) valid.push_back(&set[w]);
  std::sort(valid.begin(), valid.end(), [](const Slot* a, const Slot* b) { return a->inserted < b->inserted; });
  std::vector<Entry> out;
  for (const Slot* s : valid) out.push_back(Entry{s->line_addr, s->evictor});
  return out;
}

void VictimTagWatch::line_evicted(uint64_t line_addr, uint16_t owner, uint16_t evictor) {
  vta_.insert(owner, line_addr, evictor);
  ++*insertions_;
}

void VictimTagWatch::line_missed(uint64_t line_addr, uint16_t warp) {
  uint16_t evictor = 0;
  if (!vta_.probe(warp, line_addr, evictor, invalidate_)) return;
  ++*hits_counter_;
  hits_.push_back(Hit{now_value(), warp, evictor});
}

}  // namespace warptlm
