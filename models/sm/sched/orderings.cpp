// The baseline warp orderings.
//   lrr:       loose round robin, starting after the warp issued last.
//   gto:       greedy-then-oldest: keep issuing the same warp until it stalls, then the oldest.
//   oldest:    strict age order.
//   two_level: a small active set scheduled by an inner ordering; a warp that
//              stalls on a long-latency load is demoted to the pending set and the
//              outer policy promotes a pending warp (Narasiman et al., MICRO'11).
#include <algorithm>

#include "sm/sched/scheduler.hpp"

namespace warptlm {

const char* stall_name(Stall s) {
  static const char* n[] = {"issued", "no_warp", "long_mem", "data", "structural", "barrier", "fetch", "other"};
  return n[size_t(s)];
}

namespace {

class Lrr : public WarpOrdering {
 public:
  const char* name() const override { return "lrr"; }
  void order(const std::vector<WarpSlot*>& warps, std::vector<WarpSlot*>& out) override {
    out.clear();
    if (warps.empty()) return;
    // rotate by hardware slot (stable), starting after the warp issued last; the warps sorted by slot are
    // kept while the scheduler's warps are the same ones (the order moves at every issue, the warps rarely)
    if (warps != seen_) {
      seen_ = warps;
      by_slot_ = warps;
      std::sort(by_slot_.begin(), by_slot_.end(), [](WarpSlot* a, WarpSlot* b) { return a->slot < b->slot; });
    }
    const size_t n = by_slot_.size();
    size_t start = 0;
    while (start < n && by_slot_[start]->slot <= last_slot_) ++start;
    if (start == n) start = 0;
    out.insert(out.end(), by_slot_.begin() + long(start), by_slot_.end());
    out.insert(out.end(), by_slot_.begin(), by_slot_.begin() + long(start));
  }
  void issued(WarpSlot* w) override {
    if (w->slot != last_slot_) ++version_;
    last_slot_ = w->slot;
  }
  uint64_t order_version() const override { return version_; }

 private:
  uint32_t last_slot_ = UINT32_MAX;
  uint64_t version_ = 0;
  std::vector<WarpSlot*> seen_;     // the scheduler's warps by_slot_ was sorted from
  std::vector<WarpSlot*> by_slot_;
};

class Oldest : public WarpOrdering {
 public:
  const char* name() const override { return "oldest"; }
  void order(const std::vector<WarpSlot*>& warps, std::vector<WarpSlot*>& out) override { out = warps; }
  uint64_t order_version() const override { return 0; }
};

class Gto : public WarpOrdering {
 public:
  const char* name() const override { return "gto"; }
  void order(const std::vector<WarpSlot*>& warps, std::vector<WarpSlot*>& out) override {
    // oldest first; the warp issued last moves to the front
    out.resize(warps.size());
    const auto it = std::find(warps.begin(), warps.end(), last_);
    if (it == warps.end()) {
      std::copy(warps.begin(), warps.end(), out.begin());
      return;
    }
    out[0] = last_;
    std::copy(warps.begin(), it, out.begin() + 1);
    std::copy(it + 1, warps.end(), out.begin() + (it - warps.begin()) + 1);
  }
  void issued(WarpSlot* w) override {
    if (w != last_) ++version_;
    last_ = w;
  }
  uint64_t order_version() const override { return version_; }

 private:
  WarpSlot* last_ = nullptr;
  uint64_t version_ = 0;
};

class TwoLevel : public WarpOrdering {
 public:
  TwoLevel(uint32_t active, std::unique_ptr<WarpOrdering> inner, bool outer_lrr)
      : size_(active), inner_(std::move(inner)), outer_lrr_(outer_lrr) {}
  const char* name() const override { return "two_level"; }
  void order(const std::vector<WarpSlot*>& warps, std::vector<WarpSlot*>& out) override {
    pending_ready_ = false;
    for (WarpSlot* w : warps)
      if (ready(w) && std::find(active_.begin(), active_.end(), w) == active_.end()) { pending_ready_ = true; break; }
    // drop warps that left; fill the active set from the pending ones
    active_.erase(std::remove_if(active_.begin(), active_.end(),
                                 [&](WarpSlot* w) { return std::find(warps.begin(), warps.end(), w) == warps.end(); }),
                  active_.end());
    if (active_.size() < size_) {
      std::vector<WarpSlot*> pending;
      for (WarpSlot* w : warps)
        if (std::find(active_.begin(), active_.end(), w) == active_.end()) pending.push_back(w);
      if (outer_lrr_ && !pending.empty()) {
        size_t s = 0;
        while (s < pending.size() && pending[s]->slot <= last_promoted_) ++s;
        std::rotate(pending.begin(), pending.begin() + long(s % pending.size()), pending.end());
      }
      // prefer pending warps that can issue: no result outstanding they wait on, not at a barrier
      std::stable_partition(pending.begin(), pending.end(), [](WarpSlot* w) { return ready(w); });
      for (WarpSlot* w : pending) {
        if (active_.size() >= size_) break;
        active_.push_back(w);
        last_promoted_ = w->slot;
      }
    }
    std::vector<WarpSlot*> act = active_;
    std::sort(act.begin(), act.end(), [](WarpSlot* a, WarpSlot* b) { return a->age < b->age; });
    inner_->order(act, out);
  }
  void issued(WarpSlot* w) override { inner_->issued(w); }
  bool watches_stalls() const override { return true; }
  bool stalled(WarpSlot* w, Stall why) override {
    // A warp waiting on memory, or at a barrier (it cannot issue until the
    // pending warps arrive, so keeping it active could deadlock the block),
    // leaves the active set.
    if (why != Stall::LongMem && why != Stall::Barrier) return false;
    auto it = std::find(active_.begin(), active_.end(), w);
    if (it == active_.end()) return false;
    active_.erase(it);  // demoted to the pending set; a pending warp is promoted at the next ordering
    // Worth another look next cycle only if a pending warp could use the place now
    // (otherwise the event that makes one ready wakes the SM anyway).
    return pending_ready_;
  }
  static bool ready(const WarpSlot* w) {
    return w->blocked == Stall::Issued && w->fw && !w->fw->at_barrier && !w->fw->done;
  }
  const std::vector<WarpSlot*>& active_set() const { return active_; }

 private:
  uint32_t size_;
  std::unique_ptr<WarpOrdering> inner_;
  bool outer_lrr_;
  std::vector<WarpSlot*> active_;
  uint32_t last_promoted_ = UINT32_MAX;
  bool pending_ready_ = false;
};

}  // namespace

IssueSelectRtl::Make IssueSelectRtl::make = nullptr;

std::unique_ptr<WarpOrdering> make_issue_ordering(const SmParams& p, uint32_t sm, uint32_t sched, const sc_core::sc_time& period) {
  std::unique_ptr<WarpOrdering> model = make_ordering(p.warp_scheduler, p);
  if (p.issue_select_impl == BlockImpl::Model || !model) return model;
  return IssueSelectRtl::make(p.issue_select_impl, std::move(model), p, sm, sched, period);
}

std::unique_ptr<WarpOrdering> make_ordering(const std::string& name, const SmParams& p) {
  if (name == "lrr") return std::make_unique<Lrr>();
  if (name == "gto") return std::make_unique<Gto>();
  if (name == "oldest") return std::make_unique<Oldest>();
  if (name == "two_level")
    return std::make_unique<TwoLevel>(p.two_level_active, make_ordering(p.two_level_inner, p), p.two_level_outer == "lrr");
  return nullptr;
}

}  // namespace warptlm
