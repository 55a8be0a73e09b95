// The parallel engine's parts (docs/determinism.md): the worker threads
// (common/edge_workers.hpp), the clock domain's own parts of an edge
// (common/clock_domain.hpp) and the global writes that wait for the edge's end
// (isa/write_log.hpp). The whole engine is checked by the invariance matrix's
// thread counts (scripts/check-invariance) and its fault (invariance/engine_fault_caught).
#include <catch2/catch.hpp>

#include <atomic>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <stdexcept>
#include <systemc>
#include <thread>
#include <vector>

#include "common/clock_domain.hpp"
#include "common/edge_workers.hpp"
#include "common/input_register.hpp"
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

// Three scripted members of one domain; `first` makes the requests at time 0.
struct ScriptedBench : sc_core::sc_module {
  ClockDomain domain;
  std::vector<std::string> log;
  Scripted m0{log, "m0"}, m1{log, "m1"}, m2{log, "m2"};
  std::function<void()> first;
  SC_HAS_PROCESS(ScriptedBench);
  explicit ScriptedBench(sc_core::sc_module_name n)
      : sc_core::sc_module(n), domain("domain", sc_core::sc_time(1, sc_core::SC_NS)) {
    domain.join(m0);
    domain.join(m1);
    domain.join(m2);
    SC_THREAD(start);
  }
  void start() { first(); }
};

// Requests that overtake one another, within a few cycles.
void script_calendar(ScriptedBench& b) {
  ClockDomain& d = b.domain;
  b.m0.script = [&d](uint64_t c) -> uint64_t {
    if (c == 1) {
      d.request(2, 1);  // a later member, this very edge: it joins it
      d.request(0, 1);  // itself, this edge: the next one
    }
    return ClockedBlock::kNever;
  };
  b.m2.script = [&d](uint64_t c) -> uint64_t {
    if (c == 1) d.request(0, 4);  // an earlier member: a later edge
    return c < 10 ? 10 : ClockedBlock::kNever;
  };
  b.first = [&d] {
    d.request(0, 1);
    d.request(1, 5);
    d.request(1, 3);  // overtakes 5, which is kept for after it ...
    d.request(1, 4);  // ... until 4 overtakes it: edge 5 is no longer asked for
    d.request(2, 8);  // overtaken by m0's request for edge 1, kept for after it
  };
}

}  // namespace

TEST_CASE("a clock domain takes each member's edges as asked: nearest first, later ones kept, none twice", "[engine]") {
  // Edges far apart and requests that overtake one another: each member runs at every edge asked for
  // (the nearest first, a later one after it), at none other, once per edge, in member order within one.
  ScriptedBench bench("bench");
  script_calendar(bench);
  sc_core::sc_start(sc_core::sc_time(20, sc_core::SC_NS));
  const std::vector<std::string> expect = {"m0@1", "m2@1", "m0@2", "m1@3", "m0@4", "m1@4", "m2@8", "m2@10"};
  CHECK(bench.log == expect);
  CHECK(bench.domain.edges() == 6);  // edges 1, 2, 3, 4, 8 and 10: none without a member due
}

namespace {

// Edges asked for across the clock domain's wheel (its next 64 cycles) and past it (its calendar).
void script_wheel(ScriptedBench& b) {
  ClockDomain& d = b.domain;
  b.m0.script = [](uint64_t c) -> uint64_t {
    if (c == 1) return 65;    // the wheel's last cycle after edge 1
    if (c == 65) return 129;  // again one turn later: the slot edge 1 emptied
    return ClockedBlock::kNever;
  };
  b.m1.script = [&d](uint64_t c) -> uint64_t {
    if (c == 1) {
      d.request(2, 66);  // past the wheel: the calendar
      d.request(2, 3);   // overtakes it, which is kept for after it (then on the wheel as well)
      return 64;
    }
    if (c == 64) d.request(2, 70);  // after the edge asked for: kept for after it
    return ClockedBlock::kNever;
  };
  b.first = [&d] {
    d.request(0, 1);
    d.request(1, 1);
  };
}

}  // namespace

TEST_CASE("a clock domain's wheel and calendar: edges past 64 cycles ahead and a slot used again a turn later", "[engine]") {
  ScriptedBench bench("bench");
  script_wheel(bench);
  sc_core::sc_start(sc_core::sc_time(200, sc_core::SC_NS));
  const std::vector<std::string> expect = {"m0@1", "m1@1", "m2@3", "m1@64", "m0@65", "m2@66", "m2@70", "m0@129"};
  CHECK(bench.log == expect);
  CHECK(bench.domain.edges() == 7);  // 1, 3, 64, 65, 66, 70 and 129: no edge without a member due
}

