// Kernel launches: checked, planned and started on the host's command; a
// timing launch ends when its last block retires or it is stopped, and the
// platform then notifies launch_done().
#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <new>
#include <sstream>

#include "common/clock.hpp"
#include "common/clock_domain.hpp"
#include "common/errors.hpp"
#include "common/host_memory.hpp"
#include "common/input_register.hpp"  // test_fault
#include "dram/dram_channel.hpp"
#include "gpu/cache_warmer.hpp"
#include "gpu/dispatcher.hpp"
#include "gpu/interval_sampler.hpp"
#include "gpu/gpu_platform.hpp"
#include "l1/l1_cache.hpp"
#include "gpu/launch_sampler.hpp"
#include "gpu/mechanism.hpp"
#include "gpu/monitor.hpp"
#include "gpu/occupancy.hpp"
#include "gpu/run_control.hpp"
#include "interconnect/crossbar.hpp"
#include "isa/simt.hpp"
#include "sm/sm.hpp"

namespace warptlm {

namespace {
double wall_now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
void add_instructions(LaunchResult& r, const InstructionCounts& c) {
  r.warp_instructions += c.warp;
  r.thread_instructions += c.thread;
  r.lane_instructions += c.lane;
}
}  // namespace

// Checks the launch against the GPU's limits and the kernel's parameters, then
// runs it (functional) or starts it (timing).
void GpuPlatform::start_launch(const KernelInfo& kernel, const LaunchDims& dims, const std::vector<uint8_t>& params) {
  if (!fault_.empty()) throw RunError(fault_);  // the GPU halted at a fault
  if (!end_status_.empty())
    throw RunError("the GPU stopped (" + end_status_ + ") in an earlier launch; kernel '" + kernel.name + "' cannot run");
  if (running_)
    throw InputError("launch of '" + kernel.name + "' while kernel '" + running_->kernel->name +
                     "' runs: synchronize first (one launch at a time)");
  const KernelInfo* k = &kernel;
  const bool ff = timing() && fast_forwarding();
  // Kernel-level sampling: a launch of a shape already timed often enough runs functionally, to be estimated.
  uint32_t sample = 0;
  running_sample_ = -1;
  running_kernel_ = &kernel;
  stop_message_.clear();
  bool estimated = false;
  if (timing() && !ff && sampler_) {
    const LaunchSampler::Kind kind = sampler_->choose(k->name, dims.block, dims.dynamic_smem, sample);
    estimated = kind == LaunchSampler::Kind::Estimated;
    running_sample_ = int64_t(sample);
    running_warm_up_ = kind == LaunchSampler::Kind::WarmUp;
    // the functional launches just before it leave their lines in the caches now (deferred warming)
    if (!estimated && warmer_ && !test_fault("sampling_cold_caches")) warmer_->replay();
  }
  // The functional model has no launch plan: it runs a mechanism's version of the code, to check it.
  if (!timing() || ff || estimated)
    for (auto& m : mechanisms_)
      if (const KernelInfo* v = m->functional_version(*k)) k = v;
  auto launch = std::make_unique<LaunchState>();
  LaunchState& L = *launch;
  L.kernel = k;
  L.mem = &mem_;
  L.num_sms = p_.num_sms;
  L.dynamic_smem = dims.dynamic_smem;
  L.grid_id = launches_.size() + 1;
  L.launch_hint = dims.hint;
  uint64_t threads = 1, blocks = 1;
  static const uint32_t kMaxGrid[3] = {2147483647u, 65535u, 65535u}, kMaxBlock[3] = {1024u, 1024u, 64u};
  static const char* kAxis[3] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i) {
    L.grid[i] = dims.grid[i];
    L.block[i] = dims.block[i];
    if (!dims.grid[i] || !dims.block[i]) throw InputError("launch of '" + k->name + "' with a zero grid or block dimension");
    if (dims.grid[i] > kMaxGrid[i] || dims.block[i] > kMaxBlock[i])
      throw InputError("launch of '" + k->name + "' with grid." + kAxis[i] + " = " + std::to_string(dims.grid[i]) + " and block." +
                       kAxis[i] + " = " + std::to_string(dims.block[i]) + "; the limits are " + std::to_string(kMaxGrid[i]) +
                       " and " + std::to_string(kMaxBlock[i]));
    threads *= dims.block[i];
    blocks *= dims.grid[i];
  }
  if (blocks > UINT32_MAX)
    throw InputError("launch of '" + k->name + "' with " + std::to_string(blocks) + " blocks; block ids are 32-bit (at most 4294967295 blocks)");
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
  check_memory_budget(*k, L, smem, blocks);
  L.params = params;
  L.clock = &clock_;
  const uint32_t regs = dims.regs_per_thread ? dims.regs_per_thread
                        : p_.regs_per_thread ? p_.regs_per_thread
                        : dims.compiled_regs ? dims.compiled_regs
                                             : k->regs_per_thread;
  blocks_ = blocks;
  counters_before_ = stats_.raw_snapshot();
  wall_start_ = wall_now();
  if (run_start_ < 0) run_start_ = wall_start_;
  if (timing() && !in_thread())
    throw InputError("a timing launch of '" + k->name +
                     "' is issued from a testbench SC_THREAD, which then waits for its completion (run_host_program)");
  uint64_t first_timed = 0;
  if (!timing() || ff || estimated) {
    LaunchResult r;
    r.kernel = k->name;
    const uint64_t budget = ff && !ff_launches_left_ ? ff_instructions_left_ : UINT64_MAX;  // warp instructions
    bool ran = false;  // a mechanism that runs launches its own way (functional mode only)
    L.watch = functional_control.get();
    // its lines go into the caches the blocks would have used (WARPTLM_TEST_FAULT=sampling_cold_caches,
    // test-only: they do not, so a check that a launch timed after functional ones meets the full run's
    // caches must fail)
    if (estimated && warmer_ && !test_fault("sampling_cold_caches")) {
      warmer_->begin_launch(dispatcher.get(), p_.num_sms, icn && !l2s.empty() ? &icn->map() : nullptr);
      place_in_instruction_memory(L, kernel);
      warmer_->warm_front_ends(kernel, L, blocks);
      L.accesses = warmer_.get();
    }
    try {
      for (size_t i = 0; !ff && !ran && i < mechanisms_.size(); ++i) ran = mechanisms_[i]->run_functional(*k, L, r);
      first_timed = ran ? blocks : run_functional(*k, L, blocks, r, budget);
    } catch (const RunStopped& e) {
      // A stop request or the watchdog, as a timing launch's: the partial figures are recorded, and the GPU takes no more launches.
      r.status = end_status_ = e.status;
      r.message = e.what();
      r.thread_instructions = r.lane_instructions = 0;  // per-thread counts are kept for finished blocks only
      if (ff) {
        *ff_warp_insts_ += r.warp_instructions;
        r.warp_instructions = 0;
      }
      sim_seconds_ += wall_now() - wall_start_;
      record(std::move(r));
      throw;
    } catch (const RunError& e) {
      // A fault: the launch is recorded with its status and the fault's message (its figures up to the
      // blocks that finished), and the fault goes on to the host program.
      r.status = "fault";
      r.message = e.what();
      r.thread_instructions = r.lane_instructions = 0;
      if (ff) r.warp_instructions = 0;
      sim_seconds_ += wall_now() - wall_start_;
      record(std::move(r));
      throw;
    }
    L.watch = nullptr;  // timing launches are watched by the run control
    L.accesses = nullptr;
    if (estimated) {
      // Its instructions are counted apart and its cycles estimated at the run's end (sampling_report); the
      // block placement moves on past its blocks, as the dispatcher would have placed them.
      if (dispatcher) dispatcher->skip_blocks(blocks, p_.num_sms);
      r.sampling = "estimated";
      r.sample_index = int64_t(sample);
      sampler_->measured(sample, 0, r.warp_instructions);
      ++*estimated_launches_;
      *estimated_warp_insts_ += r.warp_instructions;
      *estimated_thread_insts_ += r.thread_instructions;
      r.warp_instructions = r.thread_instructions = r.lane_instructions = 0;
      running_sample_ = -1;
    }
    if (ff) {
      // Fast-forwarded work is counted apart: a launch's cycles and instructions are its timed part's.
      *ff_blocks_ += first_timed;
      *ff_warp_insts_ += r.warp_instructions;
      *ff_thread_insts_ += r.thread_instructions;
      ff_instructions_left_ -= std::min(ff_instructions_left_, r.warp_instructions);
      r.warp_instructions = r.thread_instructions = r.lane_instructions = 0;
      if (ff_launches_left_) --ff_launches_left_;
      if (first_timed == blocks) ++*ff_launches_;
    }
    if (first_timed == blocks) {
      sim_seconds_ += wall_now() - wall_start_;
      record(std::move(r));
      if (sc_core::sc_is_running()) launch_done_.notify(sc_core::SC_ZERO_TIME);
      return;
    }
    // The budget ran out inside this launch: its remaining blocks are timed, with the code a timing launch runs.
    L.kernel = &kernel;
    L.clock = &clock_;
  }
  place_in_instruction_memory(*launch, kernel);
  running_ = std::move(launch);
  try {
    start_timing(kernel, *running_, first_timed, blocks, regs);
  } catch (...) {
    running_.reset();
    throw;
  }
}

