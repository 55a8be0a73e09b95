#include "isa/memory.hpp"

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "common/errors.hpp"

namespace warptlm {

GlobalMemory::~GlobalMemory() {
  for (auto& a : allocs_) std::free(a.second.host);
}

uint64_t GlobalMemory::allocate(uint64_t bytes) {
  if (bytes == 0) bytes = 1;
  if (bytes > budget_ || allocated_ > budget_ - bytes)
    throw InputError("device allocation of " + std::to_string(bytes) + " bytes would take the device memory to " +
                     std::to_string(allocated_ + bytes) + " bytes, over the budget of " + std::to_string(budget_ >> 20) +
                     " MiB (sim.max_memory_mb; raise it with --set sim.max_memory_mb=N)");
  uint64_t npages = (bytes + kPageSize - 1) >> kPageBits;
  // calloc of large blocks maps zero pages lazily: untouched memory costs nothing.
  auto* host = static_cast<uint8_t*>(std::calloc(npages, kPageSize));
  if (!host) throw RunError("device out of memory allocating " + std::to_string(bytes) + " bytes");
  uint64_t addr = next_;
  uint64_t first = (addr - kGlobalBase) >> kPageBits;
  pages_.resize(first + npages + 1);  // + guard page
  for (uint64_t i = 0; i < npages; ++i) {
    uint64_t left = bytes - i * kPageSize;
    pages_[first + i] = Page{host + i * kPageSize, uint32_t(left < kPageSize ? left : kPageSize)};
  }
  next_ = addr + (npages + 1) * kPageSize;
  allocs_[addr] = Alloc{bytes, host};
  allocated_ += bytes;
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
  allocated_ -= it->second.bytes;
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
