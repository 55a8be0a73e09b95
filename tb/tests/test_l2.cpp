// L2 slice: hit after fill, write-back of a dirty victim, write-allocate with
// sector granularity, MSHR merging, reservation fails (END_REQ withheld), the
// set index taken above the partition interleave, atomics at L2, and
// conservation. Each test case: one TrafficInitiator -> L2Slice ->
// FixedLatencySink (the DRAM channel), all on one clock; the last one runs
// two partitions with real DRAM channels alone and in shared clock domains.
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "common/clock_domain.hpp"
#include "common/errors.hpp"
#include "dram/dram_channel.hpp"
#include "interconnect/partition_map.hpp"
#include "l2/l2_slice.hpp"
#include "tlm_tb.hpp"

using namespace warptlm;
using tb::FixedLatencySink;
using tb::Request;
using tb::TrafficInitiator;

namespace {

const sc_core::sc_time kPeriod(1, sc_core::SC_NS);
// A registered input is taken at the receiver's first edge after it arrives
// (docs/determinism.md): a request sent at cycle c is looked up (and its END_REQ sent
// on the backward path) at c + kIn; a fill the DRAM sends at t is installed at t + kIn.
constexpr uint64_t kIn = 1;

L2Params small(uint32_t sets, uint32_t ways, uint32_t latency = 10) {
  L2Params p;
  p.line = 128;
  p.sector = 32;
  p.ways = ways;
  p.slice_size = sets * ways * p.line;
  p.latency = latency;
  p.mshr_entries = 8;
  p.mshr_merges = 4;
  p.miss_queue = 4;
  return p;
}

struct Rig {
  StatsRegistry stats;
  PayloadPool pool;
  L2Params p;
  uint64_t S;  // DRAM (sink) latency
  std::unique_ptr<TrafficInitiator> src;
  std::unique_ptr<L2Slice> l2;
  std::unique_ptr<FixedLatencySink> dram;

  Rig(const L2Params& params, uint64_t dram_latency, const PartitionMap& map = PartitionMap{256, 1, false})
      : p(params), S(dram_latency) {
    src = std::make_unique<TrafficInitiator>("icn", kPeriod);
    l2 = std::make_unique<L2Slice>("l2", 0, p, map, kPeriod, stats, pool);
    dram = std::make_unique<FixedLatencySink>("dram", kPeriod, S);
    src->socket.bind(l2->up);
    l2->down.bind(dram->socket);
  }
  double counter(const std::string& n) const { return stats.values().at(n); }
  const tb::Completed& done(size_t k) const { return src->done.at(k); }
};

Request load(uint64_t cycle, uint64_t addr, uint32_t mask = 0xF) {
  Request r;
  r.cycle = cycle;
  r.addr = addr;
  r.sector_mask = mask;
  r.bytes = 32 * uint32_t(__builtin_popcount(mask));
  return r;
}
Request store(uint64_t cycle, uint64_t addr, uint32_t mask, uint32_t bytes) {
  Request r = load(cycle, addr, mask);
  r.write = true;
  r.kind = MemKind::Store;
  r.bytes = bytes;
  return r;
}

}  // namespace

TEST_CASE("l2: a read misses and fetches then hits after the fill") {
  Rig rig(small(4, 2, 10), 20);
  rig.src->add(load(0, 0x1000));
  rig.src->add(load(100, 0x1000));
  sc_core::sc_start();
  auto& seen = rig.dram->seen;
  REQUIRE(seen.size() == 1);  // only the miss went to DRAM
  CHECK(seen[0].addr == 0x1000);
  CHECK(!seen[0].write);
  CHECK(seen[0].sector_mask == 0xF);
  // lookup at kIn, fetch leaves the miss queue the next cycle, fill arrives after S and is
  // taken kIn later, respond the cycle after
  CHECK(seen[0].cycle == kIn + 1);
  CHECK(rig.done(0).responded == kIn + 1 + rig.S + kIn + 1);
  CHECK(rig.done(1).responded == 100 + kIn + rig.p.latency);
  CHECK(rig.counter("part0.l2.misses") == 1);
  CHECK(rig.counter("part0.l2.hits") == 1);
  CHECK(rig.counter("l2.hits") == 1);  // summed over slices
  CHECK(rig.counter("l2.misses") == 1);
  CHECK(rig.counter("l2.requests") == 2);
  CHECK(rig.counter("l2.responses") == 2);
}

