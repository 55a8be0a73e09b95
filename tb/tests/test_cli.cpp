// Command tests: run the warptlm executable (WARPTLM_EXE) as a user would and
// check exit codes (0 ok, 1 run failure, 2 bad usage or input), messages (file,
// line and key at fault, with suggestions), the output directory, and
// bring-your-own-PTX runs described by a run YAML. Every test works in its own
// temporary directory.
#include "cli_util.hpp"

#include <catch2/catch.hpp>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace cli_util;

namespace {

void write_floats(const std::string& path, const std::vector<float>& v) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(v.data()), std::streamsize(v.size() * sizeof(float)));
  REQUIRE(out.good());
}

std::vector<float> read_floats(const std::string& path) {
  std::string bytes = slurp(path);
  std::vector<float> v(bytes.size() / sizeof(float));
  std::memcpy(v.data(), bytes.data(), v.size() * sizeof(float));
  return v;
}

std::string lower(std::string s) {
  for (auto& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// "FILE:LINE" with LINE not followed by another digit.
bool names_file_line(const std::string& msg, const std::string& file, int line) {
  const std::string key = file + ":" + std::to_string(line);
  for (size_t pos = msg.find(key); pos != std::string::npos; pos = msg.find(key, pos + 1)) {
    size_t after = pos + key.size();
    if (after >= msg.size() || !std::isdigit(static_cast<unsigned char>(msg[after]))) return true;
  }
  return false;
}

int line_of(const std::string& text, const std::string& needle) {
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (contains(line, needle)) return n;
  }
  return 0;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    size_t b = line.find_first_not_of(" \t\r");
    size_t e = line.find_last_not_of(" \t\r");
    out.push_back(b == std::string::npos ? "" : line.substr(b, e - b + 1));
  }
  return out;
}

const std::string kVecaddTiny = "run --workload vecadd --size tiny --set sim.mode=functional";

// ---- bring-your-own PTX fixtures (kernels from tb/tests/kernels/byo.cu)

const int kByoN = 256;

std::string byo_ptx() { return slurp(std::string(WARPTLM_SOURCE_DIR) + "/tb/tests/kernels/byo.ptx"); }

std::vector<float> byo_input() {
  std::vector<float> a(kByoN);
  for (int i = 0; i < kByoN; ++i) a[i] = float(i) * 0.375f - 17.0f + float(i % 7) / 8.0f;
  return a;
}

// byo_scale: c[i] = a[i] * 2.5f + 1.0f, contracted to one fma.rn.f32.
std::vector<float> byo_expected() {
  std::vector<float> a = byo_input(), c(kByoN);
  for (int i = 0; i < kByoN; ++i) c[i] = std::fma(a[i], 2.5f, 1.0f);
  return c;
}

std::string byo_yaml(const std::string& ptx, const std::string& kernel, const std::string& compare) {
  std::string y =
      "kernel:\n"
      "  ptx: " + ptx + "\n"
      "  name: " + kernel + "\n"
      "  grid: [4, 1, 1]\n"
      "  block: [64, 1, 1]\n"
      "  buffers:\n"
      "    a:\n"
      "      type: f32\n"
      "      count: " + std::to_string(kByoN) + "\n"
      "      init: \"file:a.bin\"\n"
      "    c:\n"
      "      type: f32\n"
      "      count: " + std::to_string(kByoN) + "\n"
      "      init: zeros\n"
      "      dump: c.bin\n";
  if (!compare.empty()) y += "      compare: " + compare + "\n      tolerance: 1e-5\n";
  y += "  args: [a, c, " + std::to_string(kByoN) + "]\n";
  return y;
}

// Lay out a BYO run in dir/job/ (PTX, input, references, run YAML) and return
// the YAML's path. The command is then run from dir/elsewhere/ so relative
// paths must resolve against the YAML file, not the working directory.
std::string setup_byo(const TempDir& dir, const std::string& kernel, const std::string& compare,
                      const std::string& ptx_text = byo_ptx(), const std::string& ptx_name = "byo.ptx") {
  fs::create_directories(dir / "job");
  fs::create_directories(dir / "elsewhere");
  write_text(dir / ("job/" + ptx_name), ptx_text);
  write_floats(dir / "job/a.bin", byo_input());
  std::vector<float> good = byo_expected(), bad = good;
  for (auto& v : bad) v += 1.0f;
  write_floats(dir / "job/c_ref.bin", good);
  write_floats(dir / "job/c_wrong.bin", bad);
  const std::string yaml = dir / "job/run.yaml";
  write_text(yaml, byo_yaml(ptx_name, kernel, compare));
  return yaml;
}

}  // namespace

// ============================================================ listing commands

TEST_CASE("warptlm workloads: one name per line, including vecadd and matmul", "[cli]") {
  TempDir t;
  auto r = warptlm(t, "workloads");
  INFO(r.out);
  REQUIRE(r.code == 0);
  auto lines = lines_of(r.out);
  bool vecadd = false, matmul = false;
  for (const auto& l : lines) {
    vecadd |= l == "vecadd";
    matmul |= l == "matmul";
    CHECK(l.find_first_of(" \t") == std::string::npos);
  }
  CHECK(vecadd);
  CHECK(matmul);
}

TEST_CASE("warptlm params: lists sim.mode and gpu.num_sms with their choices/ranges", "[cli]") {
  TempDir t;
  auto r = warptlm(t, "params");
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK(contains(r.out, "sim.mode"));
  CHECK(contains(r.out, "gpu.num_sms"));
  CHECK(contains(r.out, "functional"));  // sim.mode's choices
}

