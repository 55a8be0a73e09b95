// The elastic pipeline (seed 001) as a platform mechanism: it provides the
// in-order pipeline "elastic" (sm.pipeline.backend: elastic, with
// sm.pipeline.model: inorder) to every SM, with its queue depths from Eqs. 4
// and 5 unless set. Registered as "elastic_pipeline".
#pragma once
#include <memory>
#include <string>

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
  void build_in_sm(SmSite& site) override;

 private:
  ElasticParams p_;
};

void register_elastic_pipeline();

}  // namespace warptlm
