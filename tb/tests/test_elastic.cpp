// The elastic pipeline (models/elastic, seed 001 sec. 4): the stage model
// against the walk-throughs of Figs. 3 and 4 (spec 001 sec. 1.5) on the
// illustration's pipeline (F, D, EXE, MEM0, MEM1, WB), the queue depths of
// Eqs. 4 and 5 from the parameters, the refusals, and the SM running PTX with
// it on elastic_baseline.
#include <catch2/catch.hpp>

#include <map>
#include <type_traits>

#include "common/config.hpp"
#include "elastic/elastic.hpp"
#include "gpu/gpu_platform.hpp"
#include "inorder_rig.hpp"

using namespace warptlm;
using namespace warptlm::test;

namespace {

struct Spec {
  bool mem = false;
  uint32_t degree = 1;
  bool writes = true;
};

struct Trace {
  std::map<uint32_t, uint64_t> issued, wrote;  // subwarp -> cycle
  std::vector<uint64_t> refused;
  std::vector<StagePipeline::Hold> why;
  std::map<uint64_t, size_t> premem, nonmem;   // occupancy after each cycle
};

struct Sink : SubwarpSink {
  Trace& t;
  uint64_t now = 0;
  explicit Sink(Trace& t) : t(t) {}
  void leave(const Subwarp& s) override { t.wrote[s.slot] = now; }
};

template <class Pipeline>
Trace drive(Pipeline& p, const std::vector<Spec>& specs) {
  Trace t;
  Sink sink(t);
  uint32_t next = 0;
  for (uint64_t c = 0; c < 100 && (next < specs.size() || !p.empty()); ++c) {
    if (next < specs.size()) {
      if (p.can_issue()) {
        Subwarp s;
        s.slot = next;
        s.mem = specs[next].mem;
        s.mem0_cycles = uint8_t(specs[next].degree);
        s.writes = specs[next].writes;
        s.last = true;
        p.issue(s);
        t.issued[next++] = c;
      } else {
        t.refused.push_back(c);
        t.why.push_back(p.frozen_by());
      }
    }
    sink.now = c;
    p.step(1, sink);
    if constexpr (std::is_same_v<Pipeline, ElasticPipeline>) {
      t.premem[c] = p.premem_size();
      t.nonmem[c] = p.nonmem_size();
    }
  }
  return t;
}

PipelineShape illustration() {
  PipelineShape s;
  s.front = 2;  // F, D
  s.exe = 1;
  s.mem = 2;    // MEM0, MEM1
  s.subwarps = 1;
  return s;
}

// W_0 .. W_{i-1} conflict-free memory instructions (W_{i-1} takes WB in i+4:
// the walk-through's upstream occupancy), W_i a shared access of degree 2.
const uint32_t i = 3;
std::vector<Spec> before_conflict() { return {{true, 1, true}, {true, 1, true}, {true, 1, true}, {true, 2, true}}; }

}  // namespace

TEST_CASE("elastic: Fig. 3, NONMEM queue of 2: no stall, W_{i+1} writes back in i+5 before W_i in i+6") {
  Counter ooo;
  ElasticCounters c;
  c.out_of_order = &ooo;
  ElasticPipeline p(illustration(), ElasticParams{2, 0, true}, c);
  auto specs = before_conflict();
  for (int k = 0; k < 5; ++k) specs.push_back({false, 1, true});  // W_{i+1} .. : non-memory
  Trace t = drive(p, specs);
  CHECK(t.refused.empty());
  CHECK(t.wrote[i - 1] == i + 4);
  CHECK(t.wrote[i + 1] == i + 5);  // from the NONMEM queue
  CHECK(t.wrote[i] == i + 6);      // out of order
  CHECK(t.wrote[i + 2] == i + 7);
  CHECK(t.nonmem[i + 3] == 1);     // W_{i+1} waits in i+4
  CHECK(t.nonmem[i + 5] == 2);     // the queue is full in i+6
  CHECK(ooo.value >= 1);
}

TEST_CASE("elastic: Fig. 3's variant, W_{i+1} a memory instruction: blocked at EXE, one stall in i+4") {
  ElasticPipeline p(illustration(), ElasticParams{2, 0, true}, ElasticCounters{});
  auto specs = before_conflict();
  specs.push_back({true, 1, true});  // W_{i+1}: memory, not even a shared access
  for (int k = 0; k < 3; ++k) specs.push_back({false, 1, true});
  Trace t = drive(p, specs);
  REQUIRE(t.refused.size() == 1);
  CHECK(t.refused[0] == i + 4);
  CHECK(t.why[0] == StagePipeline::Hold::BankConflict);
}

