// Run control through the warptlm command, as a user meets it: the run limits
// (sim.max_cycles, sim.max_instructions, sim.max_wall_seconds) stop a kernel that
// never ends with exit 3 and partial stats; the no-progress watchdog stops a
// spinning kernel and a barrier deadlock (exit 1) naming each waiting warp and
// its PTX line; SIGINT and SIGTERM leave a complete stats.json (exit 130, 143).
// The kernels are tb/tests/kernels/hangs.cu (PTX from nvcc).
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <filesystem>
#include <thread>
#include <vector>

#include "cli_util.hpp"

using namespace cli_util;
namespace fs = std::filesystem;

// The sanitizer build (its allocator writes shadow memory for every allocation).
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kUnderAsan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kUnderAsan = true;
#else
constexpr bool kUnderAsan = false;
#endif
#else
constexpr bool kUnderAsan = false;
#endif

namespace {

// A run YAML launching `kernel` of hangs.ptx on 4 blocks of 64 threads.
std::string setup_hang(const TempDir& t, const std::string& kernel) {
  fs::copy_file(std::string(WARPTLM_SOURCE_DIR) + "/tb/tests/kernels/hangs.ptx", t / "hangs.ptx");
  const std::string yaml = t / "run.yaml";
  write_text(yaml,
             "kernel:\n"
             "  ptx: hangs.ptx\n"
             "  name: " + kernel + "\n"
             "  grid: [4, 1, 1]\n"
             "  block: [64, 1, 1]\n"
             "  buffers:\n"
             "    flag: {type: u32, count: 1, init: zeros}\n"
             "    out: {type: u32, count: 256, init: zeros}\n"
             "  args: [flag, out]\n");
  return yaml;
}

// `warptlm run` of `kernel` (setup_hang) on gtx480 with `sets` (" --set k=v ..."), stats in t/out.
CmdResult run_hang(const TempDir& t, const std::string& kernel, const std::string& sets) {
  return warptlm(t, "run " + q(setup_hang(t, kernel)) + " --config gtx480" + sets + " --out " + q(t / "out"));
}

YAML::Node stats(const TempDir& t) { return YAML::LoadFile(t / "out/stats.json"); }

// The hangs.ptx lines named after each spinning warp ("spins without progress ... hangs.ptx:N"):
// where in its loop a warp stands when the watchdog looks depends on the memory latency.
std::vector<int> spinner_lines(const std::string& out) {
  std::vector<int> lines;
  for (size_t at = out.find("spins without progress"); at != std::string::npos; at = out.find("spins without progress", at + 1)) {
    const size_t f = out.find("hangs.ptx:", at);
    if (f != std::string::npos) lines.push_back(std::stoi(out.substr(f + 10)));
  }
  return lines;
}

}  // namespace

TEST_CASE("run control: a finished run says status ok in stats.json and stats.txt", "[run_control]") {
  TempDir t;
  auto r = warptlm(t, "run --workload vecadd --size tiny --config gtx480 --out " + q(t / "out") + " -q");
  INFO(r.out);
  REQUIRE(r.code == 0);
  const YAML::Node st = stats(t);
  CHECK(st["status"].as<std::string>() == "ok");
  CHECK_FALSE(st["message"]);
  CHECK(st["kernels"][0]["status"].as<std::string>() == "ok");
  CHECK(contains(slurp(t / "out/stats.txt"), "status = ok\n"));
}

TEST_CASE("run control: the watchdog stops a spinning kernel and names each spinning warp's PTX line", "[run_control]") {
  TempDir t;
  auto r = run_hang(t, "spin_on_flag", " --set sim.watchdog_cycles=20000");
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(contains(r.out, "deadlock in kernel 'spin_on_flag'"));
  CHECK(contains(r.out, "no progress for"));
  CHECK(contains(r.out, "4 blocks never finished"));
  // every warp of every block spins on the flag's load loop (hangs.ptx lines 31-33)
  for (int b = 0; b < 4; ++b)
    for (int w = 0; w < 2; ++w) CHECK(contains(r.out, "block " + std::to_string(b) + "/warp " + std::to_string(w) + " spins without progress"));
  const std::vector<int> lines = spinner_lines(r.out);
  CHECK(lines.size() == 8);
  for (int l : lines) CHECK((l >= 31 && l <= 33));
  const YAML::Node st = stats(t);
  CHECK(st["status"].as<std::string>() == "deadlock");
  CHECK(st["kernels"][0]["status"].as<std::string>() == "deadlock");
  // it stopped once the watchdog window had passed, within one look (1/16 of it)
  const uint64_t cycles = st["kernels"][0]["cycles"].as<uint64_t>();
  CHECK(cycles >= 20000);
  CHECK(cycles <= 20000 + 20000 / 16 + 2);
  CHECK(st["kernels"][0]["warp_instructions"].as<uint64_t>() > 1000);  // it was issuing all along
}

