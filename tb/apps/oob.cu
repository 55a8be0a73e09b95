// oob: a kernel that stores far past its buffer, into memory nothing allocated. The simulated GPU faults at
// that store; `warptlm exec` must say so once, naming the PTX file it wrote and the store's line in it, and
// keep the faulting launch in stats.json with its status.
#include <cstdio>

__global__ void store_past_end(int* out, long long offset) {
  out[threadIdx.x + offset] = int(threadIdx.x);
}

int main() {
  int* out = nullptr;
  cudaMalloc(&out, 32 * sizeof(int));
  store_past_end<<<1, 32>>>(out, 1ll << 32);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("oob: the launch returned %s\n", cudaGetErrorName(e));
  return e == cudaSuccess ? 0 : 1;
}
