// L1 data cache component tests: a TrafficInitiator plays the SM's LD/ST unit
// and a FixedLatencySink the memory below. Each test case builds one bench.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <systemc>

#include "common/errors.hpp"
#include "l1/l1_cache.hpp"
#include "l1/mshr_redundancy.hpp"
#include "tlm_tb.hpp"

using namespace warptlm;
using warptlm::tb::Request;

namespace {

constexpr uint8_t kGlobal = 1, kLocal = 3;
// A registered input is taken at the receiver's first edge after it arrives
// (docs/determinism.md): a request sent at cycle c is looked up (END_REQ on the backward
// path) at c + kIn; a fill or acknowledgement from below arriving at t is taken at t + kIn.
constexpr uint64_t kIn = 1;
// A request that finds room in the L1's two-entry input buffer is accepted
// (END_REQ) with the call; it is looked up kIn later.

struct Evicted { uint64_t addr; uint16_t owner, evictor; };

// Records what the cache tells its observers.
struct Recorder : L1Observer {
  std::vector<Evicted> evicted;
  std::vector<std::pair<uint64_t, uint16_t>> hits, misses, fills;
  void line_hit(uint64_t a, uint16_t w) override { hits.push_back({a, w}); }
  void line_missed(uint64_t a, uint16_t w) override { misses.push_back({a, w}); }
  void line_filled(uint64_t a, uint16_t w) override { fills.push_back({a, w}); }
  void line_evicted(uint64_t a, uint16_t o, uint16_t e) override { evicted.push_back(Evicted{a, o, e}); }
};

struct Bench {
  StatsRegistry stats;
  PayloadPool pool;
  sc_core::sc_time period{1, sc_core::SC_NS};
  uint64_t mem_latency;
  tb::TrafficInitiator lsu;
  L1DataCache l1;
  tb::FixedLatencySink mem;
  Recorder seen;
  std::vector<Evicted>& evicted = seen.evicted;

  Bench(const L1Params& p, uint64_t latency)
      : mem_latency(latency), lsu("lsu", period), l1("l1d", 0, p, period, stats, pool), mem("mem", period, latency) {
    lsu.socket.bind(l1.upstream);
    l1.downstream.bind(mem.socket);
    l1.add_observer(seen);
  }
  double stat(const std::string& name) const {
    auto v = stats.values();
    auto it = v.find(name);
    return it == v.end() ? -1 : it->second;
  }
  void run_until(uint64_t cycle) { sc_core::sc_start(period * double(cycle) - sc_core::sc_time_stamp()); }
  const tb::Completed& done(size_t i) const { return lsu.done.at(i); }
};

Request load(uint64_t addr, uint64_t cycle, uint32_t mask = 0xF, uint16_t warp = 0) {
  Request r;
  r.addr = addr;
  r.cycle = cycle;
  r.sector_mask = mask;
  r.warp = warp;
  r.kind = MemKind::Load;
  r.space = kGlobal;
  return r;
}

Request store(uint64_t addr, uint64_t cycle, uint8_t space, uint32_t mask = 0xF, uint16_t warp = 0) {
  Request r = load(addr, cycle, mask, warp);
  r.kind = MemKind::Store;
  r.write = true;
  r.space = space;
  return r;
}

Request atomic(uint64_t addr, uint64_t cycle) {
  Request r = load(addr, cycle);
  r.kind = MemKind::Atomic;
  return r;
}

L1Params linear_params() {
  L1Params p;
  p.hash = L1Hash::Linear;
  return p;
}

// Fermi's L1D index as Nugteren et al. describe it, written independently of
// the model: address bits 7..11 XOR address bits {19,17,15,14,13}.
uint32_t fermi_set(uint64_t a) {
  const uint32_t low = uint32_t((a >> 7) & 31);
  const uint32_t high = uint32_t(((a >> 13) & 1) | ((a >> 14) & 1) << 1 | ((a >> 15) & 1) << 2 | ((a >> 17) & 1) << 3 |
                                 ((a >> 19) & 1) << 4);
  return low ^ high;
}

}  // namespace

TEST_CASE("l1d: a load miss is filled and a later load to the line hits", "[l1d]") {
  L1Params p;
  p.hit_latency = 3;
  Bench b(p, 20);
  const uint64_t A = 0x1000;
  b.lsu.add(load(A, 0, 0xF, 5));
  b.lsu.add(load(A, 50, 0xF, 6));
  sc_core::sc_start();
  REQUIRE(b.lsu.done.size() == 2);
  // miss: accepted into the input buffer at 0, looked up at kIn (fill requested then), back
  // after the memory latency, installed kIn later, data read hit_latency after that
  CHECK(b.done(0).accepted == 0);
  CHECK(b.done(0).responded == kIn + b.mem_latency + kIn + p.hit_latency);
  // hit: accepted when sent, looked up kIn later, answered hit_latency after the lookup
  CHECK(b.done(1).accepted == 50);
  CHECK(b.done(1).responded == 50 + kIn + p.hit_latency);
  REQUIRE(b.mem.seen.size() == 1);
  CHECK(b.mem.seen[0].addr == A);
  CHECK_FALSE(b.mem.seen[0].write);
  CHECK(b.mem.seen[0].sector_mask == p.full_sector_mask());
  CHECK(b.stat("sm0.l1d.hits") == 1);
  CHECK(b.stat("sm0.l1d.misses") == 1);
  CHECK(b.stat("l1d.hits") == 1);
  CHECK(b.stat("l1d.misses") == 1);
  CHECK(b.stat("sm0.l1d.requests") == 2);
  CHECK(b.stat("sm0.l1d.responses") == 2);
  CHECK(b.l1.holds(A, p.full_sector_mask()));
  // the observer heard the miss, the fill and the hit, each with the line and the warp
  REQUIRE(b.seen.misses.size() == 1);
  REQUIRE(b.seen.fills.size() == 1);
  REQUIRE(b.seen.hits.size() == 1);
  CHECK(b.seen.misses[0] == std::make_pair(A, uint16_t(5)));
  CHECK(b.seen.fills[0] == std::make_pair(A, uint16_t(5)));
  CHECK(b.seen.hits[0] == std::make_pair(A, uint16_t(6)));
  CHECK(b.seen.evicted.empty());
}

