// What the L1 data cache tells the blocks that watch it (a mechanism's victim
// tag array, interference detection, the GPU's redundant-MSHR count): every hit,
// load miss, MSHR allocation and merge, fill and eviction,
// with the warp behind it. The cache keeps, per line, the warp that brought it
// in (its owner). Observers only read; with none attached the cache pays one
// empty-list test per event.
#pragma once
#include <cstdint>

namespace warptlm {

class L1Observer {
 public:
  virtual ~L1Observer() = default;
  // A load or store found every sector it wanted valid.
  virtual void line_hit(uint64_t /*line_addr*/, uint16_t /*warp*/) {}
  // A load missed (it allocated an MSHR or merged into one).
  virtual void line_missed(uint64_t /*line_addr*/, uint16_t /*warp*/) {}
  // A fill came back and its sectors were installed; `warp` allocated the MSHR.
  virtual void line_filled(uint64_t /*line_addr*/, uint16_t /*warp*/) {}
  // A valid line was replaced: `owner_warp` brought it in, `evicting_warp`'s
  // miss (or allocating store) pushed it out.
  virtual void line_evicted(uint64_t /*line_addr*/, uint16_t /*owner_warp*/, uint16_t /*evicting_warp*/) {}
  // A miss allocated an MSHR entry for its line at the cache's cycle `cycle` (`warp` allocated it).
  virtual void mshr_allocated(uint64_t /*line_addr*/, uint16_t /*warp*/, uint64_t /*cycle*/) {}
  // A miss merged into the MSHR entry already holding its line.
  virtual void mshr_merged(uint64_t /*line_addr*/, uint16_t /*warp*/) {}
};

}  // namespace warptlm
