// Banked shared memory: conflict-degree arithmetic (pure functions) against
// hand-derived answers and the elastic-pipeline seed's Transpose figure, and
// the timing module through its TLM-2.0 socket (occupancy of the bank array,
// back-pressure, response cycles, conservation, stats).
#include <catch2/catch.hpp>

#include <array>
#include <map>
#include <random>
#include <numeric>
#include <vector>

#include "common/config.hpp"
#include "common/stats.hpp"
#include "smem/bank_conflict.hpp"
#include "smem/shared_memory.hpp"
#include "tlm_tb.hpp"

using namespace warptlm;

namespace {

constexpr uint32_t kAll = 0xFFFFFFFFu;

SharedMemoryParams make(uint32_t banks, uint32_t parts = 1, SmemBroadcast b = SmemBroadcast::Full,
                        SmemMapping m = SmemMapping::Linear) {
  SharedMemoryParams p;
  p.banks = banks;
  p.warp_parts = parts;
  p.broadcast = b;
  p.mapping = m;
  return p;
}

// Lane l reads byte offset base + l * stride_bytes.
std::array<uint64_t, 32> strided(uint64_t stride_bytes, uint64_t base = 0) {
  std::array<uint64_t, 32> a{};
  for (uint32_t l = 0; l < 32; ++l) a[l] = base + l * stride_bytes;
  return a;
}

// The seed-001 Transpose kernel's tile accesses (CUDA SDK, 16x16 tile of
// 4-byte words, padding removed): thread (tx, ty) of a 16x16 block writes
// block[ty][tx] and reads block[tx][ty]; warp w holds threads 32w..32w+31
// with tx = t % 16, ty = t / 16.
std::array<uint64_t, 32> transpose_lanes(uint32_t warp, bool read) {
  std::array<uint64_t, 32> a{};
  for (uint32_t l = 0; l < 32; ++l) {
    const uint32_t t = warp * 32 + l, tx = t % 16, ty = t / 16;
    a[l] = 4ull * (read ? tx * 16 + ty : ty * 16 + tx);
  }
  return a;
}

std::vector<uint64_t> vec(const std::array<uint64_t, 32>& a) { return std::vector<uint64_t>(a.begin(), a.end()); }

double stat(const StatsRegistry& s, const std::string& name) {
  auto v = s.values();
  auto it = v.find(name);
  REQUIRE(it != v.end());
  return it->second;
}

}  // namespace

// ------------------------------------------------------------ pure functions

// The degree by its definition, word by word: per bank the distinct words asked for (full broadcast), every
// lane access (none), or with limited broadcast also one cycle per word more than one lane access wants.
uint32_t degree_by_definition(const uint64_t* lane_addr, uint32_t mask, unsigned bytes, const SharedMemoryParams& p) {
  std::map<uint32_t, std::map<uint64_t, uint32_t>> wanted;  // bank -> word -> lane accesses
  for (uint32_t l = 0; l < 32; ++l) {
    if (!(mask >> l & 1)) continue;
    for (uint64_t w = lane_addr[l] / p.bank_width; w <= (lane_addr[l] + bytes - 1) / p.bank_width; ++w)
      ++wanted[smem_bank_of(w * p.bank_width, p)][w];
  }
  uint32_t d = 1, multicast = 0;
  for (auto& [bank, words] : wanted) {
    uint32_t accesses = 0;
    for (auto& [w, n] : words) {
      accesses += n;
      multicast += n > 1;
    }
    d = std::max(d, p.broadcast == SmemBroadcast::None ? accesses : uint32_t(words.size()));
  }
  return p.broadcast == SmemBroadcast::Limited ? std::max(d, multicast) : d;
}

