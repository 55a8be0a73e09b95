#include "isa/passes/pass_util.hpp"
#include "isa/ptx_lexer.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <functional>
#include <unordered_map>
#include <unordered_set>

#include "common/errors.hpp"
#include "isa/passes/passes.hpp"

namespace warptlm {
namespace passes {

// ================================================================ text

namespace {

using Tok = PtxToken;

class Scanner {
 public:
  Scanner(const std::string& text, const std::string& origin) : origin_(origin), toks_(lex_ptx(text, origin)) {
    toks_.pop_back();  // the scanner stops at the end of the tokens, not at an End token
  }

  ModuleText run() {
    ModuleText m;
    size_t prefix = SIZE_MAX;  // token index of .extern/.visible/... before a declaration
    while (i_ < toks_.size()) {
      const Tok& t = toks_[i_];
      if (t.kind != Tok::Ident || t.s[0] != '.') fail(t.line, "unexpected '" + t.s + "' at module scope");
      const std::string d = t.s;
      if (d == ".version" || d == ".target" || d == ".address_size" || d == ".file" || d == ".loc") {
        skip_line();
      } else if (d == ".section") {
        skip_line_or_block();
      } else if (d == ".visible" || d == ".weak" || d == ".common" || d == ".extern") {
        if (prefix == SIZE_MAX) prefix = i_;
        ++i_;
        continue;
      } else if (d == ".entry" || d == ".func") {
        m.funcs.push_back(function());
      } else if (d == ".global" || d == ".const" || d == ".shared") {
        size_t first = i_;
        TextSpan sp = statement(prefix == SIZE_MAX ? i_ : prefix);
        if (d == ".shared") m.shared_decls.push_back({decl_name(first), sp});
      } else if (d == ".pragma") {
        statement(i_);
      } else {
        fail(t.line, "unsupported directive '" + d + "' at module scope");
      }
      prefix = SIZE_MAX;
    }
    return m;
  }

 private:
  std::string origin_;
  std::vector<Tok> toks_;
  size_t i_ = 0;

  [[noreturn]] void fail(uint32_t line, const std::string& msg) const {
    throw InputError(Place{origin_, int(line), ""}, msg);
  }
  uint32_t last_line() const { return toks_.empty() ? 1 : toks_.back().line; }
  const Tok& at(size_t k) const {
    if (k >= toks_.size()) fail(last_line(), "unexpected end of file");
    return toks_[k];
  }
  void skip_line() {
    uint32_t l = toks_[i_].line;
    while (i_ < toks_.size() && toks_[i_].line == l) ++i_;
  }
  void skip_line_or_block() {
    uint32_t l = toks_[i_].line;
    while (i_ < toks_.size() && toks_[i_].line == l && !toks_[i_].is("{")) ++i_;
    if (i_ < toks_.size() && toks_[i_].is("{")) {
      int depth = 0;
      do {
        if (toks_[i_].is("{")) ++depth;
        if (toks_[i_].is("}")) --depth;
        ++i_;
      } while (depth > 0 && i_ < toks_.size());
    }
  }
  // Tokens up to and including the next ';'.
  TextSpan statement(size_t first_tok) {
    TextSpan sp;
    sp.begin = toks_[first_tok].begin;
    sp.line = toks_[first_tok].line;
    while (!at(i_).is(";")) ++i_;
    sp.end = toks_[i_].end;
    ++i_;
    return sp;
  }
  // The declared name: the first identifier not starting with '.'.
  std::string decl_name(size_t from) const {
    for (size_t k = from; k < toks_.size() && !toks_[k].is(";"); ++k)
      if (toks_[k].kind == Tok::Ident && toks_[k].s[0] != '.') return toks_[k].s;
    return "";
  }
  void skip_parens() {
    int depth = 0;
    do {
      if (at(i_).is("(")) ++depth;
      if (at(i_).is(")")) --depth;
      ++i_;
    } while (depth > 0);
  }