TEST_CASE("l2: a dirty victim is written back on eviction") {
  Rig rig(small(1, 2, 10), 20);  // one set of two ways
  const uint64_t A = 0, B = 128, C = 256;
  rig.src->add(store(0, A, 0xF, 128));  // whole-line stores: allocate without fetching
  rig.src->add(store(1, B, 0x3, 64));
  rig.src->add(store(2, C, 0xF, 128));  // evicts A, the least recently used
  rig.src->add(load(50, B, 0x4));       // sector 2 of B was never written: a sector miss, fetched
  sc_core::sc_start();
  auto& seen = rig.dram->seen;
  REQUIRE(seen.size() == 2);
  CHECK(seen[0].write);
  CHECK(seen[0].addr == A);
  CHECK(seen[0].sector_mask == 0xF);
  CHECK(seen[0].cycle == 2 + kIn + 1);  // C looked up at 2 + kIn, the write-back leaves the next cycle
  CHECK(!seen[1].write);  // B's missing sector, no eviction needed (B is resident)
  CHECK(seen[1].addr == B);
  CHECK(seen[1].sector_mask == 0x4);
  CHECK(rig.counter("l2.writebacks") == 1);
  CHECK(rig.counter("l2.misses") == 4);
  for (size_t k = 0; k < 3; ++k) CHECK(rig.done(k).responded == k + kIn + rig.p.latency);  // each looked up kIn after sent
  CHECK(rig.pool.outstanding() == 0);  // the write-back's payload came back to the pool
}

TEST_CASE("l2: write-allocate fetches only sectors that a store does not fully write") {
  Rig rig(small(4, 2, 10), 20);
  const uint64_t X = 0x2000, Y = 0x3000;
  rig.src->add(store(0, X, 0x1, 4));     // 4 bytes of sector 0: fetch sector 0 first
  rig.src->add(store(1, Y + 32, 0x2, 32));  // all of sector 1: no fetch
  rig.src->add(load(100, X, 0x1));       // hit: filled and written
  rig.src->add(load(101, Y + 32, 0x2));  // hit: written whole
  rig.src->add(load(102, Y, 0x1));       // miss: sector 0 of Y was never fetched
  sc_core::sc_start();
  auto& seen = rig.dram->seen;
  REQUIRE(seen.size() == 2);
  CHECK(seen[0].addr == X);
  CHECK(seen[0].sector_mask == 0x1);
  CHECK(!seen[0].write);
  CHECK(seen[1].addr == Y);
  CHECK(seen[1].sector_mask == 0x1);
  CHECK(seen[1].cycle == 102 + kIn + 1);
  CHECK(rig.done(0).responded == 0 + kIn + 1 + rig.S + kIn + 1);  // the partial store waits for its fill
  CHECK(rig.done(1).responded == 1 + kIn + rig.p.latency);  // the full-sector store does not
  CHECK(rig.done(2).responded == 100 + kIn + rig.p.latency);
  CHECK(rig.done(3).responded == 101 + kIn + rig.p.latency);
  CHECK(rig.counter("l2.hits") == 2);
  CHECK(rig.counter("l2.misses") == 3);
  CHECK(rig.counter("l2.fetches") == 2);
}

TEST_CASE("l2: misses to a line being fetched merge into its MSHR") {
  Rig rig(small(4, 2, 10), 20);
  rig.src->add(load(0, 0x4000));
  rig.src->add(load(1, 0x4000));
  rig.src->add(load(2, 0x4000 + 64, 0x4));
  sc_core::sc_start();
  REQUIRE(rig.dram->seen.size() == 1);
  const uint64_t fill = kIn + 1 + rig.S + kIn;  // fetch leaves at kIn + 1; the fill is taken kIn after it arrives
  // all three answer after the one fill, one response per cycle
  CHECK(rig.done(0).responded == fill + 1);
  CHECK(rig.done(1).responded == fill + 2);
  CHECK(rig.done(2).responded == fill + 3);
  CHECK(rig.counter("l2.mshr_merges") == 2);
  CHECK(rig.counter("l2.misses") == 3);
  CHECK(rig.counter("l2.reservation_fails") == 0);
}

