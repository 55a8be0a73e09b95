// Calibration host program for transpose_naive: tb/workloads/drivers.hpp's run_transpose (32 x 32 tiles of
// 32 x 8 threads) with its inputs, launch and exact check.
//   transpose_naive [tiny|small|medium|large]
#include "../../../tb/workloads/transpose_naive/transpose_naive.cu"
#include "host_common.h"

int main(int argc, char** argv) {
  using namespace calib;
  const Size size = size_arg(argc, argv);
  const int width = by_size(size, 72, 320, 1024, 4096), height = by_size(size, 40, 256, 1024, 2048);
  const uint32_t tdim = 32, trows = 8;
  std::mt19937_64 rng(kSeed);
  const size_t count = size_t(width) * height;
  std::vector<float> in(count);
  for (auto& v : in) v = uniform_float(rng, -1000.0f, 1000.0f);
  float* din = upload(in);
  float* dout = alloc<float>(count);
  transpose_naive<<<dim3(ceil_div(width, tdim), ceil_div(height, tdim)), dim3(tdim, trows)>>>(din, dout, width, height);
  CALIB_CHECK(cudaGetLastError());
  const std::vector<float> out = download(dout, count);
  CALIB_CHECK(cudaFree(din));
  CALIB_CHECK(cudaFree(dout));
  std::vector<float> ref(count);
  for (int r = 0; r < height; ++r)
    for (int c = 0; c < width; ++c) ref[size_t(c) * height + r] = in[size_t(r) * width + c];
  return check_exact("out", out, ref) ? 0 : 1;
}
