#include "runtime/gpu_driver.hpp"

#include "common/errors.hpp"

namespace warptlm {

GpuDriver::GpuDriver(sc_core::sc_module_name name) : sc_core::sc_module(name), socket("socket") {}

void GpuDriver::send(HostCommand& c, tlm::tlm_command cmd, uint64_t address, void* data, uint64_t bytes) {
  tlm::tlm_generic_payload p;
  p.set_command(cmd);
  p.set_address(address);
  p.set_data_ptr(static_cast<unsigned char*>(data));
  p.set_data_length(unsigned(bytes));
  p.set_streaming_width(unsigned(bytes));
  p.set_byte_enable_ptr(nullptr);
  p.set_dmi_allowed(false);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  p.set_extension(&c);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  tlm::tlm_fw_transport_if<>* target = nullptr;
  if (!socket.size() && target_) {  // not elaborated yet: the target this socket is bound to
    sc_core::sc_export<tlm::tlm_fw_transport_if<>>& ex = *target_;
    target = ex.operator->();
  } else {
    target = socket.operator->();
  }
  // The command is ours, on the caller's stack: it leaves the payload before the payload's destructor
  // would free it, whatever b_transport throws.
  struct Detach {
    tlm::tlm_generic_payload& p;
    HostCommand& c;
    ~Detach() { p.clear_extension(&c); }
  } detach{p, c};
  target->b_transport(p, delay);
  if (p.is_response_ok()) return;
  switch (c.error) {
    case HostCommand::Error::Input: throw InputError(c.message);
    case HostCommand::Error::Stopped: throw RunStopped(c.result.status.empty() ? "stopped" : c.result.status, c.message);
    case HostCommand::Error::Run: throw RunError(c.message);
    case HostCommand::Error::None: break;
  }
  throw RunError("the GPU refused a host request: " + p.get_response_string());
}

void GpuDriver::load_ptx(const std::string& text, const std::string& origin) {
  HostCommand c(HostCommand::Kind::LoadModule);
  c.text = text;
  c.origin = origin;
  send(c);
}

const KernelInfo* GpuDriver::find_kernel(const std::string& name) {
  HostCommand c(HostCommand::Kind::FindKernel);
  c.text = name;
  send(c);
  return c.found;
}

uint64_t GpuDriver::attribute(const std::string& name) {
  HostCommand c(HostCommand::Kind::Attribute);
  c.text = name;
  send(c);
  return c.attribute;
}

uint64_t GpuDriver::symbol(const std::string& name, uint64_t& bytes) {
  HostCommand c(HostCommand::Kind::Symbol);
  c.text = name;
  send(c);
  bytes = c.bytes;
  return c.address;
}

std::vector<std::string> GpuDriver::kernel_names() {
  HostCommand c(HostCommand::Kind::KernelNames);
  send(c);
  return c.names;
}

uint64_t GpuDriver::allocate(uint64_t bytes) {
  HostCommand c(HostCommand::Kind::Allocate);
  c.bytes = bytes;
  send(c);
  return c.address;
}

void GpuDriver::release(uint64_t address) {
  HostCommand c(HostCommand::Kind::Release);
  c.address = address;
  send(c);
}

void GpuDriver::write(uint64_t address, const void* src, uint64_t bytes) {
  HostCommand c;
  send(c, tlm::TLM_WRITE_COMMAND, address, const_cast<void*>(src), bytes);
}

void GpuDriver::read(uint64_t address, void* dst, uint64_t bytes) {
  HostCommand c;
  send(c, tlm::TLM_READ_COMMAND, address, dst, bytes);
}

void GpuDriver::fill(uint64_t address, int value, uint64_t bytes) {
  HostCommand c(HostCommand::Kind::Fill);
  c.address = address;
  c.value = value;
  c.bytes = bytes;
  send(c);
}

void GpuDriver::start(const KernelInfo& kernel, const LaunchDims& dims, const std::vector<uint8_t>& params) {
  HostCommand c(HostCommand::Kind::Launch);
  c.kernel = &kernel;
  c.dims = dims;
  c.params = params;
  send(c);
}

LaunchResult GpuDriver::synchronize() {
  HostCommand c(HostCommand::Kind::Synchronize);
  send(c);
  return c.result;
}

LaunchResult GpuDriver::launch(const KernelInfo& kernel, const LaunchDims& dims, const std::vector<uint8_t>& params) {
  start(kernel, dims, params);
  return synchronize();
}

}  // namespace warptlm