namespace {

// A member of an SM partition that takes what a block running beside the own parts delivers: held while
// that block takes its edge with the workers running (ClockDomain::deferring), taken before any edge.
struct Receiver : sc_core::sc_module, SharedClockMember {
  std::vector<std::string>& log;  // written on the domain's thread only
  sc_core::sc_time period{1, sc_core::SC_NS};
  sc_core::sc_event wake;
  std::atomic<int> own_parts{0};
  std::vector<std::string> held, inbox;
  Receiver(sc_core::sc_module_name n, std::vector<std::string>& l) : sc_core::sc_module(n), log(l) {}
  const sc_core::sc_time& clock_period() const override { return period; }
  bool splits_edge() const override { return true; }
  void edge_own_work(uint64_t) override { ++own_parts; }
  void deliver(const std::string& what) {
    if (inputs_deferred()) {
      if (held.empty()) defer_inputs();
      held.push_back(what);
      log.push_back(std::string(basename()) + " holds " + what);
      return;
    }
    inbox.push_back(what);
  }
  void take_deferred() override {
    for (auto& h : held) inbox.push_back(h);
    log.push_back(std::string(basename()) + " takes " + std::to_string(held.size()));
    held.clear();
  }
  uint64_t clock_edge(uint64_t c) override {
    std::string got;
    for (auto& i : inbox) got += " " + i;
    inbox.clear();
    log.push_back(std::string(basename()) + ".edge@" + std::to_string(c) + got);
    return c < 2 ? c + 1 : kNever;
  }
  void ask(uint64_t c) { ask_edge(wake, period, c); }
};

// A memory-side block: its edge sends the receiver a message.
struct Beside : ClockedBlock {
  std::vector<std::string>& log;
  Receiver& to;
  Beside(std::vector<std::string>& l, Receiver& r) : log(l), to(r) {}
  bool runs_beside_own_parts() const override { return true; }
  uint64_t clock_edge(uint64_t c) override {
    log.push_back("x.edge@" + std::to_string(c));
    to.deliver("m" + std::to_string(c));
    return c < 2 ? c + 1 : kNever;
  }
};

struct BesideBench : sc_core::sc_module {
  ClockDomain domain;
  std::vector<std::string> log;
  Receiver r0{"r0", log}, r1{"r1", log};
  Beside x{log, r1};
  std::unique_ptr<EdgeWorkers> workers;
  SC_HAS_PROCESS(BesideBench);
  BesideBench(sc_core::sc_module_name n, unsigned threads)
      : sc_core::sc_module(n), domain("domain", sc_core::sc_time(1, sc_core::SC_NS)) {
    r0.join_domain(domain, 0);
    r1.join_domain(domain, 1);
    domain.join(x);  // last in member order
    if (threads > 1) {
      workers = std::make_unique<EdgeWorkers>(threads);
      domain.use_workers(workers.get());
    }
    SC_THREAD(start);
  }
  void start() {
    r0.ask(1);
    r1.ask(1);
    domain.request(2, 1);
  }
};

}  // namespace

namespace {
std::vector<std::string> beside_log(unsigned threads) {
  BesideBench bench("bench", threads);
  sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_NS));
  CHECK(bench.r0.own_parts == 2);
  CHECK(bench.r1.own_parts == 2);
  return bench.log;
}
}  // namespace

TEST_CASE("one thread: a block marked to run beside the own parts takes its edge in member order", "[engine]") {
  // x joined last: its edge comes after the others', and what it sends r1 is there at r1's next edge.
  const std::vector<std::string> expect = {"r0.edge@1", "r1.edge@1", "x.edge@1", "r0.edge@2", "r1.edge@2 m1", "x.edge@2"};
  CHECK(beside_log(1) == expect);
}

TEST_CASE("worker threads: a block beside the own parts takes its edge first and what it delivers waits", "[engine]") {
  // x's edge runs while the workers run the own parts, before every other member's edge; what it sends r1
  // is held until the own parts are done and taken before any member's edge.
  const std::vector<std::string> expect = {"x.edge@1", "r1 holds m1", "r1 takes 1", "r0.edge@1", "r1.edge@1 m1",
                                           "x.edge@2", "r1 holds m2", "r1 takes 1", "r0.edge@2", "r1.edge@2 m2"};
  CHECK(beside_log(2) == expect);
}

