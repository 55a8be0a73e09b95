// spu_jacobi: one sweep of the 5-point Jacobi stencil of jacobi2d,
//   out[y][x] = 0.2 (c + north + south + west + east), boundary points copied,
// on the SPU mesh (seed 003), the halos passing through the CBs. Block (I, J)
// of T x T threads (row I = blockIdx.y) reads its own T x T input tile from
// global memory. A block can receive only from its north and west neighbours
// (sec. 2.3), so it computes the interior points of its tile shifted one point
// north-west (rows I T - 1 .. I T + T - 2, columns likewise), which need two
// rows and two columns of halo from the north and west and a 2 x 2 corner from
// the north-west, and no data from the south or east:
//   step 0: store the tile's last two columns east;
//   step 1: read them from the west CB; store the tile's last two rows south,
//           each led by the two west-halo values of that row (the corner the
//           block to the south needs);
//   step 2: read the north halo (2 x (T + 2)), compute, store to out.
// Each unit performs two block synchronisations; with `leave_early` (the
// mesh's spu.skip_trailing_syncs, the report's improvement of sec. 5) the real
// interface units, which never touch a CB, leave at once. The interface units on the
// grid's border send nothing (the halo beyond the grid is never used: the
// points next to the border are boundary points); virtual IUs carry the halos
// across pass boundaries (spu::run_virtual_iu). Boundary points are copied by
// the block that holds them. A CB holds at least 2 (T + 2) floats, and a
// multiple of the block's threads (the virtual IUs' split).
#include "../spu_common/spu.cuh"

#define TMAX 16

extern "C" __global__ void spu_jacobi(const float* in, float* out, unsigned nx, unsigned ny, unsigned* g_cb,
                                      unsigned cb_words, unsigned mesh_rows, unsigned mesh_cols, unsigned leave_early) {
  // s[r][c] holds input (y0 - 2 + r, x0 - 2 + c): two rows and columns of halo, then the tile.
  __shared__ float s[TMAX + 2][TMAX + 2];
  const unsigned t = blockDim.x;  // tile edge (blockDim.x == blockDim.y <= TMAX)
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  if (spu::is_viu()) {
    spu::run_virtual_iu(g_cb, cb_words, mesh_rows, mesh_cols, leave_early ? 2 : 0);
    return;
  }
  if (spu::is_iu()) {
    if (!leave_early) {
      spu::block_sync();
      spu::block_sync();
    }
    return;
  }
  const unsigned y0 = blockIdx.y * t, x0 = blockIdx.x * t;
  const unsigned y = y0 + ty, x = x0 + tx;
  const float v = in[y * nx + x];
  s[ty + 2][tx + 2] = v;
  if (!spu::restart()) spu::unleash_vius();
  // step 0: the last two columns, east.
  if (tx >= t - 2) spu::store_east(4 * (ty * 2 + tx - (t - 2)), v);
  spu::block_sync();
  // step 1: the west halo in; the last two rows (led by their west halo) south.
  if (tx < 2) s[ty + 2][tx] = spu::load_west(4 * (ty * 2 + tx));
  __syncthreads();
  if (ty >= t - 2) {
    const unsigned h = ty - (t - 2);
    spu::store_south(4 * (h * (t + 2) + tx + 2), s[ty + 2][tx + 2]);
    if (tx < 2) spu::store_south(4 * (h * (t + 2) + tx), s[ty + 2][tx]);
  }
  spu::block_sync();
  // step 2: the north halo (with the north-west corner) in; compute.
  if (ty < 2) {
    s[ty][tx + 2] = spu::load_north(4 * (ty * (t + 2) + tx + 2));
    if (tx < 2) s[ty][tx] = spu::load_north(4 * (ty * (t + 2) + tx));
  }
  __syncthreads();
  if (y == 0 || x == 0 || y == ny - 1 || x == nx - 1) out[y * nx + x] = v;
  // This thread's output point (y - 1, x - 1), shifted north-west; interior when y, x >= 2
  // (and y - 1 <= ny - 2 always holds).
  if (y >= 2 && x >= 2) {
    const unsigned oy = y - 1, ox = x - 1;
    const float sum = s[ty + 1][tx + 1] + s[ty][tx + 1] + s[ty + 2][tx + 1] + s[ty + 1][tx] + s[ty + 1][tx + 2];
    out[oy * nx + ox] = 0.2f * sum;
  }
}
