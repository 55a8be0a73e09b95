// A wavefront over a 2-D grid of blocks on the SPU mesh (seed 003), for the
// mesh's functional tests: block (I, J) computes, one word per thread,
//   D(I, J) = D(I - 1, J) + D(I, J - 1) + (I * gridDim.x + J)
// with D(-1, J) = top[J] and D(I, -1) = left[I]; D flows south and east
// through the CBs. North and west IUs load top and left (IU J stores at step J,
// so block (I, J) computes at step I + J + 1); south and east IUs store the
// last row's and column's D to bottom and right; virtual IUs spill and restore
// across passes (spu::run_virtual_iu). Every unit performs gridDim.x +
// gridDim.y + 1 block synchronisations. Each unit unleashes the parked virtual
// IUs one step before it first writes a CB (the report's restart, sec. 3.3).
#include "../../workloads/spu_common/spu.cuh"

extern "C" __global__ void mesh_wave(const unsigned* top, const unsigned* left, unsigned* out, unsigned* bottom,
                                     unsigned* right, unsigned* g_cb, unsigned mesh_rows, unsigned mesh_cols) {
  const unsigned t = threadIdx.x, n = blockDim.x;
  const unsigned steps = gridDim.x + gridDim.y + 1;
  if (spu::is_viu()) {
    spu::run_virtual_iu(g_cb, n, mesh_rows, mesh_cols);
    return;
  }
  if (spu::is_iu()) {
    const unsigned dir = spu::iu_dir(), id = spu::iu_id();
    for (unsigned s = 0; s < steps; ++s) {
      if ((dir == spu::kNorth || dir == spu::kWest) && s == id && !spu::restart()) spu::unleash_vius();
      if (dir == spu::kNorth && s == id) spu::store_south_u32(4 * t, top[id * n + t]);
      if (dir == spu::kWest && s == id) spu::store_east_u32(4 * t, left[id * n + t]);
      if (dir == spu::kSouth && s == gridDim.y + id + 1) bottom[id * n + t] = spu::load_north_u32(4 * t);
      if (dir == spu::kEast && s == gridDim.x + id + 1) right[id * n + t] = spu::load_west_u32(4 * t);
      spu::block_sync();
    }
    return;
  }
  const unsigned i = blockIdx.y, j = blockIdx.x;
  for (unsigned s = 0; s < steps; ++s) {
    if (s == i + j && !spu::restart()) spu::unleash_vius();
    if (s == i + j + 1) {
      const unsigned d = spu::load_north_u32(4 * t) + spu::load_west_u32(4 * t) + i * gridDim.x + j;
      spu::store_south_u32(4 * t, d);
      spu::store_east_u32(4 * t, d);
      out[(i * gridDim.x + j) * n + t] = d;
    }
    spu::block_sync();
  }
}
