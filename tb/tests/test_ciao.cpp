// CIAO (models/ciao, seed 002): golden tests for the spec's testable claims
// (spec 002 sec. 9) on the victim tag array (claims 1-2), the interference
// list (3), the IRS cutoffs (4), the epoch samplers (5), the escalation and
// undo of the warp states (6-7), the shared-memory cache's address translation
// (9) and capacity (11), and the storage cost (23), each produced by the
// model's own classes.
#include <catch2/catch.hpp>

#include "ciao/ccws.hpp"
#include "ciao/ciao.hpp"
#include "ciao/interference.hpp"
#include "ciao/warp_states.hpp"
#include "l1/victim_tag_array.hpp"
#include "smem/smem_cache.hpp"
#include "common/config.hpp"
#include "gpu/gpu_platform.hpp"

using namespace warptlm;

namespace {

struct Tally {
  Counter isolations, stalls, reactivations, returns, guard;
  CiaoStateCounters c() { return CiaoStateCounters{&isolations, &stalls, &reactivations, &returns, &guard}; }
};

// A detector whose warp `w` has `hits` VTA hits, all from `interferer`, after `insts` SM instructions.
void give(InterferenceDetector& d, uint16_t w, uint16_t interferer, uint32_t hits) {
  for (uint32_t k = 0; k < hits; ++k) d.vta_hit(w, interferer);
}
void run_instructions(InterferenceDetector& d, uint64_t n) {
  for (uint64_t k = 0; k < n; ++k) d.instruction();
}

}  // namespace

TEST_CASE("VTA: an eviction goes into the owner's set with the evictor, FIFO over 8 entries, 48 sets", "[ciao][vta]") {
  VictimTagArray vta(48, 8);
  REQUIRE(vta.sets() == 48);
  // Claim 1: warp E=7 evicts a line owned by O=3.
  vta.insert(3, 0x1000, 7);
  REQUIRE(vta.entries(3).size() == 1);
  CHECK(vta.entries(3)[0].line_addr == 0x1000);
  CHECK(vta.entries(3)[0].evictor == 7);
  CHECK(vta.entries(7).empty());  // the evictor's own set is untouched
  // Eight more insertions into set 3: the ninth overall pushes out the oldest (0x1000).
  for (uint64_t k = 1; k <= 8; ++k) vta.insert(3, 0x1000 + k * 0x80, uint16_t(10 + k));
  auto e = vta.entries(3);
  REQUIRE(e.size() == 8);
  CHECK(e.front().line_addr == 0x1080);  // the oldest left is the second inserted
  CHECK(e.back().line_addr == 0x1400);
  uint16_t ev = 0;
  CHECK_FALSE(vta.probe(3, 0x1000, ev, true));
  // Sets are per warp slot: slot 51 shares set 3 with 48 sets.
  CHECK(vta.entries(51).size() == 8);
}

TEST_CASE("VTA: a hit is the owner's miss on its own victim - another warp's miss is not", "[ciao][vta]") {
  VictimTagArray vta(48, 8);
  vta.insert(3, 0x2000, 9);
  uint16_t ev = 0;
  CHECK_FALSE(vta.probe(4, 0x2000, ev, true));  // claim 2: warp 4 misses on it: no hit for anyone
  REQUIRE(vta.probe(3, 0x2000, ev, true));      // warp 3 misses on it: a hit, interferer 9
  CHECK(ev == 9);
  CHECK_FALSE(vta.probe(3, 0x2000, ev, true));  // dropped after it hit: one lost line, one hit
  vta.insert(3, 0x2000, 9);
  REQUIRE(vta.probe(3, 0x2000, ev, false));     // kept when entries are not invalidated on a hit
  CHECK(vta.probe(3, 0x2000, ev, false));
  // A hole left by a hit is filled before the oldest entry is replaced.
  VictimTagArray v2(1, 2);
  v2.insert(0, 0x100, 1);
  v2.insert(0, 0x200, 2);
  REQUIRE(v2.probe(0, 0x100, ev, true));
  v2.insert(0, 0x300, 3);
  auto e = v2.entries(0);
  REQUIRE(e.size() == 2);
  CHECK(e[0].line_addr == 0x200);
  CHECK(e[1].line_addr == 0x300);
}

