#include "common/params.hpp"

#include <algorithm>

#include "common/errors.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace warptlm {

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

bool has_range(const ParamSpec& s) {
  return (s.type == ParamType::Int || s.type == ParamType::Float) && s.min <= s.max;
}

std::string bound_text(const ParamSpec& s, double v) {
  if (s.type == ParamType::Int && std::fabs(v) < 9.2e18 && v == std::floor(v))
    return std::to_string(static_cast<long long>(v));
  return format_float(v);
}

bool same_spec(const ParamSpec& a, const ParamSpec& b) {
  return a.key == b.key && a.type == b.type && a.default_value == b.default_value && a.min == b.min &&
         a.max == b.max && a.choices == b.choices && a.meaning == b.meaning;
}

bool valid_key(const std::string& key) {
  // Dotted components of letters, digits, '_' and '-', each starting with a letter, digit or '_'.
  bool start = true;
  for (char c : key) {
    const bool word = std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    if (c == '.') {
      if (start) return false;
      start = true;
    } else if (word || (c == '-' && !start)) {
      start = false;
    } else {
      return false;
    }
  }
  return !start;
}

}  // namespace

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

const char* param_type_name(ParamType t) {
  switch (t) {
    case ParamType::Int: return "int";
    case ParamType::Float: return "float";
    case ParamType::Bool: return "bool";
    case ParamType::String: return "string";
    case ParamType::Enum: return "enum";
  }
  return "?";
}

bool parse_int(const std::string& text, int64_t& out) {
  std::string s = trim(text);
  if (s.empty()) return false;
  bool neg = false;
  size_t i = 0;
  if (s[0] == '+' || s[0] == '-') {
    neg = s[0] == '-';
    i = 1;
  }
  int base = 10;
  if (s.size() > i + 1 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
    base = 16;
    i += 2;
  }
  if (i >= s.size()) return false;
  for (size_t j = i; j < s.size(); ++j)
    if (!(base == 16 ? std::isxdigit(static_cast<unsigned char>(s[j])) : std::isdigit(static_cast<unsigned char>(s[j]))))
      return false;
  errno = 0;
  unsigned long long mag = std::strtoull(s.c_str() + i, nullptr, base);
  if (errno == ERANGE) return false;
  const unsigned long long limit = neg ? 9223372036854775808ull : 9223372036854775807ull;
  if (mag > limit) return false;
  out = neg ? static_cast<int64_t>(0 - mag) : static_cast<int64_t>(mag);
  return true;
}

bool parse_float(const std::string& text, double& out) {
  std::string s = trim(text);
  if (s.empty()) return false;
  // Only decimal forms: digits, sign, point, exponent (no "inf", "nan", hex floats).
  for (char c : s)
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.' || c == 'e' || c == 'E'))
      return false;
  errno = 0;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v)) return false;
  out = v;
  return true;
}

bool parse_bool(const std::string& text, bool& out) {
  std::string s = lower(trim(text));
  if (s == "true" || s == "yes" || s == "on") {
    out = true;
    return true;
  }
  if (s == "false" || s == "no" || s == "off") {
    out = false;
    return true;
  }
  return false;
}

