// The warptlm command: run resolution (config layering, workload or
// bring-your-own kernel), outputs, the demo.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/config.hpp"
#include "common/stats.hpp"

namespace warptlm {

struct RunOptions {
  std::string run_file;
  std::string workload, size, config, out, vcd;
  std::string platform;  // gpu | spu; empty: the workload's own (gpu for anything else)
  std::vector<std::string> overlays, sets;
  bool quiet = false;
  std::vector<std::string> exec_argv;  // warptlm exec: the CUDA application and its arguments
};

// Declare every module's parameters into the global table (once).
void declare_all_params();

// A config or overlay NAME -> scenarios/<kind>/NAME.yaml; a path is used as is.
std::string resolve_scenario(const std::string& name_or_path, const std::string& kind);
// The GPU a run or a topology elaborates when no config is named: scenarios/configs/gtx480.yaml.
constexpr const char* kDefaultGpu = "gtx480";

// Exit code of a run stopped by sim.max_cycles, sim.max_instructions or
// sim.max_wall_seconds; an interrupted run exits 128 + the signal (130, 143).
constexpr int kExitLimit = 3;

// One run; writes stats.json (with its status) whatever its end and returns the
// exit code (0 ok, kExitLimit, 128 + signal). Throws InputError (exit 2) and
// RunError for a fault, a deadlock or a wrong result (exit 1).
int run_command(const RunOptions& opt);

// warptlm topology: the elaborated platform (modules, sockets, bindings, clock domains); --dot for Graphviz.
int topology_command(int argc, char* argv[]);

// The demo: a few workloads, functional, with a summary table.
int demo_command();

// Bring-your-own PTX: the run YAML's `kernel:` section. Fills `kernels`;
// returns whether every compared buffer matched (true when none is compared).
class Device;
struct ByoKernel;
bool run_byo_kernel(Device& dev, const ByoKernel& kernel, const std::string& out_dir, std::string& detail, bool& compared);

// warptlm exec: runs the CUDA application argv on the simulated GPU through WarpTLM's CUDA runtime library
// (exec.cpp, docs/cuda-apps.md), the PTX of its fat binaries written to out_dir; app_exit takes its exit status
// (WarpTLM compares none of its results). Throws InputError when it never reached the simulator (a runtime
// linked statically, no CUDA) and RunError when a kernel faulted.
void serve_cuda_app(Device& dev, const Config& cfg, const std::vector<std::string>& argv, const std::string& device_name,
                    const std::string& out_dir, std::string& detail, int& app_exit);

}  // namespace warptlm
