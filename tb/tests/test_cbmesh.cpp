// The SPU's CB mesh (models/cbmesh, seed 003): golden tests for the spec's
// testable claims 2-8 (spec 003 sec. 9) on the mesh geometry, the CB storage,
// the pass plan and the spill layout, each produced by the model's classes and
// compared with the report's own tables and examples.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

#include "cbmesh/block_sync.hpp"
#include "cbmesh/cb_storage.hpp"
#include "cbmesh/mesh_geometry.hpp"
#include "cbmesh/pass_plan.hpp"
#include "cbmesh/spill_layout.hpp"
#include "common/errors.hpp"

using namespace warptlm;

namespace {

// The report's pointer tables for the 4 x 4 mesh, verbatim (spec 2.2; `/` is
// integer division, -1 no CB).
int32_t report_prevv(int i) {
  if (i <= 15) return i + 40;
  if (i >= 20 && i <= 23) return i - 4 + 40;
  return -1;
}
int32_t report_prevh(int i) {
  if (i <= 15) return i / 4 + 20 + i + 40;
  if (i >= 28) return (i == 28 ? 24 : i == 29 ? 29 : i == 30 ? 34 : 39) + 40;
  return -1;
}
int32_t report_nextv(int i) {
  if (i <= 15) return i + 4;
  if (i <= 19) return i - 16;
  return -1;
}
int32_t report_nexth(int i) {
  if (i <= 15) return i / 4 + 20 + i + 1;
  if (i >= 24 && i <= 27) return i == 24 ? 20 : i == 25 ? 25 : i == 26 ? 30 : 35;
  return -1;
}

}  // namespace

TEST_CASE("CB mesh: a 4 x 4 mesh has 16 IUs, 40 CBs and 80 buffers, with the report's pointer tables (claim 2)", "[cbmesh]") {
  CbMeshGeometry m(4, 4);
  CHECK(m.sms() == 16);
  CHECK(m.ius() == 16);
  CHECK(m.units() == 32);
  CHECK(m.cbs() == 40);
  CHECK(m.buffers() == 80);
  for (int i = 0; i < 32; ++i) {
    INFO("unit " << i);
    CHECK(m.prevv(uint32_t(i)) == report_prevv(i));
    CHECK(m.prevh(uint32_t(i)) == report_prevh(i));
    CHECK(m.nextv(uint32_t(i)) == report_nextv(i));
    CHECK(m.nexth(uint32_t(i)) == report_nexth(i));
  }
  // The unit numbering of spec 2.1.
  CHECK(m.unit_name(5) == "sm5");
  CHECK(m.unit_name(16) == "iu_north0");
  CHECK(m.unit_name(23) == "iu_south3");
  CHECK(m.unit_name(24) == "iu_west0");
  CHECK(m.unit_name(31) == "iu_east3");
}

TEST_CASE("CB mesh: every CB has one writer and one reader, the report's pairs on 4 x 4 (claim 2)", "[cbmesh]") {
  CbMeshGeometry m(4, 4);
  std::map<uint32_t, uint32_t> expected_writer, expected_reader;  // the enumeration of spec 2.2
  for (uint32_t c = 0; c < 4; ++c) expected_writer[c] = 16 + c, expected_reader[c] = c;
  for (uint32_t i = 0; i < 12; ++i) expected_writer[i + 4] = i, expected_reader[i + 4] = i + 4;
  for (uint32_t c = 0; c < 4; ++c) expected_writer[16 + c] = 12 + c, expected_reader[16 + c] = 20 + c;
  for (uint32_t r = 0; r < 4; ++r) {
    expected_writer[20 + 5 * r] = 24 + r, expected_reader[20 + 5 * r] = 4 * r;
    for (uint32_t c = 0; c < 3; ++c) expected_writer[20 + 5 * r + c + 1] = 4 * r + c, expected_reader[20 + 5 * r + c + 1] = 4 * r + c + 1;
    expected_writer[24 + 5 * r] = 4 * r + 3, expected_reader[24 + 5 * r] = 28 + r;
  }
  REQUIRE(expected_writer.size() == 40);
  for (uint32_t cb = 0; cb < 40; ++cb) {
    INFO("CB " << cb);
    CHECK(m.writer(cb) == expected_writer[cb]);
    CHECK(m.reader(cb) == expected_reader[cb]);
  }
}