  FuncText function() {
    FuncText f;
    f.is_entry = toks_[i_].s == ".entry";
    ++i_;
    if (!f.is_entry && at(i_).is("(")) skip_parens();
    f.name = at(i_).s;
    ++i_;
    if (at(i_).is("(")) skip_parens();
    while (!at(i_).is("{") && !at(i_).is(";")) {
      if (at(i_).is(".pragma")) { while (!at(i_).is(";")) ++i_; }
      ++i_;
    }
    if (at(i_).is(";")) { ++i_; return f; }
    f.has_body = true;
    f.body_open = toks_[i_].begin;
    ++i_;
    int depth = 0;
    for (;;) {
      const Tok& t = at(i_);
      if (t.is("}")) {
        if (depth == 0) { f.body_close = t.begin; ++i_; return f; }
        --depth;
        ++i_;
        continue;
      }
      if (t.is("{")) { ++depth; ++i_; continue; }
      if (t.kind == Tok::Ident && t.s[0] != '.' && i_ + 1 < toks_.size() && toks_[i_ + 1].is(":")) {
        f.labels.push_back({t.s, uint32_t(f.instrs.size())});
        i_ += 2;
        continue;
      }
      if (t.kind == Tok::Ident && t.s[0] == '.') {
        if (t.s == ".loc" || t.s == ".file") { skip_line(); continue; }
        const bool shared = t.s == ".shared" || (t.s == ".extern" && i_ + 1 < toks_.size() && toks_[i_ + 1].s == ".shared");
        size_t first = i_;
        TextSpan sp = statement(first);
        if (shared) f.shared_decls.push_back({decl_name(first), sp});
        continue;
      }
      f.instrs.push_back(statement(i_));
    }
  }
};

}  // namespace

const FuncText* ModuleText::find_body(const std::string& name) const {
  for (auto& f : funcs)
    if (f.has_body && f.name == name) return &f;
  return nullptr;
}

ModuleText scan_ptx_text(const std::string& text, const std::string& origin) { return Scanner(text, origin).run(); }

const FuncText& match_function(const ModuleText& mt, const FuncIR& f, const std::string& origin) {
  const FuncText* ft = mt.find_body(f.name);
  if (!ft || ft->instrs.size() != f.body.size())
    throw InputError(Place{origin, int(f.line), f.name},
                     "cannot follow the text of function '" + f.name + "' for the scratchpad-sharing passes");
  for (size_t i = 0; i < f.body.size(); ++i)
    if (ft->instrs[i].line != f.body[i].line)
      throw InputError(Place{origin, int(f.body[i].line), op_name(f.body[i].op)},
                       "cannot locate instruction '" + f.body[i].text + "' in the text for the scratchpad-sharing passes");
  return *ft;
}

std::string label_at(const FuncText& ft, uint32_t pc) {
  for (auto& l : ft.labels)
    if (l.second == pc) return l.first;
  return "line " + std::to_string(pc < ft.instrs.size() ? ft.instrs[pc].line : 0);
}

std::string apply_edits(const std::string& text, const std::vector<TextEdit>& edits) {
  std::vector<size_t> idx(edits.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return edits[a].pos < edits[b].pos; });
  std::string out;
  out.reserve(text.size() + 256);
  size_t cur = 0;
  for (size_t k : idx) {
    const TextEdit& e = edits[k];
    if (e.pos > cur) out.append(text, cur, e.pos - cur);
    out += e.text;
    cur = std::max(cur, e.pos + e.len);
  }
  if (cur < text.size()) out.append(text, cur, std::string::npos);
  return out;
}

// ================================================================ layout

void require_whole_module(const ParsedModule& pm) {
  for (const FuncIR& f : pm.funcs)
    if (f.refusal) throw *f.refusal;
}

int KernelLayout::index_of(const std::string& name) const {
  for (size_t i = 0; i < vars.size(); ++i)
    if (vars[i].name == name) return int(i);
  return -1;
}

static std::unordered_map<std::string, const FuncIR*> bodies(const ParsedModule& pm) {
  std::unordered_map<std::string, const FuncIR*> m;
  for (auto& f : pm.funcs)
    if (f.has_body && !m.count(f.name)) m[f.name] = &f;
  return m;
}

KernelLayout kernel_layout(const ParsedModule& pm, const FuncIR& entry, const std::string& origin) {
  auto funcs = bodies(pm);
  std::vector<const FuncIR*> order;
  std::unordered_set<const FuncIR*> seen;
  std::function<void(const FuncIR*)> visit = [&](const FuncIR* f) {
    seen.insert(f);
    order.push_back(f);
    for (auto& c : f->calls) {
      auto it = funcs.find(c.callee);
      if (it != funcs.end() && !it->second->is_entry && !seen.count(it->second)) visit(it->second);
    }
  };
  visit(&entry);
  KernelLayout l;
  auto add = [&](const VarDecl& v, int scope) {
    SharedVar s;
    s.name = v.name;
    s.bytes = v.bytes();
    s.align = std::max<uint32_t>(v.align, 1);
    s.dynamic = v.dynamic;
    s.scope = scope;
    s.line = v.line;
    l.vars.push_back(s);
  };
  for (auto& v : pm.vars)
    if (v.space == Space::Shared) add(v, 0);
  for (const FuncIR* f : order)
    for (auto& v : f->shared) add(v, f == &entry ? 1 : 2);
  if (l.vars.size() > kMaxSharedVars)
    throw InputError(Place{origin, int(entry.line), entry.name},
                     "kernel '" + entry.name + "' has " + std::to_string(l.vars.size()) +
                         " .shared variables; the scratchpad-sharing passes handle at most 64");
  std::vector<uint32_t> ord(l.vars.size()), off;
  for (uint32_t i = 0; i < ord.size(); ++i) ord[i] = i;
  l.static_bytes = place_static(l.vars, ord, &off);
  for (size_t i = 0; i < l.vars.size(); ++i) l.vars[i].offset = off[i];
  return l;
}

uint32_t place_static(const std::vector<SharedVar>& vars, const std::vector<uint32_t>& order,
                      std::vector<uint32_t>* offsets) {
  if (offsets) offsets->assign(vars.size(), 0);
  uint32_t smem = 0;
  for (uint32_t i : order) {
    const SharedVar& v = vars[i];
    if (v.dynamic) continue;
    smem = (smem + v.align - 1) / v.align * v.align;
    if (offsets) (*offsets)[i] = smem;
    smem += v.bytes;
  }
  if (offsets) {
    const uint32_t dyn = (smem + 15) & ~15u;
    for (size_t i = 0; i < vars.size(); ++i)
      if (vars[i].dynamic) (*offsets)[i] = dyn;
  }
  return smem;
}

void check_private_fraction(double t, const std::string& origin) {
  if (!(t > 0 && t < 1))
    throw InputError(Place{origin, 0, "ss.threshold"}, "the private fraction t must lie in (0, 1)");
}

VarMask shared_region_vars(const KernelLayout& l, double t) {
  const uint32_t b = private_boundary(t, l.static_bytes);
  VarMask m = 0;
  for (size_t i = 0; i < l.vars.size(); ++i)
    if (l.vars[i].dynamic || l.vars[i].offset + l.vars[i].bytes > b) m |= VarMask(1) << i;
  return m;
}

// ================================================================ accesses

static bool is_mem_access(Op op) {
  return op == Op::Ld || op == Op::Ldu || op == Op::St || op == Op::Atom || op == Op::Red;
}

std::vector<VarMask> shared_accesses(const ParsedModule& pm, const FuncIR& entry, const KernelLayout& l,
                                     const Cfg& cfg) {
  auto funcs = bodies(pm);
  std::unordered_set<std::string> shared_names;
  for (auto& v : l.vars) shared_names.insert(v.name);
  // Does a called function (or what it calls) touch shared memory at all?
  std::unordered_map<const FuncIR*, int> touches;  // 0 unknown/visiting, 1 no, 2 yes
  std::function<bool(const FuncIR*)> callee_touches = [&](const FuncIR* f) -> bool {
    auto it = touches.find(f);
    if (it != touches.end()) return it->second == 2;
    touches[f] = 0;
    bool yes = false;
    for (auto& in : f->body) {
      if (is_mem_access(in.op) && (in.space == Space::Shared || in.space == Space::Generic)) yes = true;
      if (in.op == Op::Cvta && in.space == Space::Shared) yes = true;
      for (unsigned k = 0; k < in.nops && !yes; ++k)
        if (!in.ops[k].name.empty() && shared_names.count(in.ops[k].name)) yes = true;
      if (in.op == Op::Call)
        for (unsigned k = 0; k < in.nops; ++k)
          if (in.ops[k].kind == OpKind::Func) {
            auto c = funcs.find(in.ops[k].name);
            if (c != funcs.end() && callee_touches(c->second)) yes = true;
          }
      if (yes) break;
    }
    touches[f] = yes ? 2 : 1;
    return yes;
  };

  const uint32_t nregs = entry.nregs;
  const VarMask all = l.all();
  auto sym = [&](const Operand& o) -> VarMask {
    if (o.name.empty()) return 0;
    int i = l.index_of(o.name);
    return i < 0 ? 0 : VarMask(1) << i;
  };
  auto transfer = [&](const Instr& in0, std::vector<VarMask>& st, VarMask* acc) {
    Instr in = in0;
    collect_dependences(in, nregs);
    VarMask a = 0;
    if (is_mem_access(in.op)) {
      for (unsigned k = 0; k < in.nops; ++k) {
        const Operand& o = in.ops[k];
        if (o.kind != OpKind::Addr) continue;
        VarMask base = (o.addr_has_reg && o.reg < nregs ? st[o.reg] : 0) | sym(o);
        if (in.space == Space::Shared) a |= base ? base : all;
        else if (in.space == Space::Generic) a |= base;
      }
    } else if (in.op == Op::Call) {
      for (unsigned k = 0; k < in.nops; ++k)
        if (in.ops[k].kind == OpKind::Func) {
          auto c = funcs.find(in.ops[k].name);
          if (c == funcs.end() || callee_touches(c->second)) a = all;
        }
    }
    if (acc) *acc = a;
    VarMask v = 0;
    if (in.op != Op::Ld && in.op != Op::Ldu && in.op != Op::Atom) {
      for (unsigned r = 0; r < in.nreads; ++r)
        if (in.reads[r] < nregs) v |= st[in.reads[r]];
      for (unsigned k = 0; k < in.nops; ++k)
        if (in.ops[k].kind == OpKind::Label || in.ops[k].kind == OpKind::Imm) v |= sym(in.ops[k]);
      if (in.op == Op::Cvta && in.space == Space::Shared && v == 0) v = all;
    }
    for (unsigned w = 0; w < in.nwrites; ++w) {
      uint32_t r = in.writes[w];
      if (r >= nregs) continue;
      st[r] = in.guard >= 0 ? (st[r] | v) : v;
    }
  };

  std::vector<VarMask> acc(entry.body.size(), 0);
  const uint32_t B = uint32_t(cfg.blocks.size());
  if (B == 0) return acc;
  std::vector<std::vector<uint32_t>> preds(B);
  for (uint32_t b = 0; b < B; ++b)
    for (uint32_t s : cfg.blocks[b].succ)
      if (s < B) preds[s].push_back(b);
  Graph g = build_graph(cfg, false);
  std::vector<uint32_t> rpo;
  for (uint32_t n : reverse_postorder(g))
    if (g.is_block(n)) rpo.push_back(n - 1);
  std::vector<std::vector<VarMask>> out(B, std::vector<VarMask>(nregs, 0));
  auto block_in = [&](uint32_t b) {
    std::vector<VarMask> st(nregs, 0);
    for (uint32_t p : preds[b])
      for (uint32_t r = 0; r < nregs; ++r) st[r] |= out[p][r];
    return st;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t b : rpo) {
      std::vector<VarMask> st = block_in(b);
      for (uint32_t pc = cfg.blocks[b].first; pc <= cfg.blocks[b].last; ++pc) transfer(entry.body[pc], st, nullptr);
      if (st != out[b]) { out[b] = std::move(st); changed = true; }
    }
  }
  for (uint32_t b : rpo) {
    std::vector<VarMask> st = block_in(b);
    for (uint32_t pc = cfg.blocks[b].first; pc <= cfg.blocks[b].last; ++pc) transfer(entry.body[pc], st, &acc[pc]);
  }
  return acc;
}

