// relssp placement (seed 000 section 6.3, spec 5.3): insert `relssp;` so that
// every thread executes it exactly once, after its last access to the shared
// region (variables at or above t * R_tb, as the declarations are laid out).
// PTX text in, PTX text out; no line of the input moves (insertions share the
// line of the statement they follow; split blocks go on the closing brace's line).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "isa/passes/pass_util.hpp"

namespace warptlm {
namespace passes {

struct RelsspOptions {
  double threshold = 0.1;                // t
  bool materialize_all_splits = false;   // also emit split blocks that get no relssp
};

struct RelsspNodeFacts {
  std::string label;        // "Entry", "Exit", a block's first label / "line N", or "split A->B"
  int32_t block = -1;       // CFG block; -1 for Entry, Exit and splits
  int32_t split = -1;       // index into `splits` for a split node
  bool reachable = false;
  bool access = false;      // has a shared-region access
  bool safe_in = false, safe_out = false, ins_in = false, ins_out = false;
  std::vector<uint32_t> succ;
};

struct RelsspInsertion {
  enum Kind { AfterAccess, BlockStart, EdgeFallthrough, EdgeTaken } kind = AfterAccess;
  uint32_t node = 0;        // analysis node
  uint32_t line = 0;        // PTX line of the anchor instruction (the access, the block's first
                            // instruction, or the branching instruction of the split edge)
  std::string block;        // label of the block (for edges: "A->B")
  std::string new_label;    // EdgeTaken: the split block's label
};

struct RelsspKernelReport {
  std::string kernel;
  uint32_t line = 0;
  std::vector<std::string> shared_region_vars;
  uint32_t static_bytes = 0, boundary = 0;
  bool had_relssp = false;           // the input already had relssp: left alone
  uint32_t accesses = 0;             // instructions with a shared-region access
  uint32_t critical_edges = 0;       // split in the analysis graph
  uint32_t materialized_splits = 0;  // split blocks emitted (a `bra` each for taken edges)
  std::vector<RelsspNodeFacts> nodes;  // [0] Entry, [1..B] blocks, [B+1] Exit, then splits
  std::vector<std::pair<uint32_t, uint32_t>> splits;  // (from node, to node)
  std::vector<RelsspInsertion> inserted;
  int node_of_label(const std::string& label) const;
};

std::string relssp_pass(const std::string& ptx, const std::string& origin, const RelsspOptions& opt,
                        std::vector<RelsspKernelReport>* reports = nullptr);

}  // namespace passes
}  // namespace warptlm
