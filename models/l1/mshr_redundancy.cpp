#include "l1/mshr_redundancy.hpp"

namespace warptlm {

void MshrRedundancyParams::declare(ParamTable& t) {
  t.enum_param("l1d.redundancy.mode", "off", {"off", "sliding", "tumbling"},
               "count L1 MSHR allocations that another SM allocated for the same line within l1d.redundancy.window "
               "cycles (spec 004 sec. 4.2): off, a sliding look-back window, or tumbling windows (stats "
               "mshr_redundancy.*)");
  t.int_param("l1d.redundancy.window", 2000, 1, 1 << 30, "cycles of the redundant-MSHR window (the thesis's 2000)");
}

MshrRedundancyParams MshrRedundancyParams::from(const Config& c) {
  MshrRedundancyParams p;
  const std::string m = c.get_string("l1d.redundancy.mode");
  p.mode = m == "sliding" ? Mode::Sliding : m == "tumbling" ? Mode::Tumbling : Mode::Off;
  p.window = uint64_t(c.get_int("l1d.redundancy.window"));
  return p;
}

MshrRedundancy::MshrRedundancy(const MshrRedundancyParams& p, StatsRegistry& stats) : p_(p) {
  StatGroup g(stats, "mshr_redundancy", "mshr_redundancy");
  allocations_ = &g.counter("allocations", "L1 MSHR allocations, all SMs");
  redundant_ = &g.counter("redundant", "of those, allocations for a line another SM allocated within the window");
  merges_ = &g.counter("merges", "misses merged into an L1 MSHR entry, all SMs");
  stats.derived("mshr_redundancy.redundant_fraction", [this] {
    return allocations_->value ? double(redundant_->value) / double(allocations_->value) : 0.0;
  }, "redundant / allocations (0..1)");
  stats.derived("mshr_redundancy.requests_per_entry", [this] {
    return allocations_->value ? double(allocations_->value + merges_->value) / double(allocations_->value) : 0.0;
  }, "requests an L1 MSHR entry served on average: its allocation and the misses merged into it");
}

L1Observer& MshrRedundancy::port(uint32_t sm) {
  ports_.push_back(std::make_unique<Port>(*this, sm));
  return *ports_.back();
}

// Was an allocation at `earlier` within the window of one at `now` (earlier <= now)?
bool MshrRedundancy::recent(uint64_t earlier, uint64_t now) const {
  if (p_.mode == MshrRedundancyParams::Mode::Tumbling) return earlier / p_.window == now / p_.window;
  return now - earlier <= p_.window;  // sliding: in [now - window, now]
}

bool MshrRedundancy::allocated(uint32_t sm, uint64_t line, uint64_t cycle) {
  ++*allocations_;
  Last& l = lines_[line];
  // The latest allocation by another SM: the line's latest, unless that is this SM's own.
  bool redundant = false;
  if (l.sm != UINT32_MAX && l.sm != sm) redundant = recent(l.at, cycle);
  else if (l.other_sm != UINT32_MAX) redundant = recent(l.other_at, cycle);
  if (redundant) ++*redundant_;
  if (l.sm != sm) {
    l.other_sm = l.sm;
    l.other_at = l.at;
  }
  l.sm = sm;
  l.at = cycle;
  return redundant;
}

}  // namespace warptlm
