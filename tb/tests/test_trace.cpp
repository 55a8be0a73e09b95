// Waveform tracing tests: run the warptlm executable with --vcd (or a run
// YAML's trace section), read the VCD back with a small parser written here,
// and check it against the run's own counters: what a probe shows over time
// must add up to what the statistics counted. Also the GTKWave save file and
// its translate files, the cycle window, the hierarchy filters, and the
// refusal to trace a functional run.
#include "cli_util.hpp"

#include <catch2/catch.hpp>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace fs = std::filesystem;
using namespace cli_util;

namespace {

// ---------------------------------------------------------------- a VCD reader

struct Signal {
  unsigned width = 0;
  std::vector<std::pair<uint64_t, uint64_t>> changes;  // (time, value) in file order
  bool fits = true;                                   // every value fits `width` bits (and is 0/1 only)
};

struct Vcd {
  std::map<std::string, Signal> signals;  // by dotted name (scopes joined with '.')
  std::vector<uint64_t> times;            // every #time, in file order, as core cycles (time / period)
  std::string timescale;                  // the $timescale text
  uint64_t period = 0;                    // time units per core cycle, from the header's comment
  bool has_dumpvars = false;
  std::string error;                      // empty when the file parsed
  uint64_t value_changes = 0;

  const Signal& at(const std::string& name) const {
    static const Signal none;
    auto it = signals.find(name);
    return it == signals.end() ? none : it->second;
  }
  bool has(const std::string& name) const { return signals.count(name) != 0; }
  // The value after every change at or before time t (false when none yet).
  bool value_at(const std::string& name, uint64_t t, uint64_t& v) const {
    bool found = false;
    for (auto& c : at(name).changes) {
      if (c.first > t) break;
      v = c.second;
      found = true;
    }
    return found;
  }
};

Vcd parse_vcd(const std::string& path) {
  Vcd vcd;
  std::istringstream in(slurp(path));
  std::vector<std::string> tok;
  for (std::string t; in >> t;) tok.push_back(t);
  std::map<std::string, std::vector<std::string>> by_code;  // VCD identifier -> names
  std::vector<std::string> scope;
  size_t i = 0;
  auto need = [&](size_t n) {
    if (i + n > tok.size()) vcd.error = "file ends inside a declaration";
    return vcd.error.empty();
  };
  auto skip_to_end = [&]() {
    while (i < tok.size() && tok[i] != "$end") ++i;
    ++i;
  };
  // header
  bool defs_done = false;
  while (i < tok.size() && !defs_done && vcd.error.empty()) {
    const std::string& t = tok[i];
    if (t == "$scope") {
      if (!need(4)) break;
      scope.push_back(tok[i + 2]);
      i += 3;
      skip_to_end();
    } else if (t == "$upscope") {
      if (scope.empty()) vcd.error = "$upscope without $scope";
      else scope.pop_back();
      ++i;
      skip_to_end();
    } else if (t == "$var") {
      if (!need(6)) break;
      const unsigned width = unsigned(std::stoul(tok[i + 2]));
      const std::string code = tok[i + 3];
      std::string name;
      for (auto& s : scope) name += s + ".";
      name += tok[i + 4];
      if (vcd.signals.count(name)) vcd.error = "signal declared twice: " + name;
      vcd.signals[name].width = width;
      by_code[code].push_back(name);
      i += 5;
      skip_to_end();
    } else if (t == "$enddefinitions") {
      ++i;
      skip_to_end();
      defs_done = true;
    } else if (t == "$timescale") {
      ++i;
      while (i < tok.size() && tok[i] != "$end") vcd.timescale += (vcd.timescale.empty() ? "" : " ") + tok[i++];
      ++i;
    } else if (t == "$comment") {  // "core clock period N time units ..."
      ++i;
      for (; i < tok.size() && tok[i] != "$end"; ++i)
        if (tok[i] == "period" && i + 1 < tok.size() && vcd.period == 0) vcd.period = std::stoull(tok[i + 1]);
      ++i;
    } else if (!t.empty() && t[0] == '$') {  // $date, $version
      ++i;
      skip_to_end();
    } else {
      vcd.error = "unexpected token in the header: " + t;
    }
  }
  if (!defs_done && vcd.error.empty()) vcd.error = "no $enddefinitions";
  if (vcd.period == 0 && vcd.error.empty()) vcd.error = "no core clock period in the header";
  if (!scope.empty() && vcd.error.empty()) vcd.error = "unclosed $scope";
  // value changes
  bool have_time = false;
  uint64_t now = 0;
  auto record = [&](const std::string& digits, const std::string& code) {
    auto it = by_code.find(code);
    if (it == by_code.end()) {
      vcd.error = "value change of an undeclared identifier '" + code + "'";
      return;
    }
    if (!have_time) {
      vcd.error = "value change before the first #time";
      return;
    }
    ++vcd.value_changes;
    for (const std::string& name : it->second) {
      Signal& s = vcd.signals[name];
      size_t first = digits.find_first_not_of('0');
      const std::string sig = first == std::string::npos ? "0" : digits.substr(first);
      bool ok = sig.find_first_not_of("01") == std::string::npos && sig.size() <= s.width && sig.size() <= 64;
      uint64_t v = 0;
      if (ok)
        for (char c : sig) v = (v << 1) | uint64_t(c == '1');
      if (!ok) s.fits = false;
      s.changes.emplace_back(now, v);
    }
  };
  while (i < tok.size() && vcd.error.empty()) {
    const std::string& t = tok[i];
    if (t[0] == '#') {
      const uint64_t time = std::stoull(t.substr(1));
      if (time % vcd.period) {
        vcd.error = "time " + t + " is not a core clock edge";
        break;
      }
      const uint64_t nt = time / vcd.period;
      if (have_time && nt <= now) vcd.error = "time does not increase: " + t;
      now = nt;
      have_time = true;
      vcd.times.push_back(nt);
      ++i;
    } else if (t == "$dumpvars") {
      vcd.has_dumpvars = true;
      ++i;
    } else if (t == "$end") {
      ++i;
    } else if (t == "$comment") {
      skip_to_end();
    } else if (t[0] == 'b' || t[0] == 'B') {
      if (i + 1 >= tok.size()) {
        vcd.error = "vector value without an identifier";
        break;
      }
      record(t.substr(1), tok[i + 1]);
      i += 2;
    } else if (t[0] == '0' || t[0] == '1' || t[0] == 'x' || t[0] == 'X' || t[0] == 'z' || t[0] == 'Z') {
      record(std::string(1, t[0]), t.substr(1));
      ++i;
    } else {
      vcd.error = "unexpected token among the value changes: " + t;
    }
  }
  return vcd;
}

// How many changes of `name` raise its value by exactly one (a FIFO's
// pushes: a push and a pop in one cycle still show as two changes). The value
// before the first change is taken as 0.
uint64_t increments(const Vcd& vcd, const std::string& name) {
  uint64_t n = 0, prev = 0;
  for (auto& c : vcd.at(name).changes) {
    if (c.second == prev + 1) ++n;
    prev = c.second;
  }
  return n;
}

// Sum over the stretches between consecutive changes of f(value) * length.
template <class F>
uint64_t integral(const Vcd& vcd, const std::string& name, F f) {
  const auto& ch = vcd.at(name).changes;
  uint64_t sum = 0;
  for (size_t k = 0; k + 1 < ch.size(); ++k) sum += f(ch[k].second) * (ch[k + 1].first - ch[k].first);
  return sum;
}

uint64_t max_value(const Vcd& vcd, const std::string& name) {
  uint64_t m = 0;
  for (auto& c : vcd.at(name).changes) m = std::max(m, c.second);
  return m;
}

uint64_t last_value(const Vcd& vcd, const std::string& name) {
  const auto& ch = vcd.at(name).changes;
  return ch.empty() ? UINT64_MAX : ch.back().second;
}

std::vector<std::string> names_with_prefix(const Vcd& vcd, const std::string& prefix) {
  std::vector<std::string> v;
  for (auto& s : vcd.signals)
    if (s.first.compare(0, prefix.size(), prefix) == 0) v.push_back(s.first);
  return v;
}

// ---------------------------------------------------------------- runs

// A traced transpose_naive run (32-way shared-memory conflicts) on gtx480.
struct TracedRun {
  Vcd vcd;
  YAML::Node stats, config;
};

TracedRun traced_run(const TempDir& t, const std::string& name, const std::string& extra = "") {
  const std::string vcd = t / (name + ".vcd"), out = t / (name + "_out");
  auto r = warptlm(t, "run --workload transpose_naive --size tiny --config gtx480 -q --vcd " + q(vcd) + " --out " + q(out) +
                          " " + extra);
  INFO(r.out);
  REQUIRE(r.code == 0);
  REQUIRE(fs::exists(vcd));
  TracedRun run;
  run.vcd = parse_vcd(vcd);
  INFO("VCD parse error: " << run.vcd.error);
  REQUIRE(run.vcd.error.empty());
  run.stats = YAML::LoadFile(out + "/stats.json");
  run.config = YAML::LoadFile(out + "/config.resolved.yaml");
  return run;
}

uint64_t counter(const TracedRun& run, const std::string& k) {
  INFO("counter " << k);
  REQUIRE(run.stats["counters"][k]);
  return run.stats["counters"][k].as<uint64_t>();
}

}  // namespace

