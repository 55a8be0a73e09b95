#include "gpu/monitor.hpp"

#include <unistd.h>

#include <cstdio>

namespace warptlm {

static constexpr uint64_t kProgressEvery = 4096;  // cycles between looks at the wall clock

Monitor::Monitor(sc_core::sc_module_name n, sc_core::sc_time period, uint64_t sample_interval, StatsRegistry& stats,
                 Probes probes)
    : sc_core::sc_module(n), period_(period), interval_(sample_interval), stats_(stats), probes_(std::move(probes)) {
  samples_.interval = interval_;
  tty_ = isatty(fileno(stderr));
  SC_METHOD(tick);
  sensitive << start_ << wake_;
  dont_initialize();
}

void Monitor::begin_launch(const std::string& kernel) {
  kernel_ = kernel;
  if (!launched_) {  // the wall clock of the run starts with its first launch
    launched_ = true;
    started_ = std::chrono::steady_clock::now();
  }
  const uint64_t c = cycle();
  launch_start_ = c;
  in_launch_ = true;
  // a run of many short launches still shows progress: look at every launch
  if (tty_) show_progress(c);
  // Samples run on kernel time across launches (a workload of many short launches still gets its time
  // series); the first launch starts it.
  if (interval_ && !sampling_) {
    sampling_ = true;
    last_sample_kt_ = kernel_before_;
    next_sample_kt_ = kernel_before_ + interval_;
    prev_ = stats_.values();
    prev_dram_busy_ = probes_.dram_busy_cycles ? probes_.dram_busy_cycles() : 0;
  }
  next_sample_ = sampling_ ? launch_start_ + (next_sample_kt_ - kernel_before_) : UINT64_MAX;
  next_progress_ = tty_ ? c + kProgressEvery : UINT64_MAX;
  wake_.cancel();  // a wake-up the last launch left is stale: the next one is counted from this launch's start
  if (interval_ || tty_) start_.notify(sc_core::SC_ZERO_TIME);
}

void Monitor::end_launch(uint64_t cycles) {
  if (shown_) std::fprintf(stderr, "\r\033[K");  // the progress line goes away
  shown_ = false;
  if (!in_launch_) return;
  // a sample point inside the launch that its ticks did not reach (the launch ended at that cycle): taken
  // now, with the launch's final counts
  while (sampling_ && next_sample_kt_ < kernel_before_ + cycles) {
    take_sample(next_sample_kt_);
    next_sample_kt_ += interval_;
  }
  kernel_before_ += cycles;
  in_launch_ = false;
}

void Monitor::finish() {
  if (sampling_ && kernel_before_ > last_sample_kt_) take_sample(kernel_before_);
}

void Monitor::tick() {
  if (!probes_.launch_running()) return;  // the launch is over: do not keep the simulation alive
  const uint64_t c = cycle();
  if (c >= next_sample_) {
    take_sample(kernel_time(c));
    next_sample_kt_ += interval_;
    next_sample_ = launch_start_ + (next_sample_kt_ - kernel_before_);
  }
  if (c >= next_progress_) { show_progress(c); next_progress_ = c + kProgressEvery; }
  const uint64_t next = std::min(next_sample_, next_progress_);
  if (next != UINT64_MAX) wake_.notify(period_ * double(next - c));
}

void Monitor::take_sample(uint64_t kt) {
  std::map<std::string, double> now = stats_.values();
  auto d = [&](const std::string& k) {
    auto a = now.find(k);
    auto b = prev_.find(k);
    return (a == now.end() ? 0.0 : a->second) - (b == prev_.end() ? 0.0 : b->second);
  };
  const double span = double(kt - last_sample_kt_);
  samples_.cycle.push_back(kt);
  auto& s = samples_.series;
  s["ipc"].push_back(span > 0 ? d("sm.thread_instructions") / span : 0);
  static const char* outcomes[] = {"issued", "no_warp", "long_mem", "data", "structural", "barrier", "fetch", "other"};
  double total = 0;
  for (const char* o : outcomes) total += d(std::string("sched.") + o);
  for (const char* o : outcomes) s[std::string("stall.") + o].push_back(total > 0 ? d(std::string("sched.") + o) / total : 0);
  const double l1 = d("l1d.hits") + d("l1d.misses"), l2 = d("l2.hits") + d("l2.misses");
  s["l1d.hit_rate"].push_back(l1 > 0 ? d("l1d.hits") / l1 : 0);
  s["l2.hit_rate"].push_back(l2 > 0 ? d("l2.hits") / l2 : 0);
  if (probes_.dram_busy_cycles && probes_.dram_cycles_per_core_cycle > 0) {
    const double busy = probes_.dram_busy_cycles();
    s["dram.bw_util"].push_back(span > 0 ? (busy - prev_dram_busy_) / (span * probes_.dram_cycles_per_core_cycle) : 0);
    prev_dram_busy_ = busy;
  }
  s["active_warps"].push_back(probes_.active_warps ? probes_.active_warps() : 0);
  for (const StatsRegistry::Series& x : stats_.series()) s[x.name].push_back(x.gauge ? x.gauge() : d(x.name));
  prev_ = std::move(now);
  last_sample_kt_ = kt;
}

void Monitor::show_progress(uint64_t c) {
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  if (wall < probes_.progress_after_seconds) return;
  const double winst = stats_.values()["sm.warp_instructions"];  // a few hundred counters: cheap every 4096 cycles
  std::fprintf(stderr, "\r\033[K[warptlm] %s: cycle %llu, %.2f M warp-instructions, %.0f K warp-inst/s", kernel_.c_str(),
               (unsigned long long)c, winst / 1e6, wall > 0 ? winst / wall / 1e3 : 0.0);
  std::fflush(stderr);
  shown_ = true;
}

IdleWaker::IdleWaker(sc_core::sc_module_name n, sc_core::sc_time period, uint64_t every, std::function<bool()> running)
    : sc_core::sc_module(n), step_(period * double(every)), running_(std::move(running)) {
  SC_METHOD(tick);
  sensitive << start_;
  dont_initialize();
}

void IdleWaker::tick() {
  ++wakeups_;
  if (running_()) next_trigger(step_);
}

}  // namespace warptlm