TEST_CASE("l2: a miss with every MSHR busy is held back until a fill frees one") {
  L2Params p = small(4, 2, 10);
  p.mshr_entries = 2;
  Rig rig(p, 20);
  for (uint64_t i = 0; i < 5; ++i) rig.src->add(load(i, i * 128));  // five lines, one sent a cycle
  sc_core::sc_start();
  // Each is accepted into the two-entry input buffer when sent and looked up kIn later.
  // The third finds both MSHRs busy and waits at the head; the fourth joins the buffer
  // behind it; the fifth finds the buffer full and gets END_REQ only when the third's
  // lookup (once the first fill frees an MSHR) frees its slot, the cycle after.
  for (size_t i = 0; i < 4; ++i) CHECK(rig.done(i).accepted == i);
  const uint64_t first_fill = 0 + kIn + 1 + rig.S + kIn;  // installed kIn after it arrives
  CHECK(rig.done(2).responded == first_fill + 1 + rig.S + kIn + 1);
  CHECK(rig.done(4).accepted == first_fill + 1);
  // the fourth takes the second fill's MSHR (one cycle after the first); the fifth then
  // finds both busy again
  CHECK(rig.counter("l2.reservation_fails") == 2);
  CHECK(rig.counter("l2.requests") == 5);
  CHECK(rig.counter("l2.responses") == 5);
  CHECK(rig.l2->mshrs_in_use() == 0);
}

TEST_CASE("l2: a merge beyond mshr_merges is held back until the fill") {
  L2Params p = small(4, 2, 10);
  p.mshr_merges = 2;
  Rig rig(p, 20);
  rig.src->add(load(0, 0x800));
  rig.src->add(load(1, 0x800));
  rig.src->add(load(2, 0x800));  // the entry holds 2: this one waits and then hits
  sc_core::sc_start();
  const uint64_t fill = kIn + 1 + rig.S + kIn;  // fetch leaves at kIn + 1; the fill is taken kIn after it arrives
  // the third is accepted into the input buffer when sent, is refused the merge at the
  // head, and is looked up again when the fill is installed
  CHECK(rig.done(2).accepted == 2);
  CHECK(rig.done(2).responded == fill + rig.p.latency);
  CHECK(rig.counter("l2.reservation_fails") == 1);
  CHECK(rig.counter("l2.hits") == 1);
  CHECK(rig.dram->seen.size() == 1);
}

TEST_CASE("l2: the set index uses the address bits above the partition interleave") {
  const PartitionMap map{256, 4, false};
  const L2Params p = small(8, 1, 10);  // direct-mapped, 8 sets
  Rig rig(p, 20, map);
  const uint64_t A = 0, B = 4 * 256;  // both in partition 0; they differ only above the interleave bits
  REQUIRE(map.partition_of(A) == 0);
  REQUIRE(map.partition_of(B) == 0);
  auto expected_set = [&](uint64_t a) {
    return ((a / map.interleave) / map.partitions * map.interleave + a % map.interleave) / p.line % p.sets();
  };
  CHECK(rig.l2->set_index(A) == expected_set(A));
  CHECK(rig.l2->set_index(B) == expected_set(B));
  CHECK(rig.l2->set_index(A) != rig.l2->set_index(B));
  CHECK((A / p.line) % p.sets() == (B / p.line) % p.sets());  // a global-address index would collide
  rig.src->add(load(0, A));
  rig.src->add(load(1, B));
  rig.src->add(load(100, A));  // still there: B went to another set
  sc_core::sc_start();
  CHECK(rig.counter("l2.hits") == 1);
  CHECK(rig.counter("l2.misses") == 2);
  CHECK(rig.dram->seen.size() == 2);
}

