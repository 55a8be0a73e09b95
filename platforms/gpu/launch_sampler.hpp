// Kernel-level sampling (sim.sampling: launches): which launches of a timing run are timed in full detail,
// and what the others are estimated to take, with a stated bound. docs/sampling.md.
//
// Launches are grouped by shape (kernel, block and dynamic shared memory) and, within a shape, by the work
// the functional executor counts: the octave of their warp instructions (a stratum, [2^k, 2^(k+1))). A grid
// that shrinks or a frontier that grows moves a shape's launches from stratum to stratum.
//
// A launch's timing depends on what the launches before it left in the caches, so a launch counts as a
// sample only when the launch before it was timed too (or it is the run's first): samples are taken in
// windows of timed launches, whose first, after launches run functionally, only warms the caches (a
// warm-up: timed, but estimated like the launches not timed). A window stays open, timing every launch,
// while a shape waits for samples: sim.sampling_first of each stratum its launches reach, and one more in
// each period of sim.sampling_every launches of the shape, at a place in the period drawn from
// sim.sampling_seed (a sample at a fixed place would alias with a period of the application's own: a
// stencil that swaps its two grids runs its odd and even steps at different speeds). Launches outside
// windows run on the functional executor, which counts their warp instructions exactly; one that lands in a
// stratum short of samples opens a window.
//
// A stratum's cycles are estimated with the ratio estimator on warp instructions (cycles = R x; a kernel's
// first launch in the run meets cold instruction and data caches and is measured, not a sample), R taken
// locally: the launches between two samples at the ratio of those two, those after the last at its own
// (ratio_estimate.hpp, local_ratio_estimate), so that a rate that drifts along the run inside a stratum (a
// grid whose work shrinks inside an octave, caches that fill) is followed rather than averaged. Its bound is
// the 95 % interval of that estimate, with the samples' spread measured as each one's error when predicted
// from its neighbours (Student's t). A stratum without samples borrows the nearest stratum's R (all its
// samples' ratio), and its whole estimate is bound. The run's bound is the sum of its strata's (their
// errors may all lean one way). The bound covers sampling error under that model, not the model's bias.
#pragma once
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "common/stats.hpp"  // SamplingGroup, SamplingReport

namespace warptlm {

class LaunchSampler {
 public:
  enum class Kind : uint8_t {
    Timed,      // in full detail after a timed launch (or first in the run): a measurement
    WarmUp,     // in full detail after a functional launch: it warms the caches, and is estimated
    Estimated,  // on the functional executor
  };
  // `seed` draws where in each period of `every` launches a shape's sample falls (sim.sampling_seed).
  LaunchSampler(uint32_t first, uint32_t every, uint32_t warm_up, uint64_t seed = 1);

  // The next launch, of this shape: how it runs, and its index among the sampled launches.
  Kind choose(const std::string& kernel, const uint32_t block[3], uint32_t dynamic_smem, uint32_t& index);
  // What launch `index` measured once it ran to its end: its cycles (timed launches) and warp instructions.
  void measured(uint32_t index, uint64_t cycles, uint64_t warp_instructions);

  SamplingReport report() const;

 private:
  struct Launch {
    uint32_t shape;
    Kind kind;
    bool fits;           // a sample, if it runs to its end
    bool known = false;  // ran to its end
    int stratum = 0;     // octave of its warp instructions (-1: none)
    double cycles = 0, warp_instructions = 0;
  };
  struct Shape {
    std::string kernel;
    uint32_t block[3] = {1, 1, 1};
    uint32_t dynamic_smem = 0;
    uint64_t seen = 0;    // launches so far
    uint64_t wanted = 0;  // samples it waits for
    std::vector<uint64_t> samples;  // per stratum (index stratum + 1)
  };
  static int stratum_of(double warp_instructions) {
    return warp_instructions >= 1 ? int(std::ilogb(warp_instructions)) : -1;
  }
  uint64_t& samples_in(Shape& s, int stratum) {
    if (s.samples.size() <= size_t(stratum + 1)) s.samples.resize(size_t(stratum + 2), 0);
    return s.samples[size_t(stratum + 1)];
  }
  void want_samples(Shape& s, uint64_t n) {  // at least n more
    if (s.wanted >= n) return;
    if (s.wanted == 0) ++waiting_;
    s.wanted = n;
  }
  // Where in period `period` of shape `shape`'s launches (after its first samples) its sample falls.
  uint64_t place_in_period(uint32_t shape, uint64_t period) const;
  void took_sample(Shape& s) {
    if (s.wanted && --s.wanted == 0) --waiting_;
  }

  uint32_t first_, every_, warm_up_;
  uint64_t seed_;
  bool fixed_place_;  // test-only fault sampling_fixed_place: the last launch of each period, as a fixed rule would
  std::vector<Shape> shapes_;
  std::vector<std::string> kernels_seen_;
  uint64_t waiting_ = 0;  // shapes waiting for samples: while any does, every launch is timed
  // timed launches in a row before the next: the run starts as a full run does (nothing before its first)
  uint64_t timed_in_a_row_ = UINT64_MAX;
  std::vector<Launch> launches_;
};

}  // namespace warptlm
