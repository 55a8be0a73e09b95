#include "isa/passes/relssp_placement.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <stdexcept>

#include "common/errors.hpp"
#include "isa/passes/passes.hpp"

namespace warptlm {
namespace passes {

int RelsspKernelReport::node_of_label(const std::string& label) const {
  for (size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].label == label) return int(i);
  return -1;
}

namespace {

bool ends_path(Op op) { return op == Op::Ret || op == Op::Exit || op == Op::Trap; }

// "@%p1 " / "@!%p1 " at the start of a statement ("" when unguarded), and the
// opcode token after it.
void split_guard(const std::string& stmt, std::string& guard, std::string& opcode) {
  size_t i = 0;
  guard.clear();
  if (!stmt.empty() && stmt[0] == '@') {
    i = 1;
    while (i < stmt.size() && std::isspace((unsigned char)stmt[i])) ++i;
    if (i < stmt.size() && stmt[i] == '!') ++i;
    while (i < stmt.size() && std::isspace((unsigned char)stmt[i])) ++i;
    while (i < stmt.size() && !std::isspace((unsigned char)stmt[i]) && stmt[i] != ';') ++i;
    guard = stmt.substr(0, i) + " ";
  }
  while (i < stmt.size() && std::isspace((unsigned char)stmt[i])) ++i;
  size_t j = i;
  while (j < stmt.size() && !std::isspace((unsigned char)stmt[j]) && stmt[j] != ';') ++j;
  opcode = stmt.substr(i, j - i);
}

int32_t label_target(const Instr& in, std::string* name) {
  for (unsigned k = 0; k < in.nops; ++k)
    if (in.ops[k].kind == OpKind::Label) {
      if (name) *name = in.ops[k].name;
      return int32_t(in.ops[k].imm);
    }
  return -1;
}

}  // namespace

std::string relssp_pass(const std::string& ptx, const std::string& origin, const RelsspOptions& opt,
                        std::vector<RelsspKernelReport>* reports) {
  check_private_fraction(opt.threshold, origin);
  ParsedModule pm = parse_ptx(ptx, origin);
  require_whole_module(pm);
  ModuleText mt = scan_ptx_text(ptx, origin);
  std::vector<TextEdit> edits;
  unsigned label_counter = 0;

  for (auto& f : pm.funcs) {
    if (!f.is_entry || !f.has_body) continue;
    const FuncText& ft = match_function(mt, f, origin);
    KernelLayout l = kernel_layout(pm, f, origin);
    RelsspKernelReport r;
    r.kernel = f.name;
    r.line = f.line;
    r.static_bytes = l.static_bytes;
    r.boundary = private_boundary(opt.threshold, l.static_bytes);
    const VarMask region = shared_region_vars(l, opt.threshold);
    for (size_t i = 0; i < l.vars.size(); ++i)
      if (region >> i & 1) r.shared_region_vars.push_back(l.vars[i].name);
    for (auto& in : f.body)
      if (in.op == Op::Relssp) r.had_relssp = true;
    if (r.had_relssp || f.body.empty()) {
      if (reports) reports->push_back(std::move(r));
      continue;
    }

    Cfg cfg = build_cfg(f.body);
    std::vector<VarMask> acc = shared_accesses(pm, f, l, cfg);
    std::vector<bool> is_acc(f.body.size());
    for (size_t pc = 0; pc < acc.size(); ++pc) is_acc[pc] = (acc[pc] & region) != 0;
    Graph g = build_graph(cfg, true);
    const uint32_t N = g.size();
    r.critical_edges = uint32_t(g.splits.size());
    for (auto& s : g.splits) r.splits.push_back({s.from, s.to});
    r.nodes.assign(N, {});
    for (uint32_t n = 0; n < N; ++n) {
      RelsspNodeFacts& nf = r.nodes[n];
      nf.reachable = g.reachable[n];
      nf.succ = g.succ[n];
      if (g.is_block(n)) {
        const BasicBlock& bb = cfg.blocks[n - 1];
        nf.block = int32_t(n - 1);
        nf.label = label_at(ft, bb.first);
        if (nf.reachable)
          for (uint32_t pc = bb.first; pc <= bb.last; ++pc)
            if (is_acc[pc]) { nf.access = true; ++r.accesses; }
      }
    }
    auto name_of = [&](uint32_t n) {
      return n == g.entry() ? std::string("Entry") : n == g.exit() ? std::string("Exit") : r.nodes[n].label;
    };
    r.nodes[g.entry()].label = "Entry";
    r.nodes[g.exit()].label = "Exit";
    for (size_t i = 0; i < g.splits.size(); ++i) {
      RelsspNodeFacts& nf = r.nodes[g.nblocks + 2 + i];
      nf.split = int32_t(i);
      nf.label = "split " + name_of(g.splits[i].from) + "->" + name_of(g.splits[i].to);
    }

    // SafeIN / SafeOUT: backward must analysis, maximal fixed point.
    for (auto& nf : r.nodes) nf.safe_in = nf.safe_out = true;
    std::vector<uint32_t> rpo = reverse_postorder(g);
    for (bool changed = true; changed;) {
      changed = false;
      for (auto it = rpo.rbegin(); it != rpo.rend(); ++it) {
        uint32_t n = *it;
        bool out = true;
        if (n != g.exit())
          for (uint32_t s : g.succ[n]) out = out && r.nodes[s].safe_in;
        bool in = !r.nodes[n].access && out;
        if (out != r.nodes[n].safe_out || in != r.nodes[n].safe_in) {
          r.nodes[n].safe_out = out;
          r.nodes[n].safe_in = in;
          changed = true;
        }
      }
    }
    for (uint32_t n = 0; n < N; ++n) {
      RelsspNodeFacts& nf = r.nodes[n];
      if (!nf.reachable) continue;
      nf.ins_out = nf.safe_out && !nf.safe_in;
      bool preds_safe = true;
      for (uint32_t p : g.pred[n]) preds_safe = preds_safe && r.nodes[p].safe_out;
      nf.ins_in = nf.safe_in && !preds_safe;
    }
    if (r.nodes[g.entry()].ins_in || r.nodes[g.entry()].ins_out || r.nodes[g.exit()].ins_in ||
        r.nodes[g.exit()].ins_out)
      throw std::logic_error("relssp placement: insertion at the virtual Entry/Exit of '" + f.name + "'");

    // Materialise.
    const uint32_t n_instr = uint32_t(f.body.size());
    std::set<std::string> labels;
    for (auto& lb : ft.labels) labels.insert(lb.first);
    std::string out_of_line;
    auto stmt_text = [&](uint32_t pc) {
      return ptx.substr(ft.instrs[pc].begin, ft.instrs[pc].end - ft.instrs[pc].begin);
    };
    for (uint32_t n = 0; n < N; ++n) {
      const RelsspNodeFacts& nf = r.nodes[n];
      if (g.is_block(n)) {
        const BasicBlock& bb = cfg.blocks[n - 1];
        if (nf.ins_in) {
          edits.push_back({ft.instrs[bb.first].begin, 0, "relssp; "});
          r.inserted.push_back({RelsspInsertion::BlockStart, n, f.body[bb.first].line, nf.label, ""});
        }
        if (nf.ins_out) {
          uint32_t last = bb.last;
          while (!is_acc[last]) --last;  // INS_OUT implies an access in the block
          edits.push_back({ft.instrs[last].end, 0, " relssp;"});
          r.inserted.push_back({RelsspInsertion::AfterAccess, n, f.body[last].line, nf.label, ""});
        }
        continue;
      }
      if (!g.is_split(n) || !(nf.ins_in || opt.materialize_all_splits)) continue;
      const Graph::Split& sp = g.splits[size_t(nf.split)];
      const uint32_t bu = sp.from - 1;  // only blocks have two successors
      const uint32_t L = cfg.blocks[bu].last;
      const Instr& in = f.body[L];
      const uint32_t fall = L + 1 < n_instr ? cfg.block_of[L + 1] + 1 : g.exit();
      std::string target_name;
      int32_t t = in.op == Op::Bra ? label_target(in, &target_name) : -1;
      const uint32_t taken = in.op == Op::Bra ? (t >= 0 && uint32_t(t) < n_instr ? cfg.block_of[t] + 1 : g.exit())
                                              : g.exit();
      const std::string edge = name_of(sp.from) + "->" + name_of(sp.to);
      if (sp.to == fall && sp.to != taken) {
        // Fall-through edge: the split block sits between the branch and the next label.
        if (nf.ins_in) {
          edits.push_back({ft.instrs[L].end, 0, " relssp;"});
          r.inserted.push_back({RelsspInsertion::EdgeFallthrough, n, in.line, edge, ""});
        }
        if (nf.ins_in) ++r.materialized_splits;  // an empty fall-through split needs no text
        continue;
      }
      // Taken edge: retarget the branch to a new block that releases and jumps on.
      std::string nl;
      do { nl = "$__ssp_split_" + std::to_string(label_counter++); } while (labels.count(nl));
      labels.insert(nl);
      const std::string stmt = stmt_text(L);
      std::string guard, opcode;
      split_guard(stmt, guard, opcode);
      const std::string rel = nf.ins_in ? "relssp; " : "";
      if (in.op == Op::Bra) {
        size_t at = stmt.rfind(target_name);
        if (target_name.empty() || at == std::string::npos)
          throw InputError(Place{origin, int(in.line), "bra"}, "cannot locate the branch target in '" + stmt + "'");
        edits.push_back({ft.instrs[L].begin + at, target_name.size(), nl});
        out_of_line += nl + ": " + rel + "bra.uni " + target_name + "; ";
      } else if (ends_path(in.op)) {
        edits.push_back({ft.instrs[L].begin, stmt.size(), guard + "bra " + nl + ";"});
        out_of_line += nl + ": " + rel + opcode + "; ";
      } else {
        throw std::logic_error("relssp placement: critical edge from a block ending in '" + stmt + "'");
      }
      ++r.materialized_splits;
      if (nf.ins_in) r.inserted.push_back({RelsspInsertion::EdgeTaken, n, in.line, edge, nl});
    }
    if (!out_of_line.empty()) {
      const Instr& last = f.body.back();
      bool falls = !((last.op == Op::Bra || ends_path(last.op)) && last.guard < 0);
      for (auto& lb : ft.labels)
        if (lb.second >= n_instr) falls = true;
      edits.push_back({ft.body_close, 0, (falls ? "ret; " : "") + out_of_line});
    }
    std::sort(r.inserted.begin(), r.inserted.end(),
              [](const RelsspInsertion& a, const RelsspInsertion& b) { return a.line < b.line; });
    if (reports) reports->push_back(std::move(r));
  }
  return apply_edits(ptx, edits);
}

}  // namespace passes
}  // namespace warptlm
