#include "gpu/gpu_platform.hpp"

#include "common/clock_domain.hpp"
#include "common/gpu_payload.hpp"
#include "common/trace.hpp"
#include "dram/dram_channel.hpp"
#include "gpu/dispatcher.hpp"
#include "gpu/flat_memory.hpp"
#include "gpu/gpu.hpp"
#include "gpu/monitor.hpp"
#include "gpu/placement.hpp"
#include "gpu/run_control.hpp"
#include "interconnect/crossbar.hpp"
#include "l1/l1_cache.hpp"
#include "l2/l2_slice.hpp"
#include "scratchpad/lock_arbiter.hpp"
#include "scratchpad/sharing_unit.hpp"
#include "sm/sm.hpp"
#include "smem/shared_memory.hpp"

namespace warptlm {

namespace {
// A memory partition: a module that groups its blocks, built inside its constructor.
struct MemoryPartition : sc_core::sc_module {
  MemoryPartition(sc_core::sc_module_name n, const std::function<void()>& build) : sc_core::sc_module(n) { build(); }
};
}  // namespace

GpuPlatform::GpuPlatform(sc_core::sc_module_name name, const GpuParams& gp, const Config& cfg, StatsRegistry& stats)
    : sc_core::sc_module(name), period(1e6 / gp.core_clock_mhz, sc_core::SC_PS) {
  sm_params = std::make_unique<SmParams>(SmParams::from(cfg));
  Tracer::start(TraceConfig::from_config(cfg), 1e6 / gp.core_clock_mhz);  // before the blocks: their probes register
  pool = std::make_unique<PayloadPool>();
  build_memory(gp, cfg, stats);
  build_sms(gp, cfg, stats);
  build_watchers(gp, cfg, stats);
}

GpuPlatform::~GpuPlatform() { Tracer::finish(); }

// Below the SMs: the crossbar, one partition (L2 slice) and one DRAM channel per
// memory partition, every link a TLM-2.0 AT socket; or one flat memory.
void GpuPlatform::build_memory(const GpuParams& gp, const Config& cfg, StatsRegistry& stats) {
  if (gp.mem_model != "hierarchy") {
    flat = std::make_unique<FlatMemory>("memory", period * double(gp.mem_latency), stats);
    clock_of("core", gp.core_clock_mhz, *flat);
    return;
  }
  const IcnParams icn_p = IcnParams::from(cfg);
  const L2Params l2_p = L2Params::from(cfg);
  const DramParams dram_p = DramParams::from(cfg);
  icn = std::make_unique<Crossbar>("icn", icn_p, gp.partitions, sc_core::sc_time(icn_p.period_ps(), sc_core::SC_PS), stats);
  clock_of("interconnect", icn_p.clock_mhz, *icn);
  for (uint32_t q = 0; q < gp.partitions; ++q) {
    const std::string n = std::to_string(q);
    partitions.push_back(std::make_unique<MemoryPartition>(("part" + n).c_str(), [&] {
      l2s.push_back(std::make_unique<L2Slice>("l2", q, l2_p, icn->map(), sc_core::sc_time(l2_p.period_ps(), sc_core::SC_PS), stats, *pool));
    }));
    drams.push_back(std::make_unique<DramChannel>(("dram" + n).c_str(), q, dram_p, sc_core::sc_time(dram_p.period_ps(), sc_core::SC_PS), stats));
    connect(icn->part_socket[q], l2s.back()->up);
    connect(l2s.back()->down, drams.back()->socket);
    clock_of("l2", l2_p.clock_mhz, *l2s.back());
    clock_of("dram", dram_p.clock_mhz, *drams.back());
    const PartitionMap& map = icn->map();
    drams.back()->local_address = [&map](uint64_t a) { return map.local_address(a); };
  }
  stats.derived("dram.bw_util", [this] {
    uint64_t busy = 0, elapsed = 0;
    for (auto& d : drams) { busy += d->busy_cycles(); elapsed += d->elapsed_cycles(); }
    return elapsed ? double(busy) / double(elapsed) : 0.0;
  }, "DRAM data-bus utilisation over all channels (0..1)");
}

// The SMs, each with its shared memory, its L1 (or the flat memory) and, with
// scratchpad sharing, its pair-lock arbiter; then the dispatcher, which takes
// each core edge after them.
void GpuPlatform::build_sms(const GpuParams& gp, const Config& cfg, StatsRegistry& stats) {
  const SharedMemoryParams smem_p = SharedMemoryParams::from(cfg);
  const L1Params l1_p = L1Params::from(cfg);
  ss_params = std::make_unique<SharingParams>(SharingParams::from(cfg));
  ss_bank_row = uint32_t(cfg.get_int("smem.banks") * cfg.get_int("smem.bank_width"));
  core_clock = std::make_unique<ClockDomain>("core_clock", period);
  for (uint32_t i = 0; i < gp.num_sms; ++i) {
    const std::string n = "sm" + std::to_string(i);
    sms.push_back(std::make_unique<Sm>(n.c_str(), i, *sm_params, period, stats, *pool, [&](Sm& sm) {
      smems.push_back(std::make_unique<SharedMemory>("smem", i, smem_p, period, stats));
      if (icn) l1s.push_back(std::make_unique<L1DataCache>("l1d", i, l1_p, period, stats, *pool));
      // scratchpad sharing: the SM's resource access unit (also the provider of OWF) and its pair-lock arbiter
      if (ss_params->enabled || sm_params->warp_scheduler == "owf")
        sm.add_mechanism(std::make_unique<SharingUnit>(i, *ss_params, stats, *pool));
      if (ss_params->enabled) arbiters.push_back(std::make_unique<LockArbiter>("ssp", i, sm_params->max_blocks, stats));
    }));
    Sm& sm = *sms.back();
    sm.attach_clock(*core_clock);
    connect(sm.smem_socket, smems.back()->socket);
    clock_of("core", gp.core_clock_mhz, sm);
    clock_of("core", gp.core_clock_mhz, *smems.back());
    if (icn) {
      connect(sm.mem_socket, l1s.back()->upstream);
      connect(l1s.back()->downstream, icn->sm_socket);
      clock_of("core", gp.core_clock_mhz, *l1s.back());
    } else {
      connect(sm.mem_socket, flat->socket);
    }
    if (ss_params->enabled) {
      connect(static_cast<SharingUnit*>(sm.mechanism("scratchpad_sharing"))->socket, arbiters.back()->socket);
      clock_of("core", gp.core_clock_mhz, *arbiters.back());
    }
    sm.on_block_done = [this](Sm&) { dispatcher->block_retired(); };
    sm.on_run_error = [this](const std::string& msg) {
      if (run_error.empty()) run_error = msg;
      sc_core::sc_stop();
    };
  }
  std::vector<Sm*> sm_list;
  for (auto& s : sms) sm_list.push_back(s.get());
  dispatcher = std::make_unique<BlockDispatcher>("dispatcher", *core_clock, sm_list, make_placement(gp.placement));
  dispatcher->on_launch_done = [] { sc_core::sc_pause(); };
  clock_of("core", gp.core_clock_mhz, *dispatcher);
}

void GpuPlatform::clock_of(const std::string& domain, double mhz, const sc_core::sc_object& block) {
  for (Clock& c : clocks)
    if (c.name == domain) {
      c.blocks.push_back(block.name());
      return;
    }
  clocks.push_back(Clock{domain, mhz, {block.name()}});
}

// Watchers: they only read the model (docs/determinism.md).
void GpuPlatform::build_watchers(const GpuParams& gp, const Config& cfg, StatsRegistry& stats) {
  const auto launch_running = [this] { return dispatcher->launch_running(); };
  Monitor::Probes mp;
  mp.launch_running = launch_running;
  mp.active_warps = [this] {
    double n = 0;
    for (auto& s : sms)
      for (auto& w : s->slots()) n += (w.resident && !w.fw->done) ? 1 : 0;
    return n;
  };
  if (!drams.empty()) {
    mp.dram_busy_cycles = [this] {
      double b = 0;
      for (auto& d : drams) b += double(d->busy_cycles());
      return b;
    };
    mp.dram_cycles_per_core_cycle = double(drams.size()) * DramParams::from(cfg).clock_mhz / gp.core_clock_mhz;
  }
  mp.progress_after_seconds = cfg.get_float("sim.progress_after");
  monitor = std::make_unique<Monitor>("monitor", period, uint64_t(cfg.get_int("stats.sample_interval")), stats, mp);
  RunControl::Probes rp;
  rp.launch_running = launch_running;
  rp.cycles = [this] { return cycles_before + (cycle_now(period) - launch_start_cycle); };
  rp.instructions = [this] {
    uint64_t n = 0;
    for (auto& s : sms) n += s->issued_warp_instructions();
    return n;
  };
  rp.progress = [this] {
    uint64_t n = blocks_before + dispatcher->blocks_retired();
    for (auto& s : sms) n += s->progress_events();
    return n;
  };
  run_control = std::make_unique<RunControl>("run_control", period, RunLimits::from(cfg), rp);
  if (const int64_t every = cfg.get_int("sim.idle_module"))
    idle = std::make_unique<IdleWaker>("idle_module", period, uint64_t(every), launch_running);
}

}  // namespace warptlm