// Where the timing model fetches a kernel's instructions and parameters from
// (an SM whose instruction or constant cache fills from memory reads them
// there): each kernel's code follows the previous one's in instruction memory,
// 8 bytes per instruction, in the order kernels are first launched; its
// parameter buffer is a 4 KB slot of its own (CUDA's parameter limit). Both
// regions lie apart from every device allocation.
void GpuPlatform::place_in_instruction_memory(LaunchState& L, const KernelInfo& k) {
  static constexpr uint64_t kCodeBase = 0x0000E00000000000ull, kParamBase = 0x0000D00000000000ull;
  size_t i = 0;
  while (i < code_layout_.size() && code_layout_[i].first != &k) ++i;
  if (i == code_layout_.size()) {
    code_layout_.push_back({&k, kCodeBase + code_bytes_});
    code_bytes_ += uint64_t(k.prog.size()) * 8;
  }
  L.code_address = code_layout_[i].second;
  L.param_address = kParamBase + uint64_t(i) * 4096;
}

// What the blocks of a launch that are resident at once take in the simulator
// (registers, predicates, local memory and parameter frames of their warps,
// and their shared memory), checked against sim.max_memory_mb with the device
// allocations before any block is built.
void GpuPlatform::check_memory_budget(const KernelInfo& k, const LaunchState& L, uint64_t smem, uint64_t blocks) const {
  const uint64_t per_warp = uint64_t(k.stored_regs()) * 32 * 8 + uint64_t(k.num_preds) * 4 +
                            (uint64_t(k.local_bytes) + k.frame_bytes) * 32;
  const uint64_t per_block = per_warp * L.warps_per_block + smem;
  uint64_t resident = 1;  // the functional model runs one block at a time
  if (timing()) {
    const uint64_t per_sm = sm_params ? std::max<uint64_t>(1, sm_params->max_blocks) : 1;
    resident = std::min<uint64_t>(blocks, per_sm * p_.num_sms);
  }
  const uint64_t have = p_.max_memory > mem_.allocated_bytes() ? p_.max_memory - mem_.allocated_bytes() : 0;
  if (per_block > have || resident > have / std::max<uint64_t>(per_block, 1))
    throw InputError("launch of '" + k.name + "' needs " + std::to_string(per_block) + " bytes of simulator memory per block (" +
                     std::to_string(k.stored_regs()) + " register slots, " + std::to_string(k.local_bytes) +
                     " bytes of local memory per thread) for " + std::to_string(resident) + " resident blocks, over the " +
                     std::to_string(p_.max_memory >> 20) + " MiB budget left after " + std::to_string(mem_.allocated_bytes()) +
                     " bytes of device allocations (sim.max_memory_mb; raise it with --set sim.max_memory_mb=N)");
  if (per_block * resident > host_memory_headroom())
    throw InputError(host_memory_refusal("launch of '" + k.name + "' (" + std::to_string(resident) + " resident blocks of " +
                                             std::to_string(per_block) + " bytes: " + std::to_string(k.local_bytes) +
                                             " bytes of local memory per thread)",
                                         per_block * resident));
}

