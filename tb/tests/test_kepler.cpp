// The Kepler SMX's issue and execution (spec 004 sec. 2.4, 2.5, 2.14, 2.16), on hand-built PTX:
// dual issue of independent instructions of one warp, a fetch stage per warp pool, units private to a
// scheduler, fixed-priority against even sharing of the shared units, the ceil(32 / lanes) rule of the
// private units' lanes, and the SPUs' integer ALUs.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <map>

#include "sm/sm.hpp"
#include "sm_rig.hpp"

using namespace warptlm;
using namespace sm_rig;

namespace {

using Sets = std::vector<std::pair<std::string, std::string>>;

Sets with(Sets base, const Sets& more) {
  for (auto& m : more) {
    bool replaced = false;
    for (auto& b : base)
      if (b.first == m.first) b.second = m.second, replaced = true;
    if (!replaced) base.push_back(m);
  }
  return base;
}

// Warp instructions per cycle over the 128 instructions ind192 has more than ind64, for `threads` threads.
double independent_rate(Rig& rig, uint32_t threads) {
  rig.dev->load_ptx(std::string(kHeader) + independent_kernel("ind64", 64) + independent_kernel("ind192", 192), "ind.ptx");
  DevPtr out = rig.dev->malloc(4 * threads);
  rig.launch("ind64", Dim3(1), Dim3(threads), {arg(out)});
  rig.launch("ind192", Dim3(1), Dim3(threads), {arg(out)});
  // Every thread stores tid + 191 to the same word: the values were computed (at issue) whatever the timing.
  const uint32_t v = rig.dev->download<uint32_t>(out, 1)[0];
  CHECK(v >= 191);
  CHECK(v < 191 + threads);
  const auto& ls = rig.gpu->launches();
  REQUIRE(ls.size() == 2);
  return double(ls[1].warp_instructions - ls[0].warp_instructions) / double(ls[1].cycles - ls[0].cycles);
}

// The dependent chain: 64 more dependent adds; returns the dual issues among them and their extra cycles.
double chain_dual_issues(Rig& rig, uint64_t& extra_cycles) {
  rig.dev->load_ptx(std::string(kHeader) + chain_kernel("chain32", 32) + chain_kernel("chain96", 96), "chain.ptx");
  DevPtr out = rig.dev->malloc(4);
  rig.launch("chain32", Dim3(1), Dim3(32), {arg(out)});
  const double d0 = rig.counter("sm0.dual_issues");
  rig.launch("chain96", Dim3(1), Dim3(32), {arg(out)});
  CHECK(rig.dev->download<uint32_t>(out, 1)[0] == 31 + 96);
  const auto& ls = rig.gpu->launches();
  extra_cycles = ls[1].cycles - ls[0].cycles;
  // The two launches differ only by the 64 adds: the pairs of the rest (the store's address) cancel.
  return (rig.counter("sm0.dual_issues") - d0) - d0;
}

}  // namespace

TEST_CASE("kepler: dual issue sends two independent instructions of one warp per cycle") {
  // One warp, one scheduler, two integer pipelines: single issue gives 1 instruction a cycle
  // (sm: independent instructions ... reach the configured issue rate); dual issue gives 2.
  Rig rig(with(simple_sm(4), {{"sm.unit.int.count", "2"}, {"sm.dual_issue", "true"}}));
  const double rate = independent_rate(rig, 32);
  INFO("measured " << rate << " warp-instructions per cycle");
  CHECK(rate == Approx(2.0).epsilon(0.03));
  CHECK(rig.counter("sm0.dual_issues") >= 64 + 32);  // every pair of the 128 extra adds, and most of the first 64
}

TEST_CASE("kepler: dual issue never pairs an instruction with one it depends on") {
  const uint32_t L = 5;
  Rig rig(with(simple_sm(L), {{"sm.unit.int.count", "2"}, {"sm.dual_issue", "true"}}));
  uint64_t extra = 0;
  CHECK(chain_dual_issues(rig, extra) == 0);
  CHECK(extra == 64 * L);
}

TEST_CASE("kepler: a second instruction that skips the scoreboard is caught by the dependence check") {
  // Test-only fault: the second instruction's register check is skipped. The dependent chain then
  // pairs and the check of the test above fails for the reason it names.
  const uint32_t L = 5;
  setenv("WARPTLM_TEST_FAULT", "sm_dual_issue_dependent", 1);
  Rig rig(with(simple_sm(L), {{"sm.unit.int.count", "2"}, {"sm.dual_issue", "true"}}));
  uint64_t extra = 0;
  const double pairs = chain_dual_issues(rig, extra);
  unsetenv("WARPTLM_TEST_FAULT");
  CHECK(pairs > 0);
  CHECK(extra < 64 * L);
}

