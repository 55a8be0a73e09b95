// Calibration host program for vecadd: tb/workloads/vecadd/vecadd.cpp's inputs, launch and check.
//   vecadd [tiny|small|medium|large]
#include "../../../tb/workloads/vecadd/vecadd.cu"
#include "host_common.h"

int main(int argc, char** argv) {
  using namespace calib;
  const Size size = size_arg(argc, argv);
  const int n = by_size(size, 4000, 40000, 1000000, 10000000);
  const uint32_t block = 256;
  std::mt19937_64 rng(kSeed);
  std::vector<float> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    a[i] = uniform_float(rng, -100.0f, 100.0f);
    b[i] = uniform_float(rng, -100.0f, 100.0f);
  }
  float* da = upload(a);
  float* db = upload(b);
  float* dc = alloc<float>(n);
  vecadd<<<ceil_div(n, block), block>>>(da, db, dc, n);
  CALIB_CHECK(cudaGetLastError());
  const std::vector<float> c = download(dc, n);
  CALIB_CHECK(cudaFree(da));
  CALIB_CHECK(cudaFree(db));
  CALIB_CHECK(cudaFree(dc));
  std::vector<float> ref(n);
  for (int i = 0; i < n; ++i) ref[i] = a[i] + b[i];
  return check_exact("c", c, ref) ? 0 : 1;
}