TEST_CASE("run control: the watchdog stops a barrier deadlock and names the warps at the barrier and the spinner", "[run_control]") {
  TempDir t;
  auto r = run_hang(t, "barrier_vs_spin", " --set sim.watchdog_cycles=20000");
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(contains(r.out, "deadlock in kernel 'barrier_vs_spin'"));
  for (int b = 0; b < 4; ++b) {
    CHECK(contains(r.out, "block " + std::to_string(b) + "/warp 1 waits at a barrier at pc 11, "));
    CHECK(contains(r.out, "block " + std::to_string(b) + "/warp 0 spins without progress"));
  }
  CHECK(contains(r.out, "hangs.ptx:72 `bar.sync 0;`"));
  const std::vector<int> lines = spinner_lines(r.out);  // the spinner's loop: hangs.ptx lines 66-68
  CHECK(lines.size() == 4);
  for (int l : lines) CHECK((l >= 66 && l <= 68));
  CHECK(stats(t)["status"].as<std::string>() == "deadlock");
}

TEST_CASE("run control: sim.max_cycles stops a kernel that never ends with exit 3 and partial stats", "[run_control]") {
  TempDir t;
  auto r = run_hang(t, "spin_on_flag", " --set sim.max_cycles=5000");
  INFO(r.out);
  CHECK(r.code == 3);
  CHECK(contains(r.out, "sim.max_cycles (5000) reached"));
  const YAML::Node st = stats(t);
  CHECK(st["status"].as<std::string>() == "limit");
  CHECK(st["kernels"][0]["status"].as<std::string>() == "limit");
  CHECK_FALSE(st["kernels"][0]["verified"].as<bool>());
  const uint64_t cycles = st["kernels"][0]["cycles"].as<uint64_t>();
  CHECK(cycles >= 5000);
  CHECK(cycles <= 5000 + 5000 / 16 + 2);
  CHECK(st["counters"]["gpu.cycles"].as<uint64_t>() == cycles);
  CHECK(contains(slurp(t / "out/stats.txt"), "status = limit\n"));
}

TEST_CASE("run control: a limit's report lists the requests in flight at the stop and the resident warps apart", "[run_control]") {
  // A limit stops requests on their way (they would have been answered): the report says so, not that they
  // went without a response as a lost one would, and the resident warps follow as their own clause.
  TempDir t;
  auto r = warptlm(t, "run --workload vecadd --size small --config gtx480 --set sim.max_cycles=300 --out " + q(t / "out"));
  CHECK(r.code == 3);
  const std::string head = r.out.substr(0, 400);
  INFO(head);
  CHECK(contains(r.out, "blocks never finished; requests in flight at the stop: icn ("));
  CHECK_FALSE(contains(r.out, "without a response"));
  CHECK(contains(r.out, "; resident warps:"));
  CHECK_FALSE(contains(r.out, "finished resident warps"));
  CHECK(stats(t)["status"].as<std::string>() == "limit");
}

