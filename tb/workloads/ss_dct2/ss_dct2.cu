// ss_dct2: orthonormal 2-D inverse DCT (DCT-III) of the 8x8 coefficient blocks
// of a float plane (the scratchpad-sharing study's DCT2: 2112 B of shared
// memory per 64-thread block): tiled_dct.cuh over a 16-row x 32-column tile
// (2 x 4 blocks) held in one padded shared array tile[16][33], rows then
// columns in place, with the results copied from the tile to global memory
// after a third barrier. The 8-point inverse is a matrix product accumulated
// with fused multiply-adds (__fmaf_rn, k = 0..7 in order), so the host replays
// it bit for bit.
#include "../ss_dct1/tiled_dct.cuh"

// x[n] = sum_k C[k][n] X[k], C[k][n] = c(k) cos((2n + 1) k pi / 16): the
// transpose of ss_dct1's forward matrix, same constants.
__device__ __forceinline__ void idct8(const float* v, float* o) {
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
  for (int n = 0; n < 8; ++n) {
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < 8; ++k) acc = __fmaf_rn(c[k][n], v[k], acc);
    o[n] = acc;
  }
}

extern "C" __global__ void ss_idct_float(const float* __restrict__ in, float* __restrict__ out, int width) {
  tiled_dct_store_from_tile<32, 16, idct8>(in, out, width);
}
