// The host side of an SPU workload: the mesh's shape, asked of the device
// (Device::attribute), and the size of the spill buffer g_CB its virtual IUs
// use (spu.cuh's run_virtual_iu; models/cbmesh/spill_layout.hpp).
#pragma once
#include <cstdint>

#include "runtime/device.hpp"
#include "workloads/util.hpp"

namespace warptlm {
namespace wl {

struct MeshShape {
  uint32_t rows = 0, cols = 0, cb_words = 0;  // spu.rows, spu.cols, spu.cb_bytes / 4
  uint32_t leave_early = 0;                    // spu.skip_trailing_syncs: a unit may leave a pass early

  static MeshShape of(Device& dev) {
    return {uint32_t(dev.attribute("spu.rows")), uint32_t(dev.attribute("spu.cols")),
            uint32_t(dev.attribute("spu.cb_bytes") / 4), uint32_t(dev.attribute("spu.skip_trailing_syncs"))};
  }
  // Words of g_CB for a gx x gy grid whose passes perform `syncs` block
  // synchronisations each, the VIUs moving CBs of `cb_words` words: every pass
  // owns one slot per synchronisation of (rows + cols) CBs.
  uint64_t spill_words(uint32_t gx, uint32_t gy, uint32_t syncs, uint32_t cb_words) const {
    const uint64_t passes = uint64_t(ceil_div(gx, cols)) * ceil_div(gy, rows);
    return passes * syncs * (rows + cols) * cb_words;
  }
};

}  // namespace wl
}  // namespace warptlm
