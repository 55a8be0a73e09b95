// The GPU platform: one sc_module ("gpu") that builds the GPU's blocks from the
// config as its children, binds their TLM sockets, and serves the host on its
// host socket (host_interface.hpp: copies, modules, launches, completion):
//   gpu.host                      the host socket (a TLM-2.0 target)
//   gpu.core_clock                the core clock domain (the crossbar and L2 slices at its period, the SMs,
//                                 then the dispatcher)
//   gpu.sm<i>                     an SM, with its children
//     gpu.sm<i>.smem              banked shared memory
//     gpu.sm<i>.l1d               L1 data cache (mem.model: hierarchy)
//     gpu.sm<i>.<block>           a mechanism's blocks (docs/mechanisms.md)
//   gpu.icn                       crossbar (hierarchy)
//   gpu.part<p>.l2                the L2 slice of memory partition p (hierarchy)
//   gpu.dram<p>                   DRAM channel p (hierarchy)
//   gpu.l2_clock, gpu.dram_clock  the clock domains the L2 slices (at another period than the core's) and
//                                 the DRAM channels share (hierarchy)
//   gpu.memory                    flat fixed-latency memory (mem.model: flat)
//   gpu.dispatcher                thread-block dispatcher
//   gpu.monitor, gpu.run_control  watchers: sampled statistics and progress; limits and the watchdog
//   gpu.idle_module               sim.idle_module (observation-invariance test aid)
// In sim.mode: functional the platform has only its host socket: a launch runs
// every block to completion on the SIMT executor inside the call, in no time.
// platforms/README.md says what a platform is and how to write another.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "common/clock_domain.hpp"
#include "common/config.hpp"
#include "common/stats.hpp"
#include "gpu/host_interface.hpp"
#include "isa/memory.hpp"
#include "isa/module.hpp"
#include "isa/simt.hpp"

namespace warptlm {

class ClockDomain;
class Sm;
class SharedMemory;
class L1DataCache;
class MshrRedundancy;
class Crossbar;
class L2Slice;
class DramChannel;
class FlatMemory;
class PayloadPool;
class EdgeWorkers;
class BlockDispatcher;
class Monitor;
class RunControl;
class FunctionalRunControl;
class IdleWaker;
class Mechanism;
struct SmParams;
struct BlockUsage;
struct LaunchState;
enum class RunStop;
class LaunchSampler;
class CacheWarmer;
class IntervalSampler;
struct SamplingReport;

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
  uint32_t subpartitions = 1;     // L2 slices per partition
  std::string placement;
  uint64_t kernel_launch_latency = 0;  // gpu.kernel_launch_latency, core cycles before a launch's first blocks
  uint64_t block_launch_latency = 0;   // gpu.block_launch_latency, added per block of the launch
  uint64_t max_memory = 8192ull << 20;  // sim.max_memory_mb, in bytes
  uint64_t fast_forward = 0;            // sim.fast_forward: launches, or warp instructions
  bool fast_forward_instructions = false;  // sim.fast_forward_unit: instructions
  bool sample_launches = false;         // sim.sampling: launches
  bool sample_intervals = false;        // sim.sampling: intervals
  uint64_t sampling_interval = 10000;   // sim.sampling_interval: core cycles an interval lasts at least
  uint32_t sampling_period = 10;        // sim.sampling_period: one interval in N is timed
  uint32_t sampling_first = 3;          // sim.sampling_first: launches of a shape timed first
  uint32_t sampling_every = 50;         // sim.sampling_every: then one in each N (0: no more)
  uint64_t sampling_seed = 1;           // sim.sampling_seed: where in each N the sample falls
  uint32_t sampling_warm_up = 0;        // sim.sampling_warm_up: warm-up launches after a functional one
  bool sampling_warm_caches = true;     // sim.sampling_warm_caches: functional launches warm the L1s and L2
  uint32_t sampling_warm_window = 4;    // sim.sampling_warm_window: launches replayed before a timed one (0: all at once)
  // Every parameter of the platform, its blocks and the registered mechanisms.
  static void declare(ParamTable& t);
  static GpuParams from(const Config& c);
};

