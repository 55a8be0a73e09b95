// Kernels of the host-and-GPU example platform. PTX: kernels.ptx
// (nvcc -ptx -arch=compute_75 -O3 kernels.cu), committed so building needs no CUDA.

// y[i] = a * x[i] + y[i]
extern "C" __global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

// One partial sum per block of 256 threads, a tree in shared memory.
extern "C" __global__ void block_sum(int n, const int* in, int* partial) {
  __shared__ int s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (t < w) s[t] += s[t + w];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = s[0];
}
