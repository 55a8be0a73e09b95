// Functional device memory: one sparse, paged store reached directly (data
// never travels in timing transactions). Allocations are page-aligned and
// followed by an unmapped guard page, and each page knows how many of its bytes
// belong to the allocation, so an access past the end of any allocation, into
// freed memory or to an unmapped address is caught as compute-sanitizer would.
#pragma once
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace warptlm {

// Generic address map (the windows cvta converts between).
constexpr uint64_t kSharedWindow = 0x0000000001000000ull;  // shared offsets live at [window, window + 16 MiB)
constexpr uint64_t kSharedWindowSize = 0x1000000ull;
constexpr uint64_t kLocalWindow = 0x0000000002000000ull;   // per-thread local at [window, window + 16 MiB)
constexpr uint64_t kLocalWindowSize = 0x1000000ull;
constexpr uint64_t kGlobalBase = 0x0000001000000000ull;    // first global allocation
// Where a generic address points: the shared window, the local window, or else global memory.
inline bool in_shared_window(uint64_t a) { return a >= kSharedWindow && a < kSharedWindow + kSharedWindowSize; }
inline bool in_local_window(uint64_t a) { return a >= kLocalWindow && a < kLocalWindow + kLocalWindowSize; }

class GlobalMemory {
 public:
  static constexpr unsigned kPageBits = 12;
  static constexpr uint64_t kPageSize = 1ull << kPageBits;

  GlobalMemory() = default;
  ~GlobalMemory();
  GlobalMemory(const GlobalMemory&) = delete;
  GlobalMemory& operator=(const GlobalMemory&) = delete;

  uint64_t allocate(uint64_t bytes);  // zero-filled
  void release(uint64_t addr);        // InputError if addr is not an allocation's start
  bool valid(uint64_t addr, uint64_t bytes) const;
  // What the allocations reserve: whole pages and their page-table entries.
  uint64_t allocated_bytes() const { return allocated_; }
  // The memory budget (sim.max_memory_mb): an allocation that would take the
  // total past it, or that the host cannot give (host_memory.hpp), is an input
  // error naming the size and the limit.
  void set_budget(uint64_t bytes) { budget_ = bytes; }
  uint64_t budget() const { return budget_; }

  // Host-side copies; RunError on an invalid range.
  void write(uint64_t addr, const void* src, uint64_t bytes);
  void read(uint64_t addr, void* dst, uint64_t bytes) const;
  void fill(uint64_t addr, int value, uint64_t bytes);

  // The executor's fast path: host pointer for [addr, addr+bytes) within one
  // page, or nullptr when any byte is outside an allocation.
  uint8_t* translate(uint64_t addr, unsigned bytes) const {
    const Page* p = page_of(addr);
    const uint64_t off = addr & (kPageSize - 1);
    if (!p || off + bytes > p->valid) return nullptr;
    return p->data + off;
  }
  // A warp's accesses at once: host pointer for [addr, addr+bytes) inside one allocation (its storage is
  // contiguous, so the range may span pages), or nullptr when any byte is outside it.
  uint8_t* span(uint64_t addr, uint64_t bytes) const {
    const Page* p = page_of(addr);
    if (!p || !p->data) return nullptr;
    const uint64_t last = uint64_t(p - pages_.data()) + p->following;  // the allocation's last page
    if (addr - kGlobalBase + bytes > (last << kPageBits) + pages_[last].valid) return nullptr;
    return p->data + (addr & (kPageSize - 1));
  }

 private:
  // valid: the allocation's bytes in the page; following: its pages after this one
  struct Page { uint8_t* data = nullptr; uint32_t valid = 0; uint32_t following = 0; };
  struct Alloc { uint64_t bytes; uint8_t* host; uint64_t reserved; };
  const Page* page_of(uint64_t addr) const {  // its page-table entry, null below or past the table
    const uint64_t idx = (addr - kGlobalBase) >> kPageBits;
    return addr < kGlobalBase || idx >= pages_.size() ? nullptr : &pages_[idx];
  }
  std::vector<Page> pages_;
  std::map<uint64_t, Alloc> allocs_;
  uint64_t next_ = kGlobalBase;
  uint64_t allocated_ = 0;
  uint64_t budget_ = UINT64_MAX;
};

}  // namespace warptlm