uint64_t GpuPlatform::run_functional(const KernelInfo& k, LaunchState& L, uint64_t blocks, LaunchResult& r, uint64_t budget) {
  L.clock = nullptr;
  std::unique_ptr<Block> made;  // one block's storage, restarted for each block in turn
  for (uint64_t id = 0; id < blocks; ++id) {
    if (r.warp_instructions >= budget) return id;
    try {
      if (made) made->restart(uint32_t(id), uint32_t(id % p_.num_sms));
      else made = std::make_unique<Block>(k, L, uint32_t(id), uint32_t(id % p_.num_sms));
    } catch (const std::bad_alloc&) {
      throw InputError(host_memory_refusal("a block of kernel '" + k.name + "'", uint64_t(L.warps_per_block) * 32 * k.local_bytes));
    }
    Block& b = *made;
    try {
      run_block_functional(b, L);
    } catch (const RunStopped& e) {
      for (auto& w : b.warps) r.warp_instructions += w.insts.warp;
      throw RunStopped(e.status, std::string(e.what()) + "; " + std::to_string(blocks - id) + " blocks never finished");
    }
    for (auto& w : b.warps) add_instructions(r, w.insts);
  }
  return blocks;
}

double GpuPlatform::run_seconds() const { return run_start_ < 0 ? 0.0 : wall_now() - run_start_; }

