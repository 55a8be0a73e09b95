// Linking: each kernel becomes one flat program. Called .func bodies are
// appended with their own register, local and parameter-frame ranges (calls
// are not recursive, so every activation has a fixed frame), symbols become
// addresses, and every instruction gets its handler and reconvergence
// point (its opcode class and functional unit are the SM's to decide:
// op_class_of and unit_of in models/sm/sm_params.hpp).
#include "isa/module.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <unordered_map>

#include "common/errors.hpp"
#include "isa/cfg.hpp"
#include "isa/memory.hpp"
#include "isa/ptx_parser.hpp"
#include "isa/simt.hpp"
#include "isa/register_storage.hpp"
#include "isa/verify.hpp"

namespace warptlm {

namespace {
const std::unordered_map<std::string, SReg>& sreg_table() {
  static const std::unordered_map<std::string, SReg> t = {
      {"%tid.x", SReg::TidX}, {"%tid.y", SReg::TidY}, {"%tid.z", SReg::TidZ},
      {"%ntid.x", SReg::NtidX}, {"%ntid.y", SReg::NtidY}, {"%ntid.z", SReg::NtidZ},
      {"%ctaid.x", SReg::CtaidX}, {"%ctaid.y", SReg::CtaidY}, {"%ctaid.z", SReg::CtaidZ},
      {"%nctaid.x", SReg::NctaidX}, {"%nctaid.y", SReg::NctaidY}, {"%nctaid.z", SReg::NctaidZ},
      {"%laneid", SReg::LaneId}, {"%warpid", SReg::WarpId}, {"%nwarpid", SReg::NWarpId},
      {"%smid", SReg::SmId}, {"%nsmid", SReg::NSmId}, {"%gridid", SReg::GridId},
      {"%lanemask_eq", SReg::LanemaskEq}, {"%lanemask_le", SReg::LanemaskLe}, {"%lanemask_lt", SReg::LanemaskLt},
      {"%lanemask_ge", SReg::LanemaskGe}, {"%lanemask_gt", SReg::LanemaskGt},
      {"%clock", SReg::Clock}, {"%clock64", SReg::Clock64}, {"%globaltimer", SReg::GlobalTimer},
      {"%regiu", SReg::MeshIu}, {"%regviriu", SReg::MeshVirIu}, {"%regiudir", SReg::MeshIuDir},
      {"%regiuid", SReg::MeshIuId}, {"%regcpassx", SReg::MeshCPassX}, {"%regpassx", SReg::MeshPassX},
      {"%regcpassy", SReg::MeshCPassY}, {"%regspillnb", SReg::MeshSpillNb}, {"%regcspillnb", SReg::MeshCSpillNb},
      {"%restart", SReg::MeshRestart}, {"%reglast", SReg::MeshLast}};
  return t;
}
}  // namespace

bool parse_sreg(const std::string& n, SReg& out) {
  const auto& t = sreg_table();
  auto it = t.find(n);
  if (it == t.end()) return false;
  out = it->second;
  return true;
}

const char* sreg_name(SReg s) {
  for (const auto& e : sreg_table())
    if (e.second == s) return e.first.c_str();
  return "%?";
}

bool is_reserved_sreg(const std::string& n) {
  static const char* const names[] = {
      "%dynamic_smem_size", "%total_smem_size", "%aggr_smem_size", "%reserved_smem_offset_begin",
      "%reserved_smem_offset_end", "%reserved_smem_offset_cap", "%reserved_smem_offset_0", "%reserved_smem_offset_1",
      "%cluster_ctarank", "%cluster_nctarank", "%is_explicit_cluster", "%current_graph_exec", "%globaltimer_lo",
      "%globaltimer_hi", "%clock_hi"};
  for (const char* x : names)
    if (n == x) return true;
  // families with a numeric or .x/.y/.z suffix
  auto numbered = [&](const std::string& stem, unsigned count, const std::string& tail) {
    if (n.size() <= stem.size() + tail.size() || n.compare(0, stem.size(), stem) != 0 ||
        n.compare(n.size() - tail.size(), tail.size(), tail) != 0)
      return false;
    const std::string d = n.substr(stem.size(), n.size() - stem.size() - tail.size());
    if (d.empty() || d.size() > 2 || (d.size() == 2 && d[0] == '0')) return false;
    for (char c : d)
      if (c < '0' || c > '9') return false;
    return unsigned(std::stoul(d)) < count;
  };
  if (numbered("%envreg", 32, "") || numbered("%pm", 8, "") || numbered("%pm", 8, "_64")) return true;
  for (const char* stem : {"%clusterid", "%nclusterid", "%cluster_ctaid", "%cluster_nctaid"})
    for (const char* axis : {".x", ".y", ".z"})
      if (n == std::string(stem) + axis) return true;
  return false;
}

namespace {

// Registers a thread needs: the most 32-bit words live at once (backward
// liveness over the CFG), an estimate of what register allocation would
// assign; PTX's virtual register counts are far larger.
uint32_t max_live_words(const FuncIR& f) {
  const uint32_t n = uint32_t(f.body.size());
  if (n == 0 || f.nregs == 0) return 0;
  std::vector<Instr> body = f.body;
  for (auto& in : body) collect_dependences(in, f.nregs);
  Cfg g = build_cfg(body);
  const size_t words = (f.nregs + 63) / 64;
  using Bits = std::vector<uint64_t>;
  auto set = [](Bits& b, uint32_t r) { b[r >> 6] |= uint64_t(1) << (r & 63); };
  auto clr = [](Bits& b, uint32_t r) { b[r >> 6] &= ~(uint64_t(1) << (r & 63)); };
  // live-in of each block, iterated to a fixed point
  std::vector<Bits> live_in(g.blocks.size(), Bits(words, 0));
  auto transfer = [&](uint32_t b, Bits live) {
    for (uint32_t pc = g.blocks[b].last + 1; pc-- > g.blocks[b].first;) {
      const Instr& in = body[pc];
      for (unsigned i = 0; i < in.nwrites; ++i) if (in.writes[i] < f.nregs) clr(live, in.writes[i]);
      for (unsigned i = 0; i < in.nreads; ++i) if (in.reads[i] < f.nregs) set(live, in.reads[i]);
    }
    return live;
  };
  auto live_out = [&](uint32_t b) {
    Bits out(words, 0);
    for (uint32_t s : g.blocks[b].succ)
      if (s < g.blocks.size())
        for (size_t w = 0; w < words; ++w) out[w] |= live_in[s][w];
    return out;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t b = uint32_t(g.blocks.size()); b-- > 0;) {
      Bits in = transfer(b, live_out(b));
      if (in != live_in[b]) { live_in[b] = std::move(in); changed = true; }
    }
  }
  uint32_t best = 0;
  for (uint32_t b = 0; b < g.blocks.size(); ++b) {
    Bits live = live_out(b);
    for (uint32_t pc = g.blocks[b].last + 1; pc-- > g.blocks[b].first;) {
      const Instr& in = body[pc];
      for (unsigned i = 0; i < in.nwrites; ++i) if (in.writes[i] < f.nregs) clr(live, in.writes[i]);
      for (unsigned i = 0; i < in.nreads; ++i) if (in.reads[i] < f.nregs) set(live, in.reads[i]);
      uint32_t cnt = 0;
      for (uint32_t r = 0; r < f.nregs; ++r)
        if (live[r >> 6] >> (r & 63) & 1) cnt += r < f.reg_words.size() ? f.reg_words[r] : 1;
      best = std::max(best, cnt);
    }
  }
  return best;
}

struct Linker {
  const ParsedModule& pm;
  const std::string& origin;
  const std::unordered_map<std::string, uint64_t>& global_syms;
  std::unordered_map<std::string, const FuncIR*> funcs;

