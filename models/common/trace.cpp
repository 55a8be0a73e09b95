#include "common/trace.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <fstream>
#include <set>
#include <systemc>

#include "common/config.hpp"
#include "common/errors.hpp"

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

uint32_t Tracer::declare(const std::string& name, unsigned width, const std::vector<std::string>& enum_names) {
  if (header_done_ || !selected(name)) return kOff;
  Signal s{name, width ? width : 1, "", UINT64_MAX, -1, 0, 0};
  // VCD identifiers: printable ASCII 33..126, base 94
  uint32_t n = uint32_t(signals_.size());
  do { s.code += char(33 + n % 94); n /= 94; } while (n);
  if (!enum_names.empty()) {
    for (size_t e = 0; e < enums_.size() && s.enum_id < 0; ++e)
      if (enums_[e] == enum_names) s.enum_id = int(e);
    if (s.enum_id < 0) { enums_.push_back(enum_names); s.enum_id = int(enums_.size() - 1); }
  }
  signals_.push_back(s);
  return uint32_t(signals_.size() - 1);
}

// The header, with signals nested in scopes by their dotted names.
void Tracer::begin_dump() {
  header_done_ = true;
  std::fprintf(out_, "$date WarpTLM $end\n$version WarpTLM waveform probes $end\n$timescale 1 ns $end\n");
  std::fprintf(out_, "$comment one time unit = one core cycle $end\n");
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
  const uint64_t cycle = cycle_of(sc_core::sc_time_stamp());
  last_seen_ = std::max(last_seen_, cycle);
  if (cycle > cfg_.to) {
    flush_until(cfg_.to);
    past_window_ = true;
    return;
  }
  Signal& s = signals_[id];
  if (s.later_seq && s.later_cycle >= cycle) s.later_seq = 0;  // replaced by this change
  flush_until(cycle);
  emit(id, value, cycle);
}

void Tracer::change_at(uint32_t id, uint64_t value, const sc_core::sc_time& at) {
  if (past_window_) return;
  if (!header_done_) begin_dump();
  Signal& s = signals_[id];
  s.later_seq = ++later_seq_;
  s.later_cycle = cycle_of(at);
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
  if (!window_open_) {
    // The window opens: every signal's value at that cycle.
    window_open_ = true;
    last_cycle_ = cycle;
    std::fprintf(out_, "#%llu\n$dumpvars\n", (unsigned long long)cycle);
    for (uint32_t i = 0; i < signals_.size(); ++i)
      if (signals_[i].value != UINT64_MAX) write_value(i, signals_[i].value);
    std::fprintf(out_, "$end\n");
    return;
  }
  if (cycle != last_cycle_) {
    std::fprintf(out_, "#%llu\n", (unsigned long long)cycle);
    last_cycle_ = cycle;
  }
  write_value(id, value);
}

// GTKWave save file: one group per module instance (the first name component),
// enumerations decoded through translate files written beside it.
void Tracer::write_gtkw() const {
  std::string base = cfg_.vcd_path;
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0) base.resize(base.size() - 4);
  std::vector<std::string> filters;
  for (size_t e = 0; e < enums_.size(); ++e) {
    std::string f = base + ".enum" + std::to_string(e) + ".txt";
    std::ofstream tf(f);
    tf << "# WarpTLM: value -> name\n";
    for (size_t v = 0; v < enums_[e].size(); ++v) tf << v << " " << enums_[e][v] << "\n";
    filters.push_back(f);
  }
  std::ofstream g(base + ".gtkw");
  g << "[*] WarpTLM waveform view: gtkwave " << cfg_.vcd_path << " " << base << ".gtkw\n";
  g << "[dumpfile] \"" << cfg_.vcd_path << "\"\n[timestart] " << (cfg_.from == 0 ? 0 : cfg_.from) << "\n";
  std::map<std::string, std::vector<const Signal*>> groups;
  for (auto& s : signals_) groups[s.name.substr(0, s.name.find('.'))].push_back(&s);
  for (auto& grp : groups) {
    g << "@800200\n-" << grp.first << "\n";
    for (const Signal* s : grp.second) {
      if (s->enum_id >= 0) g << "^" << (s->enum_id + 1) << " " << filters[size_t(s->enum_id)] << "\n@2024\n";
      else g << (s->width == 1 ? "@28\n" : "@24\n");
      g << s->name << (s->width > 1 ? "[" + std::to_string(s->width - 1) + ":0]" : std::string()) << "\n";
    }
    g << "@1000200\n-" << grp.first << "\n";
  }
}

}  // namespace warptlm
