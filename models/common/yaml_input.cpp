#include "common/yaml_input.hpp"

#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <vector>

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>

#include "common/errors.hpp"

namespace warptlm {

namespace {

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return a > std::numeric_limits<std::uint64_t>::max() - b ? std::numeric_limits<std::uint64_t>::max() : a + b;
}

// A tag as it was written: the core schema's long form back to "!!name", a
// verbatim tag back to "!<...>".
std::string tag_as_written(const std::string& tag) {
  static const std::string core = "tag:yaml.org,2002:";
  if (tag.compare(0, core.size(), core) == 0) return "!!" + tag.substr(core.size());
  if (!tag.empty() && tag[0] == '!') return tag;
  return "!<" + tag + ">";
}

bool known_tag(const std::string& tag) {
  // "?" and "!" are the parser's non-specific tags (a plain scalar or any
  // collection; a quoted or block scalar), also written as a bare "!".
  static const std::set<std::string> known = {
      "?", "!", "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
      "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"};
  return known.count(tag) > 0;
}

// Every check of one document, made while the parser reports its events, and
// where each document of the stream starts. Only the first document is
// checked: a second one is refused as such once the starts are counted.
class DocumentWalk : public YAML::EventHandler {
 public:
  DocumentWalk(const std::string& text, const std::string& origin) : text_(text), origin_(origin) {
    // The parser's marks count bytes of UTF-8 after its byte-order mark; a
    // UTF-16 or UTF-32 text (a zero among its first bytes, or their marks) is
    // converted first, so its marks do not point into `text` and the one
    // check that reads the text (the closing quote) is left out there.
    const auto byte = [&](std::size_t i) { return i < text.size() ? static_cast<unsigned char>(text[i]) : 1u; };
    if (byte(0) == 0xEF && byte(1) == 0xBB && byte(2) == 0xBF) text_offset_ = 3;
    read_text_ = !(byte(0) == 0 || byte(1) == 0 || byte(2) == 0 || byte(3) == 0 || (byte(0) == 0xFE && byte(1) == 0xFF) ||
                   (byte(0) == 0xFF && byte(1) == 0xFE));
  }

  std::vector<YAML::Mark> starts;  // where each document starts

