// Golden tests for models/gpu/occupancy: the baseline (unshared) resident
// thread blocks per SM of spec 000 (Scratchpad Sharing), computed by the model
// from each kernel's footprint and the configuration's per-SM limits, and the
// rule for each limit kind.
//
// Registers: the spec's kernels are scratchpad-limited and the paper gives no
// register counts, so they run with kSmallRegs registers per thread, which
// never binds (16 x 3072 threads = 49152 < 65536 registers per SM).
#include <catch2/catch.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/occupancy.hpp"

using namespace warptlm;

namespace {

constexpr uint32_t kSmallRegs = 16;

// Spec 000 §6.2 config table: 16 KB scratchpad, 65536 registers, 16 TBs, 3072 threads.
SmLimits baseline_16k() {
  SmLimits sm;
  sm.max_threads = 3072;
  sm.max_warps = 3072 / 32;
  sm.max_blocks = 16;
  sm.registers = 65536;
  sm.shared_mem = 16 * 1024;
  return sm;
}

// Spec 000 §6.2 Table 6: Configuration-1 (48 KB, 16 TBs, 2048 threads) and
// Configuration-2 (64 KB, 32 TBs, 2048 threads); registers as the baseline.
SmLimits config1_48k() {
  SmLimits sm = baseline_16k();
  sm.max_threads = 2048;
  sm.max_warps = 2048 / 32;
  sm.max_blocks = 16;
  sm.shared_mem = 48 * 1024;
  return sm;
}

SmLimits config2_64k() {
  SmLimits sm = config1_48k();
  sm.max_blocks = 32;
  sm.shared_mem = 64 * 1024;
  return sm;
}

// Spec 000 §6.2 / §8.1.8 (b) and (c): 48 KB scratchpad with 2048 or 3072
// resident threads; the other limits as the baseline.
SmLimits sec818_48k(uint32_t max_threads) {
  SmLimits sm = baseline_16k();
  sm.max_threads = max_threads;
  sm.max_warps = max_threads / 32;
  sm.shared_mem = 48 * 1024;
  return sm;
}

struct Kernel {
  const char* name;
  uint32_t smem;       // scratchpad bytes per TB (Table 1 / 5 / 7)
  uint32_t threads;    // TB size
  uint32_t expected;   // baseline TBs per SM as the spec prints it
  OccupancyLimit limit;
};

Occupancy occupancy_of(const SmLimits& sm, const Kernel& k) {
  return compute_occupancy(sm, BlockFootprint{k.threads, kSmallRegs, k.smem});
}

void check_table(const SmLimits& sm, const std::vector<Kernel>& kernels) {
  for (const auto& k : kernels) {
    const Occupancy occ = occupancy_of(sm, k);
    INFO(k.name << ": " << k.smem << " B, " << k.threads << " threads, limited by "
                << occupancy_limit_name(occ.limit));
    CHECK(occ.blocks_per_sm == k.expected);
    CHECK(occ.limit == k.limit);
  }
}

constexpr auto kSmem = OccupancyLimit::SharedMemory;
constexpr auto kThreads = OccupancyLimit::Threads;
constexpr auto kBlocks = OccupancyLimit::Blocks;

}  // namespace

TEST_CASE("occupancy spec 000 section 1 baseline TBs and scratchpad waste at 16 KB", "[occupancy][spec000]") {
  // Example 3.1 and the §1 table: R_tb, baseline TBs, unused B, unused %.
  struct Row { const char* name; uint32_t smem, threads, tbs, unused; double pct; };
  const Row rows[] = {
      {"backprop", 9408, 256, 1, 6976, 42.58},  {"DCT1", 2112, 64, 7, 1600, 9.77},
      {"DCT2", 2112, 64, 7, 1600, 9.77},        {"DCT3", 2176, 128, 7, 1152, 7.03},
      {"DCT4", 2176, 128, 7, 1152, 7.03},       {"NQU", 10496, 64, 1, 5888, 35.94},
      {"SRAD1", 13824, 576, 1, 2560, 15.62},    {"SRAD2", 11520, 576, 1, 4864, 29.69},
      {"FDTD3d", 3840, 128, 4, 1024, 6.25},     {"heartwall", 11872, 128, 1, 4512, 27.54},
      {"histogram", 9216, 192, 1, 7168, 43.75}, {"MC1", 9216, 32, 1, 7168, 43.75},
      {"NW1", 8452, 32, 1, 7932, 48.41},        {"NW2", 8452, 32, 1, 7932, 48.41},
  };
  const SmLimits sm = baseline_16k();
  for (const auto& r : rows) {
    const Occupancy occ = compute_occupancy(sm, BlockFootprint{r.threads, kSmallRegs, r.smem});
    INFO(r.name);
    CHECK(occ.blocks_per_sm == r.tbs);
    CHECK(occ.limit == kSmem);
    const uint32_t unused = sm.shared_mem - occ.blocks_per_sm * r.smem;
    CHECK(unused == r.unused);
    CHECK(100.0 * unused / sm.shared_mem == Approx(r.pct).margin(0.0051));  // printed to 2 decimals
  }
}

