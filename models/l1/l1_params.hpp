// Parameters of one L1 data cache (every SM has one; all share these values).
// Defaults are the GTX480 L1D of CIAO Table I with the stock GPGPU-Sim 3.2
// values the paper leaves out (spec 002, sections 1.1 and 1.2).
#pragma once
#include <cstdint>
#include <vector>

#include "common/config.hpp"

namespace warptlm {

enum class L1Replacement : uint8_t { Lru, Fifo };
enum class L1Hash : uint8_t { Linear, Xor };
// When a missing line takes its way: at the fill (the way's old line stays hittable meanwhile), or at the
// miss (GPGPU-Sim's allocate-on-miss: the victim leaves at once and the way is reserved until the fill; a
// miss whose set has every way reserved is refused).
enum class L1Allocate : uint8_t { OnFill, OnMiss };
// What a store does: write-through sends every store below, write-back keeps
// it in a dirty line; allocate installs the line on a store miss (without
// fetching it: the written sectors become valid), no-allocate leaves the
// cache unchanged on a miss.
// WriteEvict: a store goes below and a hit invalidates the sectors it writes; a miss allocates nothing
// (GPGPU-Sim's write-evict, which its L1's "L" policy gives global stores).
enum class L1WritePolicy : uint8_t { WriteThroughNoAllocate, WriteThroughAllocate, WriteBackAllocate, WriteBackNoAllocate, WriteEvict };

struct L1Params {
  bool enabled = true;
  bool flush_at_launch = false;  // every L1D invalidated when a launch starts (GPGPU-Sim's -gpgpu_flush_l1_cache)
  uint32_t sets = 32, ways = 4;
  uint32_t line = 128;    // bytes; one upstream request covers one line
  uint32_t sector = 32;   // bytes; valid and dirty bits are kept per sector
  L1Replacement replacement = L1Replacement::Lru;
  bool fill_is_use = true;  // l1d.recency: fill (a fill makes its line the most recent) | access (it does not)
  L1Hash hash = L1Hash::Xor;
  L1Allocate allocate = L1Allocate::OnFill;
  uint32_t hit_latency = 1;
  uint32_t mshr_entries = 32;
  uint32_t mshr_merges = 8;  // requests one MSHR entry can hold, the one that allocated it included
  uint32_t miss_queue = 8;   // requests waiting to go downstream (fills, write-throughs, write-backs, bypasses)
  L1WritePolicy global_write = L1WritePolicy::WriteThroughNoAllocate;
  L1WritePolicy local_write = L1WritePolicy::WriteBackAllocate;
  bool global_loads_bypass = false;  // global loads pass below untouched (GPGPU-Sim's -gpgpu_gmem_skip_L1D)
  // A unified L1D and shared memory (l1d.unified_size > 0; GPGPU-Sim's -gpgpu_adaptive_cache_config with
  // -gpgpu_unified_l1d_size): `ways` are the L1D's with no carve-out; each launch the shared memory takes the
  // smallest carve-out (bytes, ascending) holding its blocks' shared memory on one SM, and the L1D keeps
  // the ways the rest holds (carve_out_ways).
  uint32_t unified_size = 0;
  std::vector<uint32_t> carveouts;
  // The ways the L1D keeps beside a shared-memory carve-out of `carveout` bytes: ways x (1 - carveout /
  // unified_size), rounded to the nearest (GPGPU-Sim's set_assoc(max_assoc x l1_ratio + 0.5)).
  uint32_t carve_out_ways(uint32_t carveout) const {
    return uint32_t((uint64_t(ways) * (unified_size - carveout) * 2 + unified_size) / (2 * uint64_t(unified_size)));
  }

  uint32_t sectors_per_line() const { return line / sector; }
  uint32_t full_sector_mask() const {
    return sectors_per_line() >= 32 ? 0xFFFFFFFFu : ((1u << sectors_per_line()) - 1);
  }
  // Throws InputError naming the key when the geometry is inconsistent.
  void check() const;

  static void declare(ParamTable& t);
  static L1Params from(const Config& c);
};

// The set a byte address maps to (see README "Set index"):
//  linear: line number modulo sets;
//  xor:    Fermi's hashed index (Nugteren et al., HPCA 2014) for 32 or 64 sets
//          of 128-byte lines; for other power-of-two geometries the line
//          number's index bits XOR the next log2(sets) bits above them.
uint32_t l1_set_index(const L1Params& p, uint64_t addr);
uint32_t log2_of(uint64_t v);  // the exponent of a power of two (a set count, a line size)

const char* l1_write_policy_name(L1WritePolicy w);

}  // namespace warptlm
