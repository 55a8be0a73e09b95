// The GPU platform as a SystemC platform: its host socket driven from
// testbench SC_THREADs (beside free-running clocks, with the completion event),
// the errors it answers, and the mechanism plug-in interface exercised by a
// second, test-only mechanism. Every test case runs in its own process.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <systemc>

#include "common/config.hpp"
#include "common/errors.hpp"
#include "common/stats.hpp"
#include "dram/dram_channel.hpp"
#include "gpu/gpu_platform.hpp"
#include "gpu/launch_sampler.hpp"
#include "gpu/mechanism.hpp"
#include "interconnect/crossbar.hpp"
#include "l1/l1_cache.hpp"
#include "l2/l2_slice.hpp"
#include "runtime/device.hpp"
#include "runtime/testbench.hpp"
#include "sm/sm.hpp"
#include "smem/shared_memory.hpp"

using namespace warptlm;

namespace {

// out[i] = in[i] + add (times two when `doubled`), one thread per element, 32 threads per block
std::string add_to_kernel(const std::string& name, bool doubled) {
  return ".visible .entry " + name + R"((.param .u64 out, .param .u64 in, .param .u32 add)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mad.lo.s32 %r3, %r2, 32, %r1;
  mul.wide.u32 %rd1, %r3, 4;
  ld.param.u64 %rd2, [in];
  cvta.to.global.u64 %rd3, %rd2;
  add.s64 %rd4, %rd3, %rd1;
  ld.global.u32 %r4, [%rd4];
  ld.global.u32 %r5, [%rd4];
  ld.param.u32 %r6, [add];
  add.s32 %r7, %r4, %r6;
)" + (doubled ? "  add.s32 %r7, %r7, %r7;\n" : "") + R"(  ld.param.u64 %rd5, [out];
  cvta.to.global.u64 %rd6, %rd5;
  add.s64 %rd7, %rd6, %rd1;
  st.global.u32 [%rd7], %r7;
  ret;
}
)";
}

// add_to, and add_to_v2: a mechanism's code version of it
const std::string kPtx = ".version 9.0\n.target sm_75\n.address_size 64\n" + add_to_kernel("add_to", false) +
                         add_to_kernel("add_to_v2", true);

using Sets = std::vector<std::pair<std::string, std::string>>;

struct Bench {
  Config cfg;
  StatsRegistry stats;
  std::unique_ptr<GpuTestbench> tb;
  explicit Bench(const Sets& sets) {
    GpuParams::declare(ParamTable::global());
    cfg.merge_file(std::string(WARPTLM_SOURCE_DIR) + "/scenarios/configs/gtx480.yaml");
    cfg.set("gpu.num_sms", "2");
    for (auto& s : sets) cfg.set(s.first, s.second);
    tb = std::make_unique<GpuTestbench>(cfg, stats);
  }
  Device& dev() { return tb->device(); }
  GpuPlatform& gpu() { return tb->platform(); }
  double counter(const std::string& n) { return stats.values().at(n); }
};

// n inputs 0..n-1 on the device; out = in + add checked.
struct AddTo {
  DevPtr in = 0, out = 0;
  uint32_t n = 0;
  AddTo(Device& d, uint32_t count) : n(count) {
    std::vector<uint32_t> v(n);
    for (uint32_t i = 0; i < n; ++i) v[i] = i * 3;
    in = d.upload(v);
    out = d.malloc(n * 4);
  }
  void launch(Device& d, uint32_t add, const char* kernel = "add_to") {
    d.launch(kernel, Dim3(n / 32), Dim3(32), {arg(out), arg(in), arg(add)});
  }
  uint32_t mismatches(Device& d, uint32_t add, uint32_t times = 1) {
    auto v = d.download<uint32_t>(out, n);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < n; ++i) bad += v[i] != (i * 3 + add) * times;
    return bad;
  }
};

// Counts its clock's edges.
struct EdgeCounter : sc_core::sc_module {
  sc_core::sc_in<bool> clk;
  uint64_t edges = 0;
  SC_HAS_PROCESS(EdgeCounter);
  explicit EdgeCounter(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    SC_METHOD(tick);
    sensitive << clk.pos();
    dont_initialize();
  }
  void tick() { ++edges; }
};

