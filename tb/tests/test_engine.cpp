// The parallel engine's parts (docs/determinism.md): the worker threads
// (common/edge_workers.hpp), the clock domain's own parts of an edge
// (common/clock_domain.hpp) and the global writes that wait for the edge's end
// (isa/write_log.hpp). The whole engine is checked by the invariance matrix's
// thread counts (scripts/check-invariance) and its fault (invariance/engine_fault_caught).
#include <catch2/catch.hpp>

#include <atomic>
#include <cstring>
#include <functional>
#include <string>
#include <stdexcept>
#include <systemc>
#include <thread>
#include <vector>

#include "common/clock_domain.hpp"
#include "common/edge_workers.hpp"
#include "isa/ir.hpp"
#include "isa/write_log.hpp"

using namespace warptlm;

namespace {

struct Parts {
  std::vector<std::atomic<int>> runs;
  std::vector<std::thread::id> thread;
  explicit Parts(size_t n) : runs(n), thread(n) {}
  static void part(void* ctx, size_t k) {
    auto& p = *static_cast<Parts*>(ctx);
    p.runs[k].fetch_add(1);
    p.thread[k] = std::this_thread::get_id();
  }
};

}  // namespace

TEST_CASE("edge workers run every part exactly once, on any thread count", "[engine]") {
  for (unsigned threads : {1u, 2u, 3u, 8u}) {
    EdgeWorkers w(threads);
    CHECK(w.threads() == threads);
    for (size_t n : {size_t(0), size_t(1), size_t(5), size_t(120)}) {
      for (int edge = 0; edge < 50; ++edge) {
        Parts p(n);
        std::vector<uint32_t> owner(n);
        for (size_t k = 0; k < n; ++k) owner[k] = uint32_t(k % threads);
        w.run(n, owner.data(), &Parts::part, &p);
        for (size_t k = 0; k < n; ++k) REQUIRE(p.runs[k].load() == 1);
      }
    }
  }
}

TEST_CASE("edge workers: the calling thread does every part when the workers do not come", "[engine]") {
  // With more threads than cores a worker sleeps between edges; the SystemC thread does not wait for it.
  EdgeWorkers w(16);
  Parts p(64);
  std::vector<uint32_t> owner(64, 15);  // every part belongs to the last worker
  w.run(64, owner.data(), &Parts::part, &p);
  for (auto& r : p.runs) CHECK(r.load() == 1);
}

TEST_CASE("edge workers rethrow the exception of the lowest part", "[engine]") {
  EdgeWorkers w(4);
  std::vector<uint32_t> owner(40);
  for (size_t k = 0; k < owner.size(); ++k) owner[k] = uint32_t(k % 4);
  auto throwing = [](void*, size_t k) {
    if (k == 7 || k == 23 || k == 31) throw std::runtime_error("part " + std::to_string(k));
  };
  try {
    w.run(owner.size(), owner.data(), throwing, nullptr);
    FAIL("no exception");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()) == "part 7");
  }
  // the next edge runs cleanly
  Parts p(40);
  w.run(40, owner.data(), &Parts::part, &p);
  for (auto& r : p.runs) CHECK(r.load() == 1);
}

TEST_CASE("global writes wait for the end of the edge and take effect in issue order", "[engine]") {
  uint32_t mem[4] = {10, 20, 30, 40};
  GlobalWriteLog log;
  const uint32_t seven = 7;
  log.store(reinterpret_cast<uint8_t*>(&mem[0]), &seven, 4);
  CHECK(mem[0] == 10);  // a load of the same edge still sees the old value
  // two atomic adds on one word: each returns what it finds at its turn
  uint64_t ret[2] = {0, 0};
  auto add = [](const GlobalWriteLog::Entry& e) {
    uint32_t old;
    std::memcpy(&old, e.at, 4);
    const uint32_t nv = old + uint32_t(e.value[0]);
    std::memcpy(e.at, &nv, 4);
    if (e.dest) *e.dest = old;
  };
  log.atomic(reinterpret_cast<uint8_t*>(&mem[1]), add, &ret[0], 5, 0, uint32_t(SubOp::Add), 4);
  log.atomic(reinterpret_cast<uint8_t*>(&mem[1]), add, &ret[1], 1, 0, uint32_t(SubOp::Add), 4);
  const uint32_t nine = 9;
  log.store(reinterpret_cast<uint8_t*>(&mem[0]), &nine, 4);  // the later store wins
  CHECK(mem[1] == 20);
  CHECK(ret[0] == 0);
  CHECK(log.size() == 4);
  log.commit();
  CHECK(log.empty());
  CHECK(mem[0] == 9);
  CHECK(mem[1] == 26);
  CHECK(ret[0] == 20);
  CHECK(ret[1] == 25);
  // the test-only fault writes at once
  log.set_ahead(true);
  log.store(reinterpret_cast<uint8_t*>(&mem[2]), &seven, 4);
  CHECK(mem[2] == 7);
  CHECK(log.empty());
}