uint64_t GpuPlatform::issued_warp_instructions() const {
  uint64_t n = 0;
  for (auto& s : sms) n += s->issued_warp_instructions();
  return n;
}

// l1d.unified_size (GPGPU-Sim's adaptive cache config, shader_core_config::max_cta): the launch's shared memory
// on one SM is its blocks' shared bytes times the blocks an SM holds at once, or fewer where the grid does not
// fill every SM; it takes the smallest carve-out that holds it and each L1D keeps the ways the rest holds.
void GpuPlatform::carve_out_shared_memory(const KernelInfo& k, const LaunchState& L, uint32_t regs) {
  const L1Params& lp = l1s[0]->params();
  const Occupancy o = compute_occupancy(sms[0]->params().occupancy_limits(),
                                        BlockFootprint{L.threads_per_block, regs, usage_->shared});
  const uint64_t grid = uint64_t(L.grid[0]) * L.grid[1] * L.grid[2];
  const uint64_t per_sm = std::min<uint64_t>(o.blocks_per_sm, (grid + p_.num_sms - 1) / p_.num_sms);
  const uint64_t shared = per_sm * usage_->shared;
  const auto fit = std::lower_bound(lp.carveouts.begin(), lp.carveouts.end(), shared);
  if (fit == lp.carveouts.end())
    throw InputError("kernel '" + k.name + "': " + std::to_string(per_sm) + " blocks of " + std::to_string(usage_->shared) +
                     " bytes of shared memory on one SM need " + std::to_string(shared) +
                     " bytes, more than the largest of l1d.carveouts (" + std::to_string(lp.carveouts.back()) + " bytes)");
  for (auto& l1 : l1s) l1->carve_out(*fit);
}

