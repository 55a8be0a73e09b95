// ss_srad2: second half of one SRAD step over 24x24 tiles (the
// scratchpad-sharing study's SRAD2: five 24x24 float arrays, 11520 B of
// shared memory per 576-thread block).
//   1. the tile of diffusion coefficients goes to ct;
//   2. the south and east neighbour coefficients are filled from ct inside the
//      tile and from global memory on the bottom / right tile edge (clamped at
//      the image border);
//   3. each thread forms the divergence cN*dN + cS*dS + cW*dW + cE*dE (cN = cW
//      = its own c) and the updated J = J + lambda/4 * divergence;
//   4. the block tree-reduces J and J^2 in rsum / rsq (the statistics the next
//      step's q0^2 is computed from) and writes the two tile sums;
//   5. after the last shared-memory access each thread writes its new J.
// rows and cols must be multiples of 24.
#define ST 24

extern "C" __global__ void ss_srad2(const float* __restrict__ J, const float* __restrict__ C,
                                    const float* __restrict__ dN, const float* __restrict__ dS,
                                    const float* __restrict__ dW, const float* __restrict__ dE,
                                    float* __restrict__ J_out, float* __restrict__ tile_sums, int rows, int cols,
                                    float lambda) {
  __shared__ float ct[ST][ST];
  __shared__ float cs[ST][ST];
  __shared__ float ce[ST][ST];
  __shared__ float rsum[ST * ST];
  __shared__ float rsq[ST * ST];
  const int tx = threadIdx.x, ty = threadIdx.y, t = ty * ST + tx;
  const int i = blockIdx.y * ST + ty, j = blockIdx.x * ST + tx;
  const size_t idx = (size_t)i * cols + j;
  ct[ty][tx] = C[idx];
  __syncthreads();
  cs[ty][tx] = ty < ST - 1 ? ct[ty + 1][tx] : C[(size_t)(i < rows - 1 ? i + 1 : rows - 1) * cols + j];
  ce[ty][tx] = tx < ST - 1 ? ct[ty][tx + 1] : C[(size_t)i * cols + (j < cols - 1 ? j + 1 : cols - 1)];
  __syncthreads();

  const float cc = ct[ty][tx];
  const float div = cc * dN[idx] + cs[ty][tx] * dS[idx] + cc * dW[idx] + ce[ty][tx] * dE[idx];
  const float jnew = J[idx] + 0.25f * lambda * div;

  rsum[t] = jnew;
  rsq[t] = jnew * jnew;
  __syncthreads();
  for (int half = ST * ST / 2; half >= 9; half >>= 1) {  // 288, 144, ..., 9: nine partials remain
    if (t < half) {
      rsum[t] += rsum[t + half];
      rsq[t] += rsq[t + half];
    }
    __syncthreads();
  }
  if (t == 0) {
    float a = 0.0f, b = 0.0f;
    for (int k = 0; k < 9; ++k) {
      a += rsum[k];
      b += rsq[k];
    }
    const int tile = blockIdx.y * gridDim.x + blockIdx.x;
    tile_sums[2 * tile] = a;
    tile_sums[2 * tile + 1] = b;
  }
  J_out[idx] = jnew;
}
