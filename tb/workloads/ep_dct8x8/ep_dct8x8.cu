// ep_dct8x8: 8x8 block DCT and inverse DCT of a float image with the
// structure of the CUDA SDK 2.2 dct8x8 sample's second kernel pair, which
// seed 001 ran as DCT and IDCT (Table 5: blocks of 8 x 4 x 2 threads, a grid
// of 16 x 32 for a 512 x 512 image):
//   - a block covers a 32 x 16 pixel tile (four 8x8 blocks across, two down)
//     held in shared memory with a row stride of 32 floats (the conflicting
//     form the paper ran) or 33 (the SDK's padding: the `_opt` kernels);
//   - thread (x, y, z) owns tile column c = 8y + x in the block row z: it
//     copies its 8 pixels of that column from global to shared memory;
//     barrier; it transforms the row 8z + x in place (columns 8y .. 8y+7:
//     8 loads, 8 stores); barrier; it transforms its column c in place
//     (rows 8z .. 8z+7); barrier; it copies its column back to global memory.
//   48 shared-memory accesses per thread (Table 5: 48). In the row pass the 8
//   lanes of a subwarp read rows 32 words apart: one bank, degree 8 on 8
//   banks; every other access is conflict-free: cd = (32 + 16 x 8) / 48 = 3.33.
// The 8-point transforms are orthonormal (DCT-II and its inverse) through
// even/odd butterflies with the cosines as immediates (dct8_points.cuh).

#include "../dct8_points.cuh"

// The accesses go through a volatile pointer so that each stays one 32-bit
// shared-memory instruction, as the SDK's code compiled: 8 loads, then 8 stores.
__device__ __forceinline__ void load8(volatile float* v, int s, float* x) {
#pragma unroll
  for (int i = 0; i < 8; ++i) x[i] = v[i * s];
}
__device__ __forceinline__ void store8(volatile float* v, int s, const float* y) {
#pragma unroll
  for (int i = 0; i < 8; ++i) v[i * s] = y[i];
}

template <int STRIDE, bool INVERSE>
__device__ __forceinline__ void tile_pass(float* dst, const float* src, int width) {
  __shared__ float block[16 * STRIDE];
  const int col = threadIdx.y * 8 + threadIdx.x;  // this thread's tile column
  const int row0 = threadIdx.z * 8;               // first row of its block row
  const size_t at = (size_t)(blockIdx.y * 16 + row0) * (size_t)width + blockIdx.x * 32 + col;
  volatile float* mine = block + row0 * STRIDE + col;
#pragma unroll
  for (int i = 0; i < 8; ++i) mine[i * STRIDE] = src[at + (size_t)i * width];
  __syncthreads();
  float x[8], y[8];
  volatile float* row = block + (row0 + threadIdx.x) * STRIDE + threadIdx.y * 8;
  load8(row, 1, x);
  transform<INVERSE>(x, y);
  store8(row, 1, y);
  __syncthreads();
  load8(mine, STRIDE, x);
  transform<INVERSE>(x, y);
  store8(mine, STRIDE, y);
  __syncthreads();
#pragma unroll
  for (int i = 0; i < 8; ++i) dst[at + (size_t)i * width] = mine[i * STRIDE];
}

// (dst, src, width): width a multiple of 32, height of 16; grid (width / 32, height / 16), block (8, 4, 2).
extern "C" __global__ void ep_dct(float* dst, const float* src, int width) { tile_pass<32, false>(dst, src, width); }
extern "C" __global__ void ep_idct(float* dst, const float* src, int width) { tile_pass<32, true>(dst, src, width); }
extern "C" __global__ void ep_dct_opt(float* dst, const float* src, int width) { tile_pass<33, false>(dst, src, width); }
extern "C" __global__ void ep_idct_opt(float* dst, const float* src, int width) { tile_pass<33, true>(dst, src, width); }
