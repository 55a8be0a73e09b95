// CIAO's cache for isolated warps (seed 002 sec. IV-B; spec 002 sec. 4): the
// shared-memory cache block (models/smem/smem_cache.hpp) placed in the rows of
// the SM's shared memory the kernel's blocks leave unused, serving the L1 as
// its side store (models/l1/l1_side_store.hpp). Its data are real bytes of the
// SM's shared storage: a fill copies the line from global memory into the
// line's data row, so a region that overlapped a block's shared memory would
// corrupt the kernel's data (and the workload's check catches it). A line
// evicted by a conflict goes into the victim tag array under its owner, with
// the filling warp as the interferer (the VTA is shared with the L1D, sec. III-C).
// Each read, fill or update of a line is one access of the SM's bank array (the
// line over one bank group, its tag in the other, sec. IV-B), which the
// kernel's own shared-memory accesses then wait for (SharedMemory::lend_cycle).
#pragma once
#include <cstdint>

#include "common/stats.hpp"
#include "l1/l1_side_store.hpp"
#include "l1/victim_tag_array.hpp"
#include "smem/smem_cache.hpp"

namespace warptlm {

class GlobalMemory;
class SharedMemory;

struct CiaoCacheCounters {
  Counter *fills = nullptr, *evictions = nullptr;
};

class CiaoSharedCache : public L1SideStore {
 public:
  // `banks`: the SM's bank array, which every access of this cache occupies for a cycle.
  CiaoSharedCache(VictimTagWatch& watch, SharedMemory& banks, uint32_t latency, const CiaoCacheCounters& c)
      : watch_(watch), banks_(banks), latency_(latency), c_(c) {}
  // A launch: the region [base, base + bytes) of `storage` (the SM's shared memory), lines from `mem`.
  void begin_kernel(uint32_t base, uint32_t bytes, uint8_t* storage, const GlobalMemory* mem);
  bool usable() const { return cache_.usable(); }
  const SharedMemoryCache& cache() const { return cache_; }

  bool holds(uint64_t addr) override { return cache_.holds(addr / SharedMemoryCache::kLine); }
  bool read(uint64_t addr) override;
  void fill(uint64_t addr, uint16_t warp) override;
  void written(uint64_t addr) override;
  uint32_t access_latency() const override { return latency_; }

 private:
  void copy_line(uint64_t addr);  // global memory -> the line's data row
  void take_bank_array();          // this cache's access (a line and its tag) holds the banks for a cycle
  VictimTagWatch& watch_;  // the VTA shared with the L1D
  SharedMemory& banks_;
  uint32_t latency_;
  CiaoCacheCounters c_;
  SharedMemoryCache cache_;
  uint8_t* storage_ = nullptr;
  const GlobalMemory* mem_ = nullptr;
};

}  // namespace warptlm