// ================================================================ graph

Graph build_graph(const Cfg& cfg, bool split_critical_edges) {
  Graph g;
  const uint32_t B = uint32_t(cfg.blocks.size());
  g.nblocks = B;
  g.succ.assign(B + 2, {});
  g.succ[0].push_back(B ? 1 : B + 1);
  for (uint32_t b = 0; b < B; ++b)
    for (uint32_t s : cfg.blocks[b].succ) g.succ[b + 1].push_back(s >= B ? B + 1 : s + 1);
  g.reachable.assign(B + 2, false);
  std::vector<uint32_t> work{0};
  g.reachable[0] = true;
  while (!work.empty()) {
    uint32_t n = work.back();
    work.pop_back();
    for (uint32_t s : g.succ[n])
      if (!g.reachable[s]) { g.reachable[s] = true; work.push_back(s); }
  }
  for (uint32_t n = 0; n < B + 2; ++n)
    if (!g.reachable[n]) g.succ[n].clear();
  g.pred.assign(B + 2, {});
  for (uint32_t n = 0; n < B + 2; ++n)
    for (uint32_t s : g.succ[n]) g.pred[s].push_back(n);
  if (split_critical_edges) {
    std::vector<std::pair<uint32_t, size_t>> crit;  // (node, successor index)
    for (uint32_t u = 0; u < B + 2; ++u)
      if (g.succ[u].size() > 1)
        for (size_t k = 0; k < g.succ[u].size(); ++k)
          if (g.pred[g.succ[u][k]].size() > 1) crit.push_back({u, k});
    for (auto& c : crit) {
      const uint32_t u = c.first, v = g.succ[u][c.second], s = uint32_t(g.succ.size());
      g.succ.push_back({v});
      g.pred.push_back({u});
      g.reachable.push_back(true);
      g.succ[u][c.second] = s;
      std::replace(g.pred[v].begin(), g.pred[v].end(), u, s);
      g.splits.push_back({u, v});
    }
  }
  return g;
}