// ============================================================ the whole run

TEST_CASE("trace: a traced run agrees with its counters and every value fits its width", "[trace]") {
  TempDir t("warptlm_trace");
  // copies not placed in L2, so every level of the hierarchy (L2 MSHRs, DRAM queues and rows) moves
  const TracedRun run = traced_run(t, "trace", "--set l2.preload_copies=false");
  const Vcd& v = run.vcd;
  REQUIRE(v.has_dumpvars);
  REQUIRE(!v.times.empty());

  SECTION("every value of every signal fits its declared width") {
    for (auto& s : v.signals) {
      INFO(s.first << " width " << s.second.width);
      CHECK(s.second.width >= 1);
      CHECK(s.second.fits);
    }
  }

  SECTION("scheduler: one change of issue_cycles per issue cycle, ending at the count") {
    const std::string sig = "sm0.sched0.issue_cycles";
    REQUIRE(v.has(sig));
    const uint64_t issued = counter(run, "sm0.sched0.issued");
    CHECK(issued > 0);
    const auto& ch = v.at(sig).changes;
    REQUIRE(!ch.empty());
    CHECK(ch.front().second == 0);  // the count before the first issue
    CHECK(ch.size() == issued + 1);
    CHECK(last_value(v, sig) == issued);
  }

  SECTION("shared memory: the conflict degree over time adds up to busy cycles and bank conflicts") {
    const std::string sig = "sm0.smem.conflict_degree";
    REQUIRE(v.has(sig));
    CHECK(v.at(sig).width == 6);
    CHECK(max_value(v, sig) == 32);  // the naive transpose's column reads: 32 lanes in one bank
    CHECK(last_value(v, sig) == 0);  // idle once drained
    // non-zero exactly while the bank array is busy
    CHECK(integral(v, sig, [](uint64_t d) { return uint64_t(d != 0); }) == counter(run, "sm0.smem.busy_cycles"));
    // one warp part (gtx480): an access of degree d holds the array d cycles,
    // d - 1 of them conflict cycles; a stretch of degree d is whole accesses
    REQUIRE(run.config["smem"]["warp_parts"].as<int>() == 1);
    const auto& ch = v.at(sig).changes;
    uint64_t conflict_cycles = 0, conflicted_time = 0;
    for (size_t k = 0; k + 1 < ch.size(); ++k) {
      const uint64_t d = ch[k].second, len = ch[k + 1].first - ch[k].first;
      if (!d) continue;
      INFO("degree " << d << " for " << len << " cycles from cycle " << ch[k].first);
      CHECK(len % d == 0);
      conflict_cycles += len / d * (d - 1);
      if (d >= 2) conflicted_time += len;
    }
    CHECK(conflict_cycles == counter(run, "sm0.smem.bank_conflicts"));
    CHECK((conflicted_time > 0) == (counter(run, "shmem_bank_conflicts") > 0));
  }

  SECTION("L1: one cycle of a lookup outcome per request, MSHRs rise once per fill") {
    const std::string out = "sm0.l1d.outcome", mshrs = "sm0.l1d.mshrs";
    REQUIRE(v.has(out));
    REQUIRE(v.has(mshrs));
    // values: idle, hit, miss, merge, reservation_fail, bypass (the L1 runs on the core clock)
    CHECK(integral(v, out, [](uint64_t o) { return uint64_t(o == 1 || o == 2 || o == 3 || o == 5); }) ==
          counter(run, "sm0.l1d.requests"));
    CHECK((integral(v, out, [](uint64_t o) { return uint64_t(o == 1); }) > 0) == (counter(run, "sm0.l1d.hits") > 0));
    CHECK((integral(v, out, [](uint64_t o) { return uint64_t(o == 4); }) > 0) ==
          (counter(run, "sm0.l1d.reservation_fails") > 0));
    CHECK(max_value(v, out) <= 5);
    CHECK(last_value(v, out) == 0);
    // an entry is taken and given back one at a time; each sends at least one fill
    const uint64_t taken = increments(v, mshrs), fills = counter(run, "sm0.l1d.fill_requests");
    CHECK(taken <= fills);
    CHECK((taken > 0) == (fills > 0));
    CHECK(max_value(v, mshrs) <= run.config["l1d"]["mshr_entries"].as<uint64_t>());
    CHECK(last_value(v, mshrs) == 0);
  }

  SECTION("crossbar: queue pushes equal requests and responses, every queue drains") {
    const std::vector<std::string> parts = names_with_prefix(v, "icn.to_part"), sms = names_with_prefix(v, "icn.to_sm");
    // one output port per L2 slice: partitions x sub-partitions
    CHECK(parts.size() == run.config["mem"]["partitions"].as<size_t>() * run.config["mem"]["subpartitions"].as<size_t>());
    CHECK(!sms.empty());
    uint64_t pushed = 0, returned = 0;
    for (auto& n : parts) {
      INFO(n);
      pushed += increments(v, n);
      CHECK(max_value(v, n) <= run.config["icn"]["queue"].as<uint64_t>());
      if (!v.at(n).changes.empty()) CHECK(last_value(v, n) == 0);
    }
    for (auto& n : sms) {
      INFO(n);
      returned += increments(v, n);
      if (!v.at(n).changes.empty()) CHECK(last_value(v, n) == 0);
    }
    CHECK(pushed == counter(run, "icn.requests"));
    CHECK(returned == counter(run, "icn.responses"));
    // an input-queued reply network: one reply buffer per L2 slice, within its size, drained at the end
    const uint64_t reply_buffer = run.config["icn"]["reply_buffer"].as<uint64_t>();
    const std::vector<std::string> inputs = names_with_prefix(v, "icn.from_part");
    CHECK(inputs.size() == (reply_buffer ? parts.size() : 0));
    uint64_t most = 0;
    for (auto& n : inputs) {
      INFO(n);
      most = std::max(most, max_value(v, n));
      CHECK(max_value(v, n) <= reply_buffer);  // every reply here is smaller than the buffer
      if (!v.at(n).changes.empty()) CHECK(last_value(v, n) == 0);
    }
    if (reply_buffer) CHECK(most > 0);
  }

  SECTION("L2 and DRAM: MSHRs and the request queue drain, open rows follow activates and precharges") {
    // the first L2 slice: part0.l2, or with sub-partitions part0.l2_0
    const std::string mshrs = run.config["mem"]["subpartitions"].as<size_t>() > 1 ? "part0.l2_0.mshrs" : "part0.l2.mshrs";
    REQUIRE(v.has(mshrs));
    CHECK(max_value(v, mshrs) > 0);
    CHECK(max_value(v, mshrs) <= run.config["l2"]["mshr_entries"].as<uint64_t>());
    CHECK(last_value(v, mshrs) == 0);
    REQUIRE(v.has("dram0.queue"));
    CHECK(increments(v, "dram0.queue") == counter(run, "dram0.requests"));
    CHECK(max_value(v, "dram0.queue") <= run.config["dram"]["queue"].as<uint64_t>());
    CHECK(last_value(v, "dram0.queue") == 0);
    const uint64_t closed = (uint64_t(1) << 20) - 1;
    const std::vector<std::string> banks = names_with_prefix(v, "dram0.bank");
    CHECK(banks.size() == run.config["dram"]["banks"].as<size_t>());
    uint64_t opens = 0, closes = 0;
    for (auto& n : banks) {
      INFO(n);
      CHECK(v.at(n).width == 20);
      const auto& ch = v.at(n).changes;
      REQUIRE(!ch.empty());
      CHECK(ch.front().second == closed);  // every bank starts precharged
      for (size_t k = 1; k < ch.size(); ++k) ++(ch[k].second == closed ? closes : opens);
    }
    CHECK(opens == counter(run, "dram0.activates"));
    CHECK(closes == counter(run, "dram0.precharges"));
  }
}

