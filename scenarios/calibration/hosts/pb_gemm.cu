// Calibration host program for pb_gemm: tb/workloads/polybench/polybench.cpp's run_gemm inputs, launch and check
// (the strided reference's dense-product row: 32 x 8 blocks whose eight warps read the same line of B at once).
//   pb_gemm [tiny|small|medium|large]
#include "../../../tb/workloads/polybench/polybench.cu"
#include "host_common.h"

int main(int argc, char** argv) {
  using namespace calib;
  const Size size = size_arg(argc, argv);
  const int n = by_size(size, 48, 128, 256, 512);  // mm_size: ni = nj = nk
  const float alpha = 32412.0f, beta = 2123.0f;
  std::mt19937_64 rng(kSeed);
  const size_t nn = size_t(n) * n;
  std::vector<float> a(nn), b(nn), c(nn);
  for (auto& v : a) v = uniform_float(rng, -1.0f, 1.0f);
  for (auto& v : b) v = uniform_float(rng, -1.0f, 1.0f);
  for (auto& v : c) v = uniform_float(rng, -1.0f, 1.0f);
  float* da = upload(a);
  float* db = upload(b);
  float* dc = upload(c);
  gemm_kernel<<<dim3(ceil_div(n, 32), ceil_div(n, 8)), dim3(32, 8)>>>(n, n, n, alpha, beta, da, db, dc);
  CALIB_CHECK(cudaGetLastError());
  const std::vector<float> got = download(dc, nn);
  CALIB_CHECK(cudaFree(da));
  CALIB_CHECK(cudaFree(db));
  CALIB_CHECK(cudaFree(dc));
  // The driver's reference: the kernel's float operations in its order (exact check).
  std::vector<float> ref = c;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float& e = ref[size_t(i) * n + j];
      e = e * beta;
      for (int k = 0; k < n; ++k) e = e + float(float(alpha * a[size_t(i) * n + k]) * b[size_t(k) * n + j]);
    }
  return check_exact("C", got, ref) ? 0 : 1;
}