TEST_CASE("l2: atomics are read-modify-writes at L2 and dirty the line") {
  Rig rig(small(1, 1, 10), 20);  // a single line
  Request at = load(0, 0x100, 0x2);
  at.kind = MemKind::Atomic;
  at.bytes = 4;
  rig.src->add(at);
  rig.src->add(load(100, 0x100 + 32, 0x2));  // hit
  rig.src->add(load(200, 0x900, 0x1));       // evicts the atomically updated line
  sc_core::sc_start();
  auto& seen = rig.dram->seen;
  REQUIRE(seen.size() == 3);
  CHECK(!seen[0].write);  // the atomic's miss fetches the sector
  CHECK(seen[0].sector_mask == 0x2);
  CHECK(rig.done(0).responded == kIn + 1 + rig.S + kIn + 1);
  CHECK(rig.done(1).responded == 100 + kIn + rig.p.latency);
  CHECK(seen[1].write);  // write-back of the dirtied sector
  CHECK(seen[1].addr == 0x100);
  CHECK(seen[1].sector_mask == 0x2);
  CHECK(!seen[2].write);
  CHECK(seen[2].addr == 0x900);
  CHECK(rig.counter("l2.writebacks") == 1);
}

TEST_CASE("l2: every request gets exactly one response") {
  L2Params p = small(2, 2, 5);
  p.mshr_entries = 2;
  p.mshr_merges = 2;
  p.miss_queue = 2;
  Rig rig(p, 30);
  uint64_t n = 0;
  for (uint32_t k = 0; k < 300; ++k) {
    const uint64_t addr = (uint64_t(k) * 2654435761u) % (16 * 128);
    Request r;
    switch (k % 4) {
      case 0: r = load(k, addr, 1u << (k % 4)); break;
      case 1: r = store(k, addr, 0xF, 128); break;
      case 2: r = store(k, addr, 0x1, 8); break;
      default: r = load(k, addr, 0xF); r.kind = MemKind::Atomic; break;
    }
    rig.src->add(r);
    ++n;
  }
  sc_core::sc_start();
  REQUIRE(rig.src->done.size() == n);
  for (auto& d : rig.src->done) CHECK(d.responded != UINT64_MAX);
  CHECK(rig.counter("l2.requests") == n);
  CHECK(rig.counter("l2.responses") == n);
  CHECK(rig.counter("l2.hits") + rig.counter("l2.misses") == n);
  CHECK(rig.dram->seen.size() == rig.counter("l2.fetches") + rig.counter("l2.writebacks"));
  CHECK(rig.counter("l2.reservation_fails") > 0);
  CHECK(rig.pool.outstanding() == 0);
  CHECK(rig.l2->mshrs_in_use() == 0);
}

