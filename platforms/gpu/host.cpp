// The platform's host socket (host_interface.hpp): copies and commands.
#include <algorithm>
#include <cstring>
#include <new>

#include "common/errors.hpp"
#include "common/host_memory.hpp"
#include "gpu/gpu_platform.hpp"
#include "gpu/mechanism.hpp"
#include "interconnect/crossbar.hpp"
#include "l2/l2_slice.hpp"

namespace warptlm {

void GpuPlatform::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time&) {
  HostCommand* c = p.get_extension<HostCommand>();
  p.set_response_status(tlm::TLM_OK_RESPONSE);
  try {
    if (p.get_command() != tlm::TLM_IGNORE_COMMAND) {
      copy(p);
      if (p.is_write() && p.get_response_status() == tlm::TLM_OK_RESPONSE) place_copy_in_l2(p.get_address(), p.get_data_length());
    }
    else if (c) command(*c);
    else p.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
  } catch (const RunStopped& e) {
    p.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    if (c) c->error = HostCommand::Error::Stopped, c->message = e.what(), c->result.status = e.status;
  } catch (const RunError& e) {
    p.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    if (c) c->error = HostCommand::Error::Run, c->message = e.what();
  } catch (const InputError& e) {
    p.set_response_status(p.get_command() == tlm::TLM_IGNORE_COMMAND ? tlm::TLM_GENERIC_ERROR_RESPONSE
                                                                       : tlm::TLM_ADDRESS_ERROR_RESPONSE);
    if (c) c->error = HostCommand::Error::Input, c->message = e.what();
  } catch (const std::bad_alloc&) {  // sizes are checked first (host_memory.hpp): this is the host's own shortage
    p.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    if (c) c->error = HostCommand::Error::Input, c->message = host_memory_refusal("a host request", p.get_data_length());
  }
}

// Debug transport: the same copies, never a command.
unsigned int GpuPlatform::transport_dbg(tlm::tlm_generic_payload& p) {
  if (p.get_command() == tlm::TLM_IGNORE_COMMAND || !mem_.valid(p.get_address(), p.get_data_length())) return 0;
  copy(p);
  return p.get_data_length();
}

void GpuPlatform::copy(tlm::tlm_generic_payload& p) {
  if (p.get_byte_enable_ptr() || p.get_streaming_width() < p.get_data_length()) {
    p.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return;
  }
  try {
    if (p.is_write()) mem_.write(p.get_address(), p.get_data_ptr(), p.get_data_length());
    else mem_.read(p.get_address(), p.get_data_ptr(), p.get_data_length());
  } catch (const RunError& e) {
    throw InputError(std::string(p.is_write() ? "copy to" : "copy from") + " device memory: " + e.what());
  }
}

// A host-to-device copy passes through the L2 (l2.preload_copies): each
// L2 slice takes the chunks of the copy that map to it.
void GpuPlatform::place_copy_in_l2(uint64_t addr, uint64_t bytes) {
  if (l2s.empty() || bytes == 0) return;
  const PartitionMap& map = icn->map();
  for (uint64_t a = addr, end = addr + bytes; a < end;) {
    const uint64_t chunk_end = std::min(end, (a / map.interleave + 1) * map.interleave);
    l2s[map.slice_of(a)]->preload(a, chunk_end - a);
    a = chunk_end;
  }
}

void GpuPlatform::command(HostCommand& c) {
  using K = HostCommand::Kind;
  switch (c.kind) {
    case K::Copy: break;
    case K::LoadModule: load_module(c.text, c.origin); break;
    case K::FindKernel: c.found = find_kernel(c.text); break;
    case K::KernelNames: c.names = kernel_names(); break;
    case K::Allocate: c.address = mem_.allocate(c.bytes); break;
    case K::Release: mem_.release(c.address); break;
    case K::Fill: mem_.fill(c.address, c.value, c.bytes); break;
    case K::Launch:
      if (!c.kernel) throw InputError("launch without a kernel (FindKernel gives one)");
      start_launch(*c.kernel, c.dims, c.params);
      break;
    case K::Synchronize: synchronize(c); break;
    case K::Attribute: c.attribute = attribute(c.text); break;
    case K::Symbol: c.address = symbol(c.text, c.bytes); break;
  }
}

