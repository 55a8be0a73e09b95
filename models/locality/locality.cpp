#include "locality/locality.hpp"

#include <algorithm>
#include <vector>

#include "common/errors.hpp"
#include "gpu/placement.hpp"
#include "sm/sched/scheduler.hpp"
#include "sm/sm.hpp"

namespace warptlm {

namespace {

// Block placement (spec 004 sec. 4.5, Fig. 6.8). Hint 0: round robin (adjacent blocks to different
// SMs). Hints 1-3: the SM that took block b - 1 takes block b too while it has room, in runs of
// `adjacent_blocks` ids (0: ceil(blocks / SMs), so a launch's first wave gives each SM one run of
// consecutive blocks); a run that starts, or a block its SM cannot take, goes round robin.
class LocalityPlacement : public PlacementPolicy {
 public:
  LocalityPlacement(std::shared_ptr<LocalityState> st, Counter* adjacent) : st_(std::move(st)), adjacent_(adjacent) {}
  const char* name() const override { return "locality"; }
  void begin_launch(uint32_t blocks) override {
    blocks_ = blocks;
    last_sm_ = -1;
    rr_.begin_launch(blocks);
  }
  int choose(uint32_t block, const std::vector<bool>& fits) override {
    if (st_->hint == 0) return rr_.choose(block, fits);
    const uint32_t n = uint32_t(fits.size());
    const uint32_t run = st_->p.adjacent_blocks ? st_->p.adjacent_blocks : std::max<uint32_t>(1, (blocks_ + n - 1) / n);
    int sm = -1;
    if (last_sm_ >= 0 && block == last_block_ + 1 && block % run != 0 && fits[size_t(last_sm_)]) {
      sm = last_sm_;
      ++*adjacent_;
    } else {
      sm = rr_.choose(block, fits);
    }
    if (sm >= 0) last_sm_ = sm, last_block_ = block;
    return sm;
  }

 private:
  std::shared_ptr<LocalityState> st_;
  Counter* adjacent_;
  RoundRobinPlacement rr_;
  uint32_t blocks_ = 0, last_block_ = 0;
  int last_sm_ = -1;
};

// The locality-aware two-level warp ordering of one scheduler (spec 004 sec. 4.6, Fig. 6.9). A warp's
// group key: hint 1 (blockIdx.y, warp index in its block); hint 2 blockIdx.x; hint 3 its place in the
// scheduler's pool (slot / schedulers) modulo locality.groups, the pool's warps dealt round robin. The active group's warps come first, round robin from the one after the
// group's last issued warp; then the other groups in key order from the active one on, so the SM issues
// from the next group only when every warp of the active group is stalled, and that group becomes active.
class LocalityOrdering : public WarpOrdering {
 public:
  LocalityOrdering(std::shared_ptr<LocalityState> st, std::unique_ptr<WarpOrdering> baseline, uint32_t schedulers,
                   Counter* switches)
      : st_(std::move(st)), baseline_(std::move(baseline)), schedulers_(schedulers), switches_(switches) {}
  const char* name() const override { return "locality"; }

