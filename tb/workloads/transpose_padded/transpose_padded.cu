// transpose_padded: out = in^T through a 32x33 shared tile. The extra column
// shifts each tile row by one bank, so the column read tile[tx][...] hits 32
// different banks: conflict free. Otherwise identical to transpose_naive.
#define TDIM 32
#define TROWS 8

extern "C" __global__ void transpose_padded(const float* __restrict__ in, float* __restrict__ out,
                                 int width, int height) {
  __shared__ float tile[TDIM][TDIM + 1];
  int x = blockIdx.x * TDIM + threadIdx.x;
  int y = blockIdx.y * TDIM + threadIdx.y;
  for (int j = 0; j < TDIM; j += TROWS)
    if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  // Swap the block coordinates: this block writes the transposed tile.
  x = blockIdx.y * TDIM + threadIdx.x;
  y = blockIdx.x * TDIM + threadIdx.y;
  for (int j = 0; j < TDIM; j += TROWS)
    if (x < height && y + j < width) out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}
