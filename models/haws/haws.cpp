#include "haws/haws.hpp"

#include <deque>

#include "common/errors.hpp"
#include "common/input_register.hpp"
#include "isa/module.hpp"
#include "sm/sm.hpp"

namespace warptlm {

struct HawsCounters {
  Counter *episodes, *hint_issues, *hint_loads, *skips, *copies, *divergent_ends, *rcu_full;
};

namespace {

// The register a pass slot names in the kernel: data slot s < nregs is register s, predicate slot
// nregs + p is predicate p; spare i of the data (predicate) file is register base_regs + i (predicate
// base_preds + i).
struct SlotMap {
  uint32_t f_nregs, f_npreds, base_regs, base_preds, depth;
  bool pred(uint32_t slot) const {
    if (slot < f_nregs) return false;
    if (slot < f_nregs + f_npreds) return true;
    return slot >= f_nregs + f_npreds + depth;
  }
  uint32_t index(uint32_t slot) const {  // register or predicate number
    if (slot < f_nregs) return slot;
    if (slot < f_nregs + f_npreds) return slot - f_nregs;
    const uint32_t spare = slot - f_nregs - f_npreds;
    return spare < depth ? base_regs + spare : base_preds + (spare - depth);
  }
};

// The slot hint `h` reads `slot` from (a spare an earlier hint renamed it into), or -1: the slot itself.
int64_t renamed_source(const passes::HawsHint& h, uint32_t slot) {
  for (auto& s : h.sources)
    if (s.first == slot) return int64_t(s.second);
  return -1;
}

// The guard predicate as hint `h` reads it.
int32_t renamed_guard(const Instr& in, const passes::HawsHint& h, const SlotMap& m) {
  if (in.guard < 0) return in.guard;
  const int64_t s = renamed_source(h, m.f_nregs + uint32_t(in.guard));
  return s >= 0 ? int32_t(m.index(uint32_t(s))) : in.guard;
}

// `in` with each register the hint renames replaced: its sources by `sources` (slot -> slot), its renamed
// destination by the spare.
Instr renamed_code(const Instr& in, const passes::HawsHint& h, const SlotMap& m, uint32_t kernel_regs, bool rename_dst) {
  Instr c = in;
  auto src = [&](uint32_t slot) { return renamed_source(h, slot); };
  const unsigned ndst = destination_operands(c);
  c.guard = renamed_guard(in, h, m);
  for (unsigned i = 0; i < c.nops; ++i) {
    Operand& o = c.ops[i];
    const bool dst = i < ndst;
    auto map_reg = [&](uint32_t& r, bool is_pred) {
      const uint32_t slot = is_pred ? m.f_nregs + r : r;
      if (dst) {
        if (rename_dst && h.renamed && slot == h.dst) r = m.index(h.renamed_to);
        return;
      }
      const int64_t s = src(slot);
      if (s >= 0) r = m.index(uint32_t(s));
    };
    switch (o.kind) {
      case OpKind::Reg: map_reg(o.reg, false); break;
      case OpKind::Pred: map_reg(o.reg, true); break;
      case OpKind::Addr:  // the address base is read
        if (o.addr_has_reg) {
          const int64_t s = src(o.reg);
          if (s >= 0) o.reg = m.index(uint32_t(s));
        }
        break;
      case OpKind::Vec:
        for (unsigned e = 0; e < o.nvec; ++e)
          if (o.vec[e] != UINT32_MAX) map_reg(o.vec[e], false);
        break;
      default: break;
    }
  }
  collect_dependences(c, kernel_regs);
  return c;
}

// mov of the spare into the destination the hint renamed: what replay issues in the instruction's place.
Instr copy_code(const Instr& in, const passes::HawsHint& h, const SlotMap& m, uint32_t kernel_regs) {
  Instr c;
  c.op = Op::Mov;
  const bool pred = m.pred(h.dst);
  c.type = pred ? DType::Pred : DType::B64;
  c.nops = 2;
  c.ops[0].kind = c.ops[1].kind = pred ? OpKind::Pred : OpKind::Reg;
  c.ops[0].reg = m.index(h.dst);
  c.ops[1].reg = m.index(h.renamed_to);
  // A guarded instruction wrote its spare only in its true lanes: the copy takes the same guard (read where
  // the hint read it), so the false lanes keep the destination's value, as in program order.
  c.guard = renamed_guard(in, h, m);
  c.guard_neg = in.guard_neg;
  c.line = in.line;
  c.pc = in.pc;
  c.text = "mov (HAWS replay of line " + std::to_string(in.line) + ")";
  std::string why;
  c.fn = select_handler(c, why);
  if (!c.fn) throw RunError("HAWS: no handler for the replay copy of line " + std::to_string(in.line) + ": " + why);
  collect_dependences(c, kernel_regs);
  return c;
}

}  // namespace

// ------------------------------------------------------------------------------------------ in one SM

// The mechanism's part in one SM: per warp slot the hint-mode state (sec. 3.7-3.8).
class HawsSm : public SmMechanism {
 public:
  HawsSm(const HawsParams& p, HawsCounters& c, uint32_t slots) : p_(p), c_(c), warps_(slots) {}
  const char* name() const override { return "haws"; }
  bool issues_out_of_order() const override { return true; }
  void begin_launch(const HawsVersion* v) {
    v_ = v;
    set_active(v != nullptr);
    for (auto& w : warps_) w = WarpHint{};
  }