TEST_CASE("l1d: a sector miss fetches only the missing sectors", "[l1d]") {
  L1Params p;
  Bench b(p, 20);
  const uint64_t A = 0x2000;
  b.lsu.add(load(A, 0, 0x3));   // sectors 0,1
  b.lsu.add(load(A, 30, 0xF));  // sectors 2,3 are missing
  b.lsu.add(load(A, 60, 0x4));  // sector 2 now present
  sc_core::sc_start();
  REQUIRE(b.mem.seen.size() == 2);
  CHECK(b.mem.seen[0].sector_mask == 0x3);
  CHECK(b.mem.seen[1].sector_mask == 0xC);
  // Each fill moves the bytes of its sectors, not a line (the crossbar's occupancy counts them).
  CHECK(b.mem.seen[0].bytes == 2 * p.sector);
  CHECK(b.mem.seen[1].bytes == 2 * p.sector);
  CHECK(b.stat("sm0.l1d.misses") == 2);
  CHECK(b.stat("sm0.l1d.hits") == 1);
  CHECK(b.done(2).responded == 60 + kIn + p.hit_latency);
  CHECK(b.l1.holds(A, 0xF));
}

TEST_CASE("l1d: a line of one sector (a cache that is not sectored) fetches the whole line for any part of it", "[l1d]") {
  L1Params p;
  p.sector = 128;  // GPGPU-Sim's non-sectored L1D: a miss fetches the line
  Bench b(p, 20);
  const uint64_t A = 0x2000;
  b.lsu.add(load(A, 0, 0x2));   // the request's second 32 bytes only
  b.lsu.add(load(A, 50, 0x8));  // its last 32 bytes: brought by the first fill
  sc_core::sc_start();
  REQUIRE(b.mem.seen.size() == 1);
  CHECK(b.mem.seen[0].sector_mask == 0xF);  // below, in 32-byte sectors: all four
  CHECK(b.mem.seen[0].bytes == 128);        // the whole line moves
  CHECK(b.stat("sm0.l1d.misses") == 1);
  CHECK(b.stat("sm0.l1d.hits") == 1);
  CHECK(b.done(1).responded == 50 + kIn + p.hit_latency);
  CHECK(b.l1.holds(A, 0x1));
}

TEST_CASE("l1d: 64-byte sectors are fetched and written back as pairs of 32-byte sectors", "[l1d]") {
  L1Params p;
  p.sector = 64;
  p.sets = 1;
  p.ways = 1;
  Bench b(p, 20);
  const uint64_t A = 0x2000, B = 0x4000;
  b.lsu.add(load(A, 0, 0x1));             // 32-byte sector 0: the cache's sector 0 (bytes 0-63)
  b.lsu.add(load(A, 40, 0x2));            // bytes 32-63: present
  b.lsu.add(load(A, 80, 0x4));            // bytes 64-95: the cache's sector 1
  b.lsu.add(store(B, 120, kLocal, 0x8));  // a local store allocates B (evicting A) and dirties its sector 1
  b.lsu.add(load(A, 160, 0x1));           // A again: its fill replaces B, whose dirty sector is written back
  sc_core::sc_start();
  REQUIRE(b.mem.seen.size() == 4);
  CHECK(b.mem.seen[0].sector_mask == 0x3);
  CHECK(b.mem.seen[1].sector_mask == 0xC);
  CHECK(b.stat("sm0.l1d.hits") == 1);
  CHECK(b.mem.seen[2].addr == A);
  CHECK(b.mem.seen[2].sector_mask == 0x3);
  CHECK(b.mem.seen[3].addr == B);
  CHECK(b.mem.seen[3].write);
  CHECK(b.mem.seen[3].sector_mask == 0xC);  // the dirty 64 bytes, as 32-byte sectors 2 and 3
}

TEST_CASE("l1d: two loads to one line merge into one MSHR entry", "[l1d]") {
  L1Params p;
  p.hit_latency = 2;
  Bench b(p, 20);
  const uint64_t A = 0x3000;
  b.lsu.add(load(A, 0, 0xF, 1));
  b.lsu.add(load(A, 0, 0xF, 2));
  sc_core::sc_start();
  REQUIRE(b.mem.seen.size() == 1);  // one fill for both
  CHECK(b.done(0).accepted == 0);
  CHECK(b.done(1).accepted == 0);  // the input buffer holds both; looked up at kIn and 2*kIn
  // the fill (requested at kIn, installed kIn after it arrives) answers both
  CHECK(b.done(0).responded == kIn + b.mem_latency + kIn + p.hit_latency);
  CHECK(b.done(1).responded == kIn + b.mem_latency + kIn + p.hit_latency);
  CHECK(b.stat("sm0.l1d.mshr_merges") == 1);
  CHECK(b.stat("sm0.l1d.misses") == 2);
  CHECK(b.stat("sm0.l1d.responses") == 2);
  CHECK(b.stat("sm0.l1d.reservation_fails") == 0);
}

TEST_CASE("l1d: a full MSHR entry refuses a further merge until the fill", "[l1d]") {
  L1Params p;
  p.mshr_merges = 2;
  Bench b(p, 20);
  const uint64_t A = 0x3000;
  for (int i = 0; i < 3; ++i) b.lsu.add(load(A, 0, 0xF, uint16_t(i)));
  sc_core::sc_start();
  REQUIRE(b.lsu.done.size() == 3);
  CHECK(b.mem.seen.size() == 1);
  CHECK(b.stat("sm0.l1d.reservation_fails") == 1);
  // the third enters the input buffer when the first's slot frees (looked up at kIn, free
  // from the next cycle), is refused the merge, and waits at the head for the fill
  // (requested at kIn, installed kIn after it arrives); then it hits
  CHECK(b.done(2).accepted == 2 * kIn);
  CHECK(b.done(2).responded == kIn + b.mem_latency + kIn + p.hit_latency);
  CHECK(b.stat("sm0.l1d.hits") == 1);
  CHECK(b.stat("sm0.l1d.responses") == 3);
}

TEST_CASE("l1d: a miss with every MSHR busy is a reservation fail served once one frees", "[l1d]") {
  L1Params p;
  p.mshr_entries = 2;
  p.hit_latency = 1;
  Bench b(p, 20);
  const uint64_t A = 0x10000, B = 0x20080, C = 0x30100;
  b.lsu.add(load(A, 0));
  b.lsu.add(load(B, 0));
  b.lsu.add(load(C, 0));
  b.lsu.add(load(C + 0x80, 0));   // D and E: two more lines, behind C
  b.lsu.add(load(C + 0x100, 0));
  b.run_until(10);
  CHECK(b.l1.mshrs_in_use() == 2);
  CHECK(b.lsu.done.size() == 5);
  // A and B fill the input buffer at 0; C enters when A's slot frees (A looked up at
  // kIn) and is refused at the head; D takes B's slot; E finds the buffer full behind
  // the refused head, so its END_REQ is withheld (the LD/ST unit stalls)
  CHECK(b.done(2).accepted == 2 * kIn);
  CHECK(b.done(2).responded == UINT64_MAX);
  CHECK(b.done(3).accepted == 3 * kIn);
  CHECK(b.done(4).accepted == UINT64_MAX);
  CHECK(b.stat("sm0.l1d.reservation_fails") == 1);
  sc_core::sc_start();
  CHECK(b.done(0).accepted == 0);
  CHECK(b.done(1).accepted == 0);  // the buffer holds A and B; B is looked up at 2*kIn
  // A's fill (requested at kIn) is installed kIn after it returns and frees an MSHR: C goes then
  const uint64_t a_fill = kIn + b.mem_latency + kIn;
  CHECK(b.done(2).responded == a_fill + b.mem_latency + kIn + p.hit_latency);
  // E gets the slot C's lookup frees, the cycle after it; D takes B's MSHR (freed by B's
  // fill in the same edge, B looked up at 2*kIn); E then finds both MSHRs busy again
  CHECK(b.done(4).accepted == a_fill + 1);
  CHECK(b.done(3).responded == (2 * kIn + b.mem_latency + kIn) + b.mem_latency + kIn + p.hit_latency);
  CHECK(b.done(1).responded == kIn + kIn + b.mem_latency + kIn + p.hit_latency);
  CHECK(b.mem.seen.size() == 5);
  CHECK(b.stat("sm0.l1d.reservation_fails") == 2);  // C, then E
  CHECK(b.stat("sm0.l1d.requests") == 5);
  CHECK(b.stat("sm0.l1d.responses") == 5);
  CHECK(b.l1.mshrs_in_use() == 0);
}