TEST_CASE("occupancy spec 000 section 6.4 baseline occupancy at 16 KB", "[occupancy][spec000]") {
  // §6.4 stated (Unshared-LRR: DCT1/2 7, DCT3/4 7, FDTD3d 4, all others 1) for
  // the Table 1 kernels, and the derived 16K column for kmeans, lud (Table 5)
  // and the Yang et al. kernels (Table 7).
  check_table(baseline_16k(), {
      {"backprop", 9408, 256, 1, kSmem},   {"DCT1", 2112, 64, 7, kSmem},
      {"DCT2", 2112, 64, 7, kSmem},        {"DCT3", 2176, 128, 7, kSmem},
      {"DCT4", 2176, 128, 7, kSmem},       {"NQU", 10496, 64, 1, kSmem},
      {"SRAD1", 13824, 576, 1, kSmem},     {"SRAD2", 11520, 576, 1, kSmem},
      {"FDTD3d", 3840, 128, 4, kSmem},     {"heartwall", 11872, 128, 1, kSmem},
      {"histogram", 9216, 192, 1, kSmem},  {"MC1", 9216, 32, 1, kSmem},
      {"NW1", 8452, 32, 1, kSmem},         {"NW2", 8452, 32, 1, kSmem},
      {"kmeans", 4608, 576, 3, kSmem},     {"lud", 3872, 484, 4, kSmem},
      {"Yang CV", 8256, 128, 1, kSmem},    {"Yang FFT", 8704, 64, 1, kSmem},
      {"Yang MC", 9216, 32, 1, kSmem},     {"Yang HG", 7168, 32, 2, kSmem},
      {"Yang MV", 4224, 32, 3, kSmem},     {"Yang SP", 4114, 64, 3, kSmem},
  });
}

TEST_CASE("occupancy spec 000 section 7.11 baseline occupancy at 48 KB cfg-1", "[occupancy][spec000]") {
  // §6.4 derived 48K column for the Table 5 kernels (DCT1/2 at 8320 B; baseline
  // 5 with 128 or 256 threads).
  check_table(config1_48k(), {
      {"backprop", 9408, 256, 5, kSmem},    {"DCT1 128 thr", 8320, 128, 5, kSmem},
      {"DCT2 128 thr", 8320, 128, 5, kSmem}, {"DCT1 256 thr", 8320, 256, 5, kSmem},
      {"NQU", 10496, 64, 4, kSmem},         {"histogram", 9216, 192, 5, kSmem},
      {"MC2", 13824, 48, 3, kSmem},         {"NW1", 8452, 32, 5, kSmem},
      {"NW2", 8452, 32, 5, kSmem},          {"FDTD3d", 3840, 128, 12, kSmem},
      {"heartwall", 11872, 128, 4, kSmem},  {"MC1", 9216, 32, 5, kSmem},
  });
}

TEST_CASE("occupancy spec 000 section 7.11 baseline occupancy at 64 KB cfg-2", "[occupancy][spec000]") {
  // §6.4 derived 64K column. FDTD3d is "not smem-limited": 2048/128 = 16
  // resident-thread cap below ⌊65536/3840⌋ = 17.
  check_table(config2_64k(), {
      {"backprop", 9408, 256, 6, kSmem},    {"DCT1 128 thr", 8320, 128, 7, kSmem},
      {"DCT2 128 thr", 8320, 128, 7, kSmem}, {"DCT1 256 thr", 8320, 256, 7, kSmem},
      {"NQU", 10496, 64, 6, kSmem},         {"histogram", 9216, 192, 7, kSmem},
      {"MC2", 13824, 48, 4, kSmem},         {"NW1", 8452, 32, 7, kSmem},
      {"NW2", 8452, 32, 7, kSmem},          {"FDTD3d", 3840, 128, 16, kThreads},
      {"heartwall", 11872, 128, 5, kSmem},  {"MC1", 9216, 32, 7, kSmem},
  });
  const Occupancy fdtd = compute_occupancy(config2_64k(), BlockFootprint{128, kSmallRegs, 3840});
  CHECK(fdtd.by_shared == 17);
}

