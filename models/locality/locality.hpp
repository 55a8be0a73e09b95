// Hint-assisted locality-aware scheduling (seed 004 ch. 6; spec 004 sec. 4.4-4.6), registered as
// "locality": the host passes a launch hint (Table 6.1: 0 none, 1 lines shared among blocks, 2 boundary
// lines, 3 some common data) with each launch (Device::set_launch_hint, a run file's kernel.hint) or the
// config forces one (locality.launch_hint). With hint 1-3:
//   - block placement (gpu.placement: locality): runs of adjacent block ids go to the same SM;
//   - warp ordering (sm.warp_scheduler: locality): each scheduler's warps fall into groups by the hint's
//     key, round robin inside the active group, the next group (round robin) once every warp of the
//     active one is stalled.
// With hint 0 both are the baseline's round robin, cycle for cycle. Its storage per SM is
// cost.locality.bits.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "gpu/mechanism.hpp"

namespace warptlm {

struct LocalityParams {
  int forced_hint = -1;          // locality.launch_hint: -1 = each launch's own
  uint32_t adjacent_blocks = 0;  // locality.adjacent_blocks: 0 = ceil(blocks / SMs) per launch
  uint32_t groups = 4;           // locality.groups: hint 3's groups per scheduler
  bool placement = false, ordering = false;
};

// What the mechanism's placement and orderings read: the launch in flight's hint.
struct LocalityState {
  LocalityParams p;
  uint32_t hint = 0;
  uint64_t launch = 0;  // timing launches planned so far: the orderings start each launch afresh
};

class LocalityMechanism : public Mechanism {
 public:
  LocalityMechanism(const Config& cfg, StatsRegistry& stats);
  const char* name() const override { return "locality"; }
  static bool wanted(const Config& cfg);
  static void declare(ParamTable& t);
  static LocalityParams params_from(const Config& cfg);
  // Registers per SM: the launch's 2-bit hint, a group tag per warp slot and an active-group register per
  // scheduler, each log2(warps per scheduler) bits wide (the thesis gives no figure, sec. 4.6).
  static uint64_t storage_bits(const Config& cfg);
  void build_in_sm(SmSite& site) override;
  const KernelInfo* plan_launch(const LaunchPlanRequest& r) override;
  std::unique_ptr<PlacementPolicy> make_placement(const std::string& name) override;

 private:
  std::shared_ptr<LocalityState> st_;
  Counter *hinted_launches_, *adjacent_placements_;
};

void register_locality();

}  // namespace warptlm
