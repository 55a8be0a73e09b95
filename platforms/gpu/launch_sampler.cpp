#include "gpu/launch_sampler.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "common/input_register.hpp"  // test_fault
#include "gpu/ratio_estimate.hpp"

namespace warptlm {

namespace {
uint64_t mix(uint64_t x) {  // splitmix64's finaliser: every input bit moves every output bit
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
}  // namespace

LaunchSampler::LaunchSampler(uint32_t first, uint32_t every, uint32_t warm_up, uint64_t seed)
    : first_(first ? first : 1),
      every_(every),
      warm_up_(warm_up),
      seed_(seed),
      fixed_place_(test_fault("sampling_fixed_place")) {}

// A place drawn afresh for each period and shape (from the seed alone: the same in every run), so that the
// samples are a fair draw from the launches of their periods whatever pattern the launches repeat.
uint64_t LaunchSampler::place_in_period(uint32_t shape, uint64_t period) const {
  // WARPTLM_TEST_FAULT=sampling_fixed_place (test-only): the period's last launch, always; a check that
  // the estimate of launches alternating in speed is fair must fail.
  if (fixed_place_) return every_ - 1;
  return mix(mix(mix(seed_) ^ shape) ^ period) % every_;
}

LaunchSampler::Kind LaunchSampler::choose(const std::string& kernel, const uint32_t block[3], uint32_t dynamic_smem,
                                          uint32_t& index) {
  uint32_t g = 0;
  for (; g < shapes_.size(); ++g) {
    const Shape& s = shapes_[g];
    if (s.kernel == kernel && s.dynamic_smem == dynamic_smem && std::equal(block, block + 3, s.block)) break;
  }
  if (g == shapes_.size()) {
    Shape s;
    s.kernel = kernel;
    std::copy(block, block + 3, s.block);
    s.dynamic_smem = dynamic_smem;
    shapes_.push_back(s);
    want_samples(shapes_.back(), first_);  // a new shape waits for its first samples
  }
  Shape& sh = shapes_[g];
  // one more sample in each period of `every` launches of the shape, once its first are taken
  if (every_ && sh.seen >= first_ && (sh.seen - first_) % every_ == place_in_period(g, (sh.seen - first_) / every_))
    want_samples(sh, 1);
  ++sh.seen;
  const bool first_of_kernel = std::find(kernels_seen_.begin(), kernels_seen_.end(), kernel) == kernels_seen_.end();
  if (first_of_kernel) kernels_seen_.push_back(kernel);
  Kind kind = Kind::Estimated;
  if (waiting_) kind = timed_in_a_row_ >= warm_up_ ? Kind::Timed : Kind::WarmUp;  // a window: every launch timed
  timed_in_a_row_ = kind == Kind::Estimated ? 0 : timed_in_a_row_ == UINT64_MAX ? UINT64_MAX : timed_in_a_row_ + 1;
  index = uint32_t(launches_.size());
  // a sample of its stratum, unless the kernel meets cold caches (its first launch in the run)
  launches_.push_back(Launch{g, kind, kind == Kind::Timed && !first_of_kernel});
  return kind;
}

void LaunchSampler::measured(uint32_t index, uint64_t cycles, uint64_t warp_instructions) {
  Launch& l = launches_.at(index);
  l.known = true;
  l.cycles = double(cycles);
  l.warp_instructions = double(warp_instructions);
  l.stratum = stratum_of(l.warp_instructions);
  Shape& sh = shapes_[l.shape];
  uint64_t& samples = samples_in(sh, l.stratum);
  if (l.fits) {
    ++samples;
    took_sample(sh);
  }
  // a stratum short of samples (a grid that shrank, a frontier that grew): the shape asks for them, so its
  // next launches are timed
  if (samples < first_) want_samples(sh, first_ - samples);
}

SamplingReport LaunchSampler::report() const {
  // WARPTLM_TEST_FAULT=sampling_drop_estimates (test-only): the estimate leaves out the launches it did not
  // time, so a check of the estimate against a full run must fail.
  const bool drop = test_fault("sampling_drop_estimates");
  SamplingReport r;
  r.launch_estimate.assign(launches_.size(), 0.0);
  for (uint32_t g = 0; g < shapes_.size(); ++g) {
    // the shape's strata that its launches reached, with each one's samples in launch order
    struct Stratum {
      std::vector<const Launch*> samples, estimated;
      std::vector<size_t> after;  // per estimated launch: the sample before it (0 also when none is)
      double measured = 0, sum_y = 0, sum_x = 0, ratio = 0;
      uint64_t launches = 0, timed = 0;
    };
    std::map<int, Stratum> strata;
    for (const Launch& l : launches_) {
      if (l.shape != g || !l.known) continue;
      Stratum& s = strata[l.stratum];
      ++s.launches;
      if (l.kind != Kind::Estimated) ++s.timed;
      if (l.kind == Kind::Timed) {
        s.measured += l.cycles;
      } else {
        s.estimated.push_back(&l);
        s.after.push_back(s.samples.empty() ? 0 : s.samples.size() - 1);
      }
      if (l.fits) {
        s.samples.push_back(&l);
        s.sum_y += l.cycles;
        s.sum_x += std::max(l.warp_instructions, 1.0);
      }
    }
    for (auto& [k, s] : strata) s.ratio = s.samples.empty() ? 0.0 : s.sum_y / s.sum_x;
    std::vector<double> launch_ratio(launches_.size(), 0.0);  // per estimated launch: the ratio it was estimated at
    const auto at = [this](const Launch* l) { return size_t(l - launches_.data()); };
    for (auto& [k, s] : strata) {
      double untimed_x = 0;
      for (const Launch* l : s.estimated) untimed_x += std::max(l->warp_instructions, 1.0);
      SamplingGroup out;
      out.kernel = shapes_[g].kernel;
      std::copy(shapes_[g].block, shapes_[g].block + 3, out.block);
      out.dynamic_smem = shapes_[g].dynamic_smem;
      out.warp_instructions_low = k < 0 ? 0 : std::ldexp(1.0, k);
      out.warp_instructions_high = k < 0 ? 1 : std::ldexp(1.0, k + 1);
      out.launches = s.launches;
      out.timed = s.timed;
      double estimate = 0;
      if (s.samples.empty()) {
        // no samples: the nearest stratum's ratio, and the estimate is all bound (no spread of its own)
        int best = -1000;
        for (const auto& [k2, s2] : strata)
          if (!s2.samples.empty() && (best == -1000 || std::abs(k2 - k) < std::abs(best - k))) best = k2;
        const double ratio = best == -1000 ? 0.0 : strata[best].ratio;
        for (const Launch* l : s.estimated) launch_ratio[at(l)] = ratio;
        estimate = ratio * untimed_x;
        out.bound_cycles = estimate;
      } else {
        // each stretch of estimated launches at the ratio of the two samples nearest it, around it where it
        // lies between two (the rate of a shape's launches may drift along the run inside a stratum)
        std::vector<RatioSample> own;
        for (const Launch* l : s.samples) own.push_back({l->cycles, l->warp_instructions});
        std::vector<UntimedStretch> stretches;
        std::vector<size_t> stretch_of(s.estimated.size());
        for (size_t e = 0; e < s.estimated.size(); ++e) {
          if (stretches.empty() || stretches.back().after_sample != s.after[e]) stretches.push_back({s.after[e], 0.0});
          stretches.back().warp_instructions += std::max(s.estimated[e]->warp_instructions, 1.0);
          stretch_of[e] = stretches.size() - 1;
        }
        const LocalEstimate e = local_ratio_estimate(own, stretches, true, true);
        for (size_t x = 0; x < s.estimated.size(); ++x) launch_ratio[at(s.estimated[x])] = e.ratio[stretch_of[x]];
        estimate = e.estimate;
        out.bound_cycles = s.estimated.empty() ? 0.0 : e.bound;  // (every launch measured: none)
      }
      out.cycles_per_warp_instruction = untimed_x > 0 ? estimate / untimed_x : s.ratio;
      out.estimated_cycles = s.measured + (drop ? 0.0 : estimate);
      r.launches += out.launches;
      r.timed += out.timed;
      r.estimated_cycles += out.estimated_cycles;
      r.bound_cycles += out.bound_cycles;
      r.groups.push_back(out);
    }
    // each launch of the shape: measured, or the ratio of its stretch times its work
    for (size_t i = 0; i < launches_.size(); ++i) {
      const Launch& l = launches_[i];
      if (l.shape == g && l.known)
        r.launch_estimate[i] = l.kind == Kind::Timed ? l.cycles : launch_ratio[i] * std::max(l.warp_instructions, 1.0);
    }
  }
  return r;
}

}  // namespace warptlm
