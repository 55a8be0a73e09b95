#include "gpu/gpu.hpp"

#include "gpu/gpu_platform.hpp"

#include <chrono>
#include <sstream>
#include <systemc>

#include "common/errors.hpp"
#include "common/gpu_payload.hpp"
#include "gpu/dispatcher.hpp"
#include "gpu/flat_memory.hpp"
#include "gpu/monitor.hpp"
#include "gpu/run_control.hpp"
#include "isa/passes/passes.hpp"
#include "gpu/occupancy.hpp"
#include "gpu/placement.hpp"
#include "isa/simt.hpp"
#include "dram/dram_channel.hpp"
#include "interconnect/crossbar.hpp"
#include "l1/l1_cache.hpp"
#include "l2/l2_slice.hpp"
#include "scratchpad/lock_arbiter.hpp"
#include "scratchpad/sharing_unit.hpp"
#include "sm/sm.hpp"
#include "smem/shared_memory.hpp"

namespace warptlm {

std::unique_ptr<PlacementPolicy> make_placement(const std::string& name) {
  if (name == "round_robin") return std::make_unique<RoundRobinPlacement>();
  return nullptr;
}

void GpuParams::declare(ParamTable& t) {
  t.enum_param("sim.mode", "timing", {"timing", "functional"},
               "timing: cycle-approximate SMs; functional: SIMT executor only, no cycles (fast-forward, checking)");
  t.int_param("sim.seed", 1, 0, 4294967295ll, "seed of workload inputs");
  t.int_param("gpu.num_sms", 15, 1, 1024, "streaming multiprocessors");
  t.int_param("gpu.max_threads_per_block", 1024, 32, 4096, "largest thread block a launch may request");
  t.int_param("gpu.max_shared_per_block", 49152, 0, 1 << 20, "bytes of shared memory (static + dynamic) one block may use");
  t.int_param("gpu.core_clock_mhz", 700, 1, 10000, "SM (core) clock; cycles are reported in core cycles");
  t.int_param("gpu.regs_per_thread", 0, 0, 255, "registers per thread for occupancy (0 = estimate from the kernel's PTX)");
  t.enum_param("gpu.placement", "round_robin", {"round_robin"}, "thread-block placement policy");
  t.float_param("sim.progress_after", 2.0, 0.0, 1e9,
                "seconds a launch runs before a progress line appears on stderr (only when stderr is a terminal)");
  t.int_param("sim.idle_module", 0, 0, 1000000,
              "test aid: core cycles between wake-ups of a do-nothing module added to the platform (0 = none); "
              "no result may change with it");
  t.int_param("stats.sample_interval", 0, 0, 1000000000,
              "cycles between sampled statistics (IPC, stalls, hit rates, DRAM bandwidth, active warps) in stats.json; 0 = off");
  t.enum_param("mem.model", "hierarchy", {"hierarchy", "flat"},
               "global memory below the SMs: L1D, crossbar, L2 slices and DRAM channels, or one fixed-latency target");
  t.int_param("mem.partitions", 6, 1, 64, "memory partitions: one L2 slice and one DRAM channel each");
  t.int_param("mem.fixed_latency", 400, 1, 100000, "core cycles of the flat global memory (mem.model: flat)");
  RunLimits::declare(t);
  SmParams::declare(t);
  SharingParams::declare(t);
  declare_ss_pass_params(t);
  declare_trace_params(t);
  SharedMemoryParams::declare(t);
  L1Params::declare(t);
  IcnParams::declare(t);
  L2Params::declare(t);
  DramParams::declare(t);
}

GpuParams GpuParams::from(const Config& c) {
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
  p.placement = c.get_string("gpu.placement");
  p.ss_compiler_passes = c.get_bool("ss.compiler_passes");
  p.ss_threshold = c.get_float("ss.threshold");
  return p;
}

Gpu::Gpu(const Config& cfg, StatsRegistry& stats) : p_(GpuParams::from(cfg)), stats_(stats) {
  warp_insts_ = &stats_.counter("gpu.warp_instructions", "gpu.warp_instructions", "warp instructions issued");
  thread_insts_ = &stats_.counter("gpu.thread_instructions", "gpu.thread_instructions", "thread instructions (active lanes)");
  launches_ctr_ = &stats_.counter("gpu.launches", "gpu.launches", "kernel launches");
  blocks_ctr_ = &stats_.counter("gpu.blocks", "gpu.blocks", "thread blocks run");
  cycles_ctr_ = &stats_.counter("gpu.cycles", "gpu.cycles", "core cycles of all launches");
  if (!timing()) return;
  plat_ = std::make_unique<GpuPlatform>("gpu", p_, cfg, stats_);
}

Gpu::~Gpu() = default;

Sm& Gpu::sm(uint32_t i) { return *plat_->sms[i]; }
uint32_t Gpu::num_sms() const { return plat_ ? uint32_t(plat_->sms.size()) : 0; }

const Samples* Gpu::samples() const { return plat_ ? &plat_->monitor->samples() : nullptr; }

void Gpu::load_ptx(const std::string& text, const std::string& origin) {
  modules_.push_back(std::make_unique<Module>(text, origin, mem_));
  // ss.compiler_passes: scratchpad allocation and relssp placement (seed 000 sec. 6) rewrite a second copy
  ss_modules_.push_back(p_.ss_compiler_passes ? std::make_unique<Module>(optimize_scratchpad_sharing(text, origin, p_.ss_threshold, nullptr),
                                                                         origin, mem_, modules_.back().get())
                                              : nullptr);
}

const KernelInfo* Gpu::ss_version(const KernelInfo& k) const {
  for (size_t i = 0; i < modules_.size(); ++i)
    if (ss_modules_[i] && modules_[i]->find_kernel(k.name) == &k) return ss_modules_[i]->find_kernel(k.name);
  return nullptr;
}

// The base name of an Itanium-mangled function: "_Z6vecaddPKf" -> "vecadd".
static std::string demangled_base(const std::string& m) {
  if (m.size() < 3 || m.compare(0, 2, "_Z") != 0) return m;
  size_t i = 2, len = 0;
  while (i < m.size() && std::isdigit((unsigned char)m[i])) len = len * 10 + size_t(m[i++] - '0');
  if (len == 0 || i + len > m.size()) return m;
  return m.substr(i, len);
}

const KernelInfo* Gpu::find_kernel(const std::string& name) const {
  for (auto it = modules_.rbegin(); it != modules_.rend(); ++it)
    if (const KernelInfo* k = (*it)->find_kernel(name)) return k;
  for (auto it = modules_.rbegin(); it != modules_.rend(); ++it)
    for (auto& n : (*it)->kernel_names())
      if (demangled_base(n) == name) return (*it)->find_kernel(n);
  return nullptr;
}

std::vector<std::string> Gpu::kernel_names() const {
  std::vector<std::string> v;
  for (auto& m : modules_)
    for (auto& n : m->kernel_names()) v.push_back(n);
  return v;
}

LaunchResult Gpu::launch(const std::string& kernel, const LaunchDims& dims, const std::vector<uint8_t>& params) {
  const KernelInfo* k = find_kernel(kernel);
  if (!k) {
    std::string hint = closest_match(kernel, kernel_names());
    throw InputError("launch of unknown kernel '" + kernel + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
  }
  // The functional model has no sharing plan: it runs what the passes made, to check it.
  if (!timing())
    if (const KernelInfo* opt = ss_version(*k)) k = opt;
  launch_ = std::make_unique<LaunchState>();
  LaunchState& L = *launch_;
  L.kernel = k;
  L.mem = &mem_;
  L.num_sms = p_.num_sms;
  L.dynamic_smem = dims.dynamic_smem;
  L.grid_id = launches_.size() + 1;
  uint64_t threads = 1, blocks = 1;
  for (int i = 0; i < 3; ++i) {
    L.grid[i] = dims.grid[i];
    L.block[i] = dims.block[i];
    if (!dims.grid[i] || !dims.block[i]) throw InputError("launch of '" + k->name + "' with a zero grid or block dimension");
    threads *= dims.block[i];
    blocks *= dims.grid[i];
  }
  if (threads > p_.max_threads_per_block)
    throw InputError("launch of '" + k->name + "' with " + std::to_string(threads) + " threads per block; gpu.max_threads_per_block is " +
                     std::to_string(p_.max_threads_per_block));
  uint64_t smem = (dims.dynamic_smem ? ((k->static_smem + 15) & ~15u) : k->static_smem) + dims.dynamic_smem;
  if (smem > p_.max_shared_per_block)
    throw InputError("launch of '" + k->name + "' needs " + std::to_string(smem) + " bytes of shared memory per block; gpu.max_shared_per_block is " +
                     std::to_string(p_.max_shared_per_block));
  if (params.size() != k->param_bytes)
    throw InputError("launch of '" + k->name + "' with " + std::to_string(params.size()) + " bytes of parameters; it takes " +
                     std::to_string(k->param_bytes));
  L.threads_per_block = uint32_t(threads);
  L.warps_per_block = uint32_t((threads + 31) / 32);
  L.params = params;
  L.clock = &clock_;

  LaunchResult r;
  r.kernel = k->name;
  const StatsRegistry::Snapshot before = stats_.snapshot();
  const uint32_t regs = dims.regs_per_thread ? dims.regs_per_thread : p_.regs_per_thread ? p_.regs_per_thread : k->regs_per_thread;
  const auto t0 = std::chrono::steady_clock::now();
  if (timing()) run_timing(*k, L, blocks, regs, r);
  else run_functional(*k, L, blocks, r);
  sim_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  *warp_insts_ += r.warp_instructions;
  *thread_insts_ += r.thread_instructions;
  *cycles_ctr_ += r.cycles;
  ++*launches_ctr_;
  *blocks_ctr_ += blocks;
  r.counters = StatsRegistry::delta(before, stats_.snapshot());
  launches_.push_back(r);
  if (!r.status.empty()) throw RunStopped(r.status, r.message);
  return r;
}

void Gpu::run_functional(const KernelInfo& k, LaunchState& L, uint64_t blocks, LaunchResult& r) {
  L.clock = nullptr;
  for (uint64_t id = 0; id < blocks; ++id) {
    Block b(k, L, uint32_t(id), uint32_t(id % p_.num_sms));
    run_block_functional(b, L);
    for (auto& w : b.warps) {
      r.warp_instructions += w.warp_insts;
      r.thread_instructions += w.thread_insts;
    }
  }
}

void Gpu::run_timing(const KernelInfo& k, LaunchState& L, uint64_t blocks, uint32_t regs, LaunchResult& r) {
  Sm& sm0 = *plat_->sms[0];
  usage_ = std::make_unique<BlockUsage>(sm0.usage_of(L, regs));
  if (!sm0.can_accept(*usage_) && sm0.resident_blocks() == 0) {
    const SmParams& sp = sm0.params();
    SmLimits lim;
    lim.max_threads = sp.max_threads; lim.max_warps = sp.max_warps; lim.max_blocks = sp.max_blocks;
    lim.registers = sp.registers; lim.reg_alloc_unit = sp.reg_alloc_unit;
    lim.shared_mem = sp.shared_mem; lim.smem_alloc_unit = sp.smem_alloc_unit;
    BlockFootprint fp{L.threads_per_block, regs, usage_->shared};
    Occupancy o = compute_occupancy(lim, fp);
    throw InputError("a block of kernel '" + k.name + "' (" + std::to_string(L.threads_per_block) + " threads, " +
                     std::to_string(regs) + " registers per thread, " + std::to_string(usage_->shared) +
                     " bytes of shared memory) does not fit on an SM: " + occupancy_limit_name(o.limit) + " limit");
  }
  for (auto& s : plat_->sms) s->set_launch(&L, &clock_);
  if (plat_->ss_params && plat_->ss_params->enabled) {
    // Scratchpad sharing: the plan of this kernel (how many blocks, which pairs), spec 000 section 2.2.
    const SmParams& sp = sm0.params();
    const BlockUsage& u = *usage_;
    uint32_t cap = std::min(sp.max_blocks, std::min(sp.max_threads / std::max(u.threads, 1u), sp.max_warps / std::max(u.warps, 1u)));
    if (u.registers) cap = std::min(cap, sp.registers / u.registers);
    SharingPlan plan = make_sharing_policy(plat_->ss_params->policy)->plan(sp.shared_mem, u.shared, plat_->ss_params->threshold, cap);
    if (plat_->ss_params->bank_aligned) align_layout(plan, plat_->ss_bank_row, sp.shared_mem);
    if (plan.shsm && layout_bytes(plan) > sp.shared_mem)
      throw RunError("scratchpad-sharing layout of kernel '" + k.name + "' needs " + std::to_string(layout_bytes(plan)) +
                     " bytes; the SM has " + std::to_string(sp.shared_mem));
    for (auto& s : plat_->sms) static_cast<SharingUnit*>(s->mechanism("scratchpad_sharing"))->begin_kernel(plan);
    for (auto& a : plat_->arbiters) a->reset();
    if (plan.shsm)
      if (const KernelInfo* opt = ss_version(k)) L.kernel = opt;
  }
  uint64_t wi0 = 0, ti0 = 0;
  for (auto& s : plat_->sms) { wi0 += s->retired_warp_instructions(); ti0 += s->retired_thread_instructions(); }
  const uint64_t start = uint64_t(sc_core::sc_time_stamp() / plat_->period);
  plat_->launch_start_cycle = start;
  plat_->cycles_before = cycles_ctr_->value;
  plat_->blocks_before = blocks_ctr_->value;
  uint64_t issued0 = 0;
  for (auto& s : plat_->sms) issued0 += s->issued_warp_instructions();
  plat_->dispatcher->begin_launch(L, *usage_, blocks);
  if (!plat_->run_error.empty()) throw RunError(plat_->run_error);  // a previous launch stopped the simulation
  plat_->monitor->begin_launch(k.name);
  if (plat_->idle) plat_->idle->begin_launch();
  plat_->run_control->begin_launch();
  // Runs until the last block retires (the dispatcher pauses the simulation
  // there, so what is still in flight below carries over into whatever the
  // host does next), or until nothing is left to do (a deadlock).
  sc_core::sc_start();
  plat_->monitor->end_launch();
  if (!plat_->run_error.empty()) throw RunError(plat_->run_error);
  if (plat_->dispatcher->launch_running()) {
    // Ended before its last block: a run limit, the watchdog, an interrupt, or nothing left to do.
    const RunStop why = plat_->run_control->stopped();
    std::ostringstream os;
    r.status = why == RunStop::Limit ? "limit" : why == RunStop::Interrupted ? "interrupted" : "deadlock";
    if (why == RunStop::None) os << "deadlock in kernel '" << k.name << "': nothing left to do";
    else if (why == RunStop::Watchdog) os << "deadlock in kernel '" << k.name << "': " << plat_->run_control->reason();
    else os << "kernel '" << k.name << "' stopped: " << plat_->run_control->reason();
    os << "; " << (plat_->dispatcher->blocks_total() - plat_->dispatcher->blocks_retired()) << " blocks never finished; resident warps:";
    for (auto& s : plat_->sms) s->describe_warps(os, why == RunStop::Watchdog);
    r.message = os.str();
    r.cycles = cycle_now(plat_->period) - start + 1;
    for (auto& s : plat_->sms) r.warp_instructions += s->issued_warp_instructions();
    r.warp_instructions -= issued0;
    r.thread_instructions = 0;  // per-thread counts are kept with retired blocks only
    return;
  }
  r.cycles = plat_->dispatcher->last_retire_cycle() - start + 1;
  for (auto& d : plat_->drams) d->end_window(edge_time(plat_->period, plat_->dispatcher->last_retire_cycle() + 1));
  for (auto& s : plat_->sms) { r.warp_instructions += s->retired_warp_instructions(); r.thread_instructions += s->retired_thread_instructions(); }
  r.warp_instructions -= wi0;
  r.thread_instructions -= ti0;
}

}  // namespace warptlm
