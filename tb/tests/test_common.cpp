// Tests for models/common: parameter table, config layering and errors,
// stats registry, stats.json / stats.txt and atomic file writes.
#include <catch2/catch.hpp>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "common/block_impl.hpp"
#include "common/config.hpp"
#include "common/errors.hpp"
#include "common/gpu_payload.hpp"
#include "common/params.hpp"
#include "common/stats.hpp"
#include "common/zeroed_array.hpp"

using namespace warptlm;
namespace fs = std::filesystem;

namespace {

// A fresh temp directory per test, removed afterwards.
struct TempDir {
  fs::path dir;
  TempDir() {
    static std::atomic<int> n{0};
    auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    dir = fs::temp_directory_path() /
          ("warptlm_test_common_" + std::to_string(stamp) + "_" + std::to_string(n++));
    fs::create_directories(dir);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    fs::path p = dir / name;
    std::ofstream(p) << text;
    return p.string();
  }
};

ParamTable make_table() {
  ParamTable t;
  t.int_param("gpu.num_sms", 15, 1, 128, "streaming multiprocessors");
  t.int_param("gpu.clock_mhz", 1400, 100, 5000, "core clock");
  t.enum_param("sm.warp_scheduler", "gto", {"gto", "lrr", "two_level"}, "warp scheduling policy");
  t.int_param("smem.banks", 32, 1, 64, "shared memory banks");
  t.int_param("l1d.sets", 64, 1, 1 << 20, "L1D sets");
  t.bool_param("l1d.enabled", true, "use the L1 data cache");
  t.float_param("dram.bw_frac", 0.75, 0.0, 1.0, "a fraction");
  t.int_param("dram.tCL", 12, 1, 100, "CAS latency");
  t.string_param("sim.trace_file", "", "trace output path");
  return t;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs `fn`, which must throw InputError, and returns it.
template <class F>
InputError input_error(F fn) {
  try {
    fn();
  } catch (const InputError& e) {
    return e;
  }
  FAIL("expected an InputError");
  return InputError("unreachable");
}

}  // namespace

TEST_CASE("Place::str and InputError::what name the place", "[common][errors]") {
  CHECK(Place{"base.yaml", 3, "gpu.num_sms"}.str() == "base.yaml:3: gpu.num_sms");
  CHECK(Place{"base.yaml", 0, ""}.str() == "base.yaml");
  CHECK(Place{"", 0, "gpu.num_sms"}.str() == "gpu.num_sms");
  CHECK(Place{}.str().empty());

  InputError e(Place{"base.yaml", 3, "gpu.num_sms"}, "0 is out of range [1, 128]");
  CHECK(std::string(e.what()) == "base.yaml:3: gpu.num_sms: 0 is out of range [1, 128]");
  CHECK(e.where().line == 3);
  // A key already quoted in the message is not repeated in the prefix.
  InputError u(Place{"base.yaml", 3, "gpu.num_smz"}, "unknown parameter 'gpu.num_smz'");
  CHECK(std::string(u.what()) == "base.yaml:3: unknown parameter 'gpu.num_smz'");
  CHECK(std::string(InputError("plain").what()) == "plain");
}

TEST_CASE("closest_match suggests near keys and nothing for far ones", "[common][errors]") {
  std::vector<std::string> keys = {"gpu.num_sms", "gpu.clock_mhz", "sm.warp_scheduler", "dram.tCL"};
  CHECK(closest_match("gpu.num_smz", keys) == "gpu.num_sms");
  CHECK(closest_match("gpu.clock_mz", keys) == "gpu.clock_mhz");
  CHECK(closest_match("sm.num_sms", keys) == "gpu.num_sms");  // by last component
  CHECK(closest_match("totally.unrelated_thing", keys).empty());
  CHECK(closest_match("x", {}).empty());
}

TEST_CASE("value parsing: ints, floats, bools", "[common][params]") {
  int64_t i = 0;
  CHECK((parse_int("16384", i) && i == 16384));
  CHECK((parse_int("0x40", i) && i == 64));
  CHECK((parse_int("-7", i) && i == -7));
  CHECK_FALSE(parse_int("abc", i));
  CHECK_FALSE(parse_int("1.5", i));
  CHECK_FALSE(parse_int("", i));
  CHECK_FALSE(parse_int("99999999999999999999", i));
  double f = 0;
  CHECK((parse_float("3", f) && f == 3.0));
  CHECK((parse_float("0.25", f) && f == 0.25));
  CHECK((parse_float("1e-5", f) && f == 1e-5));
  CHECK_FALSE(parse_float("nan", f));
  CHECK_FALSE(parse_float("fast", f));
  bool b = false;
  for (const char* t : {"true", "yes", "on", "True"}) CHECK((parse_bool(t, b) && b));
  for (const char* t : {"false", "no", "off"}) CHECK((parse_bool(t, b) && !b));
  CHECK_FALSE(parse_bool("maybe", b));
  CHECK(format_float(0.1) == "0.1");
  CHECK(format_float(1e-5) == "1e-05");
}

TEST_CASE("ParamTable declares, lists and rejects conflicting redeclaration", "[common][params]") {
  ParamTable t = make_table();
  REQUIRE(t.find("gpu.num_sms") != nullptr);
  CHECK(t.find("gpu.num_sms")->default_value == "15");
  CHECK(t.find("nope") == nullptr);
  auto keys = t.keys();
  CHECK(std::is_sorted(keys.begin(), keys.end()));
  CHECK(keys.size() == 9);
  CHECK(range_text(*t.find("gpu.num_sms")) == "[1, 128]");
  CHECK(range_text(*t.find("sm.warp_scheduler")) == "gto|lrr|two_level");
  // Same spec again: no-op. Different spec: programming error.
  CHECK_NOTHROW(t.int_param("gpu.num_sms", 15, 1, 128, "streaming multiprocessors"));
  CHECK(t.keys().size() == 9);
  CHECK_THROWS_AS(t.int_param("gpu.num_sms", 16, 1, 128, "streaming multiprocessors"), std::logic_error);
  // Bad default, leaf/section clash.
  CHECK_THROWS_AS(t.int_param("x.y", 0, 1, 10, "bad default"), std::logic_error);
  CHECK_THROWS_AS(t.int_param("gpu", 1, 1, 10, "clashes with section gpu"), std::logic_error);
  CHECK_THROWS_AS(t.int_param("gpu.num_sms.x", 1, 1, 10, "under a leaf"), std::logic_error);
}

TEST_CASE("Config returns declared defaults", "[common][config]") {
  ParamTable t = make_table();
  Config c(t);
  CHECK(c.get_int("gpu.num_sms") == 15);
  CHECK(c.get_string("sm.warp_scheduler") == "gto");
  CHECK(c.get_bool("l1d.enabled"));
  CHECK(c.get_float("dram.bw_frac") == 0.75);
  CHECK(c.get_float("gpu.num_sms") == 15.0);  // ints read as floats too
  CHECK(c.get_string("sim.trace_file").empty());
  CHECK_FALSE(c.is_set("gpu.num_sms"));
  CHECK(c.origin("gpu.num_sms") == "default");
  auto e = input_error([&] { c.get_int("gpu.num_smz"); });
  CHECK_THAT(e.what(), Catch::Contains("did you mean 'gpu.num_sms'"));
}

TEST_CASE("Config layers base, then overlay, then --set", "[common][config]") {
  ParamTable t = make_table();
  TempDir tmp;
  std::string base = tmp.write("base.yaml",
                               "gpu:\n"
                               "  num_sms: 30\n"
                               "  clock_mhz: 1000\n"
                               "sm: {warp_scheduler: lrr}\n"
                               "l1d:\n"
                               "  sets: 0x80\n"
                               "  enabled: off\n");
  std::string overlay = tmp.write("overlay.yaml",
                                  "gpu:\n"
                                  "  num_sms: 60\n"
                                  "dram.bw_frac: 1e-1\n");
  Config c(t);
  c.merge_file(base);
  CHECK(c.get_int("gpu.num_sms") == 30);
  c.merge_file(overlay);
  CHECK(c.get_int("gpu.num_sms") == 60);
  c.apply_set("gpu.num_sms=90");
  c.apply_set("sm.warp_scheduler = two_level");

  CHECK(c.get_int("gpu.num_sms") == 90);
  CHECK(c.origin("gpu.num_sms") == "--set");
  CHECK(c.get_int("gpu.clock_mhz") == 1000);
  CHECK(c.origin("gpu.clock_mhz") == base + ":3");
  CHECK(c.get_string("sm.warp_scheduler") == "two_level");
  CHECK(c.get_int("l1d.sets") == 128);
  CHECK_FALSE(c.get_bool("l1d.enabled"));
  CHECK(c.get_float("dram.bw_frac") == 0.1);
  CHECK(c.origin("dram.bw_frac") == overlay + ":3");
  CHECK(c.get_int("smem.banks") == 32);  // untouched: default
  CHECK(c.is_set("gpu.num_sms"));
  CHECK_FALSE(c.is_set("smem.banks"));
}

TEST_CASE("Config skips ignored top-level sections of a run YAML", "[common][config]") {
  ParamTable t = make_table();
  Config c(t);
  c.merge_text("workload: vecadd\nkernel:\n  grid: [1, 1, 1]\ngpu: {num_sms: 4}\n", "run.yaml", {"workload", "kernel"});
  CHECK(c.get_int("gpu.num_sms") == 4);
  auto e = input_error([&] { c.merge_text("workload: vecadd\n", "run.yaml"); });
  CHECK(e.where().key == "workload");
}

TEST_CASE("unknown key names file, line and a suggestion", "[common][config]") {
  ParamTable t = make_table();
  TempDir tmp;
  std::string path = tmp.write("base.yaml",
                               "gpu:\n"
                               "  clock_mhz: 1000\n"
                               "  num_smz: 15\n");
  Config c(t);
  auto e = input_error([&] { c.merge_file(path); });
  CHECK(e.where().file == path);
  CHECK(e.where().line == 3);
  CHECK(e.where().key == "gpu.num_smz");
  CHECK(std::string(e.what()) == path + ":3: unknown parameter 'gpu.num_smz' (did you mean 'gpu.num_sms'?)");
  // A bad file changes nothing.
  CHECK(c.get_int("gpu.clock_mhz") == 1400);

  auto s = input_error([&] { c.merge_text("gpuu:\n  num_sms: 3\n", "x.yaml"); });
  CHECK(s.where().line == 1);
  CHECK_THAT(s.what(), Catch::Contains("did you mean 'gpu'"));
  // the suggestion is a name valid at that place: a run file's own `set` at its top, not l1d.sets
  auto r = input_error([&] { c.merge_text("workload: vecadd\nsett:\n  gpu.num_sms: 3\n", "run.yaml", {"workload", "size", "set"}); });
  CHECK(r.where().line == 2);
  CHECK(std::string(r.what()) == "run.yaml:2: unknown parameter section 'sett' (did you mean 'set'?)");
  // inside a section, that section's parameters come first
  auto n = input_error([&] { c.merge_text("l1d:\n  sett: 3\n", "x.yaml"); });
  CHECK_THAT(n.what(), Catch::Contains("did you mean 'l1d.sets'"));
}

TEST_CASE("wrong types are errors naming the key", "[common][config]") {
  ParamTable t = make_table();
  Config c(t);
  auto e = input_error([&] { c.merge_text("gpu:\n  num_sms: abc\n", "base.yaml"); });
  CHECK(e.where().line == 2);
  CHECK(e.where().key == "gpu.num_sms");
  CHECK(std::string(e.what()) == "base.yaml:2: gpu.num_sms: 'abc' is not an integer");

  auto b = input_error([&] { c.merge_text("l1d: {enabled: maybe}\n", "base.yaml"); });
  CHECK_THAT(b.what(), Catch::Contains("l1d.enabled") && Catch::Contains("not a boolean"));

  auto en = input_error([&] { c.merge_text("sm:\n  warp_scheduler: gtoo\n", "base.yaml"); });
  CHECK_THAT(en.what(), Catch::Contains("gto, lrr, two_level") && Catch::Contains("did you mean 'gto'"));

  auto fl = input_error([&] { c.apply_set("dram.bw_frac=fast"); });
  CHECK_THAT(fl.what(), Catch::StartsWith("--set: dram.bw_frac:"));

  // A map where a scalar goes, and a scalar where a map goes.
  auto m = input_error([&] { c.merge_text("gpu:\n  num_sms: {a: 1}\n", "base.yaml"); });
  CHECK(m.where().key == "gpu.num_sms");
  CHECK_THAT(m.what(), Catch::Contains("got a map"));
  auto s = input_error([&] { c.merge_text("gpu: 15\n", "base.yaml"); });
  CHECK(s.where().key == "gpu");
  CHECK_THAT(s.what(), Catch::Contains("expected a map"));
  auto top = input_error([&] { c.merge_text("- 1\n- 2\n", "base.yaml"); });
  CHECK_THAT(top.what(), Catch::Contains("expected a map"));
  auto l = input_error([&] { c.merge_text("gpu:\n  num_sms: [1, 2]\n", "base.yaml"); });
  CHECK_THAT(l.what(), Catch::Contains("got a list"));
}

TEST_CASE("out-of-range values are errors with the range", "[common][config]") {
  ParamTable t = make_table();
  Config c(t);
  auto e = input_error([&] { c.merge_text("# comment\ngpu:\n  num_sms: 0\n", "base.yaml"); });
  CHECK(std::string(e.what()) == "base.yaml:3: gpu.num_sms: 0 is out of range [1, 128]");
  auto f = input_error([&] { c.apply_set("dram.bw_frac=1.5"); });
  CHECK_THAT(f.what(), Catch::Contains("1.5 is out of range [0, 1]"));
  CHECK(c.get_int("gpu.num_sms") == 15);
}

TEST_CASE("YAML syntax errors report the line", "[common][config]") {
  ParamTable t = make_table();
  TempDir tmp;
  std::string path = tmp.write("bad.yaml",
                               "gpu:\n"
                               "  num_sms: 15\n"
                               "  clock_mhz: [1000\n"
                               "sm:\n");
  Config c(t);
  auto e = input_error([&] { c.merge_file(path); });
  CHECK(e.where().file == path);
  CHECK(e.where().line >= 3);
  CHECK_THAT(e.what(), Catch::StartsWith(path + ":" + std::to_string(e.where().line) + ": YAML syntax error"));

  auto e2 = input_error([&] { c.merge_text("gpu:\n  num_sms: 1\n num: : :\n\t- x", "t.yaml"); });
  CHECK(e2.where().line > 0);
}

TEST_CASE("missing config file is an error naming it", "[common][config]") {
  ParamTable t = make_table();
  Config c(t);
  TempDir tmp;
  std::string path = (tmp.dir / "x.yaml").string();
  auto e = input_error([&] { c.merge_file(path); });
  CHECK(std::string(e.what()) == "cannot open config file '" + path + "'");
  CHECK(e.where().file == path);
}

TEST_CASE("apply_set needs key=value and validates the key", "[common][config]") {
  ParamTable t = make_table();
  Config c(t);
  auto e = input_error([&] { c.apply_set("gpu.num_sms"); });
  CHECK(e.where().file == "--set");
  CHECK_THAT(e.what(), Catch::Contains("key=value"));
  auto u = input_error([&] { c.apply_set("gpu.num_smz=3"); });
  CHECK(std::string(u.what()) == "--set: unknown parameter 'gpu.num_smz' (did you mean 'gpu.num_sms'?)");
  CHECK_THROWS_AS(c.apply_set("=3"), InputError);
  c.apply_set("sim.trace_file=out/trace=1.txt");  // only the first '=' splits
  CHECK(c.get_string("sim.trace_file") == "out/trace=1.txt");
  c.set("gpu.num_sms", "7", "other.yaml:9");
  CHECK(c.origin("gpu.num_sms") == "other.yaml:9");
  auto r = input_error([&] { c.set("gpu.num_sms", "700", "other.yaml:9"); });
  CHECK(r.where().file == "other.yaml");
  CHECK(r.where().line == 9);
}

TEST_CASE("resolved_yaml lists every parameter and round-trips", "[common][config]") {
  ParamTable t = make_table();
  TempDir tmp;
  std::string base = tmp.write("base.yaml", "gpu:\n  num_sms: 30\nsm:\n  warp_scheduler: lrr\n");
  Config c(t);
  c.merge_file(base);
  c.apply_set("dram.bw_frac=0.1");
  c.apply_set("sim.trace_file=a \"quoted\": #path\\x");
  c.apply_set("l1d.enabled=no");
  c.apply_set("l1d.sets=0x10");
  std::string y = c.resolved_yaml();
  CHECK_THAT(y, Catch::Contains("num_sms: 30  # from " + base + ":2"));
  CHECK_THAT(y, Catch::Contains("clock_mhz: 1400  # default"));
  CHECK_THAT(y, Catch::Contains("bw_frac: 0.1  # --set"));

  YAML::Node n = YAML::Load(y);
  for (const auto& key : t.keys()) {
    std::stringstream ss(key);
    std::string part;
    std::vector<YAML::Node> path{n};
    while (std::getline(ss, part, '.')) path.push_back(path.back()[part]);
    INFO(key);
    CHECK(path.back().IsScalar());
  }

  Config back(t);
  back.merge_text(y, "config.resolved.yaml");
  for (const auto& key : t.keys()) {
    INFO(key);
    CHECK(back.get_string(key) == c.get_string(key));
  }
  CHECK(back.get_int("gpu.num_sms") == 30);
  CHECK(back.get_int("l1d.sets") == 16);
  CHECK_FALSE(back.get_bool("l1d.enabled"));
  CHECK(back.get_float("dram.bw_frac") == 0.1);
  CHECK(back.get_string("sim.trace_file") == "a \"quoted\": #path\\x");
  CHECK(back.get_string("sm.warp_scheduler") == "lrr");

  std::string out = (tmp.dir / "config.resolved.yaml").string();
  c.write_resolved(out);
  CHECK(slurp(out) == y);
}

TEST_CASE("counters are shared by name and summed over instances", "[common][stats]") {
  StatsRegistry reg;
  StatGroup sm0(reg, "sm0.l1d", "l1d"), sm1(reg, "sm1.l1d", "l1d");
  Counter& m0 = sm0.counter("misses", "L1D misses");
  Counter& m1 = sm1.counter("misses");
  Counter& again = reg.counter("sm0.l1d.misses", "l1d.misses");
  CHECK(&again == &m0);
  // Registering many more must not move earlier counters.
  for (int i = 0; i < 1000; ++i) reg.counter("x" + std::to_string(i), "x");
  CHECK(&reg.counter("sm0.l1d.misses", "l1d.misses") == &m0);
  m0 += 3;
  ++m1;
  m1 += 10;
  Counter& single = reg.counter("shmem_bank_conflicts", "shmem_bank_conflicts");
  single += 5;
  auto v = reg.values();
  CHECK(v.at("sm0.l1d.misses") == 3);
  CHECK(v.at("sm1.l1d.misses") == 11);
  CHECK(v.at("l1d.misses") == 14);
  CHECK(v.at("shmem_bank_conflicts") == 5);
  CHECK(v.count("x0") == 1);
  CHECK(v.at("x") == 0);

  reg.derived("l1d.miss_share", [&] { return double(m0.value) / double(m0.value + m1.value); });
  CHECK(reg.values().at("l1d.miss_share") == Approx(3.0 / 14.0));

  reg.clear();
  CHECK(m0.value == 0);
  CHECK(reg.values().at("l1d.misses") == 0);
  CHECK_THROWS_AS(reg.counter("sm0.l1d.misses", "other"), std::logic_error);
}

TEST_CASE("histograms report buckets and samples, summed too", "[common][stats]") {
  StatsRegistry reg;
  StatGroup a(reg, "sm0", "sm"), b(reg, "sm1", "sm");
  Histogram& h0 = a.histogram("active_warps", 4);
  Histogram& h1 = b.histogram("active_warps", 4);
  CHECK(&reg.histogram("sm0.active_warps", "sm.active_warps", 4) == &h0);
  h0.sample(0);
  h0.sample(2);
  h0.sample(9);  // clamps into the last bucket
  h1.sample(3);
  auto v = reg.values();
  CHECK(v.at("sm0.active_warps.bucket0") == 1);
  CHECK(v.at("sm0.active_warps.bucket2") == 1);
  CHECK(v.at("sm0.active_warps.bucket3") == 1);
  CHECK(v.at("sm0.active_warps.samples") == 3);
  CHECK(v.at("sm.active_warps.bucket3") == 2);
  CHECK(v.at("sm.active_warps.samples") == 4);
  CHECK(v.at("sm1.active_warps.bucket1") == 0);
}

TEST_CASE("delta subtracts snapshots per key", "[common][stats]") {
  StatsRegistry reg;
  Counter& c = reg.counter("sm0.inst", "sm.inst");
  c += 5;
  auto before = reg.snapshot();
  c += 7;
  Counter& late = reg.counter("sm1.inst", "sm.inst");  // registered after the snapshot
  late += 2;
  auto d = StatsRegistry::delta(before, reg.snapshot());
  CHECK(d.at("sm0.inst") == 7);
  CHECK(d.at("sm1.inst") == 2);
  CHECK(d.at("sm.inst") == 9);
}

TEST_CASE("delta_since a raw snapshot equals delta between two snapshots key for key", "[common][stats]") {
  StatsRegistry reg;
  Counter& c = reg.counter("sm0.inst", "sm.inst");
  Counter& cost = reg.counter("cost.bytes", "cost.bytes");
  Histogram& h = reg.histogram("sm0.active", "sm.active", 4);
  Counter& gauge = reg.counter("part0.queue", "queue");  // a counter that may go down
  double level = 1.5;
  reg.derived("dram.util", [&] { return level; });
  reg.derived("cost.util", [&] { return 2 * level; });
  c += 5;
  cost += 100;
  gauge += 9;
  h.sample(1);
  const auto before = reg.snapshot();
  const auto raw = reg.raw_snapshot();
  c += 7;
  cost += 3;
  gauge.value -= 4;
  h.sample(3);
  h.sample(9);
  level = 4.25;
  // before anything more is registered (the names' layout is kept, and must follow what comes later)
  CHECK(reg.delta_since(raw) == CounterTable(StatsRegistry::delta(before, reg.snapshot())));
  Counter& late = reg.counter("sm1.inst", "sm.inst");  // registered after the snapshots
  late += 2;
  Histogram& late_h = reg.histogram("sm1.active", "sm.active", 4);
  late_h.sample(2);
  reg.derived("late.ratio", [] { return 0.5; });
  const auto expected = StatsRegistry::delta(before, reg.snapshot());
  const auto got = reg.delta_since(raw);
  CHECK(got == CounterTable(expected));
  CHECK(got.size() == expected.size());
  CHECK(got.at("sm.inst") == 9);
  CHECK(got.at("cost.bytes") == 103);  // a cost as it is
  CHECK(got.at("part0.queue") == -4);
  CHECK(got.at("sm.active.bucket3") == 2);  // 3 and 9 (the last bucket takes larger ones)
  CHECK(got.at("sm.active.bucket2") == 1);
  CHECK(got.at("sm.active.samples") == 3);
  CHECK(got.at("dram.util") == 4.25 - 1.5);
  CHECK(got.at("cost.util") == 8.5);
  CHECK(got.at("late.ratio") == 0.5);
}

TEST_CASE("stats_json has the DESIGN.md shape and parses", "[common][stats]") {
  KernelStats k;
  k.name = "vec\"add\n";
  k.cycles = 1000;
  k.warp_instructions = 40;
  k.thread_instructions = 1280;
  k.verified = true;
  k.counters = {{"l1d.misses", 12}, {"dram.bw_util", 0.1}};
  KernelStats k2;
  k2.name = "second";
  std::map<std::string, double> counters = {{"l1d.misses", 12},
                                            {"big", 1e20},
                                            {"l2.hits", 9007199254740991.0},
                                            {"bad", std::nan("")},
                                            {"inf", std::numeric_limits<double>::infinity()},
                                            {"neg", -3}};
  SimSpeed sim{0.5, 80, 2000};
  std::string j = stats_json({k, k2}, counters, sim);

  YAML::Node n = YAML::Load(j);
  REQUIRE(n.IsMap());
  REQUIRE(n["kernels"].IsSequence());
  REQUIRE(n["kernels"].size() == 2);
  YAML::Node k0 = n["kernels"][0];
  for (const char* key : {"name", "cycles", "warp_instructions", "thread_instructions", "ipc", "verified", "counters"})
    CHECK(k0[key].IsDefined());
  CHECK(k0["name"].as<std::string>() == "vec\"add\n");
  CHECK(k0["cycles"].as<uint64_t>() == 1000);
  CHECK(k0["thread_instructions"].as<uint64_t>() == 1280);
  CHECK(k0["ipc"].as<double>() == 1.28);
  CHECK(k0["verified"].as<bool>());
  CHECK(k0["counters"]["dram.bw_util"].as<double>() == 0.1);
  CHECK(n["kernels"][1]["counters"].IsMap());
  CHECK(n["kernels"][1]["counters"].size() == 0);
  CHECK_FALSE(n["kernels"][1]["verified"].as<bool>());
  CHECK(n["counters"]["l1d.misses"].as<int>() == 12);
  CHECK(n["counters"]["l2.hits"].as<double>() == 9007199254740991.0);
  CHECK(n["counters"]["big"].as<double>() == 1e20);
  CHECK(n["counters"]["bad"].IsNull());
  CHECK(n["counters"]["inf"].IsNull());
  CHECK(n["sim"]["wall_seconds"].as<double>() == 0.5);
  CHECK(n["sim"]["warp_inst_per_sec"].as<double>() == 80);
  CHECK(n["sim"]["cycles_per_sec"].as<double>() == 2000);

  // Integers are written as integers; no nan/inf tokens.
  CHECK_THAT(j, Catch::Contains("\"cycles\": 1000,"));
  CHECK_THAT(j, Catch::Contains("\"l1d.misses\": 12,"));
  CHECK_THAT(j, Catch::Contains("\"neg\": -3\n"));
  CHECK_THAT(j, Catch::Contains("\"l2.hits\": 9007199254740991"));
  CHECK_THAT(j, Catch::Contains("\"wall_seconds\": 0.5,"));
  CHECK_THAT(j, !Catch::Contains("nan") && !Catch::Contains("inf,") && !Catch::Contains("1000.0"));
  CHECK_THAT(j, Catch::Contains("\"vec\\\"add\\n\""));
  // Keys sorted at the top.
  CHECK(j.find("\"counters\"") < j.find("\"kernels\""));
  CHECK(j.find("\"kernels\"") < j.find("\"sim\""));

  // Empty run still has the shape.
  YAML::Node e = YAML::Load(stats_json({}, {}, SimSpeed{}));
  CHECK(e["kernels"].IsSequence());
  CHECK(e["kernels"].size() == 0);
  CHECK(e["counters"].IsMap());
  CHECK(e["sim"]["wall_seconds"].as<double>() == 0);
  CHECK(e["verdict"].as<std::string>() == "not_checked");  // the run's verdict on its results
  RunStatus rs;
  rs.verdict = "verified";
  CHECK(YAML::Load(stats_json({}, {}, SimSpeed{}, nullptr, rs))["verdict"].as<std::string>() == "verified");
  CHECK_THAT(stats_txt({}, {}, SimSpeed{}, rs), Catch::Contains("verdict = verified\n"));
}

TEST_CASE("stats_txt writes name = value lines with GPGPU-Sim totals", "[common][stats]") {
  KernelStats k;
  k.name = "vecadd";
  k.cycles = 100;
  k.warp_instructions = 10;
  k.thread_instructions = 320;
  k.verified = true;
  KernelStats k2 = k;
  k2.name = "second";
  k2.cycles = 300;
  k2.thread_instructions = 80;
  k2.verified = false;
  std::string t = stats_txt({k, k2}, {{"l1d.misses", 4}, {"dram.bw_util", 0.25}}, SimSpeed{2, 10, 200});
  CHECK_THAT(t, Catch::Contains("kernel0.name = vecadd\n"));
  CHECK_THAT(t, Catch::Contains("kernel0.cycles = 100\n"));
  CHECK_THAT(t, Catch::Contains("kernel0.warp_instructions = 10\n"));
  CHECK_THAT(t, Catch::Contains("kernel0.thread_instructions = 320\n"));
  CHECK_THAT(t, Catch::Contains("kernel0.ipc = 3.2\n"));
  CHECK_THAT(t, Catch::Contains("kernel0.verified = 1\n"));
  CHECK_THAT(t, Catch::Contains("kernel1.verified = 0\n"));
  CHECK_THAT(t, Catch::Contains("gpu_tot_sim_cycle = 400\n"));
  CHECK_THAT(t, Catch::Contains("gpu_tot_sim_insn = 400\n"));
  CHECK_THAT(t, Catch::Contains("gpu_tot_ipc = 1\n"));
  CHECK_THAT(t, Catch::Contains("sim.wall_seconds = 2\n"));
  CHECK_THAT(t, Catch::Contains("l1d.misses = 4\n"));
  CHECK_THAT(t, Catch::Contains("dram.bw_util = 0.25\n"));
  CHECK(t.find("kernel1.name") < t.find("gpu_tot_sim_cycle"));
  CHECK(t.find("gpu_tot_ipc") < t.find("dram.bw_util"));
}

TEST_CASE("write_file is atomic and reports unwritable paths", "[common][stats]") {
  TempDir tmp;
  std::string path = (tmp.dir / "stats.json").string();
  write_file(path, "first\n");
  write_file(path, "{\"a\": 1}\n");
  CHECK(slurp(path) == "{\"a\": 1}\n");
  CHECK_FALSE(fs::exists(path + ".tmp"));
  int files = 0;
  for (const auto& entry : fs::directory_iterator(tmp.dir)) {
    (void)entry;
    ++files;
  }
  CHECK(files == 1);

  std::string bad = (tmp.dir / "no_such_dir" / "stats.json").string();
  auto e = input_error([&] { write_file(bad, "x"); });
  CHECK_THAT(e.what(), Catch::StartsWith("cannot write output file '" + bad + "'"));
  CHECK_FALSE(fs::exists(bad + ".tmp"));
}

TEST_CASE("payload: a request's 32-byte sector mask converts to a cache's sectors and back", "[common]") {
  // into the cache's sectors (bit i of a request: bytes 32 i to 32 i + 31 of the line)
  CHECK(cache_sectors_of(0xF, 32, 0xF) == 0xF);
  CHECK(cache_sectors_of(0x2, 128, 0x1) == 0x1);  // any part of a one-sector line
  CHECK(cache_sectors_of(0x4, 64, 0x3) == 0x2);
  CHECK(cache_sectors_of(0xC, 64, 0x3) == 0x2);
  CHECK(cache_sectors_of(0x1, 16, 0xFF) == 0x3);   // 32 bytes span two 16-byte sectors
  CHECK(cache_sectors_of(0x30, 32, 0xF) == 0x0);  // sectors past a 128-byte line
  CHECK(cache_sectors_of(0x30, 64, 0x3) == 0x0);
  CHECK(cache_sectors_of(0x8000'0001, 32, ~0u) == 0x8000'0001);
  // back into 32-byte sectors
  CHECK(request_sectors_of(0x5, 32) == 0x5);
  CHECK(request_sectors_of(0x1, 128) == 0xF);
  CHECK(request_sectors_of(0x2, 64) == 0xC);
  CHECK(request_sectors_of(0x3, 16) == 0x1);
  CHECK(request_sectors_of(0xC, 16) == 0x2);
}

TEST_CASE("stats: names in natural order, digit runs compared as numbers", "[common][stats]") {
  CHECK(natural_less("sm2.l1d", "sm10.l1d"));
  CHECK_FALSE(natural_less("sm10.l1d", "sm2.l1d"));
  CHECK(natural_less("h.bucket9", "h.bucket10"));
  CHECK(natural_less("a", "b"));
  CHECK(natural_less("a", "a1"));
  CHECK_FALSE(natural_less("a1", "a1"));
  CHECK(natural_less("x1", "x01"));  // equal numbers: fewer leading zeros first
  CHECK_FALSE(natural_less("x01", "x1"));
  std::map<std::string, double> m{{"sm10.a", 1}, {"sm2.a", 2}, {"sm1.a", 3}};
  const std::string txt = stats_txt({}, m, SimSpeed{});
  CHECK(txt.find("sm1.a") < txt.find("sm2.a"));
  CHECK(txt.find("sm2.a") < txt.find("sm10.a"));
}

TEST_CASE("zeroed array: a table starts as zero bytes, from calloc or mapped, and moves whole", "[common]") {
  struct Entry {
    uint64_t tag = 0;
    uint32_t mask = 0;
    bool busy = false;
  };
  ZeroedArray<Entry> small(100), large(1 << 14);  // 1.6 KB from calloc; 256 KB mapped (release build)
  REQUIRE(small.size() == 100);
  REQUIRE(large.size() == size_t(1) << 14);
  size_t nonzero = 0;
  for (const Entry& e : small) nonzero += e.tag || e.mask || e.busy;
  for (const Entry& e : large) nonzero += e.tag || e.mask || e.busy;
  CHECK(nonzero == 0);
  large[large.size() - 1].tag = 7;
  ZeroedArray<Entry> moved(std::move(large));
  CHECK(large.size() == 0);
  CHECK(large.data() == nullptr);
  REQUIRE(moved.size() == size_t(1) << 14);
  CHECK(moved[moved.size() - 1].tag == 7);
  small = std::move(moved);  // the calloc'd table is freed, the mapped one taken over
  CHECK(small.size() == size_t(1) << 14);
  CHECK(small[small.size() - 1].tag == 7);
  CHECK(moved.data() == nullptr);
}

TEST_CASE("stats: a name's natural key orders as natural_less does", "[common][stats]") {
  // Every pair of short names over digits (leading zeros, long runs) and characters on both sides of them:
  // the output sorts by key, so a key that differed from natural_less anywhere would reorder stats.json.
  const std::string alphabet = "019a./_:";
  std::vector<std::string> names{""};
  for (size_t len = 1; len <= 4; ++len) {
    const size_t before = names.size();
    for (size_t i = 0; i < before; ++i)
      if (names[i].size() == len - 1)
        for (char c : alphabet) names.push_back(names[i] + c);
  }
  names.push_back("sm131.l1d.bucket12");
  names.push_back("sm0131.l1d.bucket12");
  names.push_back(std::string(300, '7'));  // a run longer than a byte's count
  names.push_back(std::string(299, '9'));
  std::vector<std::string> keys;
  for (const std::string& n : names) keys.push_back(natural_key(n));
  size_t disagree = 0, pairs = 0;
  for (size_t i = 0; i < names.size(); i += 13)
    for (size_t j = 0; j < names.size(); ++j) {
      ++pairs;
      if (natural_less(names[i], names[j]) != (keys[i] < keys[j])) ++disagree;
      if (i != j && keys[i] == keys[j]) ++disagree;  // distinct names, distinct keys
    }
  CHECK(pairs > 500000);
  CHECK(disagree == 0);
}

TEST_CASE("stats: GPGPU-Sim's figures from a kernel's counters", "[common][stats]") {
  std::map<std::string, double> c{{"l1d.hits", 3}, {"l1d.misses", 1}, {"sm.resident_warp_cycles", 960},
                                  {"sm.active_cycles", 40}};
  add_gpgpusim_figures(c, 200, 5000, 48, false);
  CHECK(c.at("gpu_sim_cycle") == 200);
  CHECK(c.at("gpu_sim_insn") == 5000);
  CHECK(c.at("gpu_ipc") == 25);
  CHECK(c.at("L1D_total_cache_miss_rate") == 0.25);
  CHECK(c.count("L2_total_cache_miss_rate") == 0);  // no L2 counters: no figure
  CHECK(c.at("gpu_occupancy") == Approx(50.0));     // 960 warp-cycles over 40 cycles x 48 warps
  std::map<std::string, double> t{{"l2.hits", 0}, {"l2.misses", 0}};
  add_gpgpusim_figures(t, 0, 0, 48, true);
  CHECK(t.at("gpu_tot_sim_cycle") == 0);
  CHECK(t.at("gpu_tot_ipc") == 0);
  CHECK(t.at("L2_total_cache_miss_rate") == 0);
  CHECK(t.count("gpu_occupancy") == 0);  // no SM counters
  const std::string txt = stats_txt({}, t, SimSpeed{});
  CHECK(txt.find("gpu_tot_sim_cycle = ") == txt.rfind("gpu_tot_sim_cycle = "));  // once, not again among the counters
}

// RTL in the loop (docs/rtl.md): "<block>.impl" picks the implementation; rtl and lockstep need the block's
// RTL in the build, and without it the refusal names where the value was set and how to build with RTL.
TEST_CASE("block_impl reads <block>.impl and refuses RTL a build lacks", "[common][rtl]") {
  ParamTable t;
  declare_block_impl(t, "x.arbiter", "a test block");
  Config c(t);
  CHECK(block_impl(c, "x.arbiter", false) == BlockImpl::Model);
  c.merge_text("x:\n  arbiter:\n    impl: lockstep\n", "run.yaml");
  CHECK(block_impl(c, "x.arbiter", true) == BlockImpl::Lockstep);
  c.set("x.arbiter.impl", "rtl");
  CHECK(block_impl(c, "x.arbiter", true) == BlockImpl::Rtl);
  try {
    block_impl(c, "x.arbiter", false);
    FAIL("rtl accepted without RTL in the build");
  } catch (const InputError& e) {
    const std::string w = e.what();
    CHECK(w.find("x.arbiter.impl") != std::string::npos);
    CHECK(w.find("built without RTL") != std::string::npos);
    CHECK(w.find("--set") != std::string::npos);  // where it was set
    CHECK(w.find("-DWARPTLM_RTL=ON") != std::string::npos);
  }
  CHECK_THROWS_AS(([&] {
                    c.set("x.arbiter.impl", "verilog");
                    return c.get_string("x.arbiter.impl");
                  }()),
                  InputError);
  try {
    lockstep_divergence("x.arbiter", 3, 1234, "request 7", "granted", "denied");
    FAIL("no divergence reported");
  } catch (const RunError& e) {
    CHECK(std::string(e.what()) == "RTL lockstep: x.arbiter of SM 3 diverges at cycle 1234: request 7; model: granted; rtl: denied");
  }
}