// A block that cannot fit on an empty SM is refused; else every SM takes the
// launch, every mechanism plans it, and the dispatcher sends the first blocks.
void GpuPlatform::start_timing(const KernelInfo& k, LaunchState& L, uint64_t first, uint64_t blocks, uint32_t regs) {
  Sm& sm0 = *sms[0];
  usage_ = std::make_unique<BlockUsage>(sm0.usage_of(L, regs));
  if (!sm0.can_accept(*usage_) && sm0.resident_blocks() == 0) {
    BlockFootprint fp{L.threads_per_block, regs, usage_->shared};
    Occupancy o = compute_occupancy(sm0.params().occupancy_limits(), fp);
    throw InputError("a block of kernel '" + k.name + "' (" + std::to_string(L.threads_per_block) + " threads, " +
                     std::to_string(regs) + " registers per thread, " + std::to_string(usage_->shared) +
                     " bytes of shared memory) does not fit on an SM: " + occupancy_limit_name(o.limit) + " limit");
  }
  for (auto& s : sms) s->set_launch(&L, &clock_);
  for (auto& l1 : l1s)  // no SM holds a thread between launches: each L1D is invalidated (l1d.flush_at_launch)
    if (l1->params().flush_at_launch) l1->invalidate_all();
  if (!l1s.empty() && l1s[0]->params().unified_size) carve_out_shared_memory(k, L, regs);
  const LaunchPlanRequest plan{k, *usage_, sm0.params(), p_.num_sms, L.launch_hint};
  for (auto& m : mechanisms_)
    if (const KernelInfo* v = m->plan_launch(plan)) L.kernel = v;
  for (auto& s : sms) s->decode_issue_classes(L.kernel);
  retired_before_ = InstructionCounts{};
  for (auto& s : sms) retired_before_ += s->retired_instructions();
  issued_before_ = issued_warp_instructions();
  launch_start_cycle_ = uint64_t(sc_core::sc_time_stamp() / period);
  cycles_before_ = cycles_ctr_->value;
  blocks_before_ = blocks_ctr_->value;
  if (interval_sampler_)
    running_sample_ = int64_t(interval_sampler_->begin_launch(k.name, L.block, L.dynamic_smem, launch_start_cycle_,
                                                              issued_before_, first));
  BlockSchedule* schedule = nullptr;
  for (auto& m : mechanisms_)
    if (!schedule) schedule = m->schedule_launch(*L.kernel, L);
  if (schedule && first)
    throw InputError("kernel '" + k.name + "': its blocks are placed by a mechanism's own schedule, which cannot "
                     "start after fast-forwarded blocks (sim.fast_forward)");
  if (schedule) dispatcher->begin_launch(L, *usage_, *schedule);
  else dispatcher->begin_launch(L, *usage_, first, blocks);
  monitor->begin_launch(k.name);
  if (idle) idle->begin_launch();
  run_control->begin_launch();
}

std::vector<std::string> GpuPlatform::check_conservation() {
  if (timing() && !running_ && sc_core::sc_is_running())
    sc_core::sc_start(period * 10000000.0, sc_core::SC_EXIT_ON_STARVATION);  // at most 10M core cycles of draining
  return stats_.unanswered_requests();
}

bool GpuPlatform::in_thread() {
  const sc_core::sc_process_handle h = sc_core::sc_get_current_process_handle();
  return h.valid() && h.proc_kind() == sc_core::SC_THREAD_PROC_;
}

// A fault inside the simulation: the first one is kept and the GPU halts.
void GpuPlatform::fault(const std::string& message) {
  if (fault_.empty()) fault_ = message;
  end_launch("fault");
}

void GpuPlatform::stop_launch(RunStop why) {
  end_launch(why == RunStop::Limit ? "limit" : why == RunStop::Interrupted ? "interrupted" : "deadlock");
}

