// pipeline: a CUDA program as a user writes one, run unmodified by `warptlm exec`. A multi-launch loop
// (an axpy step repeated), a block reduction in dynamic shared memory (extern __shared__, the size given at
// launch and raised with cudaFuncSetAttribute), coefficients in __constant__ memory (cudaMemcpyToSymbol), a
// __device__ counter read back with cudaMemcpyFromSymbol, a stream with asynchronous copies, and events
// around the loop. Every result is checked here on the host; exit status 0 when all match.
#include <cstdio>
#include <cstdlib>
#include <vector>

__constant__ float coeff[2];  // y = coeff[0] * x + coeff[1] * y
__device__ unsigned int steps_done;

__global__ void axpy_step(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = coeff[0] * x[i] + coeff[1] * y[i];
  if (i == 0) atomicAdd(&steps_done, 1u);
}

__global__ void block_sum(const float* y, float* partial, int n) {
  extern __shared__ float s[];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? y[i] : 0.0f;
  __syncthreads();
  for (int h = blockDim.x / 2; h > 0; h >>= 1) {
    if (threadIdx.x < h) s[threadIdx.x] += s[threadIdx.x + h];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
}

#define CHECK(call)                                                                             \
  do {                                                                                          \
    cudaError_t e_ = (call);                                                                    \
    if (e_ != cudaSuccess) {                                                                    \
      std::printf("pipeline: %s failed: %s\n", #call, cudaGetErrorString(e_));                  \
      return 1;                                                                                 \
    }                                                                                           \
  } while (0)

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 4096, steps = argc > 2 ? std::atoi(argv[2]) : 5;
  const int threads = 128, blocks = (n + threads - 1) / threads;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = float(i % 17) * 0.25f;   // exact in binary: every sum below is exact
    y[i] = float(i % 5);
  }
  const float c[2] = {2.0f, 0.5f};
  float *dx, *dy, *dpart;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CHECK(cudaMalloc(&dpart, blocks * sizeof(float)));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  CHECK(cudaMemcpyAsync(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice, stream));
  CHECK(cudaMemcpyAsync(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice, stream));
  CHECK(cudaMemcpyToSymbol(coeff, c, sizeof(c)));
  const unsigned zero = 0;
  CHECK(cudaMemcpyToSymbol(steps_done, &zero, sizeof(zero)));
  CHECK(cudaFuncSetAttribute(block_sum, cudaFuncAttributeMaxDynamicSharedMemorySize, threads * sizeof(float)));

  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start, stream));
  for (int s = 0; s < steps; ++s) axpy_step<<<blocks, threads, 0, stream>>>(dx, dy, n);
  CHECK(cudaGetLastError());
  block_sum<<<blocks, threads, threads * sizeof(float), stream>>>(dy, dpart, n);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(stop, stream));
  CHECK(cudaStreamSynchronize(stream));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));

  std::vector<float> part(blocks), got(n);
  CHECK(cudaMemcpy(part.data(), dpart, blocks * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  unsigned done = 0;
  CHECK(cudaMemcpyFromSymbol(&done, steps_done, sizeof(done)));

  int bad = 0;
  double total = 0;
  for (int i = 0; i < n; ++i) {
    float v = y[i];
    for (int s = 0; s < steps; ++s) v = c[0] * x[i] + c[1] * v;
    if (got[i] != v && bad++ < 3) std::printf("pipeline: y[%d] = %g, expected %g\n", i, got[i], v);
    total += v;
  }
  double sum = 0;
  for (float p : part) sum += p;
  const bool sum_ok = std::abs(sum - total) <= 1e-3 * std::abs(total);
  std::printf("pipeline: %d elements, %d steps: %s; sum %.3f (%s); %u steps counted; %.6f ms simulated\n", n, steps,
              bad ? "WRONG" : "match", sum, sum_ok ? "match" : "WRONG", done, ms);
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  CHECK(cudaFree(dpart));
  return bad == 0 && sum_ok && done == unsigned(steps) && ms >= 0 ? 0 : 1;  // functional runs take no simulated time
}
