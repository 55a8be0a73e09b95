// The GPU top level as the host sees it: functional device memory, loaded PTX
// modules, and kernel launch onto the SMs. In sim.mode=functional a launch runs
// every thread block to completion on the SIMT executor with no timing model.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/config.hpp"
#include "common/stats.hpp"
#include "isa/memory.hpp"
#include "isa/module.hpp"
#include "isa/simt.hpp"

namespace sc_core { class sc_time; }

namespace warptlm {

struct GpuParams {
  std::string mode;         // sim.mode: functional | timing
  uint32_t num_sms = 15;    // gpu.num_sms
  uint32_t max_threads_per_block = 1024;
  uint32_t max_shared_per_block = 49152;
  uint32_t core_clock_mhz = 700;
  uint32_t regs_per_thread = 0;   // 0: the kernel's estimate from its PTX
  uint32_t mem_latency = 400;     // flat global memory (mem.model: flat), core cycles
  std::string mem_model;          // hierarchy | flat
  uint32_t partitions = 6;
  std::string placement;
  bool ss_compiler_passes = false;  // apply the scratchpad-sharing passes when PTX is loaded
  double ss_threshold = 0.1;
  static void declare(ParamTable& t);
  static GpuParams from(const Config& c);
};

struct LaunchDims {
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
  uint32_t dynamic_smem = 0;
  uint32_t regs_per_thread = 0;  // 0: gpu.regs_per_thread, else the PTX estimate
};

struct LaunchResult {
  std::string kernel;
  uint64_t cycles = 0;
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  std::map<std::string, double> counters;  // this launch's share of every counter
  std::string status;   // "" when the launch finished; else limit | deadlock | interrupted (its figures are partial)
  std::string message;  // why it stopped, with what each warp waited on
};

class Sm;
class GpuPlatform;
struct BlockUsage;

class Gpu {
 public:
  Gpu(const Config& cfg, StatsRegistry& stats);
  ~Gpu();

  GlobalMemory& memory() { return mem_; }
  // Parse and check a PTX module; InputError names file, line and opcode.
  void load_ptx(const std::string& text, const std::string& origin);
  // By PTX entry name, or by the base name of a mangled C++ entry.
  const KernelInfo* find_kernel(const std::string& name) const;
  std::vector<std::string> kernel_names() const;
  // Run a kernel to completion. Faults throw RunError naming kernel, block,
  // thread, PC, PTX line and address.
  LaunchResult launch(const std::string& kernel, const LaunchDims& dims, const std::vector<uint8_t>& params);

  const std::vector<LaunchResult>& launches() const { return launches_; }
  const GpuParams& params() const { return p_; }
  bool timing() const { return p_.mode == "timing"; }
  // Sampled statistics (stats.sample_interval); empty when off or functional.
  const Samples* samples() const;
  // Wall-clock seconds spent simulating launches (host-side setup and checking excluded).
  double simulated_seconds() const { return sim_seconds_; }
  // The SM modules (timing mode); empty in functional mode.
  Sm& sm(uint32_t i);
  uint32_t num_sms() const;
  // The platform module (timing mode): the blocks, children of "gpu".
  GpuPlatform* platform() { return plat_.get(); }

 private:
  void run_functional(const KernelInfo& k, LaunchState& L, uint64_t blocks, LaunchResult& r);
  void run_timing(const KernelInfo& k, LaunchState& L, uint64_t blocks, uint32_t regs, LaunchResult& r);

  GpuParams p_;
  StatsRegistry& stats_;
  GlobalMemory mem_;
  std::vector<std::unique_ptr<Module>> modules_;
  // ss.compiler_passes: each module once more after the scratchpad-sharing
  // passes (same index, same device variables). A launch that shares runs this
  // version; one that launches no extra block runs the code as written (spec
  // 000 sec. 7.10: no relssp reaches a kernel that is not scratchpad-limited).
  std::vector<std::unique_ptr<Module>> ss_modules_;
  const KernelInfo* ss_version(const KernelInfo& k) const;
  std::vector<LaunchResult> launches_;
  Counter *warp_insts_, *thread_insts_, *launches_ctr_, *blocks_ctr_, *cycles_ctr_;
  std::unique_ptr<GpuPlatform> plat_;  // timing mode: the sc_module tree
  // the launch in flight
  std::unique_ptr<LaunchState> launch_;
  std::unique_ptr<BlockUsage> usage_;
  uint64_t clock_ = 0;
  double sim_seconds_ = 0;
};

}  // namespace warptlm
