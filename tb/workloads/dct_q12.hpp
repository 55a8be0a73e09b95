// The fixed-point 8-point DCT of the ss_dct workloads' kernels, as their host drivers replay it on the CPU.
#pragma once
#include <cmath>
#include <cstdint>

namespace warptlm {
namespace wl {

// The Q12 cosines the kernels hold as immediates, derived here from their
// definition round(4096 * c(k) * cos((2n + 1) k pi / 16)), so a wrong constant
// in a kernel shows as a mismatch.
struct Q12Cosines {
  int c[8][8];
  Q12Cosines() {
    for (int k = 0; k < 8; ++k)
      for (int n = 0; n < 8; ++n)
        c[k][n] = int(std::lround(4096.0 * (k == 0 ? std::sqrt(0.125) : 0.5) * std::cos((2 * n + 1) * k * M_PI / 16.0)));
  }
};
inline const Q12Cosines kQ12;

// (acc + 2^(shift-1)) >> shift with an arithmetic (flooring) shift, as on the GPU.
inline int32_t round_shift(int32_t acc, int shift) {
  const int64_t v = int64_t(acc) + (int64_t(1) << (shift - 1));
  return int32_t(v >= 0 ? v >> shift : -((-v + (int64_t(1) << shift) - 1) >> shift));
}

}  // namespace wl
}  // namespace warptlm
