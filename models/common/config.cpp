#include "common/config.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "common/stats.hpp"  // write_file
#include "common/yaml_input.hpp"

namespace warptlm {

namespace {

// True when some declared key lies under `prefix` ("gpu" for "gpu.num_sms").
bool is_section(const ParamTable& table, const std::string& prefix) {
  const std::string p = prefix + ".";
  auto it = table.all().lower_bound(p);
  return it != table.all().end() && it->first.compare(0, p.size(), p) == 0;
}

// Every declared key plus every section name: the candidates for "did you mean".
std::vector<std::string> candidates(const ParamTable& table) {
  std::vector<std::string> out;
  for (const auto& kv : table.all()) {
    out.push_back(kv.first);
    for (size_t dot = kv.first.find('.'); dot != std::string::npos; dot = kv.first.find('.', dot + 1))
      out.push_back(kv.first.substr(0, dot));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// The names valid where `key` stands: the next components of declared keys under its prefix, and at the
// top of a file the file's own keys (`others`, e.g. a run file's workload, size, set).
std::vector<std::string> names_at(const ParamTable& table, const std::string& prefix, const std::vector<std::string>& others) {
  std::vector<std::string> out;
  const std::string p = prefix.empty() ? "" : prefix + ".";
  for (auto it = table.all().lower_bound(p); it != table.all().end() && it->first.compare(0, p.size(), p) == 0; ++it) {
    const std::string rest = it->first.substr(p.size());
    out.push_back(rest.substr(0, rest.find('.')));
  }
  if (prefix.empty()) out.insert(out.end(), others.begin(), others.end());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// An unknown key: the suggestion is a name valid at the key's place in the file when one is close (`sett:`
// at the top of a run file suggests `set`), else the closest declared key or section anywhere.
[[noreturn]] void unknown(const ParamTable& table, const std::string& key, const Place& where, bool section,
                          const std::string& prefix = "", const std::vector<std::string>& others = {}) {
  std::string msg = std::string(section ? "unknown parameter section '" : "unknown parameter '") + key + "'";
  const std::string name = prefix.empty() ? key : key.substr(prefix.size() + 1);
  std::string near = name.find('.') == std::string::npos ? closest_match(name, names_at(table, prefix, others)) : "";
  if (!near.empty() && !prefix.empty()) near = prefix + "." + near;
  if (near.empty()) near = closest_match(key, candidates(table));
  if (!near.empty()) msg += " (did you mean '" + near + "'?)";
  throw InputError(where, msg);
}

const char* kind_of(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map: return "a map";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Scalar: return "a scalar";
    case YAML::NodeType::Null: return "nothing";
    default: return "an undefined node";
  }
}

struct Assign {
  std::string key, text;
  Place where;
};

// Walk nested maps, joining keys with '.', checking every key against the table.
void walk(const ParamTable& table, const YAML::Node& map, const std::string& prefix, const std::string& file,
          const std::vector<std::string>& ignore_top, std::vector<Assign>& out) {
  for (auto it = map.begin(); it != map.end(); ++it) {
    const YAML::Node k = it->first;  // copies: the iterator hands out a temporary pair
    const YAML::Node v = it->second;
    if (!k.IsScalar())
      throw InputError(Place{file, yaml_line(k), prefix}, "parameter names must be plain scalars, got " +
                                                            std::string(kind_of(k)));
    const std::string name = trim(k.Scalar());
    if (prefix.empty() && std::find(ignore_top.begin(), ignore_top.end(), name) != ignore_top.end()) continue;
    const std::string key = prefix.empty() ? name : prefix + "." + name;
    const ParamSpec* spec = table.find(key);
    if (spec) {
      Place at{file, yaml_line(v), key};
      if (v.IsScalar()) {
        out.push_back({key, v.Scalar(), at});
      } else if (v.IsSequence() && spec->type == ParamType::String) {
        // a list of scalars for a string parameter ("trace.window: [1000, 2000]") is kept comma-joined
        std::string joined;
        for (const auto& e : v) {
          if (!e.IsScalar()) throw InputError(Place{file, yaml_line(e), key}, "expected a list of scalars");
          joined += (joined.empty() ? "" : ",") + trim(e.Scalar());
        }
        out.push_back({key, joined, at});
      } else if (v.IsNull()) {
        throw InputError(at, "missing value (expected " + std::string(param_type_name(spec->type)) + ")");
      } else {
        throw InputError(at, "expected a scalar " + std::string(param_type_name(spec->type)) + " value, got " +
                                 kind_of(v));
      }
    } else if (is_section(table, key)) {
      if (v.IsMap()) {
        walk(table, v, key, file, ignore_top, out);
      } else if (!v.IsNull()) {  // "gpu:" with nothing under it is harmless
        throw InputError(Place{file, yaml_line(v), key},
                         "'" + key + "' is a section: expected a map of its parameters, got " + kind_of(v));
      }
    } else {
      unknown(table, key, Place{file, yaml_line(k), key}, v.IsMap(), prefix, ignore_top);
    }
  }
}

std::string yaml_scalar(const ParamSpec& spec, const std::string& text) {
  if (spec.type == ParamType::Int || spec.type == ParamType::Float || spec.type == ParamType::Bool) return text;
  bool plain = spec.type == ParamType::Enum && !text.empty() &&
               (std::isalnum(static_cast<unsigned char>(text[0])) || text[0] == '_');
  for (char c : text)
    plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' || c == '/' ||
                      c == '+');
  static const char* const specials[] = {"null", "Null", "NULL", "~", "true", "false", "yes", "no", "on", "off",
                                         "True", "False", "Yes", "No", "On", "Off", "TRUE", "FALSE"};
  for (const char* sp : specials) plain = plain && text != sp;
  if (plain) return text;
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", c);
          out += buf;
        } else {
          out += char(c);
        }
    }
  }
  return out + "\"";
}

