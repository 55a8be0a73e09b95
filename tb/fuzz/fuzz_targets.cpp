#include "fuzz_targets.hpp"

#include <string>

#include "common/config.hpp"
#include "common/errors.hpp"
#include "gpu/gpu_platform.hpp"
#include "isa/memory.hpp"
#include "isa/module.hpp"
#include "isa/passes/passes.hpp"
#include "run_file.hpp"

namespace warptlm {

namespace {
void declare_params_once() {
  static const bool declared = (GpuParams::declare(ParamTable::global()), true);
  (void)declared;
}
}  // namespace

bool fuzz_ptx(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  GlobalMemory mem;
  mem.set_budget(64ull << 20);  // module-scope variables: a bounded device memory
  try {
    Module as_written(text, "fuzz.ptx", mem);
    Module with_passes(optimize_scratchpad_sharing(text, "fuzz.ptx", 0.5), "fuzz.ptx (passes)", mem, &as_written);
    return true;
  } catch (const InputError&) {
  }
  // The SPU mesh's dialect (CB spaces, block synchronisation, unit registers) is a superset.
  try {
    PtxDialect mesh;
    mesh.mesh = true;
    Module as_written(text, "fuzz.ptx", mem, nullptr, mesh);
    return true;
  } catch (const InputError&) {
    return false;
  }
}

bool fuzz_config(const uint8_t* data, size_t size) {
  declare_params_once();
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    Config cfg;
    cfg.merge_text(text, "fuzz.yaml");
    GpuPlatform::check_config(cfg);
    (void)cfg.resolved_yaml();
    return true;
  } catch (const InputError&) {
    return false;
  }
}

bool fuzz_run_file(const uint8_t* data, size_t size) {
  declare_params_once();
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string origin = "/nonexistent-warptlm-fuzz/run.yaml";
  try {
    RunOptions opt;
    const RunFile rf = read_run_file(text, origin, opt);
    Config cfg;
    cfg.merge_text(text, origin, kRunKeys);
    for (const auto& s : rf.sets) cfg.set(s.key, s.value, origin + ":" + std::to_string(s.line));
    GpuPlatform::check_config(cfg);
    if (rf.has_kernel) {
      const ByoKernel k = read_byo_kernel(origin, rf.root);
      for (const ByoBuffer& b : k.buffers)
        if (b.count <= 65536) (void)initial_bytes(k, b);
    }
    return true;
  } catch (const InputError&) {
    return false;
  }
}

}  // namespace warptlm
