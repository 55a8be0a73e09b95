// Strict YAML input (models/common/yaml_input.hpp): each document is walked
// once before it loads, and recursive aliases, alias expansion, nesting and
// size beyond the limits, unknown tags and unterminated quotes are input
// errors naming file and line, in well under a second. The first cases call
// load_yaml_document; the last run the warptlm executable on a config, an
// overlay and a run file as a user would. docs/bad-inputs.md points here.
#include "cli_util.hpp"

#include <chrono>
#include <functional>
#include <string>

#include "common/errors.hpp"
#include "common/yaml_input.hpp"

using namespace warptlm;
using namespace cli_util;

namespace {

// The InputError `text` (read as x.yaml) is refused with; fails the test when
// it loads.
InputError refusal(const std::string& text) {
  try {
    load_yaml_document(text, "x.yaml");
  } catch (const InputError& e) {
    return e;
  }
  FAIL("loaded without an error:\n" << text);
  return InputError("unreachable");
}

// `text` is refused at `line` with exactly `message`.
void refused(const std::string& text, int line, const std::string& message) {
  const InputError e = refusal(text);
  INFO(e.what());
  CHECK(e.where().file == "x.yaml");
  CHECK(e.where().line == line);
  CHECK(std::string(e.what()) == "x.yaml:" + std::to_string(line) + ": " + message);
}

// Ten scalars, then eight levels each a list of ten aliases of the level
// before: 10^9 nodes once the aliases are expanded, in ten short lines.
std::string billion_laughs() {
  std::string t = "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int i = 1; i <= 8; ++i) {
    const std::string prev = "*l" + std::to_string(i - 1);
    t += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [";
    for (int k = 0; k < 10; ++k) t += (k ? ", " : "") + prev;
    t += "]\n";
  }
  return t;
}

const std::string kRecursiveSeq = "gpu: &a [*a]\n";
const std::string kRecursiveMap = "gpu:\n  num_sms: 4\nsm: &a {num_sms: *a}\n";
const std::string kExpansion = "aliases expand this document to more than 1000000 nodes (the limit)";
const std::string kRecursive = "alias '*a' refers to its own anchor '&a' (a recursive alias)";

}  // namespace

TEST_CASE("yaml input: an alias inside the node its anchor names is refused at once", "[yaml]") {
  refused(kRecursiveSeq, 1, kRecursive);
  refused(kRecursiveMap, 3, kRecursive);
  // deeper inside, and an anchor name given again names the newer node
  refused("a: &x\n  b:\n    - c: *x\n", 3, "alias '*x' refers to its own anchor '&x' (a recursive alias)");
  refused("a: &x 1\nb: &x [*x]\n", 2, "alias '*x' refers to its own anchor '&x' (a recursive alias)");
  // an alias of a node that is closed loads, and stands for that node
  const YAML::Node n = load_yaml_document("a: &x {b: 1}\nc: *x\nd: &y [1, *x]\ne: *y\n", "x.yaml");
  CHECK(n["c"]["b"].as<int>() == 1);
  CHECK(n["e"][1]["b"].as<int>() == 1);
}

TEST_CASE("yaml input: aliases that expand the document past the limit are refused in well under a second", "[yaml]") {
  const auto t0 = std::chrono::steady_clock::now();
  // l0 stands for 11 nodes, l1 for 111, ... l5 for 1,111,111: over the limit at l5's first alias
  refused(billion_laughs(), 6, kExpansion);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(seconds < 1.0);
  // three levels (12,345 nodes expanded) are within it
  const std::string t = billion_laughs();
  std::size_t cut = 0;
  for (int lines = 0; lines < 4; ++lines) cut = t.find('\n', cut) + 1;
  CHECK(load_yaml_document(t.substr(0, cut), "x.yaml")["l3"][9][9][9][9].as<std::string>() == "lol");
}

TEST_CASE("yaml input: nesting deeper than the limit is refused, however deep, naming the line", "[yaml]") {
  // block maps, one a line: the 65th opens on line 65
  std::string t;
  for (int i = 1; i <= 70; ++i) t += std::string(2 * (i - 1), ' ') + "k" + std::to_string(i) + ":\n";
  refused(t, 65, "nesting deeper than 64 levels (the limit)");
  t.clear();
  for (int i = 1; i <= 64; ++i) t += std::string(2 * (i - 1), ' ') + "k" + std::to_string(i) + ":\n";
  CHECK(load_yaml_document(t, "x.yaml").IsMap());  // 64 levels load
  // a flow '[' opens a sequence and the parser a map in it: 100,000 of them
  refused(std::string(100000, '['), 1, "nesting deeper than 64 levels (the limit)");
  // past the parser's own bound (500) in a second document: refused, no crash
  const InputError e = refusal("a: 1\n---\n" + std::string(100000, '['));
  CHECK(e.where().line == 3);
  CHECK_THAT(e.what(), Catch::Contains("nesting deeper than 64 levels"));
}

