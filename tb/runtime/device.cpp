#include "runtime/device.hpp"

#include <fstream>
#include <sstream>

#include "common/errors.hpp"
#include "runtime/gpu_driver.hpp"

namespace warptlm {

Device::Device(GpuDriver& driver) : drv_(driver) {}

void Device::load_ptx(const std::string& text, const std::string& origin) { drv_.load_ptx(text, origin); }

void Device::load_ptx_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw InputError("cannot open PTX file '" + path + "'");
  std::ostringstream ss;
  ss << f.rdbuf();
  drv_.load_ptx(ss.str(), path);
}

DevPtr Device::malloc(uint64_t bytes) { return drv_.allocate(bytes); }
void Device::free(DevPtr p) { drv_.release(p); }
void Device::memcpy_h2d(DevPtr dst, const void* src, uint64_t bytes) { drv_.write(dst, src, bytes); }
void Device::memcpy_d2h(void* dst, DevPtr src, uint64_t bytes) { drv_.read(src, dst, bytes); }
void Device::memset(DevPtr dst, int value, uint64_t bytes) { drv_.fill(dst, value, bytes); }

void Device::launch(const std::string& kernel, Dim3 grid, Dim3 block, const std::vector<KernelArg>& args,
                    uint32_t dynamic_smem_bytes) {
  const KernelInfo* k = drv_.find_kernel(kernel);
  if (!k) {
    std::string hint = closest_match(kernel, drv_.kernel_names());
    throw InputError("launch of unknown kernel '" + kernel + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
  }
  if (args.size() != k->params.size())
    throw InputError("kernel '" + kernel + "' takes " + std::to_string(k->params.size()) + " parameters; " +
                     std::to_string(args.size()) + " given");
  std::vector<uint8_t> buf(k->param_bytes, 0);
  for (size_t i = 0; i < args.size(); ++i) {
    const ParamInfo& p = k->params[i];
    if (args[i].bytes.size() != p.size)
      throw InputError("kernel '" + kernel + "' parameter " + std::to_string(i) + " ('" + p.name + "', ." + dtype_name(p.type) +
                       ") is " + std::to_string(p.size) + " bytes; the argument given is " + std::to_string(args[i].bytes.size()));
    std::memcpy(buf.data() + p.offset, args[i].bytes.data(), p.size);
  }
  LaunchDims d;
  d.grid[0] = grid.x; d.grid[1] = grid.y; d.grid[2] = grid.z;
  d.block[0] = block.x; d.block[1] = block.y; d.block[2] = block.z;
  d.dynamic_smem = dynamic_smem_bytes;
  d.regs_per_thread = regs_per_thread_;
  d.hint = launch_hint_;
  d.compiled_regs = compiled_registers(k->name);
  drv_.launch(*k, d, buf);
}

std::map<std::string, uint32_t> parse_register_table(const std::string& table, const std::string& origin) {
  std::map<std::string, uint32_t> out;
  std::istringstream in(table);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    std::istringstream ls(line.substr(0, line.find('#')));
    std::string entry, extra;
    long regs = -1;
    if (!(ls >> entry)) continue;
    if (!(ls >> regs) || (ls >> extra) || regs < 1 || regs > 255)
      throw InputError(Place{origin, n, ""}, "expected 'entry registers' with 1..255 registers");
    if (!out.emplace(entry, uint32_t(regs)).second) throw InputError(Place{origin, n, ""}, "entry '" + entry + "' is listed twice");
  }
  return out;
}

void Device::load_compiled_registers(const std::string& table, const std::string& origin) {
  for (const auto& [entry, regs] : parse_register_table(table, origin)) compiled_regs_[entry] = regs;
}

uint32_t Device::compiled_registers(const std::string& entry) const {
  const auto it = compiled_regs_.find(entry);
  return it == compiled_regs_.end() ? 0 : it->second;
}

uint64_t Device::attribute(const std::string& name) { return drv_.attribute(name); }

}  // namespace warptlm
