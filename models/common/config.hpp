// Config: a base config plus overlays plus --set key=value, applied in that
// order, validated against the ParamTable. Every value remembers where it was
// set (file and line, or "--set"), so errors and config.resolved.yaml can name it.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "common/params.hpp"

namespace warptlm {

class Config {
 public:
  explicit Config(const ParamTable& table = ParamTable::global());

  // Merge a YAML file of nested maps whose leaves are parameters
  // ("gpu: {num_sms: 15}"). Unknown keys, wrong types and out-of-range values
  // throw InputError naming file, line and key, with a closest-match suggestion.
  // Top-level keys listed in `ignore_top` are skipped (a run YAML's
  // workload/kernel/overlays sections).
  void merge_file(const std::string& path, const std::vector<std::string>& ignore_top = {});
  // Same for YAML text already in memory; `origin` names it in errors.
  void merge_text(const std::string& yaml_text, const std::string& origin,
                  const std::vector<std::string>& ignore_top = {});
  // "key=value" from the command line.
  void apply_set(const std::string& key_equals_value);
  void set(const std::string& key, const std::string& value, const std::string& origin = "--set");

  // Typed getters: the set value, else the declared default. Unknown key -> InputError.
  int64_t get_int(const std::string& key) const;
  double get_float(const std::string& key) const;
  bool get_bool(const std::string& key) const;
  std::string get_string(const std::string& key) const;  // String and Enum

  bool is_set(const std::string& key) const;
  std::string origin(const std::string& key) const;  // "file:line", "--set" or "default"

  // Every declared parameter with its final value, nested YAML, each leaf
  // commented with its origin.
  std::string resolved_yaml() const;
  void write_resolved(const std::string& path) const;

  const ParamTable& table() const { return table_; }

 private:
  struct Value { std::string text; std::string origin; };
  // Validate `value` for `key` and store its canonical text; errors name `where`.
  void set_at(const std::string& key, const std::string& value, const Place& where, const std::string& origin);
  const ParamSpec& spec_of(const std::string& key) const;  // InputError when unknown
  const std::string& text_of(const std::string& key) const;
  const ParamTable& table_;
  std::map<std::string, Value> values_;
};

}  // namespace warptlm
