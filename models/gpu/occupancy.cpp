#include "gpu/occupancy.hpp"

#include <algorithm>
#include <stdexcept>

namespace warptlm {
namespace {

uint64_t round_up(uint64_t value, uint32_t unit) {
  if (unit <= 1) return value;
  return (value + unit - 1) / unit * unit;
}

uint32_t blocks_that_fit(uint64_t capacity, uint64_t per_block) {
  return static_cast<uint32_t>(std::min<uint64_t>(capacity / per_block, kOccupancyUnlimited));
}

}  // namespace

Occupancy compute_occupancy(const SmLimits& sm, const BlockFootprint& block) {
  if (sm.warp_size == 0) throw std::invalid_argument("occupancy: warp_size must be > 0");
  Occupancy occ;
  if (block.threads == 0) {
    occ.limit = OccupancyLimit::Threads;
    return occ;
  }
  // A partial warp still occupies a whole warp slot and warp_size thread slots
  // (GPGPU-Sim pads the block to whole warps).
  const uint64_t warps_per_block = (uint64_t{block.threads} + sm.warp_size - 1) / sm.warp_size;
  const uint64_t padded_threads = warps_per_block * sm.warp_size;

  occ.by_threads = blocks_that_fit(sm.max_threads, padded_threads);
  occ.by_warps = blocks_that_fit(sm.max_warps, warps_per_block);
  occ.by_blocks = sm.max_blocks;

  // Register file: each warp takes regs_per_thread*warp_size registers,
  // rounded up to the allocation unit.
  if (block.regs_per_thread == 0) {
    occ.by_registers = kOccupancyUnlimited;
  } else {
    const uint64_t regs_per_warp =
        round_up(uint64_t{block.regs_per_thread} * sm.warp_size, sm.reg_alloc_unit);
    occ.by_registers = blocks_that_fit(sm.registers, regs_per_warp * warps_per_block);
  }

  // Scratchpad is allocated per block (spec 000 §1: ⌊R/R_tb⌋ blocks, R mod R_tb wasted).
  if (block.shared_bytes == 0) {
    occ.by_shared = kOccupancyUnlimited;
  } else {
    occ.by_shared = blocks_that_fit(sm.shared_mem, round_up(block.shared_bytes, sm.smem_alloc_unit));
  }

  const std::pair<uint32_t, OccupancyLimit> limits[] = {
      {occ.by_threads, OccupancyLimit::Threads},
      {occ.by_warps, OccupancyLimit::Warps},
      {occ.by_blocks, OccupancyLimit::Blocks},
      {occ.by_registers, OccupancyLimit::Registers},
      {occ.by_shared, OccupancyLimit::SharedMemory},
  };
  occ.blocks_per_sm = limits[0].first;
  occ.limit = limits[0].second;
  for (const auto& [blocks, which] : limits) {
    if (blocks < occ.blocks_per_sm) {  // strict: a tie keeps the earlier limit
      occ.blocks_per_sm = blocks;
      occ.limit = which;
    }
  }
  return occ;
}

const char* occupancy_limit_name(OccupancyLimit limit) {
  switch (limit) {
    case OccupancyLimit::Threads: return "threads";
    case OccupancyLimit::Warps: return "warps";
    case OccupancyLimit::Blocks: return "blocks";
    case OccupancyLimit::Registers: return "registers";
    case OccupancyLimit::SharedMemory: return "shared_memory";
  }
  return "unknown";
}

}  // namespace warptlm