TEST_CASE("Interference list: saturation, decay and replacement (Fig. 4c)", "[ciao][list]") {
  const uint16_t O = 34, E = 32, X = 42;
  InterferenceList l(64, ListReplace::AtZero);
  CHECK_FALSE(l[O].valid);
  for (int k = 0; k < 4; ++k) l.update(O, E);  // claim 3: E,E,E,E from empty
  CHECK(l[O].wid == E);
  CHECK(l[O].count == 3);
  l.update(O, X);  // W42 interferes: 11 -> 10
  CHECK(l[O].wid == E);
  CHECK(l[O].count == 2);
  l.update(O, E);  // W32 again: back to 11
  CHECK(l[O].count == 3);
  for (int k = 0; k < 3; ++k) l.update(O, X);  // three X decay the counter to 00, E stays
  CHECK(l[O].wid == E);
  CHECK(l[O].count == 0);
  l.update(O, X);  // the fourth replaces
  CHECK(l[O].wid == X);
  CHECK(l[O].count == 0);

  InterferenceList a(64, ListReplace::OnZero);  // rule (a): the event that reaches 00 replaces
  a.update(O, E);
  a.update(O, E);  // 01
  a.update(O, X);  // 00 and replaced
  CHECK(a[O].wid == X);
  CHECK(a[O].count == 0);
}

TEST_CASE("IRS: Eq. 1 against the cutoffs without a divider", "[ciao][irs]") {
  InterferenceDetector d(48, 64, ListReplace::AtZero, false);
  give(d, 5, 1, 10);
  give(d, 6, 1, 4);
  run_instructions(d, 40000);
  // Claim 4: 10 x 48 / 40000 = 0.012 > 0.01; 4 x 48 / 40000 = 0.0048 <= 0.005.
  CHECK(d.irs(5, 48) == Approx(0.012));
  CHECK(d.above(5, 0.01, 48));
  CHECK(d.irs(6, 48) == Approx(0.0048));
  CHECK_FALSE(d.above(6, 0.005, 48));
  CHECK(d.above(6, 0.004, 48));
  // Windowed counts (spec 002 sec. 3.1 (b)) start over at each high-cutoff epoch; cumulative ones do not.
  InterferenceDetector w(48, 64, ListReplace::AtZero, true);
  give(w, 5, 1, 10);
  run_instructions(w, 40000);
  w.close_window();
  CHECK(w.hits(5) == 0);
  CHECK_FALSE(w.above(5, 0.01, 48));
  give(w, 5, 1, 1);
  run_instructions(w, 1000);
  CHECK(w.irs(5, 48) == Approx(0.048));
  d.close_window();
  CHECK(d.hits(5) == 10);
  d.reset();
  CHECK(d.hits(5) == 0);
  CHECK(d.inst_total() == 0);
  CHECK_FALSE(d.list()[5].valid);
}

TEST_CASE("Epochs: the samplers end an epoch only at multiples of 100 and 5000 instructions", "[ciao][epoch]") {
  EpochSamplers s(100, 5000);
  std::vector<uint64_t> low, high;
  for (uint64_t n = 1; n <= 12000; ++n) {
    const uint8_t e = s.instruction();
    if (e & EpochSamplers::kLow) low.push_back(n);
    if (e & EpochSamplers::kHigh) high.push_back(n);
  }
  REQUIRE(low.size() == 120);
  for (size_t k = 0; k < low.size(); ++k) CHECK(low[k] == 100 * (k + 1));
  CHECK(high == std::vector<uint64_t>{5000, 10000});
  s.reset();
  for (int k = 0; k < 99; ++k) CHECK(s.instruction() == EpochSamplers::kNone);
  CHECK(s.instruction() == EpochSamplers::kLow);
}