// Five lines of one set (linear index, a stride of sets * line bytes), 4 ways: A0 A1 A2 A3 fill the
// set, A0 again at 120 (A1 becomes the least recently used), then A4 at 150 needs a victim.
static void fill_one_set(Bench& b, const L1Params& p, uint64_t (&A)[5]) {
  for (int i = 0; i < 5; ++i) A[i] = 0x100000 + uint64_t(i) * p.sets * p.line;
  for (int i = 0; i < 4; ++i) b.lsu.add(load(A[i], uint64_t(30 * i)));
  b.lsu.add(load(A[0], 120));
  b.lsu.add(load(A[4], 150));
}

// fill_one_set, then A0 and A1 again.
static void victim_sequence(Bench& b, const L1Params& p, uint64_t (&A)[5]) {
  fill_one_set(b, p, A);
  b.lsu.add(load(A[0], 200));
  b.lsu.add(load(A[1], 230));
}

TEST_CASE("l1d: LRU replacement evicts the least recently used line", "[l1d]") {
  L1Params p = linear_params();
  p.replacement = L1Replacement::Lru;
  REQUIRE(p.ways == 4);
  Bench b(p, 20);
  uint64_t A[5];
  victim_sequence(b, p, A);
  sc_core::sc_start();
  // A0 was touched at 120, so A4 replaces A1; A0 hits again; A1 misses and replaces A2
  REQUIRE(b.evicted.size() == 2);
  CHECK(b.evicted[0].addr == A[1]);
  CHECK(b.evicted[1].addr == A[2]);
  CHECK(b.stat("sm0.l1d.hits") == 2);
  CHECK(b.stat("sm0.l1d.misses") == 6);
  CHECK(b.l1.holds(A[0]));
}

// One set (linear index), 4 ways, full with A0..A3 (A1 the least recently used). A4 misses at 150 and its fill
// returns 40 cycles later; A1, A4's victim, is loaded at 160, between the two.
static void allocate_sequence(Bench& b, const L1Params& p, uint64_t (&A)[5]) {
  fill_one_set(b, p, A);
  b.lsu.add(load(A[1], 160));
}

TEST_CASE("l1d: allocating on fill keeps the victim hittable until the fill", "[l1d]") {
  L1Params p = linear_params();
  p.allocate = L1Allocate::OnFill;
  Bench b(p, 40);
  uint64_t A[5];
  allocate_sequence(b, p, A);
  sc_core::sc_start();
  REQUIRE(b.lsu.done.size() == 7);
  CHECK(b.stat("sm0.l1d.hits") == 2);  // A0 at 120, and A1 at 160: A4 has not taken its way yet
  CHECK(b.done(6).responded == 160 + kIn + p.hit_latency);
  REQUIRE(b.evicted.size() == 1);
  CHECK(b.evicted[0].addr == A[2]);    // chosen at A4's fill, after A1's hit made A2 the least recently used
  CHECK(b.stat("sm0.l1d.line_alloc_fails") == 0);
}

TEST_CASE("l1d: allocating on miss evicts the victim at the miss and reserves its way until the fill", "[l1d]") {
  L1Params p = linear_params();
  p.allocate = L1Allocate::OnMiss;
  Bench b(p, 40);
  uint64_t A[5];
  allocate_sequence(b, p, A);
  sc_core::sc_start();
  REQUIRE(b.lsu.done.size() == 7);
  CHECK(b.stat("sm0.l1d.hits") == 1);  // A0 only: A1 left at A4's miss
  CHECK(b.stat("sm0.l1d.misses") == 6);
  REQUIRE(b.evicted.size() == 2);
  CHECK(b.evicted[0].addr == A[1]);    // by A4, at its miss
  CHECK(b.evicted[0].evictor == 0);
  CHECK(b.evicted[1].addr == A[2]);    // by A1 coming back; A4's reserved way is not a victim
  CHECK(b.done(6).responded == 160 + kIn + b.mem_latency + kIn + p.hit_latency);
  CHECK(b.l1.holds(A[4]));
  CHECK(b.l1.holds(A[1]));
}

TEST_CASE("l1d: allocating on miss never takes a reserved way as a victim, even the least recently used", "[l1d]") {
  L1Params p = linear_params();
  p.allocate = L1Allocate::OnMiss;
  Bench b(p, 40);
  uint64_t A[6];
  for (int i = 0; i < 6; ++i) A[i] = 0x100000 + uint64_t(i) * p.sets * p.line;
  for (int i = 0; i < 4; ++i) b.lsu.add(load(A[i], uint64_t(30 * i)));  // A0..A3 fill the set
  b.lsu.add(load(A[4], 150));  // misses: A0 (least recently used) leaves, A4's way waits for its fill
  for (int i = 1; i < 4; ++i) b.lsu.add(load(A[i], uint64_t(154 + i)));  // hits: A4's way is now the oldest
  b.lsu.add(load(A[5], 165));  // misses while A4 still waits: its victim is A1, not A4's reserved way
  sc_core::sc_start();
  REQUIRE(b.lsu.done.size() == 9);
  CHECK(b.stat("sm0.l1d.hits") == 3);
  REQUIRE(b.evicted.size() == 2);
  CHECK(b.evicted[0].addr == A[0]);
  CHECK(b.evicted[1].addr == A[1]);
  CHECK(b.l1.holds(A[4]));
  CHECK(b.l1.holds(A[5]));
  CHECK(b.stat("sm0.l1d.line_alloc_fails") == 0);
}