TEST_CASE("smem: the conflict degree equals its definition on random accesses") {
  std::mt19937 rng(20261129);
  const SmemBroadcast casts[] = {SmemBroadcast::Full, SmemBroadcast::Limited, SmemBroadcast::None};
  size_t conflicted = 0;
  for (int i = 0; i < 20000; ++i) {
    SharedMemoryParams p = make(8u << (rng() % 4), 1, casts[rng() % 3],
                                rng() % 4 ? SmemMapping::Linear : SmemMapping::Xor);
    p.bank_width = rng() % 3 ? 4 : 8;
    const unsigned bytes = 1u << (rng() % 5);              // 1 to 16 bytes a lane
    const uint64_t span = 1ull << (4 + rng() % 8);         // a narrow span makes conflicts and shared words
    const bool misaligned = rng() % 8 == 0;
    std::array<uint64_t, 32> a{};
    for (auto& x : a) x = (rng() % span) / bytes * bytes + (misaligned ? rng() % 4 : 0);
    const uint32_t mask = rng() % 4 ? kAll : uint32_t(rng());
    const uint32_t got = conflict_degree(a.data(), mask, bytes, p);
    INFO("case " << i << ": " << p.banks << " banks of " << p.bank_width << " B, " << bytes << " B lanes, broadcast "
                 << int(p.broadcast) << ", mapping " << int(p.mapping) << ", mask " << mask);
    REQUIRE(got == degree_by_definition(a.data(), mask, bytes, p));
    conflicted += got > 1;
  }
  CHECK(conflicted > 5000);  // the sample holds conflicts, not only the conflict-free case
}

TEST_CASE("smem: stride-1 4-byte accesses are conflict-free on 32 banks") {
  const SharedMemoryParams p = make(32);
  const auto a = strided(4);
  for (uint32_t l = 0; l < 32; ++l) CHECK(smem_bank_of(a[l], p) == l);
  CHECK(conflict_degree(a.data(), kAll, 4, p) == 1);
  CHECK(service_cycles(a.data(), kAll, 4, p) == 1);
}

TEST_CASE("smem: a stride of s words on 32 banks gives degree gcd of s and 32") {
  const SharedMemoryParams p = make(32);
  // 32 lanes at word stride s land on 32 / gcd(s, 32) banks, gcd(s, 32) distinct words each.
  CHECK(conflict_degree(strided(2 * 4).data(), kAll, 4, p) == 2);
  CHECK(conflict_degree(strided(32 * 4).data(), kAll, 4, p) == 32);
  for (uint32_t s : {1u, 2u, 3u, 4u, 5u, 8u, 12u, 16u, 17u, 32u, 64u})
    CHECK(conflict_degree(strided(s * 4).data(), kAll, 4, p) == std::gcd(s, p.banks));
}

TEST_CASE("smem: stride-8 words on 8 banks gives degree 8 in every 8-lane part") {
  const SharedMemoryParams p = make(8, 4);
  const auto a = strided(8 * 4);
  const uint32_t lanes = p.lanes_per_part();
  CHECK(lanes == 8);
  // every lane of a part hits bank 0, each a different word
  CHECK(conflict_degree(a.data(), 0xFFu, 4, p) == lanes);
  uint32_t parts[4] = {};
  CHECK(service_cycles(a.data(), kAll, 4, p, parts) == p.warp_parts * lanes);
  for (uint32_t d : parts) CHECK(d == lanes);
}

TEST_CASE("smem: one word read by every lane under full limited and none broadcast") {
  std::array<uint64_t, 32> same{};
  same.fill(64);
  CHECK(conflict_degree(same.data(), kAll, 4, make(32, 1, SmemBroadcast::Full)) == 1);
  CHECK(conflict_degree(same.data(), kAll, 4, make(32, 1, SmemBroadcast::Limited)) == 1);
  CHECK(conflict_degree(same.data(), kAll, 4, make(32, 1, SmemBroadcast::None)) == 32);
  // in quarter-warps: full serves each part in one cycle, none needs a cycle per lane
  const SharedMemoryParams none4 = make(32, 4, SmemBroadcast::None), full4 = make(32, 4, SmemBroadcast::Full);
  CHECK(service_cycles(same.data(), kAll, 4, full4) == full4.warp_parts);
  CHECK(service_cycles(same.data(), kAll, 4, none4) == 32);
  // narrower lanes inside one word read that word once
  const auto bytes = strided(1);
  CHECK(conflict_degree(bytes.data(), 0xFu, 1, make(32, 1, SmemBroadcast::Full)) == 1);
  CHECK(conflict_degree(bytes.data(), 0xFu, 1, make(32, 1, SmemBroadcast::None)) == 4);
}