TEST_CASE("Warp states: CIAO-C isolates, then stalls - CIAO-P never stalls - CIAO-T never isolates", "[ciao][states]") {
  // Fig. 6: W0 severely interfered with by W1, then W3 by W1.
  auto setup = [](WarpStates& s) {
    for (uint16_t w = 0; w < 8; ++w) s.arrive(w, 100 + w);
  };
  InterferenceDetector d(8, 64, ListReplace::AtZero, false);
  give(d, 0, 1, 10);
  run_instructions(d, 5000);  // IRS_0 = 10 x 8 / 5000 = 0.016 > 0.01
  for (CiaoVariant v : {CiaoVariant::Combined, CiaoVariant::Redirect, CiaoVariant::Throttle}) {
    Tally t;
    WarpStates s(8, v, t.c());
    setup(s);
    s.high_epoch(d, 0.01);
    if (v == CiaoVariant::Throttle) {
      CHECK(s.stalled(1));
      CHECK_FALSE(s.isolated(1));
      CHECK(s.pair(1).second == 0);
      CHECK(s.pair(1).first == WarpStates::kNone);
      continue;
    }
    // Claim 6, first trigger: W1 isolated (V=1, I=1), pair[W1].first = W0.
    CHECK(s.isolated(1));
    CHECK_FALSE(s.stalled(1));
    CHECK(s.pair(1).first == 0);
    CHECK(t.isolations.value == 1);
    // Next epoch, W3 severely interfered with by W1 (W0's score stays high too).
    InterferenceDetector d2(8, 64, ListReplace::AtZero, false);
    give(d2, 3, 1, 10);
    run_instructions(d2, 5000);
    s.high_epoch(d2, 0.01);
    if (v == CiaoVariant::Redirect) {  // CIAO-P: nothing more
      CHECK(s.isolated(1));
      CHECK(t.stalls.value == 0);
    } else {  // CIAO-C: W1 stalled, pair[W1].second = W3
      CHECK(s.stalled(1));
      CHECK(s.pair(1).second == 3);
      CHECK(s.pair(1).first == 0);
      CHECK(t.stalls.value == 1);
    }
  }
}

TEST_CASE("Warp states: undo at a low-cutoff epoch, most recent first, only when the trigger calmed or finished", "[ciao][states]") {
  Tally t;
  WarpStates s(8, CiaoVariant::Throttle, t.c());
  for (uint16_t w = 0; w < 8; ++w) s.arrive(w, w);
  // W0 interfered by W1, W2 interfered by W3: both interferers stalled in one high epoch.
  InterferenceDetector d(8, 64, ListReplace::AtZero, false);
  give(d, 0, 1, 10);
  give(d, 2, 3, 10);
  run_instructions(d, 5000);
  s.high_epoch(d, 0.01);
  REQUIRE(s.stalled(1));
  REQUIRE(s.stalled(3));
  CHECK(s.active_count() == 6);
  // Claim 7: while the triggers' IRS stay above 0.005 and they run, nothing changes.
  s.low_epoch(d, 0.005);
  CHECK(s.stalled(1));
  CHECK(s.stalled(3));
  CHECK(t.reactivations.value == 0);
  // W0 finishes: its stall of W1 is older than W3's, so W3 (trigger W2, still interfered) is examined first.
  s.exit(0);
  s.low_epoch(d, 0.005);
  CHECK(s.stalled(1));
  CHECK(s.stalled(3));
  // W2's score falls to 10 x 7 / 200000 = 0.00035 (more instructions): W3 comes back, then W1.
  run_instructions(d, 195000);
  s.low_epoch(d, 0.005);
  CHECK_FALSE(s.stalled(3));
  CHECK(s.stalled(1));
  s.low_epoch(d, 0.005);
  CHECK_FALSE(s.stalled(1));
  CHECK(t.reactivations.value == 2);
  CHECK(s.pair(1).second == WarpStates::kNone);
}

