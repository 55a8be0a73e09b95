// rd_hotspot: Rodinia's HotSpot transient thermal step, several steps per
// launch in a 16x16 shared tile (the "pyramid").
// hotspot_calculate_temp: each 16x16 block loads a tile of temperature and
// power (the cells of the block's output region plus a halo of `iterations`
// cells on every side; cells off the chip are not loaded), then runs
// `iterations` explicit steps in shared memory: in step i only the threads at
// least i+1 cells inside the tile (and on the chip) compute, into a third
// tile, with a barrier after the step and, before the next, a copy back into
// the temperature tile and another barrier. The computing region shrinks by
// one cell per side per step; what is left after the last step (16 - 2 *
// iterations square) is stored to the destination grid. At the chip's edge a
// missing neighbour is replaced by the cell itself (indices clamped to the
// chip). Neighbouring blocks overlap by their halos and recompute them.
#define HS_TILE 16

__device__ __forceinline__ bool hs_between(int v, int lo, int hi) { return v >= lo && v <= hi; }

extern "C" __global__ void hotspot_calculate_temp(int iterations, const float* __restrict__ power,
                                                  const float* __restrict__ temp_src, float* __restrict__ temp_dst,
                                                  int cols, int rows, int border_cols, int border_rows, float cap,
                                                  float rx, float ry, float rz, float step) {
  __shared__ float temp_on_cuda[HS_TILE][HS_TILE];
  __shared__ float power_on_cuda[HS_TILE][HS_TILE];
  __shared__ float temp_t[HS_TILE][HS_TILE];

  const float ambient = 80.0f;
  const float k = step / cap;
  const float gx = 1.0f / rx, gy = 1.0f / ry, gz = 1.0f / rz;
  const int tx = threadIdx.x, ty = threadIdx.y;

  // Output region of this block: (HS_TILE - 2 * iterations) square; the tile
  // starts `border` cells before it.
  const int out_w = HS_TILE - 2 * iterations;
  const int y0 = out_w * (int)blockIdx.y - border_rows;
  const int x0 = out_w * (int)blockIdx.x - border_cols;
  const int y = y0 + ty, x = x0 + tx;
  const int idx = y * cols + x;
  if (hs_between(y, 0, rows - 1) && hs_between(x, 0, cols - 1)) {
    temp_on_cuda[ty][tx] = temp_src[idx];
    power_on_cuda[ty][tx] = power[idx];
  }
  __syncthreads();

  // Tile cells that lie on the chip.
  const int ylo = y0 < 0 ? -y0 : 0;
  const int yhi = y0 + HS_TILE - 1 > rows - 1 ? rows - 1 - y0 : HS_TILE - 1;
  const int xlo = x0 < 0 ? -x0 : 0;
  const int xhi = x0 + HS_TILE - 1 > cols - 1 ? cols - 1 - x0 : HS_TILE - 1;
  const int n = max(ty - 1, ylo), s = min(ty + 1, yhi);
  const int w = max(tx - 1, xlo), e = min(tx + 1, xhi);

  bool computed = false;
  for (int i = 0; i < iterations; ++i) {
    computed = false;
    if (hs_between(tx, i + 1, HS_TILE - i - 2) && hs_between(ty, i + 1, HS_TILE - i - 2) &&
        hs_between(tx, xlo, xhi) && hs_between(ty, ylo, yhi)) {
      computed = true;
      const float t = temp_on_cuda[ty][tx];
      temp_t[ty][tx] = t + k * (power_on_cuda[ty][tx] + (temp_on_cuda[s][tx] + temp_on_cuda[n][tx] - 2.0f * t) * gy +
                                (temp_on_cuda[ty][e] + temp_on_cuda[ty][w] - 2.0f * t) * gx + (ambient - t) * gz);
    }
    __syncthreads();
    if (i == iterations - 1) break;
    if (computed) temp_on_cuda[ty][tx] = temp_t[ty][tx];
    __syncthreads();
  }
  if (computed) temp_dst[idx] = temp_t[ty][tx];
}