TEST_CASE("kepler: a fetch stage per warp pool serves one warp of each pool each cycle") {
  // Two schedulers, one warp each, one-entry buffers: every instruction needs a fetch. One fetch a
  // cycle for the SM (sm.fetch_scope: sm) caps the SM at 1 instruction a cycle; one per pool gives 2.
  Rig rig(with(simple_sm(4), {{"sm.num_schedulers", "2"}, {"sm.unit.int.count", "2"}, {"sm.ibuffer_entries", "1"},
                              {"sm.fetch_warps_per_cycle", "1"}, {"sm.fetch_scope", "scheduler"}}));
  const double rate = independent_rate(rig, 64);
  INFO("measured " << rate);
  CHECK(rate == Approx(2.0).epsilon(0.03));
}

TEST_CASE("kepler: with one fetch a cycle for the whole SM the same two warps issue one instruction a cycle") {
  Rig rig(with(simple_sm(4), {{"sm.num_schedulers", "2"}, {"sm.unit.int.count", "2"}, {"sm.ibuffer_entries", "1"},
                              {"sm.fetch_warps_per_cycle", "1"}, {"sm.fetch_scope", "sm"}}));
  const double rate = independent_rate(rig, 64);
  INFO("measured " << rate);
  CHECK(rate == Approx(1.0).epsilon(0.03));
}

TEST_CASE("kepler: a private unit serves only its own scheduler") {
  // Two 16-lane integer units, one private to each of two schedulers: the one warp (slot 0,
  // scheduler 0) has one unit, which it holds 2 cycles per instruction: 0.5 a cycle. Shared, the
  // warp alternates between both units: 1 a cycle (next test).
  Rig rig(with(simple_sm(4), {{"sm.num_schedulers", "2"}, {"sm.unit.int.count", "2"}, {"sm.unit.int.lanes", "16"},
                              {"sm.unit.int.private", "2"}}));
  CHECK(independent_rate(rig, 32) == Approx(0.5).epsilon(0.03));
  CHECK(rig.counter("sm0.unit.int_busy_cycles") > 0);
}

TEST_CASE("kepler: shared units serve any scheduler") {
  Rig rig(with(simple_sm(4), {{"sm.num_schedulers", "2"}, {"sm.unit.int.count", "2"}, {"sm.unit.int.lanes", "16"}}));
  CHECK(independent_rate(rig, 32) == Approx(1.0).epsilon(0.03));
}

namespace {
// Two warps, one per scheduler, on one shared 32-lane integer unit. Returns per scheduler (warp
// index in the block = slot) the first and last cycles it issued one of the 128 extra adds.
std::map<uint32_t, std::pair<uint64_t, uint64_t>> shared_unit_run(Rig& rig, double& rate) {
  std::map<uint32_t, std::pair<uint64_t, uint64_t>> span;
  bool second = false;
  rig.gpu->sm(0).on_issue = [&](uint64_t cyc, uint32_t, uint32_t warp, uint32_t) {
    if (!second) return;
    auto it = span.find(warp);
    if (it == span.end()) span[warp] = {cyc, cyc};
    else it->second.second = cyc;
  };
  rig.dev->load_ptx(std::string(kHeader) + independent_kernel("ind64", 64) + independent_kernel("ind192", 192), "ind.ptx");
  DevPtr out = rig.dev->malloc(4 * 64);
  rig.launch("ind64", Dim3(1), Dim3(64), {arg(out)});
  second = true;
  rig.launch("ind192", Dim3(1), Dim3(64), {arg(out)});
  const auto& ls = rig.gpu->launches();
  rate = double(ls[1].warp_instructions - ls[0].warp_instructions) / double(ls[1].cycles - ls[0].cycles);
  return span;
}
}  // namespace

