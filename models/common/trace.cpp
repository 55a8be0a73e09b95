#include "common/trace.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <fstream>
#include <set>
#include <systemc>

#include "common/clock.hpp"
#include "common/config.hpp"
#include "common/errors.hpp"
#include "common/stats.hpp"

namespace warptlm {

Tracer* Tracer::active_ = nullptr;

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> v;
  std::string cur;
  for (char c : s) {
    if (c == ',') { if (!cur.empty()) v.push_back(cur); cur.clear(); }
    else if (c != ' ' && c != '[' && c != ']' && c != '"' && c != '\'') cur += c;  // the list form: ["sm0.*", "dram*"]
  }
  if (!cur.empty()) v.push_back(cur);
  return v;
}

void declare_trace_params(ParamTable& t) {
  t.string_param("trace.vcd", "", "VCD file of the probes (empty: no tracing); --vcd FILE sets it");
  t.string_param("trace.include", "*", "hierarchy globs of the signals to trace, e.g. [\"sm0.*\", \"dram*\"]");
  t.string_param("trace.exclude", "", "hierarchy globs of signals to leave out");
  t.string_param("trace.window", "", "cycle window [from, to] to trace (empty: the whole run)");
}

TraceConfig TraceConfig::from_config(const Config& c) {
  TraceConfig t;
  t.vcd_path = c.get_string("trace.vcd");
  t.include = split_list(c.get_string("trace.include"));
  t.exclude = split_list(c.get_string("trace.exclude"));
  const std::vector<std::string> w = split_list(c.get_string("trace.window"));
  if (!w.empty()) {
    int64_t a = 0, b = 0;
    if (w.size() != 2 || !parse_int(w[0], a) || !parse_int(w[1], b) || a < 0 || b < a)
      throw InputError(Place{"", 0, "trace.window"}, "trace.window must be [from, to] cycles with from <= to, got '" +
                                                          c.get_string("trace.window") + "' (" + c.origin("trace.window") + ")");
    t.from = uint64_t(a);
    t.to = uint64_t(b);
  }
  return t;
}

void Tracer::start(const TraceConfig& cfg, double core_period_ps) {
  finish();
  if (cfg.vcd_path.empty()) return;
  active_ = new Tracer(cfg, core_period_ps);
}

void Tracer::finish() {
  if (!active_) return;
  delete active_;
  active_ = nullptr;
}

Tracer::Tracer(const TraceConfig& cfg, double period_ps) : cfg_(cfg), period_ps_(period_ps) {
  out_ = std::fopen(cfg_.vcd_path.c_str(), "w");
  if (!out_) throw InputError("cannot write VCD file '" + cfg_.vcd_path + "'");
}

Tracer::~Tracer() {
  if (!header_done_) begin_dump();
  flush_until(UINT64_MAX);
  std::fclose(out_);
  write_gtkw();
  // a filter or a window that selects nothing leaves an empty VCD: say so rather than leave it to be found
  auto list = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& g : v) s += (s.empty() ? "" : ", ") + g;
    return "[" + s + "]";
  };
  if (signals_.empty())
    std::fprintf(stderr, "warptlm: warning: trace.include %s and trace.exclude %s select no signal: %s has none\n",
                 list(cfg_.include).c_str(), list(cfg_.exclude).c_str(), cfg_.vcd_path.c_str());
  else if (!window_open_ && (cfg_.from > 0 || cfg_.to < UINT64_MAX))
    std::fprintf(stderr, "warptlm: warning: trace.window [%llu, %llu] saw no change (the run's last traced cycle is %llu): "
                 "%s holds no values\n", (unsigned long long)cfg_.from, (unsigned long long)cfg_.to,
                 (unsigned long long)last_seen_, cfg_.vcd_path.c_str());
}

bool Tracer::selected(const std::string& name) const {
  bool in = false;
  for (auto& g : cfg_.include) in = in || fnmatch(g.c_str(), name.c_str(), 0) == 0;
  for (auto& g : cfg_.exclude) in = in && fnmatch(g.c_str(), name.c_str(), 0) != 0;
  return in;
}