  void OnDocumentStart(const YAML::Mark& m) override { starts.push_back(m); }
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& m, YAML::anchor_t anchor) override {
    if (!checking()) return;
    name_anchor(anchor);
    begin_node(m, 1);
    close_node(m, anchor, 1, nullptr);
  }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t anchor) override {
    if (!checking()) return;
    const auto it = anchors_.find(anchor);
    if (it == anchors_.end()) {
      // defined (the parser refuses an undefined one) but not closed: the
      // alias lies inside the node its anchor names
      const std::string name = anchor_names_.count(anchor) ? anchor_names_[anchor] : "";
      throw refusal(m, "alias '*" + name + "' refers to its own anchor '&" + name + "' (a recursive alias)");
    }
    const Anchored target = it->second;
    begin_node(m, target.expanded);
    close_node(m, YAML::NullAnchor, target.expanded, target.scalar ? &target.value : nullptr);
  }
  void OnScalar(const YAML::Mark& m, const std::string& tag, YAML::anchor_t anchor, const std::string& value) override {
    if (!checking()) return;
    check_tag(m, tag);
    if (tag != "?") check_closing_quote(m);
    name_anchor(anchor);
    begin_node(m, 1);
    close_node(m, anchor, 1, &value);
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string& tag, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open_collection(m, tag, anchor, false);
  }
  void OnSequenceEnd() override { close_collection(); }
  void OnMapStart(const YAML::Mark& m, const std::string& tag, YAML::anchor_t anchor, YAML::EmitterStyle::value) override {
    open_collection(m, tag, anchor, true);
  }
  void OnMapEnd() override { close_collection(); }
  void OnAnchor(const YAML::Mark&, const std::string& name) override {
    if (checking()) pending_anchor_name_ = name;
  }

 private:
  // An open map or sequence.
  struct Open {
    bool map = false;
    YAML::anchor_t anchor = YAML::NullAnchor;
    YAML::Mark mark;
    std::uint64_t expanded = 1;  // this node and every node inside it so far, aliases expanded
    std::string path;            // dotted key path of this node, as messages name it
    // maps only
    bool at_key = true;          // the next node is a key (else the value of the last key)
    std::set<std::string> keys;  // the scalar keys seen
    std::string value_path;      // path of the value of the last key
  };
  // A closed node an anchor names.
  struct Anchored {
    std::uint64_t expanded = 1;
    bool scalar = false;
    std::string value;  // when scalar (an alias of it as a key is that key)
  };

  bool checking() const { return starts.size() == 1; }

  InputError refusal(const YAML::Mark& m, const std::string& what) const {
    return InputError(Place{origin_, m.line >= 0 ? m.line + 1 : 0, ""}, what);
  }

  void check_tag(const YAML::Mark& m, const std::string& tag) const {
    if (!known_tag(tag))
      throw refusal(m, "unknown tag '" + tag_as_written(tag) +
                           "' (only YAML's core tags !!str, !!int, !!float, !!bool, !!null, !!seq and !!map are read)");
  }

  // The parser reads a quoted scalar without its closing quote up to the end
  // of the text and keeps it; refuse one whose opening quote, past the node's
  // tag and anchor, has no closing quote after it.
  void check_closing_quote(const YAML::Mark& m) const {
    if (!read_text_ || m.pos < 0) return;
    const std::size_t n = text_.size();
    std::size_t i = static_cast<std::size_t>(m.pos) + text_offset_;
    int line = m.line;
    while (i < n) {  // the node's properties, and the blanks, breaks and comments between them and the scalar
      const char c = text_[i];
      if (c == '!' || c == '&') {
        while (i < n && text_[i] != ' ' && text_[i] != '\t' && text_[i] != '\r' && text_[i] != '\n') ++i;
      } else if (c == '#') {
        while (i < n && text_[i] != '\n') ++i;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
        line += c == '\n';
        ++i;
      } else {
        break;
      }
    }
    if (i >= n || (text_[i] != '"' && text_[i] != '\'')) return;  // a block scalar
    const char quote = text_[i];
    for (std::size_t j = i + 1; j < n; ++j) {
      if (quote == '"' && text_[j] == '\\') {
        ++j;  // an escaped character, a quote included
      } else if (text_[j] == quote) {
        if (quote == '\'' && j + 1 < n && text_[j + 1] == '\'') {
          ++j;  // '' is a quote inside single quotes
        } else {
          return;
        }
      }
    }
    throw InputError(Place{origin_, line + 1, ""}, "unterminated quoted scalar started at line " + std::to_string(line + 1) +
                                                     ": no closing " + std::string(1, quote) + " before the end of the file");
  }

  // The parser reports an anchor's name just before the node it names.
  void name_anchor(YAML::anchor_t anchor) {
    if (anchor != YAML::NullAnchor) anchor_names_[anchor] = pending_anchor_name_;
    pending_anchor_name_.clear();
  }

  // A node starts (`expanded`: the nodes it stands for, aliases expanded):
  // count it against the limits; its key path.
  std::string begin_node(const YAML::Mark& m, std::uint64_t expanded) {
    if (++nodes_ > kYamlMaxNodes)
      throw refusal(m, "more than " + std::to_string(kYamlMaxNodes) + " nodes in this document (the limit)");
    expanded_ = saturating_add(expanded_, expanded);
    if (expanded_ > kYamlMaxExpandedNodes)
      throw refusal(m, "aliases expand this document to more than " + std::to_string(kYamlMaxExpandedNodes) +
                           " nodes (the limit)");
    if (open_.empty()) return "";
    const Open& parent = open_.back();
    return parent.map && !parent.at_key ? parent.value_path : parent.path;
  }

  // A node ends: it names its anchor's node, adds to its parent's size, and
  // in a map is a key (checked against the keys before it) or a value.
  void close_node(const YAML::Mark& m, YAML::anchor_t anchor, std::uint64_t expanded, const std::string* scalar) {
    if (anchor != YAML::NullAnchor) anchors_[anchor] = Anchored{expanded, scalar != nullptr, scalar ? *scalar : ""};
    if (open_.empty()) return;
    Open& parent = open_.back();
    parent.expanded = saturating_add(parent.expanded, expanded);
    if (!parent.map) return;
    if (!parent.at_key) {
      parent.at_key = true;
      return;
    }
    parent.at_key = false;
    const std::string key = scalar ? *scalar : "";
    parent.value_path = parent.path.empty() ? key : parent.path + "." + key;
    if (scalar && !parent.keys.insert(key).second)
      throw InputError(Place{origin_, m.line >= 0 ? m.line + 1 : 0, parent.value_path},
                       "key '" + parent.value_path + "' is given twice in one map");
  }

  void open_collection(const YAML::Mark& m, const std::string& tag, YAML::anchor_t anchor, bool map) {
    if (!checking()) return;
    check_tag(m, tag);
    if (open_.size() >= static_cast<std::size_t>(kYamlMaxDepth))
      throw refusal(m, "nesting deeper than " + std::to_string(kYamlMaxDepth) + " levels (the limit)");
    Open o;
    o.map = map;
    o.anchor = anchor;
    o.mark = m;
    o.path = begin_node(m, 1);
    name_anchor(anchor);
    open_.push_back(std::move(o));
  }

  void close_collection() {
    if (!checking() || open_.empty()) return;
    Open o = std::move(open_.back());
    open_.pop_back();
    // begin_node counted the collection itself; its size goes to its parent
    close_node(o.mark, o.anchor, o.expanded, nullptr);
  }

  const std::string& text_;
  const std::string& origin_;
  std::size_t text_offset_ = 0;
  bool read_text_ = true;
  std::vector<Open> open_;
  std::map<YAML::anchor_t, Anchored> anchors_;  // closed anchored nodes
  std::map<YAML::anchor_t, std::string> anchor_names_;
  std::string pending_anchor_name_;
  std::uint64_t nodes_ = 0;     // as written
  std::uint64_t expanded_ = 0;  // with aliases expanded
};

}  // namespace