namespace {

// Two blocks that hear each other only through registered inputs: one in a leader domain (10 ns), one in a
// follower domain (7 ns) that answers each message three of its cycles later. Each logs its edges, the
// cycle it reads as now, and what it takes.
struct Talker : sc_core::sc_module, SharedClockMember {
  sc_core::sc_time period;
  sc_core::sc_event wake;
  Talker* peer = nullptr;
  InputRegister<uint64_t> in;
  std::vector<std::string> log;
  std::vector<std::pair<uint64_t, uint64_t>> replies;  // (due edge, message): the follower's answers
  uint64_t late_edges = 0;  // edges run at another SystemC time than their own
  bool leads;
  Talker(sc_core::sc_module_name n, double ns, bool leader)
      : sc_core::sc_module(n), period(ns, sc_core::SC_NS), leads(leader) {}
  const sc_core::sc_time& clock_period() const override { return period; }
  void ask(uint64_t c) { ask_edge(wake, period, c); }
  void hear(uint64_t m) {
    in.arrive(0, m);
    ask_edge(wake, period, next_edge_after_now(period));
  }
  uint64_t clock_edge(uint64_t c) override {
    if (sc_core::sc_time_stamp() != edge_time(period, c)) ++late_edges;
    std::string got;
    in.take_before(edge_value(period, c), [&](uint32_t, uint64_t m) {
      got += " " + std::to_string(m);
      if (!leads) replies.push_back({c + 3, m + 1000});
    });
    log.push_back(std::to_string(c) + " now " + std::to_string(cycle_now(period)) + got);
    if (leads) {
      if (c % 2 == 1) peer->hear(c);
      return c < 12 ? c + 1 : kNever;  // then asleep: the follower wakes on its own for its answers
    }
    uint64_t next = kNever;
    for (size_t k = 0; k < replies.size();)
      if (replies[k].first <= c) {
        peer->hear(replies[k].second);
        replies.erase(replies.begin() + long(k));
      } else {
        next = std::min(next, replies[k].first);
        ++k;
      }
    return next;
  }
};

struct FollowBench : sc_core::sc_module {
  ClockDomain leader_clock, follower_clock;
  Talker l{"l", 10, true}, f{"f", 7, false};
  SC_HAS_PROCESS(FollowBench);
  FollowBench(sc_core::sc_module_name n, bool follow)
      : sc_core::sc_module(n),
        leader_clock("leader_clock", sc_core::sc_time(10, sc_core::SC_NS)),
        follower_clock("follower_clock", sc_core::sc_time(7, sc_core::SC_NS)) {
    l.peer = &f;
    f.peer = &l;
    l.join_domain(leader_clock);
    f.join_domain(follower_clock);
    if (follow) leader_clock.lead(follower_clock);
    SC_THREAD(start);
  }
  void start() { l.ask(1); }
};

struct FollowRun {
  std::vector<std::string> l, f;
  uint64_t late = 0, f_edges = 0;
};
FollowRun result(const FollowBench& b) {
  return FollowRun{b.l.log, b.f.log, b.f.late_edges, b.follower_clock.edges()};
}

}  // namespace

TEST_CASE("a follower domain's edges run late inside its leader's, with what each block hears unchanged", "[engine]") {
  // The follower's edges wait for the leader's next edge while it has one coming (late_edges), and run at
  // their own time once the leader sleeps (edges 25 and on); every block sees the same edges, the same
  // cycle as now and the same messages at the same edges as when each domain wakes on its own.
  // (one simulation: both benches side by side, apart in everything)
  FollowBench own_bench("own_bench", false), late_bench("late_bench", true);
  sc_core::sc_start(sc_core::sc_time(400, sc_core::SC_NS));
  const FollowRun own = result(own_bench), late = result(late_bench);
  CHECK(own.late == 0);
  CHECK(late.late > 0);
  CHECK(late.late < late.f_edges);  // some on its own too, after the leader's last edge
  CHECK(late.l == own.l);
  CHECK(late.f == own.f);
  CHECK(late.f_edges == own.f_edges);
  REQUIRE(own.f.size() >= 6);
  CHECK(own.f[0] == "2 now 2 1");  // the leader's edge 1 (10 ns) sends; the follower takes it at 14 ns
}