TEST_CASE("yaml input: a document of more nodes than the limit is refused", "[yaml]") {
  std::string t = "[";  // the sequence and 99,999 scalars on line 1; the 100,001st node on line 2
  for (int i = 0; i < 99999; ++i) t += "1,";
  t += "\n1]\n";
  refused(t, 2, "more than 100000 nodes in this document (the limit)");
}

TEST_CASE("yaml input: tags other than YAML's core tags are refused naming the tag", "[yaml]") {
  const std::string core = " (only YAML's core tags !!str, !!int, !!float, !!bool, !!null, !!seq and !!map are read)";
  refused("gpu:\n  num_sms: !foo 3\n", 2, "unknown tag '!foo'" + core);
  refused("a: !!python/object:os.system x\n", 1, "unknown tag '!!python/object:os.system'" + core);
  refused("a: !foo\nb: 1\n", 1, "unknown tag '!foo'" + core);
  refused("a: !<tag:example.com,2000:x> 1\n", 1, "unknown tag '!<tag:example.com,2000:x>'" + core);
  refused("a:\n  - !!set {x: 1}\n", 2, "unknown tag '!!set'" + core);
  refused("%TAG !e! tag:example.com,2000:\n---\na: !e!x 1\n", 3, "unknown tag '!<tag:example.com,2000:x>'" + core);
  // the core tags, the non-specific '!' and a verbatim core tag load
  const YAML::Node n = load_yaml_document(
      "gpu: !!map\n  num_sms: !!int 3\nname: !!str x\nf: !!float 1.5\nb: !!bool true\nz: !!null\n"
      "s: !!seq [1]\nq: ! 12\nv: !<tag:yaml.org,2002:int> 4\n", "x.yaml");
  CHECK(n["gpu"]["num_sms"].as<int>() == 3);
  CHECK(n["q"].as<std::string>() == "12");
  CHECK(n["v"].as<int>() == 4);
}

TEST_CASE("yaml input: a quoted scalar without its closing quote is refused naming the line it opened on", "[yaml]") {
  refused("name: \"abc", 1, "unterminated quoted scalar started at line 1: no closing \" before the end of the file");
  refused("name: \"abc\n", 1, "unterminated quoted scalar started at line 1: no closing \" before the end of the file");
  refused("a: 1\nb: 'x\nc: 2\n", 2, "unterminated quoted scalar started at line 2: no closing ' before the end of the file");
  refused("a: 1\nb: 'x\nc: 2", 2, "unterminated quoted scalar started at line 2: no closing ' before the end of the file");
  refused("a: \"x\\\"\n", 1, "unterminated quoted scalar started at line 1: no closing \" before the end of the file");
  refused("a: 'it''s\n", 1, "unterminated quoted scalar started at line 1: no closing ' before the end of the file");
  refused("a: !!str &q\n  # the value\n  \"x\n", 3, "unterminated quoted scalar started at line 3: no closing \" before the end of the file");
  refused("a: [1, \"x]\n", 1, "unterminated quoted scalar started at line 1: no closing \" before the end of the file");
  // closed quotes, escaped quotes, quotes over lines, quotes in block and plain scalars, a byte-order mark
  const YAML::Node n = load_yaml_document(
      "\xEF\xBB\xBF" "a: \"x\\\"y\"\nb: 'it''s'\nc: \"one\n  two\"\nd: |\n  \"text\ne: it's\nf: !!str \"q\"\n", "x.yaml");
  CHECK(n["a"].as<std::string>() == "x\"y");
  CHECK(n["b"].as<std::string>() == "it's");
  CHECK(n["c"].as<std::string>() == "one two");
  CHECK(n["d"].as<std::string>() == "\"text\n");
  CHECK(n["e"].as<std::string>() == "it's");
  CHECK(n["f"].as<std::string>() == "q");
}

TEST_CASE("yaml input: repeated keys, second documents and stray commas are refused as before, in the same walk", "[yaml]") {
  refused("gpu:\n  num_sms: 4\n  num_sms: 5\n", 3, "key 'gpu.num_sms' is given twice in one map");
  CHECK(refusal("gpu:\n  num_sms: 4\n  num_sms: 5\n").where().key == "gpu.num_sms");
  refused("kernel:\n  launches:\n    - {name: a, name: b}\n", 3,
          "key 'kernel.launches.name' is given twice in one map");
  refused("? a\n? a\n", 2, "key 'a' is given twice in one map");
  // an alias of a scalar as a key is that scalar
  refused("k: &k a\nm:\n  *k : 1\n  a: 2\n", 4, "key 'm.a' is given twice in one map");
  // the same key in two maps, or in a map and an anchored map's alias, is no repeat
  CHECK(load_yaml_document("a: &m {x: 1}\nb: {x: 2}\nc: *m\n", "x.yaml")["c"]["x"].as<int>() == 1);
  refused("gpu:\n  num_sms: 4\n---\ngpu:\n  num_sms: 2\n", 3, "a second YAML document: one file holds one document");
  // a second document is not walked: its own repeats are not what is wrong with the file
  refused("a: 1\n---\nb: 1\nb: 2\n", 2, "a second YAML document: one file holds one document");
  refused(", a#,", 1, "YAML syntax error: unexpected character at column 1");
  refused("workload: vecadd\n,", 2, "YAML syntax error: end of map not found");
  CHECK(load_yaml_document("", "x.yaml").IsNull());
  CHECK(load_yaml_document("# only a comment\n", "x.yaml").IsNull());
}