// A module is parsed, checked and linked into device memory; every mechanism
// built may keep its own version of it.
void GpuPlatform::load_module(const std::string& text, const std::string& origin) {
  PtxDialect dialect;  // the base ISA, and what the mechanisms built add to it
  for (auto& m : mechanisms_) m->widen_dialect(dialect);
  modules_.push_back(std::make_unique<Module>(text, origin, mem_, nullptr, dialect));
  for (auto& m : mechanisms_) m->module_loaded(text, origin, mem_, *modules_.back());
}

// The base name of an Itanium-mangled function: "_Z6vecaddPKf" -> "vecadd".
static std::string demangled_base(const std::string& m) {
  if (m.size() < 3 || m.compare(0, 2, "_Z") != 0) return m;
  size_t i = 2, len = 0;
  while (i < m.size() && std::isdigit((unsigned char)m[i])) len = len * 10 + size_t(m[i++] - '0');
  if (len == 0 || i + len > m.size()) return m;
  return m.substr(i, len);
}

const KernelInfo* GpuPlatform::find_kernel(const std::string& name) const {
  for (auto it = modules_.rbegin(); it != modules_.rend(); ++it)
    if (const KernelInfo* k = (*it)->find_kernel(name)) return k;
  for (auto it = modules_.rbegin(); it != modules_.rend(); ++it)
    for (auto& n : (*it)->kernel_names())
      if (demangled_base(n) == name) return (*it)->find_kernel(n);
  // a kernel its module refused at load: the reason, naming the PTX file and line
  for (auto it = modules_.rbegin(); it != modules_.rend(); ++it)
    for (auto& r : (*it)->refused())
      if (r.first == name || demangled_base(r.first) == name)
        throw InputError("kernel '" + r.first + "' was refused when its PTX loaded: " + r.second.what());
  return nullptr;
}

uint64_t GpuPlatform::symbol(const std::string& name, uint64_t& bytes) const {
  uint64_t address = 0;
  for (auto it = modules_.rbegin(); it != modules_.rend(); ++it)
    if ((*it)->symbol(name, address, bytes)) return address;
  throw InputError("no module-scope .global or .const variable '" + name + "' in the loaded PTX");
}

std::vector<std::string> GpuPlatform::kernel_names() const {
  std::vector<std::string> v;
  for (auto& m : modules_)
    for (auto& n : m->kernel_names()) v.push_back(n);
  return v;
}

// A device attribute by name: the platform's own, then the mechanisms'.
uint64_t GpuPlatform::attribute(const std::string& name) const {
  if (name == "multiprocessor_count") return p_.num_sms;
  if (name == "max_threads_per_block") return p_.max_threads_per_block;
  if (name == "max_shared_memory_per_block") return p_.max_shared_per_block;
  uint64_t v = 0;
  for (auto& m : mechanisms_)
    if (m->attribute(name, v)) return v;
  throw InputError("unknown device attribute '" + name +
                   "' (multiprocessor_count, max_threads_per_block, max_shared_memory_per_block, or a mechanism's)");
}

// Waits (in the caller's thread) until no launch runs; answers with the last
// launch's result, or the fault or stop that ended it.
void GpuPlatform::synchronize(HostCommand& c) {
  if (running_) {
    if (!in_thread())
      throw InputError("waiting for kernel '" + running_->kernel->name +
                       "' to complete needs a testbench SC_THREAD (the launch runs in simulated time)");
    while (running_) sc_core::wait(launch_done_);
  }
  if (!fault_.empty()) throw RunError(fault_);
  if (launches_.empty()) return;
  c.result = launches_.back();
  if (!c.result.status.empty()) throw RunStopped(c.result.status, c.result.message);
}

}  // namespace warptlm