// ============================================================ no effect on the run

TEST_CASE("trace: tracing every signal changes no counter and no cycle count", "[trace][ci]") {
  // Probes only record: no wake-up or event of their own (changes known in
  // advance go through Probe::set_at), so the traced run is the same run.
  TempDir t("warptlm_trace");
  for (const char* wl : {"transpose_naive", "histogram", "matmul"}) {
    INFO(wl);
    const std::string common = std::string("run --workload ") + wl + " --size tiny --config gtx480 -q --out ";
    auto plain = warptlm(t, common + q(t / (std::string(wl) + "_plain")));
    auto traced = warptlm(t, common + q(t / (std::string(wl) + "_traced")) + " --vcd " + q(t / (std::string(wl) + ".vcd")));
    INFO(plain.out << traced.out);
    REQUIRE(plain.code == 0);
    REQUIRE(traced.code == 0);
    YAML::Node a = YAML::LoadFile(t / (std::string(wl) + "_plain/stats.json"));
    YAML::Node b = YAML::LoadFile(t / (std::string(wl) + "_traced/stats.json"));
    a.remove("sim");  // wall-clock speed
    b.remove("sim");
    CHECK(a["kernels"][0]["cycles"].as<uint64_t>() == b["kernels"][0]["cycles"].as<uint64_t>());
    for (auto it = a["counters"].begin(); it != a["counters"].end(); ++it) {
      const std::string k = it->first.as<std::string>();
      INFO(k);
      REQUIRE(b["counters"][k]);
      CHECK(it->second.as<std::string>() == b["counters"][k].as<std::string>());
    }
    CHECK(YAML::Dump(a) == YAML::Dump(b));
  }
}

