// Run outputs beyond the counters: sampled time series in stats.json and the
// progress line on a terminal.
#include <catch2/catch.hpp>
#include <yaml-cpp/yaml.h>

#include <cmath>

#include "cli_util.hpp"

using namespace cli_util;

TEST_CASE("outputs: stats.sample_interval gives one value per interval for every series") {
  TempDir t;
  auto r = warptlm(t, "run --workload bfs --size tiny --config gtx480 -q --set stats.sample_interval=2000 --out " + q(t / "o"));
  INFO(r.out);
  REQUIRE(r.code == 0);
  YAML::Node st = YAML::LoadFile(t / "o/stats.json");
  REQUIRE(st["samples"]);
  const YAML::Node s = st["samples"];
  CHECK(s["interval"].as<uint64_t>() == 2000);
  const auto cycles = s["cycle"].as<std::vector<uint64_t>>();
  uint64_t total_cycles = 0, total_tinst = 0;
  for (auto k : st["kernels"]) {
    total_cycles += k["cycles"].as<uint64_t>();
    total_tinst += k["thread_instructions"].as<uint64_t>();
  }
  // one sample every 2000 cycles of the run (the clock runs across the launches)
  CHECK(cycles.size() >= total_cycles / 2000 - st["kernels"].size());
  for (size_t i = 1; i < cycles.size(); ++i) CHECK(cycles[i] - cycles[i - 1] >= 2000);
  for (const char* name : {"ipc", "stall.issued", "stall.long_mem", "l1d.hit_rate", "l2.hit_rate", "dram.bw_util", "active_warps"}) {
    INFO(name);
    REQUIRE(s["series"][name]);
    CHECK(s["series"][name].size() == cycles.size());
  }
  // the stall fractions of an interval add up to one; rates are fractions
  double tinst = 0;
  for (size_t i = 0; i < cycles.size(); ++i) {
    double sum = 0;
    for (const char* o : {"issued", "no_warp", "long_mem", "data", "structural", "barrier", "fetch", "other"})
      sum += s["series"][std::string("stall.") + o][i].as<double>();
    CHECK(sum == Approx(1.0).epsilon(1e-9));
    for (const char* rate : {"l1d.hit_rate", "l2.hit_rate", "dram.bw_util"}) {
      const double v = s["series"][rate][i].as<double>();
      CHECK((v >= 0.0 && v <= 1.0));
    }
    tinst += s["series"]["ipc"][i].as<double>() * double(cycles[i] - (i ? cycles[i - 1] : cycles[0] - 2000));
  }
  // IPC x interval adds up to the instructions issued in the sampled intervals
  CHECK(tinst <= double(total_tinst) * 1.0000001);
  CHECK(tinst > 0.5 * double(total_tinst));
}

TEST_CASE("outputs: a mechanism's series (CIAO's warp states and VTA hits per interval) are sampled too") {
  TempDir t;
  auto r = warptlm(t, "run --workload gemv --size small --config gtx480 --overlay ciao_t -q --set stats.sample_interval=5000 --out " +
                          q(t / "o"));
  INFO(r.out);
  REQUIRE(r.code == 0);
  YAML::Node st = YAML::LoadFile(t / "o/stats.json");
  const YAML::Node s = st["samples"];
  REQUIRE(s);
  const size_t n = s["cycle"].size();
  for (const char* name : {"ciao.active_warps", "ciao.isolated_warps", "ciao.stalled_warps", "ciao.severe_warps", "ciao.vta_hits"}) {
    INFO(name);
    REQUIRE(s["series"][name]);
    CHECK(s["series"][name].size() == n);
  }
  double stalled_max = 0, severe_max = 0, hits = 0;
  for (size_t i = 0; i < n; ++i) {
    stalled_max = std::max(stalled_max, s["series"]["ciao.stalled_warps"][i].as<double>());
    severe_max = std::max(severe_max, s["series"]["ciao.severe_warps"][i].as<double>());
    hits += s["series"]["ciao.vta_hits"][i].as<double>();
    CHECK(s["series"]["ciao.isolated_warps"][i].as<double>() == 0);  // CIAO-T isolates nobody
  }
  CHECK(stalled_max > 0);
  CHECK(severe_max > 0);
  // the per-interval VTA hits add up to the run's (the last partial interval aside)
  const double total = st["counters"]["ciao.vta_hits"].as<double>();
  CHECK(hits <= total);
  CHECK(hits > 0.5 * total);
}

TEST_CASE("outputs: no samples without stats.sample_interval") {
  TempDir t;
  auto r = warptlm(t, "run --workload vecadd --size tiny --config gtx480 -q --out " + q(t / "o"));
  REQUIRE(r.code == 0);
  CHECK(!YAML::LoadFile(t / "o/stats.json")["samples"]);
}

TEST_CASE("outputs: a progress line on a terminal and none when stderr is not one") {
  TempDir t;
  // script(1) gives the command a pseudo-terminal
  const std::string run = std::string("SC_COPYRIGHT_MESSAGE=DISABLE '") + WARPTLM_EXE +
                          "' run --workload bfs --size tiny --config gtx480 -q --set sim.progress_after=0 --out " + q(t / "o");
  const std::string cmd = "script -qec " + q(run) + " /dev/null > " + q(t / "tty.txt") + " 2>&1";
  const int rc = std::system(cmd.c_str());
  REQUIRE(rc == 0);
  CHECK(contains(slurp(t / "tty.txt"), "[warptlm] bfs_level: cycle"));
  auto plain = warptlm(t, "run --workload bfs --size tiny --config gtx480 -q --set sim.progress_after=0 --out " + q(t / "p"));
  REQUIRE(plain.code == 0);
  CHECK(!contains(plain.out, "[warptlm]"));
}
