// The run monitor: while a launch runs it wakes every few thousand cycles to
// (a) take sampled statistics (stats.sample_interval: IPC, issue-outcome
// breakdown, L1/L2 hit rates, DRAM bandwidth, active warps over each interval)
// and (b) show a progress line on stderr when stderr is a terminal and the run
// has taken more than two seconds. It re-arms only while the launch has
// blocks left, so it never keeps the simulation alive on its own.
//
// The samples' cycle axis is kernel time: the cycles of the launches so far, as each launch's own count
// (LaunchResult::cycles) has them, so the time between launches is not on it and the last sample, which
// finish() takes at the end of the run for the partial interval, falls on gpu_tot_sim_cycle.
#pragma once
#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <systemc>

#include "common/clock.hpp"
#include "common/stats.hpp"

namespace warptlm {

class Monitor : public sc_core::sc_module {
 public:
  struct Probes {
    std::function<bool()> launch_running;      // blocks left in the launch
    std::function<double()> active_warps;      // resident warps not yet done, all SMs
    std::function<double()> dram_busy_cycles;  // data-bus busy cycles, all channels
    double dram_cycles_per_core_cycle = 0;     // channels x (dram clock / core clock)
    double progress_after_seconds = 2.0;       // the progress line waits this long
  };
  Monitor(sc_core::sc_module_name n, sc_core::sc_time period, uint64_t sample_interval, StatsRegistry& stats, Probes probes);
  SC_HAS_PROCESS(Monitor);

  void begin_launch(const std::string& kernel);
  // `cycles`: the launch's own cycle count, added to kernel time.
  void end_launch(uint64_t cycles);
  // The last, partial interval of the run (nothing when the last sample fell on its end).
  void finish();
  const Samples& samples() const { return samples_; }

 private:
  void tick();
  void take_sample(uint64_t kernel_cycle);
  uint64_t kernel_time(uint64_t c) const { return kernel_before_ + (c - launch_start_); }
  void show_progress(uint64_t cycle);
  uint64_t cycle() const { return cycle_now(period_); }

  sc_core::sc_time period_;
  uint64_t interval_;
  StatsRegistry& stats_;
  Probes probes_;
  Samples samples_;
  sc_core::sc_event start_, wake_;  // a launch began; the next sample or progress look is due
  std::string kernel_;
  bool tty_ = false, shown_ = false, sampling_ = false, launched_ = false;
  bool in_launch_ = false;
  uint64_t next_sample_ = UINT64_MAX, next_progress_ = UINT64_MAX;  // absolute core cycles
  uint64_t next_sample_kt_ = 0, last_sample_kt_ = 0;                // kernel time
  uint64_t kernel_before_ = 0, launch_start_ = 0;                   // kernel time of finished launches; this one's start
  std::map<std::string, double> prev_;
  double prev_dram_busy_ = 0;
  std::chrono::steady_clock::time_point started_;
};

// A module that does nothing but wake on the core clock every `every` cycles
// while a launch runs (sim.idle_module). It reads and changes nothing: a run
// with it must give the same stats as a run without it, which tests that no
// block depends on the order SystemC runs same-time processes in.
class IdleWaker : public sc_core::sc_module {
 public:
  IdleWaker(sc_core::sc_module_name n, sc_core::sc_time period, uint64_t every, std::function<bool()> running);
  SC_HAS_PROCESS(IdleWaker);
  void begin_launch() { start_.notify(sc_core::SC_ZERO_TIME); }
  uint64_t wakeups() const { return wakeups_; }

 private:
  void tick();
  sc_core::sc_time step_;
  std::function<bool()> running_;
  sc_core::sc_event start_;
  uint64_t wakeups_ = 0;
};

}  // namespace warptlm
