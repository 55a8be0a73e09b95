// Occupancy of the thread-block dispatcher: how many thread blocks of one
// kernel an SM can hold at once, and which per-SM resource stops the next one.
// An SM holds ⌊R/R_tb⌋ blocks for each resource R (spec 000 §1); the count is
// the minimum over threads, warps, blocks, registers and scratchpad. Rules and
// rounding are in models/gpu/OCCUPANCY.md.
#pragma once
#include <cstdint>
#include <limits>

namespace warptlm {

// Per-SM capacities, from config. Defaults are a Fermi-class SM.
struct SmLimits {
  uint32_t max_threads = 1536;   // resident threads (counted in whole warps)
  uint32_t max_warps = 48;       // resident warps
  uint32_t max_blocks = 8;       // resident thread blocks
  uint32_t registers = 32768;    // 32-bit registers in the register file
  // Registers are allocated per warp: regs_per_thread*warp_size rounded up to
  // a multiple of reg_alloc_unit (CUDA occupancy calculator's "register
  // allocation unit", 256 on Kepler). 1 (or 0) = exact.
  uint32_t reg_alloc_unit = 1;
  uint32_t shared_mem = 49152;   // scratchpad bytes
  uint32_t smem_alloc_unit = 1;  // a block's scratchpad is rounded up to this many bytes; 1 (or 0) = exact
  uint32_t warp_size = 32;
};

// What one thread block of the kernel asks for.
struct BlockFootprint {
  uint32_t threads = 0;          // threads per block
  uint32_t regs_per_thread = 0;  // 0: not limited by registers
  uint32_t shared_bytes = 0;     // static + dynamic scratchpad; 0: not limited by scratchpad
};

// Ties between limits name the first in this order.
enum class OccupancyLimit { Threads, Warps, Blocks, Registers, SharedMemory };

// Value of a by_* field when the footprint does not use that resource.
constexpr uint32_t kOccupancyUnlimited = std::numeric_limits<uint32_t>::max();

struct Occupancy {
  uint32_t blocks_per_sm = 0;                   // min of the by_* below
  OccupancyLimit limit = OccupancyLimit::Blocks;  // the resource that binds (first in enum order on a tie)
  uint32_t by_threads = 0, by_warps = 0, by_blocks = 0, by_registers = 0, by_shared = 0;
};

// blocks_per_sm is 0 when a single block cannot fit; `limit` then names the
// resource it overflows. A 0-thread footprint fits nowhere (limit Threads).
// Throws std::invalid_argument when warp_size is 0.
Occupancy compute_occupancy(const SmLimits& sm, const BlockFootprint& block);

// "threads", "warps", "blocks", "registers", "shared_memory".
const char* occupancy_limit_name(OccupancyLimit limit);

}  // namespace warptlm
