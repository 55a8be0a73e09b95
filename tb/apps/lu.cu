// lu: LU decomposition without pivoting of a diagonally dominant matrix, a right-looking loop the host
// drives (the shape of Rodinia's lud or Gaussian elimination): for each column k, one launch divides the
// column below the pivot and one updates the trailing submatrix, whose grid shrinks as k grows. Launches of
// two kernels at N - 1 sizes each: the case where a launch's grid alone does not predict its timing.
// Arguments: matrix side N. L and U (in place) are checked against the same elimination on the host.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void scale_column(float* a, int n, int k) {
  const int i = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i * n + k] /= a[k * n + k];
}

__global__ void update_trailing(float* a, int n, int k) {
  const int j = k + 1 + blockIdx.x * blockDim.x + threadIdx.x, i = k + 1 + blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n) a[i * n + j] -= a[i * n + k] * a[k * n + j];
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 48;
  std::vector<float> a(size_t(n) * n);
  unsigned s = 12345;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      s = s * 1103515245u + 12345u;
      a[size_t(i) * n + j] = float((s >> 16) % 1000) / 1000.0f + (i == j ? float(n) : 0.0f);
    }
  float* d;
  const size_t bytes = a.size() * sizeof(float);
  cudaMalloc(&d, bytes);
  cudaMemcpy(d, a.data(), bytes, cudaMemcpyHostToDevice);
  for (int k = 0; k + 1 < n; ++k) {
    const int rest = n - k - 1;
    scale_column<<<(rest + 63) / 64, 64>>>(d, n, k);
    update_trailing<<<dim3((rest + 15) / 16, (rest + 15) / 16), dim3(16, 16)>>>(d, n, k);
  }
  std::vector<float> got(a.size());
  cudaMemcpy(got.data(), d, bytes, cudaMemcpyDeviceToHost);
  for (int k = 0; k + 1 < n; ++k) {
    for (int i = k + 1; i < n; ++i) a[size_t(i) * n + k] /= a[size_t(k) * n + k];
    for (int i = k + 1; i < n; ++i)
      for (int j = k + 1; j < n; ++j) a[size_t(i) * n + j] -= a[size_t(i) * n + k] * a[size_t(k) * n + j];
  }
  int wrong = 0;
  for (size_t i = 0; i < a.size(); ++i) wrong += std::fabs(got[i] - a[i]) > 1e-4f * (1.0f + std::fabs(a[i]));
  std::printf("lu: %dx%d, %d launches: %s (%d wrong)\n", n, n, 2 * (n - 1), wrong ? "MISMATCH" : "match", wrong);
  return wrong ? 1 : 0;
}
