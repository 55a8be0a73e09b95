#include "gpu/interval_sampler.hpp"

#include <algorithm>
#include <cmath>

#include "common/input_register.hpp"  // test_fault

namespace warptlm {

uint32_t IntervalSampler::begin_launch(const std::string& kernel, const uint32_t block[3], uint32_t dynamic_smem,
                                       uint64_t cycle, uint64_t issued, uint64_t retired) {
  Launch l;
  l.kernel = kernel;
  std::copy(block, block + 3, l.block);
  l.dynamic_smem = dynamic_smem;
  launches_.push_back(std::move(l));
  retire_rate_ = 0;
  settling_ = false;
  timed_x_ = 0;
  open(cycle, issued, retired);
  return uint32_t(launches_.size() - 1);
}

uint64_t IntervalSampler::at_edge(uint64_t cycle, uint64_t issued, uint64_t retired) {
  if (launches_.empty() || cycle - start_cycle_ < interval_) return 0;
  Launch& l = launches_.back();
  const double x = double(issued - start_issued_);
  retire_rate_ = std::max(retire_rate_, double(retired - start_retired_) / double(cycle - start_cycle_));
  // the launch's first interval is its ramp, and the first after blocks ran functionally settles the SMs'
  // mix of resident blocks: neither is a sample
  const bool sample = ++l.intervals > 1 && !settling_;
  if (sample) l.samples.push_back({double(cycle - start_cycle_), x});
  settling_ = false;
  timed_x_ += x;
  open(cycle, issued, retired);
  if (!sample || period_ < 2) return 0;
  return std::max<uint64_t>(1, uint64_t(timed_x_) * (period_ - 1));  // one in `period` of the work timed
}

void IntervalSampler::fast_forwarded(uint64_t blocks, uint64_t warp_instructions, uint64_t cycle, uint64_t issued,
                                     uint64_t retired) {
  Launch& l = launches_.back();
  l.estimated_blocks += blocks;
  l.estimated_warp_instructions += double(warp_instructions);
  l.stretches.push_back({l.samples.size() - 1, double(warp_instructions)});
  settling_ = blocks > 0;
  if (blocks) timed_x_ = 0;
  open(cycle, issued, retired);
}

void IntervalSampler::end_launch(uint64_t cycles) {
  Launch& l = launches_.back();
  l.ended = true;
  l.cycles = double(cycles);
}

SamplingReport IntervalSampler::report() const {
  // WARPTLM_TEST_FAULT=sampling_drop_estimates (test-only): the estimate leaves out what ran functionally,
  // so a check of the estimate against a full run must fail.
  const bool drop = test_fault("sampling_drop_estimates");
  SamplingReport r;
  r.mode = "intervals";
  r.launch_estimate.assign(launches_.size(), 0.0);
  for (size_t i = 0; i < launches_.size(); ++i) {
    const Launch& l = launches_[i];
    if (!l.ended) continue;
    ++r.launches;
    if (!l.estimated_blocks) {  // timed whole
      ++r.timed;
      r.estimated_cycles += l.cycles;
      r.launch_estimate[i] = l.cycles;
      continue;
    }
    // each stretch at the ratio of the sampled intervals around it; the group's ratio is the stretches' mean
    const LocalEstimate e = local_ratio_estimate(l.samples, l.stretches, false, false);
    const double ratio = l.estimated_warp_instructions > 0 ? e.estimate / l.estimated_warp_instructions : 0;
    SamplingGroup g;
    g.kernel = l.kernel;
    std::copy(l.block, l.block + 3, g.block);
    g.dynamic_smem = l.dynamic_smem;
    g.launch = i;
    g.launches = 1;
    g.intervals = l.intervals;
    g.sampled_intervals = l.samples.size();
    g.estimated_blocks = l.estimated_blocks;
    g.cycles_per_warp_instruction = ratio;
    g.estimated_cycles = l.cycles + (drop ? 0.0 : ratio * l.estimated_warp_instructions);
    g.bound_cycles = e.bound;
    r.estimated_cycles += g.estimated_cycles;
    r.bound_cycles += g.bound_cycles;
    r.launch_estimate[i] = g.estimated_cycles;
    r.groups.push_back(g);
  }
  return r;
}

}  // namespace warptlm
