// The Stencil Processing Unit platform (seed 003): an sc_module ("spu") built
// from the same SM and memory blocks as the GPU platform (platforms/gpu/), with
// R x C SMs and their 2 (R + C) interface units as its units (SMs 0 .. RC - 1
// row-major, then the north, south, west and east IUs, the mesh's numbering:
// models/cbmesh/mesh_geometry.hpp), and the mesh (models/cbmesh/, the spu
// mechanism) running every launch: one block per SM, pass by pass, data handed
// between neighbours through the communication buffers. The host drives it
// through the same host socket and runtime as the GPU (warptlm run --platform
// spu). In timing mode the mesh's own blocks (models/cbmesh/cb_mesh.hpp: the CB
// ports on the SMs' cb_sockets, the SPU-wide barrier, the pass dispatcher) sit
// beside the SMs; in functional mode the mesh's functional model runs.
#pragma once
#include "common/config.hpp"
#include "common/stats.hpp"
#include "gpu/gpu_platform.hpp"

namespace warptlm {

class SpuPlatform : public GpuPlatform {
 public:
  // Makes `cfg` an SPU's: spu.enabled, and gpu.num_sms = R C + 2 (R + C) from
  // spu.rows and spu.cols (R C when the IUs are DMA engines, spu.iu_model:
  // dma). `origin` names who asked (for messages).
  static void configure(Config& cfg, const std::string& origin = "--platform spu");
  // `cfg` must be configured (configure()); the module is usually named "spu".
  SpuPlatform(sc_core::sc_module_name name, const Config& cfg, StatsRegistry& stats);
};

}  // namespace warptlm
