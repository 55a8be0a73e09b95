// transpose_naive: out = in^T for a height x width float matrix through a 32x32
// shared tile with no padding. Rows are written to the tile and columns read
// back: the column read tile[tx][...] puts all 32 lanes of a warp in the same
// bank, a 32-way bank conflict on every read. Blocks are 32x8 threads, each
// thread moving 4 elements.
#define TDIM 32
#define TROWS 8

extern "C" __global__ void transpose_naive(const float* __restrict__ in, float* __restrict__ out,
                                int width, int height) {
  __shared__ float tile[TDIM][TDIM];
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