TEST_CASE("elastic: Fig. 4, a warp of 2 subwarps: without PREMEM the second subwarp stalls the front end in i+4") {
  ElasticPipeline p(illustration(), ElasticParams{2, 0, true}, ElasticCounters{});
  auto specs = before_conflict();     // W_i: subwarp 0 of the shared warp, degree 2
  specs.push_back({true, 1, true});   // W_{i+1}: its subwarp 1
  for (int k = 0; k < 5; ++k) specs.push_back({false, 1, true});  // W_{i+2}, W_{i+3}: a non-memory warp; more behind
  Trace t = drive(p, specs);
  REQUIRE(t.refused.size() == 1);
  CHECK(t.refused[0] == i + 4);
}

TEST_CASE("elastic: Fig. 4 with a 1-entry PREMEM: no stall, W_{i+2} writes back from EXE in i+5") {
  Counter bypass, premem;
  ElasticCounters c;
  c.bypass = &bypass;
  c.premem_entries = &premem;
  ElasticPipeline p(illustration(), ElasticParams{2, 1, true}, c);
  auto specs = before_conflict();
  specs.push_back({true, 1, true});
  for (int k = 0; k < 5; ++k) specs.push_back({false, 1, true});  // issuing goes on behind the walk-through's warps
  Trace t = drive(p, specs);
  CHECK(t.refused.empty());
  CHECK(t.premem[i + 3] == 1);     // W_{i+1} waits in PREMEM in i+4
  CHECK(t.wrote[i + 2] == i + 5);  // straight from EXE
  CHECK(bypass.value >= 1);
  CHECK(premem.value == 1);
  CHECK(t.wrote[i] == i + 6);
  CHECK(t.wrote[i + 1] == i + 7);  // the memory stages' output before the NONMEM queue
  CHECK(t.wrote[i + 3] == i + 8);
}

// Fig. 2b (sec. 3.2, the analysis step before the elastic pipeline): split
// memory stages, a fixed NONMEM path beside MEM0/MEM1. W_{i+1} (non-memory)
// enters NONMEM0 in i+4 while W_i waits at MEM0: no front-end stall in i+4.
// The WB bubble of i+5 remains, and in i+6 W_i (MEM1) and W_{i+1} (NONMEM1)
// both want the port: the writeback conflict stalls fetch in i+6.
TEST_CASE("elastic: Fig. 2b, split memory stages: no stall in i+4, the WB bubble in i+5, a writeback conflict in i+6") {
  ElasticParams split{0, 0, true, true};
  ElasticPipeline p(illustration(), split, ElasticCounters{});
  auto specs = before_conflict();
  for (int k = 0; k < 8; ++k) specs.push_back({false, 1, true});  // W_{i+1} ..: non-memory, issuing on past i+6
  Trace t = drive(p, specs);
  CHECK(t.wrote[i - 1] == i + 4);
  for (const auto& w : t.wrote) CHECK(w.second != i + 5);  // nothing writes back in i+5
  CHECK(t.wrote[i] == i + 6);      // the memory path first
  CHECK(t.wrote[i + 1] == i + 7);  // W_{i+1} lost the port in i+6
  REQUIRE(t.refused.size() == 1);
  CHECK(t.refused[0] == i + 6);
  CHECK(t.why[0] == StagePipeline::Hold::Writeback);
  CHECK(t.nonmem[i + 3] == 0);     // no queue: W_{i+1} is in the path's stage NONMEM0
  // The same warps on the unified pipeline (Fig. 2a) stall in i+4 instead.
  InOrderPipeline u;
  u.configure(2, 1, 2);
  Trace v = drive(u, specs);
  REQUIRE(v.refused.size() == 1);
  CHECK(v.refused[0] == i + 4);
  CHECK(v.why[0] == StagePipeline::Hold::BankConflict);
}

TEST_CASE("elastic: with nonmem_first the NONMEM queue writes back before the memory stages' output") {
  ElasticPipeline p(illustration(), ElasticParams{2, 1, false}, ElasticCounters{});
  auto specs = before_conflict();
  specs.push_back({true, 1, true});
  specs.push_back({false, 1, true});
  specs.push_back({false, 1, true});
  Trace t = drive(p, specs);
  CHECK(t.wrote[i + 3] == i + 7);  // W_{i+3} from NONMEM before W_{i+1} from MEM1
  CHECK(t.wrote[i + 1] == i + 8);
}

