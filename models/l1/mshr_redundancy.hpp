// Redundant MSHR allocations across SMs (spec 004 sec. 4.2, the thesis's Figs. 6.1 and 6.11): an L1's MSHR
// allocation is redundant when another SM's L1 allocated an MSHR for the same line within the last
// `window` cycles. Sliding (default): some other SM allocated it in [t - window, t). Tumbling: some other
// SM allocated it earlier in the same window [k * window, (k + 1) * window). Also counted: the requests
// each MSHR entry served (its allocation and the misses merged into it, Fig. 6.12).
//
// One tracker for the GPU; each L1 reports to it through an L1Observer port naming its SM. Per line it
// keeps the latest allocation and the latest one by a different SM, which answer both rules exactly.
// It only reads: with it attached or not, every other stat is the same.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/config.hpp"
#include "common/stats.hpp"
#include "l1/l1_observer.hpp"

namespace warptlm {

struct MshrRedundancyParams {
  enum class Mode : uint8_t { Off, Sliding, Tumbling } mode = Mode::Off;
  uint64_t window = 2000;
  static void declare(ParamTable& t);
  static MshrRedundancyParams from(const Config& c);
};

class MshrRedundancy {
 public:
  MshrRedundancy(const MshrRedundancyParams& p, StatsRegistry& stats);
  // An MSHR of SM `sm`'s L1 was allocated for `line` at core cycle `cycle`; returns whether it was redundant.
  bool allocated(uint32_t sm, uint64_t line, uint64_t cycle);
  // A miss merged into an MSHR entry already holding its line.
  void merged() { ++*merges_; }
  // The observer an L1 reports to (one per SM).
  L1Observer& port(uint32_t sm);

 private:
  struct Last {
    uint32_t sm = UINT32_MAX;       // the latest allocation of the line: its SM and cycle
    uint64_t at = 0;
    uint32_t other_sm = UINT32_MAX;  // the latest allocation by an SM other than `sm`
    uint64_t other_at = 0;
  };
  struct Port : L1Observer {
    MshrRedundancy& r;
    uint32_t sm;
    Port(MshrRedundancy& t, uint32_t s) : r(t), sm(s) {}
    void mshr_allocated(uint64_t line_addr, uint16_t, uint64_t cycle) override { r.allocated(sm, line_addr, cycle); }
    void mshr_merged(uint64_t, uint16_t) override { r.merged(); }
  };
  bool recent(uint64_t earlier, uint64_t now) const;
  MshrRedundancyParams p_;
  std::unordered_map<uint64_t, Last> lines_;
  std::vector<std::unique_ptr<Port>> ports_;
  Counter *allocations_, *redundant_, *merges_;
};

}  // namespace warptlm