  [[noreturn]] void fail(uint32_t line, const std::string& key, const std::string& msg) const {
    throw InputError(Place{origin, int(line), key}, msg);
  }

  // Control cannot run past a function's last instruction: that must be an
  // unguarded ret, exit, bra or trap (an empty body has none).
  void check_no_fall_through(const FuncIR& f) const {
    if (f.body.empty())
      fail(f.line, f.name, "'" + f.name + "' has no instructions: a thread would run past its end");
    const Instr& last = f.body.back();
    const bool ends = last.guard < 0 && (last.op == Op::Ret || last.op == Op::Exit || last.op == Op::Bra || last.op == Op::Trap);
    if (!ends)
      fail(last.line, op_name(last.op), "a thread can run past the end of '" + f.name + "': its last instruction `" +
                                            last.text + "` is not an unguarded ret, exit, bra or trap");
  }

  std::unique_ptr<KernelInfo> link(const FuncIR& entry) {
    static uint32_t next_uid = 0;
    auto k = std::make_unique<KernelInfo>();
    k->uid = ++next_uid;
    k->name = entry.name;
    k->origin = origin;
    k->decl_line = entry.line;
    k->params = entry.params;
    for (auto& p : entry.params) k->param_bytes = std::max(k->param_bytes, p.offset + p.size);
    k->reqntid = entry.reqntid;
    k->maxntid = entry.maxntid;

    // Functions reachable from the entry, in call order; recursion is refused.
    std::vector<const FuncIR*> order;
    std::unordered_map<const FuncIR*, int> state;  // 1 visiting, 2 done
    std::function<void(const FuncIR*)> visit = [&](const FuncIR* f) {
      if (f->refusal) throw *f->refusal;  // an instruction of it the front end refused
      state[f] = 1;
      order.push_back(f);
      for (auto& c : f->calls) {
        auto it = funcs.find(c.callee);
        if (it == funcs.end() || !it->second->has_body)
          fail(f->body[c.pc].line, "call", "call to undefined function '" + c.callee + "'");
        if (it->second->is_entry) fail(f->body[c.pc].line, "call", "call to kernel entry '" + c.callee + "'");
        int s = state[it->second];
        if (s == 1) fail(f->body[c.pc].line, "call", "recursive call to '" + c.callee + "' is not supported");
        if (s == 0) visit(it->second);
      }
      state[f] = 2;
    };
    visit(&entry);

    struct Bases { uint32_t pc, reg, pred, local, frame; };
    std::unordered_map<const FuncIR*, Bases> base;
    uint32_t pc = 0, reg = 0, pred = 0, local = 0, frame = 0;
    for (const FuncIR* f : order) {
      local = (local + 15) & ~15u;
      frame = (frame + 15) & ~15u;
      base[f] = Bases{pc, reg, pred, local, frame};
      pc += uint32_t(f->body.size());
      reg += f->nregs;
      pred += f->npreds;
      local += f->local_bytes;
      frame += f->frame_bytes;
      k->declared_regs += f->regs32;
      k->regs_per_thread = std::max(k->regs_per_thread, max_live_words(*f));
    }
    k->num_regs = reg;
    k->num_preds = pred;
    k->local_bytes = local;
    k->frame_bytes = frame;
    // + 2 for the address and loop bookkeeping allocation keeps beside the live values
    k->regs_per_thread = std::min<uint32_t>(k->regs_per_thread + 2, 255);

    // Shared memory layout: module-scope variables, then each function's, then
    // dynamic shared memory (all extern declarations alias its start).
    std::unordered_map<std::string, uint32_t> shared_syms;
    uint32_t smem = 0;
    std::vector<const VarDecl*> dynamic;
    auto place = [&](const VarDecl& v) {
      if (v.dynamic) { dynamic.push_back(&v); return; }
      const uint64_t at = (uint64_t(smem) + v.align - 1) / v.align * v.align;
      if (at + v.bytes() > kMaxDeclBytes)
        fail(v.line, v.name, "the .shared variables of '" + entry.name + "' exceed " + std::to_string(kMaxDeclBytes) + " bytes");
      smem = uint32_t(at);
      shared_syms[v.name] = smem;
      smem += v.bytes();
    };
    for (auto& v : pm.vars)
      if (v.space == Space::Shared) place(v);
    for (const FuncIR* f : order)
      for (auto& v : f->shared) place(v);
    uint32_t dyn = (smem + 15) & ~15u;
    for (auto* v : dynamic) shared_syms[v->name] = dyn;
    k->static_smem = smem;

    std::unordered_map<uint64_t, size_t> imm_index;
    for (const FuncIR* f : order) {
      const Bases bs = base[f];
      check_no_fall_through(*f);
      Cfg cfg = build_cfg(f->body);
      for (uint32_t lpc = 0; lpc < f->body.size(); ++lpc) {
        Instr in = f->body[lpc];
        in.pc = bs.pc + lpc;
        if (in.guard >= 0) in.guard += int32_t(bs.pred);
        for (unsigned i = 0; i < in.nops; ++i) {
          Operand& o = in.ops[i];
          switch (o.kind) {
            case OpKind::Reg: o.reg += bs.reg; break;
            case OpKind::Pred: o.reg += bs.pred; break;
            case OpKind::Vec:
              for (unsigned e = 0; e < o.nvec; ++e)
                if (o.vec[e] != UINT32_MAX) o.vec[e] += bs.reg;
              break;
            case OpKind::Addr:
              if (o.addr_has_reg) o.reg += bs.reg;
              resolve_symbol(o, in, shared_syms, bs.local);
              if (in.space == Space::ParamFunc) o.imm += bs.frame;
              break;
            case OpKind::Imm:
              if (o.name == "\x01local") { o.imm += bs.local; o.name.clear(); }
              break;
            case OpKind::Label:
              if (in.op == Op::Bra) { o.imm += bs.pc; in.target = uint32_t(o.imm); }
              else {
                o.kind = OpKind::Imm;
                resolve_symbol(o, in, shared_syms, bs.local);
              }
              break;
            default: break;
          }
        }
        if (in.op == Op::Bra || in.op == Op::Ret) {
          uint32_t r = reconvergence_pc(cfg, lpc);
          in.reconv = (r == kFuncExit || r == kNoPc) ? r : r + bs.pc;
        }
        if (in.op == Op::Ret && f->is_entry) in.op = Op::Exit;  // a kernel's ret ends the thread
        if (in.op == Op::Ret) in.target = kFuncExit;
        if (in.op == Op::Call) link_call(*k, in, *f, lpc, bs.frame, base);
        // Immediates: one pooled 32-lane broadcast per distinct value.
        for (unsigned i = 0; i < in.nops; ++i) {
          Operand& o = in.ops[i];
          if (o.kind != OpKind::Imm) continue;
          auto it = imm_index.find(o.imm);
          if (it == imm_index.end()) {
            std::array<uint64_t, 32> a;
            a.fill(o.imm);
            k->imm_pool.push_back(a);
            it = imm_index.emplace(o.imm, k->imm_pool.size() - 1).first;
          }
          o.immv = k->imm_pool[it->second].data();
        }
        collect_dependences(in, k->num_regs);
        in.is_control = in.op == Op::Bra || in.op == Op::Call || in.op == Op::Ret || in.op == Op::Exit ||
                        in.op == Op::Bar || in.op == Op::BarRed || in.op == Op::BlockSync || in.op == Op::Trap;
        in.is_mem = in.op == Op::Ld || in.op == Op::Ldu || in.op == Op::St || in.op == Op::Atom || in.op == Op::Red;
        std::string why;
        if (in.op == Op::Bra && in.target >= bs.pc + f->body.size())
          fail(in.line, op_name(in.op), "branch to a label after the last instruction of '" + f->name +
                                            "': a thread would run past its end");
        if (!verify_operands(in, why)) fail(in.line, op_name(in.op), "'" + in.text + "': " + why);
        in.fn = select_handler(in, why);
        if (!in.fn) fail(in.line, op_name(in.op), "unsupported instruction '" + in.text + "': " + why);
        k->prog.push_back(std::move(in));
      }
      for (auto& s : f->sregs) k->sreg_slots.push_back({s.first + bs.reg, s.second});
    }
    share_register_storage(*k);
    return k;
  }

