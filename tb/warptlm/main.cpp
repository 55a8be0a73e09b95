// warptlm: the command-line front end (sc_main).
//   warptlm run [RUN.yaml] [--workload NAME] [--size S] [--config C] [--overlay O ...] [--set k=v ...] [--out DIR] [--vcd F]
//   warptlm exec [--config C] [--overlay O ...] [--set k=v ...] [--out DIR] [-q] -- APP ARGS   (a CUDA application)
//   warptlm demo | workloads | params
//   warptlm ptx-opt IN.ptx [-o OUT.ptx] [--threshold T]   (scratchpad-sharing compiler passes)
//   warptlm ptx-info IN.ptx [--regs NAME.regs | --haws]   warptlm topology [--dot] [--platform gpu|spu] [...]
// Exit 0 on success, 1 when a run fails (fault, deadlock, wrong result), 2 on bad usage or input,
// 3 when a run limit stops it, 128 + the signal when interrupted (130, 143).
#include <boost/program_options.hpp>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <new>
#include <systemc>

#include "app.hpp"
#include "common/errors.hpp"
#include "common/host_memory.hpp"
#include "common/params.hpp"
#include "workloads/workload.hpp"

namespace po = boost::program_options;
using namespace warptlm;

namespace warptlm {
int ptx_opt_command(int argc, char* argv[]);  // ptx_opt.cpp
int ptx_info_command(int argc, char* argv[]);  // ptx_info.cpp
}