TEST_CASE("occupancy spec 000 section 6.4 SRAD and DCT in the section 8.1.8 b and c configs", "[occupancy][spec000]") {
  // (b) 48K / 2048 threads: SRAD1 stays at 3 (thread cap; it ties with
  // scratchpad and the tie names threads), SRAD2 is thread-limited at 3.
  check_table(sec818_48k(2048), {
      {"SRAD1", 13824, 576, 3, kThreads},
      {"SRAD2", 11520, 576, 3, kThreads},
      {"DCT1", 2112, 64, 16, kBlocks},
      {"DCT3", 2176, 128, 16, kThreads},  // 2048/128 = 16 ties the 16-TB cap
  });
  // (c) 48K / 3072 threads: SRAD1 3 (→5 shared), SRAD2 4 (→5 shared), both
  // scratchpad-limited; DCT1–4 at the 16-TB cap.
  check_table(sec818_48k(3072), {
      {"SRAD1", 13824, 576, 3, kSmem},
      {"SRAD2", 11520, 576, 4, kSmem},
      {"DCT1", 2112, 64, 16, kBlocks},
      {"DCT2", 2112, 64, 16, kBlocks},
      {"DCT3", 2176, 128, 16, kBlocks},
      {"DCT4", 2176, 128, 16, kBlocks},
  });
}

TEST_CASE("occupancy spec 000 section 6.4 DCT 8320 B reaches the thread limit of 8 only with 256 threads", "[occupancy][spec000]") {
  // §7.11: DCT1/DCT2 reach 8 TBs at 48K and 64K, "the limit on resident
  // threads". With Table 5's 128 threads the thread limit is 16, so the 8
  // implies 256 threads per TB (32x64 tile: 32*65*4 = 8320 B).
  const uint32_t paper_tbs = 8;
  for (const SmLimits& sm : {config1_48k(), config2_64k()}) {
    INFO("scratchpad " << sm.shared_mem << " B");
    const Occupancy t256 = compute_occupancy(sm, BlockFootprint{256, kSmallRegs, 8320});
    const Occupancy t128 = compute_occupancy(sm, BlockFootprint{128, kSmallRegs, 8320});
    CHECK(t256.by_threads == paper_tbs);
    CHECK(t128.by_threads != paper_tbs);
    CHECK(t128.by_threads == 16);
    CHECK(t256.blocks_per_sm == t128.blocks_per_sm);  // baseline is scratchpad-limited either way
    CHECK(t256.blocks_per_sm < paper_tbs);
  }
  CHECK(32 * 65 * 4 == 8320);
}

TEST_CASE("occupancy spec 000 thread caps on shared occupancy equal the model thread limit", "[occupancy][spec000]") {
  // The right-hand numbers the paper attributes to the resident-thread limit:
  // backprop 8 at 64K, FDTD3d 16 at 48K, SRAD1 3 at 48K/2048, kmeans 5 at 16K.
  CHECK(compute_occupancy(config2_64k(), BlockFootprint{256, kSmallRegs, 9408}).by_threads == 8);
  CHECK(compute_occupancy(config1_48k(), BlockFootprint{128, kSmallRegs, 3840}).by_threads == 16);
  CHECK(compute_occupancy(sec818_48k(2048), BlockFootprint{576, kSmallRegs, 13824}).by_threads == 3);
  CHECK(compute_occupancy(baseline_16k(), BlockFootprint{576, kSmallRegs, 4608}).by_threads == 5);
}

TEST_CASE("occupancy limited by threads", "[occupancy]") {
  SmLimits sm;  // 1536 threads, 48 warps, 8 blocks
  const Occupancy occ = compute_occupancy(sm, BlockFootprint{512, 0, 0});
  CHECK(occ.blocks_per_sm == 3);
  CHECK(occ.limit == OccupancyLimit::Threads);  // ties warps (48/16 = 3): first in enum order
  CHECK(occ.by_warps == 3);
}

