// The GPU platform: one sc_module ("gpu") that builds the GPU's blocks from the
// config as its children and binds their TLM sockets:
//   gpu.core_clock                the core clock domain (SMs, then the dispatcher)
//   gpu.sm<i>                     an SM, with its children
//     gpu.sm<i>.smem              banked shared memory
//     gpu.sm<i>.l1d               L1 data cache (mem.model: hierarchy)
//     gpu.sm<i>.ssp               scratchpad-sharing pair-lock arbiter (ss.enabled)
//   gpu.icn                       crossbar (hierarchy)
//   gpu.part<p>.l2                the L2 slice of memory partition p (hierarchy)
//   gpu.dram<p>                   DRAM channel p (hierarchy)
//   gpu.memory                    flat fixed-latency memory (mem.model: flat)
//   gpu.dispatcher                thread-block dispatcher
//   gpu.monitor, gpu.run_control  watchers: sampled statistics and progress; limits and the watchdog
//   gpu.idle_module               sim.idle_module (observation-invariance test aid)
// The host side (modules, device memory, launches) is Gpu (gpu.hpp).
// platforms/README.md says what a platform is and how to write another.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "common/config.hpp"
#include "common/stats.hpp"

namespace warptlm {

class ClockDomain;
class Sm;
class SharedMemory;
class L1DataCache;
class Crossbar;
class L2Slice;
class DramChannel;
class FlatMemory;
class LockArbiter;
class PayloadPool;
class BlockDispatcher;
class Monitor;
class RunControl;
class IdleWaker;
struct SmParams;
struct SharingParams;
struct GpuParams;

class GpuPlatform : public sc_core::sc_module {
 public:
  GpuPlatform(sc_core::sc_module_name name, const GpuParams& gp, const Config& cfg, StatsRegistry& stats);
  ~GpuPlatform() override;

  // The wiring, as `warptlm topology` prints it: every socket binding (by the
  // sockets' hierarchical names) and every clock domain with its blocks.
  struct Binding {
    std::string initiator, target;
  };
  struct Clock {
    std::string name;
    double mhz;
    std::vector<std::string> blocks;
  };
  std::vector<Binding> bindings;
  std::vector<Clock> clocks;

  // The launch in flight, as the host keeps it: read by the watchers.
  uint64_t launch_start_cycle = 0;  // core cycle the launch started
  uint64_t cycles_before = 0;       // core cycles of the launches before it
  uint64_t blocks_before = 0;       // blocks retired by the launches before it
  std::string run_error;            // first fault raised inside the simulation

  // The blocks (children of this module, or of its SMs and partitions).
  sc_core::sc_time period;  // core clock
  std::unique_ptr<SmParams> sm_params;
  std::unique_ptr<SharingParams> ss_params;
  uint32_t ss_bank_row = 128;  // bytes across all shared-memory banks: the sharing layout's alignment
  std::unique_ptr<PayloadPool> pool;
  std::unique_ptr<ClockDomain> core_clock;
  std::vector<std::unique_ptr<Sm>> sms;
  std::vector<std::unique_ptr<SharedMemory>> smems;
  std::vector<std::unique_ptr<L1DataCache>> l1s;
  std::vector<std::unique_ptr<LockArbiter>> arbiters;
  std::unique_ptr<Crossbar> icn;
  std::vector<std::unique_ptr<sc_core::sc_module>> partitions;
  std::vector<std::unique_ptr<L2Slice>> l2s;
  std::vector<std::unique_ptr<DramChannel>> drams;
  std::unique_ptr<FlatMemory> flat;
  std::unique_ptr<BlockDispatcher> dispatcher;
  std::unique_ptr<Monitor> monitor;
  std::unique_ptr<RunControl> run_control;
  std::unique_ptr<IdleWaker> idle;

 private:
  void build_memory(const GpuParams& gp, const Config& cfg, StatsRegistry& stats);
  void build_sms(const GpuParams& gp, const Config& cfg, StatsRegistry& stats);
  void build_watchers(const GpuParams& gp, const Config& cfg, StatsRegistry& stats);
  template <class I, class T>
  void connect(I& initiator, T& target) {
    initiator.bind(target);
    bindings.push_back(Binding{initiator.name(), target.name()});
  }
  void clock_of(const std::string& domain, double mhz, const sc_core::sc_object& block);
};

}  // namespace warptlm
