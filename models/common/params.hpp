// Parameters: every module declares its parameters in one place (a static
// declare() beside its params struct) with name, type, default, range and a
// one-line meaning. Config (config.hpp) validates YAML against this table.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace warptlm {

enum class ParamType { Int, Float, Bool, String, Enum };

struct ParamSpec {
  std::string key;            // dotted, mirrors the module tree: "gpu.num_sms"
  ParamType type = ParamType::Int;
  std::string default_value;  // as YAML scalar text
  double min = 0, max = 0;    // inclusive range for Int/Float; ignored when min > max
  std::vector<std::string> choices;  // for Enum
  std::string meaning;        // one line
};

class ParamTable {
 public:
  // The process-wide table all modules declare into.
  static ParamTable& global();

  void declare(const ParamSpec& spec);  // redeclaring the same key with the same spec is a no-op
  // Convenience forms.
  void int_param(const std::string& key, int64_t def, int64_t min, int64_t max, const std::string& meaning);
  void float_param(const std::string& key, double def, double min, double max, const std::string& meaning);
  void bool_param(const std::string& key, bool def, const std::string& meaning);
  void string_param(const std::string& key, const std::string& def, const std::string& meaning);
  void enum_param(const std::string& key, const std::string& def, const std::vector<std::string>& choices,
                  const std::string& meaning);
  // A further choice of an enum declared elsewhere (a mechanism adds the warp
  // ordering it provides to sm.warp_scheduler). Idempotent; later
  // redeclarations of the enum keep it.
  void add_choice(const std::string& key, const std::string& choice);

  const ParamSpec* find(const std::string& key) const;
  std::vector<std::string> keys() const;  // sorted
  const std::map<std::string, ParamSpec>& all() const { return specs_; }

 private:
  std::map<std::string, ParamSpec> specs_;
  std::map<std::string, std::vector<std::string>> added_choices_;
};

// Value parsing and checking, shared by Config and the `params` listing.
const char* param_type_name(ParamType t);                // "int", "float", "bool", "string", "enum"
bool parse_int(const std::string& text, int64_t& out);   // decimal or 0x hex, optional sign
bool parse_float(const std::string& text, double& out);  // finite: 3, 0.5, 1e-5
bool parse_bool(const std::string& text, bool& out);     // true/false, yes/no, on/off (any case)
std::string format_float(double v);                      // shortest text that reads back exactly
std::string trim(const std::string& s);                  // without leading and trailing blanks
// "[1, 128]" for a ranged Int/Float, "gto|lrr" for an Enum, "" otherwise.
std::string range_text(const ParamSpec& spec);
// Checks `text` against `spec`: "" when valid, else the reason ("'abc' is not
// an integer", "0 is out of range [1, 128]"). When valid and `canonical` is
// given, it receives the normalised text (decimal ints, shortest floats,
// true/false, strings unchanged).
std::string check_value(const ParamSpec& spec, const std::string& text, std::string* canonical = nullptr);

}  // namespace warptlm
