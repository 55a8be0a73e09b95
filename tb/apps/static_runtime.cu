// static_runtime: built with nvcc's default, the CUDA runtime linked statically (no -cudart shared), so
// WarpTLM's runtime library is never loaded and no call reaches the simulator. `warptlm exec` must refuse
// the run and name the cause, not report a success with no launches.
#include <cstdio>

__global__ void touch(int* p) { p[threadIdx.x] = 1; }

int main() {
  int* p = nullptr;
  const cudaError_t e = cudaMalloc(&p, 32 * sizeof(int));
  if (e == cudaSuccess) touch<<<1, 32>>>(p);
  std::printf("static_runtime: cudaMalloc returned %d\n", int(e));
  return 0;
}