TEST_CASE("warptlm ptx-info: per entry the estimate beside the ptxas table's count and their difference", "[cli]") {
  TempDir t;
  const std::string dir = std::string(WARPTLM_SOURCE_DIR) + "/tb/workloads/backprop/";
  auto r = warptlm(t, "ptx-info " + q(dir + "backprop.ptx") + " --regs " + q(dir + "backprop.regs"));
  INFO(r.out);
  REQUIRE(r.code == 0);
  // every entry of backprop.regs appears once, with its count and error = estimate - ptxas
  std::istringstream table(slurp(dir + "backprop.regs"));
  std::string line;
  int entries = 0;
  while (std::getline(table, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    std::string entry;
    long ptxas = 0;
    ls >> entry >> ptxas;
    ++entries;
    bool found = false;
    for (const auto& out : lines_of(r.out)) {
      std::istringstream os(out);
      std::string name;
      long instrs, params, shared, local, est, count, error;
      if (!(os >> name >> instrs >> params >> shared >> local >> est >> count >> error) || name != entry) continue;
      found = true;
      CHECK(count == ptxas);
      CHECK(error == est - ptxas);
    }
    CHECK(found);
  }
  CHECK(entries == 3);
  r = warptlm(t, "ptx-info " + q(t / "none.ptx"));
  CHECK(r.code == 2);
  CHECK(contains(r.out, "none.ptx"));
  CHECK(contains(r.out, "cannot read PTX file"));
}

TEST_CASE("warptlm demo runs and exits 0", "[cli]") {
  TempDir t;
  auto r = warptlm(t, "demo", t.path);
  INFO(r.out);
  CHECK(r.code == 0);
}

// ============================================================ a workload run

TEST_CASE("run summary: the line names the workload, config and overlays and gives the verdict, cycles and IPC", "[cli]") {
  TempDir t;
  auto r = warptlm(t, "run --workload vecadd --size tiny --config gtx480 --overlay gto --out " + q(t / "a"));
  INFO(r.out);
  REQUIRE(r.code == 0);
  YAML::Node s = YAML::LoadFile(t / "a/stats.json");
  const uint64_t cycles = s["counters"]["gpu_tot_sim_cycle"].as<uint64_t>();
  CHECK(contains(r.out, "vecadd (tiny) on gtx480 + gto: verified, 1 launch, " + std::to_string(cycles) + " cycles, IPC "));
  char ipc[32];
  std::snprintf(ipc, sizeof ipc, "IPC %.2f,", s["counters"]["gpu_tot_ipc"].as<double>());
  CHECK(contains(r.out, ipc));
  r = warptlm(t, "run --workload vecadd --size tiny --set sim.mode=functional --out " + q(t / "b"));
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK(contains(r.out, "vecadd (tiny) on gtx480 (the default GPU: no --config): verified, 1 launch, functional (no cycles), "));
}

TEST_CASE("run: the ROP stage and the DRAM latency counted in core cycles shorten when only the core clock rises", "[cli]") {
  // gtx480 counts both in core cycles (l2.rop_clock, dram.latency_clock: core), as GPGPU-Sim does; the same
  // delays in the blocks' own cycles (120 L2 cycles, 132 DRAM cycles) are equal at 700 MHz, longer at 1050.
  TempDir t;
  const std::string common = "run --workload vecadd --size tiny --config gtx480 -q --set l2.preload_copies=false ";
  const std::string own = "--set l2.rop_clock=l2 --set dram.latency_clock=dram --set dram.latency=132 ";
  auto cycles = [&](const std::string& name, const std::string& extra) {
    const CmdResult r = warptlm(t, common + extra + "--out " + q(t / name));
    INFO(r.out);
    REQUIRE(r.code == 0);
    return YAML::LoadFile(t / (name + "/stats.json"))["counters"]["gpu_tot_sim_cycle"].as<uint64_t>();
  };
  CHECK(cycles("core700", "") == cycles("own700", own));
  const uint64_t core = cycles("core1050", "--set gpu.core_clock_mhz=1050 ");
  const uint64_t mine = cycles("own1050", own + "--set gpu.core_clock_mhz=1050 ");
  INFO("core-counted " << core << " cycles, own-clock " << mine);
  CHECK(core < mine);
  const YAML::Node cfg = YAML::LoadFile(t / "core1050/config.resolved.yaml");
  CHECK(cfg["l2"]["rop_clock"].as<std::string>() == "core");
  CHECK(cfg["dram"]["latency_clock"].as<std::string>() == "core");
}

TEST_CASE("run without --config elaborates the named default GPU, gtx480, cycle for cycle; --config builtin the bare defaults", "[cli]") {
  TempDir t;
  auto plain = warptlm(t, "run --workload matmul --size tiny -q --out " + q(t / "d"));
  auto named = warptlm(t, "run --workload matmul --size tiny --config gtx480 -q --out " + q(t / "g"));
  auto bare = warptlm(t, "run --workload matmul --size tiny --config builtin -q --out " + q(t / "b"));
  INFO(plain.out << named.out << bare.out);
  REQUIRE(plain.code == 0);
  REQUIRE(named.code == 0);
  REQUIRE(bare.code == 0);
  YAML::Node d = YAML::LoadFile(t / "d/stats.json"), g = YAML::LoadFile(t / "g/stats.json"), b = YAML::LoadFile(t / "b/stats.json");
  CHECK(d["counters"]["gpu_tot_sim_cycle"].as<uint64_t>() == g["counters"]["gpu_tot_sim_cycle"].as<uint64_t>());
  CHECK(d["counters"]["gpu_tot_sim_cycle"].as<uint64_t>() != b["counters"]["gpu_tot_sim_cycle"].as<uint64_t>());
  // where each value came from: gtx480's file, also when it was not named
  CHECK(contains(slurp(t / "d/config.resolved.yaml"), "gtx480.yaml"));
  CHECK(!contains(slurp(t / "b/config.resolved.yaml"), "gtx480.yaml"));
}

TEST_CASE("run vecadd tiny (functional): exit 0, stats.json, stats.txt, config.resolved.yaml", "[cli]") {
  TempDir t;
  const std::string out = t / "out";
  auto r = warptlm(t, kVecaddTiny + " --set gpu.num_sms=2 --out " + q(out));
  INFO(r.out);
  REQUIRE(r.code == 0);
  REQUIRE(fs::exists(out + "/stats.json"));
  REQUIRE(fs::exists(out + "/stats.txt"));
  REQUIRE(fs::exists(out + "/config.resolved.yaml"));

  YAML::Node s = YAML::LoadFile(out + "/stats.json");
  REQUIRE(s["kernels"].IsSequence());
  REQUIRE(s["kernels"].size() >= 1);
  YAML::Node k = s["kernels"][0];
  CHECK(k["verified"].as<bool>());
  CHECK(k["thread_instructions"].as<uint64_t>() > 0);
  CHECK(k["warp_instructions"].as<uint64_t>() > 0);
  CHECK(k["thread_instructions"].as<uint64_t>() <= 32 * k["warp_instructions"].as<uint64_t>());
  CHECK(k["name"].IsDefined());
  CHECK(k["cycles"].IsDefined());
  CHECK(k["ipc"].IsDefined());
  CHECK(s["counters"].IsDefined());
  REQUIRE(s["sim"].IsMap());
  CHECK(s["sim"]["wall_seconds"].IsDefined());
  CHECK(s["sim"]["wall_seconds"].as<double>() >= 0.0);

  std::string txt = slurp(out + "/stats.txt");
  CHECK(contains(txt, "gpu_tot_sim_insn"));
  CHECK(contains(txt, " = "));

  YAML::Node c = YAML::LoadFile(out + "/config.resolved.yaml");
  CHECK(c["sim"]["mode"].as<std::string>() == "functional");
  CHECK(c["gpu"]["num_sms"].as<int>() == 2);
}

TEST_CASE("run: each launch's first blocks wait the kernel launch latency plus the per-block latency", "[cli]") {
  // GPGPU-Sim's -gpgpu_kernel_launch_latency and -gpgpu_TB_launch_latency: one wait before a launch's first
  // blocks, counted in its cycles. On the flat memory (one clock) nothing else moves, so every launch of bfs
  // (ten of them) takes exactly 400 + 3 x its blocks cycles more.
  TempDir t;
  const std::string common = "run --workload bfs --size tiny --config gtx480 -q --set mem.model=flat ";
  auto run = [&](const std::string& name, const std::string& extra) {
    const CmdResult r = warptlm(t, common + extra + "--out " + q(t / name));
    INFO(r.out);
    REQUIRE(r.code == 0);
    return YAML::LoadFile(t / (name + "/stats.json"))["kernels"];
  };
  const YAML::Node base = run("none", "");
  const YAML::Node held = run("held", "--set gpu.kernel_launch_latency=400 --set gpu.block_launch_latency=3 ");
  REQUIRE(base.size() == held.size());
  REQUIRE(base.size() > 1);
  for (size_t i = 0; i < base.size(); ++i) {
    const uint64_t blocks = base[i]["counters"]["gpu.blocks"].as<uint64_t>();
    INFO("launch " << i << ": " << blocks << " blocks");
    CHECK(blocks > 0);
    CHECK(held[i]["cycles"].as<uint64_t>() == base[i]["cycles"].as<uint64_t>() + 400 + 3 * blocks);
    CHECK(held[i]["warp_instructions"].as<uint64_t>() == base[i]["warp_instructions"].as<uint64_t>());
    CHECK(held[i]["verified"].as<bool>());
  }
}

TEST_CASE("run vecadd twice: identical instruction counts and cycles (determinism)", "[cli]") {
  TempDir t;
  auto r1 = warptlm(t, kVecaddTiny + " --out " + q(t / "o1"));
  REQUIRE(r1.code == 0);
  auto r2 = warptlm(t, kVecaddTiny + " --out " + q(t / "o2"));
  REQUIRE(r2.code == 0);
  YAML::Node a = YAML::LoadFile(t / "o1/stats.json")["kernels"][0];
  YAML::Node b = YAML::LoadFile(t / "o2/stats.json")["kernels"][0];
  for (const char* key : {"cycles", "warp_instructions", "thread_instructions"}) {
    INFO(key);
    CHECK(a[key].as<uint64_t>() == b[key].as<uint64_t>());
  }
  CHECK(slurp(t / "o1/config.resolved.yaml") == slurp(t / "o2/config.resolved.yaml"));
}

// ============================================================ bad usage and bad input

TEST_CASE("run --workload vecad: exit 2 and suggests vecadd", "[cli][error]") {
  TempDir t;
  auto r = warptlm(t, "run --workload vecad --size tiny --set sim.mode=functional --out " + q(t / "out"));
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK(contains(r.out, "vecad"));
  CHECK(contains(r.out, "vecadd"));
}

TEST_CASE("run with --set gpu.num_smz=3: exit 2, names the key and suggests gpu.num_sms", "[cli][error]") {
  TempDir t;
  auto r = warptlm(t, kVecaddTiny + " --set gpu.num_smz=3 --out " + q(t / "out"));
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK(contains(r.out, "gpu.num_smz"));
  CHECK(contains(r.out, "gpu.num_sms"));
}

TEST_CASE("run with --set gpu.num_sms=0: exit 2, out of range", "[cli][error]") {
  TempDir t;
  auto r = warptlm(t, kVecaddTiny + " --set gpu.num_sms=0 --out " + q(t / "out"));
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK(contains(r.out, "gpu.num_sms"));
  CHECK(contains(lower(r.out), "range"));
}

TEST_CASE("unknown subcommand and bad --size: exit 2", "[cli][error]") {
  TempDir t;
  auto r1 = warptlm(t, "frobnicate");
  INFO(r1.out);
  CHECK(r1.code == 2);
  auto r2 = warptlm(t, "run --workload vecadd --size huge --set sim.mode=functional --out " + q(t / "out"));
  INFO(r2.out);
  CHECK(r2.code == 2);
  CHECK(contains(r2.out, "huge"));
}

TEST_CASE("run with --config of an unknown name: exit 2 naming it", "[cli][error]") {
  TempDir t;
  auto r = warptlm(t, kVecaddTiny + " --config no_such_config_xyz --out " + q(t / "out"));
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK(contains(r.out, "no_such_config_xyz"));
}

TEST_CASE("run YAML with a syntax error: exit 2 naming the file and line", "[cli][error]") {
  TempDir t;
  const std::string yaml = t / "bad_syntax.yaml";
  write_text(yaml, "sim:\n  mode: functional\n- item\ngpu:\n  num_sms: 2\n");  // yaml-cpp: error at line 3
  auto r = warptlm(t, "run " + q(yaml) + " --workload vecadd --size tiny --out " + q(t / "out"));
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK(names_file_line(r.out, "bad_syntax.yaml", 3));
}

TEST_CASE("run YAML with an unknown key on line 3: exit 2 with FILE:3 and the key", "[cli][error]") {
  TempDir t;
  const std::string yaml = t / "unknown_key.yaml";
  write_text(yaml, "gpu:\n  num_sms: 2\n  num_smz: 3\nsim:\n  mode: functional\n");
  auto r = warptlm(t, "run " + q(yaml) + " --workload vecadd --size tiny --out " + q(t / "out"));
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK(names_file_line(r.out, "unknown_key.yaml", 3));
  CHECK(contains(r.out, "num_smz"));
}

TEST_CASE("run with a missing run file: exit 2 naming it", "[cli][error]") {
  TempDir t;
  auto r = warptlm(t, "run " + q(t / "no_such_run.yaml") + " --out " + q(t / "out"));
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK(contains(r.out, "no_such_run.yaml"));
}

// ============================================================ bring-your-own PTX

TEST_CASE("BYO PTX: correct reference -> exit 0, dumped buffer equals the expected values", "[cli][byo]") {
  TempDir t;
  const std::string yaml = setup_byo(t, "byo_scale", "c_ref.bin");
  auto r = warptlm(t, "run " + q(yaml) + " --set sim.mode=functional --out " + q(t / "out"), t / "elsewhere");
  INFO(r.out);
  REQUIRE(r.code == 0);
  // The dump is written beside the run YAML (paths are relative to it); accept
  // the output directory too.
  std::string dump = fs::exists(t / "job/c.bin") ? t / "job/c.bin" : t / "out/c.bin";
  REQUIRE(fs::exists(dump));
  std::vector<float> got = read_floats(dump), want = byo_expected();
  REQUIRE(got.size() == want.size());
  CHECK(std::memcmp(got.data(), want.data(), want.size() * sizeof(float)) == 0);
  if (fs::exists(t / "out/stats.json")) {
    YAML::Node s = YAML::LoadFile(t / "out/stats.json");
    CHECK(s["kernels"][0]["verified"].as<bool>());
    CHECK(s["verdict"].as<std::string>() == "verified");
    CHECK(s["kernels"][0]["thread_instructions"].as<uint64_t>() > 0);
  }
}

TEST_CASE("BYO PTX: a run with nothing to compare says its results were not checked", "[cli][byo]") {
  TempDir t;
  const std::string yaml = setup_byo(t, "byo_scale", "");
  auto r = warptlm(t, "run " + q(yaml) + " --set sim.mode=functional --out " + q(t / "out"), t / "elsewhere");
  INFO(r.out);
  CHECK(r.code == 0);
  const YAML::Node st = YAML::LoadFile(t / "out/stats.json");
  CHECK(st["status"].as<std::string>() == "ok");
  CHECK(st["verdict"].as<std::string>() == "not_checked");
  CHECK(contains(slurp(t / "out/stats.txt"), "verdict = not_checked\n"));
  CHECK(contains(r.out, "not checked (no reference)"));
}

TEST_CASE("BYO PTX: wrong reference -> exit 1", "[cli][byo]") {
  TempDir t;
  const std::string yaml = setup_byo(t, "byo_scale", "c_wrong.bin");
  auto r = warptlm(t, "run " + q(yaml) + " --set sim.mode=functional --out " + q(t / "out"), t / "elsewhere");
  INFO(r.out);
  CHECK(r.code == 1);
  // the stats are written all the same, with the run's end
  const YAML::Node st = YAML::LoadFile(t / "out/stats.json");
  CHECK(st["status"].as<std::string>() == "wrong_result");
  CHECK(st["verdict"].as<std::string>() == "wrong_result");
  CHECK(contains(st["message"].as<std::string>(), "result mismatch"));
}

TEST_CASE("BYO PTX: a kernel that faults -> exit 1 naming the PTX line", "[cli][byo]") {
  TempDir t;
  const std::string yaml = setup_byo(t, "byo_fault", "");
  auto r = warptlm(t, "run " + q(yaml) + " --set sim.mode=functional --out " + q(t / "out"), t / "elsewhere");
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK((contains(r.out, "byo.ptx:") || contains(r.out, "PTX")));
  CHECK(contains(lower(r.out), "0x"));
  const YAML::Node st = YAML::LoadFile(t / "out/stats.json");
  CHECK(st["status"].as<std::string>() == "fault");
  CHECK(contains(st["message"].as<std::string>(), "byo.ptx:"));
}

TEST_CASE("BYO PTX: malformed PTX -> exit 2 naming the .ptx file and line", "[cli][byo][error]") {
  TempDir t;
  std::string ptx = byo_ptx();
  size_t pos = ptx.find(".address_size 64\n");
  REQUIRE(pos != std::string::npos);
  ptx.insert(pos + std::strlen(".address_size 64\n"), "this is not ptx ?!\n");
  const int line = line_of(ptx, "this is not ptx");
  REQUIRE(line > 0);
  const std::string yaml = setup_byo(t, "byo_scale", "", ptx, "bad.ptx");
  auto r = warptlm(t, "run " + q(yaml) + " --set sim.mode=functional --out " + q(t / "out"), t / "elsewhere");
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK(names_file_line(r.out, "bad.ptx", line));
}

namespace {
// add_to: v[i] += x for i < n; affine: v[i] = v[i] * s.mul + s.add, s a struct {u32 mul; u32 add} by value.
const char* kLaunchesPtx = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry add_to(.param .u64 v, .param .u32 x, .param .u32 n)
{
 .reg .pred %p<2>;
 .reg .b32 %r<8>;
 .reg .b64 %rd<4>;
 ld.param.u64 %rd1, [v];
 ld.param.u32 %r1, [x];
 ld.param.u32 %r2, [n];
 mov.u32 %r3, %tid.x;
 setp.ge.u32 %p1, %r3, %r2;
 @%p1 bra DONE;
 mul.wide.u32 %rd2, %r3, 4;
 add.s64 %rd3, %rd1, %rd2;
 ld.global.u32 %r4, [%rd3];
 add.u32 %r4, %r4, %r1;
 st.global.u32 [%rd3], %r4;
DONE:
 ret;
}
.visible .entry affine(.param .u64 v, .param .align 4 .b8 s[8])
{
 .reg .b32 %r<8>;
 .reg .b64 %rd<4>;
 ld.param.u64 %rd1, [v];
 ld.param.u32 %r1, [s];
 ld.param.u32 %r2, [s+4];
 mov.u32 %r3, %tid.x;
 mul.wide.u32 %rd2, %r3, 4;
 add.s64 %rd3, %rd1, %rd2;
 ld.global.u32 %r4, [%rd3];
 mad.lo.u32 %r4, %r4, %r1, %r2;
 st.global.u32 [%rd3], %r4;
 ret;
}
)";
const char* kLaunchesYaml = R"(kernel:
  ptx: launches.ptx
  block: [32, 1, 1]
  buffers:
    v: {type: u32, count: 32, init: sequence, dump: v.bin}
  launches:
    - {name: add_to, grid: 1, args: [v+16, 5, 28], repeat: 3}
    - {name: affine, grid: [1, 1, 1], args: [v, [3, 0, 0, 0, 7, 0, 0, 0]]}
)";
}  // namespace