// One set, allocating on miss: A0..A3 miss at 0, 10, 20 and 30 and fill in that order (latency 40); A0 is asked
// again at 35, a pending hit merged into its MSHR. A4 misses at 100. With l1d.recency: access (GPGPU-Sim's tag array
// stamps a line at its allocating miss, its hits and its pending hits, not at its fill) A0 was used last at 35 and
// A1, allocated at 10, is the victim; with l1d.recency: fill the fills make A3 the most recent and A0 the least.
static void check_recency_victim(bool access) {
  L1Params p = linear_params();
  p.allocate = L1Allocate::OnMiss;
  p.fill_is_use = !access;
  Bench b(p, 40);
  uint64_t A[5];
  for (int i = 0; i < 5; ++i) A[i] = 0x200000 + uint64_t(i) * p.sets * p.line;
  for (int i = 0; i < 4; ++i) b.lsu.add(load(A[i], uint64_t(10 * i)));
  b.lsu.add(load(A[0], 35));
  b.lsu.add(load(A[4], 100));
  sc_core::sc_start();
  REQUIRE(b.lsu.done.size() == 6);
  CHECK(b.stat("sm0.l1d.mshr_merges") == 1);
  REQUIRE(b.evicted.size() == 1);
  CHECK(b.evicted[0].addr == (access ? A[1] : A[0]));
}

TEST_CASE("l1d: with recency at access a pending hit keeps its line and a fill does not refresh one", "[l1d]") {
  check_recency_victim(true);
}

TEST_CASE("l1d: with recency at fill the earliest filled line is the victim", "[l1d]") {
  check_recency_victim(false);
}

TEST_CASE("l1d: allocating on miss refuses a miss whose set has every way reserved until a fill frees one", "[l1d]") {
  L1Params p = linear_params();
  p.allocate = L1Allocate::OnMiss;
  p.hit_latency = 1;
  Bench b(p, 40);
  // five lines of one set at once: four take the ways and wait for their fills; the fifth is refused
  // (a reservation fail) although MSHRs are free, and is looked up again when the first fill arrives
  uint64_t A[5];
  for (int i = 0; i < 5; ++i) A[i] = 0x100000 + uint64_t(i) * p.sets * p.line;
  for (int i = 0; i < 5; ++i) b.lsu.add(load(A[i], uint64_t(i)));
  b.run_until(30);
  CHECK(b.l1.mshrs_in_use() == 4);
  CHECK(b.stat("sm0.l1d.reservation_fails") == 1);
  CHECK(b.stat("sm0.l1d.line_alloc_fails") == 1);
  sc_core::sc_start();
  REQUIRE(b.lsu.done.size() == 5);
  // A0 looked up at kIn, filled kIn after its memory latency; A4 is looked up in the edge that fill frees its way
  const uint64_t a0_fill = 0 + kIn + b.mem_latency + kIn;
  CHECK(b.done(4).responded == a0_fill + b.mem_latency + kIn + p.hit_latency);
  CHECK(b.stat("sm0.l1d.misses") == 5);
  CHECK(b.mem.seen.size() == 5);
  CHECK(b.stat("sm0.l1d.responses") == 5);
  CHECK(b.l1.mshrs_in_use() == 0);
}

TEST_CASE("l1d: FIFO replacement evicts the earliest filled line", "[l1d]") {
  L1Params p = linear_params();
  p.replacement = L1Replacement::Fifo;
  Bench b(p, 20);
  uint64_t A[5];
  victim_sequence(b, p, A);
  sc_core::sc_start();
  // the hit on A0 does not save it: A4 replaces A0, A0 replaces A1, A1 replaces A2
  REQUIRE(b.evicted.size() == 3);
  CHECK(b.evicted[0].addr == A[0]);
  CHECK(b.evicted[1].addr == A[1]);
  CHECK(b.evicted[2].addr == A[2]);
  CHECK(b.stat("sm0.l1d.hits") == 1);
  CHECK(b.stat("sm0.l1d.misses") == 7);
}

// 8 lines at a stride of sets * line bytes, read twice.
static void stride_sequence(Bench& b, const L1Params& p, std::vector<uint64_t>& addrs) {
  for (int i = 0; i < 8; ++i) addrs.push_back(uint64_t(i) * p.sets * p.line);
  uint64_t t = 0;
  for (int pass = 0; pass < 2; ++pass)
    for (uint64_t a : addrs) { b.lsu.add(load(a, t)); t += 30; }
}

TEST_CASE("l1d: linear indexing puts a power-of-two stride in one set", "[l1d]") {
  L1Params p = linear_params();
  Bench b(p, 20);
  std::vector<uint64_t> addrs;
  stride_sequence(b, p, addrs);
  std::set<uint32_t> sets;
  for (uint64_t a : addrs) sets.insert(b.l1.set_index(a));
  CHECK(sets.size() == 1);
  sc_core::sc_start();
  // 8 lines cycle through 4 ways under LRU: the second pass misses every time
  CHECK(b.stat("sm0.l1d.hits") == 0);
  CHECK(b.stat("sm0.l1d.misses") == 16);
}

TEST_CASE("l1d: xor hashing spreads a power-of-two stride over more sets than linear", "[l1d]") {
  L1Params p;
  p.hash = L1Hash::Xor;
  REQUIRE(p.sets == 32);
  REQUIRE(p.line == 128);
  Bench b(p, 20);
  std::vector<uint64_t> addrs;
  stride_sequence(b, p, addrs);
  std::map<uint32_t, uint32_t> per_set;
  for (uint64_t a : addrs) {
    CHECK(b.l1.set_index(a) == fermi_set(a));
    ++per_set[fermi_set(a)];
  }
  CHECK(per_set.size() > 1);
  uint32_t expected_hits = 0;  // a set holding at most `ways` of the lines keeps them all
  for (auto& kv : per_set)
    if (kv.second <= p.ways) expected_hits += kv.second;
  CHECK(expected_hits == 8);
  // a few more hashed indices: bits 13..15, 17 and 19 flip index bits 0..4
  CHECK(b.l1.set_index(0x2000) == 1);
  CHECK(b.l1.set_index(0x20000) == 8);
  CHECK(b.l1.set_index(0x80000 | 0x80) == (16 ^ 1));
  sc_core::sc_start();
  CHECK(b.stat("sm0.l1d.hits") == expected_hits);
  CHECK(b.stat("sm0.l1d.misses") == 16 - expected_hits);
}