// One warp that spins `iters` times, then stores out[t] = t * iters: a long launch on one SM with one line of
// memory traffic.
const std::string kSpinPtx = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry spin(.param .u64 out, .param .u32 iters)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  mov.u32 %r1, %tid.x;
  ld.param.u32 %r2, [iters];
  mov.u32 %r3, 0;
  mov.u32 %r4, 0;
$LOOP:
  add.s32 %r4, %r4, %r1;
  add.s32 %r3, %r3, 1;
  setp.lt.u32 %p1, %r3, %r2;
  @%p1 bra $LOOP;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd2, %rd2, %rd3;
  st.global.u32 [%rd2], %r4;
  ret;
}
)";

// The clock edges each kind of block took while `spin` ran on one SM of eight.
struct EdgesTaken {
  uint64_t cycles = 0;
  uint64_t busy_sm = 0;          // the SM that ran the block
  uint64_t other_sms = 0;        // the most any other SM took
  uint64_t other_sm_blocks = 0;  // the most any other SM's shared memory or L1 took
  uint64_t l2 = 0, dram = 0;     // all slices, all channels
  uint64_t crossbar = 0;
};

EdgesTaken spin_on_one_sm_of_eight() {
  Bench b(Sets{{"gpu.num_sms", "8"}});
  const uint32_t iters = 2000;
  run_host_program([&] {
    b.dev().load_ptx(kSpinPtx, "spin.ptx");
    const DevPtr out = b.dev().malloc(32 * 4);
    b.dev().launch("spin", Dim3(1), Dim3(32), {arg(out), arg(iters)});
    const auto v = b.dev().download<uint32_t>(out, 32);
    for (uint32_t t = 0; t < 32; ++t) CHECK(v[t] == t * iters);
  });
  EdgesTaken e;
  REQUIRE(b.gpu().launches().size() == 1);
  e.cycles = b.gpu().launches()[0].cycles;
  uint32_t busy = 0;
  for (uint32_t i = 1; i < b.gpu().num_sms(); ++i)
    if (b.gpu().sm(i).edges_taken() > b.gpu().sm(busy).edges_taken()) busy = i;
  e.busy_sm = b.gpu().sm(busy).edges_taken();
  for (uint32_t i = 0; i < b.gpu().num_sms(); ++i) {
    if (i == busy) continue;
    e.other_sms = std::max(e.other_sms, b.gpu().sm(i).edges_taken());
    e.other_sm_blocks = std::max({e.other_sm_blocks, b.gpu().smems[i]->edges_taken(), b.gpu().l1s[i]->edges_taken()});
  }
  for (auto& s : b.gpu().l2s) e.l2 += s->edges_taken();
  for (auto& d : b.gpu().drams) e.dram += d->edges_taken();
  e.crossbar = b.gpu().icn->edges_taken();
  return e;
}

// Each thread stores t * 7 + 1 to mid[t], loads mid[t] back at once and stores what it read to out[t]: with
// sim.quantum its load must see its own store of the same quantum.
const std::string kStoreLoadPtx = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry store_load(.param .u64 out, .param .u64 mid)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.s32 %r4, %r2, %r3, %r1;
  mul.wide.u32 %rd1, %r4, 4;
  ld.param.u64 %rd2, [mid];
  cvta.to.global.u64 %rd3, %rd2;
  add.s64 %rd4, %rd3, %rd1;
  mad.lo.s32 %r5, %r4, 7, 1;
  st.global.u32 [%rd4], %r5;
  ld.global.u32 %r6, [%rd4];
  ld.param.u64 %rd5, [out];
  cvta.to.global.u64 %rd6, %rd5;
  add.s64 %rd7, %rd6, %rd1;
  st.global.u32 [%rd7], %r6;
  ret;
}
)";

struct StoreLoad {
  uint32_t mismatches = 0;
  uint64_t held_loads = 0;  // lane loads the SMs held for a quantum's end
};

// 64 blocks of 128 threads on two SMs; mid starts as 0xdeadbeef everywhere.
StoreLoad store_then_load(uint32_t quantum) {
  Bench b(Sets{{"sim.quantum", std::to_string(quantum)}});
  const uint32_t n = 64 * 128;
  StoreLoad r;
  run_host_program([&] {
    b.dev().load_ptx(kStoreLoadPtx, "store_load.ptx");
    const DevPtr mid = b.dev().upload(std::vector<uint32_t>(n, 0xdeadbeefu));
    const DevPtr out = b.dev().malloc(n * 4);
    b.dev().launch("store_load", Dim3(64), Dim3(128), {arg(out), arg(mid)});
    const auto v = b.dev().download<uint32_t>(out, n);
    for (uint32_t t = 0; t < n; ++t) r.mismatches += v[t] != t * 7 + 1;
  });
  for (uint32_t i = 0; i < b.gpu().num_sms(); ++i) r.held_loads += b.gpu().sm(i).held_global_loads();
  return r;
}

}  // namespace

