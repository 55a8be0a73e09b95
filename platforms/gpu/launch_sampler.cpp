#include "gpu/launch_sampler.hpp"

#include <algorithm>
#include <cmath>

#include "common/input_register.hpp"  // test_fault

namespace warptlm {

namespace {

// Student's t at 97.5 % (a two-sided 95 % interval) for `dof` degrees of freedom.
double t975(uint64_t dof) {
  static const double table[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                 2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                 2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  if (dof == 0) return 0;
  if (dof <= 30) return table[dof - 1];
  return 1.96 + 2.4 / double(dof);  // within 0.002 of the exact value from 31 on
}

}  // namespace

LaunchSampler::Kind LaunchSampler::choose(const std::string& kernel, const uint32_t grid[3], const uint32_t block[3],
                                          uint32_t dynamic_smem, uint32_t& index) {
  uint32_t g = 0;
  for (; g < groups_.size(); ++g) {
    const SamplingGroup& s = groups_[g];
    if (s.kernel == kernel && s.dynamic_smem == dynamic_smem && std::equal(grid, grid + 3, s.grid) &&
        std::equal(block, block + 3, s.block))
      break;
  }
  if (g == groups_.size()) {
    SamplingGroup s;
    s.kernel = kernel;
    std::copy(grid, grid + 3, s.grid);
    std::copy(block, block + 3, s.block);
    s.dynamic_smem = dynamic_smem;
    groups_.push_back(s);
    shapes_.push_back(Shape{0, 0, first_});  // a new shape waits for its first samples
    ++waiting_;
  }
  Shape& sh = shapes_[g];
  // one more sample every `every`-th launch of the shape, once its first are taken
  if (every_ && sh.seen >= first_ && (sh.seen + 1 - first_) % every_ == 0) want_sample(sh);
  ++sh.seen;
  const bool first_of_kernel = std::find(kernels_seen_.begin(), kernels_seen_.end(), kernel) == kernels_seen_.end();
  if (first_of_kernel) kernels_seen_.push_back(kernel);
  Kind kind = Kind::Estimated;
  bool fits = false;
  if (waiting_) {  // a window is open: every launch is timed
    kind = timed_in_a_row_ >= warm_up_ ? Kind::Timed : Kind::WarmUp;
    // a measurement of its shape, unless the kernel meets cold caches (its first launch in the run)
    fits = kind == Kind::Timed && !first_of_kernel;
    if (fits) {
      ++sh.samples;
      if (sh.wanted && --sh.wanted == 0) --waiting_;
    }
  }
  timed_in_a_row_ = kind == Kind::Estimated ? 0 : timed_in_a_row_ == UINT64_MAX ? UINT64_MAX : timed_in_a_row_ + 1;
  index = uint32_t(launches_.size());
  launches_.push_back(Launch{g, kind, fits});
  return kind;
}

void LaunchSampler::measured(uint32_t index, uint64_t cycles, uint64_t warp_instructions) {
  Launch& l = launches_.at(index);
  l.known = true;
  l.cycles = double(cycles);
  l.warp_instructions = double(warp_instructions);
  Shape& sh = shapes_[l.group];
  const double x = l.warp_instructions;
  if (l.fits && x > 0) {  // the range its samples cover
    sh.low = sh.low > 0 ? std::min(sh.low, x) : x;
    sh.high = std::max(sh.high, x);
  }
  // A launch run functionally whose work lies beyond what the shape's samples cover (a BFS frontier that
  // grew or shrank): the shape asks for a sample again, so its next launches are timed.
  if (l.kind == Kind::Estimated && sh.low > 0 && !covered(sh, x) && !sh.wanted) want_sample(sh);
}

SamplingReport LaunchSampler::report() const {
  // WARPTLM_TEST_FAULT=sampling_drop_estimates (test-only): the estimate leaves out the launches it did not
  // time, so a check of the estimate against a full run must fail.
  const bool drop = test_fault("sampling_drop_estimates");
  SamplingReport r;
  r.groups = groups_;
  r.launch_estimate.assign(launches_.size(), 0.0);
  for (uint32_t g = 0; g < groups_.size(); ++g) {
    SamplingGroup& s = r.groups[g];
    // The shape's launches that ran to their end: measured (timed after a timed launch), the samples among
    // them, and those estimated (run functionally, or timed only to warm the caches).
    std::vector<const Launch*> fit, estimated;
    double measured = 0;
    for (const Launch& l : launches_) {
      if (l.group != g || !l.known) continue;
      ++s.launches;
      if (l.kind != Kind::Estimated) ++s.timed;
      if (l.kind == Kind::Timed) measured += l.cycles;
      else estimated.push_back(&l);
      if (l.fits) fit.push_back(&l);
    }
    // x: warp instructions, or 1 per launch where a sample ran none (then the estimate is the mean)
    bool x_known = true;
    for (const Launch* l : fit) x_known = x_known && l->warp_instructions > 0;
    auto x_of = [&](const Launch& l) { return x_known ? l.warp_instructions : 1.0; };
    double sum_y = 0, sum_x = 0, untimed_x = 0;
    for (const Launch* l : fit) {
      sum_y += l->cycles;
      sum_x += x_of(*l);
    }
    // Launches whose work lies beyond the samples' reach are extrapolated: the model's spread says nothing
    // of them, and the bound takes their whole estimate.
    double beyond_x = 0;
    size_t within = 0;
    for (const Launch* l : estimated)
      if (!x_known || covered(shapes_[g], l->warp_instructions)) {
        untimed_x += x_of(*l);
        ++within;
      } else {
        beyond_x += x_of(*l);
      }
    const uint64_t n = fit.size();
    const double ratio = n ? sum_y / sum_x : 0.0;
    s.cycles_per_warp_instruction = x_known && n ? ratio : 0.0;
    s.estimated_cycles = measured + (drop ? 0.0 : ratio * (untimed_x + beyond_x));
    if (within == 0 || n == 0) {
      s.bound_cycles = 0;  // every launch measured (or no sample: a run that stopped)
    } else if (n == 1) {
      s.bound_cycles = ratio * untimed_x;  // no spread to judge by: the whole estimated part
    } else {
      // y = R x + e, Var(e) = s2 x: the ratio estimator's model. The error of R x_u over the estimated
      // launches has variance s2 (X_u^2 / X_s + X_u): R's own uncertainty, and the launches' spread about it.
      double ss = 0;
      for (const Launch* l : fit) {
        const double x = x_of(*l), e = l->cycles - ratio * x;
        ss += e * e / x;
      }
      const double s2 = ss / double(n - 1);
      s.bound_cycles = t975(n - 1) * std::sqrt(s2 * (untimed_x * untimed_x / sum_x + untimed_x));
    }
    s.bound_cycles += ratio * beyond_x;
    for (size_t i = 0; i < launches_.size(); ++i) {
      const Launch& l = launches_[i];
      if (l.group != g || !l.known) continue;
      r.launch_estimate[i] = l.kind == Kind::Timed ? l.cycles : ratio * x_of(l);
    }
    r.launches += s.launches;
    r.timed += s.timed;
    r.estimated_cycles += s.estimated_cycles;
    r.bound_cycles += s.bound_cycles;
  }
  return r;
}

}  // namespace warptlm