TEST_CASE("l1d: a global store writes through and does not allocate", "[l1d]") {
  L1Params p;
  REQUIRE(p.global_write == L1WritePolicy::WriteThroughNoAllocate);
  Bench b(p, 20);
  const uint64_t A = 0x4000, B = 0x8000;
  b.lsu.add(store(A, 0, kGlobal));
  b.lsu.add(load(B, 40));
  b.lsu.add(store(B, 100, kGlobal));  // a store hit updates the line, still written through
  b.lsu.add(load(B, 150));
  b.run_until(30);
  CHECK_FALSE(b.l1.holds(A));
  sc_core::sc_start();
  REQUIRE(b.mem.seen.size() == 3);
  CHECK(b.mem.seen[0].write);
  CHECK(b.mem.seen[0].addr == A);
  CHECK_FALSE(b.mem.seen[1].write);
  CHECK(b.mem.seen[2].write);
  CHECK(b.mem.seen[2].addr == B);
  // a write-through store (sent below when taken, kIn after it was sent) is answered when
  // the level below's acknowledgement is taken, kIn after it arrives
  CHECK(b.done(0).responded == 0 + kIn + b.mem_latency + kIn);
  CHECK(b.done(2).responded == 100 + kIn + b.mem_latency + kIn);
  CHECK(b.done(3).responded == 150 + kIn + p.hit_latency);
  CHECK_FALSE(b.l1.holds(A));
  CHECK(b.l1.holds(B));
  CHECK_FALSE(b.l1.is_dirty(B));
  CHECK(b.stat("sm0.l1d.write_throughs") == 2);
  CHECK(b.stat("sm0.l1d.hits") == 2);    // store B, load B
  CHECK(b.stat("sm0.l1d.misses") == 2);  // store A, load B
  CHECK(b.stat("sm0.l1d.writebacks") == 0);
}

TEST_CASE("l1d: a local store allocates a dirty line that is written back on eviction", "[l1d]") {
  L1Params p = linear_params();
  REQUIRE(p.local_write == L1WritePolicy::WriteBackAllocate);
  Bench b(p, 20);
  const uint64_t stride = uint64_t(p.sets) * p.line;
  const uint64_t A0 = 0x40000;
  b.lsu.add(store(A0, 0, kLocal, 0x3, 4));
  for (uint64_t i = 1; i <= p.ways; ++i) b.lsu.add(load(A0 + i * stride, 10 + 30 * (i - 1)));
  b.run_until(5);
  CHECK(b.mem.seen.empty());  // kept in the cache
  CHECK(b.l1.holds(A0, 0x3));
  CHECK(b.l1.is_dirty(A0));
  CHECK(b.l1.owner_of(A0) == 4);
  CHECK(b.done(0).responded == 0 + kIn + p.hit_latency);
  sc_core::sc_start();
  // the fourth load's fill needs a way: the store's line is the least recently used
  REQUIRE(b.mem.seen.size() == p.ways + 1);
  const auto& wb = b.mem.seen.back();
  CHECK(wb.write);
  CHECK(wb.addr == A0);
  CHECK(wb.sector_mask == 0x3);  // only the written sectors are dirty
  CHECK(wb.cycle == 10 + 30 * (p.ways - 1) + kIn + b.mem_latency + kIn);  // when that fill is installed
  CHECK(b.stat("sm0.l1d.writebacks") == 1);
  CHECK_FALSE(b.l1.holds(A0));
  CHECK(b.stat("sm0.l1d.responses") == p.ways + 1);
}

TEST_CASE("l1d: an atomic bypasses the cache and invalidates the line", "[l1d]") {
  L1Params p;
  Bench b(p, 20);
  const uint64_t A = 0x5000;
  b.lsu.add(load(A, 0));
  b.lsu.add(atomic(A, 40));
  b.run_until(39);
  CHECK(b.l1.holds(A));
  sc_core::sc_start();
  CHECK_FALSE(b.l1.holds(A));
  REQUIRE(b.mem.seen.size() == 2);
  CHECK(b.mem.seen[1].addr == A);
  CHECK(b.mem.seen[1].cycle == 40 + kIn);  // sent below when taken
  CHECK(b.done(1).responded == 40 + kIn + b.mem_latency + kIn);
  CHECK(b.stat("sm0.l1d.bypasses") == 1);
  CHECK(b.stat("sm0.l1d.hits") == 0);
  CHECK(b.stat("sm0.l1d.misses") == 1);
}

TEST_CASE("l1d: a disabled cache passes every request through", "[l1d]") {
  L1Params p;
  p.enabled = false;
  Bench b(p, 20);
  const uint64_t A = 0x6000;
  b.lsu.add(load(A, 0));
  b.lsu.add(load(A, 0));
  b.lsu.add(store(A + 0x80, 0, kGlobal));
  b.lsu.add(store(A + 0x100, 0, kLocal));
  sc_core::sc_start();
  REQUIRE(b.lsu.done.size() == 4);
  REQUIRE(b.mem.seen.size() == 4);
  for (size_t i = 0; i < 4; ++i) {
    // two fit the input buffer at once; each later one enters as the slot of the one
    // looked up two before it frees; each is looked up (and passed below) in turn from
    // kIn, one a cycle, and its answer is taken kIn after it returns
    CHECK(b.done(i).accepted == (i < 2 ? 0 : i));
    CHECK(b.done(i).responded == (i + 1) * kIn + b.mem_latency + kIn);
  }
  CHECK(b.mem.seen[3].write);
  CHECK(b.stat("sm0.l1d.hits") == 0);
  CHECK(b.stat("sm0.l1d.misses") == 0);
  CHECK(b.stat("sm0.l1d.bypasses") == 4);
  CHECK_FALSE(b.l1.holds(A));
  CHECK_FALSE(b.l1.holds(A + 0x100));
}

TEST_CASE("l1d: with global loads bypassed a global load passes below hit or not while a local load is cached", "[l1d]") {
  // l1d.global_loads: bypass (GPGPU-Sim's -gpgpu_gmem_skip_L1D): a global load goes below untouched even
  // when its line is present (here written by a local store), allocates nothing, and a local load still hits
  // (with global loads cached, a second load of a line hits: "a load miss is filled and a later load ...").
  L1Params p;
  p.global_loads_bypass = true;
  Bench b(p, 20);
  const uint64_t L = 0x8000, G = 0x9000;
  b.lsu.add(store(L, 0, kLocal));  // a local line, allocated dirty
  Request local = load(L, 40);
  local.space = kLocal;
  b.lsu.add(local);                // hits
  b.lsu.add(load(L, 80));          // the same line as a global load: below, not a hit
  b.lsu.add(load(G, 120));
  b.lsu.add(load(G, 200));         // nothing was allocated: below again
  sc_core::sc_start();
  REQUIRE(b.lsu.done.size() == 5);
  CHECK(b.stat("sm0.l1d.hits") == 1);
  CHECK(b.stat("sm0.l1d.bypasses") == 3);
  CHECK_FALSE(b.l1.holds(G));
  CHECK(b.l1.holds(L));
  CHECK(b.done(1).responded - 40 < b.mem_latency);  // the local hit answered without memory
  CHECK(b.done(2).responded - 80 > b.mem_latency);  // the global load of the same line went below
}

