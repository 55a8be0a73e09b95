// ss_srad1: first half of one SRAD (speckle reducing anisotropic diffusion)
// step over 24x24 tiles (the scratchpad-sharing study's SRAD1: six 24x24
// float arrays, 13824 B of shared memory per 576-thread block).
//   1. the tile of J goes to jt;
//   2. the north/south/west/east neighbour tiles are filled from jt inside
//      the tile and from global memory on the tile edges (clamped at the image
//      border: divergent halo loads by the edge threads);
//   3. each thread forms the four differences, the normalised gradient and
//      Laplacian, the instantaneous coefficient of variation q^2 and the
//      diffusion coefficient c = 1 / (1 + (q^2 - q0^2) / (q0^2 (1 + q0^2))),
//      clamped to [0, 1];
//   4. the block tree-reduces c in csum (a per-tile diffusion statistic);
//   5. after the last shared-memory access each thread writes its c and its
//      four differences to global memory from registers.
// rows and cols must be multiples of 24.
#define ST 24

extern "C" __global__ void ss_srad1(const float* __restrict__ J, float* __restrict__ C, float* __restrict__ dN,
                                    float* __restrict__ dS, float* __restrict__ dW, float* __restrict__ dE,
                                    float* __restrict__ tile_c, int rows, int cols, float q0sqr) {
  __shared__ float jt[ST][ST];
  __shared__ float jn[ST][ST];
  __shared__ float js[ST][ST];
  __shared__ float jw[ST][ST];
  __shared__ float je[ST][ST];
  __shared__ float csum[ST * ST];
  const int tx = threadIdx.x, ty = threadIdx.y, t = ty * ST + tx;
  const int i = blockIdx.y * ST + ty, j = blockIdx.x * ST + tx;
  const size_t idx = (size_t)i * cols + j;
  jt[ty][tx] = J[idx];
  __syncthreads();
  jn[ty][tx] = ty > 0 ? jt[ty - 1][tx] : J[(size_t)(i > 0 ? i - 1 : 0) * cols + j];
  js[ty][tx] = ty < ST - 1 ? jt[ty + 1][tx] : J[(size_t)(i < rows - 1 ? i + 1 : rows - 1) * cols + j];
  jw[ty][tx] = tx > 0 ? jt[ty][tx - 1] : J[(size_t)i * cols + (j > 0 ? j - 1 : 0)];
  je[ty][tx] = tx < ST - 1 ? jt[ty][tx + 1] : J[(size_t)i * cols + (j < cols - 1 ? j + 1 : cols - 1)];
  __syncthreads();

  const float jc = jt[ty][tx];
  const float n = jn[ty][tx] - jc, s = js[ty][tx] - jc, w = jw[ty][tx] - jc, e = je[ty][tx] - jc;
  const float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
  const float l = (n + s + w + e) / jc;
  const float num = 0.5f * g2 - 0.0625f * l * l;
  const float den = 1.0f + 0.25f * l;
  const float qsqr = num / (den * den);
  float c = 1.0f / (1.0f + (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr)));
  c = c < 0.0f ? 0.0f : (c > 1.0f ? 1.0f : c);

  csum[t] = c;
  __syncthreads();
  for (int half = ST * ST / 2; half >= 9; half >>= 1) {  // 288, 144, ..., 9: nine partials remain
    if (t < half) csum[t] += csum[t + half];
    __syncthreads();
  }
  if (t == 0) {
    float total = 0.0f;
    for (int k = 0; k < 9; ++k) total += csum[k];
    tile_c[blockIdx.y * gridDim.x + blockIdx.x] = total;
  }

  C[idx] = c;
  dN[idx] = n;
  dS[idx] = s;
  dW[idx] = w;
  dE[idx] = e;
}
