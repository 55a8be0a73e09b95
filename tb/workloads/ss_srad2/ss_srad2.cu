// ss_srad2: the second SRAD kernel of Rodinia's srad_v2 (srad_cuda_2) with
// the scratchpad-sharing study's BLOCK_SIZE = 24 (Table 3): five 24x24 float
// arrays (south_c, east_c, c_cuda_temp, c_cuda_result, temp), 11520 B of
// shared memory per 24x24-thread block, one thread per pixel. The phases
// follow the public kernel:
//   1. every thread copies its pixel of J into temp; barrier;
//   2. every thread copies into south_c[ty][tx] the coefficient of column tx
//      in the row below the tile (the same row for every ty, as in the source;
//      the image's last row at its bottom border); barrier;
//   3. likewise east_c[ty][tx] from the column right of the tile in row ty
//      (the image's last column at its right border); barrier;
//   4. every thread copies its own coefficient into c_cuda_temp; barrier;
//   5. each thread takes cN = cW = its own c, cS and cE from c_cuda_temp inside
//      the tile or from south_c / east_c on the tile edge, reads its four
//      differences from global memory, and stores the updated pixel
//      J + lambda/4 (cN dN + cS dS + cW dW + cE dE) into c_cuda_result;
//      barrier;
//   6. each thread writes its pixel of J from c_cuda_result (the last shared
//      access feeds this store), in place.
// rows and cols must be multiples of 24.
#define ST 24

extern "C" __global__ void ss_srad2(float* __restrict__ J, const float* __restrict__ C, const float* __restrict__ dN,
                                    const float* __restrict__ dS, const float* __restrict__ dW,
                                    const float* __restrict__ dE, int rows, int cols, float lambda) {
  __shared__ float south_c[ST][ST];
  __shared__ float east_c[ST][ST];
  __shared__ float c_cuda_temp[ST][ST];
  __shared__ float c_cuda_result[ST][ST];
  __shared__ float temp[ST][ST];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const size_t base = (size_t)blockIdx.y * ST * cols + (size_t)blockIdx.x * ST;  // the tile's top-left pixel
  const size_t idx = base + (size_t)ty * cols + tx;

  temp[ty][tx] = J[idx];
  __syncthreads();

  // The row below / column right of the tile, clamped to the image (the
  // source loads out of bounds first and then reloads on a border block).
  const size_t row_s = blockIdx.y == gridDim.y - 1 ? base + (size_t)(ST - 1) * cols + tx : base + (size_t)ST * cols + tx;
  south_c[ty][tx] = C[row_s];
  __syncthreads();

  const size_t col_e = blockIdx.x == gridDim.x - 1 ? base + (size_t)ty * cols + ST - 1 : base + (size_t)ty * cols + ST;
  east_c[ty][tx] = C[col_e];
  __syncthreads();

  c_cuda_temp[ty][tx] = C[idx];
  __syncthreads();

  const float cc = c_cuda_temp[ty][tx];
  const float cn = cc, cw = cc;
  const float cs = ty == ST - 1 ? south_c[ty][tx] : c_cuda_temp[ty + 1][tx];
  const float ce = tx == ST - 1 ? east_c[ty][tx] : c_cuda_temp[ty][tx + 1];
  const float d_sum = cn * dN[idx] + cs * dS[idx] + cw * dW[idx] + ce * dE[idx];
  c_cuda_result[ty][tx] = temp[ty][tx] + 0.25f * lambda * d_sum;
  __syncthreads();

  J[idx] = c_cuda_result[ty][tx];
}
