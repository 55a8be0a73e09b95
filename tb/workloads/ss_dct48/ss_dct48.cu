// ss_dct48: orthonormal 2-D DCT-II of the 8x8 blocks of a float image, the
// scratchpad-sharing study's DCT1 at its 48 KB / 64 KB size (Table 5: one
// shared variable of 8320 B; 256 threads per block, as spec 6.4 resolves the
// thread count): tiled_dct.cuh over a 32-row x 64-column tile (4 x 8 blocks)
// held in one padded shared array tile[32][65] (32 * 65 * 4 = 8320 B), with
// ss_dct1's phases (CUDAkernel2DCT: rows, columns, a third barrier, results
// copied from the tile) and an even/odd butterfly 8-point DCT.
#include "../ss_dct1/tiled_dct.cuh"

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
  tiled_dct_store_from_tile<64, 32, dct8_butterfly>(in, out, width);
}