TEST_CASE("CB mesh: on any R x C mesh the pointers name each CB once as written and once as read", "[cbmesh]") {
  for (auto [rows, cols] : {std::pair<uint32_t, uint32_t>{4, 4}, {1, 1}, {2, 3}, {5, 4}, {3, 8}}) {
    CbMeshGeometry m(rows, cols);
    INFO(rows << " x " << cols);
    CHECK(m.cbs() == (rows + 1) * cols + rows * (cols + 1));
    CHECK(m.ius() == 2 * rows + 2 * cols);
    std::map<int32_t, int> written, read;
    for (uint32_t u = 0; u < m.units(); ++u) {
      for (CbAccess a : {CbAccess::StoreV, CbAccess::StoreH})
        if (m.pointer(u, a) != CbMeshGeometry::kNone) {
          ++written[m.pointer(u, a)];
          CHECK(m.writer(uint32_t(m.pointer(u, a))) == u);
        }
      for (CbAccess a : {CbAccess::LoadV, CbAccess::LoadH})
        if (m.pointer(u, a) != CbMeshGeometry::kNone) {
          const int32_t cb = m.pointer(u, a) - int32_t(m.cbs());  // readers carry +NCB
          ++read[cb];
          CHECK(m.reader(uint32_t(cb)) == u);
        }
    }
    CHECK(written.size() == m.cbs());
    CHECK(read.size() == m.cbs());
    for (auto& [cb, n] : written) CHECK(n == 1);
    for (auto& [cb, n] : read) CHECK(n == 1);
  }
}

TEST_CASE("CB mesh: loads read only the north and west CBs, stores write only south and east (claim 4)", "[cbmesh]") {
  CbMeshGeometry m(4, 4);
  for (uint32_t r = 0; r < 4; ++r)
    for (uint32_t c = 0; c < 4; ++c) {
      const uint32_t sm = m.sm_unit(r, c);
      const uint32_t north = r == 0 ? m.iu_unit(MeshSide::North, c) : m.sm_unit(r - 1, c);
      const uint32_t west = c == 0 ? m.iu_unit(MeshSide::West, r) : m.sm_unit(r, c - 1);
      const uint32_t south = r == 3 ? m.iu_unit(MeshSide::South, c) : m.sm_unit(r + 1, c);
      const uint32_t east = c == 3 ? m.iu_unit(MeshSide::East, r) : m.sm_unit(r, c + 1);
      INFO("sm " << sm);
      CHECK(m.writer(uint32_t(m.pointer(sm, CbAccess::LoadV)) - m.cbs()) == north);
      CHECK(m.writer(uint32_t(m.pointer(sm, CbAccess::LoadH)) - m.cbs()) == west);
      CHECK(m.reader(uint32_t(m.pointer(sm, CbAccess::StoreV))) == south);
      CHECK(m.reader(uint32_t(m.pointer(sm, CbAccess::StoreH))) == east);
    }
  // IUs: north and west IUs only write, south and east only read.
  for (uint32_t iu = m.sms(); iu < m.units(); ++iu) {
    const MeshSide s = m.iu_side(iu);
    const bool writes = s == MeshSide::North || s == MeshSide::West;
    CHECK((m.pointer(iu, CbAccess::StoreV) != CbMeshGeometry::kNone || m.pointer(iu, CbAccess::StoreH) != CbMeshGeometry::kNone) == writes);
    CHECK((m.pointer(iu, CbAccess::LoadV) != CbMeshGeometry::kNone || m.pointer(iu, CbAccess::LoadH) != CbMeshGeometry::kNone) == !writes);
  }
  CbStorage cbs(m, 64);
  uint32_t v = 1;
  CHECK_THROWS_AS(cbs.store(0, CbAccess::LoadV, 0, 0, &v, 4), std::invalid_argument);
  CHECK_THROWS_AS(cbs.load(0, CbAccess::StoreH, 0, 0, &v, 4), std::invalid_argument);
}