TEST_CASE("elastic: queue depths follow Eqs. 4 and 5 unless set") {
  GpuParams::declare(ParamTable::global());
  auto depths = [](const Sets& sets) {
    Config c;
    c.merge_file(std::string(WARPTLM_SOURCE_DIR) + "/scenarios/configs/elastic_baseline.yaml");
    c.merge_file(std::string(WARPTLM_SOURCE_DIR) + "/scenarios/overlays/elastic.yaml");
    for (auto& s : sets) c.set(s.first, s.second);
    const ElasticParams p = ElasticPipelineMechanism::params_from(c);
    return std::make_pair(p.nonmem_depth, p.premem_depth);
  };
  CHECK(depths({}) == std::make_pair(4u, 3u));  // M = 4 memory stages, N = 32 / 8 - 1
  CHECK(depths({{"sm.pipeline.mem_stages", "2"}, {"sm.pipeline.simd_width", "16"}}) == std::make_pair(2u, 1u));
  CHECK(depths({{"elastic.nonmem_depth", "6"}, {"elastic.premem_depth", "0"}}) == std::make_pair(6u, 0u));
}

TEST_CASE("elastic: refused without the in-order pipeline or with more than one writeback port, naming the key") {
  GpuParams::declare(ParamTable::global());
  auto refuse = [](const std::string& key, const std::string& value, const std::string& named) {
    Config c;
    c.merge_file(std::string(WARPTLM_SOURCE_DIR) + "/scenarios/configs/elastic_baseline.yaml");
    c.merge_file(std::string(WARPTLM_SOURCE_DIR) + "/scenarios/overlays/elastic.yaml");
    c.set(key, value);
    CHECK_THROWS_WITH(ElasticPipelineMechanism::params_from(c), Catch::Contains(named));
  };
  refuse("sm.pipeline.model", "decoupled", "sm.pipeline.backend");
  refuse("sm.writeback_ports", "2", "sm.writeback_ports");
  Config c;  // Fig. 2b's split design has no queues to size
  c.merge_file(std::string(WARPTLM_SOURCE_DIR) + "/scenarios/configs/elastic_baseline.yaml");
  c.merge_file(std::string(WARPTLM_SOURCE_DIR) + "/scenarios/overlays/elastic.yaml");
  c.set("elastic.design", "split");
  CHECK(ElasticPipelineMechanism::params_from(c).split);
  CHECK(ElasticPipelineMechanism::storage_bits(c) == 0);
  c.set("elastic.nonmem_depth", "4");
  CHECK_THROWS_WITH(ElasticPipelineMechanism::params_from(c), Catch::Contains("elastic.nonmem_depth"));
}

TEST_CASE("elastic: on elastic_baseline PREMEM absorbs part of the conflicts") {
  Rig rig(Sets{{"sm.pipeline.backend", "elastic"}});
  run_strided(rig, 8, 256);  // 8 warps, degree 8 in every part of both shared accesses
  CHECK(rig.counter("shmem_bank_conflicts") == 8 * 2 * 4 * 7);
  CHECK(rig.counter("elastic.premem_entries") > 0);
  // the unified pipeline stalls exactly shmem_bank_conflicts cycles (test_inorder.cpp); the queue hides some
  CHECK(rig.counter("pipe.stall_bank_conflict") < rig.counter("shmem_bank_conflicts"));
  check_taxonomy(rig);
}

// ---------------------------------------------------------------- bank-conflict-aware warp scheduling

TEST_CASE("bcaws: the history cache of Table 3 is 512 lines of 5 + 6 bits, 704 bytes") {
  ConflictHistory h(256, 2, 14);
  CHECK(h.tag_bits() == 6);  // 14 - log2(256)
  CHECK(h.bits() == 5632);
  CHECK(h.bits() / 8 == 704);
}

TEST_CASE("bcaws: a miss predicts nothing; the cache learns the last value, saturated to 5 bits") {
  ConflictHistory h(256, 2, 14);
  uint32_t e = 99;
  CHECK_FALSE(h.lookup(40, e));
  h.update(40, 4);
  REQUIRE(h.lookup(40, e));
  CHECK(e == 4);
  h.update(40, 28);  // last value wins
  REQUIRE(h.lookup(40, e));
  CHECK(e == 28);
  h.update(41, 40);  // more than 5 bits hold
  REQUIRE(h.lookup(41, e));
  CHECK(e == 31);
  h.clear();  // a kernel launch
  CHECK_FALSE(h.lookup(40, e));
}

