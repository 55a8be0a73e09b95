#pragma once
// The tiled float DCT of ss_dct1 (DCT1, 16x32 tile, 64 threads) and ss_dct48
// (DCT1 at 48/64 KB, 32x64 tile, 256 threads): orthonormal 2-D DCT-II of the
// 8x8 blocks of a float image, one TH x TW tile per block held in one padded
// shared array tile[TH][TW + 1] (one thread per 8-row column segment):
//   1. each thread loads 8 pixels of one column (coalesced across the warp);
//   2. row pass: each thread transforms one 8-pixel row segment in place;
//   3. column pass: each thread reads one 8-pixel column segment and writes
//      its 8 coefficients straight to global memory from registers (the
//      shared tile is no longer needed for the stores).
// DCT8 is the 8-point transform (immediate constants, no constant memory).
// width must be a multiple of TW and the height of TH.

__host__ __device__ constexpr int tiled_dct_log2(int v) { return v > 1 ? 1 + tiled_dct_log2(v / 2) : 0; }

// TW: a power of two, at least 8.
template <int TW, int TH, void (*DCT8)(const float*, float*)>
__device__ __forceinline__ void tiled_dct(const float* __restrict__ in, float* __restrict__ out, int width) {
  constexpr int STRIDE = TW + 1;
  constexpr int SEGS = TW / 8;  // 8-pixel segments per row
  __shared__ float tile[TH * STRIDE];
  const int t = threadIdx.x;  // 0 .. TW * TH / 8 - 1
  const int x0 = blockIdx.x * TW, y0 = blockIdx.y * TH;
  constexpr int TW_LOG2 = tiled_dct_log2(TW), SEGS_LOG2 = tiled_dct_log2(SEGS);
  const int col = t & (TW - 1), grp = t >> TW_LOG2;  // this thread's column and 8-row group

  float v[8], o[8];
#pragma unroll
  for (int k = 0; k < 8; ++k) tile[(grp * 8 + k) * STRIDE + col] = in[(size_t)(y0 + grp * 8 + k) * width + x0 + col];
  __syncthreads();

  // Row pass: TH rows x SEGS segments, one per thread.
  const int row = t >> SEGS_LOG2, seg = (t & (SEGS - 1)) * 8;
#pragma unroll
  for (int n = 0; n < 8; ++n) v[n] = tile[row * STRIDE + seg + n];
  DCT8(v, o);
#pragma unroll
  for (int k = 0; k < 8; ++k) tile[row * STRIDE + seg + k] = o[k];
  __syncthreads();

  // Column pass: TW columns x TH / 8 row groups, one per thread; results go to global.
#pragma unroll
  for (int n = 0; n < 8; ++n) v[n] = tile[(grp * 8 + n) * STRIDE + col];
  DCT8(v, o);
#pragma unroll
  for (int k = 0; k < 8; ++k) out[(size_t)(y0 + grp * 8 + k) * width + x0 + col] = o[k];
}
