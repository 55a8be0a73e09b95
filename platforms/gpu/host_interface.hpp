// The GPU platform's host interface: GpuPlatform::host, a TLM-2.0 target
// socket (blocking transport, and debug transport for copies). A testbench's
// SC_THREAD drives it through an initiator socket (tb/runtime: GpuDriver).
//
//   - A plain TLM_WRITE_COMMAND / TLM_READ_COMMAND copies host bytes to or from
//     device memory at its address (a device address, as allocated). Copies
//     take no simulated time: the host link is not modelled.
//   - Every other request is a command: a payload carrying HostCommand, with
//     TLM_IGNORE_COMMAND. Commands answer within the call, except that a
//     timing launch only starts: it completes later, at which point the
//     platform notifies its launch_done() event, and Synchronize waits for it.
//
// A request the platform refuses comes back with an error response; when it
// carries HostCommand, `error` and `message` say why (the message names the
// kernel, PTX line or address, as the simulator's errors do).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <tlm>
#include <vector>

#include "common/stats.hpp"
#include "isa/module.hpp"

namespace warptlm {

struct LaunchDims {
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
  uint32_t dynamic_smem = 0;
  uint32_t regs_per_thread = 0;  // 0: gpu.regs_per_thread, else compiled_regs, else the PTX estimate
  uint32_t compiled_regs = 0;    // the real compiler's count for this kernel (ptxas -v), 0 when unknown
  uint32_t hint = 0;             // a scheduling hint the host passes with the launch (0: none); mechanisms read it
};

struct LaunchResult {
  std::string kernel;
  uint64_t cycles = 0;
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;  // lanes whose guard predicate was true (GPGPU-Sim's detailed-mode count)
  uint64_t lane_instructions = 0;    // every lane of the active mask, guarded or not
  CounterTable counters;  // this launch's share of every counter
  std::string status;   // "" when the launch finished; else limit | deadlock | interrupted | fault (figures partial)
  std::string message;  // why it stopped, with what each warp waited on
  // sim.sampling: launches: "timed" (in full detail, a measurement), "warm_up" (in full detail after a
  // functional launch, to warm the caches: its figures are its own, the estimate counts an estimate for it)
  // or "estimated" (run functionally: its cycles and instructions are 0, its warp instructions counted
  // apart), and its index among the sampled launches; "" and -1 in a run without sampling.
  std::string sampling;
  int64_t sample_index = -1;
};

struct HostCommand : tlm::tlm_extension<HostCommand> {
  enum class Kind : uint8_t {
    Copy,         // with a plain read or write: carries back an error message
    LoadModule,   // text (PTX), origin -> the module is linked into device memory
    FindKernel,   // text (name, or the base name of a mangled entry) -> kernel (null: none)
    KernelNames,  // -> names
    Allocate,     // bytes -> address (zero-filled)
    Release,      // address
    Fill,         // address, bytes, value: memset
    Launch,       // kernel, dims, params -> starts the launch (timing) or runs it (functional)
    Synchronize,  // waits until no launch runs (a blocking call: SC_THREAD only) -> result of the last launch
    Attribute,    // text (a device attribute's name) -> attribute
    Symbol,       // text (a module-scope .global/.const variable) -> address, bytes (cudaMemcpyToSymbol)
  };
  enum class Error : uint8_t { None, Input, Run, Stopped };

  explicit HostCommand(Kind k = Kind::Copy) : kind(k) {}

  Kind kind;
  // inputs
  std::string text, origin;
  uint64_t address = 0, bytes = 0;
  int value = 0;
  const KernelInfo* kernel = nullptr;
  LaunchDims dims;
  std::vector<uint8_t> params;
  // outputs
  const KernelInfo* found = nullptr;
  std::vector<std::string> names;
  LaunchResult result;
  uint64_t attribute = 0;
  Error error = Error::None;  // Input: bad input (InputError); Run: a fault (RunError); Stopped: a run limit (result.status)
  std::string message;

  tlm::tlm_extension_base* clone() const override { return new HostCommand(*this); }
  void copy_from(const tlm::tlm_extension_base& e) override { *this = static_cast<const HostCommand&>(e); }
};

}  // namespace warptlm
