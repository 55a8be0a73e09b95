// ss_srad1: the first SRAD kernel of Rodinia's srad_v2 (srad_cuda_1) with the
// scratchpad-sharing study's BLOCK_SIZE = 24 (Table 3): six 24x24 float
// arrays (temp, temp_result, north, south, east, west), 13824 B of shared
// memory per 24x24-thread block, one thread per pixel of a 24x24 tile. The
// phases follow the public kernel:
//   1. every thread copies into north[ty][tx] the pixel of column tx in the
//      row above the tile and into south[ty][tx] the one in the row below
//      (the same row for every ty, as in the source; the image's own first /
//      last row at its top / bottom border); barrier;
//   2. likewise west[ty][tx] and east[ty][tx] from the columns left and right
//      of the tile in row ty (the image's first / last column at its
//      borders); barrier;
//   3. every thread copies its pixel into temp; barrier;
//   4. each thread forms the four differences to its neighbours (from temp
//      inside the tile, from north / south / west / east on the tile edges),
//      the normalised gradient and Laplacian, the instantaneous coefficient
//      of variation q^2 and the diffusion coefficient
//      c = 1 / (1 + (q^2 - q0^2) / (q0^2 (1 + q0^2))), clamped to [0, 1], into
//      temp_result; barrier;
//   5. each thread writes C from temp_result (the last shared access), then
//      its four differences E, W, S, N from registers.
// rows and cols must be multiples of 24.
#define ST 24

extern "C" __global__ void ss_srad1(const float* __restrict__ J, float* __restrict__ C, float* __restrict__ dN,
                                    float* __restrict__ dS, float* __restrict__ dW, float* __restrict__ dE, int rows,
                                    int cols, float q0sqr) {
  __shared__ float temp[ST][ST];
  __shared__ float temp_result[ST][ST];
  __shared__ float north[ST][ST];
  __shared__ float south[ST][ST];
  __shared__ float east[ST][ST];
  __shared__ float west[ST][ST];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const size_t base = (size_t)blockIdx.y * ST * cols + (size_t)blockIdx.x * ST;  // the tile's top-left pixel
  const size_t idx = base + (size_t)ty * cols + tx;

  // The row above / below the tile, clamped to the image (the source loads
  // out of bounds first and then reloads on a border block; one load here).
  const size_t row_n = blockIdx.y == 0 ? base + tx : base - cols + tx;
  const size_t row_s = blockIdx.y == gridDim.y - 1 ? base + (size_t)(ST - 1) * cols + tx : base + (size_t)ST * cols + tx;
  north[ty][tx] = J[row_n];
  south[ty][tx] = J[row_s];
  __syncthreads();

  const size_t col_w = blockIdx.x == 0 ? base + (size_t)ty * cols : base + (size_t)ty * cols - 1;
  const size_t col_e = blockIdx.x == gridDim.x - 1 ? base + (size_t)ty * cols + ST - 1 : base + (size_t)ty * cols + ST;
  west[ty][tx] = J[col_w];
  east[ty][tx] = J[col_e];
  __syncthreads();

  temp[ty][tx] = J[idx];
  __syncthreads();

  const float jc = temp[ty][tx];
  const float n = (ty == 0 ? north[ty][tx] : temp[ty - 1][tx]) - jc;
  const float s = (ty == ST - 1 ? south[ty][tx] : temp[ty + 1][tx]) - jc;
  const float w = (tx == 0 ? west[ty][tx] : temp[ty][tx - 1]) - jc;
  const float e = (tx == ST - 1 ? east[ty][tx] : temp[ty][tx + 1]) - jc;
  const float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
  const float l = (n + s + w + e) / jc;
  const float num = 0.5f * g2 - 0.0625f * l * l;
  const float den = 1.0f + 0.25f * l;
  const float qsqr = num / (den * den);
  const float c = 1.0f / (1.0f + (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr)));
  temp_result[ty][tx] = c < 0.0f ? 0.0f : (c > 1.0f ? 1.0f : c);
  __syncthreads();

  C[idx] = temp_result[ty][tx];
  dE[idx] = e;
  dW[idx] = w;
  dS[idx] = s;
  dN[idx] = n;
}