TEST_CASE("smem: limited broadcast serves one multicast word per cycle") {
  const SharedMemoryParams full = make(32, 1, SmemBroadcast::Full), lim = make(32, 1, SmemBroadcast::Limited),
                           none = make(32, 1, SmemBroadcast::None);
  // two broadcast words in the same bank: lanes 0-15 read word 0, lanes 16-31 word 32 (bank 0 too)
  std::array<uint64_t, 32> a{};
  for (uint32_t l = 0; l < 32; ++l) a[l] = l < 16 ? 0 : 32 * 4;
  REQUIRE(smem_bank_of(a[0], lim) == smem_bank_of(a[31], lim));
  CHECK(conflict_degree(a.data(), kAll, 4, lim) == 2);
  CHECK(conflict_degree(a.data(), kAll, 4, full) == 2);
  CHECK(conflict_degree(a.data(), kAll, 4, none) == 32);
  // two broadcast words in different banks: full multicasts both at once, limited cannot
  for (uint32_t l = 16; l < 32; ++l) a[l] = 4;
  CHECK(conflict_degree(a.data(), kAll, 4, full) == 1);
  CHECK(conflict_degree(a.data(), kAll, 4, lim) == 2);
  CHECK(conflict_degree(a.data(), kAll, 4, none) == 16);
  // three multicast words (banks 0, 1, 2) and two single-lane words: one cycle per multicast word
  for (uint32_t l = 0; l < 32; ++l) a[l] = 4ull * (l < 30 ? l / 10 : l - 27);
  CHECK(conflict_degree(a.data(), kAll, 4, full) == 1);
  CHECK(conflict_degree(a.data(), kAll, 4, lim) == 3);
}

TEST_CASE("smem: half-warp and quarter-warp parts are served one after another") {
  const auto stride2 = strided(2 * 4), column = strided(32 * 4);
  for (uint32_t parts : {1u, 2u, 4u}) {
    const SharedMemoryParams p = make(32, parts);
    const uint32_t n = p.lanes_per_part();
    uint32_t deg[4] = {};
    // stride 2: a part's n lanes cover 2n words, two per bank once 2n exceeds the 32 banks
    const uint32_t want = std::max(1u, 2 * n / p.banks);
    CHECK(service_cycles(stride2.data(), kAll, 4, p, deg) == parts * want);
    for (uint32_t i = 0; i < parts; ++i) CHECK(deg[i] == want);
    // one column: every lane in bank 0, so parts only split the same 32 cycles
    CHECK(service_cycles(column.data(), kAll, 4, p, deg) == 32);
    for (uint32_t i = 0; i < parts; ++i) CHECK(deg[i] == n);
  }
}

TEST_CASE("smem: 8-byte and 16-byte lanes span consecutive banks") {
  const SharedMemoryParams p = make(32);
  const auto d64 = strided(8), d128 = strided(16);
  // a 64-bit lane touches words a/4 and a/4+1: two consecutive banks
  for (uint32_t l = 0; l < 32; ++l) CHECK(smem_bank_of(d64[l] + 4, p) == (smem_bank_of(d64[l], p) + 1) % p.banks);
  // a full warp of 8-byte lanes needs 64 words from 32 banks, of 16-byte lanes 128
  CHECK(conflict_degree(d64.data(), kAll, 8, p) == 32 * 8 / (p.bank_width * p.banks));
  CHECK(conflict_degree(d128.data(), kAll, 16, p) == 32 * 16 / (p.bank_width * p.banks));
  // half-warps of 8-byte lanes (quarter-warps of 16-byte lanes) fit the banks exactly
  CHECK(service_cycles(d64.data(), kAll, 8, make(32, 2)) == 2);
  uint32_t deg[4] = {};
  CHECK(service_cycles(d128.data(), kAll, 16, make(32, 4), deg) == 4);
  for (uint32_t d : deg) CHECK(d == 1);
  // 8-byte banks serve a warp of 8-byte lanes in one cycle
  SharedMemoryParams wide = make(32);
  wide.bank_width = 8;
  CHECK(conflict_degree(d64.data(), kAll, 8, wide) == 1);
  // a 64-bit lane at stride 16 words hits banks 0,1 and 16,17 alternately
  CHECK(conflict_degree(strided(16 * 4).data(), kAll, 8, p) == 16);
}