TEST_CASE("run control: sim.max_instructions and sim.max_wall_seconds stop it too", "[run_control]") {
  {
    TempDir t;
    auto r = run_hang(t, "spin_on_flag", " --set sim.max_instructions=3000 --set sim.watchdog_cycles=0");
    INFO(r.out);
    CHECK(r.code == 3);
    CHECK(contains(r.out, "sim.max_instructions (3000) reached"));
    const uint64_t wi = stats(t)["kernels"][0]["warp_instructions"].as<uint64_t>();
    CHECK(wi >= 3000);
    CHECK(wi < 3000 + 64 * 8 * 2);  // within one look: 64 cycles of 15 SMs' two schedulers at most
  }
  {
    TempDir t;
    const auto t0 = std::chrono::steady_clock::now();
    auto r = run_hang(t, "spin_on_flag", " --set sim.max_wall_seconds=0.5 --set sim.watchdog_cycles=0");
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    INFO(r.out);
    CHECK(r.code == 3);
    CHECK(contains(r.out, "sim.max_wall_seconds"));
    CHECK(stats(t)["status"].as<std::string>() == "limit");
    CHECK(s < 30);  // it stopped; the bound is loose on purpose (a busy machine), never a timing assertion
  }
}

namespace {

// Start warptlm on a kernel that never ends, send `signo` once it has run a
// while, and return its exit status.
// `mode` is sim.mode (timing or functional).
pid_t start_run(const TempDir& t, const std::string& yaml, const std::string& mode = "timing") {
  const std::string exe = WARPTLM_EXE, out = t / "out", log = t / "log.txt", set_mode = "sim.mode=" + mode;
  pid_t pid = fork();
  if (pid == 0) {
    FILE* f = std::freopen(log.c_str(), "w", stdout);
    (void)f;
    dup2(fileno(stdout), fileno(stderr));
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
    execl(exe.c_str(), exe.c_str(), "run", yaml.c_str(), "--config", "gtx480", "--set", "sim.watchdog_cycles=0", "--set",
          "sim.watchdog_instructions=0", "--set", set_mode.c_str(), "--out", out.c_str(), (char*)nullptr);
    _exit(127);
  }
  return pid;
}

// Whether process `pid` runs warptlm (it has replaced the forked test) and has its own handler for `signo`
// (/proc/PID/status: SigCgt, the caught signals, a hexadecimal mask with bit signo - 1).
bool warptlm_catches(pid_t pid, int signo) {
  std::ifstream cmd("/proc/" + std::to_string(pid) + "/cmdline");
  std::string argv0;
  if (!std::getline(cmd, argv0, '\0') || argv0 != WARPTLM_EXE) return false;
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("SigCgt:", 0) == 0) return (std::stoull(line.substr(7), nullptr, 16) >> (signo - 1)) & 1;
  return false;
}