  void resolve_symbol(Operand& o, const Instr& in, const std::unordered_map<std::string, uint32_t>& shared_syms,
                      uint32_t local_base) {
    if (o.name.empty()) return;
    if (o.name == "\x01local") { o.imm += local_base; o.name.clear(); return; }
    auto sh = shared_syms.find(o.name);
    if (sh != shared_syms.end()) { o.imm += sh->second; o.name.clear(); return; }
    auto gl = global_syms.find(o.name);
    if (gl != global_syms.end()) { o.imm += gl->second; o.name.clear(); return; }
    if (funcs.count(o.name)) fail(in.line, op_name(in.op), "function address '" + o.name + "' used as data is not supported");
    fail(in.line, op_name(in.op), "undefined symbol '" + o.name + "'");
  }

  template <class BaseMap>
  void link_call(KernelInfo& k, Instr& in, const FuncIR& caller, uint32_t lpc, uint32_t caller_frame, BaseMap& base) {
    const PendingCall* pc = nullptr;
    for (auto& c : caller.calls)
      if (c.pc == lpc) pc = &c;
    const FuncIR* callee = funcs.at(pc->callee);
    auto& cb = base[callee];
    CallSite cs;
    cs.callee_pc = cb.pc;
    if (pc->args.size() != callee->params.size())
      fail(in.line, "call", "call to '" + callee->name + "' passes " + std::to_string(pc->args.size()) +
                                " arguments; it takes " + std::to_string(callee->params.size()));
    if (pc->results.size() > callee->results.size())
      fail(in.line, "call", "call to '" + callee->name + "' expects more results than it returns");
    for (size_t i = 0; i < pc->args.size(); ++i)
      cs.args.push_back(FrameCopy{caller_frame + pc->args[i].first, cb.frame + callee->params[i].offset,
                                  std::min(pc->args[i].second, callee->params[i].size)});
    for (size_t i = 0; i < pc->results.size(); ++i)
      cs.results.push_back(FrameCopy{cb.frame + callee->results[i].offset, caller_frame + pc->results[i].first,
                                     std::min(pc->results[i].second, callee->results[i].size)});
    in.target = cb.pc;
    in.call_site = uint32_t(k.call_sites.size());
    k.call_sites.push_back(std::move(cs));
  }
};

}  // namespace

