// Shared by the ss_srad1 and ss_srad2 host drivers: the seeded SRAD input
// image (a smooth random log-intensity field with speckle noise, J = exp(...))
// and its q0^2 (variance / mean^2 over the whole image, as SRAD's region of
// interest).
#pragma once
#include <cmath>
#include <random>
#include <vector>

#include "workloads/util.hpp"

namespace warptlm {
namespace wl {

inline std::vector<float> srad_image(int rows, int cols, uint64_t seed) {
  std::mt19937_64 rng(seed);
  float a[4], fy[4], fx[4], ph[4];
  for (int k = 0; k < 4; ++k) {
    a[k] = uniform_float(rng, 0.05f, 0.2f);
    fy[k] = uniform_float(rng, 0.01f, 0.1f);
    fx[k] = uniform_float(rng, 0.01f, 0.1f);
    ph[k] = uniform_float(rng, 0.0f, 6.28f);
  }
  std::vector<float> J(size_t(rows) * cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      float v = 0.5f;
      for (int k = 0; k < 4; ++k) v += a[k] * std::sin(fy[k] * i + fx[k] * j + ph[k]);
      v += uniform_float(rng, -0.03f, 0.03f);
      J[size_t(i) * cols + j] = std::exp(v);
    }
  return J;
}

inline float srad_q0sqr(const std::vector<float>& J) {
  double s = 0.0, s2 = 0.0;
  for (float v : J) {
    s += v;
    s2 += double(v) * v;
  }
  const double mean = s / J.size(), var = s2 / J.size() - mean * mean;
  return float(var / (mean * mean));
}

}  // namespace wl
}  // namespace warptlm
