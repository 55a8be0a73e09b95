// Interval sampling inside long launches (sim.sampling: intervals): which stretches of a timing launch are
// timed in full detail, and what the blocks run functionally between them are estimated to take, with a
// stated bound. docs/sampling.md.
//
// A launch runs in detail from its start. Its time is cut into intervals of at least sim.sampling_interval
// core cycles, each ending at the first edge with block retirements past that length (the dispatcher's
// edges: after every SM's part of the edge, so what the interval issued is complete). The first interval,
// the launch's ramp (cold SMs, blocks arriving), is not a sample, and neither is the first after a
// functional stretch (it settles the SMs' mix of resident blocks). At the end of each sampled interval,
// while blocks wait to be dispatched, the platform runs the next blocks in block order on the functional
// executor at that instant, until they have executed (sim.sampling_period - 1) times the warp instructions
// the intervals since the last stretch issued, and they count as retired: the SMs keep their resident
// blocks, pipelines and queues, the caches take the functional blocks' lines (cache_warmer.hpp), and the
// next interval starts. The launch's
// last blocks stay timed: as many as the SMs retire in the life of the longest-lived block so far, at the
// fastest pace of any interval so far (the grid's last blocks may be as light as any seen), and at least as
// many as are resident. The blocks resident at the last functional stretch (from the middle of the grid,
// perhaps long ones) then retire while the grid's last blocks run, as in a full run, and the tail drains the
// blocks a full run ends with, not those.
//
// The launch's cycles are then its measured cycles (ramp, timed intervals and tail) plus an estimate of each
// stretch of blocks run functionally: its warp instructions times the ratio (cycles per warp instruction) of
// the two sampled intervals around it, the one before and the one after (the one before alone when none
// follows). A launch's rate changes along its grid (blocks at a grid's edges do less work each and turn over
// faster), and the intervals at fixed places are no random draw from it: the neighbours follow those phases
// where a single ratio over all intervals would weight a few of them by their place. The bound is that of
// the ratio estimator (ratio_estimate.hpp) with the spread measured as each sampled interval's error when
// predicted from its own neighbours, the stretches' ratio errors added as if they all leaned one way. A
// launch that ends before any block runs functionally is timed whole: its cycles are the full run's exactly.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/stats.hpp"  // SamplingReport
#include "gpu/ratio_estimate.hpp"

namespace warptlm {

class IntervalSampler {
 public:
  IntervalSampler(uint64_t interval_cycles, uint32_t period) : interval_(interval_cycles ? interval_cycles : 1), period_(period) {}

  // A timing launch starts at `cycle`, with `issued` warp instructions issued in the run so far; returns its
  // index among the sampled launches.
  uint32_t begin_launch(const std::string& kernel, const uint32_t block[3], uint32_t dynamic_smem, uint64_t cycle,
                        uint64_t issued, uint64_t retired);
  // An edge with retirements, at `cycle` with `issued` warp instructions issued and `retired` blocks of the
  // launch retired: when the open interval is long enough it closes and the next opens, and the warp
  // instructions to run functionally now are returned (0: none).
  uint64_t at_edge(uint64_t cycle, uint64_t issued, uint64_t retired);
  // Blocks the SMs retired per core cycle in the launch's fastest interval so far.
  double retire_rate() const { return retire_rate_; }
  // What the platform ran functionally after at_edge asked for it; the next interval opens.
  void fast_forwarded(uint64_t blocks, uint64_t warp_instructions, uint64_t cycle, uint64_t issued, uint64_t retired);
  // The launch ended (completed): its measured cycles.
  void end_launch(uint64_t cycles);
  // Whether launch `index` ran blocks functionally (its cycles are then an estimate).
  bool estimated(uint32_t index) const { return launches_.at(index).estimated_blocks > 0; }

  SamplingReport report() const;

 private:
  struct Launch {
    std::string kernel;
    uint32_t block[3] = {1, 1, 1};
    uint32_t dynamic_smem = 0;
    bool ended = false;
    double cycles = 0;  // measured
    uint64_t intervals = 0, estimated_blocks = 0;
    double estimated_warp_instructions = 0;
    std::vector<RatioSample> samples;  // the sampled intervals
    std::vector<UntimedStretch> stretches;  // blocks run functionally, each after a sampled interval
  };
  void open(uint64_t cycle, uint64_t issued, uint64_t retired) {
    start_cycle_ = cycle;
    start_issued_ = issued;
    start_retired_ = retired;
  }
  uint64_t interval_;
  uint32_t period_;
  std::vector<Launch> launches_;
  uint64_t start_cycle_ = 0, start_issued_ = 0, start_retired_ = 0;  // the open interval's
  double retire_rate_ = 0;
  bool settling_ = false;  // the open interval follows blocks run functionally
  double timed_x_ = 0;     // warp instructions the intervals since the last functional stretch issued
};

}  // namespace warptlm
