// ss_fdtd3d: one radius-4 finite-difference sweep of a 3-D volume (25-point
// star stencil: centre plus 4 neighbours in each of the six directions), the
// scratchpad-sharing study's FDTD3d (CUDA sample FDTD3d,
// FiniteDifferencesKernel: one shared array tile[16 + 8][32 + 8] of floats,
// 3840 B per 32x4-thread block). A block owns a 32-wide x 16-tall column of
// the volume and marches it along z; each thread owns 4 points of it (rows
// ty, ty + 4, ty + 8, ty + 12), each with its z neighbours in registers
// (behind[4], current, infront[4]). The phases follow the public kernel:
//   before the march: each point's 3 planes behind, its current plane and
//   4 planes in front are loaded into registers;
//   per z plane:
//   1. the register window advances one plane and the next plane in front is
//      loaded from global memory; barrier (the previous plane's tile reads
//      are done);
//   2. the threads with ty < 4 copy the 4 halo rows above and below the tile
//      from global memory into the tile, the threads with tx < 4 the 4 halo
//      columns left and right of each of their rows, and every thread stores
//      its current values (registers) into the tile's interior; barrier;
//   3. each thread computes its 4 points from the tile (x and y neighbours)
//      and its registers (z neighbours) and stores them to global memory.
// The last shared access is in the last plane's step 3. The input is padded
// by 4 on every side: (nx+8) x (ny+8) x (nz+8) floats; nx must be a multiple
// of 32 and ny of 16.
#define R 4
#define BX 32
#define BY 4
#define TY 16  // output rows per block
#define TROWS (TY + 2 * R)
#define TCOLS (BX + 2 * R)
#define PTS (TY / BY)  // points per thread

extern "C" __global__ void ss_fdtd3d(const float* __restrict__ in, float* __restrict__ out, int nx, int ny, int nz,
                                     float c0, float c1, float c2, float c3, float c4) {
  __shared__ float tile[TROWS][TCOLS];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int px = nx + 2 * R, py = ny + 2 * R;  // padded extents
  const size_t pstride = (size_t)px * py;
  const int gx = blockIdx.x * BX + tx;   // output x of this thread's points
  const int gy = blockIdx.y * TY + ty;   // output y of its first point
  const float c[R + 1] = {c0, c1, c2, c3, c4};
  // Offset of point k inside a padded plane.
  size_t pt[PTS];
#pragma unroll
  for (int k = 0; k < PTS; ++k) pt[k] = (size_t)(gy + BY * k + R) * px + gx + R;

  float behind[PTS][R], current[PTS], infront[PTS][R];
  size_t zin = 0;  // plane offset of the next load
#pragma unroll
  for (int i = R - 2; i >= 0; --i) {
#pragma unroll
    for (int k = 0; k < PTS; ++k) behind[k][i] = in[zin + pt[k]];
    zin += pstride;
  }
#pragma unroll
  for (int k = 0; k < PTS; ++k) current[k] = in[zin + pt[k]];
  size_t zcur = zin;  // plane offset of `current`
  zin += pstride;
#pragma unroll
  for (int i = 0; i < R; ++i) {
#pragma unroll
    for (int k = 0; k < PTS; ++k) infront[k][i] = in[zin + pt[k]];
    zin += pstride;
  }

  for (int z = 0; z < nz; ++z) {
#pragma unroll
    for (int k = 0; k < PTS; ++k) {
#pragma unroll
      for (int i = R - 1; i > 0; --i) behind[k][i] = behind[k][i - 1];
      behind[k][0] = current[k];
      current[k] = infront[k][0];
#pragma unroll
      for (int i = 0; i < R - 1; ++i) infront[k][i] = infront[k][i + 1];
      infront[k][R - 1] = in[zin + pt[k]];
    }
    zin += pstride;
    zcur += pstride;
    __syncthreads();

    // Halo rows above and below the tile (tile rows ty and ty + TY + R).
    if (ty < R) {
      tile[ty][tx + R] = in[zcur + pt[0] - (size_t)R * px];
      tile[ty + TY + R][tx + R] = in[zcur + pt[0] + (size_t)TY * px];
    }
    // Halo columns left and right of each of this thread's rows.
    if (tx < R) {
#pragma unroll
      for (int k = 0; k < PTS; ++k) {
        tile[ty + BY * k + R][tx] = in[zcur + pt[k] - R];
        tile[ty + BY * k + R][tx + BX + R] = in[zcur + pt[k] + BX];
      }
    }
#pragma unroll
    for (int k = 0; k < PTS; ++k) tile[ty + BY * k + R][tx + R] = current[k];
    __syncthreads();

#pragma unroll
    for (int k = 0; k < PTS; ++k) {
      const int ly = ty + BY * k + R, lx = tx + R;
      float v = c[0] * current[k];
#pragma unroll
      for (int r = 1; r <= R; ++r)
        v += c[r] * (infront[k][r - 1] + behind[k][r - 1] + tile[ly - r][lx] + tile[ly + r][lx] + tile[ly][lx - r] +
                     tile[ly][lx + r]);
      out[(size_t)z * nx * ny + (size_t)(gy + BY * k) * nx + gx] = v;
    }
  }
}