TEST_CASE("BYO PTX: a launches list runs kernels in order over the same buffers, buf+offset and struct arguments", "[cli][byo]") {
  TempDir t;
  fs::create_directories(t / "job");
  write_text(t / "job/launches.ptx", kLaunchesPtx);
  write_text(t / "job/run.yaml", kLaunchesYaml);
  for (const char* mode : {"functional", "timing"}) {
    const std::string out = t / (std::string("out_") + mode);
    auto r = warptlm(t, "run " + q(t / "job/run.yaml") + " --set sim.mode=" + mode + " -q --out " + q(out));
    INFO(mode << ": " << r.out);
    REQUIRE(r.code == 0);
    const std::string dump = fs::exists(out + "/v.bin") ? out + "/v.bin" : t / "job/v.bin";
    const std::string bytes = slurp(dump);
    REQUIRE(bytes.size() == 32 * 4);
    for (uint32_t i = 0; i < 32; ++i) {
      uint32_t v;
      std::memcpy(&v, bytes.data() + 4 * i, 4);
      // v+16 starts at element 4; 28 elements from there get 5 added three times; then all x 3 + 7
      const uint32_t want = (i + (i >= 4 ? 15u : 0u)) * 3u + 7u;
      INFO("element " << i);
      CHECK(v == want);
    }
    const YAML::Node s = YAML::LoadFile(out + "/stats.json");
    REQUIRE(s["kernels"].size() == 4);  // every launch its own entry, the repeats included
    CHECK(s["kernels"][0]["name"].as<std::string>() == "add_to");
    CHECK(s["kernels"][2]["name"].as<std::string>() == "add_to");
    CHECK(s["kernels"][3]["name"].as<std::string>() == "affine");
  }
}