Module::Module(const std::string& text, const std::string& origin, GlobalMemory& mem, const Module* globals_of,
               PtxDialect dialect)
    : origin_(origin) {
  ParsedModule pm = parse_ptx(text, origin, dialect);
  for (auto& v : pm.vars) {
    if (v.space != Space::Global && v.space != Space::Const) continue;
    if (globals_of) {
      auto it = globals_of->global_syms_.find(v.name);
      if (it == globals_of->global_syms_.end())
        throw InputError(Place{origin, int(v.line), v.name}, "module-scope variable '" + v.name + "' is not in the module it shares variables with");
      global_syms_[v.name] = it->second;
      global_bytes_[v.name] = v.bytes();
      continue;
    }
    uint64_t bytes = std::max<uint64_t>(v.bytes(), 1);
    uint64_t addr = mem.allocate(bytes);
    if (!v.init.empty()) mem.write(addr, v.init.data(), std::min<uint64_t>(bytes, v.init.size()));
    global_syms_[v.name] = addr;
    global_bytes_[v.name] = v.bytes();
  }
  Linker lk{pm, origin_, global_syms_, {}};
  for (auto& f : pm.funcs) {
    if (lk.funcs.count(f.name) && lk.funcs[f.name]->has_body && f.has_body)
      throw InputError(Place{origin, int(f.line), f.name}, "function '" + f.name + "' defined twice");
    if (!lk.funcs.count(f.name) || f.has_body) lk.funcs[f.name] = &f;
  }
  // Each kernel links on its own: one that cannot is refused with its error, the others load. A module
  // with no kernel left is an error at load (the first refusal, in the order of the file).
  const InputError* first = nullptr;
  for (auto& f : pm.funcs) {
    if (!f.is_entry || !f.has_body) continue;
    try {
      kernels_[f.name] = lk.link(f);
    } catch (const InputError& e) {
      auto it = refused_.emplace(f.name, e).first;
      if (!first) first = &it->second;
    }
  }
  if (first && kernels_.empty()) throw *first;
}

Module::~Module() = default;

const KernelInfo* Module::find_kernel(const std::string& name) const {
  auto it = kernels_.find(name);
  return it == kernels_.end() ? nullptr : it->second.get();
}

const InputError* Module::refusal(const std::string& name) const {
  auto it = refused_.find(name);
  return it == refused_.end() ? nullptr : &it->second;
}

bool Module::symbol(const std::string& name, uint64_t& address, uint64_t& bytes) const {
  auto it = global_syms_.find(name);
  if (it == global_syms_.end()) return false;
  address = it->second;
  bytes = global_bytes_.at(name);
  return true;
}

std::vector<std::string> Module::kernel_names() const {
  std::vector<std::string> v;
  for (auto& k : kernels_) v.push_back(k.first);
  return v;
}

}  // namespace warptlm
