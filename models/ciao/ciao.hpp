// CIAO (seed 002, spec 002) as one platform mechanism, registered as "ciao":
// in every SM a victim tag array fed by the L1 data cache's evictions
// (models/l1/victim_tag_array.hpp), interference detection (interference.hpp)
// and the warp states of Algorithm 1 (warp_states.hpp), applied to issue by a
// filter that holds stalled warps back. ciao.variant chooses CIAO-T
// (throttling), CIAO-P (isolated warps' global accesses go to a cache in the
// shared memory the blocks leave unused, ciao_cache.hpp) or CIAO-C (both). The
// paper's comparison schedulers live here too: CCWS (ccws.hpp) and statPCAL
// (statpcal.hpp). The storage per SM is the stat cost.ciao.bits.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "ciao/ccws.hpp"
#include "ciao/interference.hpp"
#include "ciao/statpcal.hpp"
#include "ciao/warp_states.hpp"
#include "gpu/mechanism.hpp"

namespace warptlm {

struct CiaoParams {
  CiaoVariant variant = CiaoVariant::Throttle;
  uint32_t vta_sets = 48, vta_ways = 8;
  bool vta_invalidate_on_hit = true;
  double high_cutoff = 0.01, low_cutoff = 0.005;
  uint64_t high_epoch = 5000, low_epoch = 100;
  bool windowed = false;
  ListReplace list_replace = ListReplace::AtZero;
  uint32_t list_entries = 64, wid_bits = 6, tag_bits = 25, counter_bits = 32;
  uint32_t smem_latency = 1;  // cycles a shared-memory cache access adds after the L1's tag check
};

class CiaoUnit;

class CiaoMechanism : public Mechanism {
 public:
  CiaoMechanism(const Config& cfg, StatsRegistry& stats);
  const char* name() const override { return "ciao"; }
  static void declare(ParamTable& t);
  static bool wanted(const Config& cfg);
  static CiaoParams params_from(const Config& cfg);
  static CcwsParams ccws_from(const Config& cfg);
  // CCWS's storage per SM: its VTA and a 32-bit score per warp.
  static uint64_t ccws_storage_bits(const CcwsParams& c, const CiaoParams& p, uint32_t warps);
  // Storage per SM in bits, as the seed counts it (sec. V-F; spec 002 sec. 7.1, claim 23).
  static uint64_t storage_bits(const CiaoParams& p, uint32_t warps, uint32_t l1_lines);
  void build_in_sm(SmSite& site) override;
  bool sm_parts_private() const override { return true; }  // per-SM units and per-SM stats
  void module_loaded(const std::string&, const std::string&, GlobalMemory& mem, const Module&) override { mem_ = &mem; }
  const KernelInfo* plan_launch(const LaunchPlanRequest& r) override;

 private:
  void build_ciao(SmSite& site);
  void build_ccws(SmSite& site);
  void build_statpcal(SmSite& site);
  CiaoParams p_;
  bool ccws_;
  CcwsParams ccws_p_;
  std::vector<CiaoUnit*> units_;       // owned by their SMs
  const GlobalMemory* mem_ = nullptr;
  std::vector<CcwsUnit*> ccws_units_;
  uint32_t pcal_tokens_;
  std::vector<StatPcalUnit*> pcal_units_;
};

void register_ciao();

}  // namespace warptlm
