// Driving the GPU platform from a host program.
//
// run_host_program(program) runs `program` in a testbench SC_THREAD of the
// current simulation (spawned now) and runs the simulation until the program
// returns; then the simulation pauses (sc_pause), so another program can follow
// in the same elaboration. What the program throws is rethrown here.
//
// GpuTestbench is the usual top level: the GPU platform ("gpu", or the SPU
// mesh "spu", platforms/spu/), a host
// driver ("host") bound to its host socket, and the CUDA-like Device on it.
// A platform of your own instantiates GpuPlatform and GpuDriver itself
// (platforms/examples/).
#pragma once
#include <functional>
#include <memory>

#include "common/config.hpp"
#include "common/stats.hpp"
#include "gpu/gpu_platform.hpp"
#include "runtime/device.hpp"
#include "runtime/gpu_driver.hpp"

namespace warptlm {

void run_host_program(const std::function<void()>& program);

class GpuTestbench {
 public:
  // `platform`: gpu (the module "gpu") or spu (the SPU mesh, "spu"; `cfg` must
  // then be SpuPlatform::configure'd).
  GpuTestbench(const Config& cfg, StatsRegistry& stats, const std::string& platform = "gpu");
  ~GpuTestbench();

  GpuPlatform& platform() { return *platform_; }
  GpuDriver& driver() { return *driver_; }
  Device& device() { return *device_; }

  // run_host_program(program).
  void run(const std::function<void()>& program) { run_host_program(program); }

 private:
  std::unique_ptr<GpuPlatform> platform_;
  std::unique_ptr<GpuDriver> driver_;
  std::unique_ptr<Device> device_;
};

}  // namespace warptlm
