#include "ciao/interference.hpp"

#include <algorithm>

namespace warptlm {

// Rules 1-4 of spec 002 sec. 3.2 (Fig. 4c).
void InterferenceList::update(uint16_t interfered, uint16_t interferer) {
  Entry& e = e_[interfered % e_.size()];
  if (!e.valid) {
    e = Entry{true, interferer, 0};
  } else if (e.wid == interferer) {
    e.count = uint8_t(std::min<int>(e.count + 1, kMax));
  } else if (rule_ == ListReplace::AtZero) {
    if (e.count) --e.count;
    else e.wid = interferer;
  } else {
    if (e.count) --e.count;
    if (!e.count) e.wid = interferer;
  }
}

void InterferenceList::clear() { std::fill(e_.begin(), e_.end(), Entry{}); }

InterferenceDetector::InterferenceDetector(uint32_t warps, uint32_t list_entries, ListReplace rule, bool windowed)
    : windowed_(windowed), hits_(warps, 0), snap_hits_(warps, 0), list_(list_entries, rule) {}

void InterferenceDetector::vta_hit(uint16_t interfered, uint16_t interferer) {
  ++hits_[interfered];
  list_.update(interfered, interferer);
}

bool InterferenceDetector::above(uint16_t w, double cutoff, uint32_t active) const {
  return double(hits(w)) * double(active) > cutoff * double(instructions());
}

double InterferenceDetector::irs(uint16_t w, uint32_t active) const {
  const uint64_t n = instructions();
  return n ? double(hits(w)) * double(active) / double(n) : 0.0;
}

void InterferenceDetector::close_window() {
  if (!windowed_) return;
  snap_hits_ = hits_;
  snap_inst_ = inst_total_;
}

void InterferenceDetector::reset() {
  std::fill(hits_.begin(), hits_.end(), 0);
  std::fill(snap_hits_.begin(), snap_hits_.end(), 0);
  inst_total_ = snap_inst_ = 0;
  list_.clear();
}

}  // namespace warptlm
