#include "gpu/gpu.hpp"

#include <sstream>

#include "common/errors.hpp"
#include "isa/simt.hpp"

namespace warptlm {

void GpuParams::declare(ParamTable& t) {
  t.enum_param("sim.mode", "functional", {"functional"},
               "functional: run kernels on the SIMT executor with no timing model (the SM timing core adds 'timing')");
  t.int_param("sim.seed", 1, 0, 4294967295ll, "seed of workload inputs");
  t.int_param("gpu.num_sms", 15, 1, 1024, "streaming multiprocessors");
  t.int_param("gpu.max_threads_per_block", 1024, 32, 4096, "largest thread block a launch may request");
  t.int_param("gpu.max_shared_per_block", 49152, 0, 1 << 20, "bytes of shared memory (static + dynamic) one block may use");
}

GpuParams GpuParams::from(const Config& c) {
  GpuParams p;
  p.mode = c.get_string("sim.mode");
  p.num_sms = uint32_t(c.get_int("gpu.num_sms"));
  p.max_threads_per_block = uint32_t(c.get_int("gpu.max_threads_per_block"));
  p.max_shared_per_block = uint32_t(c.get_int("gpu.max_shared_per_block"));
  return p;
}

Gpu::Gpu(const Config& cfg, StatsRegistry& stats) : p_(GpuParams::from(cfg)), stats_(stats) {
  warp_insts_ = &stats_.counter("gpu.warp_instructions", "gpu.warp_instructions", "warp instructions issued");
  thread_insts_ = &stats_.counter("gpu.thread_instructions", "gpu.thread_instructions", "thread instructions (active lanes)");
  launches_ctr_ = &stats_.counter("gpu.launches", "gpu.launches", "kernel launches");
  blocks_ctr_ = &stats_.counter("gpu.blocks", "gpu.blocks", "thread blocks run");
}

Gpu::~Gpu() = default;

void Gpu::load_ptx(const std::string& text, const std::string& origin) {
  modules_.push_back(std::make_unique<Module>(text, origin, mem_));
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
  LaunchState L;
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

  LaunchResult r;
  r.kernel = k->name;
  const StatsRegistry::Snapshot before = stats_.snapshot();
  for (uint64_t id = 0; id < blocks; ++id) {
    Block b(*k, L, uint32_t(id), uint32_t(id % p_.num_sms));
    run_block_functional(b, L);
    for (auto& w : b.warps) {
      r.warp_instructions += w.warp_insts;
      r.thread_instructions += w.thread_insts;
    }
  }
  *warp_insts_ += r.warp_instructions;
  *thread_insts_ += r.thread_instructions;
  ++*launches_ctr_;
  *blocks_ctr_ += blocks;
  r.counters = StatsRegistry::delta(before, stats_.snapshot());
  launches_.push_back(r);
  return r;
}

}  // namespace warptlm