TEST_CASE("CB storage: a store in step t is seen by the consumer in step t + 1, not in step t (claim 3)", "[cbmesh]") {
  CbMeshGeometry m(4, 4);
  CbStorage cbs(m, 1024);
  auto load = [&](uint32_t unit, CbAccess a, uint64_t step, uint32_t offset) {
    uint32_t v = 0;
    cbs.load(unit, a, step, offset, &v, 4);
    return v;
  };
  auto store = [&](uint32_t unit, CbAccess a, uint64_t step, uint32_t offset, uint32_t v) { cbs.store(unit, a, step, offset, &v, 4); };
  for (uint64_t t : {0ull, 1ull, 6ull, 7ull}) {
    INFO("step " << t);
    store(5, CbAccess::StoreV, t, 8, uint32_t(100 + t));  // SM 5 -> SM 9 through CB 9
    store(5, CbAccess::StoreH, t, 8, uint32_t(200 + t));  // SM 5 -> SM 6 through CB 27
    CHECK(load(9, CbAccess::LoadV, t, 8) != 100 + t);   // not in the same step
    CHECK(load(6, CbAccess::LoadH, t, 8) != 200 + t);
    CHECK(load(9, CbAccess::LoadV, t + 1, 8) == 100 + t);
    CHECK(load(6, CbAccess::LoadH, t + 1, 8) == 200 + t);
    // The producer's next store goes to the other half: the consumer's step t + 1 read is undisturbed.
    store(5, CbAccess::StoreV, t + 1, 8, 999);
    CHECK(load(9, CbAccess::LoadV, t + 1, 8) == 100 + t);
    CHECK(load(9, CbAccess::LoadV, t + 2, 8) == 999);
  }
  // An IU feeds the first row: the north IU above column 2 writes, SM 2 reads a step later.
  store(18, CbAccess::StoreV, 3, 0, 42);
  CHECK(load(2, CbAccess::LoadV, 4, 0) == 42);
  // Errors name the unit and the access.
  uint32_t v = 0;
  CHECK_THROWS_WITH(cbs.load(16, CbAccess::LoadV, 0, 0, &v, 4), Catch::Contains("iu_north0") && Catch::Contains("ld.cbv"));
  CHECK_THROWS_WITH(cbs.store(0, CbAccess::StoreH, 0, 1022, &v, 4), Catch::Contains("past the CB's 1024 bytes"));
}

TEST_CASE("SPU pass plan: 8 x 8 blocks on 4 x 4 take 4 passes, 12 x 12 take 9, one block per SM each (claim 5)", "[cbmesh]") {
  CbMeshGeometry m(4, 4);
  CHECK(PassPlan(m, 8, 8).passes() == 4);
  CHECK(PassPlan(m, 12, 12).passes() == 9);
  CHECK(PassPlan(m, 4, 4).passes() == 1);
  CHECK(PassPlan(m, 12, 4).passes() == 3);
  for (auto [gx, gy] : {std::pair<uint32_t, uint32_t>{8, 8}, {12, 12}, {6, 10}}) {
    PassPlan p(m, gx, gy);
    std::set<std::pair<uint32_t, uint32_t>> seen;
    for (uint32_t pass = 0; pass < p.passes(); ++pass)
      for (uint32_t sm = 0; sm < m.sms(); ++sm) {
        const GridBlock b = p.block(pass, sm);
        if (b.present) CHECK(seen.insert({b.x, b.y}).second);  // each block once
      }
    CHECK(seen.size() == size_t(gx) * gy);
  }
  // Row-major passes: pass 1 of 8 x 8 is the north-east quarter; its SM 12 (row 3, col 0) runs block (x 4, y 3).
  PassPlan p(m, 8, 8);
  CHECK(p.coord(1).x == 1);
  CHECK(p.coord(1).y == 0);
  CHECK(p.coord(2).x == 0);
  CHECK(p.coord(2).y == 1);
  const GridBlock b = p.block(1, 12);
  CHECK(b.present);
  CHECK(b.x == 4);
  CHECK(b.y == 3);
  // A partial pass: 6 x 10 on 4 x 4, pass (1, 2) holds 2 columns x 2 rows.
  PassPlan partial(m, 6, 10);
  CHECK(partial.passes() == 6);
  CHECK(partial.blocks_in_pass(partial.index(PassCoord{1, 2})) == 4);
}

