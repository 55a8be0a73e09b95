#include "gpu/gpu_platform.hpp"

#include <algorithm>
#include <iostream>

#include "common/block_impl.hpp"
#include "common/clock_domain.hpp"
#include "common/edge_workers.hpp"
#include "common/input_register.hpp"
#include "common/gpu_payload.hpp"
#include "common/trace.hpp"
#include "dram/dram_channel.hpp"
#include "gpu/dispatcher.hpp"
#include "gpu/flat_memory.hpp"
#include "gpu/interval_sampler.hpp"
#include "gpu/cache_warmer.hpp"
#include "gpu/launch_sampler.hpp"
#include "gpu/mechanism.hpp"
#include "gpu/monitor.hpp"
#include "gpu/placement.hpp"
#include "gpu/run_control.hpp"
#include "interconnect/crossbar.hpp"
#include "isa/passes/passes.hpp"
#include "l1/l1_cache.hpp"
#include "l1/mshr_redundancy.hpp"
#include "l2/l2_slice.hpp"
#include "sm/sm.hpp"
#include "smem/shared_memory.hpp"

namespace warptlm {

void GpuParams::declare(ParamTable& t) {
  t.enum_param("sim.mode", "timing", {"timing", "functional"},
               "timing: cycle-approximate SMs; functional: SIMT executor only, no cycles (fast-forward, checking)");
  t.int_param("sim.seed", 1, 0, 4294967295ll, "seed of workload inputs");
  t.int_param("sim.fast_forward", 0, 0, 1ll << 62,
              "functional fast-forward (timing mode): the first N launches, or N warp instructions (sim.fast_forward_unit), "
              "run on the SIMT executor with no cycles; the rest is timed, from cold caches (0 = off)");
  t.enum_param("sim.sampling", "none", {"none", "launches", "intervals"},
               "sampled simulation (timing mode), each estimate with a stated bound (docs/sampling.md). launches: launches of "
               "one shape (kernel, block, dynamic shared memory) and octave of warp instructions are timed until each has "
               "sim.sampling_first samples, then one in every sim.sampling_every; the others run functionally and are estimated. "
               "intervals: inside each launch, one interval of sim.sampling_interval cycles in sim.sampling_period is timed "
               "and the blocks of the others run functionally");
  t.int_param("sim.sampling_interval", 10000, 100, 1ll << 40,
              "sim.sampling: intervals: core cycles an interval lasts at least (it ends at the next edge with block retirements)");
  t.int_param("sim.sampling_period", 10, 1, 1000000,
              "sim.sampling: intervals: one part in N of a launch's work is timed: after each sampled interval, blocks worth "
              "N - 1 times the warp instructions timed since the last functional stretch run functionally (1: none)");
  t.int_param("sim.sampling_first", 3, 1, 1000000,
              "sim.sampling: samples (timed launches) each octave of a shape's warp instructions wants before its launches are estimated");
  t.int_param("sim.sampling_every", 50, 0, 1000000000,
              "sim.sampling: after the first, one launch in each N of a shape is timed, at a place in the N drawn "
              "from sim.sampling_seed (0: none more)");
  t.int_param("sim.sampling_seed", 1, 0, 4294967295ll,
              "sim.sampling: launches: draws where in each sim.sampling_every launches a shape's sample falls (the same "
              "seed, the same samples)");
  t.int_param("sim.sampling_warm_up", 0, 0, 1000000,
              "sim.sampling: launches timed after a functional one before a timed launch counts as a measurement "
              "(0: none, with sim.sampling_warm_caches)");
  t.bool_param("sim.sampling_warm_caches", true,
               "sim.sampling: the launches run functionally leave their global lines in the L1 and L2 tag arrays, "
               "as the timed launches would have");
  t.int_param("sim.sampling_warm_window", 4, 0, 1000000,
              "sim.sampling: launches: the functional launches' lines go into the caches when a timed launch follows, "
              "those of the most recent launches whose line accesses reach N times the lines the L1s and the L2 hold "
              "(at least the last launch); 0: every functional launch's, as it runs");
  t.enum_param("sim.fast_forward_unit", "launches", {"launches", "instructions"},
               "what sim.fast_forward counts: whole launches, or warp instructions (timing starts with the block after the "
               "one in which the N-th executes, mid-launch if need be)");
  t.int_param("gpu.num_sms", 15, 1, 1024, "streaming multiprocessors");
  t.int_param("gpu.max_threads_per_block", 1024, 32, 4096, "largest thread block a launch may request");
  t.int_param("gpu.max_shared_per_block", 49152, 0, 1 << 20, "bytes of shared memory (static + dynamic) one block may use");
  t.int_param("gpu.core_clock_mhz", 700, 1, 10000, "SM (core) clock; cycles are reported in core cycles");
  t.int_param("gpu.regs_per_thread", 0, 0, 255, "registers per thread for occupancy (0 = estimate from the kernel's PTX)");
  t.enum_param("gpu.placement", "round_robin", {"round_robin"}, "thread-block placement policy");
  t.int_param("gpu.kernel_launch_latency", 0, 0, 100000000,
              "core cycles from a launch's start to its first blocks going out, counted in the launch's cycles "
              "(GPGPU-Sim's -gpgpu_kernel_launch_latency)");
  t.int_param("gpu.block_launch_latency", 0, 0, 1000000,
              "core cycles added to that wait per block of the launch (GPGPU-Sim's -gpgpu_TB_launch_latency)");
  t.float_param("sim.progress_after", 2.0, 0.0, 1e9,
                "seconds a launch runs before a progress line appears on stderr (only when stderr is a terminal)");
  t.int_param("sim.max_memory_mb", 8192, 16, 1 << 22,
              "memory budget of the simulator in MiB: device allocations, and the registers, local memory and "
              "shared memory of the blocks a launch keeps resident, are checked against it before they are made");
  t.int_param("sim.threads", 1, 0, 1024,
              "threads that run the SMs' own parts of each core edge (0 = the machine's cores); at most the SMs are "
              "used, and one when tracing, a verilated block or a mechanism whose SM parts share state is in the run. "
              "No result changes with it (docs/determinism.md; docs/performance.md: what it gains today)");
  t.int_param("sim.quantum", 1, 1, 64,
              "core cycles the SMs' global memory effects wait for: 1, each edge's stores and atomics take effect at "
              "its end, in SM order, and loads read at issue; above 1, an SM's global loads, stores and atomics all "
              "take effect at the quantum's last edge, SM by SM in issue order (the first step of the lookahead "
              "engine: docs/performance.md). At most the shortest global load round trip; changes cycles only where "
              "SMs race on global memory");
  t.int_param("sim.idle_module", 0, 0, 1000000,
              "test aid: core cycles between wake-ups of a do-nothing module added to the platform (0 = none); "
              "no result may change with it");
  t.int_param("stats.sample_interval", 0, 0, 1000000000,
              "cycles between sampled statistics (IPC, stalls, hit rates, DRAM bandwidth, active warps) in stats.json; 0 = off");
  t.enum_param("mem.model", "hierarchy", {"hierarchy", "flat"},
               "global memory below the SMs: L1D, crossbar, L2 slices and DRAM channels, or one fixed-latency target");
  t.int_param("mem.partitions", 6, 1, 64, "memory partitions: one DRAM channel and mem.subpartitions L2 slices each");
  t.int_param("mem.subpartitions", 1, 1, 8,
              "L2 slices per memory partition (GPGPU-Sim's sub-partitions): each has its own crossbar port and l2.slice_size "
              "of L2, the partition's chunks alternate between them, and they share its DRAM channel, which takes one "
              "request a cycle from them in turn");
  t.int_param("mem.fixed_latency", 400, 1, 100000, "core cycles of the flat global memory (mem.model: flat)");
  RunLimits::declare(t);
  SmParams::declare(t);
  declare_trace_params(t);
  SharedMemoryParams::declare(t);
  L1Params::declare(t);
  MshrRedundancyParams::declare(t);
  IcnParams::declare(t);
  L2Params::declare(t);
  DramParams::declare(t);
  register_builtin_mechanisms();
  MechanismRegistry::declare_all(t);
}

namespace {
// Values that are each in range but do not fit together (docs/bad-inputs.md).
void check_consistency(const Config& c) {
  auto bad = [](const char* key, const std::string& why) { throw InputError(Place{"", 0, key}, why); };
  auto v = [&c](const char* key) { return c.get_int(key); };
  const int64_t sample = v("stats.sample_interval");
  if (sample > 0 && sample < 100)
    bad("stats.sample_interval", "stats.sample_interval " + std::to_string(sample) +
                                     " is below 100 cycles (0 turns sampling off): a sample per few cycles slows the run many times over and its series swamps stats.json");
  if (c.get_string("sim.mode") != "timing") {
    if (v("sim.fast_forward") > 0)
      bad("sim.fast_forward", "sim.fast_forward needs sim.mode=timing: in functional mode every launch already runs functionally");
    if (c.get_string("sim.sampling") != "none")
      bad("sim.sampling", "sim.sampling needs sim.mode=timing: in functional mode no launch is timed, so nothing is sampled");
    return;
  }
  if (c.get_string("sim.sampling") != "none" && v("sim.fast_forward") > 0)
    bad("sim.sampling", "sim.sampling and sim.fast_forward both choose which launches run functionally: use one");
  if (c.get_string("sim.sampling") == "launches" && !c.get_bool("sim.sampling_warm_caches") && v("sim.sampling_warm_up") == 0)
    bad("sim.sampling_warm_up", "sim.sampling_warm_up is 0 and sim.sampling_warm_caches is false: nothing would warm the "
                                "caches before a sample after launches run functionally (set sim.sampling_warm_up to 1 or more)");
  const int64_t mem_line = v("sm.mem_line");
  if (mem_line & (mem_line - 1)) bad("sm.mem_line", "sm.mem_line " + std::to_string(mem_line) + " is not a power of two");
  if (mem_line > 1024)
    bad("sm.mem_line", "sm.mem_line " + std::to_string(mem_line) + " is over 1024 bytes: a request's 32-byte sectors are held in a 32-bit mask");
  if (v("smem.size") < v("sm.shared_mem"))
    bad("smem.size", "smem.size " + std::to_string(v("smem.size")) + " is smaller than sm.shared_mem " +
                         std::to_string(v("sm.shared_mem")) + ", the shared memory blocks may be given on the SM");
  if (c.get_string("mem.model") != "hierarchy") return;
  // A request's sector mask counts 32-byte sectors of a line: the LD/ST unit and both caches must mean one line.
  for (const char* key : {"l1d.line", "l2.line"})
    if (v(key) != mem_line)
      bad("sm.mem_line", "sm.mem_line " + std::to_string(mem_line) + " differs from " + key + " " + std::to_string(v(key)) +
                             ": a request names the 32-byte sectors of one line, the same line in the LD/ST unit and both caches");
  if (v("icn.interleave") % v("l2.line") != 0)
    bad("icn.interleave", "icn.interleave " + std::to_string(v("icn.interleave")) + " is not a multiple of l2.line " +
                              std::to_string(v("l2.line")) + ": a line must live in one memory partition");
  const int64_t burst = v("dram.burst_length") * v("dram.bus_width");
  if (burst > v("dram.row_bytes"))
    bad("dram.burst_length", "a DRAM burst of " + std::to_string(burst) + " bytes (dram.burst_length x dram.bus_width) is larger than dram.row_bytes " +
                                 std::to_string(v("dram.row_bytes")));
}
}  // namespace

GpuParams GpuParams::from(const Config& c) {
  check_consistency(c);
  GpuParams p;
  p.mode = c.get_string("sim.mode");
  p.num_sms = uint32_t(c.get_int("gpu.num_sms"));
  p.max_threads_per_block = uint32_t(c.get_int("gpu.max_threads_per_block"));
  p.max_shared_per_block = uint32_t(c.get_int("gpu.max_shared_per_block"));
  p.core_clock_mhz = uint32_t(c.get_int("gpu.core_clock_mhz"));
  p.regs_per_thread = uint32_t(c.get_int("gpu.regs_per_thread"));
  p.mem_latency = uint32_t(c.get_int("mem.fixed_latency"));
  p.mem_model = c.get_string("mem.model");
  p.partitions = uint32_t(c.get_int("mem.partitions"));
  p.subpartitions = uint32_t(c.get_int("mem.subpartitions"));
  p.placement = c.get_string("gpu.placement");
  p.kernel_launch_latency = uint64_t(c.get_int("gpu.kernel_launch_latency"));
  p.block_launch_latency = uint64_t(c.get_int("gpu.block_launch_latency"));
  p.max_memory = uint64_t(c.get_int("sim.max_memory_mb")) << 20;
  p.fast_forward = uint64_t(c.get_int("sim.fast_forward"));
  p.fast_forward_instructions = c.get_string("sim.fast_forward_unit") == "instructions";
  p.sample_launches = c.get_string("sim.sampling") == "launches";
  p.sample_intervals = c.get_string("sim.sampling") == "intervals";
  p.sampling_interval = uint64_t(c.get_int("sim.sampling_interval"));
  p.sampling_period = uint32_t(c.get_int("sim.sampling_period"));
  p.sampling_first = uint32_t(c.get_int("sim.sampling_first"));
  p.sampling_every = uint32_t(c.get_int("sim.sampling_every"));
  p.sampling_seed = uint64_t(c.get_int("sim.sampling_seed"));
  p.sampling_warm_up = uint32_t(c.get_int("sim.sampling_warm_up"));
  p.sampling_warm_caches = c.get_bool("sim.sampling_warm_caches");
  p.sampling_warm_window = uint32_t(c.get_int("sim.sampling_warm_window"));
  return p;
}

namespace {
// A memory partition: a module that groups its blocks, built inside its constructor.
struct MemoryPartition : sc_core::sc_module {
  MemoryPartition(sc_core::sc_module_name n, const std::function<void()>& build) : sc_core::sc_module(n) { build(); }
};
}  // namespace

void GpuPlatform::check_config(const Config& cfg) {
  const GpuParams p = GpuParams::from(cfg);
  StatsRegistry scratch;
  MechanismRegistry::build(cfg, scratch);
  if (p.mode != "timing") return;
  const SmParams sm = SmParams::from(cfg);
  TraceConfig::from_config(cfg);
  SharedMemoryParams::from(cfg);
  RunLimits::from(cfg);
  // The caches' tag arrays and queues are built with the platform: their size
  // follows from the config alone, so it is checked here, before any is made.
  const uint64_t tag = 16;  // bytes per instruction- or constant-cache line (tag and LRU stamp)
  uint64_t per_sm = uint64_t(sm.icache_size / sm.icache_line) * tag + uint64_t(sm.ccache_size / sm.ccache_line) * tag;
  uint64_t per_partition = 0;
  if (p.mem_model == "hierarchy") {
    IcnParams::from(cfg);
    DramParams::from(cfg);
    per_sm += L1DataCache::model_bytes(L1Params::from(cfg));
    L2Params l2 = L2Params::from(cfg);
    l2.count_in_l2_cycles(p.core_clock_mhz);
    per_partition = L2Slice::model_bytes(l2);
  }
  const uint64_t total = per_sm * p.num_sms + per_partition * p.partitions * p.subpartitions;
  if (total > p.max_memory)
    throw InputError(Place{"", 0, "sim.max_memory_mb"},
                     "the caches of this config take " + std::to_string(total >> 20) + " MiB of simulator memory (" +
                         std::to_string(per_sm) + " bytes per SM for its L1D, instruction and constant caches, " +
                         std::to_string(per_partition) + " per L2 slice), over sim.max_memory_mb " + std::to_string(p.max_memory >> 20) +
                         " (raise it with --set sim.max_memory_mb=N, or check l1d.sets, l1d.ways and l2.slice_size)");
}

GpuPlatform::LaunchEnd::LaunchEnd(std::function<void()> at_update)
    : sc_core::sc_prim_channel("launch_end"), at_update_(std::move(at_update)) {}

GpuPlatform::GpuPlatform(sc_core::sc_module_name name, const Config& cfg, StatsRegistry& stats)
    : sc_core::sc_module(name), host("host"), p_((check_config(cfg), GpuParams::from(cfg))), stats_(stats) {
  period = sc_core::sc_time(1e6 / p_.core_clock_mhz, sc_core::SC_PS);
  mem_.set_budget(p_.max_memory);
  host.register_b_transport(this, &GpuPlatform::b_transport);
  host.register_transport_dbg(this, &GpuPlatform::transport_dbg);
  warp_insts_ = &stats_.counter("gpu.warp_instructions", "gpu.warp_instructions", "warp instructions issued");
  thread_insts_ = &stats_.counter("gpu.thread_instructions", "gpu.thread_instructions",
                                  "thread instructions: lanes whose guard predicate is true (GPGPU-Sim's detailed-mode count)");
  lane_insts_ = &stats_.counter("gpu.active_lane_instructions", "gpu.active_lane_instructions",
                                "active-lane instructions: every lane of the active mask, guarded or not");
  launches_ctr_ = &stats_.counter("gpu.launches", "gpu.launches", "kernel launches");
  blocks_ctr_ = &stats_.counter("gpu.blocks", "gpu.blocks", "thread blocks run");
  cycles_ctr_ = &stats_.counter("gpu.cycles", "gpu.cycles", "core cycles of all launches");
  if (p_.fast_forward) {
    (p_.fast_forward_instructions ? ff_instructions_left_ : ff_launches_left_) = p_.fast_forward;
    ff_launches_ = &stats_.counter("gpu.ff_launches", "gpu.ff_launches", "launches run wholly on the functional executor (sim.fast_forward)");
    ff_blocks_ = &stats_.counter("gpu.ff_blocks", "gpu.ff_blocks", "thread blocks run on the functional executor, untimed (sim.fast_forward)");
    ff_warp_insts_ = &stats_.counter("gpu.ff_warp_instructions", "gpu.ff_warp_instructions",
                                     "warp instructions run on the functional executor, untimed (sim.fast_forward)");
    ff_thread_insts_ = &stats_.counter("gpu.ff_thread_instructions", "gpu.ff_thread_instructions",
                                       "thread instructions run on the functional executor, untimed (sim.fast_forward)");
  }
  if (p_.sample_launches || p_.sample_intervals) {
    if (p_.sample_launches) sampler_ = std::make_unique<LaunchSampler>(p_.sampling_first, p_.sampling_every, p_.sampling_warm_up,
                                                                     p_.sampling_seed);
    else interval_sampler_ = std::make_unique<IntervalSampler>(p_.sampling_interval, p_.sampling_period);
    estimated_launches_ = &stats_.counter("gpu.estimated_launches", "gpu.estimated_launches",
                                          p_.sample_launches ? "launches run on the functional executor and estimated (sim.sampling)"
                                                             : "launches with blocks run on the functional executor between "
                                                               "timed intervals, their cycles estimated (sim.sampling)");
    if (p_.sample_intervals)
      estimated_blocks_ = &stats_.counter("gpu.estimated_blocks", "gpu.estimated_blocks",
                                          "thread blocks run on the functional executor between timed intervals (sim.sampling)");
    estimated_warp_insts_ = &stats_.counter("gpu.estimated_warp_instructions", "gpu.estimated_warp_instructions",
                                            "warp instructions of the estimated launches, run untimed (sim.sampling)");
    estimated_thread_insts_ = &stats_.counter("gpu.estimated_thread_instructions", "gpu.estimated_thread_instructions",
                                              "thread instructions of the estimated launches, run untimed (sim.sampling)");
    if (p_.sampling_warm_caches)
      warmer_ = std::make_unique<CacheWarmer>(sms, l1s, l2s, uint32_t(cfg.get_int("sm.mem_line")),
                                              stats_.counter("gpu.estimated_warmed_lines", "gpu.estimated_warmed_lines",
                                                             "line accesses of the estimated launches replayed into the "
                                                             "L1 and L2 tag arrays (sim.sampling_warm_caches)"));
  }
  mechanisms_ = MechanismRegistry::build(cfg, stats);  // registered when the parameters were declared
  FunctionalRunControl::Probes fp;
  fp.timed_instructions = [this] { return issued_warp_instructions(); };
  fp.wall_seconds = [this] { return run_seconds(); };
  functional_control = std::make_unique<FunctionalRunControl>(RunLimits::from(cfg), fp);
  if (!timing()) return;
  sm_params = std::make_unique<SmParams>(SmParams::from(cfg));
  sm_params->gpu_sms = p_.num_sms;  // sm.local_layout: word_major spreads local memory over the GPU's SMs
  Tracer::start(TraceConfig::from_config(cfg), 1e6 / p_.core_clock_mhz);  // before the blocks: their probes register
  pool = std::make_unique<PayloadPool>();
  ending_ = std::make_unique<LaunchEnd>([this] { finish_launch(); });
  build_memory(cfg, stats);
  const uint64_t rtl_before = rtl_impls_chosen();
  build_sms(cfg, stats);
  if (warmer_ && sampler_ && p_.sampling_warm_window) {  // launch sampling: warm what a timed launch follows (the L1s and L2 built)
    uint64_t lines = 0;
    for (const auto& l1 : l1s) lines += l1->capacity_lines();
    for (const auto& l2 : l2s) lines += l2->capacity_lines();
    warmer_->defer(lines * p_.sampling_warm_window);
  }
  start_engine(cfg, rtl_impls_chosen() != rtl_before);
  build_watchers(cfg, stats);
}

GpuPlatform::~GpuPlatform() {
  if (timing()) Tracer::finish();
}

Mechanism* GpuPlatform::mechanism(const std::string& name) const {
  for (auto& m : mechanisms_)
    if (name == m->name()) return m.get();
  return nullptr;
}

const Samples* GpuPlatform::samples() const { return monitor ? &monitor->samples() : nullptr; }
void GpuPlatform::finish_samples() {
  if (monitor) monitor->finish();
}

// Below the SMs: the crossbar, and per memory partition its L2 slice (or one
// per sub-partition) and its DRAM channel, every link a TLM-2.0 AT socket; or
// one flat memory.
void GpuPlatform::build_memory(const Config& cfg, StatsRegistry& stats) {
  if (p_.mem_model != "hierarchy") {
    flat = std::make_unique<FlatMemory>("memory", period * double(p_.mem_latency), stats);
    clock_of("core", p_.core_clock_mhz, *flat);
    return;
  }
  const IcnParams icn_p = IcnParams::from(cfg);
  L2Params l2_p = L2Params::from(cfg);
  DramParams dram_p = DramParams::from(cfg);
  l2_p.count_in_l2_cycles(p_.core_clock_mhz);  // latencies that count core cycles (l2.rop_clock, dram.latency_clock)
  dram_p.count_in_dram_cycles(p_.core_clock_mhz);
  const uint32_t subs = p_.subpartitions;
  icn = std::make_unique<Crossbar>("icn", icn_p, p_.partitions, sc_core::sc_time(icn_p.period_ps(), sc_core::SC_PS), stats, subs);
  clock_of("interconnect", icn_p.clock_mhz, *icn);
  const PartitionMap& map = icn->map();
  l2_clock = std::make_unique<ClockDomain>("l2_clock", sc_core::sc_time(l2_p.period_ps(), sc_core::SC_PS));
  dram_clock = std::make_unique<ClockDomain>("dram_clock", sc_core::sc_time(dram_p.period_ps(), sc_core::SC_PS));
  for (uint32_t q = 0; q < p_.partitions; ++q) {
    const std::string n = std::to_string(q);
    partitions.push_back(std::make_unique<MemoryPartition>(("part" + n).c_str(), [&] {
      for (uint32_t s = 0; s < subs; ++s) {
        const std::string name = subs == 1 ? "l2" : "l2_" + std::to_string(s);
        l2s.push_back(std::make_unique<L2Slice>(name.c_str(), q, l2_p, map, sc_core::sc_time(l2_p.period_ps(), sc_core::SC_PS),
                                                stats, *pool, subs == 1 ? -1 : int(s)));
      }
    }));
    drams.push_back(std::make_unique<DramChannel>(("dram" + n).c_str(), q, dram_p, sc_core::sc_time(dram_p.period_ps(), sc_core::SC_PS), stats));
    for (uint32_t s = 0; s < subs; ++s) {
      L2Slice& l2 = *l2s[q * subs + s];
      connect(icn->part_socket[q * subs + s], l2.up);
      connect(l2.down, drams.back()->socket);
      l2.on_run_error = [this](const std::string& msg) { fault(msg); };
      clock_of("l2", l2_p.clock_mhz, l2);
    }
    drams.back()->join_domain(*dram_clock);
    clock_of("dram", dram_p.clock_mhz, *drams.back());
    drams.back()->local_address = [&map](uint64_t a) { return map.local_address(a); };
  }
  stats.derived("dram.bw_util", [this] {
    uint64_t busy = 0, elapsed = 0;
    for (auto& d : drams) { busy += d->busy_cycles(); elapsed += d->elapsed_cycles(); }
    return elapsed ? double(busy) / double(elapsed) : 0.0;
  }, "DRAM data-bus utilisation over all channels (0..1)");
}

// The SMs, each with its shared memory, its L1 (or the flat memory) and the
// parts of every mechanism built; then the dispatcher, which takes each core
// edge after them.
void GpuPlatform::build_sms(const Config& cfg, StatsRegistry& stats) {
  const SharedMemoryParams smem_p = SharedMemoryParams::from(cfg);
  const L1Params l1_p = L1Params::from(cfg);
  const MshrRedundancyParams red_p = MshrRedundancyParams::from(cfg);
  if (icn && red_p.mode != MshrRedundancyParams::Mode::Off) mshr_redundancy = std::make_unique<MshrRedundancy>(red_p, stats);
  core_clock = std::make_unique<ClockDomain>("core_clock", period);
  // The crossbar and the L2 slices take their edges from the core clock when they run at its period (one
  // wake-up per edge for the SMs and the memory side; with worker threads, their edges run beside the SMs'
  // own parts: ClockedBlock::runs_beside_own_parts), else from their own process and the L2's clock domain.
  if (icn) {
    if (icn->clock_period() == period) icn->join_domain(*core_clock);
    for (auto& l2 : l2s) l2->join_domain(l2->clock_period() == period ? *core_clock : *l2_clock);
  }
  // A mechanism's socket bindings and core-clock blocks, recorded as it builds
  // them and listed (warptlm topology) after the part they belong to.
  std::vector<std::pair<std::string, std::string>> mechanism_bindings;
  std::vector<std::string> mechanism_blocks;
  const auto record_binding = [&](const sc_core::sc_object& a, const sc_core::sc_object& b) {
    mechanism_bindings.push_back({a.name(), b.name()});
  };
  const auto record_block = [&](const sc_core::sc_object& b) { mechanism_blocks.push_back(b.name()); };
  const auto list_mechanism_parts = [&] {
    for (auto& b : mechanism_bindings) bindings.push_back(Binding{b.first, b.second});
    for (auto& b : mechanism_blocks) clock_of("core", p_.core_clock_mhz, b);
    mechanism_bindings.clear();
    mechanism_blocks.clear();
  };
  for (uint32_t i = 0; i < p_.num_sms; ++i) {
    const std::string n = "sm" + std::to_string(i);
    sm_pools.push_back(std::make_unique<PayloadPool>());
    PayloadPool& sm_pool = *sm_pools.back();
    sms.push_back(std::make_unique<Sm>(n.c_str(), i, *sm_params, period, stats, sm_pool, [&](Sm& sm) {
      smems.push_back(std::make_unique<SharedMemory>("smem", i, smem_p, period, stats));
      if (icn) l1s.push_back(std::make_unique<L1DataCache>("l1d", i, l1_p, period, stats, sm_pool));
      if (mshr_redundancy) l1s.back()->add_observer(mshr_redundancy->port(i));
      SmSite site{sm, i, period, cfg, stats, sm_pool, icn ? l1s.back().get() : nullptr, *smems.back(),
                  record_binding, record_block};
      for (auto& m : mechanisms_) m->build_in_sm(site);
    }));
    Sm& sm = *sms.back();
    sm.attach_clock(*core_clock);
    // The SM's partition of the core clock domain: its shared memory and L1 answer it alone, so their edges'
    // own parts run with the SM's (docs/determinism.md).
    smems.back()->join_domain(*core_clock, i);
    if (icn) {
      l1s.back()->join_domain(*core_clock, i);
      sm.set_private_ports(true);
    }
    connect(sm.smem_socket, smems.back()->socket);
    const SharedMemoryParams& banks = smems.back()->params();
    sm.shared_service_cycles = [&banks](const uint64_t* lanes, uint32_t mask, unsigned bytes, uint32_t* parts) {
      return service_cycles(lanes, mask, bytes, banks, parts);
    };
    if (sm_params->inorder && banks.warp_parts != sm_params->subwarps())
      throw InputError(Place{"", 0, "smem.warp_parts"},
                       "must equal the in-order pipeline's subwarps, ceil(32 / sm.pipeline.simd_width) = " +
                           std::to_string(sm_params->subwarps()) + ", not " + std::to_string(banks.warp_parts) +
                           " (set at " + cfg.origin("smem.warp_parts") + ")");
    clock_of("core", p_.core_clock_mhz, sm);
    clock_of("core", p_.core_clock_mhz, *smems.back());
    if (icn) {
      connect(sm.mem_socket, l1s.back()->upstream);
      connect(sm.readonly_socket, l1s.back()->readonly_upstream);
      connect(l1s.back()->downstream, icn->sm_socket);
      l1s.back()->on_run_error = [this](const std::string& msg) { fault(msg); };
      clock_of("core", p_.core_clock_mhz, *l1s.back());
    } else {
      connect(sm.mem_socket, flat->socket);
      connect(sm.readonly_socket, flat->socket);
    }
    list_mechanism_parts();
    sm.on_block_done = [this](Sm&) { dispatcher->block_retired(); };
    sm.on_run_error = [this](const std::string& msg) { fault(msg); };
  }
  std::vector<Sm*> sm_list;
  for (auto& s : sms) sm_list.push_back(s.get());
  const auto bind_below = [&](tlm::tlm_initiator_socket<>& s) {
    if (icn) {
      s.bind(icn->sm_socket);
      record_binding(s, icn->sm_socket);
      ++mechanism_icn_ports_;
    } else {
      s.bind(flat->socket);
      record_binding(s, flat->socket);
    }
  };
  PlatformSite site{sm_list, *core_clock, period, cfg, stats, *pool, record_binding, record_block,
                    [this](const std::string& msg) { fault(msg); }, bind_below};
  for (auto& m : mechanisms_) m->build_in_platform(site);
  list_mechanism_parts();
  std::unique_ptr<PlacementPolicy> placement;
  for (auto& m : mechanisms_)
    if (!placement) placement = m->make_placement(p_.placement);
  if (!placement) placement = make_placement(p_.placement);
  dispatcher = std::make_unique<BlockDispatcher>("dispatcher", *core_clock, sm_list, std::move(placement));
  dispatcher->set_launch_latency(p_.kernel_launch_latency, p_.block_launch_latency);
  dispatcher->on_launch_done = [this] { end_launch(""); };
  dispatcher->on_run_error = [this](const std::string& msg) { fault(msg); };
  if (p_.sample_intervals)
    dispatcher->take_blocks = [this](uint64_t next, uint64_t left) { return run_between_intervals(next, left); };
  clock_of("core", p_.core_clock_mhz, *dispatcher);
}

uint64_t GpuPlatform::QuantumEnd::clock_edge(uint64_t) {
  for (Sm* s : sms) s->commit_held_effects();
  return kNever;
}

// The parallel engine (docs/determinism.md): the SMs' own parts of an edge on
// sim.threads threads. The results are the same for every thread count; what
// cannot run beside another SM's work runs on one thread.
void GpuPlatform::start_engine(const Config& cfg, bool verilated) {
  const int64_t asked = cfg.get_int("sim.threads");
  unsigned threads = asked ? unsigned(asked) : EdgeWorkers::cores();
  threads = std::min<unsigned>(threads, p_.num_sms);
  if (threads > 1) {
    std::string serial;  // why the run keeps one thread
    if (Tracer::active()) serial = "a waveform trace is written";
    else if (verilated) serial = "a verilated block is in the run";
    else if (mshr_redundancy) serial = "l1d.redundancy watches every SM's L1";
    for (auto& m : mechanisms_)
      if (serial.empty() && !m->sm_parts_private()) serial = std::string("mechanism ") + m->name() + " shares state across SMs";
    if (!serial.empty()) {
      threads = 1;
      if (cfg.is_set("sim.threads"))
        std::cerr << "warptlm: note: sim.threads=" << asked << " runs on one thread: " << serial << "\n";
    }
  }
  const uint32_t quantum = uint32_t(cfg.get_int("sim.quantum"));
  if (quantum > 1 && sm_params->inorder)  // its pipeline completes loads at WB, not at a response the SM could check
    throw InputError(Place{"", 0, "sim.quantum"}, "a quantum above 1 needs sm.pipeline.model: decoupled");
  if (quantum > 1) {
    quantum_end = std::make_unique<QuantumEnd>();
    const uint32_t member = core_clock->join(*quantum_end);
    for (auto& sm : sms) {
      quantum_end->sms.push_back(sm.get());
      sm->on_effects_held = [this, member](uint64_t edge) { core_clock->request(member, edge); };
    }
  }
  for (auto& sm : sms) {
    sm->set_engine_threads(threads);
    sm->set_quantum(quantum);
  }
  if (threads > 1) {
    workers = std::make_unique<EdgeWorkers>(threads);
    // The crossbar delivers beside the own parts only to L1s, which hold what it sends until they are done.
    if (icn) icn->allow_beside_own_parts(mechanism_icn_ports_ == 0);
    core_clock->use_workers(workers.get());
  }
  // The DRAM channels hear only from the L2 slices. Where every slice takes the core clock's edges, the
  // channels' edges run late, inside the core clock's (ClockDomain::lead): one wake-up less for each, and
  // with worker threads beside the SMs' own parts. Not while a waveform is written, whose changes must come
  // in time order.
  const bool l2s_on_core_clock =
      !l2s.empty() && std::all_of(l2s.begin(), l2s.end(), [&](const auto& l2) { return l2->clock_period() == period; });
  if (dram_clock && l2s_on_core_clock && !Tracer::active()) core_clock->lead(*dram_clock);
}

void GpuPlatform::clock_of(const std::string& domain, double mhz, const std::string& block) {
  for (Clock& c : clocks)
    if (c.name == domain) {
      c.blocks.push_back(block);
      return;
    }
  clocks.push_back(Clock{domain, mhz, {block}});
}

// Watchers: they only read the model (docs/determinism.md).
void GpuPlatform::build_watchers(const Config& cfg, StatsRegistry& stats) {
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
      dram_clock->catch_up_now();
      double b = 0;
      for (auto& d : drams) b += double(d->busy_cycles());
      return b;
    };
    mp.dram_cycles_per_core_cycle = double(drams.size()) * DramParams::from(cfg).clock_mhz / p_.core_clock_mhz;
  }
  mp.progress_after_seconds = cfg.get_float("sim.progress_after");
  monitor = std::make_unique<Monitor>("monitor", period, uint64_t(cfg.get_int("stats.sample_interval")), stats, mp);
  RunControl::Probes rp;
  rp.launch_running = launch_running;
  rp.cycles = [this] { return cycles_before_ + (cycle_now(period) - launch_start_cycle_); };
  rp.instructions = [this] { return functional_control->executed() + issued_warp_instructions(); };  // fast-forwarded too
  rp.wall_seconds = [this] { return run_seconds(); };
  rp.retired = [this] { return blocks_before_ + dispatcher->blocks_retired(); };
  rp.progress = [this] {
    uint64_t n = blocks_before_ + dispatcher->blocks_retired();
    for (auto& s : sms) n += s->progress_events();
    return n;
  };
  rp.stop = [this](RunStop why) { stop_launch(why); };
  run_control = std::make_unique<RunControl>("run_control", period, RunLimits::from(cfg), rp);
  if (const int64_t every = cfg.get_int("sim.idle_module"))
    idle = std::make_unique<IdleWaker>("idle_module", period, uint64_t(every), launch_running);
}

}  // namespace warptlm
