// ss_dct1: orthonormal 2-D DCT-II of the 8x8 blocks of a float image (the
// scratchpad-sharing study's DCT1: 2112 B of shared memory per 64-thread
// block): tiled_dct.cuh over a 16-row x 32-column tile (2 x 4 blocks) held in
// one padded shared array tile[16][33], rows then columns in place, with the
// coefficients copied from the tile to global memory after a third barrier
// (CUDAkernel2DCT's phases), and a matrix-product 8-point DCT.
#include "tiled_dct.cuh"

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
  tiled_dct_store_from_tile<32, 16, dct8>(in, out, width);
}
