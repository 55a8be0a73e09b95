// Hint-assisted locality-aware scheduling (models/locality/, spec 004 sec. 4.4-4.6) on hand-built PTX:
// the launch hint from the host runtime, adjacent blocks to one SM, and the per-hint warp groups.
#include <catch2/catch.hpp>

#include <map>
#include <vector>

#include "sm/sm.hpp"
#include "sm_rig.hpp"

using namespace warptlm;
using namespace sm_rig;

namespace {

using Sets = std::vector<std::pair<std::string, std::string>>;

Sets locality_sm(uint32_t sms, const std::string& hint = "-1") {
  Sets s = simple_sm(1);  // 1-cycle ALU results: warps of independent adds never stall on their registers
  for (auto& kv : s)
    if (kv.first == "gpu.num_sms") kv.second = std::to_string(sms);
  s.push_back({"gpu.placement", "locality"});
  s.push_back({"sm.warp_scheduler", "locality"});
  s.push_back({"locality.launch_hint", hint});
  s.push_back({"sm.fetch_warps_per_cycle", "4"});  // no warp waits on fetch: groups switch only on real stalls
  return s;
}

// The SM each block of a 16-block launch of 32-thread blocks ran on, with the host's hint `hint`.
std::map<uint32_t, uint32_t> placement(Rig& rig, uint32_t sms, uint32_t hint) {
  std::map<uint32_t, uint32_t> sm_of;
  for (uint32_t i = 0; i < sms; ++i)
    rig.gpu->sm(i).on_issue = [&sm_of, i](uint64_t, uint32_t blk, uint32_t, uint32_t) { sm_of[blk] = i; };
  rig.dev->load_ptx(std::string(kHeader) + independent_kernel("ind8", 8), "ind.ptx");
  DevPtr out = rig.dev->malloc(4);
  rig.dev->set_launch_hint(hint);
  rig.launch("ind8", Dim3(16), Dim3(32), {arg(out)});
  return sm_of;
}

// Per (block, warp in block), the cycle of its first issue, in one SM with one scheduler.
std::map<std::pair<uint32_t, uint32_t>, uint64_t> first_issue(Rig& rig, Dim3 grid, uint32_t threads, uint32_t hint) {
  std::map<std::pair<uint32_t, uint32_t>, uint64_t> at;
  rig.gpu->sm(0).on_issue = [&at](uint64_t cyc, uint32_t blk, uint32_t warp, uint32_t) { at.emplace(std::make_pair(blk, warp), cyc); };
  rig.dev->load_ptx(std::string(kHeader) + independent_kernel("ind64", 64), "ind.ptx");
  DevPtr out = rig.dev->malloc(4);
  rig.dev->set_launch_hint(hint);
  rig.launch("ind64", grid, Dim3(threads), {arg(out)});
  return at;
}

}  // namespace

TEST_CASE("locality: with hint 0 blocks go round robin, adjacent blocks to different SMs") {
  Rig rig(locality_sm(4));
  auto sm_of = placement(rig, 4, 0);
  REQUIRE(sm_of.size() == 16);
  for (auto& b : sm_of) CHECK(b.second == b.first % 4);
  CHECK(rig.counter("locality.hinted_launches") == 0);
  CHECK(rig.counter("locality.adjacent_placements") == 0);
}

TEST_CASE("locality: with hint 1 from the host's launch runs of adjacent blocks go to the same SM") {
  // 16 blocks on 4 SMs: runs of ceil(16 / 4) = 4 consecutive blocks (locality.adjacent_blocks: 0).
  Rig rig(locality_sm(4));
  auto sm_of = placement(rig, 4, 1);
  REQUIRE(sm_of.size() == 16);
  for (auto& b : sm_of) CHECK(b.second == b.first / 4);
  CHECK(rig.counter("locality.hinted_launches") == 1);
  CHECK(rig.counter("locality.adjacent_placements") == 12);
}

TEST_CASE("locality: locality.adjacent_blocks sets the run length") {
  auto sets = locality_sm(4);
  sets.push_back({"locality.adjacent_blocks", "2"});
  Rig rig(sets);
  auto sm_of = placement(rig, 4, 3);
  REQUIRE(sm_of.size() == 16);
  for (auto& b : sm_of) CHECK(b.second == (b.first / 2) % 4);  // pairs, dealt round robin
}

TEST_CASE("locality: a launch hint over 3 is refused naming Table 6.1's values") {
  Rig rig(locality_sm(1));
  rig.dev->load_ptx(std::string(kHeader) + independent_kernel("ind8", 8), "ind.ptx");
  DevPtr out = rig.dev->malloc(4);
  rig.dev->set_launch_hint(4);
  CHECK_THROWS_WITH(rig.launch("ind8", Dim3(1), Dim3(32), {arg(out)}), Catch::Contains("hint 4") && Catch::Contains("boundary lines"));
}

TEST_CASE("locality: with hint 0 the warp ordering is round robin over all warps") {
  // Two blocks of two warps in one scheduler: slots b0w0, b0w1, b1w0, b1w1 start in the first cycles.
  Rig rig(locality_sm(1));
  auto at = first_issue(rig, Dim3(2), 64, 0);
  REQUIRE(at.size() == 4);
  CHECK(at[{0, 1}] < at[{1, 0}]);
  CHECK(at[{1, 1}] - at[{0, 0}] <= 4);
  CHECK(rig.counter("locality.group_switches") == 0);
}

TEST_CASE("locality: with hint 1 warps of equal blockIdx.y and warp index form a group that runs until it stalls") {
  // Group (y 0, warp 0) = {b0w0, b1w0}; group (y 0, warp 1) = {b0w1, b1w1}. The first group's warps
  // alternate and never stall on independent adds, so the second group starts when the first is done.
  Rig rig(locality_sm(1));
  auto at = first_issue(rig, Dim3(2), 64, 1);
  REQUIRE(at.size() == 4);
  CHECK(at[{1, 0}] - at[{0, 0}] <= 2);  // co-scheduled
  CHECK(at[{0, 1}] > at[{0, 0}] + 100);  // after the 2 x 70 instructions of the first group, nearly
  CHECK(at[{1, 1}] > at[{0, 0}] + 100);
  CHECK(rig.counter("locality.group_switches") >= 1);
}

TEST_CASE("locality: with hint 2 warps of blocks with equal blockIdx.x form a group") {
  // Grid 2 x 2, one warp per block: blocks (0,0) and (0,1) (linear 0 and 2) are one group, (1,0) and (1,1) the other.
  Rig rig(locality_sm(1));
  auto at = first_issue(rig, Dim3(2, 2), 32, 2);
  REQUIRE(at.size() == 4);
  CHECK(at[{2, 0}] - at[{0, 0}] <= 2);
  CHECK(at[{1, 0}] > at[{0, 0}] + 100);
  CHECK(at[{3, 0}] > at[{0, 0}] + 100);
}

TEST_CASE("locality: with hint 3 the warps of a pool are dealt round robin to locality.groups groups") {
  // One scheduler, four warps in slots 0-3, two groups: slots 0, 1, 2, 3 -> groups 0, 1, 0, 1.
  auto sets = locality_sm(1);
  sets.push_back({"locality.groups", "2"});
  Rig rig(sets);
  auto at = first_issue(rig, Dim3(1), 128, 3);
  REQUIRE(at.size() == 4);
  CHECK(at[{0, 2}] - at[{0, 0}] <= 2);
  CHECK(at[{0, 1}] > at[{0, 0}] + 100);
  CHECK(at[{0, 3}] > at[{0, 0}] + 100);
}