int interrupt_run(const TempDir& t, const std::string& yaml, int signo, const std::string& mode = "timing") {
  const pid_t pid = start_run(t, yaml, mode);
  // The signal goes once warptlm has built the GPU and taken the signal over (under the sanitizers on a busy
  // machine, building gtx480 takes longer than the half second the run then gets before the signal).
  for (int i = 0; i < 6000 && !warptlm_catches(pid, signo); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  kill(pid, signo);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST_CASE("run control: Ctrl-C (SIGINT) writes the stats gathered so far, complete, and exits 130", "[run_control]") {
  TempDir t;
  const std::string yaml = setup_hang(t, "spin_on_flag");
  const int code = interrupt_run(t, yaml, SIGINT);
  INFO(slurp(t / "log.txt"));
  CHECK(code == 130);
  REQUIRE(fs::exists(t / "out/stats.json"));
  CHECK_FALSE(fs::exists(t / "out/stats.json.tmp"));
  const YAML::Node st = stats(t);  // parses: written whole
  CHECK(st["status"].as<std::string>() == "interrupted");
  CHECK(st["kernels"][0]["status"].as<std::string>() == "interrupted");
  CHECK(st["kernels"][0]["cycles"].as<uint64_t>() > 0);
  CHECK(st["counters"]["sm.warp_instructions"].as<double>() > 0);
  CHECK(fs::exists(t / "out/config.resolved.yaml"));
  CHECK(contains(slurp(t / "out/stats.txt"), "status = interrupted\n"));
}

TEST_CASE("run control: SIGTERM likewise, exit 143", "[run_control]") {
  TempDir t;
  const std::string yaml = setup_hang(t, "spin_on_flag");
  const int code = interrupt_run(t, yaml, SIGTERM);
  INFO(slurp(t / "log.txt"));
  CHECK(code == 143);
  CHECK(stats(t)["status"].as<std::string>() == "interrupted");
}

// ============================================================ functional mode

// The functional executor has no clock: its watch looks at the same stop
// requests every 65,536 warp instructions, and its own watchdog stops a block
// whose warps reach no new pc. Every stop writes complete stats.

namespace {
// stats.json after a functional stop: complete, with the stop's status on the run and its kernel.
void check_stopped_stats(const TempDir& t, const std::string& status) {
  REQUIRE(fs::exists(t / "out/stats.json"));
  CHECK_FALSE(fs::exists(t / "out/stats.json.tmp"));
  const YAML::Node st = stats(t);
  CHECK(st["status"].as<std::string>() == status);
  REQUIRE(st["kernels"].size() == 1);
  CHECK(st["kernels"][0]["name"].as<std::string>() == "spin_on_flag");
  CHECK(st["kernels"][0]["status"].as<std::string>() == status);
  CHECK_FALSE(st["kernels"][0]["verified"].as<bool>());
  CHECK(st["kernels"][0]["warp_instructions"].as<uint64_t>() > 0);  // the stopped block's instructions are counted
  CHECK(st["counters"]["gpu.launches"].as<uint64_t>() == 1);
  CHECK(fs::exists(t / "out/config.resolved.yaml"));
  CHECK(contains(slurp(t / "out/stats.txt"), "status = " + status + "\n"));
}
}  // namespace

TEST_CASE("functional run control: SIGTERM stops an endless kernel, exit 143, with complete stats", "[run_control]") {
  TempDir t;
  const int code = interrupt_run(t, setup_hang(t, "spin_on_flag"), SIGTERM, "functional");
  INFO(slurp(t / "log.txt"));
  CHECK(code == 143);
  CHECK(contains(slurp(t / "log.txt"), "kernel 'spin_on_flag' stopped: interrupted by signal 15"));
  check_stopped_stats(t, "interrupted");
}

TEST_CASE("functional run control: sim.max_wall_seconds and sim.max_instructions stop it with exit 3", "[run_control]") {
  {
    TempDir t;
    const auto t0 = std::chrono::steady_clock::now();
    auto r = run_hang(t, "spin_on_flag", " --set sim.mode=functional --set sim.max_wall_seconds=0.3 --set sim.watchdog_instructions=0");
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    INFO(r.out);
    CHECK(r.code == 3);
    CHECK(contains(r.out, "kernel 'spin_on_flag' stopped: sim.max_wall_seconds"));
    CHECK(contains(r.out, "4 blocks never finished"));
    check_stopped_stats(t, "limit");
    CHECK(s < 30);  // it stopped; loose on purpose (a busy machine), never a timing assertion
  }
  {
    TempDir t;
    auto r = run_hang(t, "spin_on_flag", " --set sim.mode=functional --set sim.max_instructions=300000 --set sim.watchdog_instructions=0");
    INFO(r.out);
    CHECK(r.code == 3);
    CHECK(contains(r.out, "sim.max_instructions (300000) reached"));
    check_stopped_stats(t, "limit");
    const uint64_t wi = stats(t)["kernels"][0]["warp_instructions"].as<uint64_t>();
    CHECK(wi >= 300000);
    CHECK(wi < 300000 + 65536);  // within one look
  }
}

TEST_CASE("functional run control: the watchdog stops a spinning block, naming its warps and PTX lines", "[run_control]") {
  TempDir t;
  auto r = run_hang(t, "spin_on_flag", " --set sim.mode=functional --set sim.watchdog_instructions=200000");
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(contains(r.out, "deadlock in kernel 'spin_on_flag': no progress for"));
  CHECK(contains(r.out, "(sim.watchdog_instructions)"));
  // warp 0 of the first block spins on the flag's load loop (hangs.ptx lines 31-33); warp 1 never ran
  const std::vector<int> lines = spinner_lines(r.out);
  REQUIRE(lines.size() == 1);
  CHECK((lines[0] >= 31 && lines[0] <= 33));
  CHECK(contains(r.out, "block (0,0,0)/warp 0 spins without progress at pc "));
  CHECK(contains(r.out, "block (0,0,0)/warp 1 has not run yet at pc 0, "));
  CHECK(contains(r.out, "hangs.ptx:25 `ld.param.u64"));
  CHECK(contains(r.out, "4 blocks never finished"));
  check_stopped_stats(t, "deadlock");
  // stopped within one look of the window: 200,000 warp instructions and at most 65,536 more
  const uint64_t wi = stats(t)["kernels"][0]["warp_instructions"].as<uint64_t>();
  CHECK(wi >= 200000);
  CHECK(wi < 200000 + 65536 + 100);
}

TEST_CASE("functional run control: a barrier no warp can pass is a deadlock, not a fault", "[run_control]") {
  // Warp 0 waits at barrier 1 for 64 threads; warp 1 exits without arriving.
  TempDir t;
  write_text(t / "k.ptx", ".version 7.5\n.target sm_75\n.address_size 64\n\n.visible .entry k()\n{\n"
                          "  .reg .pred %p<2>;\n  .reg .b32 %r<2>;\n  mov.u32 %r1, %tid.x;\n  setp.ge.u32 %p1, %r1, 32;\n"
                          "  @%p1 bra DONE;\n  bar.sync 1, 64;\nDONE:\n  ret;\n}\n");
  write_text(t / "run.yaml", "kernel:\n  ptx: k.ptx\n  name: k\n  grid: [2, 1, 1]\n  block: [64, 1, 1]\n  args: []\n");
  auto r = warptlm(t, "run " + q(t / "run.yaml") + " --set sim.mode=functional --out " + q(t / "out"));
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(contains(r.out, "deadlock in kernel 'k', block (0,0,0)"));
  CHECK(contains(r.out, "k.ptx:12"));
  CHECK(contains(r.out, "2 blocks never finished"));
  const YAML::Node st = stats(t);
  CHECK(st["status"].as<std::string>() == "deadlock");
  CHECK(st["kernels"][0]["status"].as<std::string>() == "deadlock");
}

TEST_CASE("functional run control: the fast-forward part of a timing run stops like the rest", "[run_control]") {
  TempDir t;
  auto r = run_hang(t, "spin_on_flag", " --set sim.fast_forward=1 --set sim.max_instructions=300000 --set sim.watchdog_instructions=0");
  INFO(r.out);
  CHECK(r.code == 3);
  CHECK(contains(r.out, "sim.max_instructions (300000) reached"));
  const YAML::Node st = stats(t);
  CHECK(st["status"].as<std::string>() == "limit");
  CHECK(st["kernels"][0]["status"].as<std::string>() == "limit");
  CHECK(st["counters"]["gpu.ff_warp_instructions"].as<uint64_t>() >= 300000);  // counted as fast-forwarded work
}

// ============================================================ block retirement

namespace {
// spin_through_barrier (one warp; each iteration stores and passes a barrier, progress for
// sim.watchdog_cycles) run with no limit but SETS: the watchdog on block retirement must stop it once its
// window has passed, naming the warp and its loop. Returns the window the run resolved.
uint64_t check_retire_watchdog(const std::string& sets) {
  TempDir t;
  fs::copy_file(std::string(WARPTLM_SOURCE_DIR) + "/tb/tests/kernels/hangs.ptx", t / "hangs.ptx");
  write_text(t / "run.yaml", "kernel:\n  ptx: hangs.ptx\n  name: spin_through_barrier\n  grid: [1, 1, 1]\n  block: [32, 1, 1]\n"
                             "  buffers:\n    flag: {type: u32, count: 1, init: zeros}\n    out: {type: u32, count: 32, init: zeros}\n"
                             "  args: [flag, out]\n");
  auto r = warptlm(t, "run " + q(t / "run.yaml") + " --config gtx480 --out " + q(t / "out") + sets);
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(contains(r.out, "deadlock in kernel 'spin_through_barrier': no block retired for"));
  CHECK(contains(r.out, "(sim.watchdog_retire_cycles)"));
  CHECK(contains(r.out, "sm0/block 0/warp 0 spins without progress"));
  const std::vector<int> lines = spinner_lines(r.out);  // the loop: hangs.ptx lines 116-121
  REQUIRE(lines.size() == 1);
  CHECK((lines[0] >= 116 && lines[0] <= 121));
  const YAML::Node st = stats(t);
  CHECK(st["status"].as<std::string>() == "deadlock");
  const uint64_t window = YAML::LoadFile(t / "out/config.resolved.yaml")["sim"]["watchdog_retire_cycles"].as<uint64_t>();
  CHECK(st["kernels"][0]["cycles"].as<uint64_t>() >= window);  // the window passed, and no more than one look
  CHECK(st["kernels"][0]["cycles"].as<uint64_t>() <= window + 4096 + 2);
  CHECK(st["counters"]["sm.warp_instructions"].as<double>() > window / 1000.0);  // it was issuing all along
  return window;
}
}  // namespace

TEST_CASE("run control: a kernel spinning through a barrier and a store is stopped by the retirement watchdog, its warps named", "[run_control][ci]") {
  // The same stop as the default's, with a window of 2 * 10^7 cycles (a second here).
  CHECK(check_retire_watchdog(" --set sim.watchdog_retire_cycles=20000000") == 20000000);
}

TEST_CASE("run control: a kernel spinning through a barrier and a store is stopped by default, its warps named", "[run_control][full]") {
  // No limit set: the default window, 10^9 cycles (about two minutes: one warp waiting on memory is the
  // cheapest to simulate), passes and the run stops.
  CHECK(check_retire_watchdog("") == 1000000000);  // the default (docs/run-control.md gives its margin)
}

// ============================================================ host memory

namespace {
// VmSize of a warptlm process spinning in functional mode (what the simulator maps
// before a launch's blocks: its code, libraries and a sanitizer's shadow), in bytes.
uint64_t running_vm_size(const TempDir& t) {
  const pid_t pid = start_run(t, setup_hang(t, "spin_on_flag"), "functional");
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));  // past start-up, in the launch
  uint64_t kb = 0;
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string key;
  while (in >> key)
    if (key == "VmSize:") in >> kb;
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  return kb << 10;
}
}  // namespace