TEST_CASE("l1d: with write_evict a global store hit invalidates what it wrote and goes below", "[l1d]") {
  // GPGPU-Sim's L1 write policy L: a global store that hits evicts its sectors (wr_hit_we); with
  // write_through_no_allocate the same store would update the line and the load after it would hit.
  L1Params p;
  p.global_write = L1WritePolicy::WriteEvict;
  Bench b(p, 20);
  const uint64_t G = 0x9000;
  b.lsu.add(load(G, 0));            // a miss, filled
  b.lsu.add(load(G, 100));          // hits
  b.lsu.add(store(G, 150, kGlobal)); // hits: written below, the line's copy dropped
  b.lsu.add(load(G, 250));          // misses again
  sc_core::sc_start();
  REQUIRE(b.lsu.done.size() == 4);
  CHECK(b.stat("sm0.l1d.hits") == 2);    // the second load and the store
  CHECK(b.stat("sm0.l1d.misses") == 2);  // the first and the last load
  CHECK(b.stat("sm0.l1d.write_throughs") == 1);
  CHECK(b.done(3).responded - 250 > b.mem_latency);
  CHECK(b.l1.holds(G));  // filled again by the last load
}

TEST_CASE("l1d: with global loads bypassed an ld.global.nc load is still cached", "[l1d]") {
  // GPGPU-Sim keeps .nc loads (cache_op CACHE_L1) in the L1 under -gpgpu_gmem_skip_L1D (ldst_unit::memory_cycle
  // and, for their fills, ldst_unit::cycle); a plain global load of the same line passes below.
  L1Params p;
  p.global_loads_bypass = true;
  Bench b(p, 20);
  const uint64_t G = 0x9000;
  Request nc = load(G, 0);
  nc.nc = true;
  b.lsu.add(nc);             // a miss, filled and kept
  Request again = load(G, 100);
  again.nc = true;
  b.lsu.add(again);          // hits
  b.lsu.add(load(G, 200));   // a plain global load: below although the line is there
  sc_core::sc_start();
  REQUIRE(b.lsu.done.size() == 3);
  CHECK(b.stat("sm0.l1d.misses") == 1);
  CHECK(b.stat("sm0.l1d.hits") == 1);
  CHECK(b.stat("sm0.l1d.bypasses") == 1);
  CHECK(b.l1.holds(G));
  CHECK(b.done(1).responded - 100 < b.mem_latency);
  CHECK(b.done(2).responded - 200 > b.mem_latency);
}

TEST_CASE("l1d: an observer hears each eviction with the owner and the evicting warp", "[l1d]") {
  L1Params p = linear_params();
  Bench b(p, 20);
  const uint64_t stride = uint64_t(p.sets) * p.line;
  const uint64_t A0 = 0x80000;
  b.lsu.add(load(A0, 0, 0xF, 7));
  for (uint64_t i = 1; i < p.ways; ++i) b.lsu.add(load(A0 + i * stride, 30 * i, 0xF, 2));
  b.lsu.add(load(A0 + p.ways * stride, 30 * p.ways, 0xF, 9));
  sc_core::sc_start();
  REQUIRE(b.evicted.size() == 1);
  CHECK(b.evicted[0].addr == A0);
  CHECK(b.evicted[0].owner == 7);
  CHECK(b.evicted[0].evictor == 9);
  CHECK(b.l1.owner_of(A0 + p.ways * stride) == 9);
  CHECK(b.l1.owner_of(A0) == -1);
  CHECK(b.stat("sm0.l1d.evictions") == 1);
}

TEST_CASE("l1d: requests in equal responses out under mixed traffic with scarce resources", "[l1d]") {
  L1Params p = linear_params();
  p.sets = 4;
  p.ways = 2;
  p.mshr_entries = 3;
  p.mshr_merges = 2;
  p.miss_queue = 2;
  Bench b(p, 7);
  uint64_t x = 12345, t = 0;
  auto rnd = [&x](uint64_t n) { x = x * 6364136223846793005ull + 1442695040888963407ull; return (x >> 33) % n; };
  const size_t N = 400;
  size_t atomics = 0;
  for (size_t i = 0; i < N; ++i) {
    t += rnd(3);
    const uint64_t addr = 0x100000 + rnd(24) * p.line;
    const uint32_t mask = uint32_t(1 + rnd(15));
    const uint64_t k = rnd(10);
    if (k < 5) b.lsu.add(load(addr, t, mask, uint16_t(rnd(8))));
    else if (k < 7) b.lsu.add(store(addr, t, kGlobal, mask));
    else if (k < 9) b.lsu.add(store(addr, t, kLocal, mask));
    else { b.lsu.add(atomic(addr, t)); ++atomics; }
  }
  sc_core::sc_start();
  REQUIRE(b.lsu.done.size() == N);
  size_t answered = 0;
  for (auto& d : b.lsu.done) answered += d.responded != UINT64_MAX && d.responded >= d.accepted;
  CHECK(answered == N);
  CHECK(b.stat("sm0.l1d.requests") == N);
  CHECK(b.stat("sm0.l1d.responses") == N);
  CHECK(b.stat("sm0.l1d.hits") + b.stat("sm0.l1d.misses") == N - atomics);
  CHECK(b.stat("sm0.l1d.bypasses") == atomics);
  CHECK(b.stat("sm0.l1d.reservation_fails") > 0);
  CHECK(double(b.mem.seen.size()) == b.stat("sm0.l1d.fill_requests") + b.stat("sm0.l1d.write_throughs") +
                                         b.stat("sm0.l1d.writebacks") + b.stat("sm0.l1d.bypasses"));
  CHECK(b.pool.outstanding() == 0);  // every fill and write-back payload came back
  CHECK(b.l1.idle());
}

TEST_CASE("l1d: parameters default to the GTX480 L1D and reject a bad geometry", "[l1d]") {
  ParamTable t;
  L1Params::declare(t);
  Config c(t);
  L1Params p = L1Params::from(c);
  CHECK(p.enabled);
  CHECK(size_t(p.sets) * p.ways * p.line == 16 * 1024);  // 16 KB (CIAO Table I)
  CHECK(p.line == 128);
  CHECK(p.ways == 4);
  CHECK(p.sector == 32);
  CHECK(p.replacement == L1Replacement::Lru);
  CHECK(p.hash == L1Hash::Xor);
  CHECK(p.hit_latency == 1);
  CHECK(p.mshr_entries == 32);
  CHECK(p.mshr_merges == 8);
  CHECK(p.miss_queue == 8);
  CHECK(p.global_write == L1WritePolicy::WriteThroughNoAllocate);
  CHECK(p.local_write == L1WritePolicy::WriteBackAllocate);
  CHECK(p.full_sector_mask() == 0xF);
  c.set("l1d.local_write", "write_back_no_allocate");
  CHECK(L1Params::from(c).local_write == L1WritePolicy::WriteBackNoAllocate);
  c.set("l1d.sector", "256");
  CHECK_THROWS_AS(L1Params::from(c), InputError);
  CHECK_THROWS_AS(c.set("l1d.replacement", "random"), InputError);
}

