// Control-flow graph of one PTX function and immediate post-dominators: the
// reconvergence point of every divergent branch (the SIMT stack pops there).
#pragma once
#include <cstdint>
#include <vector>

#include "isa/ir.hpp"

namespace warptlm {

struct BasicBlock {
  uint32_t first = 0, last = 0;      // instruction range [first, last]
  std::vector<uint32_t> succ;        // block indices; `exit_index` is the virtual exit
};

struct Cfg {
  std::vector<BasicBlock> blocks;
  std::vector<uint32_t> block_of;    // instruction -> block
  std::vector<int32_t> ipdom;        // block -> immediate post-dominator block (exit_index = function exit, -1 = none)
  uint32_t exit_index = 0;
};

// `body` uses function-local pcs: Bra targets are in ops[k].imm for Label operands.
Cfg build_cfg(const std::vector<Instr>& body);
// Reconvergence pc (function-local) of the branch at `pc`: kFuncExit or kNoPc when none.
uint32_t reconvergence_pc(const Cfg& cfg, uint32_t pc);

}  // namespace warptlm
