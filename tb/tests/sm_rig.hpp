// A one-GPU timing rig for SM tests driven by hand-built PTX (test_sm, test_kepler, test_locality, test_haws;
// inorder_rig.hpp builds on it): the GPU testbench on a config built from key/value pairs, a launch in
// simulated time, and kernels of dependent and independent adds.
#pragma once
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "common/config.hpp"
#include "common/stats.hpp"
#include "gpu/gpu_platform.hpp"
#include "runtime/device.hpp"
#include "runtime/testbench.hpp"

namespace sm_rig {
using namespace warptlm;

inline const char* kHeader = ".version 9.0\n.target sm_75\n.address_size 64\n";

// One timing GPU per process (a SystemC design elaborates once).
struct Rig {
  Config cfg;
  StatsRegistry stats;
  std::unique_ptr<GpuTestbench> tb;
  GpuPlatform* gpu = nullptr;
  Device* dev = nullptr;
  explicit Rig(const std::vector<std::pair<std::string, std::string>>& sets, const std::string& base = "") {
    GpuParams::declare(ParamTable::global());
    if (!base.empty()) cfg.merge_file(std::string(WARPTLM_SOURCE_DIR) + "/scenarios/configs/" + base + ".yaml");
    cfg.set("sim.mode", "timing");
    for (auto& s : sets) cfg.set(s.first, s.second);
    tb = std::make_unique<GpuTestbench>(cfg, stats);
    gpu = &tb->platform();
    dev = &tb->device();
  }
  // A timing launch runs in simulated time: the testbench thread issues it and
  // waits for its completion (copies and loads need no thread).
  void launch(const std::string& kernel, Dim3 grid, Dim3 block, const std::vector<KernelArg>& args) {
    run_host_program([&] { dev->launch(kernel, grid, block, args); });
  }
  double counter(const std::string& n) { return stats.values().at(n); }
};

// A one-SM, one-scheduler machine with simple unit timing.
inline std::vector<std::pair<std::string, std::string>> simple_sm(uint32_t alu_latency) {
  return {{"gpu.num_sms", "1"}, {"sm.num_schedulers", "1"}, {"sm.issue_width", "1"},
          {"sm.unit.int.count", "1"}, {"sm.unit.int.lanes", "32"}, {"sm.unit.sp.lanes", "32"},
          {"sm.unit.branch.lanes", "32"}, {"sm.unit.ldst.lanes", "32"},
          {"sm.op.alu.latency", std::to_string(alu_latency)}, {"sm.op.alu.ii", "1"},
          {"sm.op.simple.latency", std::to_string(alu_latency)}, {"sm.op.simple.ii", "1"},
          {"sm.ibuffer_entries", "4"}, {"mem.model", "flat"}, {"mem.fixed_latency", "100"}};
}

// chainN: N dependent adds on one register.
inline std::string chain_kernel(const std::string& name, int n) {
  std::ostringstream os;
  os << ".visible .entry " << name << "(.param .u64 out)\n{\n .reg .b32 %r<3>;\n .reg .b64 %rd<3>;\n"
     << " mov.u32 %r1, %tid.x;\n";
  for (int i = 0; i < n; ++i) os << " add.s32 %r1, %r1, 1;\n";
  os << " ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd2, %rd1;\n st.global.u32 [%rd2], %r1;\n ret;\n}\n";
  return os.str();
}

// indepN: N independent adds (each writes its own register).
inline std::string independent_kernel(const std::string& name, int n) {
  std::ostringstream os;
  os << ".visible .entry " << name << "(.param .u64 out)\n{\n .reg .b32 %r<" << n + 4 << ">;\n .reg .b64 %rd<3>;\n"
     << " mov.u32 %r1, %tid.x;\n";
  for (int i = 0; i < n; ++i) os << " add.s32 %r" << i + 2 << ", %r1, " << i << ";\n";
  os << " ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd2, %rd1;\n st.global.u32 [%rd2], %r" << n + 1
     << ";\n ret;\n}\n";
  return os.str();
}

}  // namespace sm_rig
