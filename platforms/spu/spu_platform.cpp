#include "spu/spu_platform.hpp"

#include "common/errors.hpp"

namespace warptlm {

void SpuPlatform::configure(Config& cfg, const std::string& origin) {
  cfg.set("spu.enabled", "true", origin);
  const int64_t rows = cfg.get_int("spu.rows"), cols = cfg.get_int("spu.cols");
  const bool dma = cfg.get_string("spu.iu_model") == "dma";  // the IUs are DMA engines, not SMs
  cfg.set("gpu.num_sms", std::to_string(rows * cols + (dma ? 0 : 2 * (rows + cols))), origin);
}

SpuPlatform::SpuPlatform(sc_core::sc_module_name name, const Config& cfg, StatsRegistry& stats)
    : GpuPlatform(name, cfg, stats) {
  if (!mechanism("spu"))
    throw InputError(Place{"", 0, "spu.enabled"}, "the spu platform needs the mesh: configure the config with "
                                                  "SpuPlatform::configure (warptlm run --platform spu does)");
}

}  // namespace warptlm
