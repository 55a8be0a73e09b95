// An architect's own warp scheduler issue selection, my_gto.sv, in the SMs of the WarpTLM GPU: WarpTLM's
// transactor for the issue selection (sm/sched/rtl/) drives the verilated design's pins, and the platform's
// factory (IssueSelectRtl::make) puts it in every scheduler of every SM in place of WarpTLM's own RTL.
//
// Three GPUs in one simulation, from one config (gtx480, 4 SMs, GTO), run the same kernel side by side:
//   gpu_model     sm.issue_select.impl: model     WarpTLM's GTO ordering
//   gpu_rtl       sm.issue_select.impl: rtl       my_gto.sv selects every warp that issues
//   gpu_lockstep  sm.issue_select.impl: lockstep  both, compared at every selection (the run stops at the
//                                                  first difference, naming the cycle, SM, scheduler, the
//                                                  candidates and both choices)
// Each result is checked against the CPU's, and the RTL's cycles must be the model's exactly.
//
// Built against the installed package and Verilator (CMakeLists.txt); run: rtl_scheduler [config.yaml];
// exit 0 when every result checks and the three GPUs agree.
#include "sm/sched/rtl/warp_select_pins.hpp"  // first: Verilator's headers before SystemC's
#include "Vmy_gto.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "common/config.hpp"
#include "common/errors.hpp"
#include "common/stats.hpp"
#include "gpu/gpu_platform.hpp"
#include "runtime/device.hpp"
#include "runtime/gpu_driver.hpp"
#include "sm/sched/rtl/rtl_warp_select.hpp"

using namespace warptlm;

namespace {

// The SMs' issue selection from my_gto.sv (32 warp inputs): GTO, so the model it replaces must be GTO too.
std::unique_ptr<WarpOrdering> my_issue_select(BlockImpl impl, std::unique_ptr<WarpOrdering> model, const SmParams& p,
                                              uint32_t sm, uint32_t sched, const sc_core::sc_time& period) {
  if (std::string(model->name()) != "gto")
    throw InputError(Place{"", 0, "sm.warp_scheduler"}, "my_gto.sv selects greedy-then-oldest: set sm.warp_scheduler to gto");
  auto pins = std::make_unique<WarpSelectPinsOf<Vmy_gto, 32>>(issue_select_trace_name(sm, sched));
  return make_issue_select(impl, std::move(model), std::move(pins), p, sm, sched, period);
}

// The kernel's result as the GPU computes it: per lane fma over the lane's columns, then the shuffle tree.
std::vector<float> reference(int rows, int cols, const std::vector<float>& m, const std::vector<float>& v) {
  std::vector<float> out(rows);
  for (int r = 0; r < rows; ++r) {
    float lane[32];
    for (int l = 0; l < 32; ++l) {
      float s = 0.0f;
      for (int c = l; c < cols; c += 32) s = std::fmaf(m[size_t(r) * cols + c], v[c], s);
      lane[l] = s;
    }
    for (int o = 16; o > 0; o /= 2)
      for (int l = 0; l + o < 32; ++l) lane[l] = lane[l] + lane[l + o];
    out[r] = lane[0];
  }
  return out;
}

// One GPU with its host driver and device.
struct System {
  StatsRegistry stats;
  GpuPlatform gpu;
  GpuDriver driver;
  Device device;
  System(const std::string& name, const Config& cfg)
      : gpu((name).c_str(), cfg, stats), driver((name + "_host").c_str()), device(driver) {
    driver.connect(gpu.host);
  }
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  try {
    IssueSelectRtl::make = &my_issue_select;  // the SMs' RTL issue selection is the platform's own
    GpuParams::declare(ParamTable::global());
    const char* impls[] = {"model", "rtl", "lockstep"};
    std::vector<std::unique_ptr<System>> systems;
    for (const char* impl : impls) {
      Config cfg;
      cfg.merge_file(argc > 1 ? argv[1] : WARPTLM_SCENARIOS_DIR "/configs/gtx480.yaml");
      cfg.set("gpu.num_sms", "4");
      cfg.set("sm.warp_scheduler", "gto");
      cfg.set("sm.issue_select.impl", impl);
      systems.push_back(std::make_unique<System>(std::string("gpu_") + impl, cfg));
    }

    const int rows = 512, cols = 384;
    std::vector<float> m(size_t(rows) * cols), v(cols);
    for (size_t i = 0; i < m.size(); ++i) m[i] = float(int(i % 23) - 11) * 0.125f;
    for (int c = 0; c < cols; ++c) v[c] = float(c % 7) * 0.5f - 1.0f;
    const std::vector<float> want = reference(rows, cols, m, v);

    // The three host programs run side by side from time 0 (so every GPU's clocks stand in the same phase
    // when its launch starts), each in its own SC_THREAD; the simulation ends when all are done.
    std::vector<std::vector<float>> got(systems.size());
    std::vector<std::string> errors(systems.size());
    sc_core::sc_spawn_options opt;
    opt.set_stack_size(16 << 20);
    for (size_t k = 0; k < systems.size(); ++k)
      sc_core::sc_spawn(
          [&, k] {
            try {
              Device& d = systems[k]->device;
              d.load_ptx_file(EXAMPLE_DIR "/kernels.ptx");
              const DevPtr dm = d.upload(m), dv = d.upload(v), dout = d.malloc(rows * sizeof(float));
              d.launch("row_dot", Dim3((rows * 32 + 255) / 256), Dim3(256),
                       {arg(rows), arg(cols), arg(dm), arg(dv), arg(dout)});
              got[k] = d.download<float>(dout, rows);
            } catch (const std::exception& e) {
              errors[k] = e.what();
            }
          },
          ("host_" + std::string(impls[k])).c_str(), &opt);
    sc_core::sc_start();

    bool ok = true;
    std::vector<uint64_t> cycles;
    for (size_t k = 0; k < systems.size(); ++k) {
      if (!errors[k].empty()) std::cout << "sm.issue_select.impl " << impls[k] << ": " << errors[k] << "\n";
      const bool right = errors[k].empty() && got[k] == want;
      ok &= right;
      uint64_t c = 0;
      for (const LaunchResult& r : systems[k]->gpu.launches()) c += r.cycles;
      cycles.push_back(c);
      std::cout << "sm.issue_select.impl " << impls[k] << ": " << c << " GPU cycles, "
                << (right ? "result checks" : "WRONG RESULT") << "\n";
    }
    const bool agree = cycles[1] == cycles[0] && cycles[2] == cycles[0] && cycles[0] > 0;
    if (!agree) std::cout << "my_gto.sv does not take the model's cycles\n";
    std::cout << (ok && agree ? "verified" : "NOT VERIFIED") << "\n";
    return ok && agree ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "rtl_scheduler: " << e.what() << "\n";
    return 2;
  }
}
