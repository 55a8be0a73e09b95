// Instruction cache of the SM front end: a set-associative tag array with LRU
// replacement over instruction addresses (8 bytes per instruction); a miss
// costs a fixed latency until the memory hierarchy serves instruction fetches.
#pragma once
#include <cstdint>
#include <vector>

namespace warptlm {

class InstructionCache {
 public:
  InstructionCache(uint32_t size, uint32_t line, uint32_t assoc)
      : line_(line), assoc_(assoc), sets_(std::max<uint32_t>(1, size / (line * assoc))),
        tags_(size_t(sets_) * assoc, UINT64_MAX), lru_(size_t(sets_) * assoc, 0) {}

  // Looks up the line holding instruction `pc` of kernel `kernel_id`; fills it on a miss.
  bool access(uint64_t kernel_id, uint32_t pc) {
    uint64_t addr = (kernel_id << 32) | (uint64_t(pc) * 8);
    uint64_t line = addr / line_;
    uint32_t set = uint32_t(line % sets_);
    uint64_t* t = &tags_[size_t(set) * assoc_];
    uint64_t* u = &lru_[size_t(set) * assoc_];
    ++tick_;
    for (uint32_t w = 0; w < assoc_; ++w)
      if (t[w] == line) { u[w] = tick_; return true; }
    uint32_t victim = 0;
    for (uint32_t w = 1; w < assoc_; ++w)
      if (u[w] < u[victim]) victim = w;
    t[victim] = line;
    u[victim] = tick_;
    return false;
  }

 private:
  uint32_t line_, assoc_, sets_;
  std::vector<uint64_t> tags_, lru_;
  uint64_t tick_ = 0;
};

}  // namespace warptlm
