// Functional fast-forward (sim.fast_forward): the first launches, or the first
// warp instructions, run on the SIMT executor with no cycles and the rest is
// timed. Each case runs the warptlm executable twice, without and with it, and
// compares the two stats.json: the same verified result, the same work in all
// (timed plus fast-forwarded warp instructions), fewer timed cycles.
#include "cli_util.hpp"

#include <yaml-cpp/yaml.h>

using namespace cli_util;

namespace {

struct Run {
  bool verified = true;
  std::string status;
  uint64_t cycles = 0, warp = 0, launches = 0;
  YAML::Node counters;
  uint64_t counter(const std::string& name) const { return counters[name] ? counters[name].as<uint64_t>() : 0; }
};

Run run(const TempDir& d, const std::string& name, const std::string& args, int expect = 0) {
  const std::string out = d / name;
  const CmdResult r = warptlm(d, "run " + args + " --out " + q(out) + " -q");
  INFO(r.out);
  REQUIRE(r.code == expect);
  const YAML::Node s = YAML::LoadFile(out + "/stats.json");
  Run v;
  v.status = s["status"].as<std::string>();
  for (const YAML::Node& k : s["kernels"]) {
    v.cycles += k["cycles"].as<uint64_t>();
    v.warp += k["warp_instructions"].as<uint64_t>();
    v.verified = v.verified && k["verified"].as<bool>();
    ++v.launches;
  }
  v.counters = s["counters"];
  return v;
}

}  // namespace

TEST_CASE("fast-forward: the first launches run functionally, the result is the same and fewer cycles are timed", "[fast_forward]") {
  TempDir d;
  // nw: one launch per anti-diagonal band, each block's work fixed by its position (no data races, unlike
  // bfs, whose frontier updates race and so run a count of instructions that depends on the order of blocks)
  const std::string wl = "--workload nw --size tiny --config gtx480";
  const Run full = run(d, "full", wl);
  const Run ff = run(d, "ff", wl + " --set sim.fast_forward=4");
  REQUIRE(full.launches > 4);
  CHECK(full.verified);
  CHECK(ff.verified);
  CHECK(ff.status == "ok");
  CHECK(ff.launches == full.launches);
  CHECK(ff.counter("gpu.ff_launches") == 4);
  CHECK(ff.counter("gpu.ff_blocks") > 0);
  CHECK(ff.counter("gpu.ff_warp_instructions") > 0);
  // the same work in all: what the executor ran untimed plus what the SMs retired
  CHECK(ff.counter("gpu.ff_warp_instructions") + ff.warp == full.warp);
  CHECK(ff.cycles < full.cycles);
  CHECK(ff.cycles > 0);
  CHECK(full.counter("gpu.ff_launches") == 0);
}

TEST_CASE("fast-forward: a warp-instruction budget switches to timing mid-launch at a block boundary", "[fast_forward]") {
  TempDir d;
  const std::string wl = "--workload vecadd --size tiny --config gtx480";
  const Run full = run(d, "full", wl);
  const uint64_t blocks = full.counter("gpu.blocks");
  REQUIRE(full.launches == 1);
  REQUIRE(blocks > 4);
  const Run ff = run(d, "ff", wl + " --set sim.fast_forward=" + std::to_string(full.warp / 2) + " --set sim.fast_forward_unit=instructions");
  CHECK(ff.verified);
  CHECK(ff.counter("gpu.ff_launches") == 0);  // the launch was not run wholly functionally
  CHECK(ff.counter("gpu.ff_blocks") > 0);
  CHECK(ff.counter("gpu.ff_blocks") < blocks);
  CHECK(ff.counter("gpu.ff_warp_instructions") >= full.warp / 2);
  CHECK(ff.counter("gpu.blocks") == blocks);
  CHECK(ff.counter("gpu.ff_warp_instructions") + ff.warp == full.warp);
  CHECK(ff.cycles < full.cycles);
  CHECK(ff.cycles > 0);
}

TEST_CASE("fast-forward: a budget larger than the program runs it all functionally and still verifies", "[fast_forward]") {
  TempDir d;
  const Run ff = run(d, "ff", "--workload nw --size tiny --config gtx480 --set sim.fast_forward=1000");
  CHECK(ff.verified);
  CHECK(ff.cycles == 0);
  CHECK(ff.warp == 0);
  CHECK(ff.counter("gpu.ff_launches") == ff.launches);
  CHECK(ff.counter("gpu.ff_blocks") == ff.counter("gpu.blocks"));
}

TEST_CASE("fast-forward: a mechanism's code runs in the fast-forwarded part and the timed part takes the launch plan", "[fast_forward]") {
  TempDir d;
  const std::string wl = "--workload ss_histogram --size tiny --config ss_baseline --overlay scratchpad_sharing --overlay owf --overlay relssp";
  const Run full = run(d, "full", wl);
  const Run ff = run(d, "ff", wl + " --set sim.fast_forward=" + std::to_string(full.warp / 3) + " --set sim.fast_forward_unit=instructions");
  CHECK(full.verified);
  CHECK(ff.verified);
  CHECK(ff.counter("gpu.ff_blocks") > 0);
  CHECK(ff.cycles < full.cycles);
}

TEST_CASE("fast-forward: functional mode refuses it, naming the key", "[fast_forward]") {
  TempDir d;
  const CmdResult r = warptlm(d, "run --workload vecadd --size tiny --set sim.mode=functional --set sim.fast_forward=1 --out " + q(d / "out"));
  CHECK(r.code == 2);
  CHECK(contains(r.out, "sim.fast_forward"));
  CHECK(contains(r.out, "needs sim.mode=timing"));
}

TEST_CASE("fast-forward: the same inputs give bit-identical stats", "[fast_forward]") {
  TempDir d;
  const std::string args = "--workload bfs --size tiny --config gtx480 --set sim.fast_forward=3000 --set sim.fast_forward_unit=instructions";
  run(d, "a", args);
  run(d, "b", args);
  YAML::Node a = YAML::LoadFile(d / "a/stats.json"), b = YAML::LoadFile(d / "b/stats.json");
  a.remove("sim");
  b.remove("sim");
  CHECK(YAML::Dump(a) == YAML::Dump(b));
}
