// The HAWS compiler pass (seed 004 ch. 5, spec 004 sec. 3.2-3.6): for every kernel, its stall points (an
// instruction that reads or overwrites a register a long-latency load may still be filling) and, for each,
// the chain of hints the hardware follows in hint mode: the instructions after the stall point, up to the
// next stall point, that the warp may run while the load is outstanding, in the order it meets them.
//
// Selection (sec. 3.6): nothing that depends, directly or through a skipped instruction, on the outstanding
// loads; no barrier; no store, atomic or reduction (they could race with the skipped instructions), and
// no load after a skipped store or after a barrier; no collective warp operation (shfl, vote, match) and
// no instruction that leaves the kernel. A branch whose condition is available is a hint of format 2:
// a direct branch continues at its target, a conditional one has two successors (taken, not taken), each
// walked on its own. An exit, a dependent branch, the next stall point, a revisited instruction or the
// offset limit (9 bits from the stall point, 11 for a branch's targets) ends a chain.
//
// Renaming (sec. 3.5): a chain instruction whose destination a skipped instruction reads or writes, or
// that an outstanding load will write, writes an unused register instead (the rename bit and Dst of its
// hint); later chain instructions read it through the renaming. The spare registers form a pool of
// `rcu_depth` per register file (data, predicate), the entry at place i along its path taking spare
// i mod rcu_depth: an episode runs at most rcu_depth entries, so no two it runs share one.
//
// PTX in (parsed, not rewritten): the hints are a side table per stall point, the spec's equivalent of
// hint bits in the instruction stream (sec. 3.4 [I]). Pcs are function-local.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "isa/ir.hpp"

namespace warptlm {
namespace passes {

struct HawsOptions {
  uint32_t rcu_depth = 8;       // RCU entries: instructions one episode runs, and spare registers per file
  uint32_t offset_bits = 9;     // format 1 target offset
  uint32_t branch_offset_bits = 11;  // format 2 target offsets
};

// One hint: an instruction the warp may run in hint mode.
struct HawsHint {
  uint32_t pc = 0;              // the instruction (function-local pc)
  uint32_t line = 0;            // its PTX line
  uint32_t offset = 0;          // instructions from the stall point along the chain's path (the stall point is 0)
  bool branch = false;          // format 2
  bool conditional = false;     // format 2, type 0 (two targets); a direct branch is type 1
  bool renamed = false;         // format 1 rename bit
  uint32_t dst = 0, renamed_to = 0;  // renamed: its destination slot and the spare slot it writes instead
  std::vector<std::pair<uint32_t, uint32_t>> sources;  // (slot read, slot it is read from) for renamed sources
  int32_t next = -1;            // the next hint on this path (a conditional branch: the not-taken path)
  int32_t taken = -1;           // a conditional branch: the first hint of the taken path
};

struct HawsStallPoint {
  uint32_t pc = 0, line = 0;
  std::vector<uint32_t> pending;  // slots an outstanding long-latency load may still be filling here
  std::vector<HawsHint> hints;    // the chain (a tree at conditional branches); hints[0] is the first
};

struct HawsKernelReport {
  std::string kernel;
  uint32_t line = 0;
  uint32_t num_regs = 0, num_preds = 0;          // the kernel's slots; predicate p is slot num_regs + p
  uint32_t spare_regs = 0, spare_preds = 0;      // spares renaming used (slots num_regs + num_preds + ...)
  std::vector<HawsStallPoint> stall_points;
  uint32_t hints() const;
  uint32_t renamed() const;
  std::string text() const;  // one line per stall point and hint
};

// Every .entry of `ptx` (functions it calls are not followed: a call ends a chain). Errors are InputErrors
// naming `origin` and the line.
std::vector<HawsKernelReport> haws_hints(const std::string& ptx, const std::string& origin, const HawsOptions& opt = {});

}  // namespace passes
}  // namespace warptlm