  void warp_started(const WarpSlot& w) override { warps_[w.slot] = WarpHint{}; }
  void warp_exited(const WarpSlot& w) override { warps_[w.slot] = WarpHint{}; }

  const Instr* instead_of_stall(const WarpSlot& w, bool idle) override {
    if (p_.all_stalled && !idle) return nullptr;
    WarpHint& h = warps_[w.slot];
    const Warp& f = *w.fw;
    if (!h.chain) {
      if (!h.rcu.empty() || f.stack.size() != 1) return nullptr;  // the last episode not replayed yet; diverged
      auto it = v_->chains.find(f.pc());
      if (it == v_->chains.end() || it->second.hints.empty()) return nullptr;
      h.chain = &it->second;
      h.cursor = 0;
      h.issued = 0;
    }
    if (h.cursor < 0) return nullptr;
    if (h.issued >= p_.rcu_depth) {
      ++*c_.rcu_full;
      h.cursor = -1;
      return nullptr;
    }
    const HawsHintCode& hc = h.chain->hints[size_t(h.cursor)];
    if (hc.hint.branch) {  // its direction on the duplicated stack's top entry; divergence ends the episode
      const uint32_t lanes = branch_lanes(f, hc.code), active = f.stack.back().mask;
      if (lanes != 0 && lanes != active) {
        ++*c_.divergent_ends;
        h.cursor = -1;
        return nullptr;
      }
      h.taken = hc.hint.conditional ? lanes == active : true;
    }
    return &hc.code;
  }

  void issued_out_of_order(const WarpSlot& w, const Instr&) override {
    WarpHint& h = warps_[w.slot];
    const HawsHintCode& hc = h.chain->hints[size_t(h.cursor)];
    h.rcu.push_back(Entry{hc.hint.pc, hc.hint.branch, hc.hint.renamed && !p_.fault_no_rename ? &hc.copy : nullptr});
    if (h.issued++ == 0) ++*c_.episodes;  // an episode counts once its first hint issues
    ++*c_.hint_issues;
    if (hc.code.op == Op::Ld || hc.code.op == Op::Ldu) ++*c_.hint_loads;
    h.cursor = hc.hint.branch && hc.hint.conditional ? (h.taken ? hc.hint.taken : hc.hint.next) : hc.hint.next;
  }

  // Back in program order (the warp issued an in-order instruction): the episode is over; a branch the RCU
  // holds is executed again here and leaves it.
  void at_issue(const WarpSlot& w, const Instr& in, uint32_t) override {
    if (w.issue_kind != WarpSlot::IssueKind::InOrder) return;
    WarpHint& h = warps_[w.slot];
    h.chain = nullptr;
    h.cursor = -1;
    if (!h.rcu.empty() && h.rcu.front().pc == in.pc && h.rcu.front().control) h.rcu.pop_front();
  }

  Replay replay(const WarpSlot& w, const Instr& in, const Instr** with) override {
    const WarpHint& h = warps_[w.slot];
    if (h.rcu.empty() || h.rcu.front().pc != in.pc || h.rcu.front().control) return Replay::Run;
    if (h.rcu.front().copy) {
      *with = h.rcu.front().copy;
      return Replay::Replace;
    }
    return Replay::Skip;
  }

  void replayed(const WarpSlot& w) override {
    WarpHint& h = warps_[w.slot];
    if (h.rcu.empty()) return;
    ++*(h.rcu.front().copy ? c_.copies : c_.skips);
    h.rcu.pop_front();
  }