TEST_CASE("Warp states: CIAO-C undoes a stall before the isolation under it", "[ciao][states]") {
  Tally t;
  WarpStates s(4, CiaoVariant::Combined, t.c());
  for (uint16_t w = 0; w < 4; ++w) s.arrive(w, w);
  InterferenceDetector d(4, 64, ListReplace::AtZero, false);
  give(d, 0, 1, 20);
  run_instructions(d, 5000);
  s.high_epoch(d, 0.01);  // isolate W1
  s.high_epoch(d, 0.01);  // stall W1
  REQUIRE(s.stalled(1));
  s.exit(0);             // the trigger finished
  s.low_epoch(d, 0.005);  // the stall goes first: W1 isolated again
  CHECK_FALSE(s.stalled(1));
  CHECK(s.isolated(1));
  s.low_epoch(d, 0.005);  // then back to the L1D
  CHECK_FALSE(s.isolated(1));
  CHECK(t.returns.value == 1);
  CHECK(t.reactivations.value == 1);
}

TEST_CASE("Warp states: the guard keeps one warp able to issue", "[ciao][states]") {
  Tally t;
  WarpStates s(2, CiaoVariant::Throttle, t.c());
  s.arrive(0, 0);
  s.arrive(1, 1);
  InterferenceDetector d(2, 64, ListReplace::AtZero, false);
  give(d, 0, 1, 10);
  give(d, 1, 0, 10);
  run_instructions(d, 1000);
  s.high_epoch(d, 0.01);  // W1 stalled for W0; W1, stalled, triggers nothing
  CHECK(s.stalled(1));
  CHECK_FALSE(s.stalled(0));
  CHECK(t.stalls.value == 1);
  s.exit(0);  // the last issuing warp finishes: W1 comes back
  CHECK_FALSE(s.stalled(1));
  CHECK(t.guard.value == 1);
  // A new warp in a slot is a different warp: an old record does not apply to it.
  s.arrive(0, 7);
  CHECK_FALSE(s.stalled(0));
  CHECK(s.pair(0).second == WarpStates::kNone);
}

TEST_CASE("CIAO's storage per SM from its parameters (claim 23)", "[ciao][cost]") {
  CiaoParams p;
  const uint64_t vta = 48 * 8 * (25 + 6 + 1);
  const uint64_t lists = 64 * 8 + 64 * 12;        // interference list 512 bits, pair list 768 bits
  const uint64_t counters = 48 * 32 + 32;         // VTA-hit counters 1536 bits, Inst-total
  const uint64_t flags = 2 * 48, l1 = 128 * 6;
  CHECK(CiaoMechanism::storage_bits(p, 48, 128) == vta + lists + counters + flags + l1);
  CiaoParams c = p;
  c.variant = CiaoVariant::Combined;  // the shared-memory cache's 64 bytes per SM (sec. V-F)
  CHECK(CiaoMechanism::storage_bits(c, 48, 128) == vta + lists + counters + flags + l1 + 512);
  p.vta_ways = 16;  // a VTA twice as deep doubles the array only
  CHECK(CiaoMechanism::storage_bits(p, 48, 128) == 2 * vta + lists + counters + flags + l1);
}