TEST_CASE("SPU pass plan: at pass 0 of 8 x 8, south and east IUs spill and north and west IUs load (claim 6)", "[cbmesh]") {
  CbMeshGeometry m(4, 4);
  PassPlan p(m, 8, 8);
  for (uint32_t iu = 16; iu <= 19; ++iu) CHECK(p.role(0, iu) == IuRole::Loader);
  for (uint32_t iu = 24; iu <= 27; ++iu) CHECK(p.role(0, iu) == IuRole::Loader);
  for (uint32_t iu = 20; iu <= 23; ++iu) CHECK(p.role(0, iu) == IuRole::Spill);
  for (uint32_t iu = 28; iu <= 31; ++iu) CHECK(p.role(0, iu) == IuRole::Spill);
  // Pass 3 (south-east): north and west restore, south and east store for real.
  for (uint32_t iu = 16; iu <= 19; ++iu) CHECK(p.role(3, iu) == IuRole::Restore);
  for (uint32_t iu = 24; iu <= 27; ++iu) CHECK(p.role(3, iu) == IuRole::Restore);
  for (uint32_t iu = 20; iu <= 23; ++iu) CHECK(p.role(3, iu) == IuRole::Storer);
  for (uint32_t iu = 28; iu <= 31; ++iu) CHECK(p.role(3, iu) == IuRole::Storer);
  // One pass: every IU is real.
  PassPlan one(m, 4, 4);
  for (uint32_t iu = 16; iu < 32; ++iu) CHECK_FALSE(one.is_virtual(0, iu));
  // A partial pass (6 x 8: pass 1 holds grid columns 4 and 5 on mesh columns 0 and 1): the IUs facing an
  // SM without a block are idle, the east IUs too (the SM beside the last block column would stand in).
  PassPlan partial(m, 6, 8);
  CHECK(partial.role(1, 16 + 1) == IuRole::Loader);  // first pass row
  CHECK(partial.role(1, 16 + 2) == IuRole::Idle);
  CHECK(partial.role(1, 24 + 0) == IuRole::Restore);
  CHECK(partial.role(1, 28 + 0) == IuRole::Idle);
  CHECK(partial.role(1, 20 + 1) == IuRole::Spill);
}

TEST_CASE("SPU pass plan: IU 22 is id 2 at pass 0, IU 29 id 1 at pass 1 and id 5 at pass 3 (claim 7)", "[cbmesh]") {
  CbMeshGeometry m(4, 4);
  PassPlan p(m, 8, 8);
  CHECK(p.iu_id(0, 22) == 2);
  CHECK(p.iu_id(1, 29) == 1);
  CHECK(p.iu_id(3, 29) == 5);
  CHECK(p.iu_id(1, 22) == 6);  // south IU of column 2 in the north-east pass: grid column 6
}