class GpuPlatform : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<GpuPlatform> host;

  GpuPlatform(sc_core::sc_module_name name, const Config& cfg, StatsRegistry& stats);
  // Every check the constructor makes on a config, without building anything:
  // each block's parameters, cross-checks, the mechanisms' conflicts, and the
  // simulator memory the caches of this geometry would take against
  // sim.max_memory_mb. InputError naming the key at fault.
  static void check_config(const Config& cfg);
  ~GpuPlatform() override;

  // Completion: notified when a timing launch ends (its last block retired, or
  // it stopped: a run limit, the watchdog, a fault); then launch_running() is false.
  const sc_core::sc_event& launch_done() const { return launch_done_; }
  bool launch_running() const { return running_ != nullptr; }

  const GpuParams& params() const { return p_; }
  bool timing() const { return p_.mode == "timing"; }
  // Device memory (the functional store): for inspection; hosts copy through the socket.
  GlobalMemory& memory() { return mem_; }
  const KernelInfo* find_kernel(const std::string& name) const;
  std::vector<std::string> kernel_names() const;
  // A module-scope .global/.const variable of the loaded modules (the latest first): address and bytes.
  uint64_t symbol(const std::string& name, uint64_t& bytes) const;
  // Every launch that ended, in order (a faulting or stopped one with its status).
  const std::vector<LaunchResult>& launches() const { return launches_; }
  // sim.sampling: the estimate of the run's cycles, per group and per launch (null: no sampling).
  std::unique_ptr<SamplingReport> sampling_report() const;
  // Sampled statistics (stats.sample_interval); null in functional mode.
  const Samples* samples() const;
  // Ends the sampled time series with the run's last, partial interval (stats.sample_interval).
  void finish_samples();
  // Wall-clock seconds spent in launches (host work between them excluded).
  double simulated_seconds() const { return sim_seconds_; }
  Sm& sm(uint32_t i) { return *sms.at(i); }
  uint32_t num_sms() const { return uint32_t(sms.size()); }
  // A mechanism the config built, by name (null when not built).
  Mechanism* mechanism(const std::string& name) const;
  // Request conservation at the end of a run (docs/determinism.md): lets the
  // memory system finish what it still holds (write-backs), then returns the
  // blocks whose requests and responses differ; empty when every request got
  // exactly one response. Call it after the run's stats were read: the
  // write-backs it lets finish are not part of the run.
  std::vector<std::string> check_conservation();

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

  // The blocks (children of this module, or of its SMs and partitions); timing mode.
  sc_core::sc_time period;  // core clock
  std::unique_ptr<SmParams> sm_params;
  std::unique_ptr<PayloadPool> pool;
  // Each SM's own payloads (its requests, its L1's, its mechanisms'): an SM's own part of an edge may run on
  // a worker thread beside the others' (sim.threads), and takes payloads from its pool alone.
  std::vector<std::unique_ptr<PayloadPool>> sm_pools;
  std::unique_ptr<ClockDomain> core_clock;
  std::unique_ptr<EdgeWorkers> workers;  // sim.threads > 1: the SMs' own parts of an edge run on them
  std::vector<std::unique_ptr<Sm>> sms;
  std::vector<std::unique_ptr<SharedMemory>> smems;
  std::vector<std::unique_ptr<L1DataCache>> l1s;
  std::unique_ptr<MshrRedundancy> mshr_redundancy;  // l1d.redundancy.mode: the L1s' MSHR allocations across SMs
  std::unique_ptr<Crossbar> icn;
  uint32_t mechanism_icn_ports_ = 0;  // crossbar SM ports a mechanism's block took (not an L1's)
  std::vector<std::unique_ptr<sc_core::sc_module>> partitions;
  std::vector<std::unique_ptr<L2Slice>> l2s;
  std::vector<std::unique_ptr<DramChannel>> drams;
  std::unique_ptr<ClockDomain> l2_clock, dram_clock;  // one wake-up per edge for all slices, for all channels
  std::unique_ptr<FlatMemory> flat;
  std::unique_ptr<BlockDispatcher> dispatcher;
  // sim.quantum > 1: at a quantum's last edge, after every SM's part of it, the SMs' held global memory
  // effects take effect, SM by SM (the last member of the core clock domain).
  struct QuantumEnd : ClockedBlock {
    std::vector<Sm*> sms;
    uint64_t clock_edge(uint64_t) override;
  };
  std::unique_ptr<QuantumEnd> quantum_end;
  std::unique_ptr<Monitor> monitor;
  std::unique_ptr<RunControl> run_control;
  std::unique_ptr<FunctionalRunControl> functional_control;  // the functional executor's watch (both modes)
  std::unique_ptr<IdleWaker> idle;

 private:
  // construction (gpu_platform.cpp)
  void build_memory(const Config& cfg, StatsRegistry& stats);
  void build_sms(const Config& cfg, StatsRegistry& stats);
  void build_watchers(const Config& cfg, StatsRegistry& stats);
  void start_engine(const Config& cfg, bool verilated);
  template <class I, class T>
  void connect(I& initiator, T& target) {
    initiator.bind(target);
    bindings.push_back(Binding{initiator.name(), target.name()});
  }
  void clock_of(const std::string& domain, double mhz, const sc_core::sc_object& block) { clock_of(domain, mhz, std::string(block.name())); }
  void clock_of(const std::string& domain, double mhz, const std::string& block);

  // the host socket (host.cpp)
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& p);
  void copy(tlm::tlm_generic_payload& p);
  void place_copy_in_l2(uint64_t addr, uint64_t bytes);
  void command(HostCommand& c);
  void load_module(const std::string& text, const std::string& origin);
  void synchronize(HostCommand& c);
  uint64_t attribute(const std::string& name) const;

  // launches (launch.cpp)
  void start_launch(const KernelInfo& kernel, const LaunchDims& dims, const std::vector<uint8_t>& params);
  void check_memory_budget(const KernelInfo& k, const LaunchState& L, uint64_t smem, uint64_t blocks) const;
  void place_in_instruction_memory(LaunchState& L, const KernelInfo& k);
  // Runs blocks [0, blocks) on the SIMT executor, stopping after the block in
  // which `budget` warp instructions have run; returns the first block not run.
  // A stop request or the watchdog ends it with RunStopped (the stopped block's warp instructions counted in r).
  uint64_t run_functional(const KernelInfo& k, LaunchState& L, uint64_t blocks, LaunchResult& r, uint64_t budget = UINT64_MAX);
  double run_seconds() const;  // wall-clock seconds since the run's first launch
  uint64_t issued_warp_instructions() const;  // by the SMs, in the run so far (timing mode)
  bool fast_forwarding() const { return ff_launches_left_ > 0 || ff_instructions_left_ > 0; }
  void start_timing(const KernelInfo& k, LaunchState& L, uint64_t first, uint64_t blocks, uint32_t regs);
  void carve_out_shared_memory(const KernelInfo& k, const LaunchState& L, uint32_t regs);
  void fault(const std::string& message);
  void stop_launch(RunStop why);
  void end_launch(const std::string& status);
  void finish_launch();
  std::string describe_stop(const KernelInfo& k) const;
  void record(LaunchResult r);
  // The caller is an SC_THREAD, which may wait for a launch.
  static bool in_thread();

  GpuParams p_;
  StatsRegistry& stats_;
  GlobalMemory mem_;
  std::vector<std::unique_ptr<Module>> modules_;
  std::vector<std::unique_ptr<Mechanism>> mechanisms_;
  std::vector<LaunchResult> launches_;
  std::vector<std::pair<const KernelInfo*, uint64_t>> code_layout_;  // kernels in instruction memory, first launched first
  uint64_t code_bytes_ = 0;  // instruction memory taken so far
  Counter *warp_insts_, *thread_insts_, *lane_insts_, *launches_ctr_, *blocks_ctr_, *cycles_ctr_;
  // Functional fast-forward (sim.fast_forward): what is left of it, and what it ran.
  uint64_t ff_launches_left_ = 0, ff_instructions_left_ = 0;
  Counter *ff_launches_ = nullptr, *ff_blocks_ = nullptr, *ff_warp_insts_ = nullptr, *ff_thread_insts_ = nullptr;
  // Kernel-level sampling (sim.sampling: launches): the chooser, the timed launch in flight's index, and
  // what the launches it left to the functional executor ran.
  std::unique_ptr<LaunchSampler> sampler_;
  std::unique_ptr<CacheWarmer> warmer_;  // sim.sampling_warm_caches
  // Interval sampling (sim.sampling: intervals): the intervals of the launch in flight, and the blocks it
  // ran functionally between them; the kernel the launch was started with.
  std::unique_ptr<IntervalSampler> interval_sampler_;
  Counter* estimated_blocks_ = nullptr;
  const KernelInfo* running_kernel_ = nullptr;
  // At an edge with retirements (the dispatcher asks): the blocks from `next` run functionally now, if an
  // interval just ended; returns how many.
  uint64_t run_between_intervals(uint64_t next, uint64_t left);
  std::string stop_message_;  // a stop raised inside the launch's functional blocks (the watchdog, an interrupt)
  int64_t running_sample_ = -1;
  bool running_warm_up_ = false;
  Counter *estimated_launches_ = nullptr, *estimated_warp_insts_ = nullptr, *estimated_thread_insts_ = nullptr;

  // The timing launch in flight. It ends at the close of the evaluation phase in
  // which its last block retires or it is stopped (an update request), whatever
  // other process runs in that instant: its figures never depend on that order.
  struct LaunchEnd : sc_core::sc_prim_channel {
    explicit LaunchEnd(std::function<void()> at_update);
    void request() { request_update(); }
    void update() override { at_update_(); }
    std::function<void()> at_update_;
  };
  std::unique_ptr<LaunchEnd> ending_;
  std::unique_ptr<LaunchState> running_;
  std::unique_ptr<BlockUsage> usage_;
  bool ending_requested_ = false;
  std::string end_status_;          // "" (completed) | limit | deadlock | interrupted | fault
  std::string fault_;               // the first fault raised inside the simulation: the GPU halts
  uint64_t launch_start_cycle_ = 0;  // core cycle the launch started
  uint64_t cycles_before_ = 0;       // core cycles of the launches before it
  uint64_t blocks_before_ = 0;       // blocks retired by the launches before it
  uint64_t issued_before_ = 0;        // warp instructions issued before the launch
  InstructionCounts retired_before_;  // instructions of the blocks retired before the launch
  uint64_t blocks_ = 0;
  StatsRegistry::RawSnapshot counters_before_;
  double wall_start_ = 0;
  double run_start_ = -1;  // wall clock at the run's first launch (the run limits count from it)
  uint64_t clock_ = 0;  // %clock of the functional executor
  double sim_seconds_ = 0;
  sc_core::sc_event launch_done_;
};

}  // namespace warptlm
