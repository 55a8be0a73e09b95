// ep_dct_short: 8x8 block DCT and inverse DCT of a 16-bit image with the
// structure of the CUDA SDK 2.2 dct8x8 sample's short-integer kernels, which
// seed 001 ran as DCT_short and IDCT_short (Table 5: blocks of 8 x 4 x 4
// threads, a grid of 16 x 16 for a 512 x 512 image):
//   - a block covers a 32 x 32 tile of shorts in shared memory with a row
//     stride of 32 shorts (16 words: the conflicting form the paper ran) or
//     34 (17 words, the SDK's padding: the `_opt` kernels);
//   - the first 16 threads of each block row z (tile columns 0 .. 31 as 16
//     words) copy the 8 rows of that block row from global to shared memory
//     a 32-bit word (two pixels) at a time; barrier;
//   - thread (x, y, z) transforms the row 8z + x, pixels 8y .. 8y+7, read and
//     written as 4 words; barrier;
//   - thread (x, y, z) transforms the column 8y + x of its block row, pixel
//     by pixel (16-bit accesses); barrier;
//   - the first 16 threads of each block row copy it back, a word at a time.
//   Per thread 32 shared-memory accesses on average (Table 5: 32): the row
//   pass's lanes read rows 16 words apart, one bank of 8 (degree 8); the
//   column pass's 8 lanes share 4 consecutive words; so per subwarp access
//   cd = (64 + 128 x 8 + 256 + 64) / 512 = 2.75 (Table 5: 2.75).
// Each pass computes the orthonormal 8-point transform (dct8_points.cuh) in
// float from the 16-bit values and rounds its results to the nearest integer
// (ties to even).

#include "../dct8_points.cuh"

__device__ __forceinline__ unsigned pack(float lo, float hi) {
  return (unsigned(__float2int_rn(lo)) & 0xffffu) | (unsigned(__float2int_rn(hi)) << 16);
}

// The accesses go through volatile pointers so that each stays one shared-memory
// instruction (a word in the copies and the row pass, a short in the column pass).
template <int STRIDE, bool INVERSE>
__device__ __forceinline__ void tile_pass(short* dst, const short* src, int width) {
  __shared__ short block[32 * STRIDE];
  const int col = threadIdx.y * 8 + threadIdx.x;  // this thread's tile column (word index in the copies)
  const int row0 = threadIdx.z * 8;               // first row of its block row
  const size_t at = (size_t)(blockIdx.y * 32 + row0) * (size_t)width + blockIdx.x * 32;  // in shorts
  volatile unsigned* words = (volatile unsigned*)(block + row0 * STRIDE);
  if (col < 16) {
#pragma unroll
    for (int i = 0; i < 8; ++i) words[i * (STRIDE / 2) + col] = ((const unsigned*)(src + at + (size_t)i * width))[col];
  }
  __syncthreads();
  float x[8], y[8];
  volatile unsigned* row = (volatile unsigned*)(block + (row0 + threadIdx.x) * STRIDE + threadIdx.y * 8);
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const unsigned w = row[k];
    x[2 * k] = float(short(w & 0xffffu));
    x[2 * k + 1] = float(short(w >> 16));
  }
  transform<INVERSE>(x, y);
#pragma unroll
  for (int k = 0; k < 4; ++k) row[k] = pack(y[2 * k], y[2 * k + 1]);
  __syncthreads();
  volatile short* column = block + row0 * STRIDE + col;
#pragma unroll
  for (int i = 0; i < 8; ++i) x[i] = float(column[i * STRIDE]);
  transform<INVERSE>(x, y);
#pragma unroll
  for (int i = 0; i < 8; ++i) column[i * STRIDE] = short(__float2int_rn(y[i]));
  __syncthreads();
  if (col < 16) {
#pragma unroll
    for (int i = 0; i < 8; ++i) ((unsigned*)(dst + at + (size_t)i * width))[col] = words[i * (STRIDE / 2) + col];
  }
}

// (dst, src, width): width and height multiples of 32; grid (width / 32, height / 32), block (8, 4, 4).
extern "C" __global__ void ep_dct_short(short* dst, const short* src, int width) {
  tile_pass<32, false>(dst, src, width);
}
extern "C" __global__ void ep_idct_short(short* dst, const short* src, int width) {
  tile_pass<32, true>(dst, src, width);
}
extern "C" __global__ void ep_dct_short_opt(short* dst, const short* src, int width) {
  tile_pass<34, false>(dst, src, width);
}
extern "C" __global__ void ep_idct_short_opt(short* dst, const short* src, int width) {
  tile_pass<34, true>(dst, src, width);
}
