// Kernel of the rtl_scheduler example platform. PTX: kernels.ptx
// (nvcc -ptx -arch=compute_75 -O3 kernels.cu), committed so building needs no CUDA.

// out[r] = sum over c of m[r * cols + c] * v[c]: one warp per row, its lanes striding the row, a warp shuffle
// tree at the end. Many warps a block, each waiting on its loads: what a warp scheduler chooses among.
extern "C" __global__ void row_dot(int rows, int cols, const float* m, const float* v, float* out) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (warp >= rows) return;
  float s = 0.0f;
  for (int c = lane; c < cols; c += 32) s += m[warp * cols + c] * v[c];
  for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(0xffffffffu, s, o);
  if (lane == 0) out[warp] = s;
}
