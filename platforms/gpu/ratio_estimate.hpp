// The ratio estimator that both kinds of sampling use (docs/sampling.md): samples of (cycles y, warp
// instructions x), and the warp instructions X_u of the work that was not timed. Under the model
// y = R x + e, Var(e) = s^2 x, R = sum y / sum x, and the error of R X_u has variance s^2 (X_u^2 / X_s + X_u)
// (R's own uncertainty and the untimed work's spread about it); the bound is Student's t at 97.5 % (a
// two-sided 95 % interval) for n - 1 degrees of freedom times its square root. With one sample there is no
// spread to judge by: the bound is the whole estimated part.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace warptlm {

struct RatioSample {
  double cycles = 0, warp_instructions = 0;
};

// Student's t at 97.5 % for `dof` degrees of freedom (0: none).
inline double t975(uint64_t dof) {
  static const double table[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                 2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                 2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  if (dof == 0) return 0;
  if (dof <= 30) return table[dof - 1];
  return 1.96 + 2.4 / double(dof);  // within 0.002 of the exact value from 31 on
}

struct RatioEstimate {
  double ratio = 0;  // cycles per warp instruction (0: no samples)
  double bound = 0;  // half-width of the 95 % interval about ratio x untimed
};

inline RatioEstimate ratio_estimate(const std::vector<RatioSample>& samples, double untimed) {
  RatioEstimate r;
  double sy = 0, sx = 0;
  for (const RatioSample& s : samples) {
    sy += s.cycles;
    sx += std::max(s.warp_instructions, 1.0);
  }
  if (samples.empty()) return r;
  r.ratio = sy / sx;
  if (untimed <= 0) return r;
  if (samples.size() == 1) {
    r.bound = r.ratio * untimed;
    return r;
  }
  double ss = 0;
  for (const RatioSample& s : samples) {
    const double x = std::max(s.warp_instructions, 1.0), e = s.cycles - r.ratio * x;
    ss += e * e / x;
  }
  const double s2 = ss / double(samples.size() - 1);
  r.bound = t975(samples.size() - 1) * std::sqrt(s2 * (untimed * untimed / sx + untimed));
  return r;
}

}  // namespace warptlm