// ============================================================ GTKWave save file

TEST_CASE("trace: the gtkw file opens on the first SM's issue activity under full names, and decodes values", "[trace]") {
  TempDir t("warptlm_trace");
  const TracedRun run = traced_run(t, "view");
  const std::string gtkw = t / "view.gtkw";
  REQUIRE(fs::exists(gtkw));
  std::vector<std::string> named;                                        // signals in view order
  std::vector<std::pair<std::string, std::string>> groups;               // (name, flags) of each group opened
  std::map<std::string, std::string> group_of;                           // signal -> group
  std::map<std::string, std::map<uint64_t, std::string>> translations;  // file -> value -> name
  std::istringstream in(slurp(gtkw));
  bool dumpfile = false, zoom = false;
  std::string flags, group;
  uint64_t timestart = UINT64_MAX;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    INFO("gtkw line: " << line);
    if (line.rfind("[dumpfile]", 0) == 0) {
      dumpfile = true;
      CHECK(contains(line, t / "view.vcd"));
    }
    if (line.rfind("[timestart] ", 0) == 0) timestart = std::stoull(line.substr(12));
    if (line[0] == '*') {  // *zoom marker: 2^zoom pixels per time unit
      zoom = true;
      continue;
    }
    if (line[0] == '^') {  // ^N translate-file
      const size_t sp = line.find(' ');
      REQUIRE(sp != std::string::npos);
      const std::string file = line.substr(sp + 1);
      CHECK(fs::exists(file));
      if (translations.count(file)) continue;
      auto& map = translations[file];
      std::istringstream tf(slurp(file));
      for (std::string tl; std::getline(tf, tl);) {
        if (tl.empty() || tl[0] == '#') continue;
        std::istringstream ls(tl);
        uint64_t value = 0;
        std::string name;
        INFO("translate line: " << tl);
        CHECK(bool(ls >> value >> name));
        CHECK(!name.empty());
        CHECK(map.count(value) == 0);
        map[value] = name;
      }
      CHECK(!map.empty());
      continue;
    }
    if (line[0] == '@') {
      flags = line.substr(1);
      continue;
    }
    if (line[0] == '-') {  // a group's begin or end, as the flags before it say
      const uint64_t f = std::stoull(flags, nullptr, 16);
      if (f & 0x800000) {  // TR_GRP_BEGIN
        group = line.substr(1);
        groups.emplace_back(group, flags);
      } else {
        CHECK((f & 0x1000000));  // TR_GRP_END, of the group open
        CHECK(line.substr(1) == group);
        group.clear();
      }
      continue;
    }
    if (line[0] == '[') continue;
    // a signal, under its full name: +{\dotted.name} dotted.name[msb:lsb] (no suffix for one bit)
    REQUIRE(line.rfind("+{", 0) == 0);
    const size_t close = line.find("} ");
    REQUIRE(close != std::string::npos);
    const std::string alias = line.substr(2, close - 2), sig = line.substr(close + 2);
    std::string name = sig;
    unsigned width = 1;
    const size_t br = sig.find('[');
    if (br != std::string::npos) {
      name = sig.substr(0, br);
      const size_t colon = sig.find(':', br);
      REQUIRE(colon != std::string::npos);
      width = unsigned(std::stoul(sig.substr(br + 1, colon - br - 1))) + 1;
      CHECK(sig.substr(colon) == ":0]");
    }
    CHECK(alias == "\\" + name);  // escaped: GTKWave shows an escaped name whole, not cut at its last dot
    CHECK(run.vcd.has(name));
    CHECK(run.vcd.at(name).width == width);
    CHECK(!group.empty());  // every signal sits in a group
    named.push_back(name);
    group_of[name] = group;
  }
  CHECK(dumpfile);
  CHECK(zoom);
  CHECK(group.empty());  // every group closed
  // every traced signal has exactly one place in the view
  std::set<std::string> once(named.begin(), named.end());
  CHECK(once.size() == named.size());
  for (auto& s : run.vcd.signals) {
    INFO(s.first);
    CHECK(once.count(s.first) == 1);
  }
  // the view opens 10 cycles before sm0's first issue
  uint64_t first_issue = UINT64_MAX;
  for (auto& c : run.vcd.at("sm0.sched0.issued_warp").changes)
    if (c.second != 255) {
      first_issue = c.first;
      break;
    }
  REQUIRE(first_issue != UINT64_MAX);
  CHECK(timestart == (first_issue - 10) * run.vcd.period);
  // sm0's issue activity first, in the order an architect reads it; then its transactions, the memory path, its warps
  REQUIRE(groups.size() >= 5);
  CHECK(groups[0].first == "sm0 issue");
  CHECK(groups[1].first == "sm0 memory transactions");
  CHECK(groups[2].first == "memory path");
  CHECK(groups[3].first == "sm0 warps");
  REQUIRE(named.size() >= 5);
  CHECK(named[0] == "sm0.sched0.issued_warp");
  CHECK(named[1] == "sm0.sched0.outcome");
  CHECK(named[2] == "sm0.sched0.pc");
  CHECK(named[3] == "sm0.sched0.active_mask");
  CHECK(group_of["sm0.mem.req_addr"] == "sm0 memory transactions");
  CHECK(group_of["sm0.l1d.mshrs"] == "memory path");
  CHECK(group_of["dram0.queue"] == "memory path");
  CHECK(group_of["icn.to_part0.queue"] == "memory path");
  CHECK(group_of["dram0.bank0.open_row"] == "dram0");
  CHECK(group_of["sm1.l1d.mshrs"] == "sm1");
  // the open groups are sm0's and the memory path; every other block's is closed (TR_CLOSED)
  for (auto& g : groups) {
    INFO(g.first << " @" << g.second);
    const bool closed = (std::stoull(g.second, nullptr, 16) & 0x400000) != 0;
    CHECK(closed == (g.first != "memory path" && g.first.rfind("sm0 ", 0) != 0));
  }
  // warps in natural order
  auto pos = [&](const std::string& n) { return std::find(named.begin(), named.end(), n) - named.begin(); };
  CHECK(pos("sm0.warp2.state") < pos("sm0.warp10.state"));
  // the enumerations and the sentinels decode
  std::set<std::string> decoded;
  for (auto& f : translations)
    for (auto& e : f.second) decoded.insert(std::to_string(e.first) + " " + e.second);
  CHECK(decoded.count("0 idle") == 1);
  CHECK(decoded.count("4 reservation_fail") == 1);
  CHECK(decoded.count("0 issued") == 1);
  CHECK(decoded.count("255 none") == 1);         // issued_warp: no warp issued
  CHECK(decoded.count("4294967295 none") == 1);  // pc: nothing issued
  CHECK(decoded.count("1048575 closed") == 1);   // open_row: the bank is precharged
  CHECK(decoded.count("1 load") == 1);           // a memory transaction's kind
}