TEST_CASE("host memory: a .local launch or a buffer beyond what prlimit allows is refused with exit 2", "[run_control][memory]") {
  // 6 GiB of local memory for one warp: within the default budget (8 GiB), beyond a host limit 2 GiB
  // above what the simulator maps. Under the sanitizers too, whose allocator aborts on a failed allocation.
  if (std::system("command -v prlimit > /dev/null") != 0) FAIL("prlimit (util-linux) is needed");
  TempDir base;
  const uint64_t vm = running_vm_size(base);
  REQUIRE(vm > 0);
  const std::string limit = "prlimit --as=" + std::to_string(vm + (2ull << 30)) + " ";
  const std::string head = ".version 7.5\n.target sm_75\n.address_size 64\n\n.visible .entry k()\n{\n";
  struct Case { std::string local, buffers; bool refused; };
  for (const Case& c : {Case{"  .local .align 8 .b8 big[201326592];\n  st.local.u32 [big], 1;\n", "", true},
                        Case{"", "    b: {type: u32, count: 1000000000, init: zeros}\n", true},
                        Case{"  .local .align 8 .b8 big[1024];\n  st.local.u32 [big], 1;\n", "", false}}) {
    for (const char* mode : {"functional", "timing"}) {
      TempDir t;
      write_text(t / "k.ptx", head + c.local + "  ret;\n}\n");
      write_text(t / "run.yaml", "kernel:\n  ptx: k.ptx\n  name: k\n  grid: [1, 1, 1]\n  block: [32, 1, 1]\n" +
                                     (c.buffers.empty() ? std::string() : "  buffers:\n" + c.buffers) + "  args: []\n");
      const std::string log = t / "log.txt";
      const int status = std::system(("SC_COPYRIGHT_MESSAGE=DISABLE " + limit + "'" WARPTLM_EXE "' run " + q(t / "run.yaml") +
                                      " --set sim.mode=" + mode + " --out " + q(t / "out") + " > " + q(log) + " 2>&1").c_str());
      const std::string out = slurp(log);
      INFO(mode << " " << c.local << c.buffers << "\n" << out);
      REQUIRE(WIFEXITED(status));
      if (!c.refused) {
        CHECK(WEXITSTATUS(status) == 0);  // the limit leaves room for an ordinary run
        continue;
      }
      CHECK(WEXITSTATUS(status) == 2);
      CHECK(contains(out, "more than the host gives this process"));
      CHECK(contains(out, "RLIMIT_AS"));
      CHECK_FALSE(contains(out, "AddressSanitizer"));
    }
  }
}

