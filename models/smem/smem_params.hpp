// Parameters of the banked shared memory of one SM (every SM has the same).
// Keys live under "smem."; SharedMemoryParams::declare() is the one place
// that names them, with defaults, ranges and meanings.
#pragma once
#include <cstdint>

#include "common/block_impl.hpp"
#include "common/config.hpp"

namespace warptlm {

// Which lanes reading the same word a bank can serve in one cycle.
//  Full    - any number of same-word groups, in any banks, are multicast
//            together (Fermi and later: one bank read feeds every lane that
//            asked for that word).
//  Limited - one broadcast network per SM: only one word per cycle may go to
//            more than one lane; every other multicast word needs a cycle of
//            its own (compute capability 1.x; GPGPU-Sim's
//            gpgpu_shmem_limited_broadcast).
//  None    - no broadcast: every lane's access is a separate bank access.
enum class SmemBroadcast : uint8_t { Full, Limited, None };

// Address-to-bank mapping. With word = addr / bank_width:
//  Linear - bank = word mod banks (word-interleaved; GPGPU-Sim's shmem_bank_func).
//  Xor    - bank = (word mod banks) XOR ((word / banks) mod banks): each row of
//           `banks` words is permuted by its row number, so a column (stride
//           `banks` words, e.g. a transposed tile read) spreads over all banks.
//           Needs a power-of-two bank count.
enum class SmemMapping : uint8_t { Linear, Xor };

struct SharedMemoryParams {
  uint32_t banks = 32;       // independent single-ported banks
  uint32_t bank_width = 4;   // bytes one bank delivers per cycle (a "word")
  uint32_t latency = 24;     // cycles from acceptance to response for a conflict-free access
  SmemBroadcast broadcast = SmemBroadcast::Full;
  uint32_t warp_parts = 1;   // the warp is served as this many lane groups, one after another
  SmemMapping mapping = SmemMapping::Linear;
  uint32_t size = 49152;     // bytes of the array per SM
  BlockImpl bank_arbiter_impl = BlockImpl::Model;  // smem.bank_arbiter.impl: the model, its RTL, or both (docs/rtl.md)

  uint32_t lanes_per_part() const { return 32u / warp_parts; }

  static void declare(ParamTable& t);
  // Reads the keys; throws InputError for combinations the ranges cannot
  // express (a bank width or warp_parts that is not a power of two, xor
  // mapping on a non-power-of-two bank count).
  static SharedMemoryParams from(const Config& c);
  // The same checks for a struct built in code.
  void validate() const;
};

const char* smem_broadcast_name(SmemBroadcast b);
const char* smem_mapping_name(SmemMapping m);

}  // namespace warptlm