TEST_CASE("yaml input: the kept fuzz inputs of this check are refused when they are read, each for its own reason", "[yaml][fuzz]") {
  // test_fuzz_regressions.cpp feeds them to the fuzz targets, which only see refused or not
  struct Kept { std::string file, says; int line; };
  const std::string dir = std::string(WARPTLM_SOURCE_DIR) + "/tb/fuzz/regressions/";
  for (const Kept& k : {Kept{"config/recursive_alias_in_sequence.yaml", kRecursive, 1},
                        Kept{"config/recursive_alias_in_map.yaml", kRecursive, 1},
                        Kept{"config/billion_laughs.yaml", kExpansion, 6},
                        Kept{"config/deep_nesting.yaml", "nesting deeper than 64 levels (the limit)", 1},
                        Kept{"config/deep_nesting_block.yaml", "nesting deeper than 64 levels (the limit)", 65},
                        Kept{"config/unknown_tag.yaml", "unknown tag '!foo'", 2},
                        Kept{"config/python_object_tag.yaml", "unknown tag '!!python/object:os.system'", 1},
                        Kept{"config/unterminated_double_quote.yaml", "unterminated quoted scalar started at line 4", 4},
                        Kept{"config/unterminated_single_quote.yaml", "unterminated quoted scalar started at line 2", 2},
                        Kept{"run_file/recursive_alias_in_sequence.yaml", "alias '*a' refers to its own anchor", 2},
                        Kept{"run_file/recursive_alias_in_map.yaml", "alias '*a' refers to its own anchor", 2},
                        Kept{"run_file/billion_laughs.yaml", kExpansion, 7},
                        Kept{"run_file/deep_nesting.yaml", "nesting deeper than 64 levels (the limit)", 2},
                        Kept{"run_file/unknown_tag.yaml", "unknown tag '!foo'", 1},
                        Kept{"run_file/unterminated_double_quote.yaml", "unterminated quoted scalar started at line 2", 2},
                        Kept{"run_file/unterminated_single_quote.yaml", "unterminated quoted scalar started at line 1", 1}}) {
    INFO(k.file);
    try {
      load_yaml_file(dir + k.file);
      FAIL("read without an error");
    } catch (const InputError& e) {
      INFO(e.what());
      CHECK(e.where().line == k.line);
      CHECK(contains(e.what(), dir + k.file + ":" + std::to_string(k.line) + ": " + k.says));
    }
  }
}

// ---------------------------------------------------------------- the executable

TEST_CASE("yaml input: the executable refuses recursive and expanding aliases in a config, an overlay and a run file within a second",
          "[yaml][cli]") {
  struct Case { std::string name, text; int line; std::string says; };
  for (const Case& c : {Case{"recursive_seq", kRecursiveSeq, 1, kRecursive}, Case{"recursive_map", kRecursiveMap, 3, kRecursive},
                        Case{"laughs", billion_laughs(), 6, kExpansion}}) {
    TempDir d;
    const std::string file = d / (c.name + ".yaml");
    write_text(file, c.text);
    const std::string run_file = d / (c.name + "_run.yaml");
    write_text(run_file, "workload: vecadd\nsize: tiny\n" + c.text);
    struct Way { std::string what, args, file; int line; };
    for (const Way& w : {Way{"a config", "run --workload vecadd --size tiny --config " + q(file), file, c.line},
                         Way{"an overlay", "run --workload vecadd --size tiny --config gtx480 --overlay " + q(file), file, c.line},
                         Way{"a run file", "run " + q(run_file), run_file, c.line + 2}}) {
      const auto t0 = std::chrono::steady_clock::now();
      const CmdResult r = cli_util::warptlm(d, w.args + " --out " + q(d / "out"));
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      INFO(c.name << " as " << w.what << " (" << seconds << " s):\n" << r.out);
      CHECK(r.code == 2);
      CHECK(contains(r.out, w.file + ":" + std::to_string(w.line) + ": " + c.says));
      CHECK(seconds < 1.0);
    }
  }
}

TEST_CASE("yaml input: the executable refuses an unknown tag and an unterminated quote naming file and line", "[yaml][cli]") {
  TempDir d;
  write_text(d / "tag.yaml", "gpu:\n  num_sms: !foo 3\n");
  CmdResult r = cli_util::warptlm(d, "run --workload vecadd --size tiny --config " + q(d / "tag.yaml") + " --out " + q(d / "out"));
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK(contains(r.out, d / "tag.yaml:2: unknown tag '!foo'"));
  write_text(d / "run.yaml", "workload: vecadd\nsize: 'tiny\n");
  r = cli_util::warptlm(d, "run " + q(d / "run.yaml") + " --out " + q(d / "out"));
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK(contains(r.out, d / "run.yaml:2: unterminated quoted scalar started at line 2"));
}