std::string format_float(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[40];
  for (int prec = 1; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

std::string range_text(const ParamSpec& spec) {
  if (spec.type == ParamType::Enum) return join(spec.choices, "|");
  if (has_range(spec)) return "[" + bound_text(spec, spec.min) + ", " + bound_text(spec, spec.max) + "]";
  return "";
}

std::string check_value(const ParamSpec& spec, const std::string& text, std::string* canonical) {
  std::string canon;
  switch (spec.type) {
    case ParamType::Int: {
      int64_t v = 0;
      if (!parse_int(text, v)) return "'" + text + "' is not an integer";
      if (has_range(spec) && (double(v) < spec.min || double(v) > spec.max))
        return std::to_string(v) + " is out of range " + range_text(spec);
      canon = std::to_string(v);
      break;
    }
    case ParamType::Float: {
      double v = 0;
      if (!parse_float(text, v)) return "'" + text + "' is not a number";
      if (has_range(spec) && (v < spec.min || v > spec.max))
        return format_float(v) + " is out of range " + range_text(spec);
      canon = format_float(v);
      break;
    }
    case ParamType::Bool: {
      bool v = false;
      if (!parse_bool(text, v)) return "'" + text + "' is not a boolean (true/false, yes/no, on/off)";
      canon = v ? "true" : "false";
      break;
    }
    case ParamType::String:
      canon = text;
      break;
    case ParamType::Enum: {
      std::string s = trim(text);
      bool ok = false;
      for (const auto& c : spec.choices) ok = ok || c == s;
      if (!ok) {
        std::string msg = "'" + text + "' is not one of: " + join(spec.choices, ", ");
        std::string near = closest_match(s, spec.choices);
        if (!near.empty()) msg += " (did you mean '" + near + "'?)";
        return msg;
      }
      canon = s;
      break;
    }
  }
  if (canonical) *canonical = canon;
  return "";
}

ParamTable& ParamTable::global() {
  static ParamTable table;
  return table;
}

void ParamTable::declare(const ParamSpec& spec_in) {
  ParamSpec spec = spec_in;
  if (!valid_key(spec.key)) throw std::logic_error("parameter key '" + spec.key + "' is not a valid dotted name");
  if (spec.type == ParamType::Enum && spec.choices.empty())
    throw std::logic_error("enum parameter '" + spec.key + "' has no choices");
  std::string canon;
  std::string why = check_value(spec, spec.default_value, &canon);
  if (!why.empty()) throw std::logic_error("default of parameter '" + spec.key + "': " + why);
  spec.default_value = canon;
  if (spec.type != ParamType::Int && spec.type != ParamType::Float) spec.min = spec.max = 0;

  auto it = specs_.find(spec.key);
  if (auto added = added_choices_.find(spec.key); added != added_choices_.end())
    for (const std::string& c : added->second)
      if (std::find(spec.choices.begin(), spec.choices.end(), c) == spec.choices.end()) spec.choices.push_back(c);
  if (it != specs_.end()) {
    if (same_spec(it->second, spec)) return;
    throw std::logic_error("parameter '" + spec.key + "' declared twice with different specs");
  }
  // A key cannot be both a leaf and a section ("l1d" and "l1d.sets"):
  // the YAML could not say both.
  const std::string as_section = spec.key + ".";
  auto after = specs_.lower_bound(as_section);
  if (after != specs_.end() && after->first.compare(0, as_section.size(), as_section) == 0)
    throw std::logic_error("parameter '" + spec.key + "' clashes with section of '" + after->first + "'");
  for (size_t dot = spec.key.find('.'); dot != std::string::npos; dot = spec.key.find('.', dot + 1))
    if (specs_.count(spec.key.substr(0, dot)))
      throw std::logic_error("parameter '" + spec.key + "' lies under parameter '" + spec.key.substr(0, dot) + "'");
  specs_.emplace(spec.key, std::move(spec));
}

void ParamTable::int_param(const std::string& key, int64_t def, int64_t min, int64_t max, const std::string& meaning) {
  ParamSpec s;
  s.key = key;
  s.type = ParamType::Int;
  s.default_value = std::to_string(def);
  s.min = double(min);
  s.max = double(max);
  s.meaning = meaning;
  declare(s);
}

void ParamTable::float_param(const std::string& key, double def, double min, double max, const std::string& meaning) {
  ParamSpec s;
  s.key = key;
  s.type = ParamType::Float;
  s.default_value = format_float(def);
  s.min = min;
  s.max = max;
  s.meaning = meaning;
  declare(s);
}

void ParamTable::bool_param(const std::string& key, bool def, const std::string& meaning) {
  ParamSpec s;
  s.key = key;
  s.type = ParamType::Bool;
  s.default_value = def ? "true" : "false";
  s.meaning = meaning;
  declare(s);
}

void ParamTable::string_param(const std::string& key, const std::string& def, const std::string& meaning) {
  ParamSpec s;
  s.key = key;
  s.type = ParamType::String;
  s.default_value = def;
  s.meaning = meaning;
  declare(s);
}

void ParamTable::enum_param(const std::string& key, const std::string& def, const std::vector<std::string>& choices,
                            const std::string& meaning) {
  ParamSpec s;
  s.key = key;
  s.type = ParamType::Enum;
  s.default_value = def;
  s.choices = choices;
  s.meaning = meaning;
  declare(s);
}

void ParamTable::add_choice(const std::string& key, const std::string& choice) {
  auto it = specs_.find(key);
  if (it == specs_.end() || it->second.type != ParamType::Enum)
    throw std::logic_error("add_choice: '" + key + "' is not a declared enum parameter");
  std::vector<std::string>& added = added_choices_[key];
  if (std::find(added.begin(), added.end(), choice) == added.end()) added.push_back(choice);
  std::vector<std::string>& c = it->second.choices;
  if (std::find(c.begin(), c.end(), choice) == c.end()) c.push_back(choice);
}

const ParamSpec* ParamTable::find(const std::string& key) const {
  auto it = specs_.find(key);
  return it == specs_.end() ? nullptr : &it->second;
}

std::vector<std::string> ParamTable::keys() const {
  std::vector<std::string> out;
  out.reserve(specs_.size());
  for (const auto& kv : specs_) out.push_back(kv.first);
  return out;
}

}  // namespace warptlm