TEST_CASE("platform: with sim.quantum a thread's global load sees its own store of the quantum", "[platform]") {
  const StoreLoad q8 = store_then_load(8);
  CHECK(q8.held_loads == 64 * 128);  // every lane's load waited for its quantum's end
  CHECK(q8.mismatches == 0);
}

TEST_CASE("platform: without a quantum global loads read at issue and see the stores of earlier edges", "[platform]") {
  const StoreLoad q1 = store_then_load(1);
  CHECK(q1.held_loads == 0);  // the edge-by-edge engine
  CHECK(q1.mismatches == 0);
}

TEST_CASE("platform: loads read at issue while the quantum's stores wait would be seen (test-only fault)", "[platform]") {
  setenv("WARPTLM_TEST_FAULT", "quantum_loads_at_issue", 1);
  const StoreLoad q8 = store_then_load(8);
  INFO(q8.mismatches << " of " << 64 * 128 << " threads read a stale value");
  CHECK(q8.held_loads == 0);
  CHECK(q8.mismatches > 0);
}

TEST_CASE("platform: idle blocks take no clock edges: SMs without a block and memory with nothing queued", "[platform]") {
  const EdgesTaken e = spin_on_one_sm_of_eight();
  INFO("cycles " << e.cycles << ", busy SM " << e.busy_sm << ", other SMs " << e.other_sms << " (their shared memory and L1 "
                 << e.other_sm_blocks << "), L2 " << e.l2 << ", DRAM " << e.dram << ", crossbar " << e.crossbar);
  REQUIRE(e.cycles > 4000);
  CHECK(e.busy_sm > e.cycles / 4);  // the block's SM works through the launch
  // The seven SMs that never held a block, their shared memories and L1s: not one edge.
  CHECK(e.other_sms == 0);
  CHECK(e.other_sm_blocks == 0);
  // One line stored (a fill from DRAM, a write): the slices, channels and crossbar take a few tens of edges
  // around it (21, 34 and 12 on 2026-11-29), not one per cycle.
  CHECK(e.l2 <= 64);
  CHECK(e.dram <= 64);
  CHECK(e.crossbar <= 64);
}

TEST_CASE("platform: idle blocks that took every edge would be seen (test-only fault)", "[platform]") {
  setenv("WARPTLM_TEST_FAULT", "idle_edges", 1);  // every clock domain's member and the crossbar take every edge
  const EdgesTaken e = spin_on_one_sm_of_eight();
  REQUIRE(e.cycles > 4000);
  CHECK(e.other_sms > e.cycles / 2);
  CHECK(e.other_sm_blocks > e.cycles / 2);
  CHECK(e.l2 > e.cycles);
  CHECK(e.dram > e.cycles);
  CHECK(e.crossbar > e.cycles / 2);
}

TEST_CASE("platform: a testbench thread launches kernels and waits for each beside a free-running clock", "[platform]") {
  Bench b(Sets{});
  sc_core::sc_clock clk("user_clock", 3, sc_core::SC_NS);
  EdgeCounter counter("user_counter");
  counter.clk(clk);
  std::vector<uint64_t> done_at;
  run_host_program([&] {
    b.dev().load_ptx(kPtx, "add_to.ptx");
    AddTo k(b.dev(), 256);
    for (uint32_t add : {5u, 7u, 11u}) {
      const sc_core::sc_time t0 = sc_core::sc_time_stamp();
      k.launch(b.dev(), add);  // returns at the launch's completion event
      CHECK(sc_core::sc_time_stamp() > t0);
      CHECK_FALSE(b.gpu().launch_running());
      done_at.push_back(uint64_t(sc_core::sc_time_stamp() / b.gpu().period));
      CHECK(k.mismatches(b.dev(), add) == 0);
    }
  });
  REQUIRE(b.gpu().launches().size() == 3);
  // Each launch took its cycles in simulated time, one after the other.
  uint64_t sum = 0;
  for (auto& l : b.gpu().launches()) sum += l.cycles;
  CHECK(sum > 3 * 20);
  CHECK(done_at[0] < done_at[1]);
  CHECK(done_at[1] < done_at[2]);
  // The user's clock kept running throughout, and the launches still ended.
  CHECK(counter.edges >= uint64_t(sc_core::sc_time_stamp() / sc_core::sc_time(3, sc_core::SC_NS)) - 1);
}

