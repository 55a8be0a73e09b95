#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include "app.hpp"
#include "common/errors.hpp"
#include "common/yaml_input.hpp"
#include "gpu/gpu_platform.hpp"
#include "gpu/run_control.hpp"
#include "run_file.hpp"
#include "runtime/device.hpp"
#include "runtime/testbench.hpp"
#include "spu/spu_platform.hpp"
#include "workloads/workload.hpp"

namespace fs = std::filesystem;

namespace warptlm {

void declare_all_params() {
  static bool done = false;
  if (done) return;
  done = true;
  GpuParams::declare(ParamTable::global());
}

static std::string exe_dir() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0) return ".";
  buf[n] = 0;
  return fs::path(buf).parent_path().string();
}

std::string resolve_scenario(const std::string& name, const std::string& kind) {
  bool is_path = name.find('/') != std::string::npos || (name.size() > 5 && name.substr(name.size() - 5) == ".yaml");
  if (is_path) {
    if (!fs::exists(name)) throw InputError("cannot open " + kind.substr(0, kind.size() - 1) + " file '" + name + "'");
    return name;
  }
  std::vector<fs::path> roots;
  if (const char* env = std::getenv("WARPTLM_SCENARIOS")) roots.push_back(env);
  fs::path ed = exe_dir();
  roots.push_back(ed / ".." / "scenarios");
  roots.push_back(ed / ".." / "share" / "warptlm" / "scenarios");
#ifdef WARPTLM_SOURCE_DIR
  roots.push_back(fs::path(WARPTLM_SOURCE_DIR) / "scenarios");
#endif
  std::vector<std::string> known;
  for (auto& r : roots) {
    fs::path p = r / kind / (name + ".yaml");
    if (fs::exists(p)) return p.lexically_normal().string();
    if (fs::is_directory(r / kind))
      for (auto& e : fs::directory_iterator(r / kind))
        if (e.path().extension() == ".yaml") known.push_back(e.path().stem().string());
  }
  std::string hint = closest_match(name, known);
  throw InputError("no " + kind.substr(0, kind.size() - 1) + " named '" + name + "' in scenarios/" + kind +
                   (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
}

namespace {

// Relative paths in a config-layer list resolve against the run file's folder.
std::string relative_to(const std::string& base_file, const std::string& p) {
  if (p.empty() || fs::path(p).is_absolute() || base_file.empty()) return p;
  bool is_path = p.find('/') != std::string::npos || (p.size() > 5 && p.substr(p.size() - 5) == ".yaml");
  if (!is_path) return p;
  return (fs::path(base_file).parent_path() / p).lexically_normal().string();
}

}  // namespace

int run_command(const RunOptions& cli) {
  declare_all_params();
  RunOptions opt = cli;
  RunFile rf;
  // An earlier run's outputs must never look like this run's: they go first,
  // and this run writes its own at its end, whatever the end (an input error
  // found before the run starts leaves none).
  const auto forget_old_outputs = [](const std::string& dir) {
    std::error_code ec;
    for (const char* f : {"stats.json", "stats.txt", "config.resolved.yaml"}) fs::remove(fs::path(dir) / f, ec);
  };
  forget_old_outputs(opt.out.empty() ? "out" : opt.out);
  if (!opt.run_file.empty()) rf = load_run_file(opt.run_file, opt);
  if (!opt.out.empty()) forget_old_outputs(opt.out);

  // Without --config (or a run file's config:), a named GPU: the calibrated GTX 480 (kDefaultGpu), said in
  // the summary; `warptlm params` lists the built-in value of every parameter beneath it.
  const bool default_gpu = opt.config.empty();
  if (default_gpu) opt.config = kDefaultGpu;
  Config cfg;
  cfg.merge_file(resolve_scenario(relative_to(cli.config.empty() ? opt.run_file : "", opt.config), "configs"));
  for (auto& o : rf.overlays) cfg.merge_file(resolve_scenario(relative_to(opt.run_file, o), "overlays"));
  for (auto& o : cli.overlays) cfg.merge_file(resolve_scenario(o, "overlays"));
  if (!opt.run_file.empty()) cfg.merge_file(opt.run_file, kRunKeys);
  for (auto& s : rf.sets) cfg.set(s.key, s.value, opt.run_file + ":" + std::to_string(s.line));  // errors name the line
  for (auto& s : cli.sets) cfg.apply_set(s);
  // A workload belongs to one platform, which it selects when none is named; anything else runs on the GPU.
  if (opt.platform.empty()) {
    const std::unique_ptr<Workload> w = opt.workload.empty() ? nullptr : make_workload(opt.workload);
    opt.platform = w ? w->platform() : "gpu";
  }
  if (opt.platform != "gpu" && opt.platform != "spu")
    throw InputError("unknown platform '" + opt.platform + "': gpu (the default) or spu (the Stencil Processing Unit's mesh)");
  if (opt.platform == "spu") SpuPlatform::configure(cfg);
  if (!opt.vcd.empty()) cfg.set("trace.vcd", opt.vcd, cli.vcd.empty() ? opt.run_file : "--vcd");
  if (!cfg.get_string("trace.vcd").empty() && cfg.get_string("sim.mode") != "timing")
    throw InputError("VCD tracing needs sim.mode=timing: the functional model has no cycles or signals to trace");
  if (opt.workload.empty() && !rf.has_kernel && opt.exec_argv.empty())
    throw InputError("nothing to run: give --workload NAME (see 'warptlm workloads') or a run YAML with 'workload:' or 'kernel:'");
  if (!opt.exec_argv.empty() && (!opt.workload.empty() || rf.has_kernel))
    throw InputError("warptlm exec runs an application: give no workload or kernel section as well");
  if (!opt.workload.empty() && rf.has_kernel)
    throw InputError(opt.run_file + ": give either 'workload' or 'kernel', not both");
  std::unique_ptr<ByoKernel> byo;
  if (rf.has_kernel) byo = std::make_unique<ByoKernel>(read_byo_kernel(opt.run_file, rf.root));
  std::unique_ptr<Workload> wl;
  Size size = Size::Tiny;
  if (!opt.workload.empty()) {
    wl = make_workload(opt.workload);
    if (!wl) {
      std::string hint = closest_match(opt.workload, workload_names());
      throw InputError("unknown workload '" + opt.workload + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                       "; 'warptlm workloads' lists them");
    }
    if (opt.platform != wl->platform())  // (named: --platform or the run file's platform)
      throw InputError("workload '" + opt.workload + "' runs on the " + wl->platform() + " platform, not " + opt.platform +
                       ": drop --platform, and the workload selects its own");
    if (!opt.size.empty() && !parse_size(opt.size, size))
      throw InputError("unknown size '" + opt.size + "': tiny, small, medium or large");
  }
  const std::string out_dir = opt.out.empty() ? "out" : opt.out;
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec || !fs::is_directory(out_dir)) throw InputError("cannot create output directory '" + out_dir + "': " + ec.message());

  StatsRegistry stats;
  // The command is a testbench: the GPU platform, a host driver bound to its
  // host socket, and the host program (the workload's, or the run file's kernel)
  // in an SC_THREAD that launches kernels and waits for their completion.
  GpuTestbench tb(cfg, stats, opt.platform);
  Device& dev = tb.device();
  const GpuPlatform& gpu = tb.platform();
  // Ctrl-C and SIGTERM stop the run at the next look of the run control; the
  // stats gathered so far are written as usual (docs/run-control.md).
  std::signal(SIGINT, RunControl::request_interrupt);
  std::signal(SIGTERM, RunControl::request_interrupt);
  const auto t0 = std::chrono::steady_clock::now();
  bool verified = false, compared = true;
  std::string detail;
  std::string label = wl ? opt.workload + " (" + size_name(size) + ")" : !opt.exec_argv.empty() ? opt.exec_argv[0] : opt.run_file;
  RunStatus rs;
  try {
    tb.run([&] {
      if (wl) {
        WorkloadResult r = wl->run(dev, size, uint64_t(cfg.get_int("sim.seed")));
        verified = r.verified;
        detail = r.detail;
      } else if (!opt.exec_argv.empty()) {
        // WarpTLM compares nothing of an application's results: its exit status is its own (not_checked at 0)
        compared = false;
        serve_cuda_app(dev, cfg, opt.exec_argv, "WarpTLM " + fs::path(opt.config).stem().string(), out_dir, detail, rs.app_exit);
      } else {
        verified = run_byo_kernel(dev, *byo, out_dir, detail, compared);
      }
    });
  } catch (const RunStopped& e) {
    rs.status = e.status;
    rs.message = e.what();
  } catch (const RunError& e) {
    rs.status = "fault";
    rs.message = e.what();
  }
  if (rs.status == "ok" && RunControl::interrupt_signal()) {
    rs.status = "interrupted";
    rs.message = "interrupted by signal " + std::to_string(RunControl::interrupt_signal()) + " after the last launch";
  }
  if (rs.status == "ok" && !verified && compared) {
    rs.status = "wrong_result";
    rs.message = "result mismatch: " + detail;
  }
  if (rs.status == "ok" && rs.app_exit > 0) {  // the application's own failure, whatever it checked
    rs.status = "app_failed";
    rs.message = detail;
  }
  // the verdict on the results (a run that stopped before its check has none)
  rs.verdict = rs.status == "wrong_result" ? "wrong_result" : rs.status == "app_failed" ? "app_failed"
               : rs.status == "ok" && verified ? "verified" : "not_checked";
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  auto counters = stats.values();
  tb.platform().finish_samples();  // the last, partial interval, before draining writes back anything
  // Conservation: every memory request of the run got exactly one response
  // (checked after the counters were read: the write-backs it lets finish are not the run's).
  if (rs.status == "ok" || rs.status == "wrong_result" || rs.status == "app_failed") {
    const std::vector<std::string> lost = tb.platform().check_conservation();
    if (!lost.empty()) {
      rs.status = "fault";
      if (rs.verdict != "wrong_result") rs.verdict = "not_checked";  // a run that broke conservation verifies nothing
      rs.message = "memory conservation broken: requests without exactly one response in";
      for (const std::string& l : lost) rs.message += " " + l + ";";
    }
  }
  if (rs.status != "ok") verified = false;
  const bool app_failed = rs.status == "app_failed";

  std::vector<KernelStats> ks;
  const std::unique_ptr<SamplingReport> sampling = gpu.sampling_report();  // sim.sampling: the estimate
  uint64_t cycles = 0, winst = 0, tinst = 0;
  const uint32_t max_warps = uint32_t(cfg.get_int("sm.max_warps"));
  for (auto& l : gpu.launches()) {
    KernelStats k;
    k.name = l.kernel;
    k.cycles = l.cycles;
    k.warp_instructions = l.warp_instructions;
    k.thread_instructions = l.thread_instructions;
    k.verified = verified;
    if (!l.status.empty()) k.status = l.status;
    k.sampling = l.sampling;
    if (sampling && l.sampling != "timed" && !l.sampling.empty() && l.sample_index >= 0 && size_t(l.sample_index) < sampling->launch_estimate.size())
      k.estimated_cycles = std::round(sampling->launch_estimate[size_t(l.sample_index)]);
    k.counters = l.counters;
    add_gpgpusim_figures(k.counters, k.cycles, k.thread_instructions, max_warps, false);
    cycles += l.cycles;
    winst += l.warp_instructions;
    tinst += l.thread_instructions;
    ks.push_back(std::move(k));
  }
  add_gpgpusim_figures(counters, cycles, tinst, max_warps, true);
  // Speed of the simulator itself: time inside launches (inputs and CPU reference excluded).
  SimSpeed sp;
  sp.wall_seconds = wall;
  const double simt = gpu.simulated_seconds() > 0 ? gpu.simulated_seconds() : wall;
  sp.warp_inst_per_sec = simt > 0 ? double(winst) / simt : 0;
  sp.cycles_per_sec = simt > 0 ? double(cycles) / simt : 0;
  write_file((fs::path(out_dir) / "stats.json").string(), stats_json(ks, counters, sp, gpu.samples(), rs, sampling.get()));
  write_file((fs::path(out_dir) / "stats.txt").string(), stats_txt(ks, counters, sp, rs, sampling.get()));
  cfg.write_resolved((fs::path(out_dir) / "config.resolved.yaml").string());

  // Every end writes its stats first; then a stopped run says why and exits with its code.
  if (rs.status == "limit") {
    std::cerr << "warptlm: stopped: " << rs.message << "; partial stats in " << out_dir << "/" << std::endl;
    return kExitLimit;
  }
  if (rs.status == "interrupted") {
    std::cerr << "warptlm: " << rs.message << "; partial stats in " << out_dir << "/" << std::endl;
    return 128 + (RunControl::interrupt_signal() ? RunControl::interrupt_signal() : SIGINT);
  }
  if (rs.status == "fault" || rs.status == "deadlock") throw RunError(rs.message);
  if (!opt.quiet) {
    std::ostringstream os;
    // what ran on what: the config (or that none was given) and its overlays
    std::string machine = fs::path(opt.config).stem().string() + (default_gpu ? " (the default GPU: no --config)" : "");
    for (const std::string& o : rf.overlays) machine += " + " + fs::path(o).stem().string();
    for (const std::string& o : cli.overlays) machine += " + " + fs::path(o).stem().string();
    os << label << " on " << machine << ": ";
    if (rs.app_exit >= 0)  // an application: its exit status, and that WarpTLM compared nothing
      os << "exited " << rs.app_exit << (app_failed ? " (APPLICATION FAILED)" : "")
         << ", not checked (WarpTLM compares none of an application's results)";
    else
      os << (verified ? "verified" : compared ? "WRONG RESULT" : "not checked (no reference)");
    os << ", " << ks.size()
       << " launch" << (ks.size() == 1 ? "" : "es") << ", ";
    if (sampling && sampling->mode == "intervals")  // the timed intervals' cycles are a part of the estimate
      os << "sampled in intervals: " << (sampling->launches - sampling->timed) << " of " << sampling->launches
         << " launches with blocks run functionally between timed intervals (" << cycles << " cycles timed), an estimated "
         << std::fixed << std::setprecision(0) << sampling->estimated_cycles << " +- " << sampling->bound_cycles
         << " cycles in all, ";
    else if (sampling)  // the timed launches' cycles are a part: the run's are an estimate, said with its bound
      os << "sampled: " << sampling->timed << " of " << sampling->launches << " launches timed (" << cycles
         << " cycles), an estimated " << std::fixed << std::setprecision(0) << sampling->estimated_cycles << " +- "
         << sampling->bound_cycles << " cycles in all, ";
    else if (cfg.get_string("sim.mode") == "timing")
      os << cycles << " cycles, IPC " << std::fixed << std::setprecision(2) << (cycles ? double(tinst) / double(cycles) : 0.0)
         << ", ";
    else
      os << "functional (no cycles), ";
    os << winst << " warp instructions, " << tinst
       << " thread instructions, " << std::fixed << std::setprecision(3) << wall << " s ("
       << std::setprecision(1) << (wall > 0 ? double(tinst) / wall / 1e6 : 0.0) << " M thread-inst/s); stats in "
       << out_dir << "/";
    std::cout << os.str() << std::endl;
  }
  if (app_failed) throw RunError(rs.message);
  if (!verified && compared) throw RunError("result mismatch: " + detail);
  return 0;
}

namespace {

// Runs `warptlm run ...` as a child process (a SystemC design is elaborated
// once per process) and returns its exit status.
int run_child(const std::vector<std::string>& args, const std::string& log) {
  std::vector<char*> argv;
  std::string exe = "/proc/self/exe";
  argv.push_back(const_cast<char*>(exe.c_str()));
  for (auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::cout.flush();
  pid_t pid = fork();
  if (pid == 0) {
    FILE* f = std::freopen(log.c_str(), "w", stdout);
    (void)f;
    dup2(fileno(stdout), fileno(stderr));
    execv(exe.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

double num(const YAML::Node& n, const std::string& key) {
  return n[key] ? n[key].as<double>() : 0.0;
}

}  // namespace

int demo_command() {
  declare_all_params();
  struct Row { const char* name; const char* size; };
  const Row rows[] = {{"vecadd", "small"}, {"matmul", "small"}, {"reduce_seq", "small"}, {"transpose_naive", "small"},
                      {"histogram", "small"}, {"bfs", "small"}, {"blackscholes", "small"}, {"nw", "tiny"}};
  const std::string config = "gtx480";
  std::string tmp = (fs::temp_directory_path() / ("warptlm-demo-" + std::to_string(getpid()))).string();
  fs::create_directories(tmp);
  std::cout << "WarpTLM demo: cycle-approximate runs on the " << config
            << " config, each result checked against its CPU reference\n"
               "(issue-slot breakdown per scheduler-cycle: issued, waiting on memory, data dependence, structural, "
               "barrier, fetch)\n\n";
  std::cout << std::left << std::setw(17) << "workload" << std::setw(7) << "size" << std::right << std::setw(10)
            << "cycles" << std::setw(12) << "warp insts" << std::setw(7) << "IPC" << std::setw(8) << "issue%"
            << std::setw(6) << "mem%" << std::setw(6) << "dep%" << std::setw(7) << "unit%" << std::setw(6) << "bar%"
            << std::setw(7) << "fetch%" << std::setw(11) << "K wi/s" << "  result\n";
  int failures = 0;
  for (auto& r : rows) {
    std::string out = tmp + "/" + r.name;
    int rc = run_child({"run", "--workload", r.name, "--size", r.size, "--config", config, "--out", out, "-q"}, out + ".log");
    std::cout << std::left << std::setw(17) << r.name << std::setw(7) << r.size << std::right;
    if (rc != 0 || !fs::exists(out + "/stats.json")) {
      std::ifstream lf(out + ".log");
      std::string line, last;
      while (std::getline(lf, line)) if (!line.empty()) last = line;
      std::cout << "  FAILED (exit " << rc << "): " << last << "\n";
      ++failures;
      continue;
    }
    YAML::Node st = YAML::LoadFile(out + "/stats.json");
    double cycles = 0, winst = 0, tinst = 0;
    bool ok = true;
    for (auto k : st["kernels"]) {
      cycles += num(k, "cycles");
      winst += num(k, "warp_instructions");
      tinst += num(k, "thread_instructions");
      ok = ok && k["verified"].as<bool>();
    }
    const YAML::Node c = st["counters"];
    double tot = 0;
    for (const char* s : {"issued", "no_warp", "long_mem", "data", "structural", "barrier", "fetch", "other"})
      tot += num(c, std::string("sched.") + s);
    auto pct = [&](const char* s) { return tot > 0 ? 100.0 * num(c, std::string("sched.") + s) / tot : 0.0; };
    const double wall = num(st["sim"], "wall_seconds");
    std::cout << std::setw(10) << uint64_t(cycles) << std::setw(12) << uint64_t(winst) << std::fixed << std::setprecision(1)
              << std::setw(7) << (cycles > 0 ? tinst / cycles : 0.0) << std::setw(8) << pct("issued") << std::setw(6)
              << pct("long_mem") << std::setw(6) << pct("data") << std::setw(7) << pct("structural") << std::setw(6)
              << pct("barrier") << std::setw(7) << pct("fetch") << std::setw(11) << std::setprecision(0)
              << (wall > 0 ? winst / wall / 1e3 : 0.0) << "  " << (ok ? "verified" : "WRONG RESULT") << "\n";
    if (!ok) ++failures;
  }
  fs::remove_all(tmp);
  std::cout << "\nRun one yourself: warptlm run --workload matmul --size medium --config gtx480 --out out/\n"
               "(warptlm workloads | warptlm params; stats in out/stats.json, out/stats.txt)\n";
  return failures ? 1 : 0;
}

}  // namespace warptlm