TEST_CASE("SPU spill layout: a spill is restored by the next pass at the same step, addresses never collide (claim 8)", "[cbmesh]") {
  CbMeshGeometry m(4, 4);
  PassPlan p(m, 12, 8);  // 3 x 2 passes
  const uint64_t cb = 256, steps = 7;
  SpillLayout L(m, p, cb, steps);
  CHECK(L.slot_elements() == 8 * cb);  // the report's 2 x CBS_SIZE
  CHECK(L.total_elements() == uint64_t(p.passes()) * 8 * cb * steps);
  std::set<uint64_t> all;
  for (uint32_t pass = 0; pass < p.passes(); ++pass) {
    const PassCoord pc = p.coord(pass);
    for (MeshSide side : {MeshSide::South, MeshSide::East})
      for (uint32_t k = 0; k < 4; ++k)
        for (uint64_t s = 0; s < steps; ++s)
          for (uint64_t e = 0; e < cb; e += 85) {
            const uint64_t a = L.spill(pc, side, k, s, e);
            // Algorithm 2's expression with CBS_SIZE = 4 CB_SIZE, iu_id local, the slot as CspillNB.
            const uint64_t cbs_size = 4 * cb, passx = p.passes_x();
            const uint64_t report = (pc.x + pc.y * passx) * cbs_size * 2 * steps + s * cbs_size * 2 +
                                    (side == MeshSide::East ? cbs_size : 0) + cb * k + e;
            CHECK(a == report);
            CHECK(a < L.total_elements());
            CHECK(all.insert(a).second);
            // The pass below (right) restores it at the same step.
            if (side == MeshSide::South && pc.y + 1 < p.passes_y())
              CHECK(L.restore(PassCoord{pc.x, pc.y + 1}, MeshSide::North, k, s, e) == a);
            if (side == MeshSide::East && pc.x + 1 < p.passes_x())
              CHECK(L.restore(PassCoord{pc.x + 1, pc.y}, MeshSide::West, k, s, e) == a);
          }
  }
  // Algorithm 2's split of a CB among 16 x 16 threads: TILE 1 for 256 elements, 4 for 1024; no overlap, no gap.
  for (uint64_t size : {256ull, 1024ull}) {
    const uint64_t tile = SpillLayout::tile(size, 256);
    std::vector<int> cover(size, 0);
    for (uint64_t t = 0; t < 256; ++t)
      for (uint64_t i = 0; i < tile; ++i) ++cover[SpillLayout::first_element(t, tile) + i];
    for (int c : cover) CHECK(c == 1);
  }
}

namespace {

BlockSync four_units() { return BlockSync({"sm0", "sm1", "iu_north0", "iu_south0"}); }
const std::vector<bool> kAll(4, true), kNone(4, false);

}  // namespace

TEST_CASE("Block synchronisation: releases when every counted unit arrived; each release advances regcspillnb", "[cbmesh][blocksync]") {
  BlockSync b = four_units();
  b.begin_pass(0, kAll, kNone);
  CHECK(b.arrive(0).empty());
  CHECK(b.arrive(2).empty());
  CHECK(b.arrive(3).empty());
  CHECK(b.syncs() == 0);
  CHECK_THROWS_WITH(b.arrive(0), Catch::Contains("sm0") && Catch::Contains("already waits"));
  CHECK(b.describe_wait() == "block synchronisation 1 of pass 0: waiting for sm1 (arrived: sm0, iu_north0, iu_south0)");
  CHECK(b.arrive(1) == std::vector<uint32_t>{0, 1, 2, 3});
  CHECK(b.syncs() == 1);
  for (uint32_t u = 0; u < 4; ++u) b.finish(u);
  b.end_pass();
  CHECK(b.syncs_per_pass() == 1);
}

TEST_CASE("Block synchronisation: parked virtual IUs are not counted until bar.unleashvius", "[cbmesh][blocksync]") {
  BlockSync b = four_units();
  std::vector<bool> parked(4, false);
  parked[3] = true;  // the south VIU starts parked
  b.begin_pass(0, kAll, parked);
  CHECK(b.arrive(3).empty());  // waits, uncounted
  CHECK(b.arrive(0).empty());
  CHECK(b.arrive(1).empty());
  CHECK(b.arrive(2) == std::vector<uint32_t>{0, 1, 2});  // released without the parked unit
  CHECK(b.waiting(3));
  CHECK(b.syncs() == 1);
  CHECK_FALSE(b.restart());
  CHECK(b.unleash() == std::vector<uint32_t>{3});
  CHECK(b.restart());
  CHECK(b.syncs() == 1);  // regcspillnb kept counting: the VIU's addresses stay aligned
  // From now on the unleashed unit is counted.
  for (uint32_t u : {0u, 1u, 2u}) CHECK(b.arrive(u).empty());
  CHECK(b.arrive(3).size() == 4);
  CHECK(b.syncs() == 2);
}