TEST_CASE("BYO PTX: launches with a wrong byte list, an offset past the buffer or name beside launches exit 2 naming the key", "[cli][byo][error]") {
  TempDir t;
  fs::create_directories(t / "job");
  write_text(t / "job/launches.ptx", kLaunchesPtx);
  const std::string base = kLaunchesYaml;
  auto run_with = [&](const std::string& yaml) {
    write_text(t / "job/run.yaml", yaml);
    return warptlm(t, "run " + q(t / "job/run.yaml") + " -q --out " + q(t / "out"));
  };
  // each case: the text replaced in the good run file, its replacement, and what the message names
  struct Case {
    std::string from, to;
    std::vector<std::string> names;
  };
  const Case cases[] = {
      {"[3, 0, 0, 0, 7, 0, 0, 0]", "[3, 0, 0, 0, 7, 0, 0]", {"run.yaml:8", "kernel.launches[1].args", "8 bytes"}},
      {"v+16", "v+132", {"kernel.launches[0].args", "128 bytes"}},
      {"  block:", "  name: add_to\n  block:", {"kernel.name", "launches"}},
      {"[3, 0, 0, 0, 7, 0, 0, 0]", "[3, 0, 0, 0, 7, 0, 0, 256]", {"0 to 255"}},
  };
  for (const Case& c : cases) {
    std::string y = base;
    REQUIRE(y.find(c.from) != std::string::npos);
    y.replace(y.find(c.from), c.from.size(), c.to);
    const auto r = run_with(y);
    INFO(c.from << " -> " << c.to << "\n" << r.out);
    CHECK(r.code == 2);
    for (const std::string& n : c.names) CHECK(contains(r.out, n));
  }
}

TEST_CASE("BYO PTX: a missing PTX file, an oversized block and a bad value in set: name their run-file line", "[cli][byo][error]") {
  TempDir t;
  const std::string yaml = setup_byo(t, "byo_scale", "");
  const std::string good = slurp(yaml);
  auto run_with = [&](const std::string& text) {
    write_text(yaml, text);
    return warptlm(t, "run " + q(yaml) + " --set sim.mode=functional --out " + q(t / "out"), t / "elsewhere");
  };
  std::string y = good;
  y.replace(y.find("ptx: byo.ptx"), 12, "ptx: gone.ptx");
  auto r = run_with(y);
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK(contains(r.out, "run.yaml:2"));
  CHECK(contains(r.out, "cannot open PTX file"));
  CHECK(contains(r.out, "gone.ptx"));
  y = good;
  y.replace(y.find("block: [64, 1, 1]"), 17, "block: [64, 32, 1]");  // 2048 threads, each axis within its limit
  r = run_with(y);
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK(contains(r.out, "run.yaml:2"));  // the kernel section, the launch
  CHECK(contains(r.out, "gpu.max_threads_per_block"));
  r = run_with(good + "set:\n  gpu.num_sms: 4\n  sm.warp_scheduler: gtoo\n");
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK(contains(r.out, "run.yaml:" + std::to_string(std::count(good.begin(), good.end(), '\n') + 3) + ": "));
  CHECK(contains(r.out, "did you mean 'gto'"));
}

TEST_CASE("BYO PTX: a kernel name not in the module -> exit 2", "[cli][byo][error]") {
  TempDir t;
  const std::string yaml = setup_byo(t, "no_such_entry", "");
  auto r = warptlm(t, "run " + q(yaml) + " --set sim.mode=functional --out " + q(t / "out"), t / "elsewhere");
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK(contains(r.out, "no_such_entry"));
}

TEST_CASE("timing runs are deterministic: every counter identical across two runs", "[cli]") {
  TempDir t;
  for (const char* wl : {"matmul", "bfs"}) {
    std::string args = std::string("run --workload ") + wl + " --size tiny --config gtx480 --set sm.warp_scheduler=gto -q --out ";
    auto r1 = warptlm(t, args + q(t / (std::string(wl) + "1")));
    auto r2 = warptlm(t, args + q(t / (std::string(wl) + "2")));
    REQUIRE(r1.code == 0);
    REQUIRE(r2.code == 0);
    YAML::Node a = YAML::LoadFile(t / (std::string(wl) + "1/stats.json"));
    YAML::Node b = YAML::LoadFile(t / (std::string(wl) + "2/stats.json"));
    CHECK(a["kernels"][0]["cycles"].as<uint64_t>() > 0);
    a.remove("sim");  // wall-clock speed differs run to run; everything else must not
    b.remove("sim");
    CHECK(YAML::Dump(a) == YAML::Dump(b));
  }
}

#ifdef WARPTLM_HOST_JEMALLOC
extern "C" int mallctl(const char* name, void* old_value, size_t* old_size, void* new_value, size_t new_size);