TEST_CASE("CIAO's parameters: bad values are refused naming the key and where it was set", "[ciao][params]") {
  static const bool declared = (GpuParams::declare(ParamTable::global()), true);
  (void)declared;
  auto config = [](const std::vector<std::pair<std::string, std::string>>& sets) {
    Config c;
    c.merge_file(std::string(WARPTLM_SOURCE_DIR) + "/scenarios/configs/gtx480.yaml");
    c.merge_file(std::string(WARPTLM_SOURCE_DIR) + "/scenarios/overlays/ciao_t.yaml");
    for (auto& s : sets) c.set(s.first, s.second);
    return c;
  };
  const CiaoParams p = CiaoMechanism::params_from(config({}));
  CHECK(p.variant == CiaoVariant::Throttle);
  CHECK(p.vta_sets == 48);
  CHECK(p.high_epoch == 5000);
  auto refuse = [&](const std::vector<std::pair<std::string, std::string>>& sets, const std::string& named) {
    CHECK_THROWS_WITH(CiaoMechanism::params_from(config(sets)), Catch::Contains(named) && Catch::Contains("--set"));
  };
  CHECK(CiaoMechanism::params_from(config({{"ciao.variant", "p"}})).variant == CiaoVariant::Redirect);
  CHECK(CiaoMechanism::params_from(config({{"ciao.variant", "c"}})).variant == CiaoVariant::Combined);
  // CIAO-P/C and scratchpad sharing both claim the shared memory the blocks leave unused
  refuse({{"ciao.variant", "c"}, {"ss.enabled", "true"}}, "scratchpad sharing");
  refuse({{"ciao.variant", "p"}, {"l1d.line", "64"}}, "l1d.line");
  refuse({{"ciao.low_cutoff", "0.02"}}, "ciao.low_cutoff");
  refuse({{"ciao.list_entries", "32"}}, "ciao.list_entries");
  refuse({{"ciao.wid_bits", "5"}}, "ciao.wid_bits");
  refuse({{"l1d.enabled", "false"}}, "l1d.enabled");
  refuse({{"mem.model", "flat"}}, "mem.model");
  refuse({{"ccws.enabled", "true"}}, "ccws.enabled");  // CCWS and CIAO are alternatives
  refuse({{"pcal.tokens", "2"}}, "pcal.tokens");       // so is statPCAL
  // A value from a file names the file and line.
  Config c;
  c.merge_file(std::string(WARPTLM_SOURCE_DIR) + "/scenarios/configs/gtx480.yaml");
  c.merge_text("ciao:\n  variant: t\n  low_cutoff: 0.5\n", "overlay.yaml");
  CHECK_THROWS_WITH(CiaoMechanism::params_from(c), Catch::Contains("ciao.low_cutoff") && Catch::Contains("overlay.yaml:3"));
}

TEST_CASE("Shared-memory cache: the address translation of sec. IV-B (claim 9)", "[ciao][smem_cache]") {
  SharedMemoryCache c;
  c.configure(0, 48 * 1024);  // a kernel that uses no shared memory
  REQUIRE(c.data_rows() == 128);
  CHECK(c.row_mask() == 127);
  const uint64_t a = 0x1A3C0;  // A[7] = 1, A[15:8] = 0xA3 = 163 -> 35 under the 7-bit mask
  const SharedMemoryCache::Place p = c.translate(a);
  CHECK(p.group == 1);
  CHECK(p.data_row == 35);
  CHECK(p.data_offset == 35 * 256 + 128);  // banks 16..31 of row 35
  CHECK(p.tag_bank == 1);                  // the other group, bank A[12:9] = 1
  CHECK(p.tag_half == 1);                  // A[8]
  CHECK(p.tag_row == 128 + 1);             // after the data rows: (163 & 127) >> 5 = A[15:13] masked
  CHECK(p.tag_offset == 129 * 256 + 1 * 8 + 4);
  CHECK(p.index == 128 + 35);
  // Tag and data never share a bank: one access reads both (every line of a 64 KB stretch).
  for (uint64_t line = 0; line < 512; ++line) {
    const SharedMemoryCache::Place q = c.translate(line * 128);
    const uint32_t first_data_bank = q.group * 16;
    INFO(line);
    CHECK((q.tag_bank < first_data_bank || q.tag_bank >= first_data_bank + 16));
    CHECK(q.data_offset + 128 <= q.tag_row * 256);  // data rows below the tag rows
    CHECK(q.tag_offset + 4 <= c.region_end());
  }
  // A region that starts mid-row begins at the next whole row; the offset registers move both places.
  c.configure(1000, 24 * 1024 - 1000);
  CHECK(c.data_base_row() == 4);
  const SharedMemoryCache::Place r = c.translate(a);
  CHECK(r.data_row == 4 + (163 & c.row_mask()));
  CHECK(r.tag_row == c.tag_base_row() + ((163 & c.row_mask()) >> 5));
  CHECK(c.region_end() <= 24 * 1024);
}

