// Warp scheduler = an ordering (which warp first) plus issue filters (which
// warps may issue at all). Mechanisms add orderings (SmMechanism::make_ordering)
// and filters (Sm::add_issue_filter) without touching the SM.
#pragma once
#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "common/block_impl.hpp"
#include "sm/sm_params.hpp"
#include "sm/warp_slot.hpp"

namespace warptlm {

class WarpOrdering {
 public:
  virtual ~WarpOrdering() = default;
  virtual const char* name() const = 0;
  // This cycle's priority order of `warps` (the scheduler's resident warps, oldest first).
  virtual void order(const std::vector<WarpSlot*>& warps, std::vector<WarpSlot*>& out) = 0;
  virtual void issued(WarpSlot*) {}
  // The warp was considered and could not issue, for `why`. Returns true when
  // the ordering changed its own state (e.g. a demotion), so the SM looks
  // again next cycle instead of sleeping.
  virtual bool stalled(WarpSlot*, Stall) { return false; }
  // True for an ordering that overrides stalled(): the SM then shows it every
  // warp it considers, including those whose stall is already recorded.
  virtual bool watches_stalls() const { return false; }
  // An ordering built as an issue-selection circuit (the RTL scheduler behind its transactor: candidates
  // in, one warp out) selects one warp at a time instead of listing an order: the highest-priority warp of
  // `candidates`, a mask over the scheduler's warp slots (a warp's bit is its slot / the SM's schedulers),
  // or null when the mask holds none. The SM asks again with the warps that could not issue taken out, so
  // it considers the warps order() would list, in the same order.
  virtual bool selects() const { return false; }
  // An ordering whose order moves only when issued() changes its state: a count that moves whenever it
  // does, so that while neither it nor the scheduler's warps change, order() would list the same warps in the
  // same order and the SM keeps the list it has. kEveryCycle: order() is asked every cycle.
  static constexpr uint64_t kEveryCycle = UINT64_MAX;
  virtual uint64_t order_version() const { return kEveryCycle; }
  virtual WarpSlot* select(const std::vector<WarpSlot*>& /*warps*/, uint64_t /*candidates*/) { return nullptr; }
};

// A warp's class for class-ranked orderings, as the SM's mechanisms classify it (0 ranks first).
using WarpClassifier = std::function<int(const WarpSlot&)>;

class IssueFilter {
 public:
  virtual ~IssueFilter() = default;
  virtual const char* name() const = 0;
  virtual bool may_issue(const WarpSlot& w) const = 0;
  // A soft filter yields: when no warp issues in a cycle and it refused one,
  // the scheduler looks once more without it. Fixed for the filter's life.
  virtual bool soft() const { return false; }
};

// The SM's own orderings by name: "lrr", "gto", "oldest", "two_level"; null for any other.
std::unique_ptr<WarpOrdering> make_ordering(const std::string& name, const SmParams& p);

// Scheduler `sched` of SM `sm`'s own ordering in the implementation sm.issue_select.impl selects: the model
// (make_ordering), or the issue selection's RTL (sched/rtl/warp_select.sv) behind its transactor, or both in
// lockstep. `period`: the core clock's.
std::unique_ptr<WarpOrdering> make_issue_ordering(const SmParams& p, uint32_t sm, uint32_t sched, const sc_core::sc_time& period);

// The issue selection's RTL implementations, made by the RTL library of a build with Verilator
// (register_rtl_blocks; null in a build without RTL): for `impl` rtl or lockstep, around `model`, the
// ordering p.warp_scheduler names (gto or lrr).
struct IssueSelectRtl {
  using Make = std::unique_ptr<WarpOrdering> (*)(BlockImpl impl, std::unique_ptr<WarpOrdering> model, const SmParams& p,
                                                 uint32_t sm, uint32_t sched, const sc_core::sc_time& period);
  static Make make;
};

class WarpScheduler {
 public:
  WarpScheduler(uint32_t id, std::unique_ptr<WarpOrdering> ordering) : id_(id), ordering_(std::move(ordering)) {}
  uint32_t id() const { return id_; }
  WarpOrdering& ordering() { return *ordering_; }
  bool has_ordering() const { return ordering_ != nullptr; }
  void set_ordering(std::unique_ptr<WarpOrdering> o) {
    ordering_ = std::move(o);
    ++warps_version_;
  }
  void add_filter(std::shared_ptr<IssueFilter> f) {
    const bool soft = f->soft();
    filters_.push_back(Filter{std::move(f), soft});
  }
  bool allowed(const WarpSlot& w) const {
    for (const Filter& f : filters_) {
      if (yielded_ && f.soft) continue;
      if (!f.filter->may_issue(w)) {
        soft_refusal_ |= f.soft;
        return false;
      }
    }
    return true;
  }
  bool has_filters() const { return !filters_.empty(); }
  // Soft filters: whether one refused a warp since the last call, and their second look.
  bool take_soft_refusal() {
    const bool r = soft_refusal_;
    soft_refusal_ = false;
    return r;
  }
  void yield_soft_filters(bool y) { yielded_ = y; }
  const std::vector<WarpSlot*>& warps() const { return warps_; }  // resident warps, oldest first
  void add_warp(WarpSlot* w) {
    warps_.push_back(w);
    ++warps_version_;
  }
  void remove_warp(WarpSlot* w) {
    warps_.erase(std::find(warps_.begin(), warps_.end(), w));
    ++warps_version_;
  }
  // Moves whenever the warps or the ordering change (with the ordering's order_version, when the SM's
  // list of this cycle's order is still good).
  uint64_t warps_version() const { return warps_version_; }

 private:
  uint32_t id_;
  std::unique_ptr<WarpOrdering> ordering_;
  struct Filter {
    std::shared_ptr<IssueFilter> filter;
    bool soft;  // read once: soft() is a property of the filter
  };
  std::vector<Filter> filters_;
  std::vector<WarpSlot*> warps_;
  uint64_t warps_version_ = 0;
  mutable bool soft_refusal_ = false;
  bool yielded_ = false;
};

}  // namespace warptlm