TEST_CASE("platform: start returns at once and the completion event ends the launch", "[platform]") {
  Bench b(Sets{});
  run_host_program([&] {
    b.dev().load_ptx(kPtx, "add_to.ptx");
    AddTo k(b.dev(), 512);
    const KernelInfo* ki = b.tb->driver().find_kernel("add_to");
    REQUIRE(ki);
    std::vector<uint8_t> params(ki->param_bytes);
    std::memcpy(params.data() + ki->params[0].offset, &k.out, 8);
    std::memcpy(params.data() + ki->params[1].offset, &k.in, 8);
    const uint32_t add = 9;
    std::memcpy(params.data() + ki->params[2].offset, &add, 4);
    LaunchDims d;
    d.grid[0] = 16;
    d.block[0] = 32;
    const sc_core::sc_time t0 = sc_core::sc_time_stamp();
    b.tb->driver().start(*ki, d, params);
    CHECK(sc_core::sc_time_stamp() == t0);  // issued, not yet run
    CHECK(b.gpu().launch_running());
    // a second launch while one runs is refused
    CHECK_THROWS_WITH(b.tb->driver().start(*ki, d, params), Catch::Contains("synchronize first"));
    sc_core::wait(b.gpu().launch_done());
    CHECK_FALSE(b.gpu().launch_running());
    const LaunchResult r = b.tb->driver().synchronize();
    CHECK(r.kernel == "add_to");
    CHECK(r.cycles == uint64_t((sc_core::sc_time_stamp() - t0) / b.gpu().period) + 1);
    CHECK(k.mismatches(b.dev(), add) == 0);
  });
}

// Two launches of add_to over the same 512 inputs (16 lines) on two SMs: the first fetches the lines of `in` into
// the L1s; the second finds them there unless l1d.flush_at_launch invalidates every L1D as it starts
// (GPGPU-Sim's -gpgpu_flush_l1_cache: an SM's L1D is invalidated once it holds no thread).
static void check_second_launch_fills(bool flush) {
  Bench b(Sets{{"l1d.flush_at_launch", flush ? "true" : "false"}});
  run_host_program([&] {
    b.dev().load_ptx(kPtx, "add_to.ptx");
    AddTo k(b.dev(), 512);
    k.launch(b.dev(), 4);
    k.launch(b.dev(), 4);
    CHECK(k.mismatches(b.dev(), 4) == 0);
  });
  const auto& runs = b.gpu().launches();
  REQUIRE(runs.size() == 2);
  const double first = runs[0].counters.at("l1d.fill_requests"), second = runs[1].counters.at("l1d.fill_requests");
  INFO("fills: first launch " << first << ", second " << second);
  CHECK(first == 512 * 4 / 128);  // every line of `in` once
  CHECK(second == (flush ? first : 0.0));
}

TEST_CASE("platform: the L1Ds keep a launch's lines for the next one", "[platform]") {
  check_second_launch_fills(false);
}

TEST_CASE("platform: with l1d.flush_at_launch each launch starts with empty L1Ds", "[platform]") {
  check_second_launch_fills(true);
}

TEST_CASE("platform: a timing launch outside a testbench thread is refused and says why", "[platform]") {
  Bench b(Sets{});
  b.dev().load_ptx(kPtx, "add_to.ptx");  // loads and copies need no thread
  AddTo k(b.dev(), 64);
  try {
    k.launch(b.dev(), 1);
    FAIL("the launch was accepted outside an SC_THREAD");
  } catch (const InputError& e) {
    CHECK_THAT(e.what(), Catch::Contains("add_to") && Catch::Contains("SC_THREAD"));
  }
  CHECK(b.gpu().launches().empty());
}

