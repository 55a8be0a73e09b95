// Calibration host program for histogram: tb/workloads/histogram/histogram.cpp's skewed byte stream, zeroed
// bins, one launch of the fixed grid, exact check of the 256 bins.
//   histogram [tiny|small|medium|large]
#include "../../../tb/workloads/histogram/histogram.cu"
#include "host_common.h"

int main(int argc, char** argv) {
  using namespace calib;
  const Size size = size_arg(argc, argv);
  const uint32_t n = by_size<uint32_t>(size, 8192, 131072, 2u << 20, 16u << 20);
  const uint32_t grid = by_size<uint32_t>(size, 8, 16, 64, 128);
  const uint32_t block = 256;
  std::mt19937_64 rng(kSeed);
  // wl::skewed_bytes: a quarter from 4 hot values, the rest uniform.
  static const uint8_t hot[4] = {0, 42, 128, 255};
  std::vector<uint8_t> data(n);
  for (auto& v : data) {
    const uint64_t r = rng();
    v = (r & 3) == 0 ? hot[(r >> 2) & 3] : uint8_t(r >> 56);
  }
  uint8_t* ddata = upload(data);
  uint32_t* dbins = alloc<uint32_t>(256);
  CALIB_CHECK(cudaMemset(dbins, 0, 256 * sizeof(uint32_t)));
  histogram256<<<grid, block>>>(ddata, n, dbins);
  CALIB_CHECK(cudaGetLastError());
  const std::vector<uint32_t> bins = download(dbins, 256);
  CALIB_CHECK(cudaFree(ddata));
  CALIB_CHECK(cudaFree(dbins));
  std::vector<uint32_t> ref(256, 0);
  for (uint8_t v : data) ++ref[v];
  return check_exact("bin", bins, ref) ? 0 : 1;
}
