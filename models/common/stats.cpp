#include "common/stats.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "common/errors.hpp"

namespace warptlm {

namespace {

std::string join_name(const std::string& prefix, const std::string& name) {
  return prefix.empty() ? name : prefix + "." + name;
}

// Whole numbers below 2^53 as integers; others as the shortest text that reads
// back to the same double; non-finite values as `nonfinite` (JSON: null).
std::string number(double v, bool json) {
  if (!std::isfinite(v)) {
    if (json) return "null";
    return std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
  }
  if (v == std::floor(v) && std::fabs(v) < 9007199254740992.0) {
    if (v == 0) return "0";  // also -0
    return std::to_string(static_cast<long long>(v));
  }
  char buf[40];
  for (int prec = 1; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += char(c);
        }
    }
  }
  return out + "\"";
}

// A map's entries with their names in natural order (natural_less): sm2 before sm10, bucket9 before bucket10.
// The positions 0..n-1 of n names (name(i): the i-th) in natural order: sorted by their natural keys.
template <class NameAt>
std::vector<uint32_t> natural_order(size_t n, NameAt name) {
  std::vector<std::string> keys;
  std::vector<uint32_t> order(n);
  keys.reserve(n);
  for (uint32_t i = 0; i < n; ++i) {
    order[i] = i;
    keys.push_back(natural_key(name(i)));
  }
  std::sort(order.begin(), order.end(), [&keys](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
  return order;
}

std::vector<const std::pair<const std::string, double>*> in_natural_order(const std::map<std::string, double>& m) {
  std::vector<const std::pair<const std::string, double>*> entries;
  entries.reserve(m.size());
  for (const auto& kv : m) entries.push_back(&kv);
  std::vector<const std::pair<const std::string, double>*> v;
  v.reserve(entries.size());
  for (uint32_t i : natural_order(entries.size(), [&entries](size_t i) -> const std::string& { return entries[i]->first; }))
    v.push_back(entries[i]);
  return v;
}

void json_map(std::string& out, const std::map<std::string, double>& m, const std::string& indent) {
  if (m.empty()) {
    out += "{}";
    return;
  }
  out += "{\n";
  const auto entries = in_natural_order(m);
  for (size_t i = 0; i < entries.size(); ++i) {
    out += indent;
    out += "  ";
    out += json_string(entries[i]->first);
    out += ": ";
    out += number(entries[i]->second, true);
    out += i + 1 < entries.size() ? ",\n" : "\n";
  }
  out += indent + "}";
}

// A counter table's names in natural order, as quoted JSON strings, kept for the next table with the same
// list of names (a run's launches share one).
class TableOrder {
 public:
  void of(const CounterTable& t) {
    if (t.names() == names_) return;
    names_ = t.names();
    order_.clear();
    quoted_.clear();
    if (!names_) return;
    order_ = natural_order(names_->size(), [this](size_t i) -> const std::string& { return (*names_)[i]; });
    for (uint32_t i : order_) quoted_.push_back(json_string((*names_)[i]));
  }
  const std::vector<uint32_t>& order() const { return order_; }  // natural position -> the table's
  const std::string& quoted(size_t i) const { return quoted_[i]; }

 private:
  std::shared_ptr<const CounterTable::Names> names_;
  std::vector<uint32_t> order_;
  std::vector<std::string> quoted_;
};

void json_table(std::string& out, const CounterTable& t, const std::string& indent, TableOrder& order) {
  if (t.empty()) {
    out += "{}";
    return;
  }
  out += "{\n";
  order.of(t);
  for (size_t i = 0; i < order.order().size(); ++i) {
    out += indent;
    out += "  ";
    out += order.quoted(i);
    out += ": ";
    out += number(t.values()[order.order()[i]], true);
    out += i + 1 < t.size() ? ",\n" : "\n";
  }
  out += indent + "}";
}

std::string one_line(std::string s) {
  for (auto& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

}  // namespace

// ---------------------------------------------------------------- StatGroup

CounterTable::CounterTable(std::shared_ptr<const Names> names, std::vector<double> values)
    : names_(std::move(names)), values_(std::move(values)) {}

CounterTable::CounterTable(const std::map<std::string, double>& m) {
  auto names = std::make_shared<Names>();
  names->reserve(m.size());
  for (const auto& [name, v] : m) {
    names->push_back(name);
    values_.push_back(v);
  }
  names_ = std::move(names);
}

CounterTable::CounterTable(std::initializer_list<std::pair<const std::string, double>> entries)
    : CounterTable(std::map<std::string, double>(entries)) {}

CounterTable::const_iterator CounterTable::find(const std::string& name) const {
  if (!names_) return end();
  const auto it = std::lower_bound(names_->begin(), names_->end(), name);
  return it != names_->end() && *it == name ? const_iterator(this, size_t(it - names_->begin())) : end();
}

double CounterTable::at(const std::string& name) const {
  const auto it = find(name);
  if (it == end()) throw std::out_of_range("no counter " + name);
  return it->second;
}

bool CounterTable::operator==(const CounterTable& o) const {
  if (values_ != o.values_) return false;
  return names_ == o.names_ || empty() || *names_ == *o.names_;
}

void CounterTable::set(const std::map<std::string, double>& more) {
  std::vector<const std::pair<const std::string, double>*> fresh;
  for (const auto& kv : more) {
    const size_t i = size_t(find(kv.first) - begin());
    if (i == size()) fresh.push_back(&kv);
    else values_[i] = kv.second;
  }
  if (fresh.empty()) return;
  // the list with the new names, kept for the next table that adds the same names to the same list
  struct Merged {
    std::shared_ptr<const Names> base, names;
    std::vector<std::string> added;
    std::vector<uint32_t> base_at, added_at;
  };
  thread_local Merged m;
  bool same = m.base == names_ && m.base && m.added.size() == fresh.size();
  for (size_t j = 0; same && j < fresh.size(); ++j) same = m.added[j] == fresh[j]->first;
  if (!same) {
    // both lists are sorted and share no name: merge them
    auto names = std::make_shared<Names>();
    const size_t base = names_ ? names_->size() : 0;
    names->reserve(base + fresh.size());
    m.base = names_;
    m.added.clear();
    m.base_at.clear();
    m.added_at.clear();
    for (size_t i = 0, j = 0; i < base || j < fresh.size();) {
      if (j == fresh.size() || (i < base && (*names_)[i] < fresh[j]->first)) {
        m.base_at.push_back(uint32_t(names->size()));
        names->push_back((*names_)[i++]);
      } else {
        m.added.push_back(fresh[j]->first);
        m.added_at.push_back(uint32_t(names->size()));
        names->push_back(fresh[j++]->first);
      }
    }
    m.names = std::move(names);
  }
  std::vector<double> v(m.names->size(), 0.0);
  for (size_t i = 0; i < values_.size(); ++i) v[m.base_at[i]] = values_[i];
  for (size_t j = 0; j < fresh.size(); ++j) v[m.added_at[j]] = fresh[j]->second;
  names_ = m.names;
  values_ = std::move(v);
}

StatGroup::StatGroup(StatsRegistry& reg, std::string instance_prefix, std::string kind_prefix)
    : reg_(reg), inst_(std::move(instance_prefix)), kind_(std::move(kind_prefix)) {}

Counter& StatGroup::counter(const std::string& name, std::string_view meaning) {
  const std::string full = join_name(inst_, name);
  return reg_.counter(full, kind_.empty() ? full : join_name(kind_, name), meaning);
}

Histogram& StatGroup::histogram(const std::string& name, size_t buckets, std::string_view meaning) {
  const std::string full = join_name(inst_, name);
  return reg_.histogram(full, kind_.empty() ? full : join_name(kind_, name), buckets, meaning);
}

// ------------------------------------------------------------ StatsRegistry

std::vector<std::string> StatsRegistry::unanswered_requests() const {
  static const std::string kIn = ".requests", kOut = ".responses";
  std::vector<std::string> out;
  for (const CounterEntry& e : counters_) {
    if (e.full.size() <= kIn.size() || e.full.compare(e.full.size() - kIn.size(), kIn.size(), kIn) != 0) continue;
    const std::string inst = e.full.substr(0, e.full.size() - kIn.size());
    auto it = counter_index_.find(inst + kOut);
    if (it == counter_index_.end()) continue;
    const uint64_t rq = e.c->value, rs = counters_[it->second].c->value;
    if (rq != rs)
      out.push_back(inst + " (" + std::to_string(rq) + " requests, " + std::to_string(rs) + " responses)");
  }
  return out;
}

Counter& StatsRegistry::counter(const std::string& full_name, const std::string& summed_name,
                                std::string_view /*meaning*/) {
  auto it = counter_index_.find(full_name);
  if (it != counter_index_.end()) {
    CounterEntry& e = counters_[it->second];
    if (e.summed != summed_name)
      throw std::logic_error("counter '" + full_name + "' registered with summed names '" + e.summed + "' and '" +
                             summed_name + "'");
    return *e.c;
  }
  if (hist_index_.count(full_name)) throw std::logic_error("stat '" + full_name + "' is already a histogram");
  counter_index_.emplace(full_name, counters_.size());
  counters_.push_back(CounterEntry{full_name, summed_name, std::make_unique<Counter>()});
  return *counters_.back().c;
}

Histogram& StatsRegistry::histogram(const std::string& full_name, const std::string& summed_name, size_t buckets,
                                    std::string_view /*meaning*/) {
  if (buckets == 0) throw std::logic_error("histogram '" + full_name + "' needs at least one bucket");
  auto it = hist_index_.find(full_name);
  if (it != hist_index_.end()) {
    HistEntry& e = hists_[it->second];
    if (e.summed != summed_name || e.h->buckets.size() != buckets)
      throw std::logic_error("histogram '" + full_name + "' registered twice with different shapes");
    return *e.h;
  }
  if (counter_index_.count(full_name)) throw std::logic_error("stat '" + full_name + "' is already a counter");
  hist_index_.emplace(full_name, hists_.size());
  auto h = std::make_unique<Histogram>();
  h->buckets.assign(buckets, 0);
  hists_.push_back(HistEntry{full_name, summed_name, std::move(h)});
  return *hists_.back().h;
}

void StatsRegistry::derived(const std::string& name, std::function<double()> fn, const std::string& meaning) {
  for (auto& d : derived_) {
    if (d.name == name) {
      d.fn = std::move(fn);
      d.meaning = meaning;
      return;
    }
  }
  derived_.push_back(DerivedEntry{name, meaning, std::move(fn)});
}

void StatsRegistry::gauge(const std::string& name, std::function<double()> fn, const std::string& meaning) {
  for (auto& s : series_)
    if (s.name == name) {
      s = Series{name, meaning, std::move(fn)};
      return;
    }
  series_.push_back(Series{name, meaning, std::move(fn)});
}

void StatsRegistry::sample_counter(const std::string& summed_name, const std::string& meaning) {
  for (auto& s : series_)
    if (s.name == summed_name) return;
  series_.push_back(Series{summed_name, meaning, nullptr});
}

std::map<std::string, double> StatsRegistry::values() const {
  for (const auto& fn : before_read_) fn();
  std::map<std::string, double> out;
  for (const auto& e : counters_) {
    const double v = double(e.c->value);
    out[e.full] += v;
    if (e.summed != e.full) out[e.summed] += v;
  }
  for (const auto& e : hists_) {
    uint64_t samples = 0;
    for (size_t i = 0; i < e.h->buckets.size(); ++i) {
      const double v = double(e.h->buckets[i]);
      samples += e.h->buckets[i];
      const std::string suffix = ".bucket" + std::to_string(i);
      out[e.full + suffix] += v;
      if (e.summed != e.full) out[e.summed + suffix] += v;
    }
    out[e.full + ".samples"] += double(samples);
    if (e.summed != e.full) out[e.summed + ".samples"] += double(samples);
  }
  for (const auto& d : derived_) out[d.name] = d.fn ? d.fn() : 0.0;
  return out;
}

std::map<std::string, double> StatsRegistry::delta(const Snapshot& before, const Snapshot& after) {
  std::map<std::string, double> out;
  for (const auto& kv : after) {
    auto it = before.find(kv.first);
    // cost.*: a mechanism's storage, the same for every kernel
    const bool constant = kv.first.compare(0, 5, "cost.") == 0;
    out.emplace_hint(out.end(), kv.first, it == before.end() || constant ? kv.second : kv.second - it->second);
  }
  return out;
}

StatsRegistry::RawSnapshot StatsRegistry::raw_snapshot() const {
  for (const auto& fn : before_read_) fn();
  RawSnapshot r;
  r.counters.reserve(counters_.size());
  for (const auto& e : counters_) r.counters.push_back(e.c->value);
  for (const auto& e : hists_) r.buckets.insert(r.buckets.end(), e.h->buckets.begin(), e.h->buckets.end());
  r.derived.reserve(derived_.size());
  for (const auto& d : derived_) r.derived.push_back(d.fn ? d.fn() : 0.0);
  return r;
}

const StatsRegistry::Layout& StatsRegistry::layout() const {
  Layout& l = layout_;
  if (l.counters == counters_.size() && l.hists == hists_.size() && l.derived == derived_.size()) return l;
  // every name values() gives, in its order
  const auto bucket = [](const std::string& name, size_t i) { return name + ".bucket" + std::to_string(i); };
  CounterTable::Names all;
  all.reserve(2 * counters_.size() + derived_.size());
  for (const auto& e : counters_) all.push_back(e.full), all.push_back(e.summed);
  for (const auto& e : hists_) {
    for (size_t i = 0; i < e.h->buckets.size(); ++i) all.push_back(bucket(e.full, i)), all.push_back(bucket(e.summed, i));
    all.push_back(e.full + ".samples"), all.push_back(e.summed + ".samples");
  }
  for (const auto& d : derived_) all.push_back(d.name);
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  auto names = std::make_shared<CounterTable::Names>(std::move(all));
  const auto at = [&names](const std::string& name) {
    return uint32_t(std::lower_bound(names->begin(), names->end(), name) - names->begin());
  };
  const auto is_cost = [](const std::string& n) { return uint8_t(n.compare(0, 5, "cost.") == 0); };
  l.counter_at.clear(), l.hist_at.clear(), l.derived_at.clear();
  l.counter_cost.clear(), l.hist_cost.clear(), l.derived_cost.clear();
  const auto place = [&](std::vector<uint32_t>& where, std::vector<uint8_t>& cost, const std::string& full,
                         const std::string& summed) {
    where.push_back(at(full));
    where.push_back(summed != full ? at(summed) : kNone);
    cost.push_back(is_cost(full));
    cost.push_back(is_cost(summed));
  };
  for (const auto& e : counters_) place(l.counter_at, l.counter_cost, e.full, e.summed);
  for (const auto& e : hists_) {
    for (size_t i = 0; i < e.h->buckets.size(); ++i) place(l.hist_at, l.hist_cost, bucket(e.full, i), bucket(e.summed, i));
    place(l.hist_at, l.hist_cost, e.full + ".samples", e.summed + ".samples");
  }
  for (const auto& d : derived_) {
    l.derived_at.push_back(at(d.name));
    l.derived_cost.push_back(is_cost(d.name));
  }
  l.names = std::move(names);
  l.counters = counters_.size(), l.hists = hists_.size(), l.derived = derived_.size();
  return l;
}

// As delta(): every name of values(), its increase since `before` (exact: whole counts summed in doubles, in
// the order values() sums them), a name registered since then with its value, a `cost.*` name with its value
// as it is.
CounterTable StatsRegistry::delta_since(const RawSnapshot& before) const {
  for (const auto& fn : before_read_) fn();
  const Layout& l = layout();
  std::vector<double> v(l.names->size(), 0.0);
  const auto add = [&](const std::vector<uint32_t>& at, const std::vector<uint8_t>& cost, size_t k, uint64_t now,
                       uint64_t then) {
    for (size_t j = 2 * k; j < 2 * k + 2; ++j)
      if (at[j] != kNone) v[at[j]] += cost[j] ? double(now) : double(now) - double(then);
  };
  for (size_t i = 0; i < counters_.size(); ++i) {
    const uint64_t now = counters_[i].c->value, then = i < before.counters.size() ? before.counters[i] : 0;
    add(l.counter_at, l.counter_cost, i, now, then);
  }
  size_t k = 0, slot = 0;  // k: bucket among all histograms' buckets; slot: (bucket or sample total) entry
  for (const auto& e : hists_) {
    uint64_t now_samples = 0, then_samples = 0;
    for (size_t i = 0; i < e.h->buckets.size(); ++i, ++k, ++slot) {
      const uint64_t now = e.h->buckets[i], then = k < before.buckets.size() ? before.buckets[k] : 0;
      now_samples += now;
      then_samples += then;
      add(l.hist_at, l.hist_cost, slot, now, then);
    }
    add(l.hist_at, l.hist_cost, slot++, now_samples, then_samples);
  }
  for (size_t i = 0; i < derived_.size(); ++i) {
    const DerivedEntry& d = derived_[i];
    const double now = d.fn ? d.fn() : 0.0;
    v[l.derived_at[i]] = i < before.derived.size() && !l.derived_cost[i] ? now - before.derived[i] : now;
  }
  return CounterTable(l.names, std::move(v));
}

void StatsRegistry::clear() {
  for (auto& e : counters_) e.c->value = 0;
  for (auto& e : hists_) std::fill(e.h->buckets.begin(), e.h->buckets.end(), 0);
}

// ------------------------------------------------------------------ GPGPU-Sim's figures

namespace {

// The figures, from the counters of `in` (read with find), written through `c[name]`.
template <class Counters, class Out>
void gpgpusim_figures(const Counters& in, Out& c, uint64_t cycles, uint64_t thread_instructions, uint32_t max_warps,
                      bool total) {
  auto get = [&](const char* name, bool& found) {
    auto it = in.find(name);
    found = found && it != in.end();
    return it == in.end() ? 0.0 : it->second;
  };
  const std::string p = total ? "gpu_tot_" : "gpu_";
  c[p + "sim_cycle"] = double(cycles);
  c[p + "sim_insn"] = double(thread_instructions);
  c[total ? "gpu_tot_ipc" : "gpu_ipc"] = cycles ? double(thread_instructions) / double(cycles) : 0.0;
  bool occ = max_warps > 0;
  const double resident = get("sm.resident_warp_cycles", occ), active = get("sm.active_cycles", occ);
  if (occ) c["gpu_occupancy"] = active > 0 ? 100.0 * resident / (active * double(max_warps)) : 0.0;
  auto miss_rate = [&](const char* hits, const char* misses, const char* name) {
    bool found = true;
    const double h = get(hits, found), m = get(misses, found);
    if (found) c[name] = h + m > 0 ? m / (h + m) : 0.0;
  };
  miss_rate("l1d.hits", "l1d.misses", "L1D_total_cache_miss_rate");
  miss_rate("l2.hits", "l2.misses", "L2_total_cache_miss_rate");
  auto ratio = [&](const char* num, const char* den, const char* name) {
    bool found = true;
    const double n = get(num, found), d = get(den, found);
    if (found) c[name] = d > 0 ? n / d : 0.0;
  };
  ratio("l1d.fill_cycles", "l1d.fills", "averagemflatency");                      // an L1 miss's round trip
  ratio("ldst.global_latency_cycles", "ldst.global_responses", "avg_mem_latency");  // every global access's
  ratio("dram.busy_cycles", "dram.active_cycles", "dram_eff");
}

}  // namespace

void add_gpgpusim_figures(std::map<std::string, double>& c, uint64_t cycles, uint64_t thread_instructions,
                          uint32_t max_warps, bool total) {
  gpgpusim_figures(c, c, cycles, thread_instructions, max_warps, total);
}

void add_gpgpusim_figures(CounterTable& c, uint64_t cycles, uint64_t thread_instructions, uint32_t max_warps,
                          bool total) {
  std::map<std::string, double> figures;
  gpgpusim_figures(c, figures, cycles, thread_instructions, max_warps, total);
  c.set(figures);
}

const std::vector<std::string>& gpgpusim_kernel_figures() {
  static const std::vector<std::string> names = {"gpu_sim_cycle", "gpu_sim_insn", "gpu_ipc", "gpu_occupancy",
                                                 "L1D_total_cache_miss_rate", "L2_total_cache_miss_rate",
                                                 "averagemflatency", "avg_mem_latency", "dram_eff"};
  return names;
}

bool natural_less(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  auto digit = [](char ch) { return ch >= '0' && ch <= '9'; };
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      size_t ie = i, je = j;
      while (ie < a.size() && digit(a[ie])) ++ie;
      while (je < b.size() && digit(b[je])) ++je;
      // compare the numbers without their leading zeros: the longer one is larger, else digit by digit
      size_t is = i, js = j;
      while (is + 1 < ie && a[is] == '0') ++is;
      while (js + 1 < je && b[js] == '0') ++js;
      if (ie - is != je - js) return ie - is < je - js;
      const int cmp = a.compare(is, ie - is, b, js, je - js);
      if (cmp) return cmp < 0;
      if (ie - i != je - j) return ie - i < je - j;  // equal numbers: fewer leading zeros first
      i = ie;
      j = je;
      continue;
    }
    if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
    ++i;
    ++j;
  }
  return a.size() - i < b.size() - j;
}

// Each run of digits becomes '0' (where a digit stands among other characters: they differ from it on the
// same side as from every digit), the number's length without its leading zeros, its digits, and the run's
// whole length (fewer leading zeros first), lengths as four bytes, most significant first. Distinct names give
// distinct keys, so sorting by key is sorting by natural_less, with one string comparison each.
std::string natural_key(const std::string& s) {
  const auto digit = [](char ch) { return ch >= '0' && ch <= '9'; };
  size_t runs = 0;
  for (size_t i = 0; i < s.size(); ++i) runs += digit(s[i]) && (i == 0 || !digit(s[i - 1]));
  std::string key(s.size() + 9 * runs, '\0');
  char* k = key.data();
  const auto length = [&k](size_t n) {
    for (int shift = 24; shift >= 0; shift -= 8) *k++ = char((n >> shift) & 0xFF);
  };
  for (size_t i = 0; i < s.size();) {
    if (!digit(s[i])) {
      *k++ = s[i++];
      continue;
    }
    size_t end = i, first = i;
    while (end < s.size() && digit(s[end])) ++end;
    while (first + 1 < end && s[first] == '0') ++first;
    *k++ = '0';
    length(end - first);
    for (size_t d = first; d < end; ++d) *k++ = s[d];
    length(end - i);
    i = end;
  }
  key.resize(size_t(k - key.data()));
  return key;
}

// ------------------------------------------------------------------ outputs

std::string stats_json(const std::vector<KernelStats>& kernels, const std::map<std::string, double>& counters,
                       const SimSpeed& sim, const Samples* samples, const RunStatus& status,
                       const SamplingReport* sampling) {
  std::string out = "{\n";
  size_t entries = counters.size();  // room for them all at once: a large GPU's file is megabytes
  for (const KernelStats& k : kernels) entries += k.counters.size();
  out.reserve(48 * entries + 4096);
  if (status.app_exit >= 0) out += "  \"app_exit\": " + std::to_string(status.app_exit) + ",\n";
  out += "  \"counters\": ";
  json_map(out, counters, "  ");
  TableOrder table_order;
  out += ",\n  \"kernels\": ";
  if (kernels.empty()) {
    out += "[]";
  } else {
    out += "[\n";
    for (size_t i = 0; i < kernels.size(); ++i) {
      const KernelStats& k = kernels[i];
      out += "    {\n      \"counters\": ";
      json_table(out, k.counters, "      ", table_order);
      out += ",\n";
      out += "      \"cycles\": " + number(double(k.cycles), true) + ",\n";
      if (k.sampling == "estimated" || k.sampling == "warm_up") out += "      \"estimated_cycles\": " + number(k.estimated_cycles, true) + ",\n";
      out += "      \"ipc\": " + number(k.ipc(), true) + ",\n";
      out += "      \"name\": " + json_string(k.name) + ",\n";
      if (!k.sampling.empty()) out += "      \"sampling\": " + json_string(k.sampling) + ",\n";
      out += "      \"status\": " + json_string(k.status) + ",\n";
      out += "      \"thread_instructions\": " + number(double(k.thread_instructions), true) + ",\n";
      out += std::string("      \"verified\": ") + (k.verified ? "true" : "false") + ",\n";
      out += "      \"warp_instructions\": " + number(double(k.warp_instructions), true) + "\n";
      out += i + 1 < kernels.size() ? "    },\n" : "    }\n";
    }
    out += "  ]";
  }
  if (!status.message.empty()) out += ",\n  \"message\": " + json_string(status.message);
  if (samples && !samples->cycle.empty()) {
    out += ",\n  \"samples\": {\n    \"cycle\": [";
    for (size_t i = 0; i < samples->cycle.size(); ++i) out += (i ? ", " : "") + number(double(samples->cycle[i]), true);
    out += "],\n    \"interval\": " + number(double(samples->interval), true) + ",\n    \"series\": {";
    size_t n = 0;
    for (auto& s : samples->series) {
      out += (n++ ? ",\n      " : "\n      ") + json_string(s.first) + ": [";
      for (size_t i = 0; i < s.second.size(); ++i) out += (i ? ", " : "") + number(s.second[i], true);
      out += "]";
    }
    out += "\n    }\n  }";
  }
  if (sampling) {
    auto dims = [](const uint32_t d[3]) {
      return "[" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]) + "]";
    };
    const SamplingReport& r = *sampling;
    out += ",\n  \"sampling\": {\n";
    out += "    \"bound_cycles\": " + number(std::round(r.bound_cycles), true) + ",\n";
    out += "    \"estimated_cycles\": " + number(std::round(r.estimated_cycles), true) + ",\n";
    out += "    \"groups\": [";
    for (size_t i = 0; i < r.groups.size(); ++i) {
      const SamplingGroup& g = r.groups[i];
      out += i ? ",\n      {" : "\n      {";
      const bool intervals = r.mode == "intervals";
      out += "\"block\": " + dims(g.block) + ", \"bound_cycles\": " + number(std::round(g.bound_cycles), true) +
             ", \"cycles_per_warp_instruction\": " + number(g.cycles_per_warp_instruction, true) +
             ", \"dynamic_shared_bytes\": " + std::to_string(g.dynamic_smem) +
             ", \"estimated_cycles\": " + number(std::round(g.estimated_cycles), true);
      if (intervals)  // one launch, timed in intervals with blocks run functionally between them
        out += ", \"estimated_blocks\": " + std::to_string(g.estimated_blocks) + ", \"intervals\": " + std::to_string(g.intervals);
      out += ", \"kernel\": " + json_string(g.kernel);
      if (intervals) out += ", \"launch\": " + std::to_string(g.launch);
      out += ", \"launches\": " + std::to_string(g.launches);
      if (intervals) out += ", \"sampled_intervals\": " + std::to_string(g.sampled_intervals);
      out += ", \"timed_launches\": " + std::to_string(g.timed);
      if (!intervals)
        out += ", \"warp_instructions\": [" + number(g.warp_instructions_low, true) + ", " + number(g.warp_instructions_high, true) + "]";
      out += "}";
    }
    out += r.groups.empty() ? "],\n" : "\n    ],\n";
    out += "    \"launches\": " + std::to_string(r.launches) + ",\n";
    out += "    \"mode\": " + json_string(r.mode) + ",\n";
    out += "    \"timed_launches\": " + std::to_string(r.timed) + "\n  }";
  }
  out += ",\n  \"sim\": {\n";
  out += "    \"cycles_per_sec\": " + number(sim.cycles_per_sec, true) + ",\n";
  out += "    \"wall_seconds\": " + number(sim.wall_seconds, true) + ",\n";
  out += "    \"warp_inst_per_sec\": " + number(sim.warp_inst_per_sec, true) + "\n";
  out += "  },\n  \"status\": " + json_string(status.status) + ",\n";
  out += "  \"verdict\": " + json_string(status.verdict) + "\n}\n";
  return out;
}