TEST_CASE("smem: xor mapping spreads a column over all banks") {
  const SharedMemoryParams lin = make(32), x = make(32, 1, SmemBroadcast::Full, SmemMapping::Xor);
  // word = row * 32 + col sits in bank col ^ (row mod 32)
  CHECK(smem_bank_of(4 * (1 * 32 + 0), x) == 1);
  CHECK(smem_bank_of(4 * (3 * 32 + 5), x) == (5u ^ 3u));
  CHECK(smem_bank_of(4 * (33 * 32 + 2), x) == (2u ^ 1u));
  const auto column = strided(32 * 4), row = strided(4);
  CHECK(conflict_degree(column.data(), kAll, 4, lin) == 32);
  CHECK(conflict_degree(column.data(), kAll, 4, x) == 1);
  CHECK(conflict_degree(row.data(), kAll, 4, x) == 1);
  REQUIRE_THROWS_AS(make(24, 1, SmemBroadcast::Full, SmemMapping::Xor).validate(), InputError);
}

TEST_CASE("smem: Transpose tile averages degree 4.50 on 8 banks with 8-lane parts") {
  // Seed 001 Table 5 (spec 001 Sect. 2.3): Transpose average conflict degree
  // 4.50 with 8 banks and 8-lane subwarps, over every subwarp access of the
  // tile write and the tile read of a 16x16 block (8 warps, 4 parts each).
  const double kTable5Transpose = 4.50;
  const SharedMemoryParams p = make(8, 4);
  uint64_t sum = 0, parts = 0;
  for (uint32_t w = 0; w < 8; ++w)
    for (bool read : {false, true}) {
      const auto a = transpose_lanes(w, read);
      uint32_t deg[4] = {};
      service_cycles(a.data(), kAll, 4, p, deg);
      for (uint32_t d : deg) {
        sum += d;
        ++parts;
        CHECK(d == (read ? p.lanes_per_part() : 1u));  // write stride 1; read stride 16 words: one bank
      }
    }
  CHECK(parts == 8 * 2 * 4);
  CHECK(double(sum) / double(parts) == Approx(kTable5Transpose));
}

TEST_CASE("smem: inactive lanes are ignored and an empty part still takes a cycle") {
  const auto column = strided(32 * 4);
  const SharedMemoryParams p = make(32), q = make(32, 4);
  CHECK(conflict_degree(column.data(), 0x1Fu, 4, p) == 5);
  CHECK(conflict_degree(column.data(), 0x80000001u, 4, p) == 2);
  CHECK(conflict_degree(column.data(), 0u, 4, p) == 1);
  // quarter-warps: lanes 0-7 active in one bank -> 8, three empty parts -> 1 each
  uint32_t deg[4] = {};
  CHECK(service_cycles(column.data(), 0xFFu, 4, q, deg) == q.lanes_per_part() + (q.warp_parts - 1));
  CHECK(deg[0] == 8);
  CHECK(deg[3] == 1);
  CHECK(service_cycles(column.data(), 0u, 4, q) == q.warp_parts);
}

TEST_CASE("smem: a contiguous block takes one cycle per row of banks it covers") {
  const SharedMemoryParams p = make(32);
  const uint32_t row = p.banks * p.bank_width;  // 128 bytes
  CHECK(block_degree(0, row, p) == 1);
  CHECK(block_degree(0, 2 * row, p) == 2);
  CHECK(block_degree(4, row, p) == 1);  // words 1..32: bank 0 once (word 32)
  CHECK(block_degree(2, row, p) == 2);  // misaligned: words 0..32, bank 0 twice
  SharedMemoryParams wide = make(32);
  wide.bank_width = 8;
  CHECK(block_degree(0, 128, wide) == 1);
  CHECK(block_degree(0, 4 * 128, wide) == 2);
}