TEST_CASE("host memory: nine 1 GiB zero buffers are refused by the budget at the ninth, touching no host memory", "[run_control][memory]") {
  // Zeroed buffers are untouched device pages: eight fit the default budget (8 GiB) at no host cost, the ninth is refused.
  TempDir t;
  std::string buffers, args;
  for (int i = 0; i < 9; ++i) {
    buffers += "    b" + std::to_string(i) + ": {type: u32, count: 268435456, init: zeros}\n";
    args += std::string(i ? ", " : "") + "b" + std::to_string(i);
  }
  write_text(t / "k.ptx", ".version 7.5\n.target sm_75\n.address_size 64\n\n.visible .entry k()\n{\n  ret;\n}\n");
  write_text(t / "run.yaml", "kernel:\n  ptx: k.ptx\n  name: k\n  grid: [1, 1, 1]\n  block: [32, 1, 1]\n  buffers:\n" + buffers +
                                 "  args: []\n");
  auto r = warptlm(t, "run " + q(t / "run.yaml") + " --set sim.mode=functional --out " + q(t / "out"));
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK(contains(r.out, "device allocation of 1073741824 bytes would take the device memory to"));
  CHECK(contains(r.out, "over the budget of 8192 MiB"));
  rusage ru{};
  getrusage(RUSAGE_CHILDREN, &ru);
  if (!kUnderAsan) CHECK(uint64_t(ru.ru_maxrss) < (512u << 10));  // KiB: far below the 8 GiB reserved (a sanitizer's shadow is not)
}