TEST_CASE("trace: time is real time, a core cycle the core clock's period", "[trace]") {
  TempDir t("warptlm_trace");
  const TracedRun run = traced_run(t, "clock");
  CHECK(run.vcd.timescale == "1 ps");
  const double mhz = run.config["gpu"]["core_clock_mhz"].as<double>();
  INFO("core clock " << mhz << " MHz, period " << run.vcd.period);
  CHECK(std::abs(double(run.vcd.period) - 1e6 / mhz) <= 0.5);  // SystemC's picoseconds, rounded
  // the same run at twice the clock: the same cycles, half the time per cycle
  const TracedRun fast = traced_run(t, "fast", "--set gpu.core_clock_mhz=" + std::to_string(int(2 * mhz)));
  CHECK(std::abs(double(fast.vcd.period) - 1e6 / (2 * mhz)) <= 0.5);
}

TEST_CASE("trace: PC, active mask and the memory transactions agree with the counters", "[trace]") {
  TempDir t("warptlm_trace");
  const TracedRun run = traced_run(t, "txn", "--set l2.preload_copies=false");
  const Vcd& v = run.vcd;
  // PC and mask show for exactly the cycles the scheduler issued
  const uint64_t none = 0xFFFFFFFFull;
  CHECK(integral(v, "sm0.sched0.pc", [&](uint64_t pc) { return uint64_t(pc != none); }) == counter(run, "sm0.sched0.issued"));
  CHECK(integral(v, "sm0.sched0.active_mask", [](uint64_t m) { return uint64_t(m != 0); }) ==
        counter(run, "sm0.sched0.issued"));
  // a request shows for the cycle it leaves: one a cycle at most, every line request to the L1
  CHECK(integral(v, "sm0.mem.req", [](uint64_t k) { return uint64_t(k != 0); }) == counter(run, "sm0.l1d.requests"));
  CHECK(max_value(v, "sm0.mem.req") <= 3);
  CHECK(last_value(v, "sm0.mem.req") == 0);
  CHECK(max_value(v, "sm0.mem.req_warp") < run.config["sm"]["max_warps"].as<uint64_t>());
  // responses: several may return in one cycle (the trace shows the last), none without a request
  const uint64_t resp_cycles = integral(v, "sm0.mem.resp", [](uint64_t k) { return uint64_t(k != 0); });
  CHECK(resp_cycles > 0);
  CHECK(resp_cycles <= counter(run, "sm0.l1d.responses"));
  // a round trip takes at least the L1's hit latency
  uint64_t min_latency = UINT64_MAX;
  const auto& lat = v.at("sm0.mem.resp_latency").changes;
  REQUIRE(lat.size() > 1);
  CHECK(lat.front().second == 0);  // before the first response
  for (size_t k = 1; k < lat.size(); ++k) min_latency = std::min(min_latency, lat[k].second);
  CHECK(min_latency >= run.config["l1d"]["hit_latency"].as<uint64_t>());
  // DRAM: a request shows in the cycle the queue takes it, its answer with the channel's latency
  uint64_t dram_reqs = 0;
  const auto& dq = v.at("dram0.req").changes;
  for (size_t k = 0; k < dq.size(); ++k)
    if (dq[k].second != 0 && (k == 0 || dq[k - 1].second == 0)) ++dram_reqs;
  CHECK(dram_reqs > 0);
  CHECK(dram_reqs <= counter(run, "dram0.requests"));
  CHECK(max_value(v, "dram0.resp_latency") > 0);
  CHECK(last_value(v, "dram0.req") == 0);
}