namespace {
// A memory below the L1 that takes one request every `gap` cycles (END_REQ
// withheld until then) and answers each `latency` cycles after taking it: the
// L1's miss queue backs up behind it.
struct SlowMemory : sc_core::sc_module {
  tlm_utils::simple_target_socket<SlowMemory> socket;
  sc_core::sc_time period;
  uint64_t gap, latency;
  std::vector<std::pair<uint64_t, uint32_t>> seen;  // (address, sector mask) in the order taken
  tlm::tlm_generic_payload* offered = nullptr;
  sc_core::sc_event offer;
  SC_HAS_PROCESS(SlowMemory);
  SlowMemory(sc_core::sc_module_name n, sc_core::sc_time period, uint64_t gap, uint64_t latency)
      : sc_core::sc_module(n), socket("socket"), period(period), gap(gap), latency(latency) {
    socket.register_nb_transport_fw(this, &SlowMemory::fw);
    SC_THREAD(serve);
  }
  tlm::tlm_sync_enum fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time&) {
    if (ph != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED;
    offered = &p;
    offer.notify(sc_core::SC_ZERO_TIME);
    return tlm::TLM_ACCEPTED;
  }
  void serve() {
    for (;;) {
      if (!offered) wait(offer);
      tlm::tlm_generic_payload* p = offered;
      offered = nullptr;
      seen.push_back({p->get_address(), gpu_ext(*p).sector_mask});
      wait(period * double(gap));
      tlm::tlm_phase ph = tlm::END_REQ;
      sc_core::sc_time t = sc_core::SC_ZERO_TIME;
      socket->nb_transport_bw(*p, ph, t);
      sc_core::sc_spawn([this, p] {
        wait(period * double(latency));
        p->set_response_status(tlm::TLM_OK_RESPONSE);
        tlm::tlm_phase r = tlm::BEGIN_RESP;
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        socket->nb_transport_bw(*p, r, d);
      });
    }
  }
};
}  // namespace

// Regression (histogram large on gtx480 deadlocked): a line's MSHR queued a
// second fill behind other misses, and a later merge queued a third; the
// second fill took the third's sectors along, the line completed, and the
// third, still in the miss queue, went below for a freed MSHR. Its answer
// then completed the entry's next owner early and underflowed its count.
TEST_CASE("l1d: a merge never leaves a fill in the miss queue for an MSHR that completes without it", "[l1d]") {
  StatsRegistry stats;
  PayloadPool pool;
  const sc_core::sc_time period(1, sc_core::SC_NS);
  L1Params p = linear_params();
  tb::TrafficInitiator lsu("lsu", period);
  L1DataCache l1("l1d", 0, p, period, stats, pool);
  SlowMemory mem("mem", period, 10, 30);
  lsu.socket.bind(l1.upstream);
  l1.downstream.bind(mem.socket);
  std::vector<std::string> errors;
  l1.on_run_error = [&](const std::string& m) { errors.push_back(m); };
  const uint64_t X = 0x10000, other = 0x20000;
  lsu.add(load(X, 0, 0x1));                    // allocates X's MSHR: first fill
  lsu.add(load(other, 1, 0x1));                // another miss behind it in the queue
  lsu.add(load(X, 2, 0x4));                    // merge after the first fill went: second fill queued
  lsu.add(load(X, 24, 0x2));                   // merge after the second went: third fill queued
  for (uint64_t i = 1; i <= 5; ++i) lsu.add(load(other + i * p.line, 24 + i, 0x1));  // five misses behind it
  lsu.add(load(X, 31, 0x8));                   // merge while the third waits: it rides along
  sc_core::sc_start();
  CHECK(errors.empty());
  REQUIRE(lsu.done.size() == 10);
  for (auto& d : lsu.done) CHECK(d.responded != UINT64_MAX);
  size_t fills_of_x = 0;
  uint32_t sectors_of_x = 0;
  for (auto& s : mem.seen)
    if (s.first == X) {
      ++fills_of_x;
      CHECK((sectors_of_x & s.second) == 0);  // no sector asked for twice
      sectors_of_x |= s.second;
    }
  CHECK(fills_of_x == 3);
  CHECK(sectors_of_x == 0xF);
  CHECK(l1.mshrs_in_use() == 0);
  CHECK(pool.outstanding() == 0);
  CHECK(l1.idle());
}

TEST_CASE("l1d: a fill that answers no outstanding fill request is a conservation fault", "[l1d]") {
  // The L1 must refuse to count a fill twice: run the same traffic with the
  // test-only fault that takes the 20th fill twice and see the check fire.
  setenv("WARPTLM_TEST_FAULT", "l1_duplicate_fill", 1);
  L1Params p = linear_params();
  Bench b(p, 9);
  unsetenv("WARPTLM_TEST_FAULT");
  std::vector<std::string> errors;
  b.l1.on_run_error = [&](const std::string& m) { errors.push_back(m); };
  for (uint64_t i = 0; i < 40; ++i) b.lsu.add(load(0x40000 + i * p.line, i * 3, 0xF));
  sc_core::sc_start();
  REQUIRE(!errors.empty());
  CHECK(errors.front().find("memory conservation broken in l1d") != std::string::npos);
  CHECK(errors.front().find("no fill outstanding") != std::string::npos);
}

namespace {
// A side store for the L1 (CIAO's shared-memory cache stands behind this interface): records what reaches it.
struct SideStore : L1SideStore {
  std::set<uint64_t> lines;
  std::vector<std::pair<uint64_t, uint16_t>> fills;
  std::vector<uint64_t> writes;
  bool holds(uint64_t a) override { return lines.count(a / 128) > 0; }
  bool read(uint64_t a) override { return holds(a); }
  void fill(uint64_t a, uint16_t w) override {
    lines.insert(a / 128);
    fills.push_back({a, w});
  }
  void written(uint64_t a) override { writes.push_back(a); }
  uint32_t access_latency() const override { return 2; }
};
}  // namespace

