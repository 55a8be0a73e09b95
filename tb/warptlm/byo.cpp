// Bring-your-own PTX: a run YAML's `kernel:` section describes a launch with
// no C++ (DESIGN.md "Bring-your-own PTX"); run_file.cpp reads and checks it.
// Inputs (ptx, init files, compare references) are relative to the YAML file;
// dumps go to the output directory.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "app.hpp"
#include "common/errors.hpp"
#include "run_file.hpp"
#include "runtime/device.hpp"
#include "runtime/gpu_driver.hpp"

namespace fs = std::filesystem;

namespace warptlm {
namespace {

double element(const uint8_t* p, DType t) {
  switch (t) {
    case DType::F32: { float f; std::memcpy(&f, p, 4); return f; }
    case DType::F64: { double d; std::memcpy(&d, p, 8); return d; }
    case DType::S32: { int32_t x; std::memcpy(&x, p, 4); return x; }
    case DType::U32: { uint32_t x; std::memcpy(&x, p, 4); return x; }
    case DType::S64: { int64_t x; std::memcpy(&x, p, 8); return double(x); }
    case DType::U64: { uint64_t x; std::memcpy(&x, p, 8); return double(x); }
    case DType::S16: { int16_t x; std::memcpy(&x, p, 2); return x; }
    case DType::U16: { uint16_t x; std::memcpy(&x, p, 2); return x; }
    case DType::S8: return double(int8_t(*p));
    default: return double(*p);
  }
}

}  // namespace

bool run_byo_kernel(Device& dev, const ByoKernel& k, const std::string& out_dir, std::string& detail, bool& compared) {
  const std::string& run_file = k.file;
  const auto at = [&](int line, const std::string& key) { return Place{run_file, line, key}; };
  dev.load_ptx_file(k.ptx);
  const KernelInfo* ki = dev.driver().find_kernel(k.name);
  if (!ki) {
    const std::string hint = closest_match(k.name, dev.driver().kernel_names());
    throw InputError(at(k.name_line, "kernel.name"), "no kernel '" + k.name + "' in the PTX" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
  }
  if (k.registers) dev.set_registers_per_thread(k.registers);
  dev.set_launch_hint(k.hint);

  struct Buffer {
    const ByoBuffer* spec;
    DevPtr ptr;
  };
  std::map<std::string, Buffer> buffers;
  for (const ByoBuffer& b : k.buffers) {
    const DevPtr ptr = dev.malloc(std::max<uint64_t>(b.count * dtype_bytes(b.type), 1));  // checked against sim.max_memory_mb first
    const std::vector<uint8_t> init = initial_bytes(k, b);
    if (!init.empty()) dev.memcpy_h2d(ptr, init.data(), init.size());
    buffers[b.name] = Buffer{&b, ptr};
  }

  std::vector<KernelArg> args;
  if (k.args.size() != ki->params.size())
    throw InputError(at(k.args_line, "kernel.args"), "kernel '" + k.name + "' takes " + std::to_string(ki->params.size()) +
                                                         " parameters; args lists " + std::to_string(k.args.size()));
  for (size_t i = 0; i < k.args.size(); ++i) {
    const ParamInfo& p = ki->params[i];
    const std::string& s = k.args[i].text;
    const auto b = buffers.find(s);
    if (b != buffers.end()) {
      if (p.size != 8)
        throw InputError(at(k.args[i].line, "kernel.args"), "buffer '" + s + "' passed to parameter " + std::to_string(i) + " of " +
                                                                std::to_string(p.size) + " bytes (a pointer is 8)");
      args.push_back(arg(b->second.ptr));
      continue;
    }
    KernelArg a;
    a.bytes.resize(p.size);
    try {
      size_t used = 0;
      if (p.type == DType::F32) { float f = std::stof(s, &used); std::memcpy(a.bytes.data(), &f, 4); }
      else if (p.type == DType::F64) { double d = std::stod(s, &used); std::memcpy(a.bytes.data(), &d, 8); }
      else { long long v = std::stoll(s, &used, 0); std::memcpy(a.bytes.data(), &v, std::min<size_t>(p.size, 8)); }
      if (used != s.size()) throw std::invalid_argument(s);
    } catch (const std::exception&) {
      std::vector<std::string> names;
      for (auto& bb : buffers) names.push_back(bb.first);
      const std::string hint = closest_match(s, names);
      throw InputError(at(k.args[i].line, "kernel.args"),
                       "argument '" + s + "' is neither a buffer nor a number" + (hint.empty() ? "" : " (did you mean buffer '" + hint + "'?)"));
    }
    args.push_back(a);
  }
  dev.launch(ki->name, Dim3(k.grid[0], k.grid[1], k.grid[2]), Dim3(k.block[0], k.block[1], k.block[2]), args, k.shared);

  bool ok = true;
  compared = false;
  std::ostringstream summary;
  for (auto& kv : buffers) {
    const ByoBuffer& b = *kv.second.spec;
    const unsigned esz = dtype_bytes(b.type);
    std::vector<uint8_t> got(b.count * esz);
    if (!got.empty()) dev.memcpy_d2h(got.data(), kv.second.ptr, got.size());
    if (!b.dump.empty()) {
      fs::path p = fs::path(out_dir) / b.dump;
      std::ofstream f(p, std::ios::binary);
      if (!f) throw InputError("cannot write dump file '" + p.string() + "'");
      f.write(reinterpret_cast<const char*>(got.data()), std::streamsize(got.size()));
    }
    if (b.compare.empty()) continue;
    compared = true;
    const std::string& rp = b.compare;
    const Place where = at(b.line, "kernel.buffers." + b.name + ".compare");
    std::error_code ec;
    if (!fs::is_regular_file(rp, ec)) throw InputError(where, "reference file '" + rp + "' is not a readable regular file");
    const uint64_t ref_size = fs::file_size(rp, ec);
    if (ec || ref_size != got.size())
      throw InputError(where, "reference file '" + rp + "' has " + std::to_string(ref_size) + " bytes; buffer '" + b.name + "' has " +
                                  std::to_string(got.size()));
    std::vector<uint8_t> ref(got.size());
    std::ifstream f(rp, std::ios::binary);
    if (!f.read(reinterpret_cast<char*>(ref.data()), std::streamsize(ref.size()))) throw InputError(where, "cannot read reference file '" + rp + "'");
    uint64_t bad = 0, first = 0;
    for (uint64_t i = 0; i < b.count; ++i) {
      double g = element(&got[i * esz], b.type), e = element(&ref[i * esz], b.type);
      bool match = dtype_float(b.type) ? (std::fabs(g - e) <= b.tolerance * std::max(1.0, std::fabs(e)) || (std::isnan(g) && std::isnan(e)))
                                       : std::memcmp(&got[i * esz], &ref[i * esz], esz) == 0;
      if (!match && bad++ == 0) first = i;
    }
    if (bad) {
      ok = false;
      summary << "buffer '" << b.name << "': " << bad << " of " << b.count << " elements differ from " << b.compare
              << ", first at index " << first << " (got " << element(&got[first * esz], b.type) << ", expected "
              << element(&ref[first * esz], b.type) << "); ";
    } else {
      summary << "buffer '" << b.name << "' matches " << b.compare << "; ";
    }
  }
  detail = summary.str();
  return ok && compared;
}

}  // namespace warptlm