TEST_CASE("host allocator: huge pages by default, and no counter depends on the host's pages or fresh memory's bytes", "[cli]") {
  // this process links the same settings as warptlm (tb/warptlm/host_allocator.cpp)
  const char* thp = nullptr;
  size_t size = sizeof(thp);
  REQUIRE(mallctl("opt.thp", &thp, &size, nullptr, 0) == 0);
  CHECK(std::string(thp) == "always");
  // 4 KB pages, and every new allocation filled with 0xa5 bytes instead of what the OS gave: a model that read
  // memory it never wrote, or that ordered anything by host address, would count differently
  TempDir t;
  for (const char* wl : {"bfs", "ss_dct1"}) {
    INFO(wl);
    const std::string args = std::string("run --workload ") + wl + " --size tiny --config gtx480 -q --out ";
    auto plain = warptlm(t, args + q(t / (std::string(wl) + "_huge")));
    setenv("MALLOC_CONF", "thp:never,junk:alloc", 1);
    auto small = warptlm(t, args + q(t / (std::string(wl) + "_small")));
    unsetenv("MALLOC_CONF");
    REQUIRE(plain.code == 0);
    REQUIRE(small.code == 0);
    YAML::Node a = YAML::LoadFile(t / (std::string(wl) + "_huge/stats.json"));
    YAML::Node b = YAML::LoadFile(t / (std::string(wl) + "_small/stats.json"));
    CHECK(a["counters"]["l1d.misses"].as<double>() > 0);
    a.remove("sim");
    b.remove("sim");
    CHECK(YAML::Dump(a) == YAML::Dump(b));
  }
}
#endif

// ============================================================ memory hierarchy, whole GPU

namespace {
YAML::Node run_stats(TempDir& t, const std::string& wl, const std::string& size, const std::string& extra = "") {
  const std::string out = wl + "_" + size;
  auto r = warptlm(t, "run --workload " + wl + " --size " + size + " --config gtx480 -q " + extra + " --out " + q(t / out));
  INFO(r.out);
  REQUIRE(r.code == 0);
  return YAML::LoadFile(t / (out + "/stats.json"));
}
double counter(const YAML::Node& st, const std::string& k) {
  INFO(k);
  REQUIRE(st["counters"][k]);
  return st["counters"][k].as<double>();
}
}  // namespace

TEST_CASE("memory: transpose naive has more shared-memory bank conflicts than transpose padded", "[memory]") {
  TempDir t;
  YAML::Node naive = run_stats(t, "transpose_naive", "tiny"), padded = run_stats(t, "transpose_padded", "tiny");
  CHECK(counter(naive, "shmem_bank_conflicts") > 0);
  CHECK(counter(naive, "shmem_bank_conflicts") > counter(padded, "shmem_bank_conflicts"));
  // the unpadded column read of a 32x32 tile puts all 32 lanes in one bank
  CHECK(counter(naive, "smem.conflict_degree.bucket32") > 0);
  CHECK(counter(padded, "smem.conflict_degree.bucket32") == 0);
  // fewer conflict cycles: the padded kernel finishes sooner
  CHECK(naive["kernels"][0]["cycles"].as<uint64_t>() > padded["kernels"][0]["cycles"].as<uint64_t>());
}

TEST_CASE("memory: walking a matrix down its columns costs a line per lane, along its rows a line or two per warp", "[memory]") {
  // gemv at tiny: n = 200, a row-major 200 x 200 float matrix (800 B rows), blocks of 128 threads: 7 warps,
  // the last with 8 lanes. Each warp reads A once per step k (n steps), x[k] once (one address: broadcast)
  // and stores its outputs once (consecutive floats: one 128 B line per warp).
  TempDir t;
  YAML::Node st = run_stats(t, "gemv", "tiny");
  REQUIRE(st["kernels"].size() == 2);
  auto requests = [&](size_t k) { return st["kernels"][k]["counters"]["l1d.requests"].as<uint64_t>(); };
  const uint64_t n = 200, warps = 7;
  // A thread per row: the 200 lanes read rows 800 B apart, each its own line, every step.
  CHECK(requests(0) == n * n + warps * n + warps);
  // A thread per column: a full warp reads 128 B of row k at offset k x 800 mod 128 = 32k mod 128: one line when
  // k is a multiple of 4, two otherwise (7 lines per 4 steps); the 8-lane warp's 32 B never cross a line.
  CHECK(requests(1) == 6 * (n / 4) * 7 + n + warps * n + warps);
  CHECK(st["kernels"][0]["verified"].as<bool>());
}

TEST_CASE("memory: a streaming kernel keeps the DRAM data bus at least 80 percent busy", "[memory][ci]") {
  TempDir t;
  YAML::Node st = run_stats(t, "vecadd", "medium");
  CHECK(counter(st, "dram.bw_util") >= 0.80);
  CHECK(counter(st, "dram.bw_util") <= 1.0);
  // streaming: almost every DRAM access hits the open row; stores come back as L2 write-backs
  CHECK(counter(st, "dram.row_hits") > 3 * counter(st, "dram.row_misses"));
  CHECK(counter(st, "dram.writes") > 0);
  CHECK(counter(st, "dram.reads") > counter(st, "dram.writes"));
}

TEST_CASE("memory: the contract's summed counters are present and non-zero where work happened", "[memory]") {
  TempDir t;
  // copies not placed in L2 (l2.preload_copies): matmul small's inputs would then never leave it
  YAML::Node st = run_stats(t, "matmul", "small", "--set l2.preload_copies=false");
  for (const char* k : {"l1d.misses", "l2.hits", "l2.misses", "dram.reads", "dram.row_hits", "dram.row_misses", "dram.bw_util"})
    CHECK(counter(st, k) > 0);
  for (const char* k : {"l1d.hits", "dram.writes", "shmem_bank_conflicts"}) CHECK(counter(st, k) >= 0);
  // matmul reuses tiles of A and B across blocks: the L2 catches most of what the L1s miss.
  // A request that merges into a fetch in flight counts as an L2 miss but costs no DRAM
  // access, so the claim is on what reaches DRAM, in 32-byte sectors (gtx480's L1D fills
  // whole 128-byte lines, the DRAM reads sectors): fewer than half of what the fills asked for.
  CHECK(2 * counter(st, "dram.reads") < 4 * counter(st, "l1d.fill_requests"));
  CHECK(counter(st, "l2.hits") + counter(st, "l2.mshr_merges") > counter(st, "l2.fetches"));
  // conservation through every level
  for (const char* b : {"ldst", "l1d", "smem", "icn", "l2", "dram"}) {
    INFO(b);
    CHECK(counter(st, std::string(b) + ".requests") == counter(st, std::string(b) + ".responses"));
  }
  // per-instance counters sum to the summed view
  double sum = 0;
  for (int s = 0; s < 15; ++s) sum += counter(st, "sm" + std::to_string(s) + ".l1d.misses");
  CHECK(sum == counter(st, "l1d.misses"));
}

TEST_CASE("memory: the flat memory model still runs and verifies every kind of access", "[memory]") {
  TempDir t;
  YAML::Node st = run_stats(t, "histogram", "tiny", "--set mem.model=flat");
  CHECK(st["kernels"][0]["verified"].as<bool>());
  CHECK(counter(st, "mem.requests") == counter(st, "mem.responses"));
  CHECK(!st["counters"]["l2.hits"]);
}

// ============================================================ the Kepler SMX (spec 004 sec. 2.4-2.5, 2.14)

TEST_CASE("run matmul on kepler_k20x: verified, with dual issues and the private and shared units at work", "[cli][kepler]") {
  TempDir t;
  const std::string out = t / "out";
  auto r = warptlm(t, "run --workload matmul --config kepler_k20x -q --out " + q(out));
  INFO(r.out);
  REQUIRE(r.code == 0);
  YAML::Node s = YAML::LoadFile(out + "/stats.json");
  CHECK(s["kernels"][0]["verified"].as<bool>());
  YAML::Node c = s["counters"];
  CHECK(c["sm.dual_issues"].as<uint64_t>() > 0);
  CHECK(c["unit.sp_busy_cycles"].as<uint64_t>() > 0);
  CHECK(c["unit.branch_busy_cycles"].as<uint64_t>() > 0);
  CHECK(c["unit.ldst_busy_cycles"].as<uint64_t>() > 0);
}

