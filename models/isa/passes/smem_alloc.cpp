#include "isa/passes/smem_alloc.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "common/errors.hpp"
#include "isa/passes/passes.hpp"

namespace warptlm {
namespace passes {

// ---------------------------------------------------------------- report helpers

VarMask SmemKernelReport::mask(std::initializer_list<const char*> ns) const {
  VarMask m = 0;
  for (const char* n : ns)
    for (size_t i = 0; i < vars.size(); ++i)
      if (vars[i].name == n) m |= VarMask(1) << i;
  return m;
}

std::vector<std::string> SmemKernelReport::names(VarMask m) const {
  std::vector<std::string> v;
  for (size_t i = 0; i < vars.size(); ++i)
    if (m >> i & 1) v.push_back(vars[i].name);
  return v;
}

int SmemKernelReport::node_of_label(const std::string& label) const {
  for (size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].label == label) return int(i);
  return -1;
}

bool SmemKernelReport::acc_in(size_t n, VarMask S) const {
  return (nodes[n].pre_in & S) && (nodes[n].post_in & S);
}
bool SmemKernelReport::acc_out(size_t n, VarMask S) const {
  return (nodes[n].pre_out & S) && (nodes[n].post_out & S);
}

double SmemKernelReport::range_cost(VarMask S) const {
  double c = 0;
  for (auto& p : points)
    if (((p.pre_before & S) && (p.post_before & S)) || ((p.pre_after & S) && (p.post_after & S))) c += p.weight;
  return c;
}

// ---------------------------------------------------------------- the pass

namespace {

void analyse(const FuncIR& f, const FuncText& ft, const Cfg& cfg, const std::vector<VarMask>& acc,
             double loop_weight, SmemKernelReport& r) {
  Graph g = build_graph(cfg, false);
  std::vector<uint32_t> depth = loop_depths(g);
  const uint32_t N = g.size();
  r.nodes.assign(N, {});
  for (uint32_t n = 0; n < N; ++n) {
    SmemNodeFacts& nf = r.nodes[n];
    nf.reachable = g.reachable[n];
    nf.loop_depth = depth[n];
    if (n == g.entry()) nf.label = "Entry";
    else if (n == g.exit()) nf.label = "Exit";
    else {
      const BasicBlock& bb = cfg.blocks[n - 1];
      nf.block = int32_t(n - 1);
      nf.label = label_at(ft, bb.first);
      nf.first_line = f.body[bb.first].line;
      if (nf.reachable)
        for (uint32_t pc = bb.first; pc <= bb.last; ++pc) nf.access |= acc[pc];
    }
  }
  // Pre: forward may; Post: backward may; least fixed point from false.
  std::vector<uint32_t> rpo = reverse_postorder(g);
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t n : rpo) {
      VarMask in = 0;
      for (uint32_t p : g.pred[n]) in |= r.nodes[p].pre_out;
      VarMask out = in | r.nodes[n].access;
      if (in != r.nodes[n].pre_in || out != r.nodes[n].pre_out) {
        r.nodes[n].pre_in = in;
        r.nodes[n].pre_out = out;
        changed = true;
      }
    }
    for (auto it = rpo.rbegin(); it != rpo.rend(); ++it) {
      uint32_t n = *it;
      VarMask out = 0;
      if (n != g.exit())
        for (uint32_t s : g.succ[n]) out |= r.nodes[s].post_in;
      VarMask in = out | r.nodes[n].access;
      if (in != r.nodes[n].post_in || out != r.nodes[n].post_out) {
        r.nodes[n].post_in = in;
        r.nodes[n].post_out = out;
        changed = true;
      }
    }
  }
  // Instruction points (the spec's footnote: facts inside a block).
  r.points.assign(f.body.size(), {});
  for (uint32_t b = 0; b < cfg.blocks.size(); ++b) {
    const SmemNodeFacts& nf = r.nodes[b + 1];
    const BasicBlock& bb = cfg.blocks[b];
    VarMask pre = nf.pre_in;
    for (uint32_t pc = bb.first; pc <= bb.last; ++pc) {
      SmemPoint& p = r.points[pc];
      p.line = f.body[pc].line;
      p.pre_before = pre;
      pre |= acc[pc];
      p.pre_after = pre;
    }
    VarMask post = nf.post_out;
    for (uint32_t pc = bb.last + 1; pc-- > bb.first;) {
      SmemPoint& p = r.points[pc];
      p.post_after = post;
      post |= acc[pc];
      p.post_before = post;
      p.weight = nf.reachable ? std::pow(loop_weight, double(nf.loop_depth)) : 0.0;
    }
  }
}

}  // namespace