TEST_CASE("Block synchronisation: once every block is done the virtual IUs leave with reglast, uncounted", "[cbmesh][blocksync]") {
  // Units 0 and 1 compute, 2 is a real IU, 3 a virtual IU that loops until reglast.
  BlockSync b = four_units();
  const std::vector<bool> virt{false, false, false, true};
  b.begin_pass(0, kAll, kNone, virt);
  for (uint32_t u : {0u, 1u, 2u}) CHECK(b.arrive(u).empty());
  CHECK(b.arrive(3).size() == 4);
  CHECK(b.syncs() == 1);
  CHECK(b.arrive(3).empty());  // the VIU is already at its next synchronisation
  CHECK(b.finish(0).empty());  // a virtual IU waiting is no error
  CHECK(b.finish(1).empty());
  CHECK_FALSE(b.last());
  CHECK(b.finish(2) == std::vector<uint32_t>{3});  // the last block done: the closing release
  CHECK(b.last());
  CHECK(b.syncs() == 1);  // not a synchronisation of the pass
  CHECK(b.finish(3).empty());
  b.end_pass();
  CHECK(b.syncs_per_pass() == 1);
  // A virtual IU that reaches a synchronisation after the blocks are done leaves at once.
  b.begin_pass(1, kAll, kNone, virt);
  CHECK_FALSE(b.last());
  for (uint32_t u : {0u, 1u, 2u}) CHECK(b.arrive(u).empty());
  CHECK(b.arrive(3).size() == 4);
  for (uint32_t u : {0u, 1u, 2u}) CHECK(b.finish(u).empty());
  CHECK(b.arrive(3) == std::vector<uint32_t>{3});
  CHECK(b.last());
  b.finish(3);
  b.end_pass();
  // A block still waits while another block leaves: an error even with a virtual IU about.
  b.begin_pass(2, kAll, kNone, virt);
  b.arrive(0);
  b.arrive(3);
  CHECK_THROWS_WITH(b.finish(1), Catch::Contains("sm1 finished after 0 synchronisations while sm0 wait"));
}

