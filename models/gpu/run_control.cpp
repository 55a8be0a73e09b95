#include "gpu/run_control.hpp"

#include <algorithm>

#include "common/clock.hpp"
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
}

RunLimits RunLimits::from(const Config& c) {
  RunLimits l;
  l.max_cycles = uint64_t(c.get_int("sim.max_cycles"));
  l.max_instructions = uint64_t(c.get_int("sim.max_instructions"));
  l.max_wall_seconds = c.get_float("sim.max_wall_seconds");
  l.watchdog_cycles = uint64_t(c.get_int("sim.watchdog_cycles"));
  return l;
}

RunControl::RunControl(sc_core::sc_module_name n, sc_core::sc_time period, const RunLimits& limits, Probes probes)
    : sc_core::sc_module(n), period_(period), lim_(limits), probes_(std::move(probes)) {
  // Look often enough to meet each limit within a few percent, at most every 4096 cycles.
  check_ = 4096;
  for (uint64_t l : {lim_.max_cycles, lim_.watchdog_cycles})
    if (l) check_ = std::min<uint64_t>(check_, std::max<uint64_t>(1, l / 16));
  if (lim_.max_instructions) check_ = std::min<uint64_t>(check_, 64);  // a few thousand warp instructions at most
  SC_METHOD(tick);
  sensitive << start_;
  dont_initialize();
}

void RunControl::begin_launch() {
  if (!started_) {
    started_ = true;
    t0_ = std::chrono::steady_clock::now();
  }
  last_progress_ = probes_.progress();
  progress_cycle_ = cycle_now(period_);
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
  if (interrupt_) return stop(RunStop::Interrupted, std::string("interrupted by signal ") + std::to_string(int(interrupt_)));
  if (lim_.max_cycles && probes_.cycles() >= lim_.max_cycles)
    return stop(RunStop::Limit, "sim.max_cycles (" + std::to_string(lim_.max_cycles) + ") reached");
  if (lim_.max_instructions && probes_.instructions() >= lim_.max_instructions)
    return stop(RunStop::Limit, "sim.max_instructions (" + std::to_string(lim_.max_instructions) + ") reached");
  if (lim_.max_wall_seconds > 0 &&
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count() >= lim_.max_wall_seconds)
    return stop(RunStop::Limit, "sim.max_wall_seconds (" + std::to_string(lim_.max_wall_seconds) + ") reached");
  const uint64_t p = probes_.progress();
  if (p != last_progress_) {
    last_progress_ = p;
    progress_cycle_ = now;
  } else if (lim_.watchdog_cycles && now - progress_cycle_ >= lim_.watchdog_cycles) {
    return stop(RunStop::Watchdog, "no progress for " + std::to_string(now - progress_cycle_) +
                                       " cycles (sim.watchdog_cycles): no warp exited, wrote memory or reached a barrier");
  }
  // Never keep the simulation alive alone: when nothing else is scheduled the launch
  // has run out of events, a deadlock reported at once.
  if (!sc_core::sc_pending_activity()) return stop(RunStop::Starved, "nothing left to do");
  next_trigger(period_ * double(check_));
}

}  // namespace warptlm
