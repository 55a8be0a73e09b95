// Seed 001's two mechanisms as one platform mechanism, registered as
// "elastic_pipeline": the in-order pipeline "elastic" (sm.pipeline.backend:
// elastic, with sm.pipeline.model: inorder), queue depths from Eqs. 4 and 5
// unless set; and bank-conflict-aware warp scheduling (bcaws.enabled), an
// issue filter with its history cache in every SM. Either works alone. Their
// storage per SM (Tables 2 and 3) is the stat cost.elastic_pipeline.bits.
#pragma once
#include <memory>
#include <string>

#include "elastic/bcaws.hpp"
#include "elastic/elastic_pipeline.hpp"
#include "gpu/mechanism.hpp"

namespace warptlm {

class ElasticPipelineMechanism : public Mechanism {
 public:
  ElasticPipelineMechanism(const Config& cfg, StatsRegistry& stats);
  const char* name() const override { return "elastic_pipeline"; }
  static bool wanted(const Config& cfg);
  static void declare(ParamTable& t);
  // The queue depths a config asks for: elastic.nonmem_depth / premem_depth, or Eqs. 4 and 5.
  static ElasticParams params_from(const Config& cfg);
  static BcawsParams bcaws_from(const Config& cfg);
  // Storage per SM in bits: the queues' latches ((M + N) x simd_width lanes x elastic.latch_bits, Table 2)
  // and the history cache with its accumulator and counter (Table 3).
  static uint64_t storage_bits(const Config& cfg);
  void build_in_sm(SmSite& site) override;
  bool sm_parts_private() const override { return true; }  // per-SM units and per-SM stats
  const KernelInfo* plan_launch(const LaunchPlanRequest& r) override;

 private:
  bool elastic_;
  ElasticParams p_;
  BcawsParams b_;
  std::vector<BcawsUnit*> units_;  // owned by their SMs
};

void register_elastic_pipeline();

}  // namespace warptlm
