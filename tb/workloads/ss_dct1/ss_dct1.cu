// ss_dct1: orthonormal 2-D DCT-II of the 8x8 blocks of a float image (the
// scratchpad-sharing study's DCT1: 2112 B of shared memory per 64-thread
// block). A block transforms a 16-row x 32-column tile (2 x 4 blocks) held in
// one padded shared array tile[16][33]:
//   1. each thread loads 8 pixels of one column (coalesced across the warp);
//   2. row pass: each thread transforms one 8-pixel row segment in place;
//   3. column pass: each thread reads one 8-pixel column segment and writes
//      its 8 coefficients straight to global memory from registers (the
//      shared tile is no longer needed for the stores).
// The 8-point DCT uses immediate cosine constants (no constant memory).
// width must be a multiple of 32 and height a multiple of 16.
#define TW 32
#define TH 16
#define STRIDE 33

__device__ __forceinline__ void dct8(const float* v, float* o) {
  const float c[8][8] = {
      {0.353553391f, 0.353553391f, 0.353553391f, 0.353553391f, 0.353553391f, 0.353553391f, 0.353553391f, 0.353553391f},
      {0.490392640f, 0.415734806f, 0.277785117f, 0.097545161f, -0.097545161f, -0.277785117f, -0.415734806f, -0.490392640f},
      {0.461939766f, 0.191341716f, -0.191341716f, -0.461939766f, -0.461939766f, -0.191341716f, 0.191341716f, 0.461939766f},
      {0.415734806f, -0.097545161f, -0.490392640f, -0.277785117f, 0.277785117f, 0.490392640f, 0.097545161f, -0.415734806f},
      {0.353553391f, -0.353553391f, -0.353553391f, 0.353553391f, 0.353553391f, -0.353553391f, -0.353553391f, 0.353553391f},
      {0.277785117f, -0.490392640f, 0.097545161f, 0.415734806f, -0.415734806f, -0.097545161f, 0.490392640f, -0.277785117f},
      {0.191341716f, -0.461939766f, 0.461939766f, -0.191341716f, -0.191341716f, 0.461939766f, -0.461939766f, 0.191341716f},
      {0.097545161f, -0.277785117f, 0.415734806f, -0.490392640f, 0.490392640f, -0.415734806f, 0.277785117f, -0.097545161f}};
#pragma unroll
  for (int k = 0; k < 8; ++k) {
    float acc = 0.0f;
#pragma unroll
    for (int n = 0; n < 8; ++n) acc += c[k][n] * v[n];
    o[k] = acc;
  }
}

extern "C" __global__ void ss_dct_float(const float* __restrict__ in, float* __restrict__ out, int width) {
  __shared__ float tile[TH * STRIDE];
  const int t = threadIdx.x;  // 0..63
  const int x0 = blockIdx.x * TW, y0 = blockIdx.y * TH;
  const int col = t & 31, half = t >> 5;  // this thread's column and 8-row half

  float v[8], o[8];
#pragma unroll
  for (int k = 0; k < 8; ++k) tile[(half * 8 + k) * STRIDE + col] = in[(size_t)(y0 + half * 8 + k) * width + x0 + col];
  __syncthreads();

  // Row pass: 16 rows x 4 segments = 64 segments, one per thread.
  const int row = t >> 2, seg = (t & 3) * 8;
#pragma unroll
  for (int n = 0; n < 8; ++n) v[n] = tile[row * STRIDE + seg + n];
  dct8(v, o);
#pragma unroll
  for (int k = 0; k < 8; ++k) tile[row * STRIDE + seg + k] = o[k];
  __syncthreads();

  // Column pass: 32 columns x 2 halves, one per thread; results go to global.
#pragma unroll
  for (int n = 0; n < 8; ++n) v[n] = tile[(half * 8 + n) * STRIDE + col];
  dct8(v, o);
#pragma unroll
  for (int k = 0; k < 8; ++k) out[(size_t)(y0 + half * 8 + k) * width + x0 + col] = o[k];
}
