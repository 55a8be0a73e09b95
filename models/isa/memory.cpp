#include "isa/memory.hpp"

#include <cstdio>
#include <cstdlib>
#include <new>
#include <sstream>

#include "common/errors.hpp"
#include "common/host_memory.hpp"

namespace warptlm {

GlobalMemory::~GlobalMemory() {
  for (auto& a : allocs_) std::free(a.second.host);
}

// The budget counts what an allocation reserves: whole pages, and the page table's entries for them and
// the guard page. The host is asked first (host_memory.hpp), so a refusal is an input error, never an abort.
uint64_t GlobalMemory::allocate(uint64_t bytes) {
  if (bytes == 0) bytes = 1;
  const uint64_t reserved = ((bytes + kPageSize - 1) >> kPageBits) * (kPageSize + sizeof(Page)) + sizeof(Page);
  if (bytes > budget_ || reserved > budget_ || allocated_ > budget_ - reserved)  // (bytes first: `reserved` may wrap)
    throw InputError("device allocation of " + std::to_string(bytes) + " bytes would take the device memory to " +
                     std::to_string(allocated_ + reserved) + " bytes, over the budget of " + std::to_string(budget_ >> 20) +
                     " MiB (sim.max_memory_mb; raise it with --set sim.max_memory_mb=N)");
  const uint64_t pages = (bytes + kPageSize - 1) >> kPageBits;
  if (reserved > host_memory_headroom()) throw InputError(host_memory_refusal("device allocation of " + std::to_string(bytes) + " bytes", reserved));
  const uint64_t addr = next_;
  const uint64_t first = (addr - kGlobalBase) >> kPageBits;
  uint8_t* host = nullptr;
  try {
    pages_.resize(first + pages + 1);  // + guard page
    // calloc of large blocks maps zero pages lazily: untouched memory costs nothing.
    host = static_cast<uint8_t*>(std::calloc(pages, kPageSize));
    if (!host) throw std::bad_alloc();
    allocs_[addr] = Alloc{bytes, host, reserved};
  } catch (const std::bad_alloc&) {
    std::free(host);
    pages_.resize(first);
    throw InputError(host_memory_refusal("device allocation of " + std::to_string(bytes) + " bytes", reserved));
  }
  for (uint64_t i = 0; i < pages; ++i) {
    uint64_t left = bytes - i * kPageSize;
    pages_[first + i] = Page{host + i * kPageSize, uint32_t(left < kPageSize ? left : kPageSize), uint32_t(pages - 1 - i)};
  }
  next_ = addr + (pages + 1) * kPageSize;
  allocated_ += reserved;
  return addr;
}

void GlobalMemory::release(uint64_t addr) {
  auto it = allocs_.find(addr);
  if (it == allocs_.end()) {
    std::ostringstream os;
    os << "free of 0x" << std::hex << addr << ", which is not the start of a device allocation";
    throw InputError(os.str());
  }
  uint64_t first = (addr - kGlobalBase) >> kPageBits;
  uint64_t npages = (it->second.bytes + kPageSize - 1) >> kPageBits;
  for (uint64_t i = 0; i < npages; ++i) pages_[first + i] = Page{};
  allocated_ -= it->second.reserved;
  std::free(it->second.host);
  allocs_.erase(it);
}

bool GlobalMemory::valid(uint64_t addr, uint64_t bytes) const {
  while (bytes > 0) {
    uint64_t off = addr & (kPageSize - 1);
    uint64_t chunk = std::min<uint64_t>(bytes, kPageSize - off);
    if (!translate(addr, unsigned(chunk))) return false;
    addr += chunk;
    bytes -= chunk;
  }
  return true;
}

static RunError host_copy_fault(const char* what, uint64_t addr, uint64_t bytes) {
  std::ostringstream os;
  os << what << " of " << bytes << " bytes at 0x" << std::hex << addr << " is outside every device allocation";
  return RunError(os.str());
}

void GlobalMemory::write(uint64_t addr, const void* src, uint64_t bytes) {
  if (!valid(addr, bytes)) throw host_copy_fault("memcpy to device", addr, bytes);
  auto* s = static_cast<const uint8_t*>(src);
  while (bytes > 0) {
    uint64_t chunk = std::min<uint64_t>(bytes, kPageSize - (addr & (kPageSize - 1)));
    std::memcpy(translate(addr, unsigned(chunk)), s, chunk);
    addr += chunk; s += chunk; bytes -= chunk;
  }
}

void GlobalMemory::read(uint64_t addr, void* dst, uint64_t bytes) const {
  if (!valid(addr, bytes)) throw host_copy_fault("memcpy from device", addr, bytes);
  auto* d = static_cast<uint8_t*>(dst);
  while (bytes > 0) {
    uint64_t chunk = std::min<uint64_t>(bytes, kPageSize - (addr & (kPageSize - 1)));
    std::memcpy(d, translate(addr, unsigned(chunk)), chunk);
    addr += chunk; d += chunk; bytes -= chunk;
  }
}

void GlobalMemory::fill(uint64_t addr, int value, uint64_t bytes) {
  if (!valid(addr, bytes)) throw host_copy_fault("memset", addr, bytes);
  while (bytes > 0) {
    uint64_t chunk = std::min<uint64_t>(bytes, kPageSize - (addr & (kPageSize - 1)));
    std::memset(translate(addr, unsigned(chunk)), value, chunk);
    addr += chunk; bytes -= chunk;
  }
}

}  // namespace warptlm