std::vector<uint32_t> reverse_postorder(const Graph& g) {
  std::vector<uint32_t> post;
  std::vector<bool> seen(g.size(), false);
  std::vector<std::pair<uint32_t, size_t>> st{{0, 0}};
  seen[0] = true;
  while (!st.empty()) {
    auto& top = st.back();
    if (top.second < g.succ[top.first].size()) {
      uint32_t s = g.succ[top.first][top.second++];
      if (!seen[s]) { seen[s] = true; st.push_back({s, 0}); }
    } else {
      post.push_back(top.first);
      st.pop_back();
    }
  }
  std::reverse(post.begin(), post.end());
  return post;
}

std::vector<uint32_t> loop_depths(const Graph& g) {
  const uint32_t N = g.size();
  std::vector<uint32_t> rpo = reverse_postorder(g);
  std::vector<int32_t> index(N, -1), idom(N, -1);
  for (size_t i = 0; i < rpo.size(); ++i) index[rpo[i]] = int32_t(i);
  idom[0] = 0;
  auto intersect = [&](int32_t a, int32_t b) {
    while (a != b) {
      while (index[a] > index[b]) a = idom[a];
      while (index[b] > index[a]) b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 1; i < rpo.size(); ++i) {
      uint32_t n = rpo[i];
      int32_t nd = -1;
      for (uint32_t p : g.pred[n]) {
        if (idom[p] < 0 || index[p] < 0) continue;
        nd = nd < 0 ? int32_t(p) : intersect(int32_t(p), nd);
      }
      if (nd >= 0 && idom[n] != nd) { idom[n] = nd; changed = true; }
    }
  }
  auto dominates = [&](uint32_t h, uint32_t n) {
    if (index[n] < 0) return false;
    for (int32_t x = int32_t(n);; x = idom[x]) {
      if (uint32_t(x) == h) return true;
      if (x == 0 || idom[x] < 0) return false;
    }
  };
  // One loop per header: the union of its back edges' natural loops.
  std::vector<std::vector<bool>> body(N);
  for (uint32_t u : rpo)
    for (uint32_t h : g.succ[u]) {
      if (!dominates(h, u)) continue;
      auto& in = body[h];
      if (in.empty()) in.assign(N, false);
      in[h] = true;
      std::vector<uint32_t> work;
      if (!in[u]) { in[u] = true; work.push_back(u); }
      while (!work.empty()) {
        uint32_t x = work.back();
        work.pop_back();
        for (uint32_t p : g.pred[x])
          if (!in[p] && index[p] >= 0) { in[p] = true; work.push_back(p); }
      }
    }
  std::vector<uint32_t> depth(N, 0);
  for (uint32_t h = 0; h < N; ++h)
    if (!body[h].empty())
      for (uint32_t n = 0; n < N; ++n)
        if (body[h][n]) ++depth[n];
  return depth;
}

}  // namespace passes
}  // namespace warptlm
