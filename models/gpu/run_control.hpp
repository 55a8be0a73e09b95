// Run control: the limits and the no-progress watchdog of a timing run, and
// the host's interrupt. A watcher like the run monitor: it wakes on the core
// clock every `check` cycles while a launch runs, only reads the model, and
// asks the platform to stop the launch (Probes::stop) when a limit is reached:
//   sim.max_cycles         core cycles of the whole run (all launches)
//   sim.max_instructions   warp instructions of the whole run
//   sim.max_wall_seconds   wall-clock seconds since the first launch
//   sim.watchdog_cycles    cycles in which no warp made progress (exited, wrote
//                          memory, or arrived at a barrier) and no block retired:
//                          a spinning or deadlocked kernel
//   sim.watchdog_retire_cycles  cycles in which no block retired: a kernel that
//                          spins through a barrier or a store every iteration
//   an interrupt (SIGINT, SIGTERM) noted by the host with request_interrupt()
//   starvation: nothing else is scheduled while the launch has blocks left
// The platform then ends the launch with partial stats (docs/run-control.md).
// A functional run (sim.mode=functional, or fast-forward) has no clock to wake
// on: FunctionalRunControl, the executor's watch, looks at the same requests
// every FunctionalWatch::kLookEvery warp instructions, and its watchdog
// (sim.watchdog_instructions) stops a block whose warps reach no new pc.
#pragma once
#include <csignal>
#include <functional>
#include <string>
#include <systemc>

#include "isa/simt.hpp"

namespace warptlm {

class ParamTable;
class Config;

// The default watchdogs on retirement (timing) and on new pcs (functional): far
// above what any shipped workload or test comes near (docs/run-control.md gives
// the margin measured).
constexpr int64_t kDefaultRetireWatchdog = 1000000000;      // core cycles
constexpr int64_t kDefaultInstructionWatchdog = 200000000;  // warp instructions

struct RunLimits {
  uint64_t max_cycles = 0, max_instructions = 0, watchdog_cycles = 0;  // 0: none
  uint64_t watchdog_retire_cycles = 0, watchdog_instructions = 0;      // 0: none
  double max_wall_seconds = 0;
  static void declare(ParamTable& t);
  static RunLimits from(const Config& c);
};

enum class RunStop { None, Limit, Watchdog, Interrupted, Starved };

// A count that should keep moving (progress events, retired blocks) and the
// core cycle it last moved: what each timing watchdog watches.
struct Stillness {
  uint64_t count = 0, since = 0;
  void restart(uint64_t c, uint64_t now) { count = c, since = now; }
  // Cycles the count has stood still at `now` (0 when it moved since the last look).
  uint64_t still_for(uint64_t c, uint64_t now) {
    if (c != count) restart(c, now);
    return now - since;
  }
};

// The requests both modes stop for: an interrupt, sim.max_instructions,
// sim.max_wall_seconds and (timing) sim.max_cycles. RunStop::None, or the
// request with `why` set.
RunStop requested_stop(const RunLimits& lim, uint64_t instructions, uint64_t cycles, double wall_seconds, std::string& why);

class RunControl : public sc_core::sc_module {
 public:
  struct Probes {
    std::function<bool()> launch_running;
    std::function<uint64_t()> cycles;        // core cycles of the run so far
    std::function<uint64_t()> instructions;  // warp instructions of the run so far
    std::function<double()> wall_seconds;    // since the run's first launch
    std::function<uint64_t()> progress;      // progress events of the run so far (never decreases)
    std::function<uint64_t()> retired;       // blocks retired in the run so far
    std::function<void(RunStop)> stop;       // end the launch: reason() says why
  };
  RunControl(sc_core::sc_module_name n, sc_core::sc_time period, const RunLimits& limits, Probes probes);
  SC_HAS_PROCESS(RunControl);

  void begin_launch();
  RunStop stopped() const { return stop_; }
  const std::string& reason() const { return reason_; }

  // Set from a signal handler: the run stops at the next look, within `check` cycles.
  static void request_interrupt(int signo) { interrupt_ = signo; }
  static int interrupt_signal() { return interrupt_; }

 private:
  void tick();
  void stop(RunStop s, const std::string& why);

  sc_core::sc_time period_;
  RunLimits lim_;
  Probes probes_;
  uint64_t check_;
  sc_core::sc_event start_;
  RunStop stop_ = RunStop::None;
  std::string reason_;
  Stillness progress_, retirement_;
  static volatile std::sig_atomic_t interrupt_;
};

// The functional executor's watch (isa/simt.hpp): the stop requests at every
// look, as RunStopped ("limit", "interrupted"); the watchdog's deadlock.
class FunctionalRunControl : public FunctionalWatch {
 public:
  struct Probes {
    std::function<uint64_t()> timed_instructions;  // warp instructions the timing model issued in the run
    std::function<double()> wall_seconds;          // since the run's first launch
  };
  FunctionalRunControl(const RunLimits& limits, Probes probes)
      : FunctionalWatch(limits.watchdog_instructions), lim_(limits), probes_(std::move(probes)) {}

 protected:
  void check(const std::string& kernel) override;

 private:
  RunLimits lim_;
  Probes probes_;
};

}  // namespace warptlm