struct Tree {
  std::map<std::string, Tree> children;
  const ParamSpec* leaf = nullptr;
};

}  // namespace

Config::Config(const ParamTable& table) : table_(table) {}

void Config::merge_file(const std::string& path, const std::vector<std::string>& ignore_top) {
  std::error_code ec;
  std::ifstream in(path);
  if (!in || std::filesystem::is_directory(path, ec))
    throw InputError(Place{path, 0, ""}, "cannot open config file '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  merge_text(ss.str(), path, ignore_top);
}

void Config::merge_text(const std::string& yaml_text, const std::string& origin,
                        const std::vector<std::string>& ignore_top) {
  const YAML::Node root = load_yaml_document(yaml_text, origin);
  if (!root.IsDefined() || root.IsNull()) return;  // empty document
  if (!root.IsMap())
    throw InputError(Place{origin, yaml_line(root), ""}, std::string("expected a map of parameters, got ") +
                                                           kind_of(root));
  std::vector<Assign> assigns;
  try {
    walk(table_, root, "", origin, ignore_top, assigns);
  } catch (const YAML::Exception& e) {
    throw InputError(Place{origin, e.mark.line >= 0 ? e.mark.line + 1 : 0, ""}, "bad YAML: " + e.msg);
  }
  // Check everything before changing anything, so a bad file leaves the config as it was.
  for (const auto& a : assigns) {
    std::string why = check_value(*table_.find(a.key), a.text);
    if (!why.empty()) throw InputError(a.where, why);
  }
  for (const auto& a : assigns) set_at(a.key, a.text, a.where, a.where.file + ":" + std::to_string(a.where.line));
}

void Config::apply_set(const std::string& key_equals_value) {
  size_t eq = key_equals_value.find('=');
  if (eq == std::string::npos)
    throw InputError(Place{"--set", 0, ""}, "expected key=value, got '" + key_equals_value + "'");
  std::string key = trim(key_equals_value.substr(0, eq));
  if (key.empty()) throw InputError(Place{"--set", 0, ""}, "missing key in '" + key_equals_value + "'");
  set(key, key_equals_value.substr(eq + 1), "--set");
}

void Config::set(const std::string& key, const std::string& value, const std::string& origin) {
  Place where{origin, 0, key};
  // "file:line" origins name the line.
  size_t colon = origin.rfind(':');
  if (colon != std::string::npos && colon > 0 && colon + 1 < origin.size() &&
      std::all_of(origin.begin() + long(colon) + 1, origin.end(), [](char c) { return std::isdigit(
                                                                       static_cast<unsigned char>(c)); })) {
    where.file = origin.substr(0, colon);
    where.line = std::atoi(origin.c_str() + colon + 1);
  }
  std::string v = trim(value);
  if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front()) v = v.substr(1, v.size() - 2);
  set_at(key, v, where, origin);
}

