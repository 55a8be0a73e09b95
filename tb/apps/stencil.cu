// stencil: a 2D Jacobi stencil iterated by the host, one launch of one kernel per step (the shape of
// Rodinia's hotspot or an iterative solver run to a fixed step count): many launches whose timing repeats,
// the case kernel-level sampling serves best. Arguments: grid side N and steps S. The grid after S steps is
// checked against the same steps on the host.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void jacobi_step(const float* in, float* out, int n) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= n || y >= n) return;
  if (x == 0 || y == 0 || x == n - 1 || y == n - 1) {  // the boundary holds its value
    out[y * n + x] = in[y * n + x];
    return;
  }
  const float s = in[(y - 1) * n + x] + in[(y + 1) * n + x] + in[y * n + x - 1] + in[y * n + x + 1];
  out[y * n + x] = 0.25f * s;
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 64, steps = argc > 2 ? std::atoi(argv[2]) : 20;
  std::vector<float> a(size_t(n) * n, 0.0f);
  for (int x = 0; x < n; ++x) a[x] = 1.0f;  // a hot top edge
  for (int y = 0; y < n; ++y) a[size_t(y) * n] = 0.5f;
  float *d0, *d1;
  const size_t bytes = size_t(n) * n * sizeof(float);
  cudaMalloc(&d0, bytes);
  cudaMalloc(&d1, bytes);
  cudaMemcpy(d0, a.data(), bytes, cudaMemcpyHostToDevice);
  const dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
  for (int s = 0; s < steps; ++s) {
    jacobi_step<<<grid, block>>>(s % 2 ? d1 : d0, s % 2 ? d0 : d1, n);
  }
  std::vector<float> got(a.size());
  cudaMemcpy(got.data(), steps % 2 ? d1 : d0, bytes, cudaMemcpyDeviceToHost);
  std::vector<float> b(a.size());
  for (int s = 0; s < steps; ++s) {
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const size_t i = size_t(y) * n + x;
        if (x == 0 || y == 0 || x == n - 1 || y == n - 1) { b[i] = a[i]; continue; }
        const float sum = a[i - n] + a[i + n] + a[i - 1] + a[i + 1];
        b[i] = 0.25f * sum;
      }
    a.swap(b);
  }
  int wrong = 0;
  for (size_t i = 0; i < a.size(); ++i) wrong += std::fabs(got[i] - a[i]) > 1e-6f * (1.0f + std::fabs(a[i]));
  std::printf("stencil: %dx%d, %d steps: %s (%d wrong)\n", n, n, steps, wrong ? "MISMATCH" : "match", wrong);
  return wrong ? 1 : 0;
}
