// Hint-assisted warp scheduling (seed 004 ch. 5; spec 004 sec. 3), registered as "haws". The compiler
// pass (isa/passes/haws_hints) gives each stall point a chain of hints; in each SM a warp whose next
// instruction waits on a long-latency load runs that chain out of order (hint mode), its destinations
// renamed as the pass decided, and when it comes back to program order skips the hinted instructions
// whose results are in place and copies the renamed ones into their registers. See README.md.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gpu/mechanism.hpp"
#include "isa/passes/haws_hints.hpp"

namespace warptlm {

struct HawsParams {
  bool all_stalled = false;      // haws.trigger: all (only in a cycle no warp of the scheduler issues in order)
  uint32_t rcu_depth = 8;        // RCU entries per warp: hints one episode runs
  uint32_t rcu_entry_bits = 28;  // offset 9, dst 8, renamed 8, ready, control, valid (sec. 3.7)
  uint32_t stack_entries = 8;    // the duplicated SIMT stack
  uint32_t mask_bits = 32;       // its active mask (the thesis's AMD wavefront: 64)
  uint32_t rename_entries = 16;  // renaming table entries (8 scalar + 8 vector in the thesis)
  uint32_t rename_entry_bits = 16;
  bool fault_no_rename = false;  // WARPTLM_TEST_FAULT=haws_no_rename: hints write their original registers
};

// Storage per SM (sec. 3.10): per warp the RCU, the SIMT stack copy (mask + PC + reconvergence PC) and the
// renaming table. 40 warps with the thesis's parameters (64-bit masks): 60,160 bits.
uint64_t haws_storage_bits(const HawsParams& p, uint32_t warps);

// One hint as the SM runs it: the instruction with its registers renamed, and what replay does with it.
struct HawsHintCode {
  passes::HawsHint hint;
  Instr code;        // what hint mode issues (a branch's copy decides the direction only)
  Instr copy;        // renamed: the copy of the spare into the original destination, issued in its place
};
struct HawsChain {
  uint32_t pc = 0;   // the stall point
  std::vector<HawsHintCode> hints;
};
// A kernel's code version with the spare registers and its chains by stall point.
struct HawsVersion {
  std::unique_ptr<KernelInfo> code;
  std::map<uint32_t, HawsChain> chains;
};

struct HawsCounters;

class HawsMechanism : public Mechanism {
 public:
  HawsMechanism(const Config& cfg, StatsRegistry& stats);
  ~HawsMechanism() override;
  const char* name() const override { return "haws"; }
  static bool wanted(const Config& cfg);
  static void declare(ParamTable& t);
  static HawsParams params_from(const Config& cfg);
  void build_in_sm(SmSite& site) override;
  void module_loaded(const std::string& ptx, const std::string& origin, GlobalMemory& mem, const Module& as_written) override;
  const KernelInfo* plan_launch(const LaunchPlanRequest& r) override;

 private:
  HawsVersion* version_of(const KernelInfo& k);
  HawsParams p_;
  std::map<const KernelInfo*, passes::HawsKernelReport> reports_;  // the pass's result for each loaded kernel
  std::map<const KernelInfo*, std::unique_ptr<HawsVersion>> versions_;
  std::vector<class HawsSm*> units_;  // owned by their SMs
  std::unique_ptr<HawsCounters> c_;
};

void register_haws();

}  // namespace warptlm
