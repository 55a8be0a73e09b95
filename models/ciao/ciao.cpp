#include "ciao/ciao.hpp"

#include "ciao/ciao_unit.hpp"
#include "common/errors.hpp"
#include "l1/l1_cache.hpp"
#include "sm/sched/scheduler.hpp"
#include "sm/sm.hpp"

namespace warptlm {

namespace {
// A unit's issue rule as a hard filter of its SM's schedulers.
template <class Unit>
struct UnitFilter : IssueFilter {
  Unit& u;
  explicit UnitFilter(Unit& x) : u(x) {}
  const char* name() const override { return u.name(); }
  bool may_issue(const WarpSlot& w) const override { return u.allows(w); }
};
}  // namespace

void register_ciao() { register_mechanism<CiaoMechanism>("ciao", "ciao"); }

void CiaoMechanism::declare(ParamTable& t) {
  t.enum_param("ciao.variant", "off", {"off", "p", "t", "c"},
               "CIAO (spec 002 sec. 5.4): off; p: isolated warps use a cache in unused shared memory (CIAO-P); t: the "
               "interferers of severely interfered warps are stalled (CIAO-T); c: both, isolate first, then stall (CIAO-C)");
  t.int_param("ciao.vta_sets", 48, 1, 4096, "victim tag array sets per SM, one per warp slot (Table I: 48)");
  t.int_param("ciao.vta_ways", 8, 1, 64, "victim tag array entries per set, replaced first in first out (Table I: 8)");
  t.bool_param("ciao.vta_invalidate_on_hit", true,
               "a VTA entry that hits is dropped, so one lost line counts once (spec 002 sec. 2.3, unspecified)");
  t.float_param("ciao.high_cutoff", 0.01, 0.0, 1e6,
                "IRS above which a warp's top interferer is isolated or stalled (sec. III-A: 0.01)");
  t.float_param("ciao.low_cutoff", 0.005, 0.0, 1e6,
                "IRS at or below which the warp that triggered an action lets it be undone (sec. III-A: 0.005)");
  t.int_param("ciao.high_epoch", 5000, 1, 1000000000, "SM instructions per high-cutoff epoch (sec. V-E: 5000)");
  t.int_param("ciao.low_epoch", 100, 1, 1000000000, "SM instructions per low-cutoff epoch (sec. V-E: 100)");
  t.enum_param("ciao.irs", "cumulative", {"cumulative", "windowed"},
               "Eq. 1's counts: cumulative since the kernel started (the counters reset per kernel, sec. IV-A) or "
               "windowed since the last high-cutoff epoch (spec 002 sec. 3.1 (b))");
  t.enum_param("ciao.list_replace", "at_zero", {"at_zero", "on_zero"},
               "interference list rule 4 (spec 002 sec. 3.2): at_zero, a different interferer replaces the recorded "
               "one when the counter is already 00; on_zero, the event that brings it to 00 replaces it");
  t.int_param("ciao.list_entries", 64, 1, 4096, "entries of the interference and pair lists (sec. IV-A: 64)");
  t.int_param("ciao.wid_bits", 6, 1, 16, "bits of a warp id in the lists, the VTA and the L1D tags (sec. IV-A: 6)");
  t.int_param("ciao.tag_bits", 25, 1, 64, "bits of a VTA tag, for the storage cost (32-bit address, 128 B lines: 25)");
  t.int_param("ciao.smem_latency", 1, 0, 1000,
              "cycles a shared-memory cache access adds after the L1D's tag check (Table I: 1-cycle shared memory)");
  t.bool_param("ccws.enabled", false,
               "cache-conscious wavefront scheduling, CIAO's comparison scheduler (spec 002 sec. 6.1): warps outside the "
               "lost-locality list may not issue global or local loads");
  t.int_param("ccws.vta_ways", 16, 1, 64, "CCWS victim tag array entries per warp (spec 002 sec. 2.1: twice CIAO's 8)");
  t.int_param("ccws.base_score", 100, 1, 1000000, "CCWS base lost-locality score per warp (the authors' configuration: 100)");
  t.float_param("ccws.k_vc_add", 8, 0, 1e6, "CCWS points per VTA hit, times the SM's VTA hits per instruction and the cutoff (8)");
  t.float_param("ccws.k_wsc", 8, 0, 1e6, "CCWS score cap, times the SM's VTA hits per instruction and the cutoff (8)");
  t.int_param("pcal.tokens", 0, 0, 4096,
              "static priority-based cache allocation (statPCAL, seed 002's bypass comparison): the oldest N running "
              "warps of an SM use the L1D, the others bypass it on a miss (0: off; per kernel, e.g. Table II's SWL)");
}

bool CiaoMechanism::wanted(const Config& c) {
  return c.get_string("ciao.variant") != "off" || c.get_bool("ccws.enabled") || c.get_int("pcal.tokens") > 0;
}

CcwsParams CiaoMechanism::ccws_from(const Config& c) {
  CcwsParams p;
  p.vta_sets = uint32_t(c.get_int("ciao.vta_sets"));
  p.vta_ways = uint32_t(c.get_int("ccws.vta_ways"));
  p.base_score = c.get_int("ccws.base_score");
  p.k_vc_add = c.get_float("ccws.k_vc_add");
  p.k_wsc = c.get_float("ccws.k_wsc");
  return p;
}

CiaoParams CiaoMechanism::params_from(const Config& c) {
  auto fail = [&c](const char* key, const std::string& why) {
    throw InputError(Place{"", 0, key}, why + " (set at " + c.origin(key) + ")");
  };
  CiaoParams p;
  const std::string v = c.get_string("ciao.variant");
  if (v != "off" && c.get_bool("ccws.enabled"))
    fail("ccws.enabled", "CCWS and CIAO are alternative schedulers (seed 002 sec. V-A): set ciao.variant: off for CCWS");
  if (c.get_int("pcal.tokens") > 0 && (v != "off" || c.get_bool("ccws.enabled")))
    fail("pcal.tokens", "statPCAL is an alternative to CIAO and CCWS (seed 002 sec. V-A): use one of them");
  p.variant = v == "p" ? CiaoVariant::Redirect : v == "c" ? CiaoVariant::Combined : CiaoVariant::Throttle;
  if (p.variant != CiaoVariant::Throttle) {
    if (c.get_bool("ss.enabled"))
      fail("ciao.variant", "CIAO-P and CIAO-C keep their cache in the shared memory the blocks leave unused, which "
                           "scratchpad sharing (ss.enabled) also claims for its shared regions: use one of them");
    if (c.get_int("l1d.line") != int64_t(SharedMemoryCache::kLine))
      fail("l1d.line", "CIAO's shared-memory cache holds 128-byte lines (sec. IV-B); l1d.line is " +
                           std::to_string(c.get_int("l1d.line")));
  }
  p.smem_latency = uint32_t(c.get_int("ciao.smem_latency"));
  p.vta_sets = uint32_t(c.get_int("ciao.vta_sets"));
  p.vta_ways = uint32_t(c.get_int("ciao.vta_ways"));
  p.vta_invalidate_on_hit = c.get_bool("ciao.vta_invalidate_on_hit");
  p.high_cutoff = c.get_float("ciao.high_cutoff");
  p.low_cutoff = c.get_float("ciao.low_cutoff");
  p.high_epoch = uint64_t(c.get_int("ciao.high_epoch"));
  p.low_epoch = uint64_t(c.get_int("ciao.low_epoch"));
  p.windowed = c.get_string("ciao.irs") == "windowed";
  p.list_replace = c.get_string("ciao.list_replace") == "on_zero" ? ListReplace::OnZero : ListReplace::AtZero;
  p.list_entries = uint32_t(c.get_int("ciao.list_entries"));
  p.wid_bits = uint32_t(c.get_int("ciao.wid_bits"));
  p.tag_bits = uint32_t(c.get_int("ciao.tag_bits"));
  const uint64_t warps = uint64_t(c.get_int("sm.max_warps"));
  if ((uint64_t(1) << p.wid_bits) < warps)  // the VTA's evicting warp (CIAO and CCWS)
    fail("ciao.wid_bits", std::to_string(p.wid_bits) + " bits cannot name sm.max_warps " + std::to_string(warps) + " warps");
  if (c.get_string("mem.model") != "hierarchy")
    fail("mem.model", "this scheduler watches the L1 data cache: it needs mem.model: hierarchy, not " + c.get_string("mem.model"));
  if (!c.get_bool("l1d.enabled")) fail("l1d.enabled", "this scheduler watches the L1 data cache: it needs l1d.enabled: true");
  if (v == "off") return p;  // CCWS or statPCAL: the lists and cutoffs below are CIAO's
  if (p.low_cutoff > p.high_cutoff)
    fail("ciao.low_cutoff", "must not exceed ciao.high_cutoff (" + std::to_string(p.high_cutoff) +
                                "): a warp would be acted on and released in the same state");
  if (p.list_entries < warps)
    fail("ciao.list_entries", "the lists need an entry per warp slot: " + std::to_string(p.list_entries) + " < sm.max_warps " +
                                  std::to_string(warps));
  return p;
}

uint64_t CiaoMechanism::storage_bits(const CiaoParams& p, uint32_t warps, uint32_t l1_lines) {
  const uint64_t vta = VictimTagArray(p.vta_sets, p.vta_ways).bits(p.tag_bits, p.wid_bits);
  const uint64_t counters = uint64_t(warps) * p.counter_bits + p.counter_bits;  // VTACount per warp, Inst-total
  const uint64_t lists = uint64_t(p.list_entries) * (p.wid_bits + 2) + uint64_t(p.list_entries) * 2 * p.wid_bits;
  const uint64_t flags = 2ull * warps;                      // V and I
  const uint64_t l1_wids = uint64_t(l1_lines) * p.wid_bits;  // the WID in each L1D tag
  // CIAO-P/C: the translation unit's mask and offset registers and the MSHR extension, "64B storage per SM"
  const uint64_t smem_cache = p.variant == CiaoVariant::Throttle ? 0 : 64 * 8;
  return vta + counters + lists + flags + l1_wids + smem_cache;
}

CiaoMechanism::CiaoMechanism(const Config& c, StatsRegistry& stats)
    : p_(params_from(c)), ccws_(c.get_bool("ccws.enabled")), ccws_p_(ccws_from(c)),
      pcal_tokens_(uint32_t(c.get_int("pcal.tokens"))) {
  const uint32_t warps = uint32_t(c.get_int("sm.max_warps"));
  const double bits = pcal_tokens_ ? double(warps)  // a token bit per warp
                      : ccws_ ? double(ccws_storage_bits(ccws_p_, p_, warps))
                              : double(storage_bits(p_, warps, uint32_t(c.get_int("l1d.sets") * c.get_int("l1d.ways"))));
  stats.derived("cost.ciao.bits", [bits] { return bits; },
                "storage per SM of CIAO: victim tag array, VTA-hit and instruction counters, interference and pair "
                "lists, V/I flags, warp ids in the L1D tags (sec. V-F)");
  // The time series of Figs. 9 and 10 (stats.sample_interval): warp states now, interference per interval.
  auto total = [this](uint32_t (WarpStates::*count)() const) {
    return [this, count] {
      double n = 0;
      for (const CiaoUnit* u : units_) n += double((u->states().*count)());
      return n;
    };
  };
  stats.gauge("ciao.active_warps", total(&WarpStates::active_count), "warps able to issue (V=1), all SMs");
  stats.gauge("ciao.isolated_warps", total(&WarpStates::isolated_count), "isolated warps (V=1, I=1), all SMs");
  stats.gauge("ciao.stalled_warps", total(&WarpStates::stalled_count), "stalled warps (V=0), all SMs");
  stats.gauge("ciao.severe_warps", total(&WarpStates::severe_count),
              "warps whose IRS exceeded the high cutoff at their SM's last high-cutoff epoch");
  stats.sample_counter("ciao.vta_hits", "VTA hits (cache interference) per interval");
  stats.gauge("ccws.allowed_warps", [this] {
    double n = 0;
    for (const CcwsUnit* u : ccws_units_) n += u->scores().allowed_count();
    return n;
  }, "warps CCWS lets issue loads at their SM's last evaluation, all SMs");
  stats.sample_counter("ccws.vta_hits", "CCWS VTA hits (lost locality) per interval");
}

uint64_t CiaoMechanism::ccws_storage_bits(const CcwsParams& c, const CiaoParams& p, uint32_t warps) {
  return VictimTagArray(c.vta_sets, c.vta_ways).bits(p.tag_bits, p.wid_bits) + uint64_t(warps) * p.counter_bits;
}

void CiaoMechanism::build_ccws(SmSite& site) {
  StatGroup g(site.stats, "sm" + std::to_string(site.index) + ".ccws", "ccws");
  CcwsCounters c;
  c.vta_insertions = &g.counter("vta_insertions", "L1D evictions recorded in the CCWS victim tag array");
  c.vta_hits = &g.counter("vta_hits", "load misses that found their line in their own warp's VTA set (lost locality)");
  c.limited_cycles = &g.counter("limited_cycles", "cycles in which the scores left a live warp out of the load list");
  c.load_refusals = &g.counter("load_refusals", "issue checks of a load refused to a warp outside the list");
  auto unit = std::make_unique<CcwsUnit>(site.sm, ccws_p_, site.sm.params().max_warps, c);
  ccws_units_.push_back(unit.get());
  if (site.l1) site.l1->add_observer(unit->l1_watch());
  site.sm.add_issue_filter(std::make_shared<UnitFilter<CcwsUnit>>(*unit));
  site.sm.add_mechanism(std::move(unit));
}

// One of the three schedulers of this folder per SM (they are alternatives, params_from).
void CiaoMechanism::build_in_sm(SmSite& site) {
  if (pcal_tokens_) build_statpcal(site);
  else if (ccws_) build_ccws(site);
  else build_ciao(site);
}

void CiaoMechanism::build_statpcal(SmSite& site) {
  StatGroup g(site.stats, "sm" + std::to_string(site.index) + ".statpcal", "statpcal");
  auto unit = std::make_unique<StatPcalUnit>(site.sm.params().max_warps, pcal_tokens_,
                                             &g.counter("bypassing_loads", "global load instructions of warps without a token"));
  pcal_units_.push_back(unit.get());
  site.sm.add_mechanism(std::move(unit));
}

void CiaoMechanism::build_ciao(SmSite& site) {
  StatGroup g(site.stats, "sm" + std::to_string(site.index) + ".ciao", "ciao");
  CiaoCounters c;
  c.vta_insertions = &g.counter(
      "vta_insertions", "L1D and shared-memory cache evictions recorded in the victim tag array");
  c.vta_hits = &g.counter("vta_hits", "load misses that found their line in their own warp's VTA set (interference)");
  c.high_epochs = &g.counter("high_epochs", "high-cutoff epochs ended");
  c.low_epochs = &g.counter("low_epochs", "low-cutoff epochs ended");
  c.stall_refusals = &g.counter("stall_refusals", "issue checks of a stalled warp refused");
  c.barrier_passes = &g.counter("barrier_passes", "issue checks of a stalled warp let through because its block waits at a barrier");
  c.states.isolations = &g.counter("isolations", "warps isolated: their global accesses go to the shared-memory cache");
  c.states.stalls = &g.counter("stalls", "warps stalled (throttled)");
  c.states.reactivations = &g.counter("reactivations", "stalled warps reactivated at a low-cutoff epoch");
  c.states.returns_to_l1 = &g.counter("returns_to_l1", "isolated warps sent back to the L1D at a low-cutoff epoch");
  c.states.guard_reactivations =
      &g.counter("guard_reactivations", "stalled warps reactivated because every other warp of the SM had finished");
  c.cache.fills = &g.counter("smem_fills", "lines written into the shared-memory cache (fills from below and migrations)");
  c.cache.evictions = &g.counter("smem_evictions", "shared-memory cache lines evicted by a conflict (into the VTA)");
  auto unit = std::make_unique<CiaoUnit>(site.sm, site.smem, p_, site.sm.params().max_warps, c);
  units_.push_back(unit.get());
  if (site.l1) {
    site.l1->add_observer(unit->l1_watch());
    if (p_.variant != CiaoVariant::Throttle) site.l1->set_side_store(&unit->shared_cache());
  }
  site.sm.add_issue_filter(std::make_shared<UnitFilter<CiaoUnit>>(*unit));
  site.sm.add_mechanism(std::move(unit));
}

// Everything starts over at each kernel launch (sec. IV-A: the counters reset per kernel).
const KernelInfo* CiaoMechanism::plan_launch(const LaunchPlanRequest& r) {
  // The blocks of this kernel that fit an SM at once keep [0, n x bytes); the cache takes the rest (sec. IV-B:
  // found from the SMMT at block launch; every block of a kernel asks the same).
  const BlockUsage& u = r.usage;
  uint32_t n = r.sm.max_blocks;
  if (u.warps) n = std::min(n, r.sm.max_warps / u.warps);
  if (u.threads) n = std::min(n, r.sm.max_threads / u.threads);
  if (u.registers) n = std::min(n, r.sm.registers / u.registers);
  if (u.shared) n = std::min(n, r.sm.shared_mem / u.shared);
  for (CiaoUnit* unit : units_) unit->begin_kernel(u.shared, n * u.shared, mem_);
  for (CcwsUnit* u : ccws_units_) u->begin_kernel();
  for (StatPcalUnit* u : pcal_units_) u->begin_kernel();
  return nullptr;
}

}  // namespace warptlm