TEST_CASE("run with private units that the schedulers cannot share equally: exit 2 naming file, line and key", "[cli][error][kepler]") {
  TempDir t;
  const std::string ov = t / "units.yaml";
  write_text(ov, "sm:\n  unit:\n    sp:\n      private: 3\n");
  auto r = warptlm(t, "run --workload vecadd --config kepler_k20x --overlay " + q(ov) + " -q --out " + q(t / "out"));
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK(contains(r.out, "units.yaml:4"));
  CHECK(contains(r.out, "sm.unit.sp.private"));
  CHECK(contains(r.out, "multiple of sm.num_schedulers"));
  r = warptlm(t, "run --workload vecadd --config kepler_k20x --set sm.shared_units=even --set sm.unit.ldst.lanes=6 -q --out " + q(t / "out"));
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK(contains(r.out, "sm.unit.ldst.lanes"));
}

TEST_CASE("run pb_gemm with the redundant-MSHR count: most allocations are redundant, one SM has none, and no other stat moves", "[cli][kepler][mshr]") {
  TempDir t;
  auto r = warptlm(t, "run --workload pb_gemm --config kepler_k20x -q --out " + q(t / "off"));
  INFO(r.out);
  REQUIRE(r.code == 0);
  r = warptlm(t, "run --workload pb_gemm --config kepler_k20x --set l1d.redundancy.mode=sliding -q --out " + q(t / "on"));
  INFO(r.out);
  REQUIRE(r.code == 0);
  r = warptlm(t, "run --workload pb_gemm --config kepler_k20x --set l1d.redundancy.mode=sliding --set gpu.num_sms=1 -q --out " + q(t / "one"));
  INFO(r.out);
  REQUIRE(r.code == 0);
  YAML::Node off = YAML::LoadFile(t / "off/stats.json")["counters"], on = YAML::LoadFile(t / "on/stats.json")["counters"];
  YAML::Node one = YAML::LoadFile(t / "one/stats.json")["counters"];
  // Round-robin placement sends blocks that read the same rows of A to different SMs (spec 004 sec. 4.3).
  CHECK(on["mshr_redundancy.redundant_fraction"].as<double>() > 0.5);
  CHECK(on["mshr_redundancy.requests_per_entry"].as<double>() >= 1.0);
  CHECK(on["mshr_redundancy.allocations"].as<double>() > 0);
  CHECK(one["mshr_redundancy.allocations"].as<double>() > 0);
  CHECK(one["mshr_redundancy.redundant"].as<double>() == 0);
  size_t compared = 0;
  for (auto it = off.begin(); it != off.end(); ++it) {
    const std::string k = it->first.as<std::string>();
    INFO(k);
    REQUIRE(on[k].IsDefined());
    CHECK(on[k].as<std::string>() == it->second.as<std::string>());
    ++compared;
  }
  CHECK(on.size() == off.size() + 5);  // the five mshr_redundancy.* values and nothing else
  CHECK(compared > 100);
}

// ============================================================ locality-aware scheduling (spec 004 ch. 6)

namespace {
YAML::Node counters_of(const std::string& dir) { return YAML::LoadFile(dir + "/stats.json")["counters"]; }
const std::string kLocality = " --set gpu.placement=locality --set sm.warp_scheduler=locality --set l1d.redundancy.mode=sliding";
}  // namespace

TEST_CASE("run pb_gemm with locality-aware scheduling and hint 0: every stat of the baseline, cycle for cycle", "[cli][locality]") {
  TempDir t;
  auto r = warptlm(t, "run --workload pb_gemm --config kepler_k20x --set l1d.redundancy.mode=sliding -q --out " + q(t / "base"));
  REQUIRE(r.code == 0);
  r = warptlm(t, "run --workload pb_gemm --config kepler_k20x" + kLocality + " --set locality.launch_hint=0 -q --out " + q(t / "h0"));
  INFO(r.out);
  REQUIRE(r.code == 0);
  YAML::Node base = counters_of(t / "base"), h0 = counters_of(t / "h0");
  size_t compared = 0;
  for (auto it = base.begin(); it != base.end(); ++it) {
    const std::string k = it->first.as<std::string>();
    INFO(k);
    REQUIRE(h0[k].IsDefined());
    CHECK(h0[k].as<std::string>() == it->second.as<std::string>());
    ++compared;
  }
  CHECK(compared > 100);
  CHECK(h0["locality.group_switches"].as<double>() == 0);
}

TEST_CASE("run pb_gemm with hint 1: adjacent blocks share SMs, MSHR entries merge more requests, fewer allocations are redundant", "[cli][locality][ci]") {
  // Spec 004 sec. 4.8 (Figs. 6.11, 6.12): requests per MSHR entry rise and redundant allocations fall on GEMM.
  TempDir t;
  auto r = warptlm(t, "run --workload pb_gemm --size small --config kepler_k20x --set l1d.redundancy.mode=sliding -q --out " + q(t / "base"));
  REQUIRE(r.code == 0);
  r = warptlm(t, "run --workload pb_gemm --size small --config kepler_k20x" + kLocality + " --set locality.launch_hint=1 -q --out " + q(t / "h1"));
  INFO(r.out);
  REQUIRE(r.code == 0);
  YAML::Node s = YAML::LoadFile(t / "h1/stats.json");
  CHECK(s["kernels"][0]["verified"].as<bool>());
  YAML::Node base = counters_of(t / "base"), h1 = s["counters"];
  CHECK(h1["locality.hinted_launches"].as<double>() == 1);
  CHECK(h1["locality.adjacent_placements"].as<double>() > 0);
  CHECK(h1["locality.group_switches"].as<double>() > 0);
  CHECK(h1["mshr_redundancy.requests_per_entry"].as<double>() > base["mshr_redundancy.requests_per_entry"].as<double>());
  CHECK(h1["mshr_redundancy.redundant_fraction"].as<double>() < base["mshr_redundancy.redundant_fraction"].as<double>());
  CHECK(h1["cost.locality.bits"].as<double>() == 2 + (64 + 4) * 4);  // hint, a 4-bit group tag per warp slot and per scheduler
}

TEST_CASE("run file kernel.hint reaches the launch; a hint over 3 is refused with file, line and key", "[cli][locality]") {
  TempDir t;
  const std::string yaml = setup_byo(t, "byo_scale", "c_ref.bin");
  std::string text = slurp(yaml);
  write_text(yaml, text + "  hint: 2\n");
  auto r = warptlm(t, "run " + q(yaml) + " --set gpu.placement=locality --set sm.warp_scheduler=locality --out " + q(t / "out"), t / "elsewhere");
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK(counters_of(t / "out")["locality.hinted_launches"].as<double>() == 1);
  write_text(yaml, text + "  hint: 7\n");
  r = warptlm(t, "run " + q(yaml) + " --out " + q(t / "out2"), t / "elsewhere");
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK(contains(r.out, "run.yaml:"));
  CHECK(contains(r.out, "kernel.hint"));
}

TEST_CASE("a workload of one platform selects it when none is named and refuses another", "[cli][spu]") {
  TempDir t;
  auto r = warptlm(t, "run --workload spu_matmul --size tiny --config gtx480 -q --out " + q(t / "a"));
  INFO(r.out);
  REQUIRE(r.code == 0);
  const YAML::Node s = YAML::LoadFile(t / "a/stats.json");
  CHECK(s["verdict"].as<std::string>() == "verified");
  CHECK(s["counters"]["cost.spu.bits"].as<double>() > 0);  // the mesh platform ran it
  r = warptlm(t, "run --workload spu_matmul --size tiny --config gtx480 --platform gpu -q --out " + q(t / "b"));
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK(contains(r.out, "runs on the spu platform, not gpu"));
  r = warptlm(t, "run --workload vecadd --size tiny --config gtx480 --platform spu -q --out " + q(t / "c"));
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK(contains(r.out, "runs on the gpu platform, not spu"));
}

