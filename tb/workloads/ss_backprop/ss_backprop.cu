// ss_backprop: forward pass of one fully connected layer over 48x48 patches
// (the scratchpad-sharing study's backprop: 9408 B of shared memory per
// 256-thread block) fused with an L2 weight decay of the same patch.
// A block owns inputs [48*by, 48*by+48) and units [48*bx, 48*bx+48):
//   1. the 48 inputs go to in_tile (read only while forming the products);
//   2. each of the 16x16 threads loads its 3x3 weights, then forms the
//      products w[i][j] * x[i] into wmat;
//   3. wmat is tree-reduced along the inputs (24, 12, 6, 3 rows, barrier per
//      step) and the first 48 threads write partial[by][j] (sum of 48 rows);
//   4. after the last shared-memory access every thread writes its nine
//      decayed weights w * (1 - decay) from registers.
// n_in and n_hid must be multiples of 48.
#define BP_P 48  // patch side
#define BP_T 16  // threads per side

extern "C" __global__ void ss_bp_forward(const float* __restrict__ x, const float* __restrict__ w,
                                         float* __restrict__ partial, float* __restrict__ w_out, int n_hid,
                                         float decay) {
  __shared__ float in_tile[BP_P];
  __shared__ float wmat[BP_P][BP_P];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * BP_T + tx;
  const int i0 = blockIdx.y * BP_P, j0 = blockIdx.x * BP_P;
  if (tid < BP_P) in_tile[tid] = x[i0 + tid];
  __syncthreads();

  // All nine weight loads leave before the first product is stored.
  float wr[3][3];
#pragma unroll
  for (int a = 0; a < 3; ++a)
#pragma unroll
    for (int b = 0; b < 3; ++b) wr[a][b] = w[(size_t)(i0 + ty + a * BP_T) * n_hid + j0 + tx + b * BP_T];
#pragma unroll
  for (int a = 0; a < 3; ++a) {
    const int r = ty + a * BP_T;
    const float xv = in_tile[r];
#pragma unroll
    for (int b = 0; b < 3; ++b) wmat[r][tx + b * BP_T] = wr[a][b] * xv;
  }
  __syncthreads();

  // Rows r and r + s are added for s = 24, 12, 6, 3; rows 0..2 remain.
  for (int s = BP_P / 2; s >= 3; s >>= 1) {
    for (int e = tid; e < s * BP_P; e += BP_T * BP_T) {
      const int r = e / BP_P, c = e - r * BP_P;
      wmat[r][c] += wmat[r + s][c];
    }
    __syncthreads();
  }
  if (tid < BP_P) partial[(size_t)blockIdx.y * n_hid + j0 + tid] = wmat[0][tid] + wmat[1][tid] + wmat[2][tid];

  const float keep = 1.0f - decay;
#pragma unroll
  for (int a = 0; a < 3; ++a)
#pragma unroll
    for (int b = 0; b < 3; ++b)
      w_out[(size_t)(i0 + ty + a * BP_T) * n_hid + j0 + tx + b * BP_T] = wr[a][b] * keep;
}
