#include "scratchpad/scratchpad_sharing.hpp"

#include <algorithm>

#include "common/errors.hpp"
#include "isa/passes/passes.hpp"
#include "scratchpad/sharing_plan.hpp"

namespace warptlm {

void register_scratchpad_sharing() { register_mechanism<ScratchpadSharing>("scratchpad_sharing", "scratchpad"); }

void ScratchpadSharing::declare(ParamTable& t) {
  SharingParams::declare(t);
  declare_ss_pass_params(t);
  declare_block_impl(t, "ss.lock_arbiter", "the pair-lock arbiter's implementation (rtl/lock_arbiter.sv)");
  t.add_choice("sm.warp_scheduler", "owf");  // Owner Warp First (spec 000 sec. 3.1), provided by the unit
}

bool ScratchpadSharing::wanted(const Config& c) {
  return c.get_bool("ss.enabled") || c.get_bool("ss.compiler_passes") || c.get_string("sm.warp_scheduler") == "owf";
}

ScratchpadSharing::ScratchpadSharing(const Config& c, StatsRegistry& stats)
    : p_(SharingParams::from(c)),
      owf_(c.get_string("sm.warp_scheduler") == "owf"),
      compiler_passes_(c.get_bool("ss.compiler_passes")),
      pass_threshold_(c.get_float("ss.threshold")),
      bank_row_(uint32_t(c.get_int("smem.banks") * c.get_int("smem.bank_width"))),
      arbiter_impl_(block_impl(c, "ss.lock_arbiter", LockArbiter::make_rtl != nullptr)) {
  if (!p_.enabled) return;  // OWF or the passes alone add no sharing hardware
  const double bits = double(sharing_hardware_bits(uint32_t(c.get_int("sm.max_blocks")), uint32_t(c.get_int("sm.max_warps"))));
  stats.derived("cost.scratchpad_sharing.bits", [bits] { return bits; },
                "storage per SM: the ShSM bit, the ShTB table, an owner bit per warp and the pair locks (sec. 7.1)");
}

// Inside SM i: the resource access unit, and with sharing on its pair-lock arbiter.
void ScratchpadSharing::build_in_sm(SmSite& site) {
  if (!p_.enabled && !owf_) return;
  auto unit = std::make_unique<SharingUnit>(site.index, p_, site.stats, site.pool);
  units_.push_back(unit.get());
  site.sm.add_mechanism(std::move(unit));
  if (!p_.enabled) return;
  arbiters_.push_back(make_lock_arbiter(arbiter_impl_, "ssp", site.index, site.sm.params().max_blocks, site.stats, site.period));
  units_.back()->socket.bind(arbiters_.back()->target());
  site.bound(units_.back()->socket, arbiters_.back()->target());
  site.in_core_clock(arbiters_.back()->object());
}

// ss.compiler_passes: scratchpad allocation and relssp placement (sec. 6) rewrite a
// second copy of each module, bound to the same device variables.
void ScratchpadSharing::module_loaded(const std::string& ptx, const std::string& origin, GlobalMemory& mem,
                                      const Module& as_written) {
  if (!compiler_passes_) return;
  versions_.emplace_back(&as_written, std::make_unique<Module>(optimize_scratchpad_sharing(ptx, origin, pass_threshold_, nullptr),
                                                               origin, mem, &as_written));
}

const KernelInfo* ScratchpadSharing::compiled_version(const KernelInfo& k) const {
  for (const auto& v : versions_)
    if (v.first->find_kernel(k.name) == &k) return v.second->find_kernel(k.name);
  return nullptr;
}

// The kernel's sharing plan (sec. 2.2): as many blocks as the other limits
// allow, pairs sharing (1 - t) of their scratchpad. A launch that shares runs
// the passes' version; one that launches no extra block runs the code as
// written (sec. 7.10: no relssp reaches a kernel that is not scratchpad-limited).
const KernelInfo* ScratchpadSharing::plan_launch(const LaunchPlanRequest& r) {
  if (!p_.enabled) return nullptr;
  const SmParams& sp = r.sm;
  const BlockUsage& u = r.usage;
  uint32_t cap = std::min(sp.max_blocks, std::min(sp.max_threads / std::max(u.threads, 1u), sp.max_warps / std::max(u.warps, 1u)));
  if (u.registers) cap = std::min(cap, sp.registers / u.registers);
  SharingPlan plan = make_sharing_policy(p_.policy)->plan(sp.shared_mem, u.shared, p_.threshold, cap);
  if (p_.bank_aligned) align_layout(plan, bank_row_, sp.shared_mem);
  if (plan.shsm && layout_bytes(plan) > sp.shared_mem)
    throw RunError("scratchpad-sharing layout of kernel '" + r.kernel.name + "' needs " + std::to_string(layout_bytes(plan)) +
                   " bytes; the SM has " + std::to_string(sp.shared_mem));
  for (SharingUnit* s : units_) s->begin_kernel(plan);
  for (auto& a : arbiters_) a->reset();
  return plan.shsm ? compiled_version(r.kernel) : nullptr;
}

}  // namespace warptlm