uint32_t Tracer::declare(const std::string& name, unsigned width, const ProbeView& view) {
  if (header_done_ || !selected(name)) return kOff;
  // Before its first change a signal reads as it does in hardware at reset: a number (a count, a queue's
  // occupancy) 0, a signal with a sentinel its sentinel (no warp issued, the bank precharged), an enumeration
  // whose first name is a rest state that state; an enumeration of outcomes is unknown until its block acts.
  const bool rest = !view.names.empty() && (view.names[0] == "idle" || view.names[0] == "empty");
  const uint64_t initial = !view.special.empty() ? view.special.front().first : view.names.empty() || rest ? 0 : UINT64_MAX;
  Signal s{name, width ? width : 1, "", UINT64_MAX, -1, view.hex, initial, UINT64_MAX, UINT64_MAX, 0, 0, view.group};
  // VCD identifiers: printable ASCII 33..126, base 94
  uint32_t n = uint32_t(signals_.size());
  do { s.code += char(33 + n % 94); n /= 94; } while (n);
  std::vector<std::pair<uint64_t, std::string>> table;
  for (size_t v = 0; v < view.names.size(); ++v) table.emplace_back(v, view.names[v]);
  table.insert(table.end(), view.special.begin(), view.special.end());
  if (!table.empty()) {
    for (size_t e = 0; e < tables_.size() && s.table < 0; ++e)
      if (tables_[e] == table) s.table = int(e);
    if (s.table < 0) { tables_.push_back(table); s.table = int(tables_.size() - 1); }
  }
  signals_.push_back(s);
  return uint32_t(signals_.size() - 1);
}

// The header, with signals nested in scopes by their dotted names.
void Tracer::begin_dump() {
  header_done_ = true;
  // Real time at SystemC's resolution: the viewer's axis reads in its own units (ns, us) and a core cycle
  // is the core clock's period, which the comment states.
  cycle_of(sc_core::SC_ZERO_TIME);  // sets period_units_
  std::fprintf(out_, "$date WarpTLM $end\n$version WarpTLM waveform probes $end\n$timescale %s $end\n",
               sc_core::sc_get_time_resolution().to_string().c_str());
  std::fprintf(out_, "$comment core clock period %llu time units: one core cycle every %llu $end\n",
               (unsigned long long)period_units_, (unsigned long long)period_units_);
  std::vector<size_t> order(signals_.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return signals_[a].name < signals_[b].name; });
  std::vector<std::string> open;
  for (size_t i : order) {
    const Signal& s = signals_[i];
    std::vector<std::string> parts;
    size_t st = 0, dot;
    while ((dot = s.name.find('.', st)) != std::string::npos) { parts.push_back(s.name.substr(st, dot - st)); st = dot + 1; }
    const std::string leaf = s.name.substr(st);
    size_t common = 0;
    while (common < open.size() && common < parts.size() && open[common] == parts[common]) ++common;
    while (open.size() > common) { std::fprintf(out_, "$upscope $end\n"); open.pop_back(); }
    for (size_t k = common; k < parts.size(); ++k) { std::fprintf(out_, "$scope module %s $end\n", parts[k].c_str()); open.push_back(parts[k]); }
    if (s.width == 1) std::fprintf(out_, "$var wire 1 %s %s $end\n", s.code.c_str(), leaf.c_str());
    else std::fprintf(out_, "$var wire %u %s %s [%u:0] $end\n", s.width, s.code.c_str(), leaf.c_str(), s.width - 1);
  }
  while (!open.empty()) { std::fprintf(out_, "$upscope $end\n"); open.pop_back(); }
  std::fprintf(out_, "$enddefinitions $end\n");
}

void Tracer::write_value(uint32_t id, uint64_t v) {
  const Signal& s = signals_[id];
  if (s.width == 1) {
    std::fprintf(out_, "%c%s\n", v ? '1' : '0', s.code.c_str());
  } else {
    char buf[72];
    int n = 0;
    for (int b = int(s.width) - 1; b >= 0; --b) buf[n++] = (b < 64 && (v >> b & 1)) ? '1' : '0';
    buf[n] = 0;
    const char* p = buf;
    while (*p == '0' && p[1]) ++p;  // VCD allows leading zeros to be dropped
    std::fprintf(out_, "b%s %s\n", p, s.code.c_str());
  }
  ++written_;
}

