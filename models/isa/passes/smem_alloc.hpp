// Scratchpad allocation (seed 000 section 6.1, spec 5.2): per kernel, choose
// the .shared variables that go to the shared region (offsets at or above
// t * R_tb) so that the region's access range, counted in loop-weighted
// instructions, is smallest; realise the choice by reordering the .shared
// declarations so those variables come last. PTX text in, PTX text out.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "isa/passes/pass_util.hpp"

namespace warptlm {
namespace passes {

struct SmemAllocOptions {
  double threshold = 0.1;          // t: private fraction of R_tb
  double loop_weight = 10.0;       // an instruction at loop depth d weighs loop_weight^d
  unsigned max_enumerated_vars = 16;  // above this many movable variables the order is kept
};

// Dataflow facts of one analysis node (spec 5.2), one bit per variable.
struct SmemNodeFacts {
  std::string label;       // "Entry", "Exit", the block's first label, or "line N"
  int32_t block = -1;      // CFG block; -1 for Entry/Exit
  uint32_t first_line = 0; // PTX line of the block's first instruction
  bool reachable = false;
  uint32_t loop_depth = 0;
  VarMask access = 0, pre_in = 0, pre_out = 0, post_in = 0, post_out = 0;
};

// One instruction's points: before (IN) and after (OUT) it.
struct SmemPoint {
  VarMask pre_before = 0, post_before = 0, pre_after = 0, post_after = 0;
  double weight = 0;  // 0 for unreachable instructions
  uint32_t line = 0;
};

struct SmemVarReport {
  std::string name;
  uint32_t bytes = 0, align = 1;
  bool dynamic = false;
  int scope = 0;  // 0 module, 1 entry, 2 called function
  uint32_t offset_before = 0, offset_after = 0;
  bool movable = false;  // the pass may reorder this declaration
  bool shared = false;   // in the shared region after the pass
};

struct SmemKernelReport {
  std::string kernel;
  uint32_t line = 0;
  std::vector<SmemVarReport> vars;   // original layout order: bit i of a VarMask is vars[i]
  std::vector<SmemNodeFacts> nodes;  // [0] Entry, [1..B] CFG blocks, [B+1] Exit
  std::vector<SmemPoint> points;     // per instruction of the kernel body
  uint32_t static_bytes_before = 0, static_bytes_after = 0;
  uint32_t boundary_before = 0, boundary_after = 0;  // floor(t * R_tb)
  VarMask shared_before = 0, shared_after = 0;       // shared-region variables before / after
  double cost_before = 0, cost_after = 0;            // weighted instructions in their access ranges
  uint64_t candidates = 0;                           // layouts evaluated
  bool reordered = false;
  std::string note;                                  // why the order was kept, when it was

  VarMask mask(std::initializer_list<const char*> names) const;  // InputError-free: unknown names ignored
  std::vector<std::string> names(VarMask m) const;
  int node_of_label(const std::string& label) const;  // -1 if none
  size_t exit_node() const { return nodes.size() - 1; }
  // AccIN / AccOUT of spec 5.2 at block granularity.
  bool acc_in(size_t node, VarMask S) const;
  bool acc_out(size_t node, VarMask S) const;
  // Weighted count of instructions whose point before or after lies in S's access range.
  double range_cost(VarMask S) const;
};

std::string smem_alloc_pass(const std::string& ptx, const std::string& origin, const SmemAllocOptions& opt,
                            std::vector<SmemKernelReport>* reports = nullptr);

}  // namespace passes
}  // namespace warptlm