namespace {

// Errors reach the user through SystemC's report handler, as one readable line.
void report_handler(const sc_core::sc_report& rep, const sc_core::sc_actions& actions) {
  // SystemC's own info messages (e.g. "stopped by user" after a fault stops the run) are not for the user.
  if ((actions & sc_core::SC_DISPLAY) && rep.get_severity() >= sc_core::SC_WARNING) {
    const char* sev = rep.get_severity() >= sc_core::SC_ERROR ? "error" : rep.get_severity() == sc_core::SC_WARNING ? "warning" : "info";
    std::cerr << "warptlm: " << sev << ": " << rep.get_msg() << std::endl;
  }
}

void report_error(const std::string& msg) { SC_REPORT_ERROR("warptlm", msg.c_str()); }

const char* kUsage =
    "usage: warptlm [demo]\n"
    "       warptlm run [RUN.yaml] [--workload NAME] [--size tiny|small|medium|large] [--config NAME|FILE]\n"
    "                   [--overlay NAME|FILE ...] [--set key=value ...] [--out DIR] [--vcd FILE]\n"
    "                   [--platform gpu|spu]\n"
    "       warptlm exec [--config NAME|FILE] [--overlay ...] [--set key=value ...] [--out DIR] [-q] -- APP [ARGS]\n"
    "                   run an unmodified CUDA application (nvcc -cudart shared) on the simulated GPU\n"
    "       warptlm workloads     list the workload library\n"
    "       warptlm params        list every parameter with default, range and meaning\n"
    "       warptlm ptx-opt IN.ptx [-o OUT.ptx] [--threshold T]   scratchpad allocation + relssp placement\n"
    "       warptlm ptx-info IN.ptx [--regs NAME.regs]   per entry: instructions, shared/local bytes, estimated registers\n"
    "       warptlm ptx-info IN.ptx --haws   per entry: the HAWS pass's stall points and hint chains (seed 004 ch. 5)\n"
    "       warptlm topology [--dot] [--platform gpu|spu] [--config NAME|FILE] [--overlay ...] [--set key=value ...]   the elaborated platform\n";

// Pads `s` to `width`, always leaving at least two spaces after it.
std::string column(const std::string& s, size_t width) { return s + std::string(s.size() < width ? width - s.size() + 2 : 2, ' '); }

int params_command() {
  declare_all_params();
  const auto& specs = ParamTable::global().all();
  size_t wk = 0;
  for (auto& s : specs) wk = std::max(wk, s.first.size());
  for (auto& s : specs)
    std::cout << column(s.first, wk) << column(param_type_name(s.second.type), 6) << "default "
              << column(s.second.default_value, 12) << "range " << column(range_text(s.second), 22) << s.second.meaning
              << "\n";
  return 0;
}

int run_main(int argc, char* argv[]) {
  std::string cmd = argc > 1 ? argv[1] : "demo";
  if (cmd == "-h" || cmd == "--help" || cmd == "help") { std::cout << kUsage; return 0; }
  if (cmd == "demo") return demo_command();
  if (cmd == "workloads") {
    for (auto& n : workload_names()) std::cout << n << "\n";
    return 0;
  }
  if (cmd == "params") return params_command();
  if (cmd == "ptx-opt") return ptx_opt_command(argc, argv);
  if (cmd == "topology") return topology_command(argc, argv);
  if (cmd == "ptx-info") return ptx_info_command(argc, argv);
  if (cmd != "run" && cmd != "exec") {
    std::vector<std::string> cmds = {"run", "exec", "demo", "workloads", "params", "ptx-opt", "ptx-info", "topology"};
    std::string hint = closest_match(cmd, cmds);
    throw InputError("unknown command '" + cmd + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)") + "\n" + kUsage);
  }
  RunOptions opt;
  po::options_description desc(cmd == "exec" ? "warptlm exec [options] -- APP [ARGS]: runs the CUDA application APP (built with "
                                               "nvcc -cudart shared) on the simulated GPU (docs/cuda-apps.md); options"
                                             : "warptlm run");
  desc.add_options()("help,h", "this help");
  if (cmd == "run")
    desc.add_options()("run-file", po::value<std::string>(&opt.run_file), "run YAML")
        ("workload", po::value<std::string>(&opt.workload), "workload name (see 'warptlm workloads')")
        ("size", po::value<std::string>(&opt.size), "tiny|small|medium|large");
  desc.add_options()("config", po::value<std::string>(&opt.config), "base config: NAME in scenarios/configs or a FILE (default gtx480)")
      ("overlay", po::value<std::vector<std::string>>(&opt.overlays)->composing(), "overlay NAME or FILE (repeatable)")
      ("set", po::value<std::vector<std::string>>(&opt.sets)->composing(), "key=value (repeatable)")
      ("out", po::value<std::string>(&opt.out), cmd == "exec" ? "output directory (default out/): stats and the application's PTX"
                                                               : "output directory (default out/)")
      ("vcd", po::value<std::string>(&opt.vcd), "VCD trace file");
  if (cmd == "run")
    desc.add_options()("platform", po::value<std::string>(&opt.platform),
                       "gpu or spu (the Stencil Processing Unit's mesh); default: the workload's own, else gpu");
  desc.add_options()("quiet,q", po::bool_switch(&opt.quiet), "no summary line");
  if (cmd == "exec") {  // options, then "--", then the application and its arguments
    int dash = 2;
    while (dash < argc && std::string(argv[dash]) != "--") ++dash;
    for (int i = 2; i < dash; ++i)
      if (std::string(argv[i]) == "-h" || std::string(argv[i]) == "--help") {
        std::cout << desc << "\n";
        return 0;
      }
    if (dash >= argc - 1) throw InputError("warptlm exec needs the application after '--': warptlm exec [options] -- APP [ARGS]\n" + std::string(kUsage));
    for (int i = dash + 1; i < argc; ++i) opt.exec_argv.push_back(argv[i]);
    argc = dash;
  }
  po::positional_options_description pos;
  if (cmd == "run") pos.add("run-file", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc - 1, argv + 1).options(desc).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw InputError(std::string(e.what()) + "\n" + kUsage);
  }
  if (vm.count("help")) { std::cout << desc << "\n"; return 0; }
  return run_command(opt);
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  sc_core::sc_report_handler::set_handler(report_handler);
  sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_DISPLAY);
  // A host program that only waits (an application under `warptlm exec` that never launches) moves no clock.
  sc_core::sc_report_handler::set_actions("no activity or clock movement for sc_start() invocation", sc_core::SC_DO_NOTHING);
  try {
    return run_main(argc, argv);
  } catch (const InputError& e) {
    report_error(e.what());
    return 2;
  } catch (const RunError& e) {
    report_error(e.what());
    return 1;
  } catch (const std::bad_alloc&) {  // sizes from input are checked before they are allocated: the host ran short
    report_error(host_memory_refusal("the run", 0));
    return 2;
  } catch (const std::exception& e) {
    report_error(std::string("internal error: ") + e.what());
    return 1;
  }
}

// The process entry: keep stdout for results (no SystemC banner unless the
// user sets SC_COPYRIGHT_MESSAGE), then enter SystemC, which calls sc_main.
int main(int argc, char* argv[]) {
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
