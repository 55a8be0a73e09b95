// Bank-conflict arithmetic of the shared-memory array, as pure functions so
// that the timing module, tests and later mechanisms (bank-conflict-aware
// scheduling, the elastic pipeline's history cache) compute degrees the same
// way.
//
// A warp access is served in `warp_parts` lane groups ("parts": a whole warp,
// half-warps or 8-lane quarter-warps) one after another. Within a part every
// bank delivers one word per cycle, so a part takes as many cycles as the
// busiest bank has words to deliver: its conflict degree (seed 001, Sect. 3.1:
// "the maximal number of simultaneous accesses to the same bank during the
// same SIMD shared memory access"; distinct words, with the broadcast rule).
// The access takes the sum of its parts' degrees (seed 001 Eq. 6), each part
// at least one cycle.
//
// A lane of access_bytes bytes at byte offset a touches every word from
// a / bank_width to (a + access_bytes - 1) / bank_width: a 64-bit lane on
// 4-byte banks touches 2 consecutive words (2 banks under the linear mapping),
// a 128-bit lane 4. Narrower lanes that share a word read that one word.
#pragma once
#include <cstdint>

#include "smem/smem_params.hpp"

namespace warptlm {

// Bank that holds byte offset `addr` of the shared space.
uint32_t smem_bank_of(uint64_t addr, const SharedMemoryParams& p);

// Conflict degree of the lanes in `mask` served together as one part:
// lane_addr[l] is lane l's byte offset (32 entries; only lanes in `mask` are
// read), `bytes` the bytes per lane (0 is taken as 4). At least 1, also when
// `mask` is empty (the part still takes its slot in the array).
uint32_t conflict_degree(const uint64_t* lane_addr, uint32_t mask, unsigned bytes, const SharedMemoryParams& p);

// Service cycles of a whole warp access: the sum over p.warp_parts parts of
// each part's degree. `part_degrees`, when given, receives the degree of each
// part (p.warp_parts entries).
uint32_t service_cycles(const uint64_t* lane_addr, uint32_t mask, unsigned bytes, const SharedMemoryParams& p,
                        uint32_t* part_degrees = nullptr);

// Degree of a contiguous block of `bytes` bytes from `addr` read or written in
// one access (a cache line of a mechanism that borrows the array, e.g. CIAO's
// redirected lines): the busiest bank's word count, at least 1.
uint32_t block_degree(uint64_t addr, uint32_t bytes, const SharedMemoryParams& p);

}  // namespace warptlm
