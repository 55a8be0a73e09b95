// ss_dct3: fixed-point 2-D DCT-II of the 8x8 blocks of a 16-bit image (the
// scratchpad-sharing study's DCT3, a "short" DCT: 2176 B of shared memory per
// 128-thread block). A block transforms a 32x32 tile (4 x 4 blocks) held as
// shorts in one padded shared array tile[32][34]:
//   1. each thread loads 8 pixels of one column;
//   2. row pass: each thread transforms one 8-pixel row segment in place with
//      Q12 integer cosines, keeping 2 fraction bits (Q2) in the shorts;
//   3. column pass: each thread reads one 8-pixel column segment and writes 8
//      rounded coefficients straight to global memory from registers.
// Integer arithmetic throughout, so the CPU reference is bit exact.
// width and height must be multiples of 32; pixels in [-128, 127].
#define TS 32
#define STRIDE 34

// round(4096 * c(k) * cos((2n+1) k pi / 16))
__device__ __forceinline__ void dct8_fixed(const int* v, int* o, int shift) {
  const int c[8][8] = {{1448, 1448, 1448, 1448, 1448, 1448, 1448, 1448},
                       {2009, 1703, 1138, 400, -400, -1138, -1703, -2009},
                       {1892, 784, -784, -1892, -1892, -784, 784, 1892},
                       {1703, -400, -2009, -1138, 1138, 2009, 400, -1703},
                       {1448, -1448, -1448, 1448, 1448, -1448, -1448, 1448},
                       {1138, -2009, 400, 1703, -1703, -400, 2009, -1138},
                       {784, -1892, 1892, -784, -784, 1892, -1892, 784},
                       {400, -1138, 1703, -2009, 2009, -1703, 1138, -400}};
#pragma unroll
  for (int k = 0; k < 8; ++k) {
    int acc = 0;
#pragma unroll
    for (int n = 0; n < 8; ++n) acc += c[k][n] * v[n];
    o[k] = (acc + (1 << (shift - 1))) >> shift;  // arithmetic shift: rounds half up
  }
}

extern "C" __global__ void ss_dct_short(const short* __restrict__ in, short* __restrict__ out, int width) {
  __shared__ short tile[TS * STRIDE];
  const int t = threadIdx.x;  // 0..127
  const int x0 = blockIdx.x * TS, y0 = blockIdx.y * TS;
  const int col = t & 31, quarter = t >> 5;  // this thread's column and 8-row quarter

  // All eight pixel loads leave before the first store to the tile.
  int v[8], o[8];
#pragma unroll
  for (int k = 0; k < 8; ++k) v[k] = in[(size_t)(y0 + quarter * 8 + k) * width + x0 + col];
#pragma unroll
  for (int k = 0; k < 8; ++k) tile[(quarter * 8 + k) * STRIDE + col] = (short)v[k];
  __syncthreads();

  // Row pass: 32 rows x 4 segments; Q12 * Q0 -> Q2 (shift 10).
  const int row = t >> 2, seg = (t & 3) * 8;
#pragma unroll
  for (int n = 0; n < 8; ++n) v[n] = tile[row * STRIDE + seg + n];
  dct8_fixed(v, o, 10);
#pragma unroll
  for (int k = 0; k < 8; ++k) tile[row * STRIDE + seg + k] = (short)o[k];
  __syncthreads();

  // Column pass: Q12 * Q2 -> Q0 (shift 14), straight to global memory.
#pragma unroll
  for (int n = 0; n < 8; ++n) v[n] = tile[(quarter * 8 + n) * STRIDE + col];
  dct8_fixed(v, o, 14);
#pragma unroll
  for (int k = 0; k < 8; ++k) out[(size_t)(y0 + quarter * 8 + k) * width + x0 + col] = (short)o[k];
}