TEST_CASE("Block synchronisation with spu.skip_trailing_syncs: a finished unit leaves; the others go on without it",
          "[cbmesh][blocksync]") {
  // iu_north0 finishes after one synchronisation while sm0 and the virtual iu_south0 wait at the second:
  // an error without leave_early.
  const std::vector<bool> virt{false, false, false, true};
  {
    BlockSync strict = four_units();
    strict.begin_pass(0, kAll, kNone, virt);
    for (uint32_t u : {0u, 1u, 2u}) strict.arrive(u);
    CHECK(strict.arrive(3).size() == 4);
    strict.arrive(0);
    strict.arrive(3);
    CHECK_THROWS_WITH(strict.finish(2), Catch::Contains("iu_north0 finished after 1 synchronisations while sm0 wait"));
    CHECK_THROWS_AS(strict.leave(0), std::logic_error);
  }
  BlockSync b({"sm0", "sm1", "iu_north0", "iu_south0"}, true);
  b.begin_pass(0, kAll, kNone, virt);
  for (uint32_t u : {0u, 1u, 2u}) CHECK(b.arrive(u).empty());
  CHECK(b.arrive(3).size() == 4);
  CHECK(b.syncs() == 1);
  b.arrive(0);
  b.arrive(3);
  CHECK(b.finish(2).empty());                               // sm1 still runs: nobody goes yet
  CHECK(b.arrive(1) == std::vector<uint32_t>{0, 1, 3});     // the barrier no longer waits for iu_north0
  CHECK(b.syncs() == 2);
  b.arrive(1);
  b.arrive(3);
  CHECK(b.finish(0) == std::vector<uint32_t>{1, 3});        // leaving releases the others, who all wait
  CHECK(b.syncs() == 3);
  CHECK_FALSE(b.last());
  CHECK(b.arrive(3).empty());
  CHECK(b.finish(1) == std::vector<uint32_t>{3});           // the last block: the closing release, uncounted
  CHECK(b.last());
  CHECK(b.syncs() == 3);
  b.finish(3);
  CHECK_NOTHROW(b.end_pass());  // iu_north0 finished after 1, sm0 after 2, sm1 after 3: counts may differ
  CHECK(b.syncs_per_pass() == 3);
  // A pass with another count than pass 0's is no error either.
  b.begin_pass(1, kAll, kNone, virt);
  for (uint32_t u = 0; u < 4; ++u) b.finish(u);
  CHECK_NOTHROW(b.end_pass());
  CHECK(b.syncs() == 0);
  CHECK(b.syncs_per_pass() == 3);
  // A unit whose program ended while its block is still resident (the timing mesh: its last warp exited,
  // its stores in flight) leaves the synchronisation at once; the pass ends only when it finished.
  b.begin_pass(2, kAll, kNone, virt);
  b.arrive(0);
  b.arrive(1);
  b.arrive(3);
  CHECK(b.leave(2) == std::vector<uint32_t>{0, 1, 3});
  CHECK(b.syncs() == 1);
  CHECK(b.finish(2).empty());  // it left already
  CHECK(b.finish(0).empty());
  CHECK(b.leave(1).empty());   // the last block's program ended: the VIU runs, nobody waits
  CHECK_THROWS_WITH(b.end_pass(), Catch::Contains("ended early"));  // sm1's block still resident
  CHECK(b.arrive(3) == std::vector<uint32_t>{3});  // reglast: every other unit is done
  CHECK(b.last());
  b.finish(3);
  b.finish(1);
  CHECK_NOTHROW(b.end_pass());
}

TEST_CASE("Block synchronisation: a unit that leaves the others waiting, or a pass with another count, is named", "[cbmesh][blocksync]") {
  {
    BlockSync b = four_units();
    b.begin_pass(0, kAll, kNone);
    b.arrive(0);
    b.arrive(1);
    b.arrive(2);
    CHECK_THROWS_WITH(b.finish(3), Catch::Contains("iu_south0 finished after 0 synchronisations while sm0, sm1, iu_north0 wait"));
  }
  {
    BlockSync b = four_units();
    b.begin_pass(0, kAll, kNone);
    b.finish(3);  // leaves before the first synchronisation, which then runs without it
    b.arrive(0);
    b.arrive(1);
    CHECK(b.arrive(2).size() == 3);
    for (uint32_t u : {0u, 1u, 2u}) b.finish(u);
    CHECK_THROWS_WITH(b.end_pass(), Catch::Contains("iu_south0 finished after 0 block synchronisations, the pass performed 1"));
  }
  {
    // Claim 9: regspillnb is pass 0's count, and every pass must perform as many.
    BlockSync b = four_units();
    auto run_pass = [&](uint32_t pass, int syncs) {
      b.begin_pass(pass, kAll, kNone);
      for (int s = 0; s < syncs; ++s)
        for (uint32_t u = 0; u < 4; ++u) b.arrive(u);
      for (uint32_t u = 0; u < 4; ++u) b.finish(u);
      b.end_pass();
    };
    run_pass(0, 3);
    CHECK(b.syncs_per_pass() == 3);
    run_pass(1, 3);
    CHECK_THROWS_WITH(run_pass(2, 2), Catch::Contains("pass 2 performed 2 block synchronisations, pass 0 performed 3"));
  }
  {
    // Units outside the pass take no part: two SMs alone synchronise.
    BlockSync b = four_units();
    b.begin_pass(0, {true, true, false, false}, kNone);
    CHECK(b.arrive(0).empty());
    CHECK(b.arrive(1).size() == 2);
    CHECK_THROWS_WITH(b.arrive(2), Catch::Contains("iu_north0"));
  }
}