YAML::Node load_yaml_document(const std::string& text, const std::string& origin) {
  const auto syntax_error = [&](const YAML::Mark& m, const std::string& what) {
    return InputError(Place{origin, m.line >= 0 ? m.line + 1 : 0, ""}, "YAML syntax error: " + what);
  };
  // Walks the first document of `t` (refusing what it finds) and counts the
  // documents, at most three: the YAML library's own all-documents loader
  // never returns on a token it cannot place (a stray ',' at block level
  // yields an empty document at the same place forever).
  const auto walk = [&](const std::string& t) {
    std::istringstream in(t);
    YAML::Parser parser(in);
    DocumentWalk docs(t, origin);
    while (docs.starts.size() < 3 && parser.HandleNextDocument(docs)) {
    }
    return docs.starts;
  };
  try {
    std::vector<YAML::Mark> starts;
    try {
      starts = walk(text);
    } catch (const YAML::DeepRecursion& e) {
      // the parser's own bound (deeper than ours), reached in a second document
      throw InputError(Place{origin, e.mark.line >= 0 ? e.mark.line + 1 : 0, ""},
                       "nesting deeper than " + std::to_string(kYamlMaxDepth) + " levels (the limit)");
    } catch (const YAML::Exception& e) {
      // A quoted scalar open at the end of a text with no final line break:
      // walked again with one, the scalar ends where it started and the
      // unterminated quote is named with the line it opened on.
      if (e.msg == YAML::ErrorMsg::EOF_IN_SCALAR) {
        try {
          walk(text + "\n");
        } catch (const YAML::Exception&) {
        }
      }
      throw;
    }
    if (starts.size() == 3 && starts[2].pos == starts[1].pos)
      throw syntax_error(starts[1], "unexpected character at column " + std::to_string(starts[1].column + 1));
    if (starts.size() > 1)
      throw InputError(Place{origin, starts[1].line + 1, ""}, "a second YAML document: one file holds one document");
    if (starts.empty()) return YAML::Node();
    return YAML::Load(text);
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