// ============================================================ window and filters

TEST_CASE("trace: trace.window keeps only its cycles and agrees with a full trace", "[trace]") {
  TempDir t("warptlm_trace");
  const TracedRun full = traced_run(t, "full");
  const TracedRun win = traced_run(t, "win", "--set trace.window=1000,2000");
  const Vcd& w = win.vcd;
  REQUIRE(w.has_dumpvars);
  REQUIRE(!w.times.empty());
  CHECK(w.times.front() >= 1000);
  for (uint64_t time : w.times) {
    INFO("#" << time);
    CHECK(time >= 1000);
    CHECK(time <= 2000);
  }
  // the window does not change what is declared, only when it is dumped
  CHECK(w.signals.size() == full.vcd.signals.size());
  // at every time the windowed trace shows, each of its signals has the full trace's value
  size_t compared = 0;
  for (auto& s : w.signals) {
    std::map<uint64_t, uint64_t> final_at;  // the value after the last change at each time
    for (auto& c : s.second.changes) final_at[c.first] = c.second;
    for (auto& fv : final_at) {
      uint64_t expect = 0;
      INFO(s.first << " at #" << fv.first);
      REQUIRE(full.vcd.value_at(s.first, fv.first, expect));
      CHECK(fv.second == expect);
      ++compared;
    }
  }
  CHECK(compared > 0);
  CHECK(contains(slurp(t / "win.gtkw"), "[timestart] " + std::to_string(1000 * w.period)));
}

