// Scratchpad sharing (seed 000) as a platform mechanism: per SM, the resource
// access unit (SharingUnit, the mechanism's part inside the SM, also the
// provider of Owner Warp First) and the pair-lock arbiter (LockArbiter,
// gpu.sm<i>.ssp) bound to its socket; per launch, the sharing plan (how many
// blocks, which pairs, the bank-aligned layout, spec 000 sec. 2.2); per PTX
// module, the version the compiler passes make (ss.compiler_passes, sec. 6),
// which a launch that shares runs. Registered as "scratchpad_sharing".
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gpu/mechanism.hpp"
#include "scratchpad/lock_arbiter.hpp"
#include "scratchpad/sharing_unit.hpp"

namespace warptlm {

class ScratchpadSharing : public Mechanism {
 public:
  ScratchpadSharing(const Config& cfg, StatsRegistry& stats);
  const char* name() const override { return "scratchpad_sharing"; }

  // Built when the config shares scratchpad (ss.enabled), orders warps Owner
  // Warp First (sm.warp_scheduler: owf) or compiles the passes' version (ss.compiler_passes).
  static bool wanted(const Config& cfg);
  static void declare(ParamTable& t);

  void build_in_sm(SmSite& site) override;
  bool sm_parts_private() const override { return true; }  // per-SM units and per-SM stats
  void module_loaded(const std::string& ptx, const std::string& origin, GlobalMemory& mem, const Module& as_written) override;
  const KernelInfo* functional_version(const KernelInfo& k) const override { return compiled_version(k); }
  const KernelInfo* plan_launch(const LaunchPlanRequest& r) override;

  SharingUnit& unit(uint32_t sm) { return *units_.at(sm); }
  LockArbiterBlock& arbiter(uint32_t sm) { return *arbiters_.at(sm); }

 private:
  // The passes' version of `k` (same module, same entry), or null.
  const KernelInfo* compiled_version(const KernelInfo& k) const;

  SharingParams p_;
  bool owf_;                 // sm.warp_scheduler: owf (the unit provides the ordering)
  bool compiler_passes_;     // ss.compiler_passes
  double pass_threshold_;    // ss.threshold, as the passes read it
  uint32_t bank_row_;        // bytes across all shared-memory banks: the layout's alignment
  BlockImpl arbiter_impl_;   // ss.lock_arbiter.impl
  std::vector<SharingUnit*> units_;                   // owned by their SMs
  std::vector<std::unique_ptr<LockArbiterBlock>> arbiters_;
  std::vector<std::pair<const Module*, std::unique_ptr<Module>>> versions_;  // as written -> after the passes
};

void register_scratchpad_sharing();

}  // namespace warptlm
