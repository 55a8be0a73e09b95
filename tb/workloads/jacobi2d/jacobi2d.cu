// jacobi2d: one sweep of a 5-point Jacobi stencil on an ny x nx float grid,
//   out[y][x] = 0.2 * (c + north + south + west + east)
// with fixed (copied) boundary values. A 16x16 block stages its points plus a
// one-point halo in shared memory: edge threads load the halo (divergent
// loads), then every interior point reads its 5 neighbours from the tile.
// The host launches it repeatedly, swapping the in and out buffers.
#define BX 16
#define BY 16

extern "C" __global__ void jacobi_step(const float* __restrict__ in, float* __restrict__ out,
                                       int nx, int ny) {
  __shared__ float tile[BY + 2][BX + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * BX + tx;
  const int y = blockIdx.y * BY + ty;
  const bool inside = x < nx && y < ny;
  tile[ty + 1][tx + 1] = inside ? in[y * nx + x] : 0.0f;
  if (tx == 0) tile[ty + 1][0] = (x > 0 && y < ny) ? in[y * nx + x - 1] : 0.0f;
  if (tx == BX - 1) tile[ty + 1][BX + 1] = (x + 1 < nx && y < ny) ? in[y * nx + x + 1] : 0.0f;
  if (ty == 0) tile[0][tx + 1] = (y > 0 && x < nx) ? in[(y - 1) * nx + x] : 0.0f;
  if (ty == BY - 1) tile[BY + 1][tx + 1] = (y + 1 < ny && x < nx) ? in[(y + 1) * nx + x] : 0.0f;
  __syncthreads();
  if (!inside) return;
  float v = tile[ty + 1][tx + 1];
  if (x > 0 && y > 0 && x < nx - 1 && y < ny - 1) {
    const float sum = tile[ty + 1][tx + 1] + tile[ty][tx + 1] + tile[ty + 2][tx + 1] +
                      tile[ty + 1][tx] + tile[ty + 1][tx + 2];
    v = 0.2f * sum;
  }
  out[y * nx + x] = v;
}