TEST_CASE("trace: include and exclude globs select signals by hierarchy", "[trace]") {
  TempDir t("warptlm_trace");
  const TracedRun run = traced_run(t, "sel", "--set 'trace.include=sm1.*' --set 'trace.exclude=*warp*'");
  REQUIRE(!run.vcd.signals.empty());
  for (auto& s : run.vcd.signals) {
    INFO(s.first);
    CHECK(s.first.rfind("sm1.", 0) == 0);
    CHECK(!contains(s.first, "warp"));
  }
  for (const char* n : {"sm1.sched0.issue_cycles", "sm1.smem.conflict_degree", "sm1.l1d.outcome", "sm1.l1d.mshrs"}) {
    INFO(n);
    CHECK(run.vcd.has(n));
  }
  CHECK(run.vcd.at("sm1.sched0.issue_cycles").changes.size() == counter(run, "sm1.sched0.issued") + 1);  // from 0
}

TEST_CASE("trace: trace.include takes the list form params shows, and a filter or window selecting nothing warns", "[trace]") {
  TempDir t("warptlm_trace");
  // the list form, quotes and all (warptlm params: e.g. ["sm0.*", "dram*"])
  const TracedRun run = traced_run(t, "list", "--set 'trace.include=[\"sm1.*\", \"dram0*\"]'");
  REQUIRE(!run.vcd.signals.empty());
  bool dram = false;
  for (auto& s : run.vcd.signals) {
    INFO(s.first);
    CHECK((s.first.rfind("sm1.", 0) == 0 || s.first.rfind("dram0", 0) == 0));
    dram = dram || s.first.rfind("dram0", 0) == 0;
  }
  CHECK(dram);
  CHECK(run.vcd.has("sm1.sched0.issue_cycles"));
  // nothing selected: the run says so
  auto r = warptlm(t, "run --workload transpose_naive --size tiny --config gtx480 -q --vcd " + q(t / "none.vcd") +
                          " --out " + q(t / "none_out") + " --set 'trace.include=[\"nosuch.*\"]'");
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(contains(r.out, "warning: trace.include [nosuch.*]"));
  CHECK(contains(r.out, "select no signal"));
  // a window after the run's end: the run says so, naming its last cycle
  r = warptlm(t, "run --workload transpose_naive --size tiny --config gtx480 -q --vcd " + q(t / "late.vcd") +
                     " --out " + q(t / "late_out") + " --set 'trace.window=[900000000, 900000100]'");
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(contains(r.out, "warning: trace.window [900000000, 900000100] saw no change"));
  // a window inside the run does not warn
  r = warptlm(t, "run --workload transpose_naive --size tiny --config gtx480 -q --vcd " + q(t / "win.vcd") +
                     " --out " + q(t / "win_out") + " --set 'trace.window=[100, 200]'");
  CHECK(r.code == 0);
  CHECK(!contains(r.out, "warning"));
}

// ============================================================ errors and run files

namespace {
// A VCD closed cleanly: it parses whole (header, $dumpvars, increasing times,
// every change of a declared signal), it has value changes, and the GTKWave
// save file written at the close is there.
void check_closed_cleanly(const std::string& vcd_path) {
  REQUIRE(fs::exists(vcd_path));
  const Vcd vcd = parse_vcd(vcd_path);
  CHECK(vcd.error.empty());
  CHECK(vcd.has_dumpvars);
  CHECK(vcd.value_changes > 0);
  CHECK_FALSE(vcd.times.empty());
  CHECK(fs::exists(fs::path(vcd_path).replace_extension(".gtkw")));
}
}  // namespace

TEST_CASE("trace: a run that ends in a deadlock or a fault leaves a VCD closed cleanly beside its stats", "[trace][outputs]") {
  for (const char* fault : {"l1_lose_fill", "l1_duplicate_fill"}) {
    TempDir t;
    INFO(fault);
    setenv("WARPTLM_TEST_FAULT", fault, 1);
    const CmdResult r = warptlm(t, "run --workload vecadd --size tiny --config gtx480 --vcd " + q(t / "run.vcd") + " --out " + q(t / "out"));
    unsetenv("WARPTLM_TEST_FAULT");
    INFO(r.out);
    CHECK(r.code == 1);
    const std::string status = YAML::LoadFile(t / "out/stats.json")["status"].as<std::string>();
    CHECK(status == (std::string(fault) == "l1_lose_fill" ? "deadlock" : "fault"));
    check_closed_cleanly(t / "run.vcd");
  }
}