std::string stats_txt(const std::vector<KernelStats>& kernels, const std::map<std::string, double>& counters,
                      const SimSpeed& sim, const RunStatus& status, const SamplingReport* sampling) {
  std::string out;
  auto line = [&out](const std::string& name, const std::string& value) { out += name + " = " + value + "\n"; };
  line("status", status.status);
  line("verdict", status.verdict);
  if (status.app_exit >= 0) line("app_exit", std::to_string(status.app_exit));
  if (sampling) {  // an estimate, with its bound: never a measurement
    line("sampling.mode", sampling->mode);
    line("sampling.launches", std::to_string(sampling->launches));
    line("sampling.timed_launches", std::to_string(sampling->timed));
    line("sampling.estimated_cycles", number(std::round(sampling->estimated_cycles), false));
    line("sampling.bound_cycles", number(std::round(sampling->bound_cycles), false));
  }
  uint64_t cycles = 0, insts = 0, warp_insts = 0;
  for (size_t i = 0; i < kernels.size(); ++i) {
    const KernelStats& k = kernels[i];
    const std::string p = "kernel" + std::to_string(i) + ".";
    line(p + "name", one_line(k.name));
    line(p + "status", k.status);
    line(p + "cycles", number(double(k.cycles), false));
    if (!k.sampling.empty()) line(p + "sampling", k.sampling);
    if (k.sampling == "estimated" || k.sampling == "warm_up") line(p + "estimated_cycles", number(k.estimated_cycles, false));
    line(p + "warp_instructions", number(double(k.warp_instructions), false));
    line(p + "thread_instructions", number(double(k.thread_instructions), false));
    line(p + "ipc", number(k.ipc(), false));
    line(p + "verified", k.verified ? "1" : "0");
    for (const std::string& f : gpgpusim_kernel_figures()) {
      auto it = k.counters.find(f);
      if (it != k.counters.end()) line(p + f, number(it->second, false));
    }
    cycles += k.cycles;
    insts += k.thread_instructions;
    warp_insts += k.warp_instructions;
  }
  line("gpu_tot_sim_cycle", number(double(cycles), false));
  line("gpu_tot_sim_insn", number(double(insts), false));
  line("gpu_tot_warp_insn", number(double(warp_insts), false));
  line("gpu_tot_ipc", number(cycles ? double(insts) / double(cycles) : 0.0, false));
  line("sim.wall_seconds", number(sim.wall_seconds, false));
  line("sim.warp_inst_per_sec", number(sim.warp_inst_per_sec, false));
  line("sim.cycles_per_sec", number(sim.cycles_per_sec, false));
  for (const auto* kv : in_natural_order(counters))
    if (kv->first.compare(0, 8, "gpu_tot_") != 0) line(kv->first, number(kv->second, false));  // those are above
  return out;
}

void write_file(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  auto fail = [&](const std::string& why) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    throw InputError(Place{path, 0, ""}, "cannot write output file '" + path + "': " + why);
  };
  {
    errno = 0;
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) fail(errno ? std::strerror(errno) : "cannot create");
    f.write(text.data(), std::streamsize(text.size()));
    f.close();
    if (!f) fail(errno ? std::strerror(errno) : "write failed");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) fail(ec.message());
}

}  // namespace warptlm
