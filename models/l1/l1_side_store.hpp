// A store beside the L1 data cache that takes the global accesses of some warps
// (CIAO's cache of isolated warps' lines in unused shared memory, seed 002 sec.
// IV-B). A request marked `l1_redirect` (GpuExtension) is handled by the L1's
// control logic with it: the L1's tags are checked first and a line the L1
// holds migrates to the side store (the L1 copy is invalidated: one copy of a
// line lives in one of the two); otherwise the side store's own tag decides a
// hit; a miss takes an L1 MSHR marked for the side store, goes below through
// the L1's miss queue, and its fill is written into the side store, not the L1.
// Stores write through as usual; a copy the side store holds is kept current.
#pragma once
#include <cstdint>

namespace warptlm {

class L1SideStore {
 public:
  virtual ~L1SideStore() = default;
  virtual bool holds(uint64_t line_addr) = 0;  // the tag check of a store (the copy is kept current)
  // A redirected load: the tag and the line read in one access; true on a hit.
  virtual bool read(uint64_t line_addr) = 0;
  // Install a line (a fill from below or a line migrating from the L1) for `warp`.
  virtual void fill(uint64_t line_addr, uint16_t warp) = 0;
  // A store wrote through this line: a copy held here takes the new bytes.
  virtual void written(uint64_t line_addr) = 0;
  // Cycles a side access adds after the L1's tag check.
  virtual uint32_t access_latency() const = 0;
};

}  // namespace warptlm
