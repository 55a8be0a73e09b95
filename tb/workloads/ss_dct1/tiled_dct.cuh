#pragma once
// The tiled 8x8 float transforms of ss_dct1 (DCT1, CUDAkernel2DCT: 16x32
// tile, 64 threads), ss_dct48 (DCT1 at 48/64 KB: 32x64 tile, 256 threads) and
// ss_dct2 (DCT2, CUDAkernel2IDCT: the inverse, 16x32 tile, 64 threads). The
// CUDA sample's two kernels share one phase structure, and so do these: a
// separable 8-point transform of every 8x8 block of a float image, one TH x TW
// tile per block held in one padded shared array tile[TH][TW + 1], one thread
// per 8-row column segment:
//   1. each thread copies 8 values of one column from global memory into the
//      tile (coalesced across the warp); barrier;
//   2. row pass: each thread transforms one 8-value row segment in place;
//      barrier;
//   3. column pass: each thread transforms one 8-value column segment in
//      place; barrier;
//   4. each thread copies its 8 column values from the tile to global memory
//      (the last shared access is in this store loop).
// DCT8 is the 8-point transform (immediate constants, no constant memory).
// width must be a multiple of TW and the height of TH.
__host__ __device__ constexpr int tiled_dct_log2(int v) { return v > 1 ? 1 + tiled_dct_log2(v / 2) : 0; }

// TW: a power of two, at least 8.
template <int TW, int TH, void (*DCT8)(const float*, float*)>
__device__ __forceinline__ void tiled_dct_store_from_tile(const float* __restrict__ in, float* __restrict__ out,
                                                          int width) {
  __shared__ float tile[TH * (TW + 1)];
  constexpr int STRIDE = TW + 1;
  constexpr int SEGS = TW / 8;  // 8-pixel segments per row
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

  // Column pass: TW columns x TH / 8 row groups, one per thread, in place.
#pragma unroll
  for (int n = 0; n < 8; ++n) v[n] = tile[(grp * 8 + n) * STRIDE + col];
  DCT8(v, o);
#pragma unroll
  for (int k = 0; k < 8; ++k) tile[(grp * 8 + k) * STRIDE + col] = o[k];
  __syncthreads();

#pragma unroll
  for (int k = 0; k < 8; ++k) out[(size_t)(y0 + grp * 8 + k) * width + x0 + col] = tile[(grp * 8 + k) * STRIDE + col];
}
