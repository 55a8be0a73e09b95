// Statistics: counters and histograms by hierarchical dotted name. A counter
// belongs to a component instance ("sm3.l1d") and to a kind ("l1d"); the
// summed view adds every instance of a kind ("l1d.misses" = sum over SMs).
// Hot paths hold a Counter& and increment it: no lookup, no string work.
#pragma once
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace warptlm {

struct Counter {
  uint64_t value = 0;
  void operator+=(uint64_t n) { value += n; }
  void operator++() { ++value; }
};

struct Histogram {
  std::vector<uint64_t> buckets;  // bucket i counts samples equal to i; the last bucket also takes larger ones
  void sample(uint64_t v) { ++buckets[v < buckets.size() ? v : buckets.size() - 1]; }
};

class StatsRegistry;

// One launch's counters (LaunchResult, KernelStats): values against a list of names that the launches of a
// run share, sorted as a std::map sorts them, and read as a map of name to value. A run of a thousand
// launches with two thousand counters each keeps two thousand names, not two million.
class CounterTable {
 public:
  using Names = std::vector<std::string>;
  struct Entry {
    const std::string& first;
    double second;
  };
  class const_iterator {
   public:
    const_iterator(const CounterTable* t, size_t i) : t_(t), i_(i) {}
    Entry operator*() const { return {(*t_->names_)[i_], t_->values_[i_]}; }
    struct Arrow {
      Entry e;
      const Entry* operator->() const { return &e; }
    };
    Arrow operator->() const { return {**this}; }
    const_iterator& operator++() { ++i_; return *this; }
    ptrdiff_t operator-(const const_iterator& o) const { return ptrdiff_t(i_) - ptrdiff_t(o.i_); }
    bool operator==(const const_iterator& o) const { return i_ == o.i_; }
    bool operator!=(const const_iterator& o) const { return i_ != o.i_; }

   private:
    const CounterTable* t_;
    size_t i_;
  };

  CounterTable() = default;
  CounterTable(std::shared_ptr<const Names> names, std::vector<double> values);  // names sorted, one value each
  CounterTable(std::initializer_list<std::pair<const std::string, double>> entries);
  explicit CounterTable(const std::map<std::string, double>& m);

  size_t size() const { return values_.size(); }
  bool empty() const { return values_.empty(); }
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, values_.size()}; }
  const_iterator find(const std::string& name) const;
  size_t count(const std::string& name) const { return find(name) != end(); }
  double at(const std::string& name) const;  // std::out_of_range when absent
  // Sets each of `more`'s names to its value, adding the names the table lacks (the list with them is
  // shared with the next table that adds the same names to the same list).
  void set(const std::map<std::string, double>& more);
  const std::shared_ptr<const Names>& names() const { return names_; }
  const std::vector<double>& values() const { return values_; }  // in the order of names()
  bool operator==(const CounterTable& o) const;  // the same names with the same values

 private:
  std::shared_ptr<const Names> names_;
  std::vector<double> values_;
};

// A component's view: StatGroup g(reg, "sm3.l1d", "l1d"); Counter& m = g.counter("misses", "...");
class StatGroup {
 public:
  StatGroup(StatsRegistry& reg, std::string instance_prefix, std::string kind_prefix);
  Counter& counter(const std::string& name, std::string_view meaning = {});
  Histogram& histogram(const std::string& name, size_t buckets, std::string_view meaning = {});
 private:
  StatsRegistry& reg_;
  std::string inst_, kind_;
};

class StatsRegistry {
 public:
  // full_name is "instance.name"; summed_name is "kind.name" (may equal full_name
  // for a singleton; then it appears once). A counter's or histogram's meaning documents it where it is
  // registered; it is not kept (a large GPU registers 17,000 of them, one text per kind).
  Counter& counter(const std::string& full_name, const std::string& summed_name, std::string_view meaning = {});
  Histogram& histogram(const std::string& full_name, const std::string& summed_name, size_t buckets,
                       std::string_view meaning = {});
  // A value computed when stats are read (e.g. dram.bw_util); appears under `name`.
  void derived(const std::string& name, std::function<double()> fn, const std::string& meaning = "");
  // Called before every read (values(), snapshot()): a block brings a counter it accumulates by interval up
  // to now (e.g. a DRAM channel's active cycles while a request is still in it). It must change only
  // counters, and only so that their final values are the same however often they are read.
  void before_read(std::function<void()> fn) { before_read_.push_back(std::move(fn)); }

  // Every counter, histogram bucket total and derived value by name: per-instance
  // names and summed names, sorted. Histograms appear as "name.bucketN" entries
  // plus "name.samples".
  std::map<std::string, double> values() const;