TEST_CASE("l1d: a redirected load migrates a line the L1 holds, fills the side store on a miss, then hits it (claims 8, 10)",
          "[l1d][ciao]") {
  L1Params p;
  p.hit_latency = 3;
  Bench b(p, 20);
  SideStore side;
  b.l1.set_side_store(&side);
  const uint64_t A = 0x1000, B = 0x2000;
  b.lsu.add(load(A, 0, 0xF, 5));  // an active warp brings A into the L1
  Request r = load(A, 50, 0xF, 7);  // an isolated warp reads A: it moves to the side store, nothing goes below
  r.redirect = true;
  b.lsu.add(r);
  Request m = load(B, 100, 0xF, 7);  // a miss of the isolated warp: the MSHR's fill goes to the side store
  m.redirect = true;
  b.lsu.add(m);
  Request h = load(B, 200, 0xF, 7);  // and then hits there
  h.redirect = true;
  b.lsu.add(h);
  sc_core::sc_start();
  REQUIRE(b.lsu.done.size() == 4);
  CHECK(b.stat("sm0.l1d.migrations") == 1);
  CHECK_FALSE(b.l1.holds(A));  // one copy: the L1's was invalidated
  CHECK(side.lines.count(A / 128));
  CHECK(b.done(1).responded == 50 + kIn + p.hit_latency + 2);  // the L1 tag check, then the side access
  REQUIRE(b.mem.seen.size() == 2);  // A once (the first fill) and B: the migration asked nothing below
  CHECK(b.mem.seen[1].addr == B);
  CHECK(b.stat("sm0.l1d.side_misses") == 1);
  CHECK_FALSE(b.l1.holds(B));  // the fill went to the side store, not the L1
  REQUIRE(side.fills.size() == 2);
  CHECK(side.fills[1] == std::make_pair(B, uint16_t(7)));
  CHECK(b.stat("sm0.l1d.side_hits") == 1);
  CHECK(b.done(3).responded == 200 + kIn + p.hit_latency + 2);
  CHECK(b.stat("sm0.l1d.requests") == b.stat("sm0.l1d.responses"));
  // the VTA's probe hears the side store's miss like an L1 miss
  CHECK(std::count(b.seen.misses.begin(), b.seen.misses.end(), std::make_pair(B, uint16_t(7))) == 1);
}

TEST_CASE("l1d: a store keeps the side store's copy current and a redirected store leaves no L1 copy", "[l1d][ciao]") {
  L1Params p;
  Bench b(p, 20);
  SideStore side;
  b.l1.set_side_store(&side);
  const uint64_t A = 0x3000, C = 0x4000;
  side.lines.insert(A / 128);
  b.lsu.add(store(A, 0, kGlobal));  // an active warp writes a line the side store holds
  b.lsu.add(load(C, 10));           // C into the L1
  Request s = store(C, 60, kGlobal);  // an isolated warp writes C: the L1 copy goes
  s.redirect = true;
  b.lsu.add(s);
  sc_core::sc_start();
  REQUIRE(b.lsu.done.size() == 3);
  REQUIRE(side.writes.size() == 1);
  CHECK(side.writes[0] == A);
  CHECK_FALSE(b.l1.holds(C));
  CHECK(b.stat("sm0.l1d.write_throughs") == 2);
}

// ---------------------------------------------------------------- redundant MSHR allocations (spec 004 sec. 4.2)

namespace {
struct Redundancy {
  StatsRegistry stats;
  MshrRedundancy r;
  explicit Redundancy(MshrRedundancyParams::Mode m, uint64_t window = 2000)
      : r(MshrRedundancyParams{m, window}, stats) {}
  double stat(const std::string& n) const { return stats.values().at(n); }
};
}  // namespace

TEST_CASE("mshr redundancy: sliding window on a constructed allocation stream", "[l1d][mshr]") {
  Redundancy t(MshrRedundancyParams::Mode::Sliding);
  const uint64_t L = 0x4000, M = 0x8000;
  CHECK_FALSE(t.r.allocated(0, L, 0));    // first allocation of L anywhere
  CHECK(t.r.allocated(1, L, 100));        // SM 0 allocated L 100 cycles ago
  CHECK(t.r.allocated(1, L, 200));        // SM 1's own allocation at 100 does not count; SM 0's at 0 does
  CHECK_FALSE(t.r.allocated(0, L, 2300)); // the other SM's latest (SM 1 at 200) is 2100 cycles back
  CHECK(t.r.allocated(2, L, 2301));       // SM 0 at 2300
  CHECK(t.r.allocated(0, L, 4301));       // SM 2 at 2301: exactly 2000 back is inside the window
  CHECK_FALSE(t.r.allocated(0, M, 4302)); // another line
  CHECK_FALSE(t.r.allocated(0, M, 4303)); // the same SM again
  CHECK(t.stat("mshr_redundancy.allocations") == 8);
  CHECK(t.stat("mshr_redundancy.redundant") == 4);
  CHECK(t.stat("mshr_redundancy.redundant_fraction") == Approx(0.5));
}

TEST_CASE("mshr redundancy: tumbling windows count only allocations earlier in the same window", "[l1d][mshr]") {
  Redundancy t(MshrRedundancyParams::Mode::Tumbling);
  const uint64_t L = 0x4000;
  CHECK_FALSE(t.r.allocated(0, L, 1900));
  CHECK_FALSE(t.r.allocated(1, L, 2100));  // 200 cycles apart but in the next window (sliding would count it)
  CHECK(t.r.allocated(0, L, 3999));        // SM 1 at 2100, same window [2000, 4000)
  CHECK_FALSE(t.r.allocated(1, L, 4000));  // a new window
  CHECK(t.stat("mshr_redundancy.redundant") == 1);
}

TEST_CASE("mshr redundancy: the window length is a parameter", "[l1d][mshr]") {
  Redundancy t(MshrRedundancyParams::Mode::Sliding, 50);
  CHECK_FALSE(t.r.allocated(0, 0x100, 0));
  CHECK_FALSE(t.r.allocated(1, 0x100, 51));
  CHECK(t.r.allocated(0, 0x100, 101));
}

TEST_CASE("mshr redundancy: an L1 reports each MSHR allocation and merge with its cycle", "[l1d][mshr]") {
  L1Params p;
  p.hit_latency = 2;
  Bench b(p, 20);
  MshrRedundancy r(MshrRedundancyParams{MshrRedundancyParams::Mode::Sliding, 2000}, b.stats);
  b.l1.add_observer(r.port(0));
  b.lsu.add(load(0x3000, 0, 0xF, 1));
  b.lsu.add(load(0x3000, 0, 0xF, 2));  // merges
  b.lsu.add(load(0x5000, 5, 0xF, 3));
  b.lsu.add(load(0x3000, 200, 0xF, 4));  // a hit after the fill
  sc_core::sc_start();
  CHECK(b.stat("mshr_redundancy.allocations") == 2);
  CHECK(b.stat("mshr_redundancy.merges") == b.stat("sm0.l1d.mshr_merges"));
  CHECK(b.stat("mshr_redundancy.merges") == 1);
  CHECK(b.stat("mshr_redundancy.requests_per_entry") == Approx(1.5));
  CHECK(b.stat("mshr_redundancy.redundant") == 0);  // one SM: nothing is redundant
}
