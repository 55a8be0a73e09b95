// Calibration host program for reduce_seq: tb/workloads/drivers.hpp's run_reduction with reduce_sequential
// (two elements per thread, blocks of 256): launches until one value remains, the first pass's partials
// checked exactly, the total within the driver's tolerance.
//   reduce_seq [tiny|small|medium|large]
#include <algorithm>

#include "../../../tb/workloads/reduce_seq/reduce_seq.cu"
#include "host_common.h"

int main(int argc, char** argv) {
  using namespace calib;
  const Size size = size_arg(argc, argv);
  const uint32_t n = by_size<uint32_t>(size, 3000, 40000, 600000, 6000000);
  const uint32_t block = 256, per_block = 2 * block;
  std::mt19937_64 rng(kSeed);
  std::vector<float> in(n);
  for (auto& v : in) v = float(int(uniform_u32(rng, 129)) - 64) / 64.0f;
  float* src = upload(in);
  std::vector<float*> owned{src};
  std::vector<float> first_pass;
  uint32_t count = n;
  do {
    const uint32_t blocks = ceil_div(count, per_block);
    float* dst = alloc<float>(blocks);
    owned.push_back(dst);
    reduce_sequential<<<blocks, block>>>(src, dst, count);
    CALIB_CHECK(cudaGetLastError());
    if (count == n) first_pass = download(dst, blocks);
    src = dst;
    count = blocks;
  } while (count > 1);
  const float total = download(src, 1)[0];
  for (float* p : owned) CALIB_CHECK(cudaFree(p));

  std::vector<float> ref_first(ceil_div(n, per_block));
  double sum = 0.0, sumabs = 0.0;
  for (size_t b = 0; b < ref_first.size(); ++b) {
    double s = 0.0;
    for (size_t i = b * per_block; i < std::min<size_t>(n, (b + 1) * per_block); ++i) s += in[i];
    ref_first[b] = float(s);
    sum += s;
  }
  for (float v : in) sumabs += std::fabs(v);
  if (!check_exact("partial", first_pass, ref_first)) return 1;
  if (!check_floats("sum", std::vector<float>{total}, std::vector<double>{sum}, 0.0, 1e-5 + 1e-6 * sumabs)) return 1;
  return 0;
}