namespace {
// One miss of a whole line and one of sectors 0 and 2, with dram_fetch line or sector.
void check_dram_fetch(bool per_sector) {
  L2Params p = small(4, 2, 10);
  p.fetch_per_sector = per_sector;
  Rig rig(p, 20);
  rig.src->add(load(0, 0x1000));         // a whole line: 4 sectors
  rig.src->add(load(200, 0x2000, 0x5));  // sectors 0 and 2
  sc_core::sc_start();
  auto& seen = rig.dram->seen;
  CHECK(rig.counter("l2.responses") == 2);
  if (!per_sector) {
    REQUIRE(seen.size() == 2);
    CHECK(seen[0].sector_mask == 0xF);
    CHECK(seen[1].sector_mask == 0x5);
    CHECK(rig.done(0).responded == kIn + 1 + rig.S + kIn + 1);
    CHECK(rig.counter("l2.fetches") == 2);
    return;
  }
  REQUIRE(seen.size() == 6);
  for (uint32_t s = 0; s < 4; ++s) {  // lowest sector first, on consecutive cycles
    CHECK(seen[s].addr == 0x1000);
    CHECK(seen[s].sector_mask == 1u << s);
    CHECK(seen[s].cycle == kIn + 1 + s);
  }
  CHECK(seen[4].sector_mask == 0x1);
  CHECK(seen[5].sector_mask == 0x4);
  // the line answers when its last sector is back
  CHECK(rig.done(0).responded == kIn + 4 + rig.S + kIn + 1);
  CHECK(rig.done(1).responded == 200 + kIn + 2 + rig.S + kIn + 1);
  CHECK(rig.counter("l2.fetches") == 6);
}

// Copies of bytes 0x1010..0x104f (sectors 0..2 of line 0x1000) and
// 0x1080..0x109f (sector 0 of line 0x1080), then a read of those sectors and a
// read needing sector 1 of 0x1080 too.
void check_preload(bool on) {
  L2Params p = small(4, 2, 10);
  p.preload_copies = on;
  Rig rig(p, 20);
  CHECK(rig.l2->preload(0x1010, 0x40) == on);
  CHECK(rig.l2->preload(0x1080, 0x20) == on);
  CHECK(rig.l2->valid(0x1000) == on);
  CHECK(rig.l2->valid(0x1040) == on);
  CHECK(!rig.l2->valid(0x1060));
  CHECK(rig.l2->valid(0x1080) == on);
  CHECK(!rig.l2->valid(0x10a0));
  rig.src->add(load(0, 0x1000, 0x7));   // preloaded sectors: a hit
  rig.src->add(load(50, 0x1080, 0x3));  // sector 1 was not copied: a sector miss
  sc_core::sc_start();
  CHECK(rig.counter("l2.hits") == (on ? 1 : 0));
  CHECK(rig.counter("l2.misses") == (on ? 1 : 2));
  if (!on) {
    CHECK(rig.stats.values().count("l2.preloaded_sectors") == 0);
    return;
  }
  CHECK(rig.done(0).responded == kIn + rig.p.latency);
  REQUIRE(rig.dram->seen.size() == 1);
  CHECK(rig.dram->seen[0].sector_mask == 0x2);  // only the missing sector is fetched
  CHECK(rig.counter("l2.preloaded_sectors") == 4);
}
}  // namespace

TEST_CASE("l2: with dram_fetch line a miss sends one DRAM read carrying all its missing sectors") { check_dram_fetch(false); }
TEST_CASE("l2: with dram_fetch sector a miss sends one DRAM read per missing sector, one per cycle") { check_dram_fetch(true); }
TEST_CASE("l2: without preload_copies a copy leaves the L2 as it was") { check_preload(false); }
TEST_CASE("l2: a preloaded copy leaves its sectors valid and clean, so its reads hit") { check_preload(true); }

TEST_CASE("l2: the ROP stage delays hits and misses alike before the tag array") {
  L2Params p = small(4, 2, 10);
  p.rop_latency = 30;
  Rig rig(p, 20);
  rig.src->add(load(0, 0x1000));    // a miss
  rig.src->add(load(100, 0x1000));  // then a hit
  sc_core::sc_start();
  REQUIRE(rig.dram->seen.size() == 1);
  // It enters the ROP stage at kIn and reaches the tag array rop_latency later; the fetch
  // leaves the cycle after the lookup, the fill is taken kIn after the DRAM answers, and
  // the response leaves the cycle after.
  const uint64_t lookup0 = kIn + p.rop_latency;
  CHECK(rig.dram->seen[0].cycle == lookup0 + 1);
  CHECK(rig.done(0).responded == lookup0 + 1 + rig.S + kIn + 1);
  // The hit pays the stage too, then l2.latency.
  CHECK(rig.done(1).responded == 100 + kIn + p.rop_latency + p.latency);
  CHECK(rig.counter("part0.l2.hits") == 1);
  CHECK(rig.counter("part0.l2.misses") == 1);
}

TEST_CASE("l2: with a data port a request holds the arrays one cycle per port's worth of sectors") {
  L2Params p = small(16, 4, 10);
  p.data_port = 32;  // one 32 B sector a cycle
  Rig rig(p, 20);
  rig.src->add(store(0, 0x000, 0xF, 128));  // whole-line stores: no fetch, they answer like hits
  rig.src->add(store(0, 0x080, 0xF, 128));
  rig.src->add(load(0, 0x000, 0x1));        // one sector, a hit on the first line
  sc_core::sc_start();
  REQUIRE(rig.dram->seen.empty());
  // Lookups at kIn (4 sectors: holds the arrays 4 cycles), kIn + 4 (4 more), kIn + 8 (1);
  // each answers l2.latency after its last cycle in the arrays.
  CHECK(rig.done(0).responded == kIn + 3 + p.latency);
  CHECK(rig.done(1).responded == kIn + 4 + 3 + p.latency);
  CHECK(rig.done(2).responded == kIn + 8 + p.latency);
  CHECK(rig.counter("part0.l2.hits") == 1);
}