// Core cycle of a time: integer division by the clock period as SystemC holds
// it (the same rounding the SMs count cycles with).
uint64_t Tracer::cycle_of(const sc_core::sc_time& t) const {
  if (!period_units_) period_units_ = sc_core::sc_time(period_ps_, sc_core::SC_PS).value();
  return t.value() / period_units_;
}

void Tracer::change(uint32_t id, uint64_t value) {
  if (past_window_) return;  // nothing after the window is written
  if (!header_done_) begin_dump();
  const uint64_t cycle = cycle_of(now_time());
  last_seen_ = std::max(last_seen_, cycle);
  if (cycle > cfg_.to) {
    flush_until(cfg_.to);
    past_window_ = true;
    return;
  }
  Signal& s = signals_[id];
  if (s.later_seq && s.later_cycle >= cycle) s.later_seq = 0;  // replaced by this change
  s.last_set = cycle;
  flush_until(cycle);
  emit(id, value, cycle);
}

void Tracer::change_at(uint32_t id, uint64_t value, const sc_core::sc_time& at) {
  if (past_window_) return;
  if (!header_done_) begin_dump();
  Signal& s = signals_[id];
  s.later_seq = ++later_seq_;
  // The trace's resolution is the core cycle: a value set in this core cycle shows for at least one, even
  // when it ends sooner (a pulse of one DRAM cycle, shorter than a core cycle, would otherwise vanish).
  const uint64_t now = cycle_of(now_time());
  s.later_cycle = std::max(cycle_of(at), s.last_set == now ? now + 1 : 0);
  later_.push_back(Later{s.later_cycle, s.later_seq, id, value});
  std::push_heap(later_.begin(), later_.end(), std::greater<Later>());
}

void Tracer::flush_until(uint64_t cycle) {
  while (!later_.empty() && later_.front().cycle <= cycle) {
    std::pop_heap(later_.begin(), later_.end(), std::greater<Later>());
    const Later l = later_.back();
    later_.pop_back();
    Signal& s = signals_[l.id];
    if (s.later_seq != l.seq) continue;  // replaced meanwhile
    s.later_seq = 0;
    emit(l.id, l.value, l.cycle);
  }
}

void Tracer::emit(uint32_t id, uint64_t value, uint64_t cycle) {
  if (signals_[id].value == value) return;  // a set() after set_at() may repeat the value
  signals_[id].value = value;
  if (cycle < cfg_.from || cycle > cfg_.to) return;
  if (window_open_ && signals_[id].first_change == UINT64_MAX) signals_[id].first_change = cycle;
  if (!window_open_) {
    // The window opens: every signal's value at that cycle.
    window_open_ = true;
    signals_[id].first_change = cycle;
    write_time(cycle);
    std::fprintf(out_, "$dumpvars\n");
    for (uint32_t i = 0; i < signals_.size(); ++i) {
      Signal& si = signals_[i];
      if (si.value == UINT64_MAX) si.value = si.initial;
      if (si.value != UINT64_MAX) write_value(i, si.value);
    }
    std::fprintf(out_, "$end\n");
    return;
  }
  if (cycle != last_cycle_) write_time(cycle);
  write_value(id, value);
}

void Tracer::write_time(uint64_t cycle) {
  std::fprintf(out_, "#%llu\n", (unsigned long long)(cycle * period_units_));
  last_cycle_ = cycle;
  first_written_ = std::min(first_written_, cycle);
  last_written_ = std::max(last_written_, cycle);
}

// GTKWave save file. It opens on the first traced SM: its schedulers' issue activity (issued warp,
// outcome, PC, active mask), its memory transactions, then the memory path's occupancy (its L1 and shared
// memory, every queue and MSHR file below), then its warps' states; every other block follows in a closed
// group of its own. Each trace carries its full dotted name as an alias, escaped ("\sm0.warp3.state") because
// GTKWave cuts a name at its last dot unless it is an escaped identifier (its default hier_max_level 1);
// enumerations and sentinels decode through translate files written beside it. The view
// starts where the trace does, zoomed to about kViewCycles core cycles.
namespace {

constexpr uint64_t kViewCycles = 50, kViewLead = 10;   // cycles shown, and shown before the first issue
constexpr int kViewWidth = 1600, kViewHeight = 960, kWaveWidth = 1200;  // window and wave-area pixels

// The SM a name belongs to ("sm3.l1d.mshrs" -> 3), or -1.
int sm_of(const std::string& name) {
  if (name.compare(0, 2, "sm") != 0 || name.size() < 3 || !std::isdigit((unsigned char)name[2])) return -1;
  return std::atoi(name.c_str() + 2);
}

bool ends_with(const std::string& s, const char* tail) {
  const size_t n = std::strlen(tail);
  return s.size() >= n && s.compare(s.size() - n, n, tail) == 0;
}

}  // namespace