TEST_CASE("bcaws: two ways per set, the least recently used replaced; PCs 16 K apart alias") {
  ConflictHistory h(256, 2, 14);
  uint32_t e = 0;
  h.update(7, 1);        // set 7
  h.update(7 + 256, 2);  // set 7, the other way
  REQUIRE(h.lookup(7, e));  // 7 is now the more recently used
  h.update(7 + 512, 3);     // evicts 7 + 256
  CHECK(h.lookup(7, e));
  CHECK(e == 1);
  CHECK_FALSE(h.lookup(7 + 256, e));
  CHECK(h.lookup(7 + 512, e));
  CHECK(h.lookup(7 + 16384, e));  // the 14-bit PC wraps: the same line
  CHECK(e == 1);
}

TEST_CASE("bcaws: the storage cost follows Tables 2 and 3 from the parameters") {
  GpuParams::declare(ParamTable::global());
  auto bits = [](const Sets& sets) {
    Config c;
    c.merge_file(std::string(WARPTLM_SOURCE_DIR) + "/scenarios/configs/elastic_baseline.yaml");
    for (auto& s : sets) c.set(s.first, s.second);
    return ElasticPipelineMechanism::storage_bits(c);
  };
  // (M + N) = 7 latches of 8 lanes (56 lane-latches, Table 2) of 32 bits
  CHECK(bits({{"sm.pipeline.backend", "elastic"}}) == 56 * 32);
  // the 704-byte cache plus a 5-bit accumulator and a 5-bit counter (Table 3)
  CHECK(bits({{"bcaws.enabled", "true"}}) == 5632 + 10);
  CHECK(bits({{"sm.pipeline.backend", "elastic"}, {"bcaws.enabled", "true"}}) == 56 * 32 + 5632 + 10);
  CHECK(bits({{"sm.pipeline.backend", "elastic"}, {"elastic.latch_bits", "1"}}) == 56);
}

TEST_CASE("bcaws: refused without the in-order pipeline, or with a cache it cannot index, naming the key") {
  GpuParams::declare(ParamTable::global());
  auto refuse = [](const Sets& sets, const std::string& named) {
    Config c;
    c.merge_file(std::string(WARPTLM_SOURCE_DIR) + "/scenarios/configs/elastic_baseline.yaml");
    c.set("bcaws.enabled", "true");
    for (auto& s : sets) c.set(s.first, s.second);
    CHECK_THROWS_WITH(ElasticPipelineMechanism::bcaws_from(c), Catch::Contains(named));
  };
  refuse({{"sm.pipeline.model", "decoupled"}}, "bcaws.enabled");
  refuse({{"bcaws.sets", "100"}}, "bcaws.sets");
  refuse({{"bcaws.pc_bits", "8"}}, "bcaws.pc_bits");
  refuse({{"bcaws.enabled", "false"}, {"bcaws.allow_violation", "true"}}, "bcaws.allow_violation");
}

TEST_CASE("bcaws: with the elastic pipeline it predicts a regular pattern's conflicts exactly") {
  Rig rig(Sets{{"sm.pipeline.backend", "elastic"}, {"bcaws.enabled", "true"}});
  run_strided(rig, 8, 256);  // every part degree 8: E = 4 x 8 - 4 = 28 for both shared instructions
  CHECK(rig.counter("bcaws.lookups") == 8 * 2);
  CHECK(rig.counter("bcaws.hits") > 0);
  CHECK(rig.counter("bcaws.predictions_exact") == rig.counter("bcaws.hits"));  // a regular pattern
  CHECK(rig.counter("bcaws.predictions_over") == 0);
  CHECK(rig.counter("pipe.stall_bank_conflict") < rig.counter("shmem_bank_conflicts"));
  CHECK(rig.counter("cost.elastic_pipeline.bits") == 56 * 32 + 5632 + 10);
  check_taxonomy(rig);
}

TEST_CASE("bcaws: a conflict-free kernel is never masked (spec claims 7 and 26)") {
  Rig rig(Sets{{"sm.pipeline.backend", "elastic"}, {"bcaws.enabled", "true"}});
  run_strided(rig, 1, 256);
  CHECK(rig.counter("bcaws.lookups") == 8 * 2);
  CHECK(rig.counter("bcaws.predictions_exact") == 16);
  CHECK(rig.counter("bcaws.mask_refusals") == 0);
  CHECK(rig.counter("pipe.stall_bank_conflict") == 0);
}