TEST_CASE("l2: a request enters the ROP stage only while the queue past it has room for a line") {
  L2Params p = small(16, 4, 10);
  p.rop_latency = 10;
  p.data_port = 32;     // each whole-line store holds the arrays 4 cycles
  p.input_queue = 4;    // one line's sectors may wait past the ROP stage
  Rig rig(p, 20);
  const int n = 12;
  for (int k = 0; k < n; ++k) rig.src->add(store(0, uint64_t(k) * 128, 0xF, 128));
  sc_core::sc_start();
  REQUIRE(rig.src->done.size() == size_t(n));
  // Requests 0..10 enter the stage one a cycle from kIn, before any of them is past it
  // (request 10 in the cycle request 0 leaves it and takes the arrays). From then the
  // queue past the stage holds a waiting line until request 10 takes the arrays, so the
  // stage takes nothing more: request 11 enters only in that cycle.
  auto lookup = [&](int k) { return kIn + p.rop_latency + 4 * uint64_t(k); };
  for (int k = 0; k <= 10; ++k) {
    INFO("request " << k);
    CHECK(rig.done(size_t(k)).responded == lookup(k) + 3 + p.latency);
  }
  const uint64_t enters11 = lookup(10);
  CHECK(rig.done(11).responded == enters11 + p.rop_latency + 3 + p.latency);
  CHECK(rig.counter("part0.l2.requests") == double(n));
  CHECK(rig.counter("part0.l2.responses") == double(n));
}

TEST_CASE("l2: an input queue smaller than a line is refused with a ROP stage") {
  ParamTable t;
  L2Params::declare(t);
  Config c(t);
  c.set("l2.input_queue", "2");  // fewer sectors than a 128 B line's 4
  CHECK(L2Params::from(c).input_queue == 2);  // harmless without a ROP stage
  c.set("l2.rop_latency", "120");
  try {
    L2Params::from(c);
    FAIL("accepted");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("l2.input_queue") != std::string::npos);
  }
  c.set("l2.input_queue", "4");
  CHECK(L2Params::from(c).rop_latency == 120);
}

TEST_CASE("l2: with rop_clock core the ROP stage lasts rop_latency core cycles, in whole L2 cycles") {
  ParamTable t;
  L2Params::declare(t);
  Config c(t);
  c.set("l2.rop_latency", "120");
  c.set("l2.clock_mhz", "700");
  L2Params own = L2Params::from(c);
  own.count_in_l2_cycles(1050);
  CHECK(own.rop_latency == 120);  // l2 (the default): the slice's own cycles, whatever the core clock
  c.set("l2.rop_clock", "core");
  L2Params same = L2Params::from(c), faster = same, odd = same;
  same.count_in_l2_cycles(700);
  CHECK(same.rop_latency == 120);  // core and L2 at one clock: the same stage
  faster.count_in_l2_cycles(1050);
  CHECK(faster.rop_latency == 80);  // 120 cycles at 1050 MHz last 80 at 700 MHz
  odd.count_in_l2_cycles(1000);
  CHECK(odd.rop_latency == 84);  // 120 at 1000 MHz are 84 at 700: whole cycles, never shorter
  CHECK_FALSE(odd.rop_in_core_cycles);  // converted once
  odd.count_in_l2_cycles(500);
  CHECK(odd.rop_latency == 84);
}

// ------------------------------------------------------------ shared clock domains

namespace {

// Two memory partitions as gtx480 builds them: per partition two L2 slices
// (sub-partitions, each fed by its own traffic source) sharing one DRAM
// channel, the slices on a 700 MHz clock and the channels on 924 MHz. In the
// platform the slices share one clock domain and the channels another
// (common/clock_domain.hpp); built alone, each block runs its own process.
struct Partitions {
  StatsRegistry stats;
  PayloadPool pool;
  std::vector<std::unique_ptr<TrafficInitiator>> src;
  std::vector<std::unique_ptr<L2Slice>> l2;
  std::vector<std::unique_ptr<DramChannel>> dram;
  std::unique_ptr<ClockDomain> l2_clock, dram_clock;

