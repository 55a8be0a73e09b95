// Kernel-level sampling (sim.sampling: launches): which launches of a timing run are timed in full detail,
// and what the others are estimated to take, with a stated bound. docs/sampling.md.
//
// Launches are grouped by what fixes their shape: kernel, grid, block and dynamic shared memory. A launch's
// timing depends on what the launches before it left in the caches, so a launch counts as a measurement
// only when the launch before it was timed too (or it is the run's first): a sample of a shape is taken in a
// window of timed launches, whose first, after launches run functionally, only warms the caches (a warm-up:
// timed, but estimated like the launches not timed). The window stays open, timing every launch, until each
// shape that asked for a sample has one: sim.sampling_first samples of each shape, then one more every
// sim.sampling_every-th launch of it. Launches outside windows run on the functional executor, which counts
// their warp instructions exactly.
//
// A shape's cycles are estimated with the ratio estimator on warp instructions (cycles = R x warp
// instructions, R from its samples; a kernel's first launch in the run meets cold instruction and data caches
// and is measured, not used for R), and its bound is the 95 % prediction interval of that model with the
// samples' spread about it (Student's t). The run's bound is the sum of its shapes' (their errors may all
// lean one way). The bound covers sampling error under that model, not the model's bias.
#pragma once
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
  LaunchSampler(uint32_t first, uint32_t every, uint32_t warm_up)
      : first_(first ? first : 1), every_(every), warm_up_(warm_up ? warm_up : 1) {}

  // The next launch, of this shape: how it runs, and its index among the sampled launches.
  Kind choose(const std::string& kernel, const uint32_t grid[3], const uint32_t block[3], uint32_t dynamic_smem,
              uint32_t& index);
  // What launch `index` measured once it ran to its end: its cycles (timed launches) and warp instructions.
  void measured(uint32_t index, uint64_t cycles, uint64_t warp_instructions);

  SamplingReport report() const;

 private:
  struct Launch {
    uint32_t group;
    Kind kind;
    bool fits;           // a sample for its shape's ratio
    bool known = false;  // ran to its end
    double cycles = 0, warp_instructions = 0;
  };
  struct Shape {
    uint64_t seen = 0;     // launches so far
    uint64_t samples = 0;  // samples taken
    uint64_t wanted = 0;   // samples it waits for
    double low = 0, high = 0;  // the range of its samples' warp instructions (low 0: none yet)
  };
  // The range of warp instructions a shape's samples speak for: within a factor kReach of theirs.
  static constexpr double kReach = 2.0;
  static bool covered(const Shape& s, double x) { return s.low > 0 && x >= s.low / kReach && x <= s.high * kReach; }
  void want_sample(Shape& s) {
    if (s.wanted++ == 0) ++waiting_;
  }
  uint32_t first_, every_, warm_up_;
  std::vector<SamplingGroup> groups_;
  std::vector<Shape> shapes_;
  std::vector<std::string> kernels_seen_;
  uint64_t waiting_ = 0;    // shapes waiting for a sample: while any does, every launch is timed
  // timed launches in a row before the next: the run starts as a full run does (nothing before its first)
  uint64_t timed_in_a_row_ = UINT64_MAX;
  std::vector<Launch> launches_;
};

}  // namespace warptlm
