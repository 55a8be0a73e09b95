// ep_transpose_opt: out = in^T for a height x width float matrix, with the
// structure of the CUDA SDK 2.2 `transpose` sample that seed 001 ran as
// Transpose (Table 5: 16 x 16 blocks, grid 16 x 16), as the SDK ships it:
// the tile padded to 17 columns, so the column read of the transposed tile
// falls in 8 different banks (conflict-free). The optimised code of the
// paper's Fig. 8 and Fig. 9; ep_transpose is the same kernel unpadded.
#define BLOCK_DIM 16

extern "C" __global__ void ep_transpose_opt(float* odata, const float* idata, int width, int height) {
  __shared__ float block[BLOCK_DIM][BLOCK_DIM + 1];
  unsigned xIndex = blockIdx.x * BLOCK_DIM + threadIdx.x;
  unsigned yIndex = blockIdx.y * BLOCK_DIM + threadIdx.y;
  if (xIndex < width && yIndex < height) block[threadIdx.y][threadIdx.x] = idata[yIndex * width + xIndex];
  __syncthreads();
  xIndex = blockIdx.y * BLOCK_DIM + threadIdx.x;
  yIndex = blockIdx.x * BLOCK_DIM + threadIdx.y;
  if (xIndex < height && yIndex < width) odata[yIndex * height + xIndex] = block[threadIdx.x][threadIdx.y];
}
