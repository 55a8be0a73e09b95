// spu_matmul: the SPU report's tiled matrix multiply (seed 003 sec. 4), C = A B
// with A m x k and B k x n (floats, row-major), T x T tiles, one block of T x T
// threads per C tile, on the mesh: A's tiles flow east from the west interface
// units, B's tiles flow south from the north ones, systolically. Block (I, J)
// (row I = blockIdx.y, column J = blockIdx.x) takes its q-th pair A(I, q),
// B(q, J) from its west and north CBs at step 1 + I + J + q, forwards both
// (east and south) in the same step, and accumulates its C tile; after the
// last pair it stores the tile to C with st.global (the report leaves how C
// leaves open: spec 003 sec. 3.4). West IU I stores A(I, q) at step I + q and
// north IU J stores B(q, J) at step J + q (the skew that makes the pairs
// meet); south and east IUs receive the tiles that leave the grid and drop
// them. Virtual IUs spill and restore across passes (spu::run_virtual_iu).
// Every unit performs gridDim.x + gridDim.y + k / T - 1 block synchronisations,
// the schedule's length; with `leave_early` (the mesh's
// spu.skip_trailing_syncs, the report's improvement of sec. 5) a unit leaves
// after the synchronisation that follows its last CB access instead: block
// (I, J) after I + J + k / T + 1, a loading IU after its id + k / T, an IU
// that only receives at once; the virtual IUs then lay their spill slots out
// by the schedule's length.
// Each unit unleashes the parked virtual IUs one step before it first writes
// a CB (the report's restart, sec. 3.3). A CB holds one tile (T T floats).
#include "../spu_common/spu.cuh"

extern "C" __global__ void spu_matmul(const float* a, const float* b, float* c, unsigned m, unsigned n, unsigned k,
                                      unsigned* g_cb, unsigned mesh_rows, unsigned mesh_cols, unsigned leave_early) {
  const unsigned t = blockDim.x;  // tile edge (blockDim.x == blockDim.y)
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned e = 4 * (ty * t + tx);  // this thread's element of a tile in a CB, in bytes
  const unsigned kt = k / t;
  const unsigned steps = gridDim.x + gridDim.y + kt - 1;
  if (spu::is_viu()) {
    spu::run_virtual_iu(g_cb, t * t, mesh_rows, mesh_cols, leave_early ? steps : 0);
    return;
  }
  if (spu::is_iu()) {
    const unsigned dir = spu::iu_dir(), id = spu::iu_id();
    const bool loads = dir == spu::kWest || dir == spu::kNorth;
    const unsigned end = !leave_early ? steps : loads ? id + kt : 0;
    for (unsigned s = 0; s < end; ++s) {
      const unsigned q = s - id;  // the tile this loader sends now (wraps below zero)
      if (dir == spu::kWest && q < kt) {
        if (!spu::restart()) spu::unleash_vius();
        spu::store_east(e, a[(id * t + ty) * k + q * t + tx]);
      }
      if (dir == spu::kNorth && q < kt) {
        if (!spu::restart()) spu::unleash_vius();
        spu::store_south(e, b[(q * t + ty) * n + id * t + tx]);
      }
      spu::block_sync();
    }
    return;
  }
  const unsigned i = blockIdx.y, j = blockIdx.x;
  float acc = 0.0f;
  const unsigned end = leave_early ? i + j + kt + 1 : steps;
  for (unsigned s = 0; s < end; ++s) {
    const unsigned q = s - 1 - i - j;
    if (s == i + j && !spu::restart()) spu::unleash_vius();
    if (q < kt) {
      // Forward this thread's elements of both tiles, then multiply the tiles.
      spu::store_east(e, spu::load_west(e));
      spu::store_south(e, spu::load_north(e));
      for (unsigned p = 0; p < t; ++p) acc += spu::load_west(4 * (ty * t + p)) * spu::load_north(4 * (p * t + tx));
    }
    spu::block_sync();
  }
  c[(i * t + ty) * n + j * t + tx] = acc;
}
