// Strict YAML input for configs, overlays, run files and experiments: one
// document, and no key given twice in one map (YAML parsers keep the last of
// two silently; an architect who wrote both meant one of them).
//
// Each document is walked once at the parser's event level before it is
// loaded, and refused (InputError naming file and line) when it is nested
// deeper, holds more nodes, or expands through its aliases to more nodes, than
// the limits below; when an alias refers to the node its anchor is still
// opening (a recursive alias, which would make the loaded tree a cycle); when
// a node carries a tag other than YAML's core-schema tags (!!str, !!int,
// !!float, !!bool, !!null, !!seq, !!map); and when a quoted scalar has no
// closing quote (the YAML library reads such a scalar up to the end of the
// file and keeps it).
#pragma once
#include <cstdint>
#include <string>
#include <yaml-cpp/yaml.h>

namespace warptlm {

// The limits, far above any shipped file (the largest config, overlay, run
// file or experiment holds about 440 nodes nested 6 deep) and low enough that
// a document within them loads, and every later walk over it ends, in
// milliseconds:
// - collections (maps and sequences) nested in one another;
constexpr int kYamlMaxDepth = 64;
// - nodes (scalars, collections, aliases) of the document as written;
constexpr std::uint64_t kYamlMaxNodes = 100000;
// - nodes of the document with every alias expanded into the nodes its anchor
//   stands for ("billion laughs": ten aliases of ten aliases of ... stand for
//   10^k nodes in a few lines).
constexpr std::uint64_t kYamlMaxExpandedNodes = 1000000;

// The one document in `text` (from `origin`, for messages). InputError naming
// origin and line on a syntax error, a second document, a repeated key, a
// limit above, a recursive alias, an unknown tag or an unterminated quote.
YAML::Node load_yaml_document(const std::string& text, const std::string& origin);
// The same for a file; InputError when it cannot be read.
YAML::Node load_yaml_file(const std::string& path);
// A node's 1-based line in its file, 0 when unknown (for Place).
inline int yaml_line(const YAML::Node& n) { return n.Mark().line >= 0 ? n.Mark().line + 1 : 0; }

}  // namespace warptlm