TEST_CASE("platform: host copies outside device memory are errors naming the address", "[platform]") {
  Bench b(Sets{});
  uint32_t word = 1;
  try {
    b.dev().memcpy_h2d(0x1234, &word, 4);
    FAIL("a copy to an unallocated address was accepted");
  } catch (const InputError& e) {
    CHECK_THAT(e.what(), Catch::Contains("copy to device memory") && Catch::Contains("0x1234"));
  }
  // a plain TLM write without the command extension: an address error response
  run_host_program([&] {
    tlm::tlm_generic_payload p;
    p.set_command(tlm::TLM_WRITE_COMMAND);
    p.set_address(0x1234);
    p.set_data_ptr(reinterpret_cast<unsigned char*>(&word));
    p.set_data_length(4);
    p.set_streaming_width(4);
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    b.tb->driver().socket->b_transport(p, t);
    CHECK(p.get_response_status() == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    // and a valid one through the debug transport
    const DevPtr a = b.dev().malloc(4);
    p.set_address(a);
    CHECK(b.tb->driver().socket->transport_dbg(p) == 4);
    CHECK(b.dev().download<uint32_t>(a, 1)[0] == 1);
  });
}

// ------------------------------------------------------- a test-only mechanism

namespace {

// What the probe saw, per process.
struct ProbeLog {
  int built_in_sms = 0, modules = 0, plans = 0, arrived = 0, retired = 0;
  uint64_t hits = 0, misses = 0, fills = 0, evictions = 0, global_stores = 0;
  std::set<std::string> blocks_named;
} probe_log;

struct ProbeInSm : SmMechanism, L1Observer {
  const char* name() const override { return "probe"; }
  void block_arrived(const Block*) override { ++probe_log.arrived; }
  void block_retired(const Block*) override { ++probe_log.retired; }
  void memory_executed(const Warp& w, const Instr& in) override {
    if (in.op == Op::St && w.addr_space == Space::Global && w.addr_mask) ++probe_log.global_stores;
  }
  void line_hit(uint64_t, uint16_t) override { ++probe_log.hits; }
  void line_missed(uint64_t, uint16_t) override { ++probe_log.misses; }
  void line_filled(uint64_t, uint16_t) override { ++probe_log.fills; }
  void line_evicted(uint64_t, uint16_t, uint16_t) override { ++probe_log.evictions; }
  void activate() { set_active(true); }
};

// One block of its own per SM ("gpu.sm<i>.probe_unit").
struct ProbeUnit : sc_core::sc_module {
  explicit ProbeUnit(sc_core::sc_module_name n) : sc_core::sc_module(n) {}
};

// A placement policy the mechanism provides: every block to the first SM with room.
struct FirstFit : PlacementPolicy {
  const char* name() const override { return "probe_first_fit"; }
  int choose(uint32_t, const std::vector<bool>& fits) override {
    for (size_t i = 0; i < fits.size(); ++i)
      if (fits[i]) return int(i);
    return -1;
  }
};

struct Probe : Mechanism {
  explicit Probe(const Config& c, StatsRegistry& stats)
      : version_(c.get_bool("probe.second_version")),
        plans_(&stats.counter("probe.plans", "probe.plans", "launches the probe planned")) {}
  const char* name() const override { return "probe"; }
  void build_in_sm(SmSite& site) override {
    ++probe_log.built_in_sms;
    auto part = std::make_unique<ProbeInSm>();
    parts_.push_back(part.get());
    if (site.l1) site.l1->add_observer(*part);
    site.sm.add_mechanism(std::move(part));
    units_.push_back(std::make_unique<ProbeUnit>("probe_unit"));
    probe_log.blocks_named.insert(units_.back()->name());
    site.in_core_clock(*units_.back());
  }
  void module_loaded(const std::string&, const std::string&, GlobalMemory&, const Module& m) override {
    ++probe_log.modules;
    module_ = &m;
  }
  const KernelInfo* plan_launch(const LaunchPlanRequest& r) override {
    ++probe_log.plans;
    ++*plans_;
    for (ProbeInSm* p : parts_) p->activate();
    if (version_ && r.kernel.name == "add_to") return module_->find_kernel("add_to_v2");
    return nullptr;
  }
  std::unique_ptr<PlacementPolicy> make_placement(const std::string& name) override {
    return name == "probe_first_fit" ? std::make_unique<FirstFit>() : nullptr;
  }
  bool version_;
  Counter* plans_;
  const Module* module_ = nullptr;
  std::vector<ProbeInSm*> parts_;
  std::vector<std::unique_ptr<ProbeUnit>> units_;
};

void register_probe() {
  MechanismInfo m;
  m.name = "probe";
  m.folder = "tb/tests";
  m.declare = [](ParamTable& t) {
    t.bool_param("probe.enabled", false, "build the test-only probe mechanism");
    t.bool_param("probe.second_version", false, "launches of add_to run add_to_v2");
    t.add_choice("gpu.placement", "probe_first_fit");
  };
  m.wanted = [](const Config& c) { return c.get_bool("probe.enabled"); };
  m.make = [](const Config& c, StatsRegistry& s) { return std::make_unique<Probe>(c, s); };
  MechanismRegistry::add(m);
}

}  // namespace

TEST_CASE("mechanisms: a registered mechanism gets its parameters, SM parts, launch plans and L1 observations", "[mechanism]") {
  register_probe();  // before the parameters are declared
  Bench b(Sets{{"probe.enabled", "true"}});
  REQUIRE(MechanismRegistry::find("probe"));
  REQUIRE(MechanismRegistry::find("scratchpad_sharing"));  // the shipped one, registered by the build
  REQUIRE(b.gpu().mechanism("probe"));
  CHECK_FALSE(b.gpu().mechanism("scratchpad_sharing"));  // not asked for by this config
  CHECK(probe_log.built_in_sms == 2);
  CHECK(probe_log.blocks_named == std::set<std::string>{"gpu.sm0.probe_unit", "gpu.sm1.probe_unit"});
  CHECK(b.gpu().sm(1).mechanism("probe") != nullptr);
  run_host_program([&] {
    b.dev().load_ptx(kPtx, "add_to.ptx");
    AddTo k(b.dev(), 1024);
    k.launch(b.dev(), 3);
    k.launch(b.dev(), 4);
    CHECK(k.mismatches(b.dev(), 4) == 0);
  });
  CHECK(probe_log.modules == 1);
  CHECK(probe_log.plans == 2);
  CHECK(b.counter("probe.plans") == 2);  // its own stats
  CHECK(probe_log.arrived == 2 * 32);
  CHECK(probe_log.retired == 2 * 32);
  // the observers heard every hit, miss and fill the caches counted
  CHECK(probe_log.misses > 0);
  CHECK(double(probe_log.hits) == b.counter("l1d.hits"));
  // load misses: the cache also counts the 64 stores (one warp per block, each to a line it never
  // loaded, written through without allocation) as misses; observers hear loads' misses only
  CHECK(b.counter("l1d.write_throughs") == 64);
  CHECK(double(probe_log.misses) == b.counter("l1d.misses") - 64);
  CHECK(probe_log.global_stores == 64);  // memory_executed saw each store with its lanes' addresses
  CHECK(probe_log.fills > 0);
  CHECK(probe_log.fills <= probe_log.misses);
}

TEST_CASE("mechanisms: a mechanism's code version and placement policy are the ones that run", "[mechanism]") {
  register_probe();
  Bench b(Sets{{"probe.enabled", "true"}, {"probe.second_version", "true"}, {"gpu.placement", "probe_first_fit"}});
  run_host_program([&] {
    b.dev().load_ptx(kPtx, "add_to.ptx");
    AddTo k(b.dev(), 128);
    k.launch(b.dev(), 3);
    CHECK(k.mismatches(b.dev(), 3, 2) == 0);  // add_to_v2 ran: (in + 3) * 2
  });
  // first fit: SM 0 takes all 4 blocks at once, SM 1 none
  CHECK(b.gpu().sm(0).peak_resident_blocks() == 4);
  CHECK(b.gpu().sm(1).peak_resident_blocks() == 0);
}

TEST_CASE("mechanisms: a mechanism the config does not ask for is not built", "[mechanism]") {
  register_probe();
  Bench b(Sets{});
  CHECK_FALSE(b.gpu().mechanism("probe"));
  CHECK(b.gpu().sm(0).mechanism("probe") == nullptr);
  CHECK(probe_log.built_in_sms == 0);
  CHECK(b.stats.values().count("probe.plans") == 0);
}

// ---------------------------------------------------------------- kernel-level sampling's estimator

namespace {
// A shape of `n` launches of the same work whose cycles drift from `start` down by `step` per launch (a
// kernel whose rows shrink under the same prologue): run through the sampler as a platform would, timing the
// launches it chooses; returns the report and the true total.
template <class Cycles>
SamplingReport sampled_run(uint32_t n, uint32_t every, uint64_t seed, Cycles cycles_of, double& truth) {
  LaunchSampler s(3, every, 0, seed);
  const uint32_t block[3] = {256, 1, 1};
  truth = 0;
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t index = 0;
    const auto kind = s.choose("drift", block, 0, index);
    const double cycles = cycles_of(i);
    truth += cycles;
    s.measured(index, kind == LaunchSampler::Kind::Estimated ? 0 : uint64_t(cycles), 1000);
  }
  return s.report();
}
SamplingReport drifting_run(uint32_t n, double start, double step, double& truth) {
  return sampled_run(n, 25, 1, [&](uint32_t i) { return start - step * i; }, truth);
}
}  // namespace

