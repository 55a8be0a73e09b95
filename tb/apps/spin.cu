// spin: launches a kernel that waits for a flag nobody sets, so it never ends;
// `warptlm exec` must stop it (a signal, a run limit or a watchdog) in either mode.
#include <cstdio>

__global__ void wait_for_flag(volatile int* flag, int* out) {
  while (*flag == 0) {
  }
  out[threadIdx.x] = 1;
}

int main() {
  int *flag = nullptr, *out = nullptr;
  cudaMalloc(&flag, sizeof(int));
  cudaMalloc(&out, 64 * sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  std::printf("spin: launching a kernel that never ends\n");
  std::fflush(stdout);
  wait_for_flag<<<1, 64>>>(flag, out);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("spin: the kernel ended: %s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