TEST_CASE("smem: parameters declare their defaults and reject bad combinations") {
  ParamTable t;
  SharedMemoryParams::declare(t);
  Config c(t);
  SharedMemoryParams p = SharedMemoryParams::from(c);
  CHECK(p.banks == 32);
  CHECK(p.bank_width == 4);
  CHECK(p.latency == 24);
  CHECK(p.broadcast == SmemBroadcast::Full);
  CHECK(p.warp_parts == 1);
  CHECK(p.mapping == SmemMapping::Linear);
  CHECK(p.size == 49152);
  c.set("smem.broadcast", "limited");
  c.set("smem.mapping", "xor");
  c.set("smem.warp_parts", "4");
  c.set("smem.banks", "8");
  p = SharedMemoryParams::from(c);
  CHECK(p.broadcast == SmemBroadcast::Limited);
  CHECK(p.mapping == SmemMapping::Xor);
  CHECK(p.lanes_per_part() == 8);
  c.set("smem.banks", "24");
  CHECK_THROWS_AS(SharedMemoryParams::from(c), InputError);  // xor on 24 banks
  c.set("smem.banks", "32");
  c.set("smem.warp_parts", "3");
  CHECK_THROWS_AS(SharedMemoryParams::from(c), InputError);
  c.set("smem.warp_parts", "2");
  c.set("smem.bank_width", "12");
  CHECK_THROWS_AS(SharedMemoryParams::from(c), InputError);
  CHECK_THROWS_AS(c.set("smem.banks", "65"), InputError);
  CHECK_THROWS_AS(c.set("smem.broadcast", "some"), InputError);
}

// ------------------------------------------------------------ through the socket

namespace {
// 32 banks, 24 cycles' latency, 1 ns cycles, a traffic initiator bound to the array.
struct Rig32 {
  sc_core::sc_time period{1, sc_core::SC_NS};
  StatsRegistry stats;
  SharedMemoryParams p = with_latency(make(32), 24);
  SharedMemory smem{"smem", 0, p, period, stats};
  tb::TrafficInitiator init{"init", period};
  Rig32() { init.socket.bind(smem.socket); }
  static SharedMemoryParams with_latency(SharedMemoryParams q, uint32_t l) {
    q.latency = l;
    return q;
  }
};

// Runs three requests through `init` to the end of the simulation: A at cycle 0 with a word stride of 4
// (degree 4 on 32 banks), then B at `b_cycle` and C at `c_cycle` (from byte `c_base`), both conflict free.
void send_abc(tb::TrafficInitiator& init, uint64_t b_cycle, uint64_t c_cycle, uint64_t c_base) {
  tb::Request a;
  a.cycle = 0;
  a.lanes = vec(strided(4 * 4));
  tb::Request b = a, c = a;
  b.cycle = b_cycle;
  b.lanes = vec(strided(4));
  c.cycle = c_cycle;
  c.lanes = vec(strided(4, c_base));
  init.add(a);
  init.add(b);
  init.add(c);
  sc_core::sc_start();
  REQUIRE(init.done.size() == 3);
}
}  // namespace

