// status: adds two vectors on the device and checks the sum on the host, then exits with the status its
// first argument names (default 0). `warptlm exec` must report that status as the application's, not as a
// check of its own: exit 0 is `not_checked` (WarpTLM compared nothing), anything else the application's failure.
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void add(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main(int argc, char** argv) {
  const int status = argc > 1 ? std::atoi(argv[1]) : 0;
  const int n = 1000;
  std::vector<float> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) {
    a[i] = float(i);
    b[i] = float(2 * i);
  }
  float *da, *db, *dc;
  cudaMalloc(&da, n * sizeof(float));
  cudaMalloc(&db, n * sizeof(float));
  cudaMalloc(&dc, n * sizeof(float));
  cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  add<<<(n + 127) / 128, 128>>>(da, db, dc, n);
  cudaMemcpy(c.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += c[i] != float(3 * i);
  std::printf("status: %d of %d sums wrong; exiting with %d\n", wrong, n, status);
  return wrong ? 1 : status;
}