namespace {

// A member that records when its parts run.
struct Recorder : ClockedBlock {
  std::vector<std::string>& log;
  std::string name;
  bool split;
  uint64_t next;
  Recorder(std::vector<std::string>& l, std::string n, bool s, uint64_t nx) : log(l), name(std::move(n)), split(s), next(nx) {}
  bool splits_edge() const override { return split; }
  void edge_own_work(uint64_t c) override { log.push_back(name + ".own@" + std::to_string(c)); }
  uint64_t clock_edge(uint64_t c) override {
    log.push_back(name + ".edge@" + std::to_string(c));
    return c < 2 ? c + next : kNever;
  }
};

struct DomainBench : sc_core::sc_module {
  ClockDomain domain;
  std::vector<std::string> log;
  Recorder a{log, "a", true, 1}, b{log, "b", true, 1}, d{log, "d", false, 1};
  SC_HAS_PROCESS(DomainBench);
  explicit DomainBench(sc_core::sc_module_name n) : sc_core::sc_module(n), domain("domain", sc_core::sc_time(1, sc_core::SC_NS)) {
    domain.join(a);
    domain.join(b);
    domain.join(d);
    SC_THREAD(start);
  }
  void start() {
    domain.request(0, 1);
    domain.request(1, 1);
    domain.request(2, 1);
  }
};

}  // namespace

TEST_CASE("a clock domain runs its members' own parts before any member's edge", "[engine]") {
  DomainBench bench("bench");
  sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_NS));
  const std::vector<std::string> expect = {"a.own@1", "b.own@1", "a.edge@1", "b.edge@1", "d.edge@1",
                                           "a.own@2", "b.own@2", "a.edge@2", "b.edge@2", "d.edge@2"};
  CHECK(bench.log == expect);
}

namespace {

// A member whose edge runs a script: it logs the edge, may ask the domain for
// other members' edges, and returns its next edge.
struct Scripted : ClockedBlock {
  std::vector<std::string>& log;
  std::string name;
  std::function<uint64_t(uint64_t)> script;
  Scripted(std::vector<std::string>& l, std::string n) : log(l), name(std::move(n)) {}
  uint64_t clock_edge(uint64_t c) override {
    log.push_back(name + "@" + std::to_string(c));
    return script ? script(c) : kNever;
  }
};

struct CalendarBench : sc_core::sc_module {
  ClockDomain domain;
  std::vector<std::string> log;
  Scripted m0{log, "m0"}, m1{log, "m1"}, m2{log, "m2"};
  SC_HAS_PROCESS(CalendarBench);
  explicit CalendarBench(sc_core::sc_module_name n)
      : sc_core::sc_module(n), domain("domain", sc_core::sc_time(1, sc_core::SC_NS)) {
    domain.join(m0);
    domain.join(m1);
    domain.join(m2);
    m0.script = [this](uint64_t c) -> uint64_t {
      if (c == 1) {
        domain.request(2, 1);  // a later member, this very edge: it joins it
        domain.request(0, 1);  // itself, this edge: the next one
      }
      return ClockedBlock::kNever;
    };
    m2.script = [this](uint64_t c) -> uint64_t {
      if (c == 1) domain.request(0, 4);  // an earlier member: a later edge
      return c < 10 ? 10 : ClockedBlock::kNever;
    };
    SC_THREAD(start);
  }
  void start() {
    domain.request(0, 1);
    domain.request(1, 5);
    domain.request(1, 3);  // overtakes 5, which is kept for after it ...
    domain.request(1, 4);  // ... until 4 overtakes it: edge 5 is no longer asked for
    domain.request(2, 8);  // overtaken by m0's request for edge 1, kept for after it
  }
};

}  // namespace

TEST_CASE("a clock domain takes each member's edges as asked: nearest first, later ones kept, none twice", "[engine]") {
  // Edges far apart and requests that overtake one another: each member runs at every edge asked for
  // (the nearest first, a later one after it), at none other, once per edge, in member order within one.
  CalendarBench bench("bench");
  sc_core::sc_start(sc_core::sc_time(20, sc_core::SC_NS));
  const std::vector<std::string> expect = {"m0@1", "m2@1", "m0@2", "m1@3", "m0@4", "m1@4", "m2@8", "m2@10"};
  CHECK(bench.log == expect);
  CHECK(bench.domain.edges() == 6);  // edges 1, 2, 3, 4, 8 and 10: none without a member due
}