std::string smem_alloc_pass(const std::string& ptx, const std::string& origin, const SmemAllocOptions& opt,
                            std::vector<SmemKernelReport>* reports) {
  check_private_fraction(opt.threshold, origin);
  ParsedModule pm = parse_ptx(ptx, origin);
  require_whole_module(pm);
  ModuleText mt = scan_ptx_text(ptx, origin);
  unsigned entries = 0;
  for (auto& f : pm.funcs)
    if (f.is_entry && f.has_body) ++entries;
  std::vector<TextEdit> edits;

  for (auto& f : pm.funcs) {
    if (!f.is_entry || !f.has_body) continue;
    const FuncText& ft = match_function(mt, f, origin);
    KernelLayout l = kernel_layout(pm, f, origin);
    SmemKernelReport r;
    r.kernel = f.name;
    r.line = f.line;
    for (auto& v : l.vars) {
      SmemVarReport vr;
      vr.name = v.name;
      vr.bytes = v.bytes;
      vr.align = v.align;
      vr.dynamic = v.dynamic;
      vr.scope = v.scope;
      vr.offset_before = vr.offset_after = v.offset;
      vr.movable = !v.dynamic && (v.scope == 1 || (v.scope == 0 && entries == 1));
      r.vars.push_back(vr);
    }
    Cfg cfg = build_cfg(f.body);
    std::vector<VarMask> acc = shared_accesses(pm, f, l, cfg);
    analyse(f, ft, cfg, acc, opt.loop_weight, r);

    r.static_bytes_before = r.static_bytes_after = l.static_bytes;
    r.boundary_before = r.boundary_after = private_boundary(opt.threshold, l.static_bytes);
    r.shared_before = r.shared_after = shared_region_vars(l, opt.threshold);
    r.cost_before = r.cost_after = r.range_cost(r.shared_before);

    std::vector<uint32_t> movable;
    for (uint32_t i = 0; i < l.vars.size(); ++i)
      if (r.vars[i].movable) movable.push_back(i);
    std::vector<uint32_t> best_order;
    if (l.vars.empty()) {
      r.note = "no .shared variables";
    } else if (movable.size() < 2) {
      r.note = "fewer than two movable variables";
    } else if (movable.size() > opt.max_enumerated_vars) {
      r.note = "more than " + std::to_string(opt.max_enumerated_vars) + " movable variables: order kept";
    } else {
      // Every subset S of the movable variables: S after the others within its
      // scope group (the loader places module scope, then entry, then callees).
      std::unordered_map<VarMask, double> memo;
      double best = r.cost_before;
      const uint64_t subsets = uint64_t(1) << movable.size();
      for (uint64_t sub = 1; sub < subsets; ++sub) {
        VarMask S = 0;
        for (size_t k = 0; k < movable.size(); ++k)
          if (sub >> k & 1) S |= VarMask(1) << movable[k];
        std::vector<uint32_t> order;
        for (int scope = 0; scope <= 2; ++scope) {
          for (uint32_t i = 0; i < l.vars.size(); ++i)
            if (l.vars[i].scope == scope && !(S >> i & 1)) order.push_back(i);
          for (uint32_t i = 0; i < l.vars.size(); ++i)
            if (l.vars[i].scope == scope && (S >> i & 1)) order.push_back(i);
        }
        std::vector<uint32_t> off;
        uint32_t R = place_static(l.vars, order, &off);
        ++r.candidates;
        if (R > l.static_bytes) continue;  // padding grew: would change occupancy
        const uint32_t boundary = private_boundary(opt.threshold, R);
        VarMask shared = 0;
        for (uint32_t i = 0; i < l.vars.size(); ++i)
          if (l.vars[i].dynamic || off[i] + l.vars[i].bytes > boundary) shared |= VarMask(1) << i;
        auto it = memo.find(shared);
        double cost = it != memo.end() ? it->second : (memo[shared] = r.range_cost(shared));
        if (cost < best) {
          best = cost;
          best_order = order;
          r.cost_after = cost;
          r.shared_after = shared;
          r.static_bytes_after = R;
          r.boundary_after = boundary;
          for (uint32_t i = 0; i < l.vars.size(); ++i) r.vars[i].offset_after = off[i];
        }
      }
      if (best_order.empty()) r.note = "the declared order is already best";
    }
    for (uint32_t i = 0; i < l.vars.size(); ++i) r.vars[i].shared = r.shared_after >> i & 1;

    if (!best_order.empty()) {
      // Permute the contents of the declaration statements of each scope group
      // (each keeps its slot, so no line moves).
      for (int scope = 0; scope <= 1; ++scope) {
        const auto& decls = scope == 0 ? mt.shared_decls : ft.shared_decls;
        std::vector<uint32_t> slots_vars;  // variables in their current order
        for (uint32_t i = 0; i < l.vars.size(); ++i)
          if (l.vars[i].scope == scope && !l.vars[i].dynamic) slots_vars.push_back(i);
        std::vector<uint32_t> new_vars;
        for (uint32_t i : best_order)
          if (l.vars[i].scope == scope && !l.vars[i].dynamic) new_vars.push_back(i);
        if (slots_vars == new_vars) continue;
        auto span_of = [&](uint32_t var) -> const TextSpan& {
          for (auto& d : decls)
            if (d.first == l.vars[var].name) return d.second;
          throw InputError(Place{origin, int(l.vars[var].line), l.vars[var].name},
                           "cannot locate the declaration of '" + l.vars[var].name + "'");
        };
        for (size_t k = 0; k < slots_vars.size(); ++k) {
          if (slots_vars[k] == new_vars[k]) continue;
          const TextSpan& slot = span_of(slots_vars[k]);
          const TextSpan& src = span_of(new_vars[k]);
          edits.push_back({slot.begin, slot.end - slot.begin, ptx.substr(src.begin, src.end - src.begin)});
        }
      }
      r.reordered = true;
    }
    if (reports) reports->push_back(std::move(r));
  }
  return apply_edits(ptx, edits);
}

}  // namespace passes
}  // namespace warptlm
