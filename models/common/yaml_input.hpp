// Strict YAML input for configs, overlays, run files and experiments: one
// document, and no key given twice in one map (YAML parsers keep the last of
// two silently; an architect who wrote both meant one of them).
#pragma once
#include <string>
#include <yaml-cpp/yaml.h>

namespace warptlm {

// The one document in `text` (from `origin`, for messages). InputError naming
// origin and line on a syntax error, a second document or a repeated key.
YAML::Node load_yaml_document(const std::string& text, const std::string& origin);
// The same for a file; InputError when it cannot be read.
YAML::Node load_yaml_file(const std::string& path);
// A node's 1-based line in its file, 0 when unknown (for Place).
inline int yaml_line(const YAML::Node& n) { return n.Mark().line >= 0 ? n.Mark().line + 1 : 0; }

}  // namespace warptlm
