// Thread-block placement: which SM takes the next block. The dispatcher asks
// the policy for each block in turn; mechanisms plug in their own (pairs of
// blocks sharing scratchpad, SPU passes on a mesh, locality from launch hints).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace warptlm {

class PlacementPolicy {
 public:
  virtual ~PlacementPolicy() = default;
  virtual const char* name() const = 0;
  virtual void begin_launch(uint32_t /*num_blocks*/) {}
  // SM for block `block_id` among those that have room (`fits[i]`), or -1 to hold it back.
  virtual int choose(uint32_t block_id, const std::vector<bool>& fits) = 0;
  // A launch of `blocks` ran on the functional executor (sampling left it untimed): the policy moves on as
  // if it had placed them on `sms` SMs with room, so the next timed launch's blocks meet the SMs (and the
  // L1 contents) they would after a full run's.
  virtual void skip_blocks(uint64_t /*blocks*/, uint32_t /*sms*/) {}
  // The SM that block `i` of a launch run functionally would have gone to (sampling's cache warming), by
  // this policy's order alone (every SM with room): -1 when the policy cannot tell.
  virtual int sm_of_skipped(uint64_t /*i*/, uint32_t /*sms*/) const { return -1; }
};

// GPGPU-Sim's order: blocks go to SMs in turn, each search starting after the
// SM that took the previous block.
class RoundRobinPlacement : public PlacementPolicy {
 public:
  const char* name() const override { return "round_robin"; }
  int choose(uint32_t, const std::vector<bool>& fits) override {
    const uint32_t n = uint32_t(fits.size());
    for (uint32_t i = 0; i < n; ++i) {
      uint32_t s = (next_ + i) % n;
      if (fits[s]) { next_ = (s + 1) % n; return int(s); }
    }
    return -1;
  }
  void skip_blocks(uint64_t blocks, uint32_t sms) override { next_ = uint32_t((next_ + blocks) % sms); }
  int sm_of_skipped(uint64_t i, uint32_t sms) const override { return int((next_ + i) % sms); }

 private:
  uint32_t next_ = 0;
};

std::unique_ptr<PlacementPolicy> make_placement(const std::string& name);

}  // namespace warptlm
