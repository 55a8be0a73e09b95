#include "elastic/elastic.hpp"

#include "common/errors.hpp"
#include "sm/sm.hpp"

namespace warptlm {

namespace {

// The mechanism's part inside one SM: it only provides the pipeline.
class ElasticSm : public SmMechanism {
 public:
  ElasticSm(const ElasticParams& p, const ElasticCounters& c) : p_(p), c_(c) {}
  const char* name() const override { return "elastic_pipeline"; }
  std::unique_ptr<StagePipeline> make_pipeline(const std::string& name, const PipelineShape& shape) override {
    if (name != "elastic") return nullptr;
    return std::make_unique<ElasticPipeline>(shape, p_, c_);
  }

 private:
  ElasticParams p_;
  ElasticCounters c_;
};

}  // namespace

void register_elastic_pipeline() {
  MechanismInfo m;
  m.name = "elastic_pipeline";
  m.folder = "elastic";
  m.declare = ElasticPipelineMechanism::declare;
  m.wanted = ElasticPipelineMechanism::wanted;
  m.make = [](const Config& c, StatsRegistry& s) { return std::make_unique<ElasticPipelineMechanism>(c, s); };
  MechanismRegistry::add(std::move(m));
}

void ElasticPipelineMechanism::declare(ParamTable& t) {
  t.add_choice("sm.pipeline.backend", "elastic");
  t.int_param("elastic.nonmem_depth", 0, 0, 64,
              "entries of the NONMEM queue, where non-memory subwarps wait for the writeback port (0: the memory "
              "stages' depth, spec 001 Eq. 4)");
  t.int_param("elastic.premem_depth", -1, -1, 64,
              "entries of the PREMEM queue, where memory subwarps wait for MEM0 (-1: a warp's other subwarps, "
              "ceil(32 / sm.pipeline.simd_width) - 1, spec 001 Eq. 5)");
  t.enum_param("elastic.wb_order", "mem_first", {"mem_first", "nonmem_first"},
               "writeback multiplexer after the interconnect's data: the memory stages' output before the NONMEM "
               "queue, or after it (EXE's output always last; the paper does not fix the middle order)");
}

bool ElasticPipelineMechanism::wanted(const Config& c) { return c.get_string("sm.pipeline.backend") == "elastic"; }

ElasticParams ElasticPipelineMechanism::params_from(const Config& c) {
  auto fail = [&c](const char* key, const std::string& why) {
    throw InputError(Place{"", 0, key}, why + " (set at " + c.origin(key) + ")");
  };
  if (c.get_string("sm.pipeline.model") != "inorder")
    fail("sm.pipeline.backend", "elastic needs sm.pipeline.model: inorder (it replaces the in-order pipeline's memory stages)");
  if (c.get_int("sm.writeback_ports") != 1)
    fail("sm.writeback_ports", "the elastic pipeline has one writeback port (spec 001 fn 4); set 1, not " +
                                   std::to_string(c.get_int("sm.writeback_ports")));
  ElasticParams p;
  const uint32_t simd = uint32_t(c.get_int("sm.pipeline.simd_width"));
  const int64_t m = c.get_int("elastic.nonmem_depth"), n = c.get_int("elastic.premem_depth");
  p.nonmem_depth = m ? uint32_t(m) : uint32_t(c.get_int("sm.pipeline.mem_stages"));  // Eq. 4
  p.premem_depth = n >= 0 ? uint32_t(n) : (32 + simd - 1) / simd - 1;                // Eq. 5
  p.mem_first = c.get_string("elastic.wb_order") == "mem_first";
  return p;
}

ElasticPipelineMechanism::ElasticPipelineMechanism(const Config& c, StatsRegistry&) : p_(params_from(c)) {}

void ElasticPipelineMechanism::build_in_sm(SmSite& site) {
  StatGroup g(site.stats, "sm" + std::to_string(site.index) + ".elastic", "elastic");
  ElasticCounters c;
  c.bypass = &g.counter("bypass_writes", "subwarps written back straight from EXE");
  c.nonmem_entries = &g.counter("nonmem_entries", "non-memory subwarps that waited in the NONMEM queue");
  c.premem_entries = &g.counter("premem_entries", "memory subwarps that waited in the PREMEM queue for MEM0");
  c.out_of_order = &g.counter("out_of_order_writebacks", "subwarps written back after a subwarp issued later");
  site.sm.add_mechanism(std::make_unique<ElasticSm>(p_, c));
}

}  // namespace warptlm
