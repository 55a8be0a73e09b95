// 3-D grid and block indices: each thread writes its 12 index registers at its
// linear position (out[12 * linear + k]).
extern "C" __global__ void grid3d(unsigned* out) {
  unsigned bs = blockDim.x * blockDim.y * blockDim.z;
  unsigned block_lin = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  unsigned thread_lin = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  unsigned* o = out + 12 * (block_lin * bs + thread_lin);
  o[0] = threadIdx.x; o[1] = threadIdx.y; o[2] = threadIdx.z;
  o[3] = blockDim.x;  o[4] = blockDim.y;  o[5] = blockDim.z;
  o[6] = blockIdx.x;  o[7] = blockIdx.y;  o[8] = blockIdx.z;
  o[9] = gridDim.x;   o[10] = gridDim.y;  o[11] = gridDim.z;
}