namespace {
// A 64-bit slice of a wider signal, named "<signal>_<hi>_<lo>" (rtl_signals.hpp).
bool is_slice(const std::string& n) {
  size_t i = n.size(), seps = 0;
  while (i > 0 && seps < 2) {
    const char c = n[i - 1];
    if (c == '_') {
      if (i == n.size() || n[i] == '_') return false;
      ++seps;
    } else if (c < '0' || c > '9') {
      return false;
    }
    --i;
  }
  return seps == 2 && i > 0;
}
}  // namespace

void Tracer::write_gtkw() const {
  std::string base = cfg_.vcd_path;
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0) base.resize(base.size() - 4);
  std::vector<std::string> filters;
  for (size_t e = 0; e < tables_.size(); ++e) {
    std::string f = base + ".enum" + std::to_string(e) + ".txt";
    std::ofstream tf(f);
    tf << "# WarpTLM: value -> name\n";
    for (auto& vn : tables_[e]) tf << vn.first << " " << vn.second << "\n";
    filters.push_back(f);
  }
  // the SM the view opens on: the lowest-numbered one traced
  int focus = -1;
  for (auto& s : signals_) {
    const int sm = sm_of(s.name);
    if (sm >= 0 && (focus < 0 || sm < focus)) focus = sm;
  }
  const std::string fp = "sm" + std::to_string(focus) + ".";
  auto in_focus = [&](const Signal& s) { return focus >= 0 && s.name.compare(0, fp.size(), fp) == 0; };
  auto part = [&](const Signal& s) -> int {  // 0 issue, 1 transactions, 2 memory path, 3 warps, 4 the rest, 5 a group
    const std::string& n = s.name;
    // an RTL block's signals: the focus SM's ports in their block's group, the rest with their SM's others
    if (!s.group.empty() && in_focus(s)) return 5;
    if (!s.group.empty() || n.find(".rtl.") != std::string::npos) return 4;
    if (in_focus(s)) {
      const std::string rest = n.substr(fp.size());
      if (rest.compare(0, 5, "sched") == 0) return 0;
      if (rest.compare(0, 4, "mem.") == 0) return 1;
      if (rest.compare(0, 4, "warp") == 0) return 3;
      if (rest.compare(0, 4, "l1d.") == 0 || rest.compare(0, 5, "smem.") == 0) return 2;
      return 4;
    }
    if (sm_of(n) >= 0) return 4;
    if (n.compare(0, 9, "icn.to_sm") == 0) return n == "icn.to_" + fp + "queue" ? 2 : 4;  // the focus SM's returns
    return ends_with(n, ".queue") || ends_with(n, ".mshrs") ? 2 : 4;
  };
  // the memory path in the order a request takes it: the SM's L1 and shared memory, the crossbar towards
  // the partitions, the L2 slices, the DRAM channels, the crossbar back to the SM
  auto stage = [&](const std::string& n) {
    if (n.compare(0, fp.size(), fp) == 0) return 0;
    if (n.compare(0, 11, "icn.to_part") == 0) return 1;
    if (n.compare(0, 4, "part") == 0) return 2;
    if (n.compare(0, 4, "dram") == 0) return 3;
    return 4;
  };
  std::vector<const Signal*> order;
  for (auto& s : signals_) order.push_back(&s);
  // within a part, the schedulers' signals in the order an architect reads them; otherwise natural order
  auto rank = [](const std::string& n) {
    static const char* leaves[] = {".issued_warp", ".outcome", ".pc", ".active_mask", ".issue_cycles"};
    for (int i = 0; i < 5; ++i)
      if (ends_with(n, leaves[i])) return i;
    return 5;
  };
  // the parts in the view's order: the issue, then the groups (an RTL block's ports), then the others
  auto place = [](int p) { return p == 5 ? 1 : p == 0 ? 0 : p + 1; };
  std::stable_sort(order.begin(), order.end(), [&](const Signal* a, const Signal* b) {
    const int pa = part(*a), pb = part(*b);
    if (pa != pb) return place(pa) < place(pb);
    if (pa == 5 && a->group != b->group) return natural_less(a->group, b->group);
    if (pa == 5) {  // a group's control and narrow signals first, a wide bus's 64-bit slices ("age_63_0") after
      const bool sa = is_slice(a->name), sb = is_slice(b->name);
      if (sa != sb) return sb;
    }
    if (pa == 0) {  // by scheduler, then by leaf
      const std::string sa = a->name.substr(0, a->name.rfind('.')), sb = b->name.substr(0, b->name.rfind('.'));
      if (sa != sb) return natural_less(sa, sb);
      return rank(a->name) < rank(b->name);
    }
    if (pa == 2 && stage(a->name) != stage(b->name)) return stage(a->name) < stage(b->name);
    if (pa == 4) {  // by block, the block's signals together
      const std::string ga = a->name.substr(0, a->name.find('.')), gb = b->name.substr(0, b->name.find('.'));
      if (ga != gb) return natural_less(ga, gb);
    }
    return natural_less(a->name, b->name);
  });

  // The view starts at the window asked for (trace.window); without one, a few cycles before the focus SM
  // first issues (its first scheduler's issued warp leaves "none"), else where the trace starts.
  uint64_t start = cfg_.from;
  if (start == 0 && first_written_ != UINT64_MAX) {
    start = first_written_;
    if (!order.empty() && part(*order.front()) == 0 && order.front()->first_change != UINT64_MAX)
      start = std::max(start, order.front()->first_change > kViewLead ? order.front()->first_change - kViewLead : 0);
  }
  // GTKWave's zoom z draws 2^-z time units in a frame of 200 pixels
  const uint64_t span = std::max<uint64_t>(kViewCycles * period_units_, 1);
  const double zoom = -std::log2(double(span) * 200.0 / double(kWaveWidth));
  std::ofstream g(base + ".gtkw");
  g << "[*] WarpTLM waveform view: gtkwave " << cfg_.vcd_path << " " << base << ".gtkw\n";
  g << "[*] time is real time; one core cycle is " << period_units_ << " time units ("
    << sc_core::sc_get_time_resolution().to_string() << " each)\n";
  g << "[dumpfile] \"" << cfg_.vcd_path << "\"\n";
  g << "[timestart] " << start * period_units_ << "\n";
  g << "[size] " << kViewWidth << " " << kViewHeight << "\n[pos] -1 -1\n";
  char zl[64];
  std::snprintf(zl, sizeof zl, "*%.6f -1", zoom);
  g << zl << "\n[sst_expanded] 0\n[signals_width] 320\n";
  const char* titles[] = {" issue", " memory transactions", "memory path", " warps"};
  int open_part = -1;
  std::string open_group;
  auto close = [&]() {
    if (open_part < 0) return;
    g << (open_part == 4 ? "@1401200\n-" : "@1000200\n-") << open_group << "\n";
    open_part = -1;
  };
  for (const Signal* s : order) {
    const int p = part(*s);
    const std::string group = p == 5   ? s->group
                              : p == 4 ? s->name.substr(0, s->name.find('.'))
                              : p == 2 ? std::string(titles[2])
                                       : "sm" + std::to_string(focus) + titles[p];
    if (p != open_part || group != open_group) {
      close();
      g << (p == 4 ? "@c00200\n-" : "@800200\n-") << group << "\n";
      open_part = p;
      open_group = group;
    }
    if (s->table >= 0) g << "^" << (s->table + 1) << " " << filters[size_t(s->table)] << "\n@2024\n";
    else g << (s->width == 1 ? "@28\n" : s->hex ? "@22\n" : "@24\n");
    g << "+{\\" << s->name << "} " << s->name << (s->width > 1 ? "[" + std::to_string(s->width - 1) + ":0]" : std::string())
      << "\n";
  }
  close();
}

}  // namespace warptlm