// The launch ends at the close of this evaluation phase; a launch that did not
// complete halts the SMs' clock, so nothing issues after it.
void GpuPlatform::end_launch(const std::string& status) {
  if (!running_ || ending_requested_) return;
  ending_requested_ = true;
  end_status_ = status;
  if (!status.empty()) core_clock->halt();
  ending_->request();
}

// Why a launch stopped before its end (a run limit, the watchdog, an interrupt) and the state it left: the
// blocks that never finished, each mechanism's word, the requests still on their way and the resident warps.
std::string GpuPlatform::describe_stop(const KernelInfo& k) const {
  const RunStop why = run_control->stopped();
  std::ostringstream os;
  if (why == RunStop::Watchdog || why == RunStop::Starved)
    os << "deadlock in kernel '" << k.name << "': " << run_control->reason();
  else
    os << "kernel '" << k.name << "' stopped: " << run_control->reason();
  os << "; " << (dispatcher->blocks_total() - dispatcher->blocks_retired()) << " blocks never finished";
  for (auto& m : mechanisms_) {
    const std::string d = m->describe_stop();
    if (!d.empty()) os << "; " << m->name() << ": " << d;
  }
  const std::vector<std::string> unanswered = stats_.unanswered_requests();
  if (!unanswered.empty()) {
    // A deadlock's unanswered requests may be what it waits for; a limit or an interrupt stopped requests on
    // their way, which would have been answered.
    const bool deadlock = why == RunStop::Watchdog || why == RunStop::Starved;
    os << (deadlock ? "; memory blocks holding requests without a response:" : "; requests in flight at the stop:");
    for (const std::string& u : unanswered) os << " " << u << ";";
  }
  os << "; resident warps:";
  for (auto& s : sms) s->describe_warps(os, why == RunStop::Watchdog);
  return os.str();
}

// The launch's figures, in the update phase of the instant it ended.
void GpuPlatform::finish_launch() {
  ending_requested_ = false;
  const KernelInfo& k = *running_->kernel;
  LaunchResult r;
  r.kernel = k.name;
  if (end_status_.empty()) {
    const uint64_t last = dispatcher->last_retire_cycle();
    r.cycles = last - launch_start_cycle_ + 1;
    for (auto& d : drams) d->end_window(edge_time(period, last + 1));
    InstructionCounts retired;
    for (auto& s : sms) retired += s->retired_instructions();
    add_instructions(r, retired - retired_before_);
  } else {  // stopped early: its partial figures, with how it ended
    r.status = end_status_;
    r.message = end_status_ == "fault" ? fault_ : !stop_message_.empty() ? stop_message_ : describe_stop(k);
    r.cycles = cycle_now(period) - launch_start_cycle_ + 1;
    r.warp_instructions = issued_warp_instructions() - issued_before_;
    r.thread_instructions = 0;  // per-thread counts are kept with retired blocks only
  }
  sim_seconds_ += wall_now() - wall_start_;
  monitor->end_launch(r.cycles);  // the samples' kernel time: the recorded launches'
  if (running_sample_ >= 0 && interval_sampler_) {  // timed whole, or in intervals with blocks run functionally
    const uint32_t i = uint32_t(running_sample_);
    if (end_status_.empty()) interval_sampler_->end_launch(r.cycles);
    r.sampling = interval_sampler_->estimated(i) ? "estimated" : "timed";
    r.sample_index = running_sample_;
    if (interval_sampler_->estimated(i)) ++*estimated_launches_;
    running_sample_ = -1;
  } else if (running_sample_ >= 0) {  // a launch sampling chose to time: a measurement, or a warm-up (estimated)
    r.sampling = running_warm_up_ ? "warm_up" : "timed";
    r.sample_index = running_sample_;
    if (end_status_.empty()) sampler_->measured(uint32_t(running_sample_), r.cycles, r.warp_instructions);
    running_sample_ = -1;
  }
  if (!end_status_.empty())
    for (auto& s : sms) s->account_resident_warps();  // the warps a stopped launch leaves, for the occupancy
  record(std::move(r));
  running_.reset();
  launch_done_.notify(sc_core::SC_ZERO_TIME);
}