  // Per-kernel accounting: snapshot before a launch, delta after (a `cost.*` value,
  // a mechanism's storage, is kept as it is).
  using Snapshot = std::map<std::string, double>;
  Snapshot snapshot() const { return values(); }
  static std::map<std::string, double> delta(const Snapshot& before, const Snapshot& after);
  // The same accounting without building the names twice (a launch's: one per launch, thousands of counters):
  // a snapshot of the values in registration order, and delta_since(it), which equals
  // delta(snapshot-at-that-time, snapshot()) to the last bit.
  struct RawSnapshot {
    std::vector<uint64_t> counters, buckets;
    std::vector<double> derived;
  };
  RawSnapshot raw_snapshot() const;
  CounterTable delta_since(const RawSnapshot& before) const;

  void clear();  // zero every counter and histogram (keeps registrations)

  // Time series a block adds to the sampled statistics (stats.sample_interval): a gauge is read at each
  // sample (a level, e.g. warps stalled now); a sampled counter (by its summed name) gives its increase
  // over each interval. Both only read the model.
  struct Series {
    std::string name, meaning;
    std::function<double()> gauge;  // null for a sampled counter
  };
  void gauge(const std::string& name, std::function<double()> fn, const std::string& meaning = "");
  void sample_counter(const std::string& summed_name, const std::string& meaning = "");
  const std::vector<Series>& series() const { return series_; }

  // Request conservation: every block instance that counts "<inst>.requests"
  // and "<inst>.responses" must answer each request exactly once. Returns the
  // instances where the two differ, in registration order, as
  // "<inst> (<requests> requests, <responses> responses)".
  std::vector<std::string> unanswered_requests() const;

 private:
  struct CounterEntry { std::string full, summed; std::unique_ptr<Counter> c; };
  struct HistEntry { std::string full, summed; std::unique_ptr<Histogram> h; };
  struct DerivedEntry { std::string name, meaning; std::function<double()> fn; };
  std::vector<CounterEntry> counters_;
  std::vector<HistEntry> hists_;
  std::vector<DerivedEntry> derived_;
  std::vector<std::function<void()>> before_read_;
  std::vector<Series> series_;
  std::map<std::string, size_t> counter_index_, hist_index_;
  // delta_since's layout: the names values() gives, sorted and shared by every launch's table, and where each
  // counter (full, summed), histogram bucket and sample total (full, summed) and derived value lands in them;
  // built again when something was registered since
  static constexpr uint32_t kNone = UINT32_MAX;
  struct Layout {
    size_t counters = SIZE_MAX, hists = 0, derived = 0;
    std::shared_ptr<const CounterTable::Names> names;
    // per counter, then per histogram bucket and per histogram's sample total: the positions of its full and
    // summed names (kNone for a summed name equal to the full one); per derived value: its name's position
    std::vector<uint32_t> counter_at, hist_at, derived_at;
    std::vector<uint8_t> counter_cost, hist_cost, derived_cost;  // a `cost.*` name: its value, not its increase
  };
  const Layout& layout() const;
  mutable Layout layout_;
};

// One kernel's record in stats.json.
struct KernelStats {
  std::string name;
  uint64_t cycles = 0;
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  bool verified = false;
  std::string status = "ok";  // ok, or how the launch ended early: limit | deadlock | interrupted | fault (figures partial)
  CounterTable counters;
  // sim.sampling: "timed"; "estimated" with its estimated cycles (its cycles and instructions are 0:
  // nothing of it was timed); "warm_up" (timed to warm the caches, its figures its own) with the estimate
  // the run's estimate counts for it; "" in a run without sampling.
  std::string sampling;
  double estimated_cycles = 0;
  double ipc() const { return cycles ? double(thread_instructions) / double(cycles) : 0.0; }
};

// How the run ended: ok, fault, deadlock, limit, interrupted, wrong_result or (warptlm exec) app_failed,
// and the message that said why (empty when ok).
struct RunStatus {
  std::string status = "ok";
  std::string message;
  // The run's verdict on its results: verified (they matched the reference), wrong_result, not_checked
  // (no reference, or the run ended before the check; an application's results, which WarpTLM does not
  // compare), or app_failed (an application exited non-zero: its own check, or another failure of its own).
  std::string verdict = "not_checked";
  // warptlm exec: the application's exit status (128 + the signal that ended it); -1: not an application.
  int app_exit = -1;
};

