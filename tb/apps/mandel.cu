// mandel: one long launch, the Mandelbrot set's escape counts over a W x H window in fixed point (exact on
// any machine), each thread a pixel: the inside of the set runs to the iteration limit while its outside
// escapes early, so the work per block changes across the launch, the case interval sampling serves.
// Arguments: W, H and the iteration limit. The counts are checked against the host's.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

__host__ __device__ int escape_count(int px, int py, int w, int h, int limit) {
  const int64_t one = int64_t(1) << 28;  // fixed point, 28 fractional bits
  const int64_t cx = -2 * one + (3 * one / w) * px, cy = -one + (2 * one / h) * py;
  int64_t x = 0, y = 0;
  int k = 0;
  for (; k < limit; ++k) {
    const int64_t xx = (x * x) >> 28, yy = (y * y) >> 28;
    if (xx + yy > 4 * one) break;
    const int64_t xy = (x * y) >> 27;
    x = xx - yy + cx;
    y = xy + cy;
  }
  return k;
}

__global__ void mandelbrot(int* counts, int w, int h, int limit) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px < w && py < h) counts[py * w + px] = escape_count(px, py, w, h, limit);
}

int main(int argc, char** argv) {
  const int w = argc > 1 ? std::atoi(argv[1]) : 64, h = argc > 2 ? std::atoi(argv[2]) : 48,
            limit = argc > 3 ? std::atoi(argv[3]) : 64;
  int* d;
  cudaMalloc(&d, size_t(w) * h * sizeof(int));
  mandelbrot<<<dim3((w + 15) / 16, (h + 15) / 16), dim3(16, 16)>>>(d, w, h, limit);
  std::vector<int> got(size_t(w) * h);
  cudaMemcpy(got.data(), d, got.size() * sizeof(int), cudaMemcpyDeviceToHost);
  int wrong = 0;
  long long total = 0;
  for (int py = 0; py < h; ++py)
    for (int px = 0; px < w; ++px) {
      const int want = escape_count(px, py, w, h, limit);
      wrong += got[size_t(py) * w + px] != want;
      total += want;
    }
  std::printf("mandel: %dx%d, limit %d, %lld iterations: %s (%d wrong)\n", w, h, limit, total, wrong ? "MISMATCH" : "match", wrong);
  return wrong ? 1 : 0;
}