std::unique_ptr<SamplingReport> GpuPlatform::sampling_report() const {
  if (interval_sampler_) return std::make_unique<SamplingReport>(interval_sampler_->report());
  return sampler_ ? std::make_unique<SamplingReport>(sampler_->report()) : nullptr;
}

// Interval sampling: when the interval open at this edge is over, the next blocks in block order run on the
// functional executor at once, with their lines into the caches, until they executed the warp instructions
// the sampler asks for (docs/sampling.md); the SMs keep their resident blocks. A fault or a stop inside them
// ends the launch as it would a timed block's.
uint64_t GpuPlatform::run_between_intervals(uint64_t next, uint64_t left) {
  const uint64_t now = cycle_now(period), issued = issued_warp_instructions();
  const uint64_t want = interval_sampler_->at_edge(now, issued, dispatcher->blocks_retired());
  if (!want || !running_) return 0;
  // The launch's last blocks stay timed (interval_sampler.hpp): those the SMs retire in the longest block
  // life so far at the fastest pace so far, and at least as many as are resident.
  uint64_t resident = 0, life = 0;
  for (auto& s : sms) {
    resident += s->resident_blocks();
    life = std::max(life, s->longest_block_life());
  }
  const uint64_t reserve = std::max(resident, uint64_t(std::ceil(interval_sampler_->retire_rate() * double(life))));
  if (left <= reserve) return 0;
  left -= reserve;
  LaunchState& L = *running_;
  const KernelInfo* k = running_kernel_;
  for (auto& m : mechanisms_)
    if (const KernelInfo* v = m->functional_version(*k)) k = v;
  L.watch = functional_control.get();
  if (warmer_) {
    warmer_->begin_launch(dispatcher.get(), p_.num_sms, icn && !l2s.empty() ? &icn->map() : nullptr, next);
    L.accesses = warmer_.get();
  }
  const uint64_t* clock = L.clock;
  L.clock = &clock_;  // %clock of a block run functionally
  const auto restore = [&] {
    L.watch = nullptr;
    L.accesses = nullptr;
    L.clock = clock;
  };
  uint64_t n = 0;
  InstructionCounts ran;
  std::unique_ptr<Block> b;  // one block's storage, restarted for each block in turn
  try {
    while (n < left && ran.warp < want) {
      const int at = dispatcher->sm_of_skipped(n, p_.num_sms);
      const uint32_t id = uint32_t(next + n), sm = at >= 0 ? uint32_t(at) : uint32_t((next + n) % p_.num_sms);
      if (b) b->restart(id, sm);
      else b = std::make_unique<Block>(*k, L, id, sm);
      run_block_functional(*b, L);
      for (auto& w : b->warps) ran += w.insts;
      ++n;
    }
  } catch (const RunStopped& e) {
    restore();
    stop_message_ = std::string(e.what()) + "; in a block run functionally between timed intervals (sim.sampling: intervals)";
    end_launch(e.status);
    return 0;
  } catch (const RunError& e) {
    restore();
    fault(e.what());
    return 0;
  }
  restore();
  *estimated_blocks_ += n;
  *estimated_warp_insts_ += ran.warp;
  *estimated_thread_insts_ += ran.thread;
  interval_sampler_->fast_forwarded(n, ran.warp, now, issued, dispatcher->blocks_retired() + n);
  return n;
}

// A launch that ended: the run's totals and its share of every counter.
void GpuPlatform::record(LaunchResult r) {
  *warp_insts_ += r.warp_instructions;
  *thread_insts_ += r.thread_instructions;
  *lane_insts_ += r.lane_instructions;
  *cycles_ctr_ += r.cycles;
  ++*launches_ctr_;
  *blocks_ctr_ += blocks_;
  r.counters = stats_.delta_since(counters_before_);
  launches_.push_back(std::move(r));
}

}  // namespace warptlm