TEST_CASE("Shared-memory cache: capacity from the unused space (claim 11), direct-mapped fills and victims", "[ciao][smem_cache]") {
  // 48 KB unused: 256 blocks (32 KB) and 4 full tag rows = 8 bank-group rows (1 KB).
  CHECK(SharedMemoryCache::data_rows_for(48 * 1024) == 128);
  SharedMemoryCache c;
  c.configure(0, 48 * 1024);
  CHECK(c.blocks() == 256);
  CHECK(c.tag_rows() == 4);
  CHECK(c.region_end() == 132 * 256);
  // 50 % used (SS, Lud): 24 KB left, 128 blocks (16 KB).
  c.configure(24 * 1024, 24 * 1024);
  CHECK(c.blocks() == 128);
  CHECK(c.region_end() <= 48 * 1024);
  // Too little for a data row and its tag row: no cache.
  c.configure(48 * 1024 - 256, 256);
  CHECK_FALSE(c.usable());
  CHECK_FALSE(c.fill(5, 1).valid);
  CHECK_FALSE(c.holds(5));

  c.configure(0, 48 * 1024);
  const uint64_t l1 = 0x1A3C0 / 128, l2 = l1 + (1u << 15) / 128;  // the same {G, R'}: one block
  REQUIRE(c.translate(l1 * 128).index == c.translate(l2 * 128).index);
  CHECK_FALSE(c.fill(l1, 3).valid);
  CHECK(c.holds(l1));
  CHECK(c.owner_of(l1) == 3);
  const SharedMemoryCache::Victim v = c.fill(l2, 9);  // a conflict: l1 out, its owner named for the VTA
  CHECK(v.valid);
  CHECK(v.line == l1);
  CHECK(v.owner == 3);
  CHECK_FALSE(c.holds(l1));
  CHECK(c.owner_of(l2) == 9);
  CHECK(c.invalidate(l2));
  CHECK_FALSE(c.holds(l2));
  CHECK_FALSE(c.invalidate(l2));
}

TEST_CASE("CCWS: scores, cap, decay and the load list", "[ciao][ccws]") {
  CcwsParams p;  // base 100, k_vc_add = k_wsc = 8
  LostLocalityScores s(4, p);
  for (uint16_t w = 0; w < 4; ++w) s.start(w, 0);
  // Everyone at the base: the cutoff is 4 x 100 and the list holds all four.
  CHECK_FALSE(s.evaluate(0));
  CHECK(s.cutoff() == 400);
  CHECK(s.allowed_count() == 4);
  // 100 instructions, then warp 2 hits its VTA 5 times: the SM rate is 1/100 .. 5/100.
  for (int k = 0; k < 100; ++k) s.instruction();
  for (int k = 0; k < 5; ++k) s.vta_hit(2, 10);
  // The last hit: rate 5/100, points 0.05 x 8 x 400 = 160, cap 160 as well: 100 + ... capped at 160.
  CHECK(s.score(2, 10) == 160);
  // Decay: one point a cycle, not below the base.
  CHECK(s.score(2, 40) == 130);
  CHECK(s.score(2, 1000) == 100);
  // At cycle 10: 160 + 100 + 100 = 360 < 400, the fourth warp fills it: no one left out.
  CHECK_FALSE(s.evaluate(10));
  // Warps 1 and 2 with high scores push the lowest-ranked (highest slot among equals) out.
  for (int k = 0; k < 20; ++k) s.vta_hit(1, 10);  // rate 25/100: points 800, cap 800
  CHECK(s.score(1, 10) == 800);
  CHECK(s.evaluate(10));
  CHECK(s.allowed(1));
  CHECK_FALSE(s.allowed(0));
  CHECK_FALSE(s.allowed(3));
  CHECK(s.allowed_count() == 1);
  // A warp that exits leaves the cutoff (3 x 100) and its hits leave the rate.
  s.exit(1);
  CHECK_FALSE(s.evaluate(10));
  CHECK(s.cutoff() == 300);
}
