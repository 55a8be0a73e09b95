#include "run_file.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <cstring>

#include "common/errors.hpp"
#include "common/yaml_input.hpp"

namespace fs = std::filesystem;

namespace warptlm {

const std::vector<std::string> kRunKeys = {"workload", "size", "config", "overlays", "set", "kernel", "out", "vcd"};

namespace {

struct Reader {
  std::string file;
  [[noreturn]] void fail(const YAML::Node& n, const std::string& key, const std::string& msg) const {
    throw InputError(Place{file, yaml_line(n), key}, msg);
  }
  std::string str(const YAML::Node& n, const std::string& key) const {
    if (!n.IsScalar()) fail(n, key, "'" + key + "' must be a single value");
    return n.Scalar();
  }
  std::string key_of(const YAML::Node& k, const std::string& where) const {
    if (!k.IsScalar()) fail(k, where, "a key in '" + where + "' must be a name, not a list or a map");
    return k.Scalar();
  }
  uint64_t uint(const YAML::Node& n, const std::string& key) const {
    const std::string s = str(n, key);
    try {
      size_t used = 0;
      const long long v = std::stoll(s, &used, 0);
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
  void only_keys(const YAML::Node& map, const std::vector<std::string>& keys, const std::string& prefix, const std::string& what) const {
    for (auto it = map.begin(); it != map.end(); ++it) {
      const std::string key = key_of(it->first, prefix);
      if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
      const std::string hint = closest_match(key, keys);
      fail(it->first, prefix + "." + key, "unknown key '" + key + "' in " + what + (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
    }
  }
};

void dims(const Reader& r, const YAML::Node& n, const std::string& key, uint32_t out[3]) {
  out[0] = out[1] = out[2] = 1;
  if (n.IsScalar()) { out[0] = r.u32(n, key); return; }
  if (!n.IsSequence() || n.size() < 1 || n.size() > 3) r.fail(n, key, "'" + key + "' must be a number or a list of 1 to 3 numbers");
  for (size_t i = 0; i < n.size(); ++i) out[i] = r.u32(n[i], key);
}

const std::map<std::string, DType>& type_names() {
  static const std::map<std::string, DType> t = {
      {"f32", DType::F32}, {"f64", DType::F64}, {"s32", DType::S32}, {"i32", DType::S32}, {"u32", DType::U32},
      {"s64", DType::S64}, {"i64", DType::S64}, {"u64", DType::U64}, {"s16", DType::S16}, {"u16", DType::U16},
      {"s8", DType::S8}, {"u8", DType::U8}};
  return t;
}

ByoBuffer read_buffer(const Reader& r, const std::string& name, const YAML::Node& n) {
  ByoBuffer b;
  b.name = name;
  const std::string key = "kernel.buffers." + name;
  if (!n.IsMap()) r.fail(n, key, "buffer '" + name + "' must be a map");
  r.only_keys(n, {"type", "count", "init", "seed", "dump", "compare", "tolerance"}, key, "buffer '" + name + "'");
  if (!n["type"] || !n["count"]) r.fail(n, key, "buffer '" + name + "' needs 'type' and 'count'");
  const std::string ts = r.str(n["type"], key + ".type");
  const auto tt = type_names().find(ts);
  if (tt == type_names().end()) r.fail(n["type"], key + ".type", "unknown buffer type '" + ts + "': f32, f64, s32, u32, s64, u64, s16, u16, s8, u8");
  b.type = tt->second;
  b.count = r.uint(n["count"], key + ".count");
  if (b.count > (uint64_t(1) << 40) / dtype_bytes(b.type))
    r.fail(n["count"], key + ".count", "buffer '" + name + "' of " + std::to_string(b.count) + " elements is over 1 TiB");
  if (n["init"]) {
    b.init = r.str(n["init"], key + ".init");
    if (b.init.rfind("file:", 0) == 0) b.init = "file:" + r.path(b.init.substr(5));
    else if (b.init != "zeros" && b.init != "sequence" && b.init != "random")
      r.fail(n["init"], key + ".init", "unknown init '" + b.init + "': zeros, sequence, random or file:PATH");
  }
  if (n["seed"]) b.seed = r.uint(n["seed"], key + ".seed");
  if (n["dump"]) b.dump = r.str(n["dump"], key + ".dump");
  if (n["compare"]) b.compare = r.path(r.str(n["compare"], key + ".compare"));
  if (n["tolerance"]) {
    const std::string tv = r.str(n["tolerance"], key + ".tolerance");
    try {
      size_t used = 0;
      b.tolerance = std::stod(tv, &used);
      if (used != tv.size() || !(b.tolerance >= 0)) throw std::invalid_argument(tv);
    } catch (const std::exception&) {
      r.fail(n["tolerance"], key + ".tolerance", "tolerance must be a non-negative number, not '" + tv + "'");
    }
  }
  b.line = yaml_line(n);
  return b;
}

}  // namespace

RunFile read_run_file(const std::string& text, const std::string& origin, RunOptions& opt) {
  const Reader r{origin};
  RunFile rf;
  rf.root = load_yaml_document(text, origin);
  if (rf.root.IsNull()) return rf;
  if (!rf.root.IsMap()) r.fail(rf.root, "", "a run file is a map of keys (workload, size, config, overlays, set, kernel, out, ...)");
  for (auto it = rf.root.begin(); it != rf.root.end(); ++it) {
    const std::string key = r.key_of(it->first, "the run file");
    const YAML::Node v = it->second;
    if (key == "workload") { if (opt.workload.empty()) opt.workload = r.str(v, key); }
    else if (key == "size") { if (opt.size.empty()) opt.size = r.str(v, key); }
    else if (key == "config") { if (opt.config.empty()) opt.config = r.str(v, key); }
    else if (key == "out") { if (opt.out.empty()) opt.out = r.str(v, key); }
    else if (key == "vcd") { if (opt.vcd.empty()) opt.vcd = r.str(v, key); }
    else if (key == "kernel") {
      if (!v.IsMap()) r.fail(v, key, "'kernel' must be a map (ptx, name, grid, block, buffers, args)");
      rf.has_kernel = true;
    } else if (key == "overlays") {
      if (v.IsScalar()) rf.overlays.push_back(v.Scalar());
      else if (v.IsSequence()) for (auto o : v) rf.overlays.push_back(r.str(o, key));
      else r.fail(v, key, "'overlays' must be a name or a list of names");
    } else if (key == "set") {
      if (!v.IsMap()) r.fail(v, key, "'set' must be a map of parameter: value");
      for (auto s = v.begin(); s != v.end(); ++s) {
        const std::string name = r.key_of(s->first, "set");
        rf.sets.push_back({name, r.str(s->second, name), yaml_line(s->second)});
      }
    }
  }
  return rf;
}

RunFile load_run_file(const std::string& path, RunOptions& opt) {
  if (!fs::exists(path)) throw InputError("cannot open run file '" + path + "'");
  std::ifstream f(path);
  if (!f) throw InputError("cannot read run file '" + path + "'");
  const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  return read_run_file(text, path, opt);
}

// The launch keys of map `n` (the kernel section or one entry of its launches) over `base`'s values.
ByoLaunch read_launch(const Reader& r, const YAML::Node& n, const std::string& key, ByoLaunch base) {
  ByoLaunch l = std::move(base);
  l.key = key;
  l.line = yaml_line(n);
  if (n["name"]) {
    l.name = r.str(n["name"], key + ".name");
    l.name_line = yaml_line(n["name"]);
  }
  if (n["grid"]) dims(r, n["grid"], key + ".grid", l.grid);
  if (n["block"]) dims(r, n["block"], key + ".block", l.block);
  if (n["shared"]) l.shared = r.u32(n["shared"], key + ".shared");
  if (n["hint"]) {
    l.hint = r.u32(n["hint"], key + ".hint");
    if (l.hint > 3)
      r.fail(n["hint"], key + ".hint", "'" + key + ".hint' is " + std::to_string(l.hint) +
                                           "; a launch hint is 0 (none), 1 (lines shared among blocks), 2 (boundary lines) or 3 (some common data)");
  }
  if (n["repeat"]) {
    l.repeat = r.u32(n["repeat"], key + ".repeat");
    if (l.repeat == 0 || l.repeat > 1000000)
      r.fail(n["repeat"], key + ".repeat", "'" + key + ".repeat' is " + std::to_string(l.repeat) + "; a launch repeats 1 to 1000000 times");
  }
  const YAML::Node an = n["args"];
  l.args_line = yaml_line(an ? an : n);
  if (an && !an.IsSequence()) r.fail(an, key + ".args", "'" + key + ".args' must be a list");
  if (an) {
    l.args.clear();
    for (const YAML::Node& a : an) {
      ByoArg arg;
      arg.line = yaml_line(a);
      if (a.IsSequence()) {  // a parameter's bytes
        arg.is_bytes = true;
        for (const YAML::Node& b : a) {
          const uint64_t v = r.uint(b, key + ".args");
          if (v > 255) r.fail(b, key + ".args", "a parameter given as bytes lists numbers 0 to 255, not " + std::to_string(v));
          arg.bytes.push_back(uint8_t(v));
        }
        if (arg.bytes.empty()) r.fail(a, key + ".args", "a parameter given as bytes needs at least one byte");
      } else {
        arg.text = r.str(a, key + ".args");
      }
      l.args.push_back(std::move(arg));
    }
  }
  return l;
}

ByoKernel read_byo_kernel(const std::string& run_file, const YAML::Node& root) {
  const Reader r{run_file};
  ByoKernel k;
  k.file = run_file;
  const YAML::Node n = root["kernel"];
  r.only_keys(n, {"ptx", "name", "grid", "block", "shared", "registers", "hint", "buffers", "args", "repeat", "launches"},
              "kernel", "the kernel section");
  if (!n["ptx"]) r.fail(n, "kernel.ptx", "kernel section needs 'ptx'");
  k.ptx = r.path(r.str(n["ptx"], "kernel.ptx"));
  k.ptx_line = yaml_line(n["ptx"]);
  if (n["registers"]) {
    k.registers = r.u32(n["registers"], "kernel.registers");
    if (k.registers == 0 || k.registers > 255)
      r.fail(n["registers"], "kernel.registers", "'kernel.registers' is " + std::to_string(k.registers) + "; a thread has 1 to 255 registers");
  }
  if (const YAML::Node bs = n["buffers"]) {
    if (!bs.IsMap()) r.fail(bs, "kernel.buffers", "'buffers' must be a map of name: {type, count, init, ...}");
    for (auto it = bs.begin(); it != bs.end(); ++it) k.buffers.push_back(read_buffer(r, r.key_of(it->first, "kernel.buffers"), it->second));
  }
  const ByoLaunch section = read_launch(r, n, "kernel", ByoLaunch{});
  const YAML::Node ls = n["launches"];
  if (!ls) {  // the section is the one launch
    for (const char* req : {"name", "grid", "block"})
      if (!n[req]) r.fail(n, std::string("kernel.") + req, std::string("kernel section needs '") + req + "' (or a 'launches' list)");
    k.launches.push_back(section);
    return k;
  }
  for (const char* own : {"name", "args", "repeat"})
    if (n[own]) r.fail(n[own], std::string("kernel.") + own, std::string("'kernel.") + own + "' belongs in each entry of 'launches'");
  if (!ls.IsSequence() || ls.size() == 0) r.fail(ls, "kernel.launches", "'launches' must be a list of launches ({name, grid, block, args, ...})");
  for (size_t i = 0; i < ls.size(); ++i) {
    const std::string key = "kernel.launches[" + std::to_string(i) + "]";
    if (!ls[i].IsMap()) r.fail(ls[i], key, "each launch is a map {name, grid, block, args, shared, hint, repeat}");
    r.only_keys(ls[i], {"name", "grid", "block", "shared", "hint", "args", "repeat"}, key, "a launch");
    ByoLaunch base = section;
    base.name.clear();
    base.args.clear();
    ByoLaunch l = read_launch(r, ls[i], key, base);
    if (l.name.empty()) r.fail(ls[i], key + ".name", "launch " + std::to_string(i) + " needs 'name'");
    if (!ls[i]["grid"] && !n["grid"]) r.fail(ls[i], key + ".grid", "launch " + std::to_string(i) + " needs 'grid' (here or in the kernel section)");
    if (!ls[i]["block"] && !n["block"]) r.fail(ls[i], key + ".block", "launch " + std::to_string(i) + " needs 'block' (here or in the kernel section)");
    k.launches.push_back(std::move(l));
  }
  return k;
}

std::vector<uint8_t> initial_bytes(const ByoKernel& k, const ByoBuffer& b) {
  const unsigned esz = dtype_bytes(b.type);
  std::vector<uint8_t> v(b.count * esz, 0);
  if (b.init == "zeros") return v;
  if (b.init == "sequence" || b.init == "random") {
    std::mt19937_64 rng(b.seed);
    for (uint64_t i = 0; i < b.count; ++i) {
      uint8_t* p = &v[i * esz];
      if (b.type == DType::F32) {
        const float f = b.init == "sequence" ? float(i) : float(rng() >> 40) * (1.0f / 16777216.0f);
        std::memcpy(p, &f, 4);
      } else if (b.type == DType::F64) {
        const double d = b.init == "sequence" ? double(i) : double(rng() >> 11) * (1.0 / 9007199254740992.0);
        std::memcpy(p, &d, 8);
      } else {
        const uint64_t x = b.init == "sequence" ? i : (rng() >> 33);  // random ints in [0, 2^31)
        std::memcpy(p, &x, esz);
      }
    }
    return v;
  }
  // file:PATH; a device or a pipe (/dev/zero) would never end: only a regular file of the buffer's size.
  const std::string p = b.init.substr(5);
  const Place at{k.file, b.line, "kernel.buffers." + b.name + ".init"};
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) throw InputError(at, "init file '" + p + "' is not a readable regular file");
  const uint64_t size = fs::file_size(p, ec);
  if (ec || size != v.size())
    throw InputError(at, "init file '" + p + "' has " + std::to_string(size) + " bytes; buffer '" + b.name + "' needs " + std::to_string(v.size()));
  std::ifstream f(p, std::ios::binary);
  if (!f.read(reinterpret_cast<char*>(v.data()), std::streamsize(v.size()))) throw InputError(at, "cannot read init file '" + p + "'");
  return v;
}

}  // namespace warptlm
