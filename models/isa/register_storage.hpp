// Register storage: where a warp keeps each of a kernel's registers.
//
// PTX names a fresh virtual register for almost every value (matmul's tiled
// kernel declares 116 registers, of which at most about 24 words are live at
// once), and a warp stores every register it may hold: 32 lanes of 64 bits
// each. Registers that are never live at the same time can use the same
// storage, as a register allocator would give them the same physical
// register, so a warp's state shrinks to what its live values need and stays
// in the host's caches at any GPU size.
//
// Only the storage moves: the kernel's scoreboard view (Instr::reads/writes,
// the operand collector's banks, KernelInfo::num_regs) keeps the PTX's own
// register numbers, so no timing decision can change, and every value a thread
// reads is the one it last wrote to that register, as before.
#pragma once

#include "isa/module.hpp"

namespace warptlm {

// A deliberate allocation error, for the tests that must catch one.
enum class RegisterStorageFault : uint8_t {
  None,
  GuardedWriteEndsValue,  // a guarded write ends the value before it, as an unguarded one does
};

// Gives each register of `k` (a linked kernel, one slot per register) a storage
// slot and rewrites its program's register operands to name them
// (KernelInfo::storage_of, storage_regs, declared_prog). A kernel that calls
// functions keeps one slot per register.
void share_register_storage(KernelInfo& k, RegisterStorageFault fault = RegisterStorageFault::None);

}  // namespace warptlm