TEST_CASE("sampling: a stratum's launches are estimated from the samples around them, so a drift inside it is followed", "[platform][sampling]") {
  // Cycles fall from 2,000 to 1,005 over 200 launches of one stratum. The samples are the first three and
  // one in each 25: one ratio over them all would weigh the three at the start (about 2,000 each) as much as
  // seven spread over the rest, and be high by several percent (9 % with the sample at every 25th launch);
  // each stretch at the ratio of the samples around it is not.
  double truth = 0;
  const SamplingReport r = drifting_run(200, 2000, 5, truth);
  REQUIRE(r.groups.size() == 1);
  CHECK(r.timed >= 9);
  CHECK(r.timed <= 12);  // the mechanism acts: most launches estimated
  CAPTURE(truth, r.estimated_cycles, r.bound_cycles);
  CHECK(std::abs(r.estimated_cycles - truth) <= 0.01 * truth);
  CHECK(std::abs(r.estimated_cycles - truth) <= r.bound_cycles);
  // a launch in the middle is estimated near its own cycles, not at the samples' mean
  REQUIRE(r.launch_estimate.size() == 200);
  CHECK(std::abs(r.launch_estimate[100] - (2000 - 5 * 100)) <= 0.06 * (2000 - 5 * 100));
  // no drift: the estimate is exact, and so tight a bound is stated
  const SamplingReport flat = drifting_run(200, 1500, 0, truth);
  CHECK(flat.estimated_cycles == Approx(truth).epsilon(1e-12));
  CHECK(flat.bound_cycles == Approx(0).margin(1e-6));
}

