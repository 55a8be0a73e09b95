// ss_dct48: orthonormal 2-D DCT-II of the 8x8 blocks of a float image, the
// scratchpad-sharing study's DCT1 at its 48 KB / 64 KB size (Table 5: one
// shared variable of 8320 B; 256 threads per block, as spec 6.4 resolves the
// thread count). A block transforms a 32-row x 64-column tile (4 x 8 blocks)
// held in one padded shared array tile[32][65] (32 * 65 * 4 = 8320 B):
//   1. each thread loads 8 pixels of one column (coalesced across the warp);
//   2. row pass: each thread transforms one 8-pixel row segment in place
//      (32 rows x 8 segments = 256 segments);
//   3. column pass: each thread reads one 8-pixel column segment (64 columns
//      x 4 row groups) and writes its 8 coefficients straight to global memory
//      from registers (the shared tile is no longer needed for the stores).
// The 8-point DCT is an even/odd butterfly with immediate constants (no
// constant memory). width must be a multiple of 64 and height of 32.
#define TW 64
#define TH 32
#define STRIDE 65

__device__ __forceinline__ void dct8_butterfly(const float* v, float* o) {
  const float s07 = v[0] + v[7], d07 = v[0] - v[7];
  const float s16 = v[1] + v[6], d16 = v[1] - v[6];
  const float s25 = v[2] + v[5], d25 = v[2] - v[5];
  const float s34 = v[3] + v[4], d34 = v[3] - v[4];
  // Even half: a 4-point DCT of the sums.
  const float e0 = s07 + s34, e1 = s16 + s25, e2 = s07 - s34, e3 = s16 - s25;
  o[0] = 0.353553391f * (e0 + e1);
  o[4] = 0.353553391f * (e0 - e1);
  o[2] = 0.461939766f * e2 + 0.191341716f * e3;
  o[6] = 0.191341716f * e2 - 0.461939766f * e3;
  // Odd half: the differences against the odd cosines.
  o[1] = 0.490392640f * d07 + 0.415734806f * d16 + 0.277785117f * d25 + 0.097545161f * d34;
  o[3] = 0.415734806f * d07 - 0.097545161f * d16 - 0.490392640f * d25 - 0.277785117f * d34;
  o[5] = 0.277785117f * d07 - 0.490392640f * d16 + 0.097545161f * d25 + 0.415734806f * d34;
  o[7] = 0.097545161f * d07 - 0.277785117f * d16 + 0.415734806f * d25 - 0.490392640f * d34;
}

extern "C" __global__ void ss_dct48(const float* __restrict__ in, float* __restrict__ out, int width) {
  __shared__ float tile[TH * STRIDE];
  const int t = threadIdx.x;  // 0..255
  const int x0 = blockIdx.x * TW, y0 = blockIdx.y * TH;
  const int col = t & 63, grp = t >> 6;  // this thread's column and 8-row group

  float v[8], o[8];
#pragma unroll
  for (int k = 0; k < 8; ++k) tile[(grp * 8 + k) * STRIDE + col] = in[(size_t)(y0 + grp * 8 + k) * width + x0 + col];
  __syncthreads();

  // Row pass: 32 rows x 8 segments, one per thread.
  const int row = t >> 3, seg = (t & 7) * 8;
#pragma unroll
  for (int n = 0; n < 8; ++n) v[n] = tile[row * STRIDE + seg + n];
  dct8_butterfly(v, o);
#pragma unroll
  for (int k = 0; k < 8; ++k) tile[row * STRIDE + seg + k] = o[k];
  __syncthreads();

  // Column pass: 64 columns x 4 row groups, one per thread; results go to global.
#pragma unroll
  for (int n = 0; n < 8; ++n) v[n] = tile[(grp * 8 + n) * STRIDE + col];
  dct8_butterfly(v, o);
#pragma unroll
  for (int k = 0; k < 8; ++k) out[(size_t)(y0 + grp * 8 + k) * width + x0 + col] = o[k];
}
