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

namespace warptlm {

struct GpuParams {
  std::string mode;         // sim.mode: functional | timing
  uint32_t num_sms = 15;    // gpu.num_sms
  uint32_t max_threads_per_block = 1024;
  uint32_t max_shared_per_block = 49152;
  static void declare(ParamTable& t);
  static GpuParams from(const Config& c);
};

struct LaunchDims {
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
  uint32_t dynamic_smem = 0;
};

struct LaunchResult {
  std::string kernel;
  uint64_t cycles = 0;
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  std::map<std::string, double> counters;  // this launch's share of every counter
};

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

 private:
  GpuParams p_;
  StatsRegistry& stats_;
  GlobalMemory mem_;
  std::vector<std::unique_ptr<Module>> modules_;
  std::vector<LaunchResult> launches_;
  Counter *warp_insts_, *thread_insts_, *launches_ctr_, *blocks_ctr_;
};

}  // namespace warptlm
