// The scratchpad-sharing compiler passes (seed 000 section 6; README.md here):
// scratchpad allocation, then relssp placement, over every kernel of a PTX
// module. PTX text in, PTX text out, so the result can be inspected and is
// loaded by the ordinary loader.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "isa/passes/relssp_placement.hpp"
#include "isa/passes/smem_alloc.hpp"

namespace warptlm {

class ParamTable;

struct PassReport {
  std::vector<passes::SmemKernelReport> alloc;      // per kernel, from the allocation pass
  std::vector<passes::RelsspKernelReport> relssp;   // per kernel, from the placement pass
  unsigned relssp_inserted() const;
  unsigned splits_materialized() const;
  std::string text() const;  // human-readable summary (what `warptlm ptx-opt` prints)
};

// Runs smem_alloc_pass then relssp_pass with threshold t. Errors are
// InputError naming `origin` and the PTX line.
std::string optimize_scratchpad_sharing(const std::string& ptx, const std::string& origin, double t,
                                        PassReport* report = nullptr);

// The private boundary of a shared block (seed 000, spec 2.4): offsets below
// floor(t * R_tb) are the block's own, those at or above it lie in the region
// the pair shares under the lock. The passes lay variables out around it and
// the sharing plan sizes pairs with it.
uint32_t private_boundary(double t, uint32_t block_bytes);

// ss.compiler_passes and ss.threshold.
void declare_ss_pass_params(ParamTable& t);

// ss.threshold alone: the private fraction t, which the passes and the
// sharing unit (models/scratchpad) both read.
void declare_ss_threshold(ParamTable& t);

}  // namespace warptlm