// ============================================================ warptlm topology

TEST_CASE("topology: the elaborated platform's hierarchical modules, sockets, bindings and clock domains", "[topology]") {
  TempDir t;
  auto r = warptlm(t, "topology --set gpu.num_sms=2 --set mem.partitions=2 --overlay scratchpad_sharing");
  INFO(r.out);
  REQUIRE(r.code == 0);
  // gtx480: each partition has two L2 slices (sub-partitions) sharing its DRAM channel
  for (const char* m : {"host ", "gpu ", "gpu.sm0 ", "gpu.sm0.smem ", "gpu.sm0.l1d ", "gpu.sm0.ssp ", "gpu.sm1.l1d ", "gpu.icn ", "gpu.part1.l2_0 ",
                        "gpu.part1.l2_1 ", "gpu.dram1 ", "gpu.dispatcher ", "gpu.core_clock ", "gpu.l2_clock ", "gpu.dram_clock ",
                        "gpu.run_control "})
    CHECK(contains(r.out, m));
  CHECK_FALSE(contains(r.out, "gpu.sm2"));
  CHECK(contains(r.out, "    gpu.sm0.l1d             L1DataCache  [core, 700 MHz]  sockets: upstream, downstream, readonly_upstream\n"));
  for (const char* b : {"gpu.sm0.mem_socket -> gpu.sm0.l1d.upstream", "gpu.sm1.l1d.downstream -> gpu.icn.sm_socket",
                        "gpu.sm0.readonly_socket -> gpu.sm0.l1d.readonly_upstream",
                        "gpu.icn.part_socket_2 -> gpu.part1.l2_0.up", "gpu.icn.part_socket_3 -> gpu.part1.l2_1.up",
                        "gpu.part1.l2_0.down -> gpu.dram1.socket", "gpu.part1.l2_1.down -> gpu.dram1.socket",
                        "gpu.sm1.ssp_socket -> gpu.sm1.ssp.socket", "gpu.sm0.smem_socket -> gpu.sm0.smem.socket",
                        "host.socket -> gpu.host"})
    CHECK(contains(r.out, b));
  CHECK(contains(r.out, "dram 924 MHz: 2 blocks"));
  CHECK(contains(r.out, "l2 700 MHz: 4 blocks"));
  // one slice per partition: the partition's L2 is gpu.part<p>.l2
  auto one = warptlm(t, "topology --set gpu.num_sms=2 --set mem.partitions=2 --set mem.subpartitions=1 --set l2.slice_size=131072");
  INFO(one.out);
  REQUIRE(one.code == 0);
  CHECK(contains(one.out, "gpu.icn.part_socket_1 -> gpu.part1.l2.up"));
  CHECK(contains(one.out, "gpu.part1.l2.down -> gpu.dram1.socket"));
  CHECK_FALSE(contains(one.out, "gpu.part1.l2_1"));
  // flat memory: no L1, no crossbar; the SMs bind the flat memory
  auto f = warptlm(t, "topology --set gpu.num_sms=2 --set mem.model=flat");
  INFO(f.out);
  REQUIRE(f.code == 0);
  CHECK(contains(f.out, "gpu.sm1.mem_socket -> gpu.memory.socket"));
  CHECK(contains(f.out, "gpu.sm1.readonly_socket -> gpu.memory.socket"));
  CHECK_FALSE(contains(f.out, "gpu.icn"));
}