 private:
  struct Entry {
    uint32_t pc;
    bool control;
    const Instr* copy;  // renamed: the copy replay issues; else null (skip)
  };
  struct WarpHint {
    const HawsChain* chain = nullptr;  // the episode's chain, null outside hint mode
    int32_t cursor = -1;               // its next hint
    uint32_t issued = 0;
    bool taken = false;
    std::deque<Entry> rcu;             // the RCU: hints run, in order, waiting for the warp to reach them
  };
  HawsParams p_;
  HawsCounters& c_;
  std::vector<WarpHint> warps_;
  const HawsVersion* v_ = nullptr;
};

// ------------------------------------------------------------------------------------------ the mechanism

uint64_t haws_storage_bits(const HawsParams& p, uint32_t warps) {
  const uint64_t per_warp = uint64_t(p.rcu_depth) * p.rcu_entry_bits + uint64_t(p.stack_entries) * (p.mask_bits + 64) +
                            uint64_t(p.rename_entries) * p.rename_entry_bits;
  return per_warp * warps;
}

void register_haws() { register_mechanism<HawsMechanism>("haws", "haws"); }

void HawsMechanism::declare(ParamTable& t) {
  t.bool_param("haws.enabled", false,
               "hint-assisted warp scheduling (seed 004 ch. 5): a warp whose next instruction waits on a long-latency "
               "load runs the compiler's hint chain for it out of order");
  t.enum_param("haws.trigger", "warp", {"warp", "all"},
               "when a warp enters hint mode: as soon as its next instruction waits on a long-latency load (the "
               "scoreboard flag, sec. 5.3.3), or only in a cycle no warp of its scheduler can issue in order (\"when all "
               "warps are stalled\")");
  t.int_param("haws.rcu_depth", 8, 1, 64, "result collection unit entries per warp: hints one episode runs (sec. 3.7)");
  t.int_param("haws.rcu_entry_bits", 28, 1, 256, "bits of an RCU entry: offset 9, dst 8, renamed 8, ready, control, valid");
  t.int_param("haws.stack_entries", 8, 1, 64, "entries of the duplicated SIMT stack, for the storage cost");
  t.int_param("haws.mask_bits", 32, 1, 128, "active-mask bits of a SIMT stack entry (the thesis's AMD wavefront: 64)");
  t.int_param("haws.rename_entries", 16, 1, 256, "renaming table entries per warp (the thesis's 8 scalar + 8 vector)");
  t.int_param("haws.rename_entry_bits", 16, 1, 256, "bits of a renaming table entry (8-bit original, 8-bit renamed)");
}

bool HawsMechanism::wanted(const Config& c) { return c.get_bool("haws.enabled"); }

HawsParams HawsMechanism::params_from(const Config& c) {
  auto fail = [&c](const char* key, const std::string& why) {
    throw InputError(Place{"", 0, key}, why + " (set at " + c.origin(key) + ")");
  };
  HawsParams p;
  p.all_stalled = c.get_string("haws.trigger") == "all";
  p.rcu_depth = uint32_t(c.get_int("haws.rcu_depth"));
  p.rcu_entry_bits = uint32_t(c.get_int("haws.rcu_entry_bits"));
  p.stack_entries = uint32_t(c.get_int("haws.stack_entries"));
  p.mask_bits = uint32_t(c.get_int("haws.mask_bits"));
  p.rename_entries = uint32_t(c.get_int("haws.rename_entries"));
  p.rename_entry_bits = uint32_t(c.get_int("haws.rename_entry_bits"));
  p.fault_no_rename = test_fault("haws_no_rename");
  if (c.get_bool("haws.enabled")) {
    if (c.get_bool("ss.compiler_passes"))
      fail("ss.compiler_passes", "HAWS with scratchpad sharing's compiler passes: each runs its own version of the "
                                 "kernel's code, and one launch runs one");
    if (c.get_string("sm.pipeline.model") == "inorder")
      fail("sm.pipeline.model", "HAWS issues out of order from the decoupled issue stage (sm.pipeline.model: decoupled)");
    if (c.get_bool("spu.enabled"))
      fail("spu.enabled", "HAWS with the SPU mesh: the mesh's kernels wait on CB accesses, not long-latency loads");
  }
  return p;
}

HawsMechanism::HawsMechanism(const Config& c, StatsRegistry& stats) : p_(params_from(c)), c_(std::make_unique<HawsCounters>()) {
  StatGroup g(stats, "haws", "haws");
  c_->episodes = &g.counter("episodes", "times a warp ran hint mode (its next instruction a stall point waiting on a load; one hint or more issued)");
  c_->hint_issues = &g.counter("hint_issues", "instructions issued in hint mode");
  c_->hint_loads = &g.counter("hint_loads", "of those, loads");
  c_->skips = &g.counter("replay_skips", "hint-mode instructions skipped when the warp came back to them (result in place)");
  c_->copies = &g.counter("replay_copies", "hint-mode instructions replaced by a copy of their renamed result");
  c_->divergent_ends = &g.counter("divergent_ends", "episodes ended at a hint-mode branch that diverged");
  c_->rcu_full = &g.counter("rcu_full", "episodes ended with the RCU full");
  Counter* ep = c_->episodes;
  Counter* hi = c_->hint_issues;
  stats.derived("haws.instructions_per_episode", [ep, hi] { return ep->value ? double(hi->value) / double(ep->value) : 0.0; },
                "hint-mode instructions per episode (the thesis's instructions per switch, Fig. 5.13)");
  const double bits = double(haws_storage_bits(p_, uint32_t(c.get_int("sm.max_warps"))));
  stats.derived("cost.haws.bits", [bits] { return bits; },
                "storage per SM: per warp the RCU, the duplicated SIMT stack and the renaming table (sec. 3.10)");
}

HawsMechanism::~HawsMechanism() = default;

void HawsMechanism::build_in_sm(SmSite& site) {
  auto u = std::make_unique<HawsSm>(p_, *c_, site.sm.params().max_warps);
  units_.push_back(u.get());
  site.sm.add_mechanism(std::move(u));
}

void HawsMechanism::module_loaded(const std::string& ptx, const std::string& origin, GlobalMemory&, const Module& as_written) {
  passes::HawsOptions o;
  o.rcu_depth = p_.rcu_depth;
  for (auto& r : passes::haws_hints(ptx, origin, o))
    if (const KernelInfo* k = as_written.find_kernel(r.kernel)) reports_[k] = std::move(r);
}

HawsVersion* HawsMechanism::version_of(const KernelInfo& k) {
  auto have = versions_.find(&k);
  if (have != versions_.end()) return have->second.get();
  auto found = reports_.find(&k);
  if (found == reports_.end()) return nullptr;
  const passes::HawsKernelReport* r = &found->second;
  auto v = std::make_unique<HawsVersion>();
  v->code = std::make_unique<KernelInfo>(k);
  KernelInfo& code = *v->code;
  code.use_declared_slots();  // the hints rename registers by their declarations
  // The spares after the kernel's own registers and predicates (the entry's slots are the kernel's first).
  SlotMap m{r->num_regs, r->num_preds, k.num_regs, k.num_preds, p_.rcu_depth};
  code.num_regs = k.num_regs + r->spare_regs;
  code.num_preds = k.num_preds + r->spare_preds;
  for (Instr& in : code.prog) collect_dependences(in, code.num_regs);  // predicate slots follow the registers
  for (const passes::HawsStallPoint& s : r->stall_points) {
    HawsChain ch;
    ch.pc = s.pc;
    for (const passes::HawsHint& h : s.hints) {
      if (h.pc >= k.prog.size()) throw RunError("HAWS: a hint of kernel '" + k.name + "' names pc " + std::to_string(h.pc) +
                                                ", past its " + std::to_string(k.prog.size()) + " instructions");
      HawsHintCode hc;
      hc.hint = h;
      const Instr& orig = k.declared_instr(h.pc);
      hc.code = renamed_code(orig, h, m, code.num_regs, !p_.fault_no_rename);
      if (h.renamed) hc.copy = copy_code(orig, h, m, code.num_regs);
      ch.hints.push_back(std::move(hc));
    }
    v->chains.emplace(s.pc, std::move(ch));
  }
  HawsVersion* out = v.get();
  versions_.emplace(&k, std::move(v));
  return out;
}

const KernelInfo* HawsMechanism::plan_launch(const LaunchPlanRequest& r) {
  HawsVersion* v = version_of(r.kernel);
  for (HawsSm* u : units_) u->begin_launch(v);
  return v ? v->code.get() : nullptr;
}

}  // namespace warptlm
