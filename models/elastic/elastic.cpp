#include "elastic/elastic.hpp"

#include "common/errors.hpp"
#include "sm/sched/scheduler.hpp"
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

void register_elastic_pipeline() { register_mechanism<ElasticPipelineMechanism>("elastic_pipeline", "elastic"); }

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
  t.enum_param("elastic.design", "elastic", {"elastic", "split"},
               "elastic: the NONMEM and PREMEM queues (sec. 4); split: the analysis step of Fig. 2b (sec. 3.2), a "
               "fixed NONMEM path as deep as the memory stages beside them, no queues, no bypass");
  t.int_param("elastic.latch_bits", 32, 1, 1024,
              "bits of one lane-latch of the queues, for the storage cost (Table 2 counts lane-latches; a 32-bit result)");
  t.bool_param("bcaws.enabled", false,
               "bank-conflict-aware warp scheduling (spec 001 sec. 4): memory warps wait S + E cycles after a shared "
               "warp whose extra conflict cycles E the history cache predicts (needs sm.pipeline.model: inorder)");
  t.bool_param("bcaws.allow_violation", false,
               "the paper's variant of bank-conflict-aware scheduling (spec 001 sec. 4.5): a masked memory warp may "
               "issue in a cycle where no other warp can (fewer scheduling fails, more bank-conflict stalls)");
  t.int_param("bcaws.sets", 256, 1, 65536, "sets of the bank-conflict history cache (a power of two)");
  t.int_param("bcaws.ways", 2, 1, 64, "ways of the bank-conflict history cache (least recently used replaced)");
  t.int_param("bcaws.pc_bits", 14, 1, 32, "PC bits the history cache keeps: index log2(sets) bits, the rest the tag");
}

BcawsParams ElasticPipelineMechanism::bcaws_from(const Config& c) {
  auto fail = [&c](const char* key, const std::string& why) {
    throw InputError(Place{"", 0, key}, why + " (set at " + c.origin(key) + ")");
  };
  BcawsParams b;
  b.enabled = c.get_bool("bcaws.enabled");
  b.allow_violation = c.get_bool("bcaws.allow_violation");
  b.sets = uint32_t(c.get_int("bcaws.sets"));
  b.ways = uint32_t(c.get_int("bcaws.ways"));
  b.pc_bits = uint32_t(c.get_int("bcaws.pc_bits"));
  if (b.sets & (b.sets - 1)) fail("bcaws.sets", "must be a power of two, not " + std::to_string(b.sets));
  if (b.pc_bits <= uint32_t(__builtin_ctz(b.sets)))
    fail("bcaws.pc_bits", "must exceed log2(bcaws.sets) = " + std::to_string(__builtin_ctz(b.sets)) + " (the tag needs bits)");
  if (b.allow_violation && !b.enabled)
    fail("bcaws.allow_violation", "is the variant of bank-conflict-aware scheduling; it needs bcaws.enabled: true");
  if (b.enabled && c.get_string("sm.pipeline.model") != "inorder")
    fail("bcaws.enabled", "bank-conflict-aware scheduling needs sm.pipeline.model: inorder (it masks by the pipeline's MEM0)");
  return b;
}

uint64_t ElasticPipelineMechanism::storage_bits(const Config& c) {
  uint64_t bits = 0;
  if (c.get_string("sm.pipeline.backend") == "elastic") {
    const ElasticParams p = params_from(c);
    bits += uint64_t(p.nonmem_depth + p.premem_depth) * uint64_t(c.get_int("sm.pipeline.simd_width")) *
            uint64_t(c.get_int("elastic.latch_bits"));
  }
  const BcawsParams b = bcaws_from(c);
  if (b.enabled)  // the cache, and a 5-bit accumulator and counter (Table 3)
    bits += ConflictHistory(b.sets, b.ways, b.pc_bits).bits() + 2 * BcawsParams::kDataBits;
  return bits;
}

bool ElasticPipelineMechanism::wanted(const Config& c) {
  return c.get_string("sm.pipeline.backend") == "elastic" || c.get_bool("bcaws.enabled");
}

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
  p.split = c.get_string("elastic.design") == "split";
  if (p.split) {  // Fig. 2b has no queues
    for (const char* key : {"elastic.nonmem_depth", "elastic.premem_depth"})
      if (c.is_set(key)) fail(key, "elastic.design: split has no queues; leave it unset");
    p.nonmem_depth = p.premem_depth = 0;
  }
  return p;
}

ElasticPipelineMechanism::ElasticPipelineMechanism(const Config& c, StatsRegistry& stats)
    : elastic_(c.get_string("sm.pipeline.backend") == "elastic"),
      p_(elastic_ ? params_from(c) : ElasticParams{}),
      b_(bcaws_from(c)) {
  const double bits = double(storage_bits(c));
  stats.derived("cost.elastic_pipeline.bits", [bits] { return bits; },
                "storage per SM of the elastic pipeline's queues and the bank-conflict history cache (Tables 2 and 3)");
}

void ElasticPipelineMechanism::build_in_sm(SmSite& site) {
  const std::string inst = "sm" + std::to_string(site.index);
  if (elastic_) {
    StatGroup g(site.stats, inst + ".elastic", "elastic");
    ElasticCounters c;
    c.bypass = &g.counter("bypass_writes", "subwarps written back straight from EXE");
    c.nonmem_entries = &g.counter("nonmem_entries", "non-memory subwarps that waited in the NONMEM queue");
    c.premem_entries = &g.counter("premem_entries", "memory subwarps that waited in the PREMEM queue for MEM0");
    c.out_of_order = &g.counter("out_of_order_writebacks", "subwarps written back after a subwarp issued later");
    site.sm.add_mechanism(std::make_unique<ElasticSm>(p_, c));
  }
  if (b_.enabled) {
    StatGroup g(site.stats, inst + ".bcaws", "bcaws");
    BcawsCounters c;
    c.lookups = &g.counter("lookups", "shared-memory warp instructions scheduled (history-cache lookups)");
    c.hits = &g.counter("hits", "lookups that found the instruction in the history cache");
    c.exact = &g.counter("predictions_exact", "predicted extra conflict cycles equal to the instruction's");
    c.under = &g.counter("predictions_under", "predictions below the instruction's extra conflict cycles");
    c.over = &g.counter("predictions_over", "predictions above them");
    c.mask_refusals = &g.counter("mask_refusals", "issue checks of a memory warp refused by the mask");
    const SmParams& sp = site.sm.params();
    auto unit = std::make_unique<BcawsUnit>(site.sm, b_, sp.subwarps(), sp.front_stages + sp.exe_stages, c);
    units_.push_back(unit.get());
    struct Filter : IssueFilter {
      const BcawsUnit& u;
      explicit Filter(const BcawsUnit& x) : u(x) {}
      const char* name() const override { return "bcaws"; }
      bool may_issue(const WarpSlot& w) const override { return u.allows(w); }
      bool soft() const override { return u.allows_violation(); }
    };
    site.sm.add_issue_filter(std::make_shared<Filter>(*unit));
    site.sm.add_mechanism(std::move(unit));
  }
}

// The history cache and the mask start empty at every kernel launch (sec. 5.3).
const KernelInfo* ElasticPipelineMechanism::plan_launch(const LaunchPlanRequest&) {
  for (BcawsUnit* u : units_) u->begin_kernel();
  return nullptr;
}

}  // namespace warptlm
