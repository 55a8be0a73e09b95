// Shared by the ss_srad1 and ss_srad2 host drivers: the seeded SRAD input
// image (a smooth random log-intensity field with speckle noise, J = exp(...))
// and its q0^2 (variance / mean^2 over the whole image, as SRAD's region of
// interest), and SRAD's first stage at one pixel.
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

// SRAD's first stage at pixel (i, j), with the image clamped at its borders:
// the four differences to the neighbours and the diffusion coefficient c in
// [0, 1], computed in T (double for SRAD1's reference, float where SRAD2 takes
// them as its inputs).
template <class T>
struct SradStage1 {
  T dn, ds, dw, de, c;
};
template <class T>
SradStage1<T> srad_stage1(const std::vector<float>& J, int rows, int cols, int i, int j, float q0sqr) {
  const T q0 = q0sqr;
  const T jc = J[size_t(i) * cols + j];
  SradStage1<T> r;
  r.dn = J[size_t(i > 0 ? i - 1 : 0) * cols + j] - jc;
  r.ds = J[size_t(i < rows - 1 ? i + 1 : rows - 1) * cols + j] - jc;
  r.dw = J[size_t(i) * cols + (j > 0 ? j - 1 : 0)] - jc;
  r.de = J[size_t(i) * cols + (j < cols - 1 ? j + 1 : cols - 1)] - jc;
  const T g2 = (r.dn * r.dn + r.ds * r.ds + r.dw * r.dw + r.de * r.de) / (jc * jc);
  const T l = (r.dn + r.ds + r.dw + r.de) / jc;
  const T den = T(1) + T(0.25) * l;
  const T q = (T(0.5) * g2 - T(0.0625) * l * l) / (den * den);
  const T c = T(1) / (T(1) + (q - q0) / (q0 * (T(1) + q0)));
  r.c = c < T(0) ? T(0) : (c > T(1) ? T(1) : c);
  return r;
}

}  // namespace wl
}  // namespace warptlm