TEST_CASE("on the SPU mesh locality-aware placement is refused naming the conflict; its warp ordering combines", "[cli][locality][spu]") {
  TempDir t;
  auto r = warptlm(t, "run --platform spu --workload spu_matmul --size tiny --config gtx480 --overlay locality -q --out " + q(t / "a"));
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK(contains(r.out, "gpu.placement"));
  CHECK(contains(r.out, "pass schedule"));
  CHECK(contains(r.out, "locality.yaml:5"));
  r = warptlm(t, "run --platform spu --workload spu_matmul --size tiny --config gtx480 --set sm.warp_scheduler=locality "
                 "--set locality.launch_hint=1 -q --out " + q(t / "b"));
  INFO(r.out);
  REQUIRE(r.code == 0);
  YAML::Node s = YAML::LoadFile(t / "b/stats.json");
  CHECK(s["kernels"][0]["verified"].as<bool>());
  CHECK(s["counters"]["locality.group_switches"].as<double>() > 0);
}

TEST_CASE("ptx-info lists a kernel its PTX refuses with the reason, and the kernels that load", "[cli][error]") {
  TempDir t;
  // two kernels: `ok` loads; `bad` holds an instruction the front end refuses (line 14)
  write_text(t / "two.ptx", ".version 9.0\n.target sm_75\n.address_size 64\n"
                            ".visible .entry ok(.param .u64 out)\n{\n .reg .b64 %rd<2>;\n ld.param.u64 %rd1, [out];\n"
                            " st.global.u32 [%rd1], 1;\n ret;\n}\n"
                            ".visible .entry bad(.param .u64 out)\n{\n .reg .b32 %r<2>;\n frobnicate.u32 %r1, %r1;\n ret;\n}\n");
  auto r = warptlm(t, "ptx-info " + q(t / "two.ptx"));
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(contains(r.out, "ok "));
  CHECK(contains(r.out, "bad"));
  CHECK(contains(r.out, "refused: "));
  CHECK(contains(r.out, "two.ptx:14"));
  CHECK(contains(r.out, "frobnicate"));
}

TEST_CASE("ptx-info --haws prints the HAWS pass's stall points and hint chains of real nvcc PTX", "[cli][haws]") {
  TempDir t;
  auto r = warptlm(t, "ptx-info " + q(std::string(WARPTLM_SOURCE_DIR) + "/tb/workloads/matmul/matmul.ptx") + " --haws");
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(contains(r.out, "matmul_tiled"));
  CHECK(contains(r.out, "stall point line"));
  CHECK(contains(r.out, "branch (conditional)"));
  r = warptlm(t, "ptx-info " + q(t / "none.ptx") + " --haws");
  CHECK(r.code == 2);
}

// ============================================================ HAWS, the Fig. 5.3 example (spec 004 sec. 3.3)

namespace {
// I1 loads r1; I3 needs it (the stall point); I4 and I6 are independent (the hints); I5, I7 and I8 depend
// on I3; the store ends the group. Around them, the parameter loads and address arithmetic a real kernel has.
// The thesis's worked examples time a plain pipeline: no operand collector, no booked results or unit
// stages, integer and control instructions on their own units (gtx480 takes these from GPGPU-Sim).
const std::string kPlainPipeline =
    "--set sm.result_buses=0 --set sm.unit_stages=0 --set sm.int_alu=int --set sm.control_pipe=branch ";

const char* kFig53 = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry fig53(.param .u64 a, .param .u64 out)
{
 .reg .b32 %r<16>;
 .reg .b64 %rd<8>;
 ld.param.u64 %rd1, [a];
 ld.param.u64 %rd2, [out];
 mov.u32 %r5, %tid.x;
 mul.wide.u32 %rd3, %r5, 4;
 add.s64 %rd4, %rd1, %rd3;
 add.s64 %rd5, %rd2, %rd3;
 ld.global.u32 %r1, [%rd4];
 add.s32 %r2, %r5, 1;
 add.s32 %r3, %r1, 1;
 add.s32 %r4, %r5, 2;
 add.s32 %r6, %r3, %r2;
 add.s32 %r7, %r5, 3;
 add.s32 %r8, %r6, %r4;
 add.s32 %r9, %r8, %r7;
 st.global.u32 [%rd5], %r9;
 ret;
}
)";
struct Fig53Run { uint64_t cycles; double hints; bool correct; };
Fig53Run fig53(TempDir& t, uint32_t latency, bool haws) {
  const std::string dir = t / ("f" + std::to_string(latency) + (haws ? "h" : "b"));
  fs::create_directories(dir);
  write_text(dir + "/fig53.ptx", kFig53);
  write_text(dir + "/run.yaml", "kernel:\n  ptx: fig53.ptx\n  name: fig53\n  grid: [1, 1, 1]\n  block: [128, 1, 1]\n"
                                "  buffers:\n    a: {type: u32, count: 128, init: sequence}\n"
                                "    out: {type: u32, count: 128, init: zeros, dump: out.bin}\n  args: [a, out]\n");
  // 4 warps, one issue a cycle, 1-cycle ALU results, a memory of `latency` cycles (the example's setup)
  auto r = warptlm(t, "run " + q(dir + "/run.yaml") + " --config gtx480 --set gpu.num_sms=1 --set sm.num_schedulers=1 "
                   "--set sm.issue_width=1 --set mem.model=flat --set mem.fixed_latency=" + std::to_string(latency) +
                   " --set sm.op.alu.latency=1 --set sm.op.simple.latency=1 --set sm.regfile_banks=0 " + kPlainPipeline +
                   "--set sm.fetch_warps_per_cycle=4 --set haws.trigger=all --set haws.enabled=" + (haws ? "true" : "false") +
                   " -q --out " + q(dir + "/out"));
  INFO(r.out);
  REQUIRE(r.code == 0);
  YAML::Node s = YAML::LoadFile(dir + "/out/stats.json");
  Fig53Run f{s["kernels"][0]["cycles"].as<uint64_t>(),
             s["counters"]["haws.hint_issues"] ? s["counters"]["haws.hint_issues"].as<double>() : 0.0, true};
  const std::string dump = fs::exists(dir + "/out.bin") ? dir + "/out.bin" : dir + "/out/out.bin";
  const std::string bytes = slurp(dump);
  REQUIRE(bytes.size() == 128 * 4);
  for (uint32_t i = 0; i < 128; ++i) {
    uint32_t v;
    std::memcpy(&v, bytes.data() + 4 * i, 4);
    f.correct = f.correct && v == i + 3 * i + 7;  // (a + 1) + (tid + 1) + (tid + 2) + (tid + 3)
  }
  return f;
}
}  // namespace

TEST_CASE("HAWS on the Fig. 5.3 example: faster with 19-cycle memory than with 14, both beside the thesis's 25 and 12.5 percent", "[cli][haws]") {
  TempDir t;
  const Fig53Run b19 = fig53(t, 19, false), h19 = fig53(t, 19, true), b14 = fig53(t, 14, false), h14 = fig53(t, 14, true);
  for (const Fig53Run* f : {&b19, &h19, &b14, &h14}) CHECK(f->correct);
  const double g19 = double(b19.cycles) / double(h19.cycles) - 1, g14 = double(b14.cycles) / double(h14.cycles) - 1;
  INFO("19-cycle memory: " << b19.cycles << " -> " << h19.cycles << " cycles, +" << 100 * g19 << " % (thesis 25 %); "
       << "14-cycle: " << b14.cycles << " -> " << h14.cycles << ", +" << 100 * g14 << " % (thesis 12.5 %)");
  // With 19 cycles every warp runs both hints (I4, I6) while its load is out; with 14 the load returns while
  // hint mode runs, the episode ends and the warp goes back to I3 (fewer hints), as in the thesis's 2nd case.
  CHECK(h19.hints == 8);
  CHECK(h14.hints < h19.hints);
  CHECK(g19 > 0);
  CHECK(g14 > 0);
  CHECK(g19 > g14);
}

// ============================================================ HAWS against static scheduling, Fig. 5.9 (spec 004 sec. 3.9)