TEST_CASE("smem: a degree-4 access holds the array 4 cycles and back-pressures the next") {
  Rig32 rig;
  auto& [period, stats, p, smem, init] = rig;
  uint64_t hook_calls = 0, hook_service = 0;
  smem.on_service = [&](const GpuExtension&, uint32_t s) { ++hook_calls; hook_service += s; };

  // A: stride 4 words -> gcd(4, 32) = 4 distinct words in each of 8 banks
  const uint32_t dA = std::gcd(4u, p.banks), dB = 1, dC = 1;
  send_abc(init, 1, 20, 4096);
  const auto& A = init.done[0];
  const auto& B = init.done[1];
  const auto& C = init.done[2];
  CHECK(A.accepted == 0);
  CHECK(A.responded == A.accepted + p.latency + dA - 1);
  // B arrives while A holds the array: END_REQ withheld until A's dA cycles are over
  CHECK(B.sent == 1);
  CHECK(B.accepted == A.accepted + dA);
  CHECK(B.responded == B.accepted + p.latency + dB - 1);
  // C arrives to an idle array and is taken at once
  CHECK(C.accepted == 20);
  CHECK(C.responded == 20 + p.latency + dC - 1);
  CHECK(smem.free_cycle() == 20 + dC);
  CHECK(hook_calls == 3);
  CHECK(hook_service == dA + dB + dC);

  CHECK(stat(stats, "sm0.smem.requests") == 3);
  CHECK(stat(stats, "sm0.smem.responses") == 3);
  CHECK(stat(stats, "smem.responses") == 3);
  CHECK(stat(stats, "sm0.smem.busy_cycles") == dA + dB + dC);
  CHECK(stat(stats, "sm0.smem.stall_cycles") == B.accepted - B.sent);
  CHECK(stat(stats, "sm0.smem.bank_conflicts") == dA - 1);
  CHECK(stat(stats, "shmem_bank_conflicts") == dA - 1);
  CHECK(stat(stats, "sm0.smem.conflict_degree.bucket4") == 1);
  CHECK(stat(stats, "sm0.smem.conflict_degree.bucket1") == 2);
  // Idle cycles cost nothing: the simulation ends at the last response, and
  // the process ran only for END_REQ and response events.
  CHECK(sc_core::sc_time_stamp() == period * double(C.responded));
  CHECK(smem.activations() <= 2 * init.requests());
  CHECK(smem.responses_pending() == 0);
}

namespace {
// A borrowing port (CIAO's cache of isolated warps' lines): at each cycle of `asks` it books the next cycle.
struct Borrower : sc_core::sc_module {
  SharedMemory& banks;
  sc_core::sc_time period;
  std::vector<uint64_t> asks;
  Borrower(sc_core::sc_module_name n, SharedMemory& b, sc_core::sc_time p, std::vector<uint64_t> a)
      : sc_core::sc_module(n), banks(b), period(p), asks(std::move(a)) {
    SC_HAS_PROCESS(Borrower);
    SC_THREAD(run);
  }
  void run() {
    for (uint64_t c : asks) {
      const uint64_t now = uint64_t(sc_core::sc_time_stamp() / period);
      if (c > now) wait(period * double(c - now));
      banks.lend_cycle(c + 1);
    }
  }
};
}  // namespace

// Seed 002 sec. IV-B: the cache of isolated warps' lines lives in the same banks as the kernel's shared memory,
// so its accesses and the kernel's contend (the port has priority).
TEST_CASE("smem: cycles lent to a borrowing port delay the warp accesses that need them") {
  Rig32 rig;
  auto& [period, stats, p, smem, init] = rig;
  // A (degree 4) is taken at 0 and would hold the array for 0..3; the port takes cycles 1 and 3 of it.
  // B arrives at 10, the cycle the port booked at 9: it starts at 11. C at 30 has the array to itself
  // (the booking for 21 came and went while the array was idle).
  Borrower port("port", smem, period, {0, 2, 9, 20});
  send_abc(init, 10, 30, 0);
  const auto& A = init.done[0];
  const auto& B = init.done[1];
  const auto& C = init.done[2];
  CHECK(A.accepted == 0);
  CHECK(A.responded == 0 + 4 + 2 + p.latency - 1);  // its 4 service cycles and the 2 lent ones
  CHECK(B.accepted == 10);
  CHECK(B.responded == 10 + 1 + 1 + p.latency - 1);  // started after the lent cycle 10
  CHECK(C.responded == 30 + 1 + p.latency - 1);
  CHECK(stat(stats, "sm0.smem.lent_cycles") == 4);
  CHECK(stat(stats, "sm0.smem.yielded_cycles") == 3);
  CHECK(stat(stats, "sm0.smem.busy_cycles") == 4 + 1 + 1);  // the warps' own service cycles
}