// Kernel-level sampling's estimate (sim.sampling: launches; platforms/gpu/launch_sampler.hpp): per stratum
// (a shape of launch: kernel, block and dynamic shared memory, and an octave of warp instructions) and for
// the run.
struct SamplingGroup {
  std::string kernel;
  uint32_t block[3] = {1, 1, 1};
  uint32_t dynamic_smem = 0;
  double warp_instructions_low = 0, warp_instructions_high = 0;  // the stratum: [low, high)
  uint64_t launches = 0, timed = 0;
  double estimated_cycles = 0;  // the timed launches' cycles plus the others' estimates
  double bound_cycles = 0;      // half-width of the 95 % interval about it
  double cycles_per_warp_instruction = 0;  // the ratio the estimates use, from the timed launches
  // sim.sampling: intervals: a group is one launch that ran blocks functionally between timed intervals
  uint64_t launch = 0;  // its index among the run's launches
  uint64_t intervals = 0, sampled_intervals = 0, estimated_blocks = 0;
};
struct SamplingReport {
  std::string mode = "launches";
  uint64_t launches = 0, timed = 0;
  double estimated_cycles = 0, bound_cycles = 0;
  std::vector<SamplingGroup> groups;
  std::vector<double> launch_estimate;  // per sampled launch, in order: its estimated cycles (timed: measured)
};

struct SimSpeed {
  double wall_seconds = 0;
  double warp_inst_per_sec = 0;
  double cycles_per_sec = 0;
};

// Time series sampled every `interval` core cycles (stats.sample_interval):
// series[name][i] is the value over the interval that ends at cycle[i].
struct Samples {
  uint64_t interval = 0;
  std::vector<uint64_t> cycle;
  std::map<std::string, std::vector<double>> series;
};

// stats.json as DESIGN.md specifies:
// {"kernels":[{"name","cycles","warp_instructions","thread_instructions","ipc","verified","counters":{}}],
//  "counters":{...}, "sim":{"wall_seconds","warp_inst_per_sec","cycles_per_sec"}}
// Numbers that are whole are written as integers; JSON strings are escaped.
// With samples, a "samples": {"cycle": [...], "interval": N, "series": {name: [...]}} entry is added; with
// kernel-level sampling, "sampling": {"mode", "launches", "timed_launches", "estimated_cycles",
// "bound_cycles", "groups": [...]}, and each kernel says "sampling": "timed" or "estimated".
std::string stats_json(const std::vector<KernelStats>& kernels, const std::map<std::string, double>& counters,
                       const SimSpeed& sim, const Samples* samples = nullptr, const RunStatus& status = {},
                       const SamplingReport* sampling = nullptr);
// stats.txt: "name = value" lines: kernel-level lines first ("kernel0.name = ...",
// "gpu_tot_sim_cycle", "gpu_tot_sim_insn", "gpu_tot_ipc" with GPGPU-Sim meanings), then counters.
std::string stats_txt(const std::vector<KernelStats>& kernels, const std::map<std::string, double>& counters,
                      const SimSpeed& sim, const RunStatus& status = {}, const SamplingReport* sampling = nullptr);
// GPGPU-Sim's names for the figures a kernel's counters (or the run's totals) give, added to `counters`:
// gpu_sim_cycle, gpu_sim_insn (thread instructions) and gpu_ipc for a kernel, gpu_tot_sim_cycle,
// gpu_tot_sim_insn and gpu_tot_ipc for the run (`total`); both get gpu_occupancy (achieved occupancy in
// percent: sm.resident_warp_cycles over sm.active_cycles x max_warps), L1D_total_cache_miss_rate and
// L2_total_cache_miss_rate (misses over hits + misses, 0 without accesses), averagemflatency (an L1 miss's
// round trip in core cycles: l1d.fill_cycles over l1d.fills), avg_mem_latency (every global or local
// access's round trip, hits included: ldst.global_latency_cycles over ldst.global_responses) and dram_eff
// (data-bus busy cycles over cycles with a request in a channel), each where its counters exist.
void add_gpgpusim_figures(std::map<std::string, double>& counters, uint64_t cycles, uint64_t thread_instructions,
                          uint32_t max_warps, bool total);
void add_gpgpusim_figures(CounterTable& counters, uint64_t cycles, uint64_t thread_instructions, uint32_t max_warps,
                          bool total);
// The figures of add_gpgpusim_figures a kernel's stats.txt lines show, in order.
const std::vector<std::string>& gpgpusim_kernel_figures();
// Names in natural order: runs of digits compare as numbers ("sm2" < "sm10", "bucket9" < "bucket10").
bool natural_less(const std::string& a, const std::string& b);
// A name's key in that order: natural_less(a, b) exactly when natural_key(a) < natural_key(b).
std::string natural_key(const std::string& name);
void write_file(const std::string& path, const std::string& text);  // atomic: temp + rename; InputError if unwritable

}  // namespace warptlm
