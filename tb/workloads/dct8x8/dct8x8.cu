// dct8x8: orthonormal 2-D DCT-II of every 8x8 block of a float image,
//   F[v][u] = sum_y sum_x C[v][y] * C[u][x] * f[y][x],
//   C[k][n] = c(k) * cos((2n + 1) k pi / 16), c(0) = sqrt(1/8), c(k>0) = 1/2,
// done separably: a row pass and a column pass through shared memory. A block
// of 32x8 threads covers four horizontally adjacent 8x8 blocks, one pixel per
// thread. The cosine table lives in constant memory: in the row pass the lanes
// of a warp read 8 different entries (serialised constant-cache accesses), in
// the column pass all lanes read the same one (broadcast).
// width must be a multiple of 32 and height a multiple of 8.

__constant__ float c_dct[64] = {
    0.353553391f, 0.353553391f, 0.353553391f, 0.353553391f, 0.353553391f, 0.353553391f, 0.353553391f, 0.353553391f,
    0.490392640f, 0.415734806f, 0.277785117f, 0.097545161f, -0.097545161f, -0.277785117f, -0.415734806f, -0.490392640f,
    0.461939766f, 0.191341716f, -0.191341716f, -0.461939766f, -0.461939766f, -0.191341716f, 0.191341716f, 0.461939766f,
    0.415734806f, -0.097545161f, -0.490392640f, -0.277785117f, 0.277785117f, 0.490392640f, 0.097545161f, -0.415734806f,
    0.353553391f, -0.353553391f, -0.353553391f, 0.353553391f, 0.353553391f, -0.353553391f, -0.353553391f, 0.353553391f,
    0.277785117f, -0.490392640f, 0.097545161f, 0.415734806f, -0.415734806f, -0.097545161f, 0.490392640f, -0.277785117f,
    0.191341716f, -0.461939766f, 0.461939766f, -0.191341716f, -0.191341716f, 0.461939766f, -0.461939766f, 0.191341716f,
    0.097545161f, -0.277785117f, 0.415734806f, -0.490392640f, 0.490392640f, -0.415734806f, 0.277785117f, -0.097545161f};

extern "C" __global__ void dct8x8(const float* __restrict__ in, float* __restrict__ out, int width, int height) {
  __shared__ float pix[8][32];
  __shared__ float rows[8][32];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * 32 + tx;
  const int y = blockIdx.y * 8 + ty;
  const size_t idx = (size_t)y * (size_t)width + (size_t)x;  // 64-bit pixel index
  pix[ty][tx] = (x < width && y < height) ? in[idx] : 0.0f;
  __syncthreads();
  const int u = tx & 7;      // horizontal frequency of this thread
  const int base = tx & ~7;  // first column of this thread's 8x8 block in the tile
  float acc = 0.0f;
#pragma unroll
  for (int n = 0; n < 8; ++n) acc += c_dct[u * 8 + n] * pix[ty][base + n];
  rows[ty][tx] = acc;
  __syncthreads();
  acc = 0.0f;
#pragma unroll
  for (int m = 0; m < 8; ++m) acc += c_dct[ty * 8 + m] * rows[m][tx];
  if (x < width && y < height) out[idx] = acc;
}