TEST_CASE("occupancy limited by warps", "[occupancy]") {
  SmLimits sm;
  sm.max_threads = 2048;
  sm.max_warps = 48;
  const Occupancy occ = compute_occupancy(sm, BlockFootprint{512, 0, 0});
  CHECK(occ.by_threads == 4);
  CHECK(occ.by_warps == 3);
  CHECK(occ.blocks_per_sm == 3);
  CHECK(occ.limit == OccupancyLimit::Warps);
}

TEST_CASE("occupancy limited by blocks", "[occupancy]") {
  SmLimits sm;
  const Occupancy occ = compute_occupancy(sm, BlockFootprint{64, 20, 1024});
  CHECK(occ.by_threads == 24);
  CHECK(occ.by_registers == 25);  // 32768 / (20 * 64)
  CHECK(occ.by_shared == 48);
  CHECK(occ.blocks_per_sm == 8);
  CHECK(occ.limit == OccupancyLimit::Blocks);
}

TEST_CASE("occupancy limited by registers", "[occupancy]") {
  SmLimits sm;  // 32768 registers
  const Occupancy occ = compute_occupancy(sm, BlockFootprint{256, 32, 0});
  CHECK(occ.by_registers == 4);  // 32768 / (32 * 256)
  CHECK(occ.blocks_per_sm == 4);
  CHECK(occ.limit == OccupancyLimit::Registers);
}

TEST_CASE("occupancy limited by shared memory", "[occupancy]") {
  SmLimits sm;  // 49152 B
  const Occupancy occ = compute_occupancy(sm, BlockFootprint{128, 16, 12000});
  CHECK(occ.by_shared == 4);
  CHECK(occ.blocks_per_sm == 4);
  CHECK(occ.limit == OccupancyLimit::SharedMemory);
}

TEST_CASE("occupancy partial warps occupy whole warp and thread slots", "[occupancy]") {
  SmLimits sm;
  sm.max_blocks = 64;
  // 48 threads = 2 warps = 64 thread slots: 1536 / 64 = 24, not 1536 / 48 = 32.
  const Occupancy occ = compute_occupancy(sm, BlockFootprint{48, 0, 0});
  CHECK(occ.by_threads == 24);
  CHECK(occ.by_warps == 24);
  CHECK(occ.blocks_per_sm == 24);
  CHECK(occ.limit == OccupancyLimit::Threads);
  // Registers are also allocated for the padded warp: 2 warps * 32 * 32 regs.
  const Occupancy regs = compute_occupancy(sm, BlockFootprint{48, 32, 0});
  CHECK(regs.by_registers == 16);  // 32768 / 2048
  CHECK(compute_occupancy(sm, BlockFootprint{33, 0, 0}).by_threads == 24);
  CHECK(compute_occupancy(sm, BlockFootprint{1, 0, 0}).by_warps == 48);
}

TEST_CASE("occupancy register allocation unit rounds each warp up", "[occupancy]") {
  SmLimits sm;  // 32768 registers, 128-thread block = 4 warps
  const BlockFootprint fp{128, 33, 0};
  CHECK(compute_occupancy(sm, fp).by_registers == 7);  // exact: 33*32 = 1056 per warp, 32768/4224
  sm.reg_alloc_unit = 256;
  const Occupancy occ = compute_occupancy(sm, fp);
  CHECK(occ.by_registers == 6);  // 1056 -> 1280 per warp, 32768/5120
  CHECK(occ.limit == OccupancyLimit::Registers);
  sm.reg_alloc_unit = 0;  // treated as exact
  CHECK(compute_occupancy(sm, fp).by_registers == 7);
}

TEST_CASE("occupancy shared memory allocation unit rounds each block up", "[occupancy]") {
  SmLimits sm = baseline_16k();
  const BlockFootprint fp{64, 0, 2112};
  CHECK(compute_occupancy(sm, fp).by_shared == 7);
  sm.smem_alloc_unit = 512;  // 2112 -> 2560
  CHECK(compute_occupancy(sm, fp).by_shared == 6);
  sm.smem_alloc_unit = 128;  // 2112 -> 2176, still 7
  CHECK(compute_occupancy(sm, fp).by_shared == 7);
}

