// ss_fdtd3d: one radius-4 finite-difference sweep of a 3-D volume (25-point
// star stencil: centre plus 4 neighbours in each of the six directions) (the
// scratchpad-sharing study's FDTD3d: one 24x40 float array, 3840 B of shared
// memory per 128-thread block). A 32x4-thread block owns a 32-wide x 16-tall
// column of the volume and marches it along z: each thread computes 4 points
// (rows ty, ty+4, ty+8, ty+12) and keeps their z neighbours in registers (a
// 9-deep window per point, shifted each step); per z plane the block stages
// the plane's 32x16 tile plus a 4-point halo on every side in shared memory
// (two barriers per plane), so the x and y neighbours come from shared memory.
// The input is padded by 4 on every side: (nx+8) x (ny+8) x (nz+8) floats;
// nx must be a multiple of 32 and ny of 16.
#define R 4
#define BX 32
#define BY 4
#define TY 16  // output rows per block
#define TROWS (TY + 2 * R)
#define TCOLS (BX + 2 * R)

extern "C" __global__ void ss_fdtd3d(const float* __restrict__ in, float* __restrict__ out, int nx, int ny, int nz,
                                     float c0, float c1, float c2, float c3, float c4) {
  __shared__ float plane[TROWS][TCOLS];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * BX + tx;
  const int px = nx + 2 * R, py = ny + 2 * R;  // padded extents
  const size_t pstride = (size_t)px * py;
  const int x0 = blockIdx.x * BX, y0 = blockIdx.y * TY;  // tile origin, padded coordinates of the halo corner
  const float c[R + 1] = {c0, c1, c2, c3, c4};

  // z window for each of the 4 points: padded planes z .. z + 2R.
  float win[4][2 * R + 1];
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const size_t col = (size_t)(y0 + R + ty + BY * k) * px + x0 + R + tx;
#pragma unroll
    for (int d = 1; d <= 2 * R; ++d) win[k][d] = in[(size_t)(d - 1) * pstride + col];
  }

  for (int z = 0; z < nz; ++z) {
    const size_t zc = (size_t)(z + R) * pstride;  // the centre plane
#pragma unroll
    for (int k = 0; k < 4; ++k) {
#pragma unroll
      for (int d = 0; d < 2 * R; ++d) win[k][d] = win[k][d + 1];
      win[k][2 * R] = in[zc + R * pstride + (size_t)(y0 + R + ty + BY * k) * px + x0 + R + tx];
    }
    for (int e = tid; e < TROWS * TCOLS; e += BX * BY) {
      const int r = e / TCOLS, q = e - r * TCOLS;
      plane[r][q] = in[zc + (size_t)(y0 + r) * px + x0 + q];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const int ly = ty + BY * k + R, lx = tx + R;
      float v = c[0] * win[k][R];
#pragma unroll
      for (int r = 1; r <= R; ++r)
        v += c[r] * (plane[ly][lx - r] + plane[ly][lx + r] + plane[ly - r][lx] + plane[ly + r][lx] + win[k][R - r] +
                     win[k][R + r]);
      out[(size_t)z * nx * ny + (size_t)(y0 + ty + BY * k) * nx + blockIdx.x * BX + tx] = v;
    }
    __syncthreads();
  }
}