void Config::set_at(const std::string& key, const std::string& value, const Place& where, const std::string& origin) {
  const ParamSpec* spec = table_.find(key);
  if (!spec) unknown(table_, key, where, false);
  std::string canon;
  std::string why = check_value(*spec, value, &canon);
  if (!why.empty()) throw InputError(where, why);
  values_[key] = Value{canon, origin};
}

const ParamSpec& Config::spec_of(const std::string& key) const {
  const ParamSpec* spec = table_.find(key);
  if (!spec) unknown(table_, key, Place{"", 0, key}, false);
  return *spec;
}

const std::string& Config::text_of(const std::string& key) const {
  auto it = values_.find(key);
  return it != values_.end() ? it->second.text : spec_of(key).default_value;
}

int64_t Config::get_int(const std::string& key) const {
  const ParamSpec& spec = spec_of(key);
  if (spec.type != ParamType::Int)
    throw std::logic_error("get_int on " + std::string(param_type_name(spec.type)) + " parameter '" + key + "'");
  int64_t v = 0;
  parse_int(text_of(key), v);
  return v;
}

double Config::get_float(const std::string& key) const {
  const ParamSpec& spec = spec_of(key);
  if (spec.type != ParamType::Float && spec.type != ParamType::Int)
    throw std::logic_error("get_float on " + std::string(param_type_name(spec.type)) + " parameter '" + key + "'");
  if (spec.type == ParamType::Int) return double(get_int(key));
  double v = 0;
  parse_float(text_of(key), v);
  return v;
}

bool Config::get_bool(const std::string& key) const {
  const ParamSpec& spec = spec_of(key);
  if (spec.type != ParamType::Bool)
    throw std::logic_error("get_bool on " + std::string(param_type_name(spec.type)) + " parameter '" + key + "'");
  bool v = false;
  parse_bool(text_of(key), v);
  return v;
}

std::string Config::get_string(const std::string& key) const {
  spec_of(key);
  return text_of(key);
}

bool Config::is_set(const std::string& key) const { return values_.count(key) != 0; }

std::string Config::origin(const std::string& key) const {
  auto it = values_.find(key);
  if (it != values_.end()) return it->second.origin;
  spec_of(key);
  return "default";
}

std::string Config::resolved_yaml() const {
  Tree root;
  for (const auto& kv : table_.all()) {
    Tree* node = &root;
    const std::string& key = kv.first;
    size_t start = 0;
    for (size_t dot = key.find('.'); dot != std::string::npos; dot = key.find('.', start)) {
      node = &node->children[key.substr(start, dot - start)];
      start = dot + 1;
    }
    node->children[key.substr(start)].leaf = &kv.second;
  }
  std::string out = "# WarpTLM resolved configuration: every parameter's final value and where it came from.\n";
  struct Emit {
    const Config& cfg;
    std::string& out;
    void operator()(const Tree& t, int depth) const {
      const std::string indent(size_t(depth) * 2, ' ');
      for (const auto& kv : t.children) {
        if (kv.second.leaf) {
          const ParamSpec& spec = *kv.second.leaf;
          std::string origin = cfg.origin(spec.key);
          std::string comment = origin == "default" || origin == "--set" ? origin : "from " + origin;
          out += indent + kv.first + ": " + yaml_scalar(spec, cfg.text_of(spec.key)) + "  # " + comment + "\n";
        } else {
          out += indent + kv.first + ":\n";
          (*this)(kv.second, depth + 1);
        }
      }
    }
  };
  Emit{*this, out}(root, 0);
  return out;
}

void Config::write_resolved(const std::string& path) const { write_file(path, resolved_yaml()); }

}  // namespace warptlm
