#include "common/yaml_input.hpp"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include <yaml-cpp/eventhandler.h>

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
// Where each document of a stream starts, from the parser's events alone.
struct DocumentStarts : YAML::EventHandler {
  std::vector<YAML::Mark> starts;
  void OnDocumentStart(const YAML::Mark& m) override { starts.push_back(m); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};
}  // namespace

YAML::Node load_yaml_document(const std::string& text, const std::string& origin) {
  const auto syntax_error = [&](const YAML::Mark& m, const std::string& what) {
    return InputError(Place{origin, m.line >= 0 ? m.line + 1 : 0, ""}, "YAML syntax error: " + what);
  };
  try {
    // Count the documents first, at most three: the YAML library's own
    // all-documents loader never returns on a token it cannot place (a stray
    // ',' at block level yields an empty document at the same place forever).
    std::istringstream in(text);
    YAML::Parser parser(in);
    DocumentStarts docs;
    while (docs.starts.size() < 3 && parser.HandleNextDocument(docs)) {
    }
    if (docs.starts.size() == 3 && docs.starts[2].pos == docs.starts[1].pos)
      throw syntax_error(docs.starts[1], "unexpected character at column " + std::to_string(docs.starts[1].column + 1));
    if (docs.starts.size() > 1)
      throw InputError(Place{origin, docs.starts[1].line + 1, ""}, "a second YAML document: one file holds one document");
    if (docs.starts.empty()) return YAML::Node();
    YAML::Node root = YAML::Load(text);
    refuse_repeated_keys(root, origin, "");
    return root;
  } catch (const YAML::Exception& e) {
    throw syntax_error(e.mark, e.msg);
  }
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
