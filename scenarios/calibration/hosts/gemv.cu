// Calibration host program for gemv: tb/workloads/gemv/gemv.cpp's inputs, launches and checks (the strided
// reference's gemv rows: gemv_rows, each lane walking its own row, then gemv_cols, coalesced).
//   gemv [tiny|small|medium|large]
#include "../../../tb/workloads/gemv/gemv.cu"
#include "host_common.h"

int main(int argc, char** argv) {
  using namespace calib;
  const Size size = size_arg(argc, argv);
  const int n = by_size(size, 200, 640, 2000, 4000);
  const unsigned block = 128;
  std::mt19937_64 rng(kSeed);
  std::vector<float> a(size_t(n) * n), x(n);
  for (auto& v : a) v = uniform_float(rng, -1.0f, 1.0f);
  for (auto& v : x) v = uniform_float(rng, -1.0f, 1.0f);
  float* da = upload(a);
  float* dx = upload(x);
  float* dy = nullptr;
  float* dz = nullptr;
  CALIB_CHECK(cudaMalloc(&dy, size_t(n) * sizeof(float)));
  CALIB_CHECK(cudaMalloc(&dz, size_t(n) * sizeof(float)));
  gemv_rows<<<ceil_div(n, block), block>>>(da, dx, dy, n);
  CALIB_CHECK(cudaGetLastError());
  gemv_cols<<<ceil_div(n, block), block>>>(da, dx, dz, n);
  CALIB_CHECK(cudaGetLastError());
  const std::vector<float> y = download(dy, size_t(n));
  const std::vector<float> z = download(dz, size_t(n));
  for (float* p : {da, dx, dy, dz}) CALIB_CHECK(cudaFree(p));
  // The driver's references: each product rounded, then added, in the kernels' order (exact checks).
  std::vector<float> ry(n, 0.0f), rz(n, 0.0f);
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k) {
      const float p = a[size_t(i) * n + k] * x[k];  // rounded, then added: the kernel's __fmul_rn, __fadd_rn
      ry[i] = ry[i] + p;
    }
  for (int j = 0; j < n; ++j)
    for (int k = 0; k < n; ++k) {
      const float p = a[size_t(k) * n + j] * x[k];
      rz[j] = rz[j] + p;
    }
  const bool ok_y = check_exact("y", y, ry);
  const bool ok_z = check_exact("z", z, rz);
  return ok_y && ok_z ? 0 : 1;
}
