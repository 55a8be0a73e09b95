// The ratio estimator that both kinds of sampling use (docs/sampling.md): samples of (cycles y, warp
// instructions x) taken along a run, and stretches of untimed work between them, each estimated as R x with
// R from the samples nearest it (local_ratio_estimate), under the model y = R x + e, Var(e) = s^2 x.
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

// The ratio of samples [lo, hi] of `s`, leaving out `skip`.
inline double ratio_of(const std::vector<RatioSample>& s, size_t lo, size_t hi, size_t skip = SIZE_MAX) {
  double y = 0, x = 0;
  for (size_t i = lo; i <= hi && i < s.size(); ++i)
    if (i != skip) y += s[i].cycles, x += std::max(s[i].warp_instructions, 1.0);
  return x > 0 ? y / x : 0.0;
}

// Untimed work between samples: `warp_instructions` after sample `after_sample` (0 also for work before the
// first sample), in the order of the samples.
struct UntimedStretch {
  size_t after_sample = 0;
  double warp_instructions = 0;
};
struct LocalEstimate {
  double estimate = 0;        // the stretches' cycles
  double bound = 0;           // half-width of the 95 % interval about it
  std::vector<double> ratio;  // per stretch: the ratio it was estimated at
};

// Samples taken along a run whose rate may drift: each stretch at the ratio of the two samples around it
// (the one before and the one after). A stretch with no sample after it (or none before) takes the one
// before alone, or, `nearest_two`, the two nearest it (launch sampling: every stretch from two samples).
// The samples' spread s^2 is each one's error when predicted from its neighbours, leaving it out. The
// estimate is a sum of the samples' cycles, each weighted by the stretches that use it (w_i = sum of X over
// the pair's x), so under the ratio model (errors independent, Var = s^2 x) its error has variance
// s^2 (sum w_i^2 x_i + X_u), the stretches' own spread about their ratios included (`independent`). Interval
// sampling, whose samples share the timeline the functional stretches compress, takes the stretches' ratio
// errors as if they all leaned one way instead: (sum X sqrt(s^2 / (x_lo + x_hi)))^2 + s^2 X_u. Student's t
// at 97.5 % for n - 1 degrees of freedom; one sample: the bound is the whole estimate.
inline LocalEstimate local_ratio_estimate(const std::vector<RatioSample>& s, const std::vector<UntimedStretch>& stretches,
                                          bool nearest_two, bool independent) {
  LocalEstimate r;
  const size_t n = s.size();
  if (!n) return r;
  double ratio_error = 0, noise = 0, ss = 0;
  std::vector<double> weight(independent ? n : 0, 0.0);  // per sample: the untimed work it stands for, over its pair's
  if (n >= 2)
    for (size_t i = 0; i < n; ++i) {
      const double x = std::max(s[i].warp_instructions, 1.0);
      const double e = s[i].cycles - ratio_of(s, i ? i - 1 : 0, i + 1, i) * x;
      ss += e * e / x;
    }
  const double s2 = n >= 2 ? ss / double(n - 1) : 0;
  for (const UntimedStretch& st : stretches) {
    const size_t lo = nearest_two && n >= 2 ? std::min(st.after_sample, n - 2) : std::min(st.after_sample, n - 1);
    const size_t hi = std::min(lo + 1, n - 1);
    const double ratio = ratio_of(s, lo, hi);
    double xs = 0;
    for (size_t i = lo; i <= hi; ++i) xs += std::max(s[i].warp_instructions, 1.0);
    r.ratio.push_back(ratio);
    r.estimate += ratio * st.warp_instructions;
    noise += s2 * st.warp_instructions;  // the stretches' own spread about their ratios
    if (independent)
      for (size_t i = lo; i <= hi; ++i) weight[i] += st.warp_instructions / xs;
    else
      ratio_error += st.warp_instructions * std::sqrt(s2 / xs);  // the ratios' errors, all leaning one way
  }
  if (independent) {
    double v = 0;
    for (size_t i = 0; i < n; ++i) v += weight[i] * weight[i] * std::max(s[i].warp_instructions, 1.0);
    ratio_error = std::sqrt(s2 * v);
  }
  r.bound = n >= 2 ? t975(n - 1) * std::sqrt(ratio_error * ratio_error + noise) : r.estimate;
  return r;
}

}  // namespace warptlm
