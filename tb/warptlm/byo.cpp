// Bring-your-own PTX: a run YAML's `kernel:` section describes a launch with
// no C++ (DESIGN.md "Bring-your-own PTX"). Inputs (ptx, init files, compare
// references) are relative to the YAML file; dumps go to the output directory.
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <yaml-cpp/yaml.h>

#include "app.hpp"
#include "common/errors.hpp"
#include "common/yaml_input.hpp"
#include "runtime/gpu_driver.hpp"
#include "runtime/device.hpp"

namespace fs = std::filesystem;

namespace warptlm {
namespace {

struct BufferSpec {
  std::string name;
  DType type = DType::F32;
  uint64_t count = 0;
  std::string init = "zeros";
  uint64_t seed = 1;
  std::string dump, compare;
  double tolerance = 0;
  DevPtr ptr = 0;
  int line = 0;
};

struct Ctx {
  std::string file;
  [[noreturn]] void fail(const YAML::Node& n, const std::string& key, const std::string& msg) const {
    throw InputError(Place{file, yaml_line(n), key}, msg);
  }
  std::string str(const YAML::Node& n, const std::string& key) const {
    if (!n.IsScalar()) fail(n, key, "'" + key + "' must be a single value");
    return n.Scalar();
  }
  uint64_t uint(const YAML::Node& n, const std::string& key) const {
    std::string s = str(n, key);
    try {
      size_t used = 0;
      long long v = std::stoll(s, &used, 0);
      if (used != s.size() || v < 0) throw std::invalid_argument(s);
      return uint64_t(v);
    } catch (const std::exception&) {
      fail(n, key, "'" + key + "' must be a non-negative integer, not '" + s + "'");
    }
  }
  uint32_t u32(const YAML::Node& n, const std::string& key) const {
    const uint64_t v = uint(n, key);
    if (v > UINT32_MAX) fail(n, key, "'" + key + "' is " + std::to_string(v) + ", over the 32-bit limit of 4294967295");
    return uint32_t(v);
  }
  std::string path(const std::string& p) const {
    if (fs::path(p).is_absolute()) return p;
    return (fs::path(file).parent_path() / p).lexically_normal().string();
  }
};

void dims(const Ctx& c, const YAML::Node& n, const std::string& key, uint32_t out[3]) {
  out[0] = out[1] = out[2] = 1;
  if (n.IsScalar()) { out[0] = c.u32(n, key); return; }
  if (!n.IsSequence() || n.size() < 1 || n.size() > 3) c.fail(n, key, "'" + key + "' must be a number or a list of 1 to 3 numbers");
  for (size_t i = 0; i < n.size(); ++i) out[i] = c.u32(n[i], key);
}

const std::map<std::string, DType>& type_names() {
  static const std::map<std::string, DType> t = {
      {"f32", DType::F32}, {"f64", DType::F64}, {"s32", DType::S32}, {"i32", DType::S32}, {"u32", DType::U32},
      {"s64", DType::S64}, {"i64", DType::S64}, {"u64", DType::U64}, {"s16", DType::S16}, {"u16", DType::U16},
      {"s8", DType::S8}, {"u8", DType::U8}};
  return t;
}

std::vector<uint8_t> initial_bytes(const Ctx& c, const YAML::Node& node, const BufferSpec& b) {
  const unsigned esz = dtype_bytes(b.type);
  std::vector<uint8_t> v(b.count * esz, 0);
  if (b.init == "zeros") return v;
  if (b.init == "sequence" || b.init == "random") {
    std::mt19937_64 rng(b.seed);
    for (uint64_t i = 0; i < b.count; ++i) {
      uint8_t* p = &v[i * esz];
      if (b.type == DType::F32) {
        float f = b.init == "sequence" ? float(i) : float(rng() >> 40) * (1.0f / 16777216.0f);
        std::memcpy(p, &f, 4);
      } else if (b.type == DType::F64) {
        double d = b.init == "sequence" ? double(i) : double(rng() >> 11) * (1.0 / 9007199254740992.0);
        std::memcpy(p, &d, 8);
      } else {
        uint64_t x = b.init == "sequence" ? i : (rng() >> 33);  // random ints in [0, 2^31)
        std::memcpy(p, &x, esz);
      }
    }
    return v;
  }
  if (b.init.rfind("file:", 0) == 0) {
    std::string p = c.path(b.init.substr(5));
    std::ifstream f(p, std::ios::binary);
    if (!f) c.fail(node, "init", "cannot open init file '" + p + "'");
    std::vector<uint8_t> data((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (data.size() != v.size())
      c.fail(node, "init", "init file '" + p + "' has " + std::to_string(data.size()) + " bytes; buffer '" + b.name + "' needs " +
                               std::to_string(v.size()));
    return data;
  }
  c.fail(node, "init", "unknown init '" + b.init + "': zeros, sequence, random or file:PATH");
}

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

bool run_byo_kernel(Device& dev, const std::string& run_file, const std::string& out_dir, std::string& detail, bool& compared) {
  Ctx c{run_file};
  YAML::Node root = load_yaml_file(run_file);
  YAML::Node k = root["kernel"];
  static const std::vector<std::string> keys = {"ptx", "name", "grid", "block", "shared", "registers", "buffers", "args"};
  for (auto it = k.begin(); it != k.end(); ++it) {
    std::string key = it->first.as<std::string>();
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      std::string hint = closest_match(key, keys);
      c.fail(it->first, "kernel." + key, "unknown key 'kernel." + key + "'" + (hint.empty() ? "" : " (did you mean 'kernel." + hint + "'?)"));
    }
  }
  for (const char* req : {"ptx", "name", "grid", "block"})
    if (!k[req]) c.fail(k, std::string("kernel.") + req, std::string("kernel section needs '") + req + "'");
  dev.load_ptx_file(c.path(c.str(k["ptx"], "kernel.ptx")));
  const std::string name = c.str(k["name"], "kernel.name");
  const KernelInfo* ki = dev.driver().find_kernel(name);
  if (!ki) {
    std::string hint = closest_match(name, dev.driver().kernel_names());
    c.fail(k["name"], "kernel.name", "no kernel '" + name + "' in the PTX" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
  }
  uint32_t grid[3], block[3];
  dims(c, k["grid"], "kernel.grid", grid);
  dims(c, k["block"], "kernel.block", block);
  uint32_t shared = k["shared"] ? c.u32(k["shared"], "kernel.shared") : 0;
  if (k["registers"]) {
    const uint32_t r = c.u32(k["registers"], "kernel.registers");
    if (r == 0 || r > 255) c.fail(k["registers"], "kernel.registers", "'kernel.registers' is " + std::to_string(r) + "; a thread has 1 to 255 registers");
    dev.set_registers_per_thread(r);
  }

  std::map<std::string, BufferSpec> buffers;
  if (k["buffers"]) {
    YAML::Node bs = k["buffers"];
    if (!bs.IsMap()) c.fail(bs, "kernel.buffers", "'buffers' must be a map of name: {type, count, init, ...}");
    for (auto it = bs.begin(); it != bs.end(); ++it) {
      BufferSpec b;
      b.name = it->first.as<std::string>();
      YAML::Node n = it->second;
      const std::string key = "kernel.buffers." + b.name;
      if (!n.IsMap()) c.fail(n, key, "buffer '" + b.name + "' must be a map");
      static const std::vector<std::string> bkeys = {"type", "count", "init", "seed", "dump", "compare", "tolerance"};
      for (auto f = n.begin(); f != n.end(); ++f) {
        std::string fk = f->first.as<std::string>();
        if (std::find(bkeys.begin(), bkeys.end(), fk) == bkeys.end()) {
          std::string hint = closest_match(fk, bkeys);
          c.fail(f->first, key + "." + fk, "unknown key '" + fk + "' in buffer '" + b.name + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
        }
      }
      if (!n["type"] || !n["count"]) c.fail(n, key, "buffer '" + b.name + "' needs 'type' and 'count'");
      std::string ts = c.str(n["type"], key + ".type");
      auto tt = type_names().find(ts);
      if (tt == type_names().end()) c.fail(n["type"], key + ".type", "unknown buffer type '" + ts + "': f32, f64, s32, u32, s64, u64, s16, u16, s8, u8");
      b.type = tt->second;
      b.count = c.uint(n["count"], key + ".count");
      if (n["init"]) b.init = c.str(n["init"], key + ".init");
      if (n["seed"]) b.seed = c.uint(n["seed"], key + ".seed");
      if (n["dump"]) b.dump = c.str(n["dump"], key + ".dump");
      if (n["compare"]) b.compare = c.str(n["compare"], key + ".compare");
      if (n["tolerance"]) {
        std::string tv = c.str(n["tolerance"], key + ".tolerance");
        try { b.tolerance = std::stod(tv); } catch (const std::exception&) { c.fail(n["tolerance"], key + ".tolerance", "tolerance must be a number"); }
      }
      b.line = n.Mark().line + 1;
      if (b.count > (uint64_t(1) << 40) / dtype_bytes(b.type))
        c.fail(n["count"], key + ".count", "buffer '" + b.name + "' of " + std::to_string(b.count) + " elements is over 1 TiB");
      b.ptr = dev.malloc(std::max<uint64_t>(b.count * dtype_bytes(b.type), 1));  // checked against sim.max_memory_mb first
      std::vector<uint8_t> init = initial_bytes(c, n, b);
      if (!init.empty()) dev.memcpy_h2d(b.ptr, init.data(), init.size());
      buffers[b.name] = b;
    }
  }

  std::vector<KernelArg> args;
  YAML::Node an = k["args"];
  if (an && !an.IsSequence()) c.fail(an, "kernel.args", "'args' must be a list");
  size_t nargs = an ? an.size() : 0;
  if (nargs != ki->params.size())
    c.fail(an ? an : k, "kernel.args", "kernel '" + name + "' takes " + std::to_string(ki->params.size()) + " parameters; args lists " +
                                            std::to_string(nargs));
  for (size_t i = 0; i < nargs; ++i) {
    const ParamInfo& p = ki->params[i];
    std::string s = c.str(an[i], "kernel.args");
    auto b = buffers.find(s);
    if (b != buffers.end()) {
      if (p.size != 8) c.fail(an[i], "kernel.args", "buffer '" + s + "' passed to parameter " + std::to_string(i) + " of " + std::to_string(p.size) + " bytes (a pointer is 8)");
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
      std::string hint = closest_match(s, names);
      c.fail(an[i], "kernel.args", "argument '" + s + "' is neither a buffer nor a number" + (hint.empty() ? "" : " (did you mean buffer '" + hint + "'?)"));
    }
    args.push_back(a);
  }
  dev.launch(ki->name, Dim3(grid[0], grid[1], grid[2]), Dim3(block[0], block[1], block[2]), args, shared);

  bool ok = true;
  compared = false;
  std::ostringstream summary;
  for (auto& kv : buffers) {
    BufferSpec& b = kv.second;
    const unsigned esz = dtype_bytes(b.type);
    std::vector<uint8_t> got(b.count * esz);
    if (!got.empty()) dev.memcpy_d2h(got.data(), b.ptr, got.size());
    if (!b.dump.empty()) {
      fs::path p = fs::path(out_dir) / b.dump;
      std::ofstream f(p, std::ios::binary);
      if (!f) throw InputError("cannot write dump file '" + p.string() + "'");
      f.write(reinterpret_cast<const char*>(got.data()), std::streamsize(got.size()));
    }
    if (b.compare.empty()) continue;
    compared = true;
    std::string rp = c.path(b.compare);
    std::ifstream f(rp, std::ios::binary);
    if (!f) throw InputError(Place{run_file, b.line, "compare"}, "cannot open reference file '" + rp + "'");
    std::vector<uint8_t> ref((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (ref.size() != got.size())
      throw InputError(Place{run_file, b.line, "compare"}, "reference file '" + rp + "' has " + std::to_string(ref.size()) +
                                                               " bytes; buffer '" + b.name + "' has " + std::to_string(got.size()));
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
