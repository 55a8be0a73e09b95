// CUDA applications of tb/apps/ (built by nvcc with the shared runtime, binaries committed) run unmodified
// under `warptlm exec` in functional and timing mode: each passes its own check (exit 0), every launch is its
// own entry in stats.json, and the runtime's refusals name what they refuse.
#include <catch2/catch.hpp>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <utility>

#include "cli_util.hpp"

namespace fs = std::filesystem;
using namespace cli_util;

namespace {

std::string app(const char* name) { return std::string(WARPTLM_SOURCE_DIR) + "/tb/apps/bin/" + name; }

struct AppRun {
  CmdResult r;
  YAML::Node stats;
};

AppRun exec(TempDir& t, const char* name, const std::string& mode, const std::string& args = "", const std::string& config = "gtx480") {
  const std::string out = t / (std::string(name) + "_" + mode);
  AppRun a;
  a.r = warptlm(t, "exec --config " + config + " --set sim.mode=" + mode + " -q --out " + q(out) + " -- " + q(app(name)) + " " + args);
  if (fs::exists(out + "/stats.json")) a.stats = YAML::LoadFile(out + "/stats.json");
  return a;
}

size_t occurrences(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

size_t launches_named(const YAML::Node& s, const std::string& part) {
  size_t n = 0;
  for (const auto& k : s["kernels"]) n += contains(k["name"].as<std::string>(), part);
  return n;
}

}  // namespace

TEST_CASE("apps: pipeline (a launch loop, dynamic shared memory, __constant__, __device__, a stream, events) passes its check", "[apps]") {
  TempDir t;
  for (const char* mode : {"functional", "timing"}) {
    AppRun a = exec(t, "pipeline", mode, "2048 4");
    INFO(mode << ": " << a.r.out);
    REQUIRE(a.r.code == 0);
    CHECK(contains(a.r.out, "pipeline: 2048 elements, 4 steps: match"));
    CHECK(contains(a.r.out, "4 steps counted"));
    REQUIRE(a.stats["kernels"].size() == 5);  // 4 axpy steps and the reduction, each its own entry
    CHECK(launches_named(a.stats, "axpy_step") == 4);
    CHECK(launches_named(a.stats, "block_sum") == 1);
    CHECK(a.stats["status"].as<std::string>() == "ok");
    // WarpTLM compared none of the application's results: its exit status is its own
    CHECK(a.stats["app_exit"].as<int>() == 0);
    CHECK(a.stats["verdict"].as<std::string>() == "not_checked");
    for (const auto& k : a.stats["kernels"]) CHECK_FALSE(k["verified"].as<bool>());
    const std::string events_warning = "simulates no time: every event reads 0";
    if (std::string(mode) == "timing") {
      for (const auto& k : a.stats["kernels"]) CHECK(k["cycles"].as<uint64_t>() > 0);
      CHECK(contains(a.r.out, "ms simulated"));
      CHECK(!contains(a.r.out, " 0.000000 ms simulated"));  // the events measured the launches' simulated time
      CHECK_FALSE(contains(a.r.out, events_warning));
    } else {  // functional mode moves no time: its events read 0, said once however many the application records
      CHECK(occurrences(a.r.out, events_warning) == 1);
    }
  }
}

TEST_CASE("apps: bfs (a host loop until no vertex changes, plain PTX in its fat binary) passes its check", "[apps]") {
  TempDir t;
  for (const char* mode : {"functional", "timing"}) {
    AppRun a = exec(t, "bfs", mode, "1500");
    INFO(mode << ": " << a.r.out);
    REQUIRE(a.r.code == 0);
    CHECK(contains(a.r.out, ": match"));
    CHECK(launches_named(a.stats, "expand") > 2);  // as many launches as the search needed
  }
}

TEST_CASE("apps: managed (managed memory, device queries, pinned memory) passes its check", "[apps]") {
  TempDir t;
  for (const char* mode : {"functional", "timing"}) {
    AppRun a = exec(t, "managed", mode);
    INFO(mode << ": " << a.r.out);
    REQUIRE(a.r.code == 0);
    CHECK(contains(a.r.out, "15 SMs (attribute 15)"));  // gtx480's SM count, from the config
    CHECK(contains(a.r.out, "64 bins: match"));
  }
}

TEST_CASE("apps: dsin (double sin and cos from libdevice, carry chains) matches the host's libm", "[apps]") {
  TempDir t;
  for (const char* mode : {"functional", "timing"}) {
    AppRun a = exec(t, "dsin", mode);
    INFO(mode << ": " << a.r.out);
    REQUIRE(a.r.code == 0);
    CHECK(contains(a.r.out, ": match"));
    CHECK(launches_named(a.stats, "sincos_kernel") == 1);
  }
}

TEST_CASE("apps: runtime_calls (function attributes, occupancy, memory info, pitched copies, pointer attributes, "
          "asynchronous symbol copies, stream-ordered allocation, a stream waiting on an event) passes its check", "[apps]") {
  TempDir t;
  for (const char* mode : {"functional", "timing"}) {
    AppRun a = exec(t, "runtime_calls", mode);
    INFO(mode << ": " << a.r.out);
    REQUIRE(a.r.code == 0);
    CHECK(contains(a.r.out, "runtime_calls: all answers right"));
    CHECK(contains(a.r.out, "1024 static shared bytes"));  // the kernel's __shared__ float[256]
    // occupancy against gtx480's SM (1536 threads, 8 blocks, 32768 registers, 48 KiB shared memory) and the
    // registers the runtime reported
    const size_t at = a.r.out.find(" local bytes, ");
    REQUIRE(at != std::string::npos);
    const int regs = std::atoi(a.r.out.c_str() + at + 14);
    REQUIRE(regs > 0);
    const int by_regs = 32768 / (regs * 256);
    const int want = std::min(std::min(1536 / 256, 8), by_regs);
    CHECK(contains(a.r.out, "occupancy at 256 threads: " + std::to_string(want) + " blocks per SM"));
    CHECK(contains(a.r.out, "with 20000 dynamic shared bytes: " + std::to_string(std::min(want, 49152 / 21024))));
    CHECK(a.stats["kernels"].size() == 3);
    CHECK(launches_named(a.stats, "rows_kernel") == 1);
    CHECK(launches_named(a.stats, "add_one") == 2);
  }
}

TEST_CASE("apps: an application of the CUDA 12 ABI reads CUDA 12's cudaDeviceProp from libcudart.so.12", "[apps]") {
  TempDir t;
  // gtx480: 15 SMs, a 700 MHz core clock, 48 KiB of shared memory per SM
  CmdResult r = warptlm(t, "exec --config gtx480 -q --out " + q(t / "p12") + " -- " + q(CUDART12_PROBE) + " 15 700000 49152");
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(contains(r.out, "15 SMs at 700000 kHz, 49152 shared bytes per SM"));
  CHECK(contains(r.out, "0 bytes written past the earlier runtime's structure"));
  CHECK(contains(r.out, "the CUDA 12 layout holds the config"));
  // the probe fails when the config says otherwise
  r = warptlm(t, "exec --config gtx480 --set gpu.num_sms=16 -q --out " + q(t / "p12b") + " -- " + q(CUDART12_PROBE) + " 15 700000 49152");
  CHECK(r.code != 0);
  CHECK(contains(r.out, "16 SMs"));
}

TEST_CASE("apps: an application calling a runtime function WarpTLM does not provide exits non-zero naming it", "[apps][error]") {
  TempDir t;
  AppRun a = exec(t, "unsupported", "functional");
  INFO(a.r.out);
  CHECK(a.r.code != 0);
  CHECK(contains(a.r.out, "cudaGraphCreate"));
  CHECK(contains(a.r.out, "docs/cuda-apps.md"));
}

TEST_CASE("apps: an application run without warptlm exec is told how to run it", "[apps][error]") {
  TempDir t;
  const std::string lib = std::string(WARPTLM_BINARY_DIR) + "/cudart/13";
  const std::string log = t / "direct.log";
  const int rc = std::system(("LD_LIBRARY_PATH='" + lib + "' " + q(app("pipeline")) + " 64 1 > " + q(log) + " 2>&1").c_str());
  const std::string out = slurp(log);
  INFO(out);
  CHECK(rc != 0);
  CHECK(contains(out, "warptlm exec"));
}

TEST_CASE("apps: spin (a kernel that never ends) is stopped in either mode, with its stats", "[apps][run_control]") {
  // A run limit, then the watchdog of each mode; the application is ended with the run.
  TempDir t;
  for (const char* mode : {"functional", "timing"}) {
    AppRun a = exec(t, "spin", mode, "", "gtx480 --set sim.max_wall_seconds=0.3 --set sim.watchdog_cycles=0 --set sim.watchdog_instructions=0");
    INFO(mode << ": " << a.r.out);
    CHECK(a.r.code == 3);
    CHECK(contains(a.r.out, "sim.max_wall_seconds"));
    REQUIRE(a.stats);
    CHECK(a.stats["status"].as<std::string>() == "limit");
    REQUIRE(a.stats["kernels"].size() == 1);
    CHECK(a.stats["kernels"][0]["status"].as<std::string>() == "limit");
    CHECK_FALSE(contains(a.r.out, "spin: the kernel ended"));
  }
  {
    AppRun a = exec(t, "spin", "functional", "", "gtx480 --set sim.watchdog_instructions=200000");
    INFO(a.r.out);
    CHECK(a.r.code == 1);
    CHECK(contains(a.r.out, "deadlock in kernel '_Z13wait_for_flagPViPi': no progress for"));
    CHECK(contains(a.r.out, "spins without progress at pc"));
    REQUIRE(a.stats);
    CHECK(a.stats["status"].as<std::string>() == "deadlock");
  }
}

TEST_CASE("apps: the exit status is the application's own and WarpTLM says it compared nothing", "[apps][verdict]") {
  TempDir t;
  for (const char* mode : {"functional", "timing"}) {
    INFO(mode);
    AppRun ok = exec(t, "status", mode, "0");
    INFO(ok.r.out);
    REQUIRE(ok.r.code == 0);
    REQUIRE(ok.stats);
    CHECK(ok.stats["app_exit"].as<int>() == 0);
    CHECK(ok.stats["status"].as<std::string>() == "ok");
    CHECK(ok.stats["verdict"].as<std::string>() == "not_checked");  // not "verified": nothing was compared
    REQUIRE(ok.stats["kernels"].size() == 1);
    CHECK_FALSE(ok.stats["kernels"][0]["verified"].as<bool>());
    AppRun failed = exec(t, "status", mode, "1");
    INFO(failed.r.out);
    CHECK(failed.r.code == 1);
    CHECK(contains(failed.r.out, "status: 0 of 1000 sums wrong; exiting with 1"));  // its results were right: its status failed it
    CHECK(contains(failed.r.out, "exited with status 1"));
    REQUIRE(failed.stats);
    CHECK(failed.stats["app_exit"].as<int>() == 1);
    CHECK(failed.stats["status"].as<std::string>() == "app_failed");
    CHECK(failed.stats["verdict"].as<std::string>() == "app_failed");
    CHECK(failed.stats["kernels"].size() == 1);
  }
  // The summary line says what decided the run (not "-q"; the status as the application gave it).
  const CmdResult line = warptlm(t, "exec --config gtx480 --set sim.mode=functional --out " + q(t / "line") + " -- " + q(app("status")));
  INFO(line.out);
  CHECK(line.code == 0);
  CHECK(contains(line.out, "exited 0, not checked"));
  CHECK_FALSE(contains(line.out, "verified"));
}

TEST_CASE("apps: a program that never reached WarpTLM's runtime is refused naming why", "[apps][error]") {
  TempDir t;
  // nvcc's default links the CUDA runtime into the executable: its calls never reach the simulator
  AppRun s = exec(t, "static_runtime", "functional");
  INFO(s.r.out);
  CHECK(s.r.code == 2);
  CHECK(contains(s.r.out, "linked into it"));
  CHECK(contains(s.r.out, "-cudart shared"));
  CHECK_FALSE(fs::exists(t / "static_runtime_functional/stats.json"));  // nothing ran on the simulated GPU
  // a program with no CUDA at all
  const CmdResult none = warptlm(t, "exec --config gtx480 -q --out " + q(t / "none") + " -- true");
  INFO(none.out);
  CHECK(none.code == 2);
  CHECK(contains(none.out, "true ran without making a CUDA call"));
  CHECK(contains(none.out, "no CUDA code"));
  CHECK_FALSE(fs::exists(t / "none/stats.json"));
}

TEST_CASE("apps: a kernel fault names the PTX file written to the output folder and its line and is said once", "[apps][error]") {
  TempDir t;
  for (const char* mode : {"functional", "timing"}) {
    INFO(mode);
    AppRun a = exec(t, "oob", mode);
    INFO(a.r.out);
    CHECK(a.r.code == 1);
    CHECK(contains(a.r.out, "oob: the launch returned cudaErrorIllegalAddress"));
    CHECK(occurrences(a.r.out, "memory fault in kernel") == 1);
    // the message's file is the PTX extracted from the fat binary, in the run's output folder, and its line
    // is the faulting store
    const std::string out = t / (std::string("oob_") + mode);
    const std::string ptx = out + "/oob.ptx";
    REQUIRE(fs::exists(ptx));
    const size_t at = a.r.out.find(ptx + ":");
    REQUIRE(at != std::string::npos);
    const int line = std::atoi(a.r.out.c_str() + at + ptx.size() + 1);
    REQUIRE(line > 0);
    std::ifstream f(ptx);
    std::string text;
    for (int i = 0; i < line && std::getline(f, text);) ++i;
    CHECK(contains(text, "st.global"));
    // the faulting launch is in stats.json, with its status
    REQUIRE(a.stats);
    CHECK(a.stats["status"].as<std::string>() == "fault");
    CHECK(a.stats["app_exit"].as<int>() == 1);
    REQUIRE(a.stats["kernels"].size() == 1);
    CHECK(a.stats["kernels"][0]["name"].as<std::string>() == "_Z14store_past_endPix");
    CHECK(a.stats["kernels"][0]["status"].as<std::string>() == "fault");
  }
}

TEST_CASE("apps: warptlm exec --help prints the exec options", "[apps][cli]") {
  TempDir t;
  const CmdResult r = warptlm(t, "exec --help");
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(contains(r.out, "warptlm exec [options] -- APP [ARGS]"));
  CHECK(contains(r.out, "--config"));
  CHECK(contains(r.out, "-cudart shared"));
  CHECK_FALSE(contains(r.out, "--workload"));  // run's options are not exec's
  CHECK_FALSE(contains(r.out, "error"));
}

TEST_CASE("apps: stencil and lu and mandel (repeated launches and shrinking launches and one long launch) pass their checks", "[apps]") {
  // The applications whole-application sampling is measured on (docs/cuda-apps.md); bfs is the fourth.
  TempDir t;
  for (const char* mode : {"functional", "timing"}) {
    INFO(mode);
    AppRun st = exec(t, "stencil", mode, "64 20");
    INFO(st.r.out);
    REQUIRE(st.r.code == 0);
    CHECK(contains(st.r.out, "stencil: 64x64, 20 steps: match (0 wrong)"));
    CHECK(st.stats["kernels"].size() == 20);
    CHECK(launches_named(st.stats, "jacobi_step") == 20);
    AppRun lu = exec(t, "lu", mode, "32");
    INFO(lu.r.out);
    REQUIRE(lu.r.code == 0);
    CHECK(contains(lu.r.out, "lu: 32x32, 62 launches: match (0 wrong)"));
    REQUIRE(lu.stats["kernels"].size() == 62);
    CHECK(launches_named(lu.stats, "scale_column") == 31);
    CHECK(launches_named(lu.stats, "update_trailing") == 31);
    // the trailing update shrinks: its first launch does more work than its last
    const uint64_t first = lu.stats["kernels"][1]["warp_instructions"].as<uint64_t>();
    const uint64_t last = lu.stats["kernels"][61]["warp_instructions"].as<uint64_t>();
    CHECK(first > 4 * last);
    AppRun md = exec(t, "mandel", mode, "64 48 64");
    INFO(md.r.out);
    REQUIRE(md.r.code == 0);
    CHECK(contains(md.r.out, "mandel: 64x48, limit 64, 64657 iterations: match (0 wrong)"));
    REQUIRE(md.stats["kernels"].size() == 1);
    CHECK(md.stats["kernels"][0]["warp_instructions"].as<uint64_t>() > 50000);
    for (const AppRun* a : {&st, &lu, &md}) CHECK(a->stats["app_exit"].as<int>() == 0);
  }
}

// ---------------------------------------------------------------- kernel-level sampling (docs/sampling.md)

namespace {

uint64_t total_cycles(const YAML::Node& s) {
  uint64_t c = 0;
  for (const auto& k : s["kernels"]) c += k["cycles"].as<uint64_t>();
  return c;
}

// An application run in full and sampled (`settings`: the sampled run's --set options after the config),
// both required to end with exit 0.
std::pair<AppRun, AppRun> full_and_sampled(TempDir& t, const char* name, const std::string& args, const std::string& settings) {
  AppRun full = exec(t, name, "timing", args);
  INFO(full.r.out);
  REQUIRE(full.r.code == 0);
  AppRun sampled = exec(t, name, "timing", args, "gtx480 " + settings);
  INFO(sampled.r.out);
  REQUIRE(sampled.r.code == 0);
  return {std::move(full), std::move(sampled)};
}

// A sampled run's estimate against the full run's cycles: inside its own stated bound, and within 5 %.
void check_estimate(const YAML::Node& sampling, double full_cycles) {
  const double est = sampling["estimated_cycles"].as<double>(), bound = sampling["bound_cycles"].as<double>();
  CAPTURE(full_cycles, est, bound);
  CHECK(std::abs(est - full_cycles) <= bound);
  CHECK(std::abs(est - full_cycles) <= 0.05 * full_cycles);
}

size_t sampled_as(const YAML::Node& s, const std::string& kind) {
  size_t n = 0;
  for (const auto& k : s["kernels"]) n += k["sampling"] && k["sampling"].as<std::string>() == kind;
  return n;
}

}  // namespace

TEST_CASE("sampling: a stencil's estimate from a few timed launches lies within its stated bound of the full run", "[apps][sampling]") {
  TempDir t;
  AppRun full = exec(t, "stencil", "timing", "64 120");
  INFO(full.r.out);
  REQUIRE(full.r.code == 0);
  CHECK_FALSE(full.stats["sampling"]);  // a full run has no sampling section
  for (const auto& k : full.stats["kernels"]) CHECK_FALSE(k["sampling"]);
  AppRun s = exec(t, "stencil", "timing", "64 120", "gtx480 --set sim.sampling=launches");
  INFO(s.r.out);
  REQUIRE(s.r.code == 0);
  CHECK(contains(s.r.out, "stencil: 64x64, 120 steps: match (0 wrong)"));  // the functional launches computed the same grid
  const YAML::Node sm = s.stats["sampling"];
  REQUIRE(sm);
  CHECK(sm["mode"].as<std::string>() == "launches");
  CHECK(sm["launches"].as<uint64_t>() == 120);
  const uint64_t timed = sm["timed_launches"].as<uint64_t>();
  CHECK(timed >= 4);
  CHECK(timed <= 20);  // the mechanism acts: most launches ran functionally
  REQUIRE(sm["groups"].size() == 1);
  CHECK(sm["groups"][0]["launches"].as<uint64_t>() == 120);
  // each kernel says how it ran; the estimated ones measured no cycles and carry their estimate
  REQUIRE(s.stats["kernels"].size() == 120);
  const size_t n_timed = sampled_as(s.stats, "timed"), n_warm = sampled_as(s.stats, "warm_up"),
               n_est = sampled_as(s.stats, "estimated");
  CHECK(n_timed + n_warm + n_est == 120);
  CHECK(n_timed + n_warm == timed);
  CHECK(n_warm == 0);  // the functional launches warmed the caches: a sample needs no warm-up launch (by default)
  CHECK(n_est >= 100);
  CHECK(s.stats["counters"]["gpu.estimated_launches"].as<uint64_t>() == n_est);
  CHECK(s.stats["counters"]["gpu.estimated_warmed_lines"].as<uint64_t>() > 0);
  for (const auto& k : s.stats["kernels"])
    if (k["sampling"].as<std::string>() == "estimated") {
      CHECK(k["cycles"].as<uint64_t>() == 0);
      CHECK(k["estimated_cycles"].as<double>() > 0);
    }
  // launches timed before any ran functionally saw the full run's history: the same cycles exactly
  for (int i = 0; i < 3; ++i) CHECK(s.stats["kernels"][i]["cycles"].as<uint64_t>() == full.stats["kernels"][i]["cycles"].as<uint64_t>());
  // the estimate and its bound (whether the bound covers the full run as often as it says: the test below)
  CHECK(sm["bound_cycles"].as<double>() > 0);
  const double full_cycles = double(total_cycles(full.stats)), est = sm["estimated_cycles"].as<double>();
  CAPTURE(full_cycles, est);
  CHECK(std::abs(est - full_cycles) <= 0.05 * full_cycles);
  CHECK(contains(slurp(t / "stencil_timing/stats.txt"), "sampling.mode = launches\n"));
  // the summary line gives the estimate with its bound, not the timed part's cycles as the run's
  const CmdResult line = warptlm(t, "exec --config gtx480 --set sim.sampling=launches --out " + q(t / "line") + " -- " +
                                        q(app("stencil")) + " 64 120");
  INFO(line.out);
  CHECK(contains(line.out, "sampled: " + std::to_string(timed) + " of 120 launches timed ("));
  CHECK(contains(line.out, "cycles in all"));
}

TEST_CASE("sampling: over ten seeds the stencil's estimate lies inside its stated bound as often as a 95 % interval should", "[apps][sampling][ci]") {
  // Where the samples fall is drawn from sim.sampling_seed, so one run is one draw and its bound, a 95 %
  // interval, may miss the full run. Over seeds 1 to 10 it must hold at least 8 times (a true 95 % interval
  // holds 7 times or fewer with a chance of 1.2 %), and every estimate lies within 5 %. 96 x 96, 150 steps:
  // the validation's small size (scripts/validate-sampling).
  TempDir t;
  AppRun full = exec(t, "stencil", "timing", "96 150");
  INFO(full.r.out);
  REQUIRE(full.r.code == 0);
  const double full_cycles = double(total_cycles(full.stats));
  int inside = 0;
  std::set<std::vector<size_t>> drawn;  // the launches each seed timed
  for (int seed = 1; seed <= 10; ++seed) {
    AppRun s = exec(t, "stencil", "timing", "96 150", "gtx480 --set sim.sampling=launches --set sim.sampling_seed=" + std::to_string(seed));
    INFO(s.r.out);
    REQUIRE(s.r.code == 0);
    const double est = s.stats["sampling"]["estimated_cycles"].as<double>(), bound = s.stats["sampling"]["bound_cycles"].as<double>();
    CAPTURE(seed, full_cycles, est, bound);
    CHECK(std::abs(est - full_cycles) <= 0.05 * full_cycles);
    inside += std::abs(est - full_cycles) <= bound;
    std::vector<size_t> timed;
    for (size_t i = 0; i < s.stats["kernels"].size(); ++i)
      if (s.stats["kernels"][i]["sampling"].as<std::string>() != "estimated") timed.push_back(i);
    CHECK(timed.size() <= 20);  // the mechanism acts: most launches estimated
    drawn.insert(timed);
  }
  CHECK(inside >= 8);
  CHECK(drawn.size() >= 9);  // the seeds drew different samples
}

TEST_CASE("sampling: an estimate that leaves out the launches it did not time falls outside its bound (test-only fault)", "[apps][sampling]") {
  // The bound check above must be able to fail: WARPTLM_TEST_FAULT=sampling_drop_estimates counts only the
  // timed launches' cycles.
  TempDir t;
  AppRun full = exec(t, "stencil", "timing", "64 120");
  REQUIRE(full.r.code == 0);
  setenv("WARPTLM_TEST_FAULT", "sampling_drop_estimates", 1);
  AppRun s = exec(t, "stencil", "timing", "64 120", "gtx480 --set sim.sampling=launches");
  unsetenv("WARPTLM_TEST_FAULT");
  INFO(s.r.out);
  REQUIRE(s.r.code == 0);
  const double full_cycles = double(total_cycles(full.stats)), est = s.stats["sampling"]["estimated_cycles"].as<double>(),
               bound = s.stats["sampling"]["bound_cycles"].as<double>();
  CAPTURE(full_cycles, est, bound);
  CHECK(std::abs(est - full_cycles) > bound);
}

namespace {
// Launches timed right after one run functionally: their cycles' deviation from the same launches of the full
// run, in parts of the full run's cycles, and how many there are.
double deviation_after_functional(const YAML::Node& full, const YAML::Node& sampled, size_t& n) {
  double dev = 0, total = 0;
  n = 0;
  const YAML::Node fk = full["kernels"], sk = sampled["kernels"];
  for (size_t i = 1; i < sk.size() && i < fk.size(); ++i)
    if (sk[i]["sampling"].as<std::string>() == "timed" && sk[i - 1]["sampling"].as<std::string>() == "estimated") {
      dev += std::abs(sk[i]["cycles"].as<double>() - fk[i]["cycles"].as<double>());
      total += fk[i]["cycles"].as<double>();
      ++n;
    }
  return total > 0 ? dev / total : 0.0;
}
}  // namespace

TEST_CASE("sampling: launches run functionally warm the caches so a launch timed after them takes the full run's cycles", "[apps][sampling]") {
  // LU at 64 x 64: the matrix (16 KB) fits in every SM's L1, and in a full run a trailing update finds its
  // lines there, gathered over dozens of launches. Its functional launches' lines go into the L1 and L2 tag
  // arrays (and the kernels' code and parameters into the instruction and constant caches), so the launches
  // timed after them meet the caches of the full run. The test-only fault sampling_cold_caches leaves them
  // out: the same check then fails.
  TempDir t;
  auto [full, s] = full_and_sampled(t, "lu", "64", "--set sim.sampling=launches");
  INFO(s.r.out);
  CHECK(contains(s.r.out, "match (0 wrong)"));
  CHECK(s.stats["counters"]["gpu.estimated_warmed_lines"].as<uint64_t>() > 0);
  size_t n = 0;
  const double dev = deviation_after_functional(full.stats, s.stats, n);
  CAPTURE(dev, n);
  CHECK(n >= 3);  // the check looks at launches it is about
  CHECK(dev <= 0.02);
  check_estimate(s.stats["sampling"], double(total_cycles(full.stats)));

  setenv("WARPTLM_TEST_FAULT", "sampling_cold_caches", 1);
  AppRun cold = exec(t, "lu", "timing", "64", "gtx480 --set sim.sampling=launches");
  unsetenv("WARPTLM_TEST_FAULT");
  INFO(cold.r.out);
  REQUIRE(cold.r.code == 0);
  CHECK(cold.stats["counters"]["gpu.estimated_warmed_lines"].as<uint64_t>() == 0);
  const double cold_dev = deviation_after_functional(full.stats, cold.stats, n);
  CAPTURE(cold_dev, n);
  CHECK(n >= 3);
  CHECK(cold_dev > 0.02);
}

TEST_CASE("sampling: deferred warming replays the functional launches a timed launch follows and leaves the caches as warming every one does", "[apps][sampling][ci]") {
  // gtx480's L1s and L2 hold 8,064 lines, so the default window (4) is 32,256 line accesses. A stencil at
  // 96 x 96 reaches about 3,600 per launch: the replay before each timed launch takes the last nine or so of
  // the stretch run functionally (1 to 49 launches: a sample falls at a place drawn in each 25). It must
  // leave the caches as warming every functional launch as it runs does (sim.sampling_warm_window: 0):
  // every timed launch takes the same cycles, with at most a window and a launch replayed per timed
  // launch. At 512 x 512 a launch reaches 99,068: the default replays the last one whole, while a window of
  // 1 keeps only its last 32,256 accesses (four windows: what is kept stays bounded) and the launch timed
  // after it then takes other cycles, which shows the check sees the history replayed.
  TempDir t;
  // (a sample in every 25 launches: stretches short enough for several timed launches at either size)
  const std::string sampled = "gtx480 --set sim.sampling=launches --set sim.sampling_every=25",
                    base = sampled + " --set sim.sampling_warm_window=";
  AppRun every = exec(t, "stencil", "timing", "96 150", base + "0");
  AppRun deferred = exec(t, "stencil", "timing", "96 150", sampled);
  AppRun large = exec(t, "stencil", "timing", "512 30", sampled);
  AppRun short_window = exec(t, "stencil", "timing", "512 30", base + "1");
  for (const AppRun* a : {&every, &deferred, &large, &short_window}) {
    INFO(a->r.out);
    REQUIRE(a->r.code == 0);
  }
  const auto timed = [](const YAML::Node& st) {
    std::vector<std::pair<size_t, uint64_t>> v;
    for (size_t i = 0; i < st["kernels"].size(); ++i)
      if (st["kernels"][i]["sampling"].as<std::string>() == "timed") v.push_back({i, st["kernels"][i]["cycles"].as<uint64_t>()});
    return v;
  };
  const auto replays = [](const YAML::Node& st) {
    uint64_t n = 0;
    for (size_t i = 1; i < st["kernels"].size(); ++i)
      n += st["kernels"][i]["sampling"].as<std::string>() == "timed" && st["kernels"][i - 1]["sampling"].as<std::string>() == "estimated";
    return n;
  };
  const auto warmed = [](const AppRun& a) { return a.stats["counters"]["gpu.estimated_warmed_lines"].as<uint64_t>(); };
  CHECK(replays(every.stats) >= 4);  // the launches the warming is about
  CHECK(timed(deferred.stats) == timed(every.stats));
  CHECK(deferred.stats["sampling"]["estimated_cycles"].as<double>() == every.stats["sampling"]["estimated_cycles"].as<double>());
  // each replay takes at most the window and the one launch that reaches past it (the stencil's launches
  // reach the same lines each), where warming every launch takes all of them
  const uint64_t functional = sampled_as(every.stats, "estimated"), per_launch = warmed(every) / functional;
  CAPTURE(warmed(every), warmed(deferred), functional, replays(deferred.stats));
  CHECK(warmed(deferred) > 0);
  CHECK(warmed(deferred) <= replays(deferred.stats) * (4 * 8064 + per_launch));
  CHECK(2 * warmed(deferred) <= warmed(every));

  REQUIRE(replays(large.stats) == 1);
  CHECK(warmed(large) > 4 * 8064);  // the last launch whole
  CHECK(warmed(short_window) == 4 * 8064);
  CHECK(timed(short_window.stats) != timed(large.stats));
}

TEST_CASE("sampling: a warm-up launch instead of warmed caches is taken behind each stretch of functional launches", "[apps][sampling]") {
  TempDir t;
  AppRun s = exec(t, "stencil", "timing", "64 120", "gtx480 --set sim.sampling=launches --set sim.sampling_warm_caches=false --set sim.sampling_warm_up=1");
  INFO(s.r.out);
  REQUIRE(s.r.code == 0);
  CHECK(sampled_as(s.stats, "warm_up") >= 1);
  CHECK_FALSE(s.stats["counters"]["gpu.estimated_warmed_lines"]);
  for (size_t i = 1; i < s.stats["kernels"].size(); ++i)  // a warm-up follows a functional launch, a sample a timed one
    if (s.stats["kernels"][i]["sampling"].as<std::string>() == "warm_up")
      CHECK(s.stats["kernels"][i - 1]["sampling"].as<std::string>() == "estimated");
  AppRun none = exec(t, "stencil", "timing", "32 4", "gtx480 --set sim.sampling=launches --set sim.sampling_warm_caches=false --set sim.sampling_warm_up=0");
  INFO(none.r.out);
  CHECK(none.r.code == 2);
  CHECK(contains(none.r.out, "sim.sampling_warm_up is 0 and sim.sampling_warm_caches is false"));
}

TEST_CASE("sampling: intervals of one long launch give an estimate within its stated bound of the full run", "[apps][sampling]") {
  // mandel at 512 x 384: one launch of 768 blocks. Timed intervals with blocks run functionally between them;
  // the application's own check compares every pixel, those of the functional blocks included.
  TempDir t;
  auto [full, s] = full_and_sampled(t, "mandel", "512 384 64", "--set sim.sampling=intervals");
  INFO(s.r.out);
  CHECK(contains(s.r.out, "match (0 wrong)"));
  const YAML::Node sm = s.stats["sampling"];
  REQUIRE(sm);
  CHECK(sm["mode"].as<std::string>() == "intervals");
  CHECK(sm["launches"].as<uint64_t>() == 1);
  CHECK(sm["timed_launches"].as<uint64_t>() == 0);
  REQUIRE(sm["groups"].size() == 1);
  const YAML::Node g = sm["groups"][0];
  CHECK(g["launch"].as<uint64_t>() == 0);
  CHECK(g["sampled_intervals"].as<uint64_t>() >= 2);
  CHECK(g["intervals"].as<uint64_t>() > g["sampled_intervals"].as<uint64_t>());  // the ramp is no sample
  const uint64_t blocks = g["estimated_blocks"].as<uint64_t>();
  CHECK(blocks >= 100);  // the mechanism acts: many blocks ran functionally
  CHECK(blocks < 768);
  const YAML::Node c = s.stats["counters"];
  CHECK(c["gpu.estimated_blocks"].as<uint64_t>() == blocks);
  CHECK(c["gpu.estimated_launches"].as<uint64_t>() == 1);
  CHECK(c["gpu.estimated_warmed_lines"].as<uint64_t>() > 0);
  // every warp instruction ran once: on the SMs or functionally
  const YAML::Node k = s.stats["kernels"][0], fk = full.stats["kernels"][0];
  CHECK(k["warp_instructions"].as<uint64_t>() + c["gpu.estimated_warp_instructions"].as<uint64_t>() ==
        fk["warp_instructions"].as<uint64_t>());
  CHECK(k["sampling"].as<std::string>() == "estimated");
  CHECK(k["cycles"].as<uint64_t>() < fk["cycles"].as<uint64_t>());  // the timed part
  CHECK(k["estimated_cycles"].as<double>() == g["estimated_cycles"].as<double>());
  const double full_cycles = fk["cycles"].as<double>();
  CHECK(sm["bound_cycles"].as<double>() > 0);
  check_estimate(sm, full_cycles);
  CHECK(contains(slurp(t / "mandel_timing/stats.txt"), "sampling.mode = intervals\n"));
#ifndef WARPTLM_SANITIZED  // four more whole runs: the release build's (CI time)
  const CmdResult line = warptlm(t, "exec --config gtx480 --set sim.sampling=intervals --out " + q(t / "line") + " -- " +
                                        q(app("mandel")) + " 512 384 64");
  INFO(line.out);
  CHECK(contains(line.out, "sampled in intervals: 1 of 1 launches with blocks run functionally between timed intervals ("));

  // the same figures with the SMs' edges on two threads (the functional blocks run at the dispatcher's edge,
  // after every SM's part of it)
  AppRun two = exec(t, "mandel", "timing", "512 384 64", "gtx480 --set sim.sampling=intervals --set sim.threads=2");
  INFO(two.r.out);
  REQUIRE(two.r.code == 0);
  CHECK(two.stats["kernels"][0]["cycles"].as<uint64_t>() == k["cycles"].as<uint64_t>());
  CHECK(two.stats["sampling"]["estimated_cycles"].as<uint64_t>() == sm["estimated_cycles"].as<uint64_t>());
  CHECK(two.stats["counters"]["gpu.estimated_blocks"].as<uint64_t>() == blocks);

  // one interval in one timed: nothing runs functionally, and the launch is the full run's exactly
  AppRun whole = exec(t, "mandel", "timing", "512 384 64", "gtx480 --set sim.sampling=intervals --set sim.sampling_period=1");
  INFO(whole.r.out);
  REQUIRE(whole.r.code == 0);
  CHECK(whole.stats["kernels"][0]["sampling"].as<std::string>() == "timed");
  CHECK(whole.stats["kernels"][0]["cycles"].as<uint64_t>() == fk["cycles"].as<uint64_t>());
  CHECK(whole.stats["sampling"]["estimated_cycles"].as<uint64_t>() == fk["cycles"].as<uint64_t>());
  CHECK(whole.stats["sampling"]["timed_launches"].as<uint64_t>() == 1);

  // the bound check can fail: an estimate that leaves out the functional blocks (test-only fault)
  setenv("WARPTLM_TEST_FAULT", "sampling_drop_estimates", 1);
  AppRun drop = exec(t, "mandel", "timing", "512 384 64", "gtx480 --set sim.sampling=intervals");
  unsetenv("WARPTLM_TEST_FAULT");
  REQUIRE(drop.r.code == 0);
  const double dest = drop.stats["sampling"]["estimated_cycles"].as<double>(), dbound = drop.stats["sampling"]["bound_cycles"].as<double>();
  CAPTURE(dest, dbound);
  CHECK(std::abs(dest - full_cycles) > dbound);
#endif
}

TEST_CASE("sampling: refused in functional mode and beside fast-forward naming the key", "[apps][sampling][error]") {
  TempDir t;
  AppRun f = exec(t, "stencil", "functional", "32 4", "gtx480 --set sim.sampling=launches");
  INFO(f.r.out);
  CHECK(f.r.code == 2);
  CHECK(contains(f.r.out, "sim.sampling needs sim.mode=timing"));
  AppRun ff = exec(t, "stencil", "timing", "32 4", "gtx480 --set sim.sampling=launches --set sim.fast_forward=2");
  INFO(ff.r.out);
  CHECK(ff.r.code == 2);
  CHECK(contains(ff.r.out, "sim.sampling and sim.fast_forward"));
}
