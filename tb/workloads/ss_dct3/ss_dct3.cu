// ss_dct3: fixed-point 2-D DCT-II of the 8x8 blocks of a 16-bit plane, in
// place (the scratchpad-sharing study's DCT3, CUDAkernelShortDCT of the CUDA
// sample dct8x8: 2176 B of shared memory per 128-thread block). A block
// transforms a 32x32 tile (4 x 4 blocks) held as shorts in one padded shared
// array tile[32][34] (row stride 17 words); warp q owns rows 8q..8q+7 in the
// column pass and columns 8q..8q+7 in the row pass. The phases are the
// sample's, as ss_dct4 (the inverse) has them:
//   1. the first 16 lanes of each warp copy the tile in as 32-bit words (two
//      shorts each), 8 rows, global to shared; the other 16 lanes idle;
//      barrier;
//   2. column pass: lane l transforms column 2l (l < 16) or 2(l - 16) + 1 in
//      place (even columns on the first half-warp, odd on the second), Q12
//      cosines, keeping 2 fraction bits (Q2) in the shorts; barrier;
//   3. row pass: lane l reads its row's 8-short segment as 4 words, unpacks,
//      transforms (Q2 -> Q0) and writes 4 packed words back; barrier;
//   4. the first 16 lanes of each warp copy the tile out as words, 8 rows,
//      shared to global, over the pixels they came from (the last shared
//      access is in this store loop).
// Integer arithmetic throughout, so the CPU reference is bit exact. width and
// height must be multiples of 32; pixels in [-128, 127].
#define TS 32
#define STRIDE 34             // shorts per tile row
#define WSTRIDE (STRIDE / 2)  // words per tile row

// X[k] = sum_n C[k][n] x[n] with C[k][n] = round(4096 c(k) cos((2n+1) k pi / 16)),
// rounded back by `shift` bits (half up).
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

__device__ __forceinline__ unsigned int pack2(int lo, int hi) {
  return (unsigned int)(unsigned short)lo | ((unsigned int)(unsigned short)hi << 16);
}

extern "C" __global__ void ss_dct_short(short* img, int width) {
  __shared__ short tile[TS * STRIDE];
  unsigned int* tile_w = reinterpret_cast<unsigned int*>(tile);
  const int t = threadIdx.x;  // 0..127
  const int lane = t & 31, q = t >> 5;
  const int words_per_row = width >> 1;
  unsigned int* img_w = reinterpret_cast<unsigned int*>(img) + (size_t)(blockIdx.y * TS + q * 8) * words_per_row +
                        blockIdx.x * (TS / 2) + lane;

  if (lane < TS / 2) {
#pragma unroll
    for (int i = 0; i < 8; ++i) tile_w[(q * 8 + i) * WSTRIDE + lane] = img_w[(size_t)i * words_per_row];
  }
  __syncthreads();

  // Column pass, rows 8q..8q+7: Q12 * Q0 -> Q2 (shift 10).
  const int col = ((lane << 1) | (lane >> 4)) & (TS - 1);
  int v[8], o[8];
#pragma unroll
  for (int n = 0; n < 8; ++n) v[n] = tile[(q * 8 + n) * STRIDE + col];
  dct8_fixed(v, o, 10);
#pragma unroll
  for (int k = 0; k < 8; ++k) tile[(q * 8 + k) * STRIDE + col] = (short)o[k];
  __syncthreads();

  // Row pass, row `lane`, columns 8q..8q+7 as 4 packed words: Q12 * Q2 -> Q0 (shift 14).
  unsigned int* row_w = tile_w + lane * WSTRIDE + q * 4;
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    const unsigned int w = row_w[j];
    v[2 * j] = (short)(w & 0xffffu);
    v[2 * j + 1] = (short)(w >> 16);
  }
  dct8_fixed(v, o, 14);
#pragma unroll
  for (int j = 0; j < 4; ++j) row_w[j] = pack2(o[2 * j], o[2 * j + 1]);
  __syncthreads();

  if (lane < TS / 2) {
#pragma unroll
    for (int i = 0; i < 8; ++i) img_w[(size_t)i * words_per_row] = tile_w[(q * 8 + i) * WSTRIDE + lane];
  }
}