  Partitions(const std::string& tag, bool shared, uint32_t dram_latency) {
    const sc_core::sc_time l2_period(1e6 / 700, sc_core::SC_PS);
    DramParams dp;
    dp.latency = dram_latency;
    const sc_core::sc_time dram_period(dp.period_ps(), sc_core::SC_PS);
    if (shared) {
      l2_clock = std::make_unique<ClockDomain>((tag + "_l2_clock").c_str(), l2_period);
      dram_clock = std::make_unique<ClockDomain>((tag + "_dram_clock").c_str(), dram_period);
    }
    L2Params p = small(4, 2, 10);
    p.mshr_entries = 4;
    p.miss_queue = 2;
    const PartitionMap map{256, 2, false, 2};
    for (uint32_t q = 0; q < 2; ++q) {
      dram.push_back(std::make_unique<DramChannel>(("dram_" + tag + std::to_string(q)).c_str(), q, dp, dram_period, stats));
      if (shared) dram.back()->join_domain(*dram_clock);
      for (uint32_t sub = 0; sub < 2; ++sub) {
        const std::string n = tag + std::to_string(q) + "_" + std::to_string(sub);
        src.push_back(std::make_unique<TrafficInitiator>(("icn_" + n).c_str(), l2_period));
        l2.push_back(std::make_unique<L2Slice>(("l2_" + n).c_str(), q, p, map, l2_period, stats, pool, int(sub)));
        src.back()->socket.bind(l2.back()->up);
        l2.back()->down.bind(dram.back()->socket);
        if (shared) l2.back()->join_domain(*l2_clock);
      }
    }
    // A mix that hits, misses, merges, writes back dirty victims and finds the MSHRs full;
    // the two slices of a channel send to it in the same instants.
    uint64_t x = 12345;
    for (uint32_t k = 0; k < 4; ++k)
      for (uint64_t c = 0; c < 300; ++c) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        const uint64_t addr = ((x >> 33) % 48) * 128 + (uint64_t(k) << 20);
        src[k]->add((x >> 20) % 3 ? load(c, addr, 0xF) : store(c, addr, 0x3, 64));
      }
  }
};

std::vector<uint64_t> responses(const Partitions& r) {
  std::vector<uint64_t> v;
  for (auto& s : r.src)
    for (const auto& c : s->done) v.insert(v.end(), {c.accepted, c.responded});
  return v;
}

}  // namespace

TEST_CASE("l2 and dram: slices and channels in shared clock domains answer as they did alone") {
  // All three read at the same simulated time (one sc_start): dram.bw_util is read against it.
  Partitions alone("alone", false, 20), shared("shared", true, 20), slower("slower", true, 21);
  // A domain of another period is refused.
  ClockDomain odd("odd_clock", sc_core::sc_time(1, sc_core::SC_NS));
  CHECK_THROWS(shared.l2[0]->join_domain(odd));
  sc_core::sc_start();
  const auto a = responses(alone), s = responses(shared), d = responses(slower);
  REQUIRE(a.size() == 4 * 2 * 300);
  CHECK(std::count(a.begin(), a.end(), UINT64_MAX) == 0);  // every request accepted and answered
  // The shared domains took the edges (the blocks' own processes never ran).
  CHECK(shared.l2_clock->edges() > 0);
  CHECK(shared.dram_clock->edges() > 0);
  CHECK(s == a);
  CHECK(shared.stats.values() == alone.stats.values());
  // The comparison sees a one-cycle change below (a DRAM latency one cycle longer).
  CHECK(d != a);
  CHECK(slower.stats.values() != alone.stats.values());
  // The traffic reaches what the timing depends on: hits, write-backs, reservation fails.
  const auto v = alone.stats.values();
  CHECK(v.at("l2.reservation_fails") > 0);
  CHECK(v.at("l2.writebacks") > 0);
  CHECK(v.at("l2.hits") > 0);
}