TEST_CASE("topology --platform spu: the mesh's CB ports on the SMs, and its DMA engines below the SMs", "[topology]") {
  TempDir t;
  // A 1 x 1 mesh: one SM and four interface units (reduced SMs: sm1..sm4).
  auto r = warptlm(t, "topology --platform spu --set spu.rows=1 --set spu.cols=1");
  INFO(r.out);
  REQUIRE(r.code == 0);
  for (const char* b : {"spu.sm0.cb_socket -> spu.cbmesh.cb_port0.socket", "spu.sm4.cb_socket -> spu.cbmesh.cb_port4.socket",
                        "spu.sm4.l1d.downstream -> spu.icn.sm_socket", "host.socket -> spu.host"})
    CHECK(contains(r.out, b));
  // DMA engines: the platform has the one SM; each engine binds its CB port and the crossbar.
  auto d = warptlm(t, "topology --platform spu --set spu.rows=1 --set spu.cols=1 --set spu.iu_model=dma");
  INFO(d.out);
  REQUIRE(d.code == 0);
  CHECK_FALSE(contains(d.out, "spu.sm1 "));
  for (const char* b : {"spu.sm0.cb_socket -> spu.cbmesh.cb_port0.socket",
                        "spu.cbmesh.iu_north0.cb_socket -> spu.cbmesh.cb_port1.socket",
                        "spu.cbmesh.iu_east0.mem_socket -> spu.icn.sm_socket"})
    CHECK(contains(d.out, b));
  CHECK(contains(d.out, "spu.cbmesh.iu_east0 "));
  auto bad = warptlm(t, "topology --platform mesh");
  CHECK(bad.code != 0);
  CHECK(contains(bad.out, "unknown platform 'mesh'"));
}

TEST_CASE("topology --dot: one cluster per SM and partition, one edge per binding", "[topology]") {
  TempDir t;
  auto r = warptlm(t, "topology --dot --set gpu.num_sms=2 --set mem.partitions=2");
  REQUIRE(r.code == 0);
  CHECK(r.out.rfind("digraph warptlm {", 0) == 0);
  CHECK(contains(r.out, "subgraph \"cluster_gpu.sm1\""));
  CHECK(contains(r.out, "subgraph \"cluster_gpu.part0\""));
  size_t edges = 0;
  for (size_t p = r.out.find(" -> "); p != std::string::npos; p = r.out.find(" -> ", p + 1)) ++edges;
  // per SM: smem, l1d, the read-only port to l1d, l1d->icn; per partition's two L2 slices: icn->l2, l2->dram;
  // and the host driver
  CHECK(edges == 2 * 4 + 2 * 2 * 2 + 1);
  CHECK(contains(r.out, "\"gpu.sm0.l1d\" -> \"gpu.icn\""));
  CHECK(contains(r.out, "\"host\" -> \"gpu\""));
  // bad input: in functional mode the platform has no blocks
  auto bad = warptlm(t, "topology --set sim.mode=functional");
  CHECK(bad.code == 2);
}