namespace {
// Three blocks of 15 instructions (t = one issue cycle: one warp, one issue a cycle, 1-cycle ALU results).
// Block 1 loads r1 (L1); block 2 starts with its use (stall point 1), holds c (5 instructions independent
// of both loads) and loads r2 (L2) at an address computed from r1; block 3 starts with the use of r2 (stall
// point 2) and holds f (3 independent instructions). Every other instruction of blocks 2 and 3 reads r1 or r2.
// Positions: L1 has 4 instructions after it, L2 6, so a load-to-use of 10 cycles leaves the example's
// stalls of 5t and 3t in the normal order (asserted from the stall counter, not assumed).
// Variants: A, program order (HAWS runs this one); B, c and f hoisted to stall 1; C, 3 of c at stall 1,
// the other 2 and f at stall 2.
std::string fig59_kernel(char variant) {
  std::vector<std::string> b1, c, f, fill, rest, e3;
  for (int i = 0; i < 15; ++i)
    b1.push_back(i == 10 ? "ld.global.u32 %r1, [%rd4];" : "add.s32 %r" + std::to_string(100 + i) + ", %r0, " + std::to_string(i + 1) + ";");
  for (int i = 0; i < 5; ++i) c.push_back("add.s32 %r" + std::to_string(20 + i) + ", %r0, " + std::to_string(11 + i) + ";");
  for (int i = 0; i < 3; ++i) f.push_back("add.s32 %r" + std::to_string(30 + i) + ", %r0, " + std::to_string(21 + i) + ";");
  for (int i = 0; i < 2; ++i) fill.push_back("add.s32 %r" + std::to_string(200 + i) + ", %r1, " + std::to_string(i + 1) + ";");
  for (int i = 0; i < 6; ++i) rest.push_back("add.s32 %r" + std::to_string(220 + i) + ", %r1, " + std::to_string(i + 7) + ";");
  for (int i = 0; i < 11; ++i) e3.push_back("add.s32 %r" + std::to_string(41 + i) + ", %r2, " + std::to_string(i + 2) + ";");
  const std::string d1 = "mad.wide.u32 %rd6, %r1, 4, %rd1;", l2 = "ld.global.u32 %r2, [%rd6];", e1 = "add.s32 %r40, %r2, 1;";
  std::vector<std::string> body = b1;
  auto put = [&](const std::vector<std::string>& v) { body.insert(body.end(), v.begin(), v.end()); };
  auto one = [&](const std::string& i) { body.push_back(i); };
  const std::vector<std::string> c1(c.begin(), c.begin() + 3), c2(c.begin() + 3, c.end());
  switch (variant) {
    case 'A': one(d1); put(c); put(fill); one(l2); put(rest); one(e1); put(f); put(e3); break;
    case 'B': put(c); put(f); one(d1); put(fill); one(l2); put(rest); one(e1); put(e3); break;
    default: put(c1); one(d1); put(fill); one(l2); put(rest); put(c2); put(f); one(e1); put(e3); break;
  }
  REQUIRE(body.size() == 45);
  std::string k = ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry fig59(.param .u64 a, .param .u64 out)\n{\n"
                  " .reg .b32 %r<256>;\n .reg .b64 %rd<8>;\n ld.param.u64 %rd1, [a];\n ld.param.u64 %rd2, [out];\n"
                  " mov.u32 %r0, %tid.x;\n mul.wide.u32 %rd3, %r0, 4;\n add.s64 %rd4, %rd1, %rd3;\n add.s64 %rd5, %rd2, %rd3;\n";
  for (const std::string& i : body) k += " " + i + "\n";
  // the result folds c and f into block 3's last value, a chain that reads r2 (so none of it is a hint)
  k += " add.s32 %r60, %r51, %r20;\n";
  const int folded[] = {21, 22, 23, 24, 30, 31, 32};
  for (int i = 0; i < 7; ++i) k += " add.s32 %r" + std::to_string(61 + i) + ", %r" + std::to_string(60 + i) + ", %r" + std::to_string(folded[i]) + ";\n";
  return k + " st.global.u32 [%rd5], %r67;\n ret;\n}\n";
}
struct Fig59Run { uint64_t cycles, long_stalls, fetch_stalls, hints, episodes; bool correct; };
Fig59Run fig59(TempDir& t, char variant, bool haws) {
  const std::string dir = t / (std::string(1, variant) + (haws ? "h" : "b"));
  fs::create_directories(dir);
  write_text(dir + "/fig59.ptx", fig59_kernel(variant));
  write_text(dir + "/run.yaml", "kernel:\n  ptx: fig59.ptx\n  name: fig59\n  grid: [1, 1, 1]\n  block: [32, 1, 1]\n"
                                "  buffers:\n    a: {type: u32, count: 32, init: sequence}\n"
                                "    out: {type: u32, count: 32, init: zeros, dump: out.bin}\n  args: [a, out]\n");
  // one warp, one issue a cycle, 1-cycle integer results, a perfect instruction cache; memory of 9 cycles
  // (10 from a load's issue to its use in this pipeline)
  auto r = warptlm(t, "run " + q(dir + "/run.yaml") + " --config gtx480 --set gpu.num_sms=1 --set sm.num_schedulers=1 "
                   "--set sm.issue_width=1 --set mem.model=flat --set mem.fixed_latency=9 --set sm.op.alu.latency=1 "
                   "--set sm.op.simple.latency=1 --set sm.op.imul.latency=1 --set sm.op.imad.latency=1 --set sm.regfile_banks=0 " +
                   kPlainPipeline + "--set sm.icache.perfect=true --set haws.enabled=" + std::string(haws ? "true" : "false") +
                   " -q --out " + q(dir + "/out"));
  INFO(r.out);
  REQUIRE(r.code == 0);
  YAML::Node s = YAML::LoadFile(dir + "/out/stats.json");
  auto counter = [&](const char* k) { return s["counters"][k] ? s["counters"][k].as<uint64_t>() : uint64_t(0); };
  Fig59Run f{s["kernels"][0]["cycles"].as<uint64_t>(), counter("sched.long_mem"), counter("sched.fetch"),
             counter("haws.hint_issues"), counter("haws.episodes"), true};
  const std::string dump = fs::exists(dir + "/out.bin") ? dir + "/out.bin" : dir + "/out/out.bin";
  const std::string bytes = slurp(dump);
  REQUIRE(bytes.size() == 32 * 4);
  for (uint32_t i = 0; i < 32; ++i) {
    uint32_t v;
    std::memcpy(&v, bytes.data() + 4 * i, 4);
    f.correct = f.correct && v == 9 * i + 143;  // (r2 + 12) + the 5 of c (tid + 11..15) + the 3 of f (tid + 21..23), r2 = a[a[tid]] = tid
  }
  return f;
}
}  // namespace

TEST_CASE("HAWS against static scheduling on the Fig. 5.9 example: 53t, 48t, 47t, and HAWS 45t plus one refetch per episode", "[cli][haws]") {
  TempDir t;
  const Fig59Run a = fig59(t, 'A', false), b = fig59(t, 'B', false), c = fig59(t, 'C', false), d = fig59(t, 'A', true);
  for (const Fig59Run* r : {&a, &b, &c, &d}) CHECK(r->correct);
  // every run pays the same launch, prologue, fold and drain: measure from A = 53t
  const int64_t base = int64_t(a.cycles) - 53;
  INFO("A " << a.cycles - base << "t, B " << b.cycles - base << "t, C " << c.cycles - base << "t, HAWS " << d.cycles - base
       << "t (thesis 53, 48, 47, 45); HAWS: " << d.hints << " hints in " << d.episodes << " episodes");
  CHECK(a.long_stalls == 5 + 3);                    // the premise: stall 1 is 5t, stall 2 is 3t
  CHECK(int64_t(b.cycles) - base == 48);            // c and f cover stall 1; stall 2's 3t stays
  CHECK(b.long_stalls == 3);
  CHECK(int64_t(c.cycles) - base == 47);            // c1 leaves 2t of stall 1; c2 + f cover stall 2
  CHECK(c.long_stalls == 2);
  // HAWS fills each stall with exactly the work it has: c at stall 1, f at stall 2, no long-latency stall left
  CHECK(d.episodes == 2);
  CHECK(d.hints == 5 + 3);
  CHECK(d.long_stalls == 0);
  // ... but going back to program order fetches the stall-point instruction again (its buffer held hints):
  // one cycle an episode, which the thesis's timeline does not count. Model 47t, thesis 45t.
  CHECK(d.fetch_stalls - a.fetch_stalls == d.episodes);
  CHECK(int64_t(d.cycles) - base == 45 + int64_t(d.episodes));
}
