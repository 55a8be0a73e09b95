#include "gpu/run_control.hpp"

#include <algorithm>

#include "common/clock.hpp"
#include "common/errors.hpp"
#include "common/config.hpp"
#include "common/params.hpp"

namespace warptlm {

volatile std::sig_atomic_t RunControl::interrupt_ = 0;

void RunLimits::declare(ParamTable& t) {
  t.int_param("sim.max_cycles", 0, 0, INT64_MAX, "stop the run after this many core cycles, all launches together (0 = no limit)");
  t.int_param("sim.max_instructions", 0, 0, INT64_MAX, "stop the run after this many warp instructions (0 = no limit)");
  t.float_param("sim.max_wall_seconds", 0.0, 0.0, 1e9, "stop the run after this many wall-clock seconds of simulation (0 = no limit)");
  t.int_param("sim.watchdog_cycles", 10000000, 0, INT64_MAX,
              "stop a launch in which no warp exits, writes memory or reaches a barrier and no block retires for this many "
              "core cycles (a spinning or deadlocked kernel), reporting what each warp waits on (0 = off)");
  t.int_param("sim.watchdog_retire_cycles", kDefaultRetireWatchdog, 0, INT64_MAX,
              "stop a launch in which no block retires for this many core cycles (a kernel spinning through a barrier "
              "or a store), reporting where each warp is (0 = off)");
  t.int_param("sim.watchdog_instructions", kDefaultInstructionWatchdog, 0, INT64_MAX,
              "functional execution (sim.mode=functional, fast-forward): stop a block in which no warp exits or reaches "
              "a pc beyond the furthest it reached for this many warp instructions, reporting where each warp is (0 = off)");
}

RunLimits RunLimits::from(const Config& c) {
  RunLimits l;
  l.max_cycles = uint64_t(c.get_int("sim.max_cycles"));
  l.max_instructions = uint64_t(c.get_int("sim.max_instructions"));
  l.max_wall_seconds = c.get_float("sim.max_wall_seconds");
  l.watchdog_cycles = uint64_t(c.get_int("sim.watchdog_cycles"));
  l.watchdog_retire_cycles = uint64_t(c.get_int("sim.watchdog_retire_cycles"));
  l.watchdog_instructions = uint64_t(c.get_int("sim.watchdog_instructions"));
  return l;
}

RunStop requested_stop(const RunLimits& lim, uint64_t instructions, uint64_t cycles, double wall_seconds, std::string& why) {
  if (const int sig = RunControl::interrupt_signal()) {
    why = "interrupted by signal " + std::to_string(sig);
    return RunStop::Interrupted;
  }
  if (lim.max_cycles && cycles >= lim.max_cycles) {
    why = "sim.max_cycles (" + std::to_string(lim.max_cycles) + ") reached";
    return RunStop::Limit;
  }
  if (lim.max_instructions && instructions >= lim.max_instructions) {
    why = "sim.max_instructions (" + std::to_string(lim.max_instructions) + ") reached";
    return RunStop::Limit;
  }
  if (lim.max_wall_seconds > 0 && wall_seconds >= lim.max_wall_seconds) {
    why = "sim.max_wall_seconds (" + std::to_string(lim.max_wall_seconds) + ") reached";
    return RunStop::Limit;
  }
  return RunStop::None;
}

void FunctionalRunControl::check(const std::string& kernel) {
  std::string why;
  const RunStop s = requested_stop(lim_, executed() + probes_.timed_instructions(), 0, probes_.wall_seconds(), why);
  if (s != RunStop::None) throw RunStopped(s == RunStop::Interrupted ? "interrupted" : "limit", "kernel '" + kernel + "' stopped: " + why);
}

RunControl::RunControl(sc_core::sc_module_name n, sc_core::sc_time period, const RunLimits& limits, Probes probes)
    : sc_core::sc_module(n), period_(period), lim_(limits), probes_(std::move(probes)) {
  // Look often enough to meet each limit within a few percent, at most every 4096 cycles.
  check_ = 4096;
  for (uint64_t l : {lim_.max_cycles, lim_.watchdog_cycles, lim_.watchdog_retire_cycles})
    if (l) check_ = std::min<uint64_t>(check_, std::max<uint64_t>(1, l / 16));
  if (lim_.max_instructions) check_ = std::min<uint64_t>(check_, 64);  // a few thousand warp instructions at most
  SC_METHOD(tick);
  sensitive << start_;
  dont_initialize();
}

void RunControl::begin_launch() {
  const uint64_t now = cycle_now(period_);
  progress_.restart(probes_.progress(), now);
  retirement_.restart(probes_.retired(), now);
  start_.notify(sc_core::SC_ZERO_TIME);
}

void RunControl::stop(RunStop s, const std::string& why) {
  stop_ = s;
  reason_ = why;
  probes_.stop(s);
}

void RunControl::tick() {
  if (!probes_.launch_running() || stop_ != RunStop::None) return;
  const uint64_t now = cycle_now(period_);
  std::string why;
  const RunStop req = requested_stop(lim_, probes_.instructions(), probes_.cycles(), probes_.wall_seconds(), why);
  if (req != RunStop::None) return stop(req, why);
  const uint64_t unretired = retirement_.still_for(probes_.retired(), now);
  if (lim_.watchdog_retire_cycles && unretired >= lim_.watchdog_retire_cycles)
    return stop(RunStop::Watchdog, "no block retired for " + std::to_string(unretired) + " cycles (sim.watchdog_retire_cycles)");
  const uint64_t idle = progress_.still_for(probes_.progress(), now);
  if (lim_.watchdog_cycles && idle >= lim_.watchdog_cycles)
    return stop(RunStop::Watchdog, "no progress for " + std::to_string(idle) +
                                       " cycles (sim.watchdog_cycles): no warp exited, wrote memory or reached a barrier");
  // Never keep the simulation alive alone: when nothing else is scheduled the launch
  // has run out of events, a deadlock reported at once.
  if (!sc_core::sc_pending_activity()) return stop(RunStop::Starved, "nothing left to do");
  next_trigger(period_ * double(check_));
}

}  // namespace warptlm
