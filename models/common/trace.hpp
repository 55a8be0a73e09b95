// Waveform probes. A block owns Probe members and calls set(value) where the
// hardware value changes; when tracing is off (no Tracer, or the signal is
// filtered out) that is one compare. The Tracer writes value changes as VCD
// in real time (SystemC's resolution; a core cycle is the core clock's period),
// limited to a cycle window and to hierarchy globs, plus a GTKWave save file
// (.gtkw) that opens on the first traced SM's issue activity and the memory
// path's occupancy, shows every signal under its full hierarchical name, and
// decodes enumerations (stall reasons, warp states) and sentinel values ("none",
// "closed") through translate files.
#pragma once
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace sc_core { class sc_time; }

namespace warptlm {

struct TraceConfig {
  std::string vcd_path;                 // "" = tracing off
  std::vector<std::string> include{"*"};  // glob patterns on dotted names
  std::vector<std::string> exclude;
  uint64_t from = 0, to = UINT64_MAX;   // cycle window, inclusive
  static TraceConfig from_config(const class Config& c);  // trace.* parameters
};

class ParamTable;
void declare_trace_params(ParamTable& t);

// How the viewer shows a probe's values: numbers in decimal or hexadecimal, an
// enumeration (value i is names[i]), and named sentinel values (a "none" that
// is not a number: issued_warp 255, open_row 2^20 - 1).
struct ProbeView {
  std::vector<std::string> names;                          // an enumeration: value i decodes as names[i]
  std::vector<std::pair<uint64_t, std::string>> special;  // single values decoded by name, the rest shown as numbers
  bool hex = false;                                        // addresses and lane masks
  std::string group;  // the GTKWave view shows the signals of one group together under this title (an RTL block's ports)
};

class Tracer {
 public:
  static constexpr uint32_t kOff = UINT32_MAX;

  // The process-wide tracer, or nullptr when tracing is off.
  static Tracer* active() { return active_; }
  // Starts tracing (before modules are built, so their probes register).
  static void start(const TraceConfig& cfg, double core_period_ps);
  // Writes out what is buffered and the .gtkw file; ends tracing.
  static void finish();

  // A signal `name` (dotted hierarchy) of `width` bits, shown as `view` says.
  // kOff when filtered out.
  uint32_t declare(const std::string& name, unsigned width, const ProbeView& view = {});
  void change(uint32_t id, uint64_t value);
  // A change known in advance (a busy resource freeing at a known time): kept
  // here and written when the trace reaches `at`, with no simulation event
  // (an extra event would reorder same-time processes and so change the run).
  // One per signal: a later change() at or before `at`, or another
  // change_at(), replaces it.
  void change_at(uint32_t id, uint64_t value, const sc_core::sc_time& at);
  uint64_t changes_written() const { return written_; }

 private:
  Tracer(const TraceConfig& cfg, double period_ps);
  ~Tracer();
  bool selected(const std::string& name) const;
  void begin_dump();
  uint64_t cycle_of(const sc_core::sc_time& t) const;
  void emit(uint32_t id, uint64_t value, uint64_t cycle);
  void flush_until(uint64_t cycle);  // writes the scheduled changes up to `cycle`
  void write_value(uint32_t id, uint64_t v);
  void write_time(uint64_t cycle);
  void write_gtkw() const;

  struct Signal {
    std::string name;
    unsigned width;
    std::string code;  // VCD identifier
    uint64_t value;
    int table;         // its translate table (enumeration or sentinels), -1 = plain number
    bool hex;
    uint64_t initial;  // its value until the first change (UINT64_MAX: unknown, shown as x)
    uint64_t first_change;  // the first cycle it changed after the trace began (UINT64_MAX: never)
    uint64_t last_set = UINT64_MAX;  // the core cycle of its last change() (a change_at() lands after it)
    uint64_t later_seq = 0, later_cycle = 0;  // its scheduled change (0: none)
    std::string group;  // ProbeView::group
  };
  struct Later {
    uint64_t cycle, seq;
    uint32_t id;
    uint64_t value;
    bool operator>(const Later& o) const { return cycle != o.cycle ? cycle > o.cycle : seq > o.seq; }
  };
  static Tracer* active_;
  TraceConfig cfg_;
  double period_ps_;
  std::vector<Signal> signals_;
  std::vector<std::vector<std::pair<uint64_t, std::string>>> tables_;  // value -> name, one per distinct table
  std::FILE* out_ = nullptr;
  bool header_done_ = false, window_open_ = false, past_window_ = false;
  uint64_t last_seen_ = 0;  // the latest cycle a change was made at (a window past it warns)
  uint64_t first_written_ = UINT64_MAX, last_written_ = 0;  // the cycles the VCD holds
  mutable uint64_t period_units_ = 0;  // the core clock period in SystemC time units
  uint64_t last_cycle_ = UINT64_MAX, written_ = 0;
  std::vector<Later> later_;  // min-heap of scheduled changes
  uint64_t later_seq_ = 0;
};

// One traced value. The declaring block names it once; set() is the hot path.
class Probe {
 public:
  Probe() = default;
  void declare(const std::string& name, unsigned width, const std::vector<std::string>& enum_names = {}) {
    if (Tracer* t = Tracer::active()) id_ = t->declare(name, width, ProbeView{enum_names, {}, false, {}});
  }
  void declare(const std::string& name, unsigned width, const ProbeView& view) {
    if (Tracer* t = Tracer::active()) id_ = t->declare(name, width, view);
  }
  void set(uint64_t v) {
    if (id_ != Tracer::kOff && v != last_) {
      last_ = v;
      Tracer::active()->change(id_, v);
    }
  }
  // The value becomes v at the later time `at` (for a state whose end is known
  // when it begins, e.g. a bank array busy until a given cycle) without a
  // simulation event; a set() at or before `at` replaces it.
  void set_at(const sc_core::sc_time& at, uint64_t v) {
    if (id_ != Tracer::kOff) {
      Tracer::active()->change_at(id_, v, at);
      last_ = UINT64_MAX;  // the next set() goes to the tracer, which knows the value then
    }
  }
  // A value for one clock period: v now, `rest` from `until` (the next edge), with no simulation event.
  void pulse(uint64_t v, const sc_core::sc_time& until, uint64_t rest = 0) {
    if (id_ != Tracer::kOff) {
      set(v);
      set_at(until, rest);
    }
  }
  bool on() const { return id_ != Tracer::kOff; }

 private:
  uint32_t id_ = Tracer::kOff;
  uint64_t last_ = UINT64_MAX;
};

// Parses trace.include/exclude ("a,b") and trace.window ("from,to").
std::vector<std::string> split_list(const std::string& s);

}  // namespace warptlm