  void order(const std::vector<WarpSlot*>& warps, std::vector<WarpSlot*>& out) override {
    if (st_->hint == 0) return baseline_->order(warps, out);
    if (launch_ != st_->launch) {  // a new launch: no active group, no round-robin position
      launch_ = st_->launch;
      active_ = kNone;
      last_.clear();
    }
    keyed_.clear();
    for (WarpSlot* w : warps) keyed_.push_back({key_of(*w), w});
    std::sort(keyed_.begin(), keyed_.end(), [](const Keyed& a, const Keyed& b) {
      return a.key != b.key ? a.key < b.key : a.w->slot < b.w->slot;
    });
    out.clear();
    if (keyed_.empty()) return;
    if (last_.size() > 2 * keyed_.size() + 8)  // forget the groups with no warp left (hint 2: one per blockIdx.x run)
      last_.erase(std::remove_if(last_.begin(), last_.end(), [&](const std::pair<uint64_t, uint32_t>& e) {
                    return !std::binary_search(keyed_.begin(), keyed_.end(), Keyed{e.first, nullptr},
                                               [](const Keyed& a, const Keyed& b) { return a.key < b.key; });
                  }), last_.end());
    // The active group, or the first group after it if it has no warps left.
    size_t g = 0;
    while (g < keyed_.size() && keyed_[g].key < active_) ++g;
    if (g == keyed_.size()) g = 0;
    const size_t start = g;
    do {
      size_t end = g;
      while (end < keyed_.size() && keyed_[end].key == keyed_[g].key) ++end;
      // Round robin inside the group: from the warp after its last issued one.
      const uint32_t last = last_issued(keyed_[g].key);
      size_t first = g;
      while (first < end && keyed_[first].w->slot <= last) ++first;
      if (first == end) first = g;
      for (size_t i = first; i < end; ++i) out.push_back(keyed_[i].w);
      for (size_t i = g; i < first; ++i) out.push_back(keyed_[i].w);
      g = end == keyed_.size() ? 0 : end;
    } while (g != start);
  }

  void issued(WarpSlot* w) override {
    if (st_->hint == 0) return baseline_->issued(w);
    if (!w->resident) return;  // its exit retired it at issue: its group is left as it was
    const uint64_t k = key_of(*w);
    if (k != active_) {
      if (active_ != kNone) ++*switches_;
      active_ = k;
    }
    for (auto& e : last_)
      if (e.first == k) { e.second = w->slot; return; }
    last_.push_back({k, w->slot});
  }

 private:
  static constexpr uint64_t kNone = UINT64_MAX;
  struct Keyed { uint64_t key; WarpSlot* w; };
  uint64_t key_of(const WarpSlot& w) const {
    switch (st_->hint) {
      case 1: return (uint64_t(w.block->ctaid[1]) << 32) | w.fw->index;
      case 2: return w.block->ctaid[0];
      default: return (w.slot / schedulers_) % st_->p.groups;  // the warp's place in its scheduler's pool
    }
  }
  uint32_t last_issued(uint64_t key) const {
    for (auto& e : last_)
      if (e.first == key) return e.second;
    return UINT32_MAX;  // none yet: start at the group's first warp
  }
  std::shared_ptr<LocalityState> st_;
  std::unique_ptr<WarpOrdering> baseline_;  // hint 0: the SM's round robin
  uint32_t schedulers_;
  Counter* switches_;
  uint64_t active_ = kNone;
  uint64_t launch_ = 0;
  std::vector<std::pair<uint64_t, uint32_t>> last_;  // per group key: the slot of its last issued warp
  std::vector<Keyed> keyed_;
};

// The mechanism's part inside one SM: it provides the ordering.
class LocalitySm : public SmMechanism {
 public:
  LocalitySm(std::shared_ptr<LocalityState> st, const SmParams& sm, Counter* switches)
      : st_(std::move(st)), sm_(sm), switches_(switches) {}
  const char* name() const override { return "locality"; }
  std::unique_ptr<WarpOrdering> make_ordering(const std::string& name, WarpClassifier) override {
    if (name != "locality") return nullptr;
    return std::make_unique<LocalityOrdering>(st_, warptlm::make_ordering("lrr", sm_), sm_.num_schedulers, switches_);
  }

