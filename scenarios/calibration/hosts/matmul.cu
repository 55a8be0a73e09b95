// Calibration host program for matmul: tb/workloads/matmul/matmul.cpp's inputs, launch and check.
//   matmul [tiny|small|medium|large]
#include "../../../tb/workloads/matmul/matmul.cu"
#include "host_common.h"

int main(int argc, char** argv) {
  using namespace calib;
  const Size size = size_arg(argc, argv);
  const int n = by_size(size, 32, 64, 256, 512);
  const uint32_t tile = 16;
  std::mt19937_64 rng(kSeed);
  const size_t nn = size_t(n) * n;
  std::vector<float> a(nn), b(nn);
  for (auto& v : a) v = uniform_float(rng, -1.0f, 1.0f);
  for (auto& v : b) v = uniform_float(rng, -1.0f, 1.0f);
  float* da = upload(a);
  float* db = upload(b);
  float* dc = alloc<float>(nn);
  matmul_tiled<<<dim3(ceil_div(n, tile), ceil_div(n, tile)), dim3(tile, tile)>>>(da, db, dc, n);
  CALIB_CHECK(cudaGetLastError());
  const std::vector<float> c = download(dc, nn);
  CALIB_CHECK(cudaFree(da));
  CALIB_CHECK(cudaFree(db));
  CALIB_CHECK(cudaFree(dc));
  // The driver's reference: double sums, tolerance 1e-5 + 1e-4 relative + 2e-6 * sum_k |a_ik * b_kj|.
  std::vector<double> ref(nn), slack(nn);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0.0, sa = 0.0;
      for (int k = 0; k < n; ++k) {
        const double p = double(a[size_t(i) * n + k]) * double(b[size_t(k) * n + j]);
        s += p;
        sa += std::fabs(p);
      }
      ref[size_t(i) * n + j] = s;
      slack[size_t(i) * n + j] = 2e-6 * sa;
    }
  return check_floats("C", c, ref, 1e-4, 1e-5, &slack) ? 0 : 1;
}
