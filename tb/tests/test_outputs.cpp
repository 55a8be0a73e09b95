// Run outputs beyond the counters: sampled time series in stats.json and the
// progress line on a terminal.
#include <catch2/catch.hpp>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <string>

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
  // one sample every 2000 cycles of kernel time (the launches' cycles, across launches), and a last one for
  // the partial interval at the run's last cycle
  REQUIRE(!cycles.empty());
  CHECK(cycles.size() == (total_cycles + 1999) / 2000);
  CHECK(cycles.back() == total_cycles);
  CHECK(cycles.back() == st["counters"]["gpu_tot_sim_cycle"].as<uint64_t>());
  for (size_t i = 0; i < cycles.size(); ++i) CHECK(cycles[i] == std::min<uint64_t>(2000 * (i + 1), total_cycles));
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
    tinst += s["series"]["ipc"][i].as<double>() * double(cycles[i] - (i ? cycles[i - 1] : 0));
  }
  // IPC x interval adds up to the run's instructions: nothing before the first sample or after the last is lost
  CHECK(tinst == Approx(double(total_tinst)).epsilon(1e-9));
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
  // the per-interval VTA hits add up to the run's (the last, partial interval included)
  const double total = st["counters"]["ciao.vta_hits"].as<double>();
  CHECK(total > 0);
  CHECK(hits == total);
}

TEST_CASE("outputs: GPGPU-Sim's names per kernel and in total agree with the counters they come from") {
  TempDir t;
  // transpose_naive: bank conflicts; bfs: many launches
  for (const char* wl : {"transpose_naive", "bfs"}) {
    auto r = warptlm(t, std::string("run --workload ") + wl + " --size tiny --config gtx480 -q --out " + q(t / wl));
    INFO(wl << "\n" << r.out);
    REQUIRE(r.code == 0);
    YAML::Node st = YAML::LoadFile(t / (std::string(wl) + "/stats.json"));
    const double max_warps = 48;  // gtx480's sm.max_warps
    uint64_t cycles = 0, tinst = 0;
    auto rate = [](const YAML::Node& c, const char* hits, const char* misses) {
      const double h = c[hits].as<double>(), m = c[misses].as<double>();
      return h + m > 0 ? m / (h + m) : 0.0;
    };
    auto ratio = [](const YAML::Node& c, const char* num, const char* den) {
      const double n = c[num].as<double>(), d = c[den].as<double>();
      return d > 0 ? n / d : 0.0;
    };
    for (const auto& k : st["kernels"]) {
      const YAML::Node c = k["counters"];
      CHECK(c["gpu_sim_cycle"].as<uint64_t>() == k["cycles"].as<uint64_t>());
      CHECK(c["gpu_sim_insn"].as<uint64_t>() == k["thread_instructions"].as<uint64_t>());
      CHECK(c["gpu_ipc"].as<double>() == Approx(k["ipc"].as<double>()));
      CHECK(c["L1D_total_cache_miss_rate"].as<double>() == Approx(rate(c, "l1d.hits", "l1d.misses")));
      CHECK(c["L2_total_cache_miss_rate"].as<double>() == Approx(rate(c, "l2.hits", "l2.misses")));
      CHECK(c["averagemflatency"].as<double>() == Approx(ratio(c, "l1d.fill_cycles", "l1d.fills")));
      CHECK(c["avg_mem_latency"].as<double>() == Approx(ratio(c, "ldst.global_latency_cycles", "ldst.global_responses")));
      CHECK(c["dram_eff"].as<double>() == Approx(ratio(c, "dram.busy_cycles", "dram.active_cycles")));
      CHECK(c["avg_mem_latency"].as<double>() >= 35);  // gtx480's L1 hit latency at least
      CHECK((c["dram_eff"].as<double>() >= 0 && c["dram_eff"].as<double>() <= 1));
      const double occ = c["gpu_occupancy"].as<double>();
      CHECK(occ == Approx(100.0 * c["sm.resident_warp_cycles"].as<double>() / (c["sm.active_cycles"].as<double>() * max_warps)));
      CHECK((occ > 0 && occ <= 100));
      cycles += k["cycles"].as<uint64_t>();
      tinst += k["thread_instructions"].as<uint64_t>();
    }
    const YAML::Node c = st["counters"];
    CHECK(c["gpu_tot_sim_cycle"].as<uint64_t>() == cycles);
    CHECK(c["gpu_tot_sim_insn"].as<uint64_t>() == tinst);
    CHECK(c["gpu_tot_ipc"].as<double>() == Approx(double(tinst) / double(cycles)));
    CHECK(c["L1D_total_cache_miss_rate"].as<double>() == Approx(rate(c, "l1d.hits", "l1d.misses")));
    CHECK(c["averagemflatency"].as<double>() == Approx(ratio(c, "l1d.fill_cycles", "l1d.fills")));
    CHECK(c["avg_mem_latency"].as<double>() == Approx(ratio(c, "ldst.global_latency_cycles", "ldst.global_responses")));
    CHECK(c["dram_eff"].as<double>() == Approx(ratio(c, "dram.busy_cycles", "dram.active_cycles")));
    CHECK(c["dram_eff"].as<double>() > 0);  // DRAM served requests
    CHECK(c["dram.active_cycles"].as<double>() >= c["dram.busy_cycles"].as<double>());
    CHECK(c["gpu_occupancy"].as<double>() ==
          Approx(100.0 * c["sm.resident_warp_cycles"].as<double>() / (c["sm.active_cycles"].as<double>() * max_warps)));
    // conservation: the summed counters are the per-SM ones added up
    double conflicts = 0, resident = 0, responses = 0, latency = 0, active = 0;
    for (int i = 0; i < 15; ++i) {
      conflicts += c["sm" + std::to_string(i) + ".smem.bank_conflicts"].as<double>();
      resident += c["sm" + std::to_string(i) + ".resident_warp_cycles"].as<double>();
      responses += c["sm" + std::to_string(i) + ".ldst.global_responses"].as<double>();
      latency += c["sm" + std::to_string(i) + ".ldst.global_latency_cycles"].as<double>();
    }
    for (int i = 0; i < 6; ++i) active += c["dram" + std::to_string(i) + ".active_cycles"].as<double>();
    CHECK(c["ldst.global_responses"].as<double>() == responses);
    CHECK(c["ldst.global_latency_cycles"].as<double>() == latency);
    CHECK(c["dram.active_cycles"].as<double>() == active);
    // every global request is answered on the global port: the L1's responses are the SM's
    CHECK(responses == c["l1d.responses"].as<double>());
    CHECK(c["shmem_bank_conflicts"].as<double>() == conflicts);
    CHECK(c["sm.resident_warp_cycles"].as<double>() == resident);
    if (std::string(wl) == "transpose_naive") CHECK(conflicts > 0);
    // stats.txt: the kernel lines, each total once, names in numeric order
    const std::string txt = slurp(t / (std::string(wl) + "/stats.txt"));
    CHECK(contains(txt, "kernel0.gpu_sim_cycle = " + st["kernels"][0]["cycles"].as<std::string>() + "\n"));
    CHECK(contains(txt, "kernel0.gpu_occupancy = "));
    CHECK(txt.find("gpu_tot_sim_cycle = ") == txt.rfind("gpu_tot_sim_cycle = "));
    CHECK(txt.find("\nsm2.active_cycles = ") < txt.find("\nsm10.active_cycles = "));
    CHECK(txt.find("smem.conflict_degree.bucket9 = ") < txt.find("smem.conflict_degree.bucket10 = "));
  }
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