 private:
  std::shared_ptr<LocalityState> st_;
  SmParams sm_;
  Counter* switches_;
};

uint32_t log2_ceil(uint32_t v) {
  uint32_t b = 0;
  while ((uint64_t(1) << b) < v) ++b;
  return b;
}

}  // namespace

void register_locality() { register_mechanism<LocalityMechanism>("locality", "locality"); }

void LocalityMechanism::declare(ParamTable& t) {
  t.add_choice("gpu.placement", "locality");
  t.add_choice("sm.warp_scheduler", "locality");
  t.int_param("locality.launch_hint", -1, -1, 3,
              "the scheduling hint of every launch (seed 004 Table 6.1: 0 none, 1 lines shared among blocks, 2 "
              "boundary lines, 3 some common data), or -1 for each launch's own (Device::set_launch_hint, a run "
              "file's kernel.hint)");
  t.int_param("locality.adjacent_blocks", 0, 0, 4096,
              "gpu.placement: locality with hint 1-3: consecutive block ids one SM takes in a row while it has room "
              "(0: ceil(blocks / SMs) per launch)");
  t.int_param("locality.groups", 4, 1, 256,
              "sm.warp_scheduler: locality with hint 3: warp groups per scheduler, warps dealt to them round robin "
              "in arrival order");
}

bool LocalityMechanism::wanted(const Config& c) {
  return c.get_string("gpu.placement") == "locality" || c.get_string("sm.warp_scheduler") == "locality";
}

LocalityParams LocalityMechanism::params_from(const Config& c) {
  LocalityParams p;
  p.forced_hint = int(c.get_int("locality.launch_hint"));
  p.adjacent_blocks = uint32_t(c.get_int("locality.adjacent_blocks"));
  p.groups = uint32_t(c.get_int("locality.groups"));
  p.placement = c.get_string("gpu.placement") == "locality";
  p.ordering = c.get_string("sm.warp_scheduler") == "locality";
  return p;
}

uint64_t LocalityMechanism::storage_bits(const Config& c) {
  const uint32_t warps = uint32_t(c.get_int("sm.max_warps")), scheds = uint32_t(c.get_int("sm.num_schedulers"));
  const uint32_t tag = std::max<uint32_t>(1, log2_ceil((warps + scheds - 1) / scheds));
  return 2 + uint64_t(warps + scheds) * tag;
}

LocalityMechanism::LocalityMechanism(const Config& c, StatsRegistry& stats) : st_(std::make_shared<LocalityState>()) {
  st_->p = params_from(c);
  StatGroup g(stats, "locality", "locality");
  hinted_launches_ = &g.counter("hinted_launches", "timing launches that ran with a hint of 1 to 3");
  adjacent_placements_ = &g.counter("adjacent_placements", "blocks placed on the SM that took the block before them (hints 1-3)");
  const double bits = double(storage_bits(c));
  stats.derived("cost.locality.bits", [bits] { return bits; },
                "storage per SM of locality-aware scheduling: the launch hint, a group tag per warp slot and an "
                "active-group register per scheduler");
}

void LocalityMechanism::build_in_sm(SmSite& site) {
  StatGroup g(site.stats, "sm" + std::to_string(site.index) + ".locality", "locality");
  Counter* switches = &g.counter("group_switches", "times a scheduler's active warp group changed (every warp of the old one stalled)");
  site.sm.add_mechanism(std::make_unique<LocalitySm>(st_, site.sm.params(), switches));
}

const KernelInfo* LocalityMechanism::plan_launch(const LaunchPlanRequest& r) {
  const uint32_t h = st_->p.forced_hint >= 0 ? uint32_t(st_->p.forced_hint) : r.launch_hint;
  if (h > 3)
    throw InputError("launch of '" + r.kernel.name + "' with hint " + std::to_string(h) +
                     "; a launch hint is 0 (none), 1 (lines shared among blocks), 2 (boundary lines) or 3 (some common data)");
  st_->hint = h;
  ++st_->launch;
  if (h) ++*hinted_launches_;
  return nullptr;
}

std::unique_ptr<PlacementPolicy> LocalityMechanism::make_placement(const std::string& name) {
  if (name != "locality") return nullptr;
  return std::make_unique<LocalityPlacement>(st_, adjacent_placements_);
}

}  // namespace warptlm
