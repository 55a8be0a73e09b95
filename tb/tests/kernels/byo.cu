// Kernels for the bring-your-own-PTX command tests (test_cli.cpp).
extern "C" __global__ void byo_scale(const float* a, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] * 2.5f + 1.0f;  // contracted to fma.rn.f32
}

// Reads 16 GiB past `a`: an unmapped address, so the run faults.
extern "C" __global__ void byo_fault(const float* a, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[(unsigned long long)i + (1ull << 32)];
}
