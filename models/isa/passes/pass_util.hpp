// Shared machinery of the scratchpad-sharing compiler passes (README.md in this
// folder): where PTX statements lie in the text (so a pass can edit the text
// and keep every other byte and every line number), the kernel's .shared
// layout as the loader (module.cpp) computes it, which shared variables each
// instruction may access (a forward "may" points-to dataflow over the CFG),
// and the analysis graph (virtual Entry/Exit, optional critical-edge splits).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "isa/cfg.hpp"
#include "isa/ptx_parser.hpp"

namespace warptlm {
namespace passes {

// ---------------------------------------------------------------- text

struct TextSpan {
  size_t begin = 0, end = 0;  // [begin, end): a statement including its ';'
  uint32_t line = 0;          // 1-based line of `begin`
};

struct FuncText {
  std::string name;
  bool is_entry = false, has_body = false;
  size_t body_open = 0, body_close = 0;                       // offsets of '{' and its matching '}'
  std::vector<TextSpan> instrs;                               // one per instruction, FuncIR::body order
  std::vector<std::pair<std::string, TextSpan>> shared_decls;  // .shared / .extern .shared
  std::vector<std::pair<std::string, uint32_t>> labels;       // label -> index of the next instruction
};

struct ModuleText {
  std::vector<FuncText> funcs;                                // in text order
  std::vector<std::pair<std::string, TextSpan>> shared_decls;  // module scope (with .extern/.visible prefix)
  const FuncText* find_body(const std::string& name) const;
};

// Locates statements the way ptx_parser.cpp reads them; InputError naming the
// file and line if the text cannot be followed.
ModuleText scan_ptx_text(const std::string& text, const std::string& origin);

// The text of function `f`, checked against the parse (one statement per
// instruction, same lines); InputError naming the file and line otherwise.
const FuncText& match_function(const ModuleText& mt, const FuncIR& f, const std::string& origin);
// The first label naming instruction `pc`, or "line N" (its PTX line).
std::string label_at(const FuncText& ft, uint32_t pc);

// Replace [pos, pos+len) by `text`; edits at one position apply in the order given.
struct TextEdit {
  size_t pos = 0, len = 0;
  std::string text;
};
std::string apply_edits(const std::string& text, const std::vector<TextEdit>& edits);

// ---------------------------------------------------------------- layout

using VarMask = uint64_t;  // bit i: the kernel's shared variable i
constexpr unsigned kMaxSharedVars = 64;

struct SharedVar {
  std::string name;
  uint32_t bytes = 0, align = 1;
  bool dynamic = false;       // extern .shared name[]: placed after the static variables
  int scope = 0;              // 0 module scope, 1 the entry, 2 a called .func
  uint32_t offset = 0;        // static: offset in the current layout
  uint32_t line = 0;
};

struct KernelLayout {
  std::vector<SharedVar> vars;  // in the loader's placement order
  uint32_t static_bytes = 0;    // R_tb as the loader computes it (static .shared only)
  VarMask all() const { return vars.size() >= 64 ? ~VarMask(0) : (VarMask(1) << vars.size()) - 1; }
  int index_of(const std::string& name) const;
};

// The loader's layout: module-scope .shared in declaration order, then the
// entry's, then each called function's (call order); extern arrays after.
KernelLayout kernel_layout(const ParsedModule& pm, const FuncIR& entry, const std::string& origin);

// Offsets for `order` (indices into vars); returns the total static bytes.
uint32_t place_static(const std::vector<SharedVar>& vars, const std::vector<uint32_t>& order,
                      std::vector<uint32_t>* offsets);

// Both passes take t from the caller: InputError (key ss.threshold) unless 0 < t < 1.
void check_private_fraction(double t, const std::string& origin);

// The passes rewrite a module's text whole (its shared-memory layout, every kernel's relssp): an instruction
// the front end refused anywhere in it refuses the module here, with that instruction's file and line (the
// loader alone refuses only the kernels that reach it).
void require_whole_module(const ParsedModule& pm);

// Variables that lie (partly) at or above the boundary, and extern arrays.
VarMask shared_region_vars(const KernelLayout& l, double t);

// ---------------------------------------------------------------- accesses

// Per instruction of `entry.body`: the shared variables it may access.
// Shared-space accesses whose address cannot be traced to a variable access
// all of them; generic accesses only what their address may point into; a call
// to a function that does any shared or generic access accesses all.
std::vector<VarMask> shared_accesses(const ParsedModule& pm, const FuncIR& entry, const KernelLayout& l,
                                     const Cfg& cfg);

// ---------------------------------------------------------------- graph

// Analysis graph over a function's CFG: node 0 is Entry, node b+1 is CFG block
// b, node B+1 is Exit, later nodes are critical-edge splits. Edges from nodes
// unreachable from Entry are dropped (those nodes stay isolated).
struct Graph {
  struct Split { uint32_t from = 0, to = 0; };  // nodes of the split edge
  uint32_t nblocks = 0;
  std::vector<std::vector<uint32_t>> succ, pred;
  std::vector<bool> reachable;
  std::vector<Split> splits;  // node nblocks + 2 + i
  uint32_t entry() const { return 0; }
  uint32_t exit() const { return nblocks + 1; }
  bool is_block(uint32_t n) const { return n >= 1 && n <= nblocks; }
  bool is_split(uint32_t n) const { return n > nblocks + 1; }
  uint32_t size() const { return uint32_t(succ.size()); }
};
Graph build_graph(const Cfg& cfg, bool split_critical_edges);

// Loop nesting depth of every node (natural loops of back edges whose head
// dominates the tail; irreducible cycles do not count).
std::vector<uint32_t> loop_depths(const Graph& g);

// Reverse post-order of the nodes reachable from Entry.
std::vector<uint32_t> reverse_postorder(const Graph& g);

}  // namespace passes
}  // namespace warptlm