namespace {
// Over seeds 1 to 40: how many estimates of 400 launches alternating between 1,000 and 1,100 cycles (a
// stencil that swaps its two grids) lie inside their bound, and their mean error in percent.
void alternating_runs(uint32_t every, int& inside, double& mean_error) {
  inside = 0;
  mean_error = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    double truth = 0;
    const SamplingReport r = sampled_run(400, every, seed, [](uint32_t i) { return i % 2 ? 1000.0 : 1100.0; }, truth);
    REQUIRE(r.timed <= 15);  // the mechanism acts: most launches estimated
    inside += std::abs(r.estimated_cycles - truth) <= r.bound_cycles;
    mean_error += 100 * (r.estimated_cycles - truth) / truth / 40;
  }
}
}  // namespace

TEST_CASE("sampling: the samples' places in their periods are drawn so an application's own period cannot alias with them", "[platform][sampling]") {
  // A sample at a fixed place in every period of 50 launches (an even number) always lands on an even
  // launch: of launches that alternate in speed it measures only the slow ones after the first three, and
  // the estimate is about 4 % high in every run. Drawn places measure both kinds: over 40 seeds the
  // estimate is fair on average and lies inside its bound about as often as a 95 % interval should.
  int inside = 0;
  double mean_error = 0;
  alternating_runs(50, inside, mean_error);
  CAPTURE(inside, mean_error);
  CHECK(std::abs(mean_error) < 1.0);
  CHECK(inside >= 34);
  // WARPTLM_TEST_FAULT=sampling_fixed_place (test-only): each period's last launch, as a fixed rule would
  setenv("WARPTLM_TEST_FAULT", "sampling_fixed_place", 1);
  alternating_runs(50, inside, mean_error);
  unsetenv("WARPTLM_TEST_FAULT");
  CAPTURE(inside, mean_error);
  CHECK(mean_error > 4.0);
  // the same seed draws the same samples: the run is reproduced
  double t1 = 0, t2 = 0;
  const auto alt = [](uint32_t i) { return i % 2 ? 1000.0 : 1100.0; };
  CHECK(sampled_run(400, 50, 7, alt, t1).estimated_cycles == sampled_run(400, 50, 7, alt, t2).estimated_cycles);
}
