// ep_transpose: out = in^T for a height x width float matrix, with the
// structure of the CUDA SDK 2.2 `transpose` sample that seed 001 ran as
// Transpose (Table 5: 16 x 16 blocks, grid 16 x 16): each thread reads one
// element into a 16 x 16 shared tile row-wise, a barrier, then writes one
// element of the transposed tile read column-wise. The SDK pads the tile to
// 17 columns; the paper undoes the padding for its conflicting set (Table 5's
// "*"), as this kernel does: the column read puts every lane of an 8-lane
// subwarp in one bank of 8 (degree 8), the row write none (degree 1).
#define BLOCK_DIM 16

extern "C" __global__ void ep_transpose(float* odata, const float* idata, int width, int height) {
  __shared__ float block[BLOCK_DIM][BLOCK_DIM];
  unsigned xIndex = blockIdx.x * BLOCK_DIM + threadIdx.x;
  unsigned yIndex = blockIdx.y * BLOCK_DIM + threadIdx.y;
  if (xIndex < width && yIndex < height) block[threadIdx.y][threadIdx.x] = idata[yIndex * width + xIndex];
  __syncthreads();
  xIndex = blockIdx.y * BLOCK_DIM + threadIdx.x;
  yIndex = blockIdx.x * BLOCK_DIM + threadIdx.y;
  if (xIndex < height && yIndex < width) odata[yIndex * height + xIndex] = block[threadIdx.x][threadIdx.y];
}
