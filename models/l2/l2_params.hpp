// Parameters of one L2 slice (every memory partition has one; all share them).
// Defaults: the GTX480 L2 of CIAO Table I (768 KB, 128 B lines, 8 ways,
// write-allocate, write-back, LRU) over 6 partitions of 128 KB, with the
// stock GPGPU-Sim 3.x MSHR and miss-queue sizes and its rop_latency
// (spec 002 section 1.2).
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>

#include "common/config.hpp"

namespace warptlm {

enum class L2Replacement : uint8_t { Lru, Fifo };
enum class L2Index : uint8_t { Linear, Xor };

struct L2Params {
  uint32_t slice_size = 131072;  // bytes of data in one slice
  uint32_t ways = 8;
  uint32_t line = 128;           // bytes per line (tag granularity)
  uint32_t sector = 32;          // bytes per sector (valid/dirty and DRAM fetch granularity)
  uint32_t latency = 120;        // L2 cycles from the end of a lookup to a hit's response
  uint32_t rop_latency = 0;      // L2 cycles every request spends in the ROP stage before the tag array (0: none)
  bool rop_in_core_cycles = false;  // l2.rop_clock core: the configured rop_latency counts core cycles (the
                                    // platform converts it to L2 cycles with count_in_l2_cycles)
  uint32_t input_queue = 64;     // sectors of requests past the ROP stage that may wait for the tag array
  uint32_t data_port = 0;        // bytes the arrays serve per L2 cycle (0: one request per cycle, whatever its size)
  uint32_t mshr_entries = 32;    // lines with fetches in flight
  uint32_t mshr_merges = 4;      // requests one MSHR entry holds, the first included
  uint32_t miss_queue = 4;       // requests (fetches and write-backs) waiting to go to DRAM
  double clock_mhz = 700;
  L2Replacement replacement = L2Replacement::Lru;
  L2Index index = L2Index::Linear;
  bool fetch_per_sector = false;  // one DRAM read per missing sector, else one per miss with all its sectors
  bool preload_copies = false;    // host-to-device copies leave their sectors valid in L2

  uint32_t sets() const { return slice_size / (line * ways); }
  uint32_t sectors_per_line() const { return line / sector; }
  // L2 cycles a request for `sectors` sectors holds the tag and data arrays.
  uint32_t access_cycles(uint32_t sectors) const {
    return data_port ? std::max(1u, (sectors * sector + data_port - 1) / data_port) : 1;
  }
  double period_ps() const { return 1e6 / clock_mhz; }
  // With l2.rop_clock core: rop_latency from core cycles into the L2's own.
  void count_in_l2_cycles(double core_mhz);

  static void declare(ParamTable& t);
  static L2Params from(const Config& c);  // InputError when the geometry does not fit together
  void check() const;                     // the same checks, for hand-built params
};

}  // namespace warptlm