TEST_CASE("smem: Transpose through the socket answers every request and counts degrees") {
  const sc_core::sc_time period(2, sc_core::SC_NS);
  StatsRegistry stats;
  SharedMemoryParams p = make(8, 4);
  p.latency = 10;
  SharedMemory smem("smem", 3, p, period, stats);
  tb::TrafficInitiator init("init", period);
  init.socket.bind(smem.socket);
  // the 8 warps write the tile, then read it transposed, all queued at cycle 0
  for (bool read : {false, true})
    for (uint32_t w = 0; w < 8; ++w) {
      tb::Request r;
      r.cycle = 0;
      r.write = !read;
      r.kind = read ? MemKind::Load : MemKind::Store;
      r.warp = uint16_t(w);
      r.lanes = vec(transpose_lanes(w, read));
      init.add(r);
    }
  sc_core::sc_start();

  // write parts: 8 consecutive words in 8 banks -> 1; read parts: 8 words of one bank -> 8
  const uint32_t write_service = p.warp_parts * 1, read_service = p.warp_parts * p.lanes_per_part();
  REQUIRE(init.done.size() == 16);
  uint64_t accept = 0;
  for (size_t i = 0; i < 16; ++i) {
    const uint32_t s = i < 8 ? write_service : read_service;
    CHECK(init.done[i].accepted == accept);
    CHECK(init.done[i].responded == accept + p.latency + s - 1);
    accept += s;
  }
  CHECK(stat(stats, "sm3.smem.requests") == 16);
  CHECK(stat(stats, "sm3.smem.responses") == stat(stats, "sm3.smem.requests"));
  CHECK(stat(stats, "sm3.smem.accesses") == 16);
  CHECK(stat(stats, "sm3.smem.busy_cycles") == 8 * write_service + 8 * read_service);
  const double parts = 16.0 * p.warp_parts;
  CHECK(stat(stats, "sm3.smem.conflict_degree.samples") == parts);
  CHECK(stat(stats, "sm3.smem.conflict_degree.bucket1") == parts / 2);
  CHECK(stat(stats, "sm3.smem.conflict_degree.bucket8") == parts / 2);
  CHECK(stat(stats, "smem.conflict_degree.bucket8") == parts / 2);
  CHECK(stat(stats, "shmem_bank_conflicts") == (parts / 2) * (p.lanes_per_part() - 1));
  // the histogram reproduces the seed's average degree
  const double avg = (stat(stats, "smem.conflict_degree.bucket1") * 1 + stat(stats, "smem.conflict_degree.bucket8") * 8) /
                     stat(stats, "smem.conflict_degree.samples");
  CHECK(avg == Approx(4.50));
}

TEST_CASE("smem: reserve_tail gives the top of the array to another use") {
  const sc_core::sc_time period(1, sc_core::SC_NS);
  StatsRegistry stats;
  SharedMemoryParams p = make(32);
  SharedMemory smem("smem", 1, p, period, stats);
  tb::TrafficInitiator init("init", period);
  init.socket.bind(smem.socket);

  CHECK(smem.free_bytes() == p.size);
  CHECK(smem.set_allocated(16384));
  const uint32_t base = smem.reserve_tail(p.size - 16384);
  CHECK(base == 16384);
  CHECK(smem.tail_base() == base);
  CHECK(smem.free_bytes() == 0);
  CHECK(smem.reserve_tail(p.size - 16383) == SharedMemory::kNoSpace);  // would overlap the blocks
  CHECK(smem.tail_bytes() == p.size - 16384);                           // earlier claim kept
  CHECK_FALSE(smem.set_allocated(16385));
  CHECK(smem.reserve_tail(8192) == p.size - 8192);
  CHECK(smem.free_bytes() == p.size - 16384 - 8192);
  CHECK(smem.bank_of(smem.tail_base()) == (smem.tail_base() / p.bank_width) % p.banks);
  // the tail's user sends a 256-byte line (no per-lane addresses) through the same banks
  tb::Request line;
  line.cycle = 5;
  line.addr = smem.tail_base();
  line.bytes = 256;
  init.add(line);
  sc_core::sc_start();
  const uint32_t d = 256 / (p.banks * p.bank_width);
  REQUIRE(init.done.size() == 1);
  CHECK(init.done[0].accepted == 5);
  CHECK(init.done[0].responded == 5 + p.latency + d - 1);
  CHECK(stat(stats, "sm1.smem.bank_conflicts") == d - 1);
  smem.release_tail();
  CHECK(smem.tail_bytes() == 0);
  CHECK(smem.free_bytes() == p.size - 16384);
}
