// Helpers shared by the workload host drivers: portable seeded inputs and
// result checks that name the first mismatch.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "workloads/workload.hpp"

namespace warptlm {
namespace wl {

// Uniform float in [0, 1) from the top 24 bits of one draw: the same value on
// every platform (std::uniform_real_distribution is not portable).
inline float unit_float(std::mt19937_64& rng) {
  return float(rng() >> 40) * (1.0f / 16777216.0f);
}
inline float uniform_float(std::mt19937_64& rng, float lo, float hi) {
  return lo + (hi - lo) * unit_float(rng);
}
// Uniform integer in [0, bound): portable, unlike std::uniform_int_distribution.
inline uint32_t uniform_u32(std::mt19937_64& rng, uint32_t bound) {
  return uint32_t(rng() % bound);
}

// `n` bytes for a histogram: a quarter from 4 hot values (same-bin contention), the rest uniform.
inline std::vector<uint8_t> skewed_bytes(std::mt19937_64& rng, size_t n) {
  static const uint8_t hot[4] = {0, 42, 128, 255};
  std::vector<uint8_t> data(n);
  for (auto& v : data) {
    const uint64_t r = rng();
    v = (r & 3) == 0 ? hot[(r >> 2) & 3] : uint8_t(r >> 56);
  }
  return data;
}

inline uint32_t ceil_div(uint64_t a, uint64_t b) { return uint32_t((a + b - 1) / b); }

// Picks the value for a size preset.
template <class T>
T by_size(Size s, T tiny, T small, T medium, T large) {
  switch (s) {
    case Size::Tiny: return tiny;
    case Size::Small: return small;
    case Size::Medium: return medium;
    case Size::Large: return large;
  }
  return tiny;
}

inline std::string fmt_float(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

// Float check: |got - ref| <= atol + rtol * |ref| (+ extra_atol[i] if given).
// Returns verified=false with the first mismatch, or a summary line.
inline WorkloadResult check_floats(const std::string& what, const std::vector<float>& got,
                                   const std::vector<double>& ref, double rtol, double atol,
                                   const std::vector<double>* extra_atol = nullptr) {
  WorkloadResult r;
  if (got.size() != ref.size()) {
    r.detail = what + ": size " + std::to_string(got.size()) + ", expected " + std::to_string(ref.size());
    return r;
  }
  for (size_t i = 0; i < got.size(); ++i) {
    double tol = atol + rtol * std::fabs(ref[i]) + (extra_atol ? (*extra_atol)[i] : 0.0);
    double g = got[i];
    if (!(std::fabs(g - ref[i]) <= tol)) {  // also catches NaN
      r.detail = what + "[" + std::to_string(i) + "]: got " + fmt_float(g) + ", expected " +
                 fmt_float(ref[i]) + " (tolerance " + fmt_float(tol) + ")";
      return r;
    }
  }
  r.verified = true;
  r.detail = std::to_string(got.size()) + " " + what + " elements match";
  return r;
}

// Exact check for integers (and for floats whose computation is exact).
template <class T>
WorkloadResult check_exact(const std::string& what, const std::vector<T>& got, const std::vector<T>& ref) {
  WorkloadResult r;
  if (got.size() != ref.size()) {
    r.detail = what + ": size " + std::to_string(got.size()) + ", expected " + std::to_string(ref.size());
    return r;
  }
  for (size_t i = 0; i < got.size(); ++i) {
    if (!(got[i] == ref[i])) {
      std::ostringstream os;
      os.precision(9);
      os << what << "[" << i << "]: got " << +got[i] << ", expected " << +ref[i];
      r.detail = os.str();
      return r;
    }
  }
  r.verified = true;
  r.detail = std::to_string(got.size()) + " " + what + " elements match";
  return r;
}

// Joins the results of several checks: fails at the first failing one.
inline WorkloadResult all_of(const std::vector<WorkloadResult>& parts) {
  WorkloadResult r;
  r.verified = true;
  for (const auto& p : parts) {
    if (!p.verified) return p;
    if (!r.detail.empty()) r.detail += "; ";
    r.detail += p.detail;
  }
  return r;
}

}  // namespace wl
}  // namespace warptlm
