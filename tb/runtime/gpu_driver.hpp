// The host's driver of the GPU platform: an initiator socket bound to the
// platform's host socket (platforms/gpu/host_interface.hpp) and the calls a
// host program makes on it. A call that waits for a timing launch (launch,
// synchronize) must come from an SC_THREAD: the launch runs in simulated time
// while the thread waits for the platform's completion. Errors the platform
// reports come back as the simulator's exceptions: InputError for bad input,
// RunError for a fault, RunStopped for a run limit or a deadlock.
#pragma once
#include <cstdint>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "gpu/host_interface.hpp"

namespace warptlm {

class GpuDriver : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<GpuDriver> socket;

  explicit GpuDriver(sc_core::sc_module_name name);
  // Bind to a platform's host socket. Until elaboration completes (a host
  // program run outside a simulation, as functional-mode checks are), calls go
  // to that target directly; a timing launch needs the simulation anyway.
  void connect(tlm::tlm_target_socket<>& target) {
    socket.bind(target);
    target_ = &target;
  }

  void load_ptx(const std::string& text, const std::string& origin);
  const KernelInfo* find_kernel(const std::string& name);
  std::vector<std::string> kernel_names();
  // A device attribute by name (the platform's, or a mechanism's: spu.rows); InputError if unknown.
  uint64_t attribute(const std::string& name);
  // A module-scope .global/.const variable's device address (and its bytes); InputError if none.
  uint64_t symbol(const std::string& name, uint64_t& bytes);

  uint64_t allocate(uint64_t bytes);
  void release(uint64_t address);
  void write(uint64_t address, const void* src, uint64_t bytes);
  void read(uint64_t address, void* dst, uint64_t bytes);
  void fill(uint64_t address, int value, uint64_t bytes);

  // Start a launch; it completes later (timing) or has run already (functional).
  void start(const KernelInfo& kernel, const LaunchDims& dims, const std::vector<uint8_t>& params);
  // Wait until no launch runs; the last launch's result.
  LaunchResult synchronize();
  // start + synchronize.
  LaunchResult launch(const KernelInfo& kernel, const LaunchDims& dims, const std::vector<uint8_t>& params);

 private:
  // One command over the socket; rethrows what the platform reported.
  void send(HostCommand& c, tlm::tlm_command cmd = tlm::TLM_IGNORE_COMMAND, uint64_t address = 0, void* data = nullptr,
            uint64_t bytes = 0);
  tlm::tlm_target_socket<>* target_ = nullptr;
};

}  // namespace warptlm
