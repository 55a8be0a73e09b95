// Bring-your-own PTX: a run YAML's `kernel:` section describes a launch with
// no C++ (DESIGN.md "Bring-your-own PTX"); run_file.cpp reads and checks it.
// Inputs (ptx, init files, compare references) are relative to the YAML file;
// dumps go to the output directory.
#include <algorithm>
#include <cctype>
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

struct Buffer {
  const ByoBuffer* spec;
  DevPtr ptr;
};

// A launch's argument for parameter `p`: a buffer's pointer (`name`, or `name+BYTES` inside it), the
// parameter's bytes, or a number of its PTX type.
KernelArg launch_arg(const ByoLaunch& l, const ByoArg& a, size_t i, const ParamInfo& p,
                     const std::map<std::string, Buffer>& buffers, const std::string& run_file) {
  const Place at{run_file, a.line, l.key + ".args"};
  if (a.is_bytes) {
    if (a.bytes.size() != p.size)
      throw InputError(at, "parameter " + std::to_string(i) + " ('" + p.name + "') is " + std::to_string(p.size) +
                               " bytes; the byte list gives " + std::to_string(a.bytes.size()));
    KernelArg k;
    k.bytes = a.bytes;
    return k;
  }
  const std::string& s = a.text;
  const size_t plus = s.find('+');
  const auto b = buffers.find(s.substr(0, plus));
  if (b != buffers.end()) {
    uint64_t offset = 0;
    if (plus != std::string::npos) {
      const std::string o = s.substr(plus + 1);
      size_t used = 0;
      try {
        offset = std::stoull(o, &used, 0);
      } catch (const std::exception&) {
        used = 0;
      }
      if (o.empty() || used != o.size() || !std::isdigit(static_cast<unsigned char>(o[0])))
        throw InputError(at, "'" + s + "': the offset after '+' must be a number of bytes");
      const uint64_t size = b->second.spec->count * dtype_bytes(b->second.spec->type);
      if (offset > size)
        throw InputError(at, "'" + s + "' points " + std::to_string(offset) + " bytes into buffer '" + b->first + "' of " +
                                 std::to_string(size) + " bytes");
    }
    if (p.size != 8)
      throw InputError(at, "buffer '" + b->first + "' passed to parameter " + std::to_string(i) + " of " +
                               std::to_string(p.size) + " bytes (a pointer is 8)");
    return arg(b->second.ptr + offset);
  }
  KernelArg k;
  k.bytes.resize(p.size);
  try {
    size_t used = 0;
    if (p.type == DType::F32) { float f = std::stof(s, &used); std::memcpy(k.bytes.data(), &f, 4); }
    else if (p.type == DType::F64) { double d = std::stod(s, &used); std::memcpy(k.bytes.data(), &d, 8); }
    else { long long v = std::stoll(s, &used, 0); std::memcpy(k.bytes.data(), &v, std::min<size_t>(p.size, 8)); }
    if (used != s.size()) throw std::invalid_argument(s);
  } catch (const std::exception&) {
    std::vector<std::string> names;
    for (auto& bb : buffers) names.push_back(bb.first);
    const std::string hint = closest_match(s.substr(0, plus), names);
    throw InputError(at, "argument '" + s + "' is neither a buffer (name or name+bytes), a number nor a byte list" +
                             (hint.empty() ? "" : " (did you mean buffer '" + hint + "'?)"));
  }
  return k;
}

}  // namespace

bool run_byo_kernel(Device& dev, const ByoKernel& k, const std::string& out_dir, std::string& detail, bool& compared) {
  const std::string& run_file = k.file;
  const auto at = [&](int line, const std::string& key) { return Place{run_file, line, key}; };
  if (!fs::is_regular_file(k.ptx)) throw InputError(at(k.ptx_line, "kernel.ptx"), "cannot open PTX file '" + k.ptx + "'");
  dev.load_ptx_file(k.ptx);
  if (k.registers) dev.set_registers_per_thread(k.registers);

  std::map<std::string, Buffer> buffers;
  for (const ByoBuffer& b : k.buffers) {
    const DevPtr ptr = dev.malloc(std::max<uint64_t>(b.count * dtype_bytes(b.type), 1));  // checked against sim.max_memory_mb first
    if (b.init != "zeros") {  // device memory starts zeroed: zeros cost the host nothing (untouched pages)
      const std::vector<uint8_t> init = initial_bytes(k, b);
      if (!init.empty()) dev.memcpy_h2d(ptr, init.data(), init.size());
    }
    buffers[b.name] = Buffer{&b, ptr};
  }

  // Every launch is checked before the first one runs: a mistake in the last is not found after minutes.
  std::vector<std::pair<const KernelInfo*, std::vector<KernelArg>>> planned;
  for (const ByoLaunch& l : k.launches) {
    const KernelInfo* ki = dev.driver().find_kernel(l.name);
    if (!ki) {
      const std::string hint = closest_match(l.name, dev.driver().kernel_names());
      throw InputError(at(l.name_line, l.key + ".name"), "no kernel '" + l.name + "' in the PTX" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
    }
    if (l.args.size() != ki->params.size())
      throw InputError(at(l.args_line, l.key + ".args"), "kernel '" + l.name + "' takes " + std::to_string(ki->params.size()) +
                                                            " parameters; args lists " + std::to_string(l.args.size()));
    std::vector<KernelArg> args;
    for (size_t i = 0; i < l.args.size(); ++i) args.push_back(launch_arg(l, l.args[i], i, ki->params[i], buffers, run_file));
    planned.push_back({ki, std::move(args)});
  }
  for (size_t i = 0; i < k.launches.size(); ++i) {
    const ByoLaunch& l = k.launches[i];
    dev.set_launch_hint(l.hint);
    try {
      for (uint32_t r = 0; r < l.repeat; ++r)
        dev.launch(planned[i].first->name, Dim3(l.grid[0], l.grid[1], l.grid[2]), Dim3(l.block[0], l.block[1], l.block[2]),
                   planned[i].second, l.shared);
    } catch (const InputError& e) {
      if (!e.where().file.empty()) throw;
      // a launch the platform refuses (a block too large, too much shared memory): the launch's lines
      throw InputError(at(l.line, l.key), "'" + l.key + "': " + e.what());
    }
  }

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