TEST_CASE("kepler: under fixed priority scheduler 0's warp takes the shared unit first and finishes first") {
  // Spec 004 sec. 2.14 (SP): the lowest-numbered scheduler with an instruction for the shared unit gets it.
  Rig rig(with(simple_sm(4), {{"sm.num_schedulers", "2"}, {"sm.unit.int.count", "1"}, {"sm.unit.int.lanes", "32"},
                              {"sm.shared_units", "priority"}}));
  double rate = 0;
  auto span = shared_unit_run(rig, rate);
  REQUIRE(span.size() == 2);
  // Scheduler 1's warp issues its integer adds only after scheduler 0's warp has issued all of its own.
  CHECK(span[0].second < span[1].second);
  CHECK(span[1].second - span[0].second >= 150);  // about the 196 integer instructions of warp 1
}

TEST_CASE("kepler: under even partitioning each scheduler owns half the shared unit and both warps finish together") {
  // Spec 004 sec. 2.14 (EP): each of 2 schedulers owns 16 of the 32 lanes, so each warp instruction
  // holds its slice 2 cycles and both warps advance at once.
  Rig rig(with(simple_sm(4), {{"sm.num_schedulers", "2"}, {"sm.unit.int.count", "1"}, {"sm.unit.int.lanes", "32"},
                              {"sm.shared_units", "even"}}));
  double rate = 0;
  auto span = shared_unit_run(rig, rate);
  REQUIRE(span.size() == 2);
  const uint64_t a = span[0].second, b = span[1].second;
  CHECK((a > b ? a - b : b - a) <= 2);
  CHECK(rate == Approx(1.0).epsilon(0.05));  // two slices of 16 lanes: one warp instruction a cycle in all
}

namespace {
// One warp on the private SP unit of a 1-scheduler SM with `lanes` lanes; FP32 adds.
double private_lane_rate(uint32_t lanes) {
  Rig rig(with(simple_sm(4), {{"sm.unit.sp.count", "1"}, {"sm.unit.sp.private", "1"},
                              {"sm.unit.sp.private_lanes", std::to_string(lanes)}, {"sm.int_alu", "sp"},
                              {"sm.ibuffer_entries", "8"}}));
  return independent_rate(rig, 32);
}
}  // namespace

// Spec 004 sec. 2.16: a unit of L lanes takes ceil(32 / L) cycles per warp instruction, so the issue
// rate is flat where ceil(32 / L) does not change and steps up at 7->8, 15->16, 31->32.
TEST_CASE("kepler: a private unit of 7 lanes issues one warp instruction per 5 cycles") { CHECK(private_lane_rate(7) == Approx(1.0 / 5).epsilon(0.03)); }
TEST_CASE("kepler: a private unit of 8 lanes issues one warp instruction per 4 cycles") { CHECK(private_lane_rate(8) == Approx(1.0 / 4).epsilon(0.03)); }
TEST_CASE("kepler: a private unit of 10 lanes issues one warp instruction per 4 cycles") { CHECK(private_lane_rate(10) == Approx(1.0 / 4).epsilon(0.03)); }
TEST_CASE("kepler: a private unit of 15 lanes issues one warp instruction per 3 cycles") { CHECK(private_lane_rate(15) == Approx(1.0 / 3).epsilon(0.03)); }
TEST_CASE("kepler: a private unit of 16 lanes issues one warp instruction per 2 cycles") { CHECK(private_lane_rate(16) == Approx(1.0 / 2).epsilon(0.03)); }
TEST_CASE("kepler: a private unit of 31 lanes issues one warp instruction per 2 cycles") { CHECK(private_lane_rate(31) == Approx(1.0 / 2).epsilon(0.03)); }
TEST_CASE("kepler: a private unit of 32 lanes issues one warp instruction a cycle") { CHECK(private_lane_rate(32) == Approx(1.0).epsilon(0.03)); }

TEST_CASE("kepler: with sm.int_alu sp integer adds run on the SP units and leave the integer unit idle") {
  // One slow 4-lane integer unit and one 32-lane SP unit: the adds take the SP unit, one a cycle.
  Rig rig(with(simple_sm(4), {{"sm.unit.int.count", "1"}, {"sm.unit.int.lanes", "4"}, {"sm.unit.sp.count", "1"},
                              {"sm.unit.sp.lanes", "32"}, {"sm.int_alu", "sp"},
                              {"sm.unit.sp.private", "1"}}));  // (a private unit: the SM then counts unit busy cycles)
  CHECK(independent_rate(rig, 32) == Approx(1.0).epsilon(0.03));
  CHECK(rig.counter("sm0.unit.int_busy_cycles") == 0);
  CHECK(rig.counter("sm0.unit.sp_busy_cycles") >= 192);
}