TEST_CASE("trace: SIGTERM in a traced run leaves a VCD closed cleanly", "[trace][outputs]") {
  TempDir t;
  fs::copy_file(std::string(WARPTLM_SOURCE_DIR) + "/tb/tests/kernels/hangs.ptx", t / "hangs.ptx");
  write_text(t / "run.yaml",
             "kernel:\n  ptx: hangs.ptx\n  name: spin_on_flag\n  grid: [4, 1, 1]\n  block: [64, 1, 1]\n"
             "  buffers:\n    flag: {type: u32, count: 1, init: zeros}\n    out: {type: u32, count: 256, init: zeros}\n"
             "  args: [flag, out]\n");
  const std::string exe = WARPTLM_EXE, yaml = t / "run.yaml", out = t / "out", vcd = t / "run.vcd", log = t / "log.txt";
  const pid_t pid = fork();
  if (pid == 0) {
    FILE* f = std::freopen(log.c_str(), "w", stdout);
    (void)f;
    dup2(fileno(stdout), fileno(stderr));
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
    execl(exe.c_str(), exe.c_str(), "run", yaml.c_str(), "--config", "gtx480", "--set", "sim.watchdog_cycles=0", "--vcd",
          vcd.c_str(), "--out", out.c_str(), (char*)nullptr);
    _exit(127);
  }
  // The signal handlers are set once the platform (and so the VCD) exists: wait for the file, then let it trace a while.
  for (int i = 0; i < 200 && !(fs::exists(vcd) && fs::file_size(vcd) > 0); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
  INFO(slurp(log));
  CHECK((WIFEXITED(status) ? WEXITSTATUS(status) : -1) == 143);
  CHECK(YAML::LoadFile(out + "/stats.json")["status"].as<std::string>() == "interrupted");
  check_closed_cleanly(vcd);
}

TEST_CASE("trace: --vcd with sim.mode=functional exits 2 and says why", "[trace][error]") {
  TempDir t("warptlm_trace");
  auto r = warptlm(t, "run --workload transpose_naive --size tiny --config gtx480 -q --set sim.mode=functional --vcd " +
                          q(t / "f.vcd") + " --out " + q(t / "out"));
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK(contains(r.out, "timing"));
  CHECK(contains(r.out, "functional"));
  CHECK(!fs::exists(t / "f.vcd"));
}

TEST_CASE("trace: a run YAML trace section with list values works", "[trace]") {
  TempDir t("warptlm_trace");
  write_text(t / "run.yaml",
             "workload: transpose_naive\n"
             "size: tiny\n"
             "config: gtx480\n"
             "trace: {vcd: t.vcd, window: [300, 400], include: [\"sm0.*\", \"dram0.*\"]}\n");  // sm0 runs from ~cycle 280, when its first instruction line has come from DRAM
  auto r = warptlm(t, "run run.yaml -q --out out", t.path);
  INFO(r.out);
  REQUIRE(r.code == 0);
  REQUIRE(fs::exists(t / "t.vcd"));
  CHECK(fs::exists(t / "t.gtkw"));
  const Vcd v = parse_vcd(t / "t.vcd");
  INFO("VCD parse error: " << v.error);
  REQUIRE(v.error.empty());
  REQUIRE(!v.times.empty());
  for (uint64_t time : v.times) {
    INFO("#" << time);
    CHECK(time >= 300);
    CHECK(time <= 400);
  }
  CHECK(v.has("sm0.sched0.issue_cycles"));
  CHECK(v.has("dram0.queue"));
  for (auto& s : v.signals) {
    INFO(s.first);
    CHECK((s.first.rfind("sm0.", 0) == 0 || s.first.rfind("dram0.", 0) == 0));
  }
}

namespace {
// The local-memory line addresses each SM of a two-SM gtx480 sent in a traced blackscholes run (its call
// parameters are local words: sm.call_params local), with the given sm.local_layout.
std::vector<std::vector<uint64_t>> local_lines_per_sm(const TempDir& t, const std::string& layout) {
  const std::string vcd = t / (layout + ".vcd"), out = t / (layout + "_out");
  auto r = warptlm(t, "run --workload blackscholes --size tiny --config gtx480 -q --set gpu.num_sms=2 --set sm.local_layout=" +
                          layout + " --vcd " + q(vcd) + " --out " + q(out));
  INFO(r.out);
  REQUIRE(r.code == 0);
  const Vcd v = parse_vcd(vcd);
  REQUIRE(v.error.empty());
  std::vector<std::vector<uint64_t>> lines(2);
  for (uint32_t s = 0; s < 2; ++s)
    for (const auto& c : v.at("sm" + std::to_string(s) + ".mem.req_addr").changes)
      if (c.second >= 0x0000F00000000000ull) lines[s].push_back(c.second - 0x0000F00000000000ull);
  return lines;
}
}  // namespace

TEST_CASE("trace: word-major local memory puts a block's threads in the SM-interleaved places GPGPU-Sim gives them", "[trace]") {
  // word_major: word d of thread t of the block in SM s's block slot k lies at d x S + 4 x (256 x (2k + s) + t)
  // for 256-thread blocks on 2 SMs (S a multiple of 2 x 1024 bytes), so every local line SM s sends has
  // floor(offset / 1024) = s mod 2. blackscholes tiny: 4 blocks of 256, two to each SM, in slots 0 and 1.
  TempDir t("warptlm_trace");
  const auto word_major = local_lines_per_sm(t, "word_major");
  for (uint32_t s = 0; s < 2; ++s) {
    INFO("SM " << s);
    REQUIRE(word_major[s].size() >= 8);  // the calls' parameter words, and both blocks' warps
    std::set<uint64_t> places;
    for (uint64_t a : word_major[s]) {
      CHECK(a / 1024 % 2 == s);
      places.insert(a / 1024);
    }
    CHECK(places.size() >= 2);  // more than one word, or both block slots
  }
  // The check can fail: each warp slot's frame in one piece puts SM 0's later warp slots at odd kilobytes.
  const auto warp_slot = local_lines_per_sm(t, "warp_slot");
  bool other = false;
  for (uint64_t a : warp_slot[0]) other |= a / 1024 % 2 != 0;
  CHECK(other);
}
