#include "isa/cfg.hpp"

#include <algorithm>
#include <functional>

namespace warptlm {

static int32_t branch_target(const Instr& in) {
  for (unsigned k = 0; k < in.nops; ++k)
    if (in.ops[k].kind == OpKind::Label) return int32_t(in.ops[k].imm);
  return -1;
}

Cfg build_cfg(const std::vector<Instr>& body) {
  Cfg g;
  const uint32_t n = uint32_t(body.size());
  std::vector<bool> leader(n + 1, false);
  if (n) leader[0] = true;
  for (uint32_t pc = 0; pc < n; ++pc) {
    const Instr& in = body[pc];
    if (in.op == Op::Bra) {
      int32_t t = branch_target(in);
      if (t >= 0 && uint32_t(t) < n) leader[t] = true;
      leader[pc + 1] = true;
    } else if (in.op == Op::Ret || in.op == Op::Exit || in.op == Op::Trap) {
      leader[pc + 1] = true;
    }
  }
  g.block_of.assign(n, 0);
  for (uint32_t pc = 0; pc < n; ++pc) {
    if (leader[pc]) g.blocks.push_back(BasicBlock{pc, pc, {}});
    g.blocks.back().last = pc;
    g.block_of[pc] = uint32_t(g.blocks.size() - 1);
  }
  const uint32_t B = uint32_t(g.blocks.size());
  g.exit_index = B;
  for (uint32_t b = 0; b < B; ++b) {
    const Instr& in = body[g.blocks[b].last];
    uint32_t next = g.blocks[b].last + 1;
    bool conditional = in.guard >= 0;
    auto add = [&](uint32_t s) {
      if (std::find(g.blocks[b].succ.begin(), g.blocks[b].succ.end(), s) == g.blocks[b].succ.end()) g.blocks[b].succ.push_back(s);
    };
    auto fallthrough = [&] { add(next < n ? g.block_of[next] : B); };
    if (in.op == Op::Bra) {
      int32_t t = branch_target(in);
      add(t >= 0 && uint32_t(t) < n ? g.block_of[t] : B);
      if (conditional) fallthrough();
    } else if (in.op == Op::Ret || in.op == Op::Exit || in.op == Op::Trap) {
      add(B);
      if (conditional) fallthrough();
    } else {
      fallthrough();
    }
  }
  // Post-dominators: dominators of the reverse graph rooted at the exit
  // (Cooper, Harvey, Kennedy iterative algorithm).
  std::vector<std::vector<uint32_t>> rpred(B + 1);  // reverse-graph predecessors = forward successors
  std::vector<std::vector<uint32_t>> rsucc(B + 1);  // reverse-graph successors = forward predecessors
  for (uint32_t b = 0; b < B; ++b)
    for (uint32_t s : g.blocks[b].succ) { rpred[b].push_back(s); rsucc[s].push_back(b); }
  std::vector<int32_t> order_index(B + 1, -1);
  std::vector<uint32_t> postorder;
  {
    std::vector<std::pair<uint32_t, size_t>> st;
    std::vector<bool> seen(B + 1, false);
    st.push_back({B, 0});
    seen[B] = true;
    while (!st.empty()) {
      auto& top = st.back();
      if (top.second < rsucc[top.first].size()) {
        uint32_t s = rsucc[top.first][top.second++];
        if (!seen[s]) { seen[s] = true; st.push_back({s, 0}); }
      } else {
        order_index[top.first] = int32_t(postorder.size());
        postorder.push_back(top.first);
        st.pop_back();
      }
    }
  }
  std::vector<int32_t> idom(B + 1, -1);
  idom[B] = int32_t(B);
  auto intersect = [&](int32_t a, int32_t b) {
    while (a != b) {
      while (order_index[a] < order_index[b]) a = idom[a];
      while (order_index[b] < order_index[a]) b = idom[b];
    }
    return a;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto it = postorder.rbegin(); it != postorder.rend(); ++it) {
      uint32_t b = *it;
      if (b == B) continue;
      int32_t nd = -1;
      for (uint32_t p : rpred[b]) {
        if (idom[p] < 0) continue;
        nd = nd < 0 ? int32_t(p) : intersect(int32_t(p), nd);
      }
      if (nd >= 0 && idom[b] != nd) { idom[b] = nd; changed = true; }
    }
  }
  g.ipdom.assign(B, -1);
  for (uint32_t b = 0; b < B; ++b) g.ipdom[b] = idom[b];
  return g;
}

uint32_t reconvergence_pc(const Cfg& g, uint32_t pc) {
  int32_t p = g.ipdom[g.block_of[pc]];
  if (p < 0) return kNoPc;
  if (uint32_t(p) == g.exit_index) return kFuncExit;
  return g.blocks[p].first;
}

}  // namespace warptlm