TEST_CASE("occupancy a block that cannot fit gives 0 blocks and names the resource", "[occupancy]") {
  SmLimits sm;
  Occupancy occ = compute_occupancy(sm, BlockFootprint{2048, 0, 0});
  CHECK(occ.blocks_per_sm == 0);
  CHECK(occ.limit == OccupancyLimit::Threads);

  sm.max_threads = 4096;  // warps (48) now the binding limit for 64 warps
  occ = compute_occupancy(sm, BlockFootprint{2048, 0, 0});
  CHECK(occ.blocks_per_sm == 0);
  CHECK(occ.limit == OccupancyLimit::Warps);

  occ = compute_occupancy(SmLimits{}, BlockFootprint{1024, 64, 0});  // 65536 > 32768 registers
  CHECK(occ.blocks_per_sm == 0);
  CHECK(occ.limit == OccupancyLimit::Registers);

  occ = compute_occupancy(SmLimits{}, BlockFootprint{128, 0, 49153});
  CHECK(occ.blocks_per_sm == 0);
  CHECK(occ.limit == OccupancyLimit::SharedMemory);
  CHECK(std::string(occupancy_limit_name(occ.limit)) == "shared_memory");

  SmLimits no_blocks;
  no_blocks.max_blocks = 0;
  occ = compute_occupancy(no_blocks, BlockFootprint{32, 0, 0});
  CHECK(occ.blocks_per_sm == 0);
  CHECK(occ.limit == OccupancyLimit::Blocks);

  occ = compute_occupancy(SmLimits{}, BlockFootprint{0, 0, 0});
  CHECK(occ.blocks_per_sm == 0);
  CHECK(occ.limit == OccupancyLimit::Threads);
}

TEST_CASE("occupancy zero registers or zero shared bytes do not limit", "[occupancy]") {
  const Occupancy occ = compute_occupancy(SmLimits{}, BlockFootprint{32, 0, 0});
  CHECK(occ.by_registers == kOccupancyUnlimited);
  CHECK(occ.by_shared == kOccupancyUnlimited);
  CHECK(occ.blocks_per_sm == 8);
  CHECK(occ.limit == OccupancyLimit::Blocks);
}

TEST_CASE("occupancy ties name the first limit in enum order", "[occupancy]") {
  SmLimits sm;
  sm.max_blocks = 3;
  // threads 3, warps 3, blocks 3, registers 32768/(16*512) = 4, shared 49152/16384 = 3
  Occupancy occ = compute_occupancy(sm, BlockFootprint{512, 16, 16384});
  CHECK(occ.blocks_per_sm == 3);
  CHECK(occ.limit == OccupancyLimit::Threads);
  sm.max_threads = 4096;  // warps, blocks and shared tie
  occ = compute_occupancy(sm, BlockFootprint{512, 16, 16384});
  CHECK(occ.limit == OccupancyLimit::Warps);
  sm.max_warps = 128;  // blocks and shared tie
  occ = compute_occupancy(sm, BlockFootprint{512, 16, 16384});
  CHECK(occ.limit == OccupancyLimit::Blocks);
  sm.max_blocks = 16;  // registers 4 vs shared 3
  occ = compute_occupancy(sm, BlockFootprint{512, 16, 16384});
  CHECK(occ.limit == OccupancyLimit::SharedMemory);
  sm.shared_mem = 65536;  // registers 4 ties shared 4
  occ = compute_occupancy(sm, BlockFootprint{512, 16, 16384});
  CHECK(occ.blocks_per_sm == 4);
  CHECK(occ.limit == OccupancyLimit::Registers);
}

TEST_CASE("occupancy limit names", "[occupancy]") {
  CHECK(std::string(occupancy_limit_name(OccupancyLimit::Threads)) == "threads");
  CHECK(std::string(occupancy_limit_name(OccupancyLimit::Warps)) == "warps");
  CHECK(std::string(occupancy_limit_name(OccupancyLimit::Blocks)) == "blocks");
  CHECK(std::string(occupancy_limit_name(OccupancyLimit::Registers)) == "registers");
  CHECK(std::string(occupancy_limit_name(OccupancyLimit::SharedMemory)) == "shared_memory");
  SmLimits bad;
  bad.warp_size = 0;
  CHECK_THROWS_AS(compute_occupancy(bad, BlockFootprint{32, 0, 0}), std::invalid_argument);
}
