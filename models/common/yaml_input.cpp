#include "common/yaml_input.hpp"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include "common/errors.hpp"

namespace warptlm {

namespace {
void refuse_repeated_keys(const YAML::Node& n, const std::string& origin, const std::string& path) {
  if (n.IsSequence()) {
    for (const YAML::Node& e : n) refuse_repeated_keys(e, origin, path);
    return;
  }
  if (!n.IsMap()) return;
  std::set<std::string> seen;
  for (auto it = n.begin(); it != n.end(); ++it) {
    const std::string key = it->first.IsScalar() ? it->first.Scalar() : "";
    const std::string full = path.empty() ? key : path + "." + key;
    if (it->first.IsScalar() && !seen.insert(key).second)
      throw InputError(Place{origin, yaml_line(it->first), full}, "key '" + full + "' is given twice in one map");
    refuse_repeated_keys(it->second, origin, full);
  }
}
}  // namespace

YAML::Node load_yaml_document(const std::string& text, const std::string& origin) {
  std::vector<YAML::Node> docs;
  try {
    docs = YAML::LoadAll(text);
  } catch (const YAML::Exception& e) {
    throw InputError(Place{origin, e.mark.line >= 0 ? e.mark.line + 1 : 0, ""}, "YAML syntax error: " + e.msg);
  }
  if (docs.size() > 1)
    throw InputError(Place{origin, yaml_line(docs[1]), ""}, "a second YAML document: one file holds one document");
  if (docs.empty()) return YAML::Node();
  refuse_repeated_keys(docs[0], origin, "");
  return docs[0];
}

YAML::Node load_yaml_file(const std::string& path) {
  std::error_code ec;
  std::ifstream in(path, std::ios::binary);
  if (!in || std::filesystem::is_directory(path, ec)) throw InputError(Place{path, 0, ""}, "cannot open '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  return load_yaml_document(ss.str(), path);
}

}  // namespace warptlm
