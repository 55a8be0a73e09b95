// RtlBankArbiter: the shared-memory bank arbiter's RTL (bank_arbiter.sv, verilated) behind the same contract
// as warptlm::service_cycles() (bank_conflict.hpp). It drives the RTL's pins, clocks it and reads its answer,
// one part of the warp access after another. The verilated models are compiled into this library, one per
// geometry (README.md); this header includes no Verilator header.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "smem/smem_params.hpp"

class VerilatedContext;

namespace warptlm {

class RtlBankArbiter {
 public:
  // "" when a verilated RTL in this build serves `p`'s geometry (banks, bank width, mapping, broadcast,
  // parts, array size), else why not, in one sentence naming the parameter. `broken_variant`: the test-only
  // model that ignores the broadcast rule, built for one geometry only.
  static std::string unsupported(const SharedMemoryParams& p, bool broken_variant = false);

  // The RTL for `p` (throws std::invalid_argument with unsupported()'s sentence when there is none).
  // `name` is the hierarchical name given to the Verilator model (e.g. "sm0.smem.rtl").
  RtlBankArbiter(const SharedMemoryParams& p, bool broken_variant, const std::string& name);
  ~RtlBankArbiter();
  RtlBankArbiter(const RtlBankArbiter&) = delete;
  RtlBankArbiter& operator=(const RtlBankArbiter&) = delete;

  // "" when the RTL can take this request, else why not: a lane's bytes reach past the RTL's address width
  // (WARPTLM_RTL_SMEM_ADDR_BITS, the array offsets), or a lane touches more words than the RTL has word
  // ports per lane (WARPTLM_RTL_SMEM_WPL). `bytes` 0 is taken as 4, as service_cycles() does.
  std::string refuses(const uint64_t* lane_addr, uint32_t mask, unsigned bytes) const;

  // The same contract as warptlm::service_cycles(): the sum over p.warp_parts parts of each part's degree,
  // part_degrees[] (when given) per part. lane_cycle (when given, 32 entries) receives for each lane in
  // `mask` the cycle, counted from 0 within its part, in which the RTL served it (its last word); other
  // entries are left alone. A request refuses() names is not presented: std::invalid_argument with the
  // reason. The RTL is clocked 1 + degree cycles per part.
  uint32_t service_cycles(const uint64_t* lane_addr, uint32_t mask, unsigned bytes, uint32_t* part_degrees,
                          uint8_t* lane_cycle = nullptr);

  // The verilated model's VerilatedContext, for tracing its signals.
  VerilatedContext& context();
  // Rising clock edges driven so far (reset included).
  uint64_t clock_edges() const;
  const std::string& name() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace warptlm
