#include "isa/passes/haws_hints.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "common/errors.hpp"
#include "isa/ptx_parser.hpp"

namespace warptlm {
namespace passes {

namespace {

// A set of register slots (data registers, then predicates).
class Slots {
 public:
  explicit Slots(uint32_t n = 0) : w_((n + 63) / 64, 0) {}
  bool has(uint32_t s) const { return s / 64 < w_.size() && (w_[s / 64] >> (s % 64) & 1); }
  void add(uint32_t s) { if (s / 64 < w_.size()) w_[s / 64] |= uint64_t(1) << (s % 64); }
  void drop(uint32_t s) { if (s / 64 < w_.size()) w_[s / 64] &= ~(uint64_t(1) << (s % 64)); }
  bool merge(const Slots& o) {  // union; true when it grew
    bool grew = false;
    for (size_t i = 0; i < w_.size(); ++i) {
      const uint64_t v = w_[i] | o.w_[i];
      grew |= v != w_[i];
      w_[i] = v;
    }
    return grew;
  }
  std::vector<uint32_t> list() const {
    std::vector<uint32_t> out;
    for (size_t i = 0; i < w_.size(); ++i)
      for (uint64_t b = w_[i]; b; b &= b - 1) out.push_back(uint32_t(i * 64 + __builtin_ctzll(b)));
    return out;
  }

 private:
  std::vector<uint64_t> w_;
};

int32_t label_target(const Instr& in) {
  for (unsigned k = 0; k < in.nops; ++k)
    if (in.ops[k].kind == OpKind::Label) return int32_t(in.ops[k].imm);
  return -1;
}

// A load whose data comes from the memory hierarchy (the SM's long-latency scoreboard flag).
bool long_latency_load(const Instr& in) {
  if (in.op != Op::Ld && in.op != Op::Ldu && in.op != Op::Atom) return false;
  return in.space == Space::Global || in.space == Space::Local || in.space == Space::Generic;
}

bool ends_kernel(Op op) { return op == Op::Ret || op == Op::Exit || op == Op::Trap || op == Op::Call; }

bool barrier(Op op) {
  return op == Op::Bar || op == Op::BarArrive || op == Op::BarRed || op == Op::Membar || op == Op::Fence ||
         is_mechanism_op(op);
}

bool writes_memory(Op op) { return op == Op::St || op == Op::Atom || op == Op::Red; }

bool collective(Op op) { return op == Op::Shfl || op == Op::Vote || op == Op::Match || op == Op::Redux || op == Op::Activemask; }

std::vector<uint32_t> successors(const std::vector<Instr>& body, uint32_t pc) {
  const Instr& in = body[pc];
  const uint32_t n = uint32_t(body.size());
  std::vector<uint32_t> s;
  if (in.op == Op::Ret || in.op == Op::Exit || in.op == Op::Trap) {
    if (in.guard >= 0 && pc + 1 < n) s.push_back(pc + 1);  // a guarded exit falls through for the other lanes
    return s;
  }
  if (in.op == Op::Bra) {
    const int32_t t = label_target(in);
    if (t >= 0 && uint32_t(t) < n) s.push_back(uint32_t(t));
    if (in.guard >= 0 && pc + 1 < n) s.push_back(pc + 1);
    return s;
  }
  if (pc + 1 < n) s.push_back(pc + 1);
  return s;
}

// Forward dataflow: the slots a long-latency load may still be filling before each instruction. An
// instruction that reads or writes one of them waits for it (a stall point); after it those slots are
// filled; a load adds its destinations; any other write overwrites (the scoreboard orders it after the load).
std::vector<Slots> pending_before(const std::vector<Instr>& body, uint32_t slots) {
  const uint32_t n = uint32_t(body.size());
  std::vector<Slots> in(n, Slots(slots));
  std::vector<bool> queued(n, true);
  std::vector<uint32_t> work;
  for (uint32_t pc = n; pc-- > 0;) work.push_back(pc);
  while (!work.empty()) {
    const uint32_t pc = work.back();
    work.pop_back();
    queued[pc] = false;
    const Instr& i = body[pc];
    Slots out = in[pc];
    for (unsigned k = 0; k < i.nreads; ++k) out.drop(i.reads[k]);
    for (unsigned k = 0; k < i.nwrites; ++k) {
      if (long_latency_load(i)) out.add(i.writes[k]);
      else out.drop(i.writes[k]);
    }
    for (uint32_t s : successors(body, pc))
      if (in[s].merge(out) && !queued[s]) {
        queued[s] = true;
        work.push_back(s);
      }
  }
  return in;
}

bool stall_point(const Instr& i, const Slots& pending) {
  for (unsigned k = 0; k < i.nreads; ++k)
    if (pending.has(i.reads[k])) return true;
  for (unsigned k = 0; k < i.nwrites; ++k)
    if (pending.has(i.writes[k])) return true;
  return false;
}

// The walk of one chain path: what is known at a point along it.
struct WalkState {
  Slots unavailable;      // slots whose value hint mode does not have: pending loads, skipped instructions' results
  Slots skipped_reads;    // read by an instruction skipped so far (the stall point included): WAR if overwritten
  Slots skipped_writes;   // written by one: WAW
  std::map<uint32_t, uint32_t> rename;  // slot -> the spare slot holding its latest hint-mode value
  bool barrier_passed = false, store_skipped = false;
  uint32_t offset = 0;    // of the last instruction met, from the stall point
  uint32_t depth = 0;     // hints on this path so far
  std::set<uint32_t> seen;
};

class ChainBuilder {
 public:
  ChainBuilder(const FuncIR& f, const std::vector<Instr>& body, const std::vector<bool>& is_stall,
               const Slots& pending, const HawsOptions& opt, HawsStallPoint& out, uint32_t& spare_regs,
               uint32_t& spare_preds)
      : f_(f), body_(body), is_stall_(is_stall), pending_(pending), opt_(opt), out_(out), spare_regs_(spare_regs),
        spare_preds_(spare_preds) {}

  void build(uint32_t stall) {
    const Instr& s = body_[stall];
    WalkState st;
    const uint32_t slots = f_.nregs + f_.npreds;
    st.unavailable = pending_;
    st.skipped_reads = Slots(slots);
    st.skipped_writes = Slots(slots);
    skip(s, st);
    st.seen.insert(stall);
    walk(stall + 1, st, -1, false);
  }

 private:
  // Walks from `pc` with state `st`; the first hint made is linked from hint `from` (its next, or its
  // taken when `taken`), or is the chain's first. Returns when the path ends.
  void walk(uint32_t pc, WalkState st, int32_t from, bool taken) {
    const uint32_t n = uint32_t(body_.size());
    const uint32_t max_offset = (1u << opt_.offset_bits) - 1;
    while (pc < n && !is_stall_[pc] && !st.seen.count(pc)) {
      st.seen.insert(pc);
      ++st.offset;
      const Instr& in = body_[pc];
      if (st.offset > max_offset || ends_kernel(in.op)) return;
      if (barrier(in.op)) {  // never a hint; independent instructions after it may be
        st.barrier_passed = true;
        skip(in, st);
        ++pc;
        continue;
      }
      const bool depends = reads_unavailable(in, st);
      if (in.op == Op::Bra) {
        if (depends) return;  // its direction is not known in hint mode
        const int32_t t = label_target(in);
        if (t < 0) return;
        if ((st.offset >> opt_.branch_offset_bits) != 0) return;
        HawsHint h = hint_of(in, pc, st);
        h.branch = true;
        h.conditional = in.guard >= 0;
        const int32_t me = add(h, from, taken);
        if (++st.depth > kMaxHints || out_.hints.size() >= kMaxHints) return;
        if (!h.conditional) {
          from = me, taken = false;
          pc = uint32_t(t);
          continue;
        }
        walk(uint32_t(t), st, me, true);  // the taken path on its own copy of the state
        from = me, taken = false;
        ++pc;
        continue;
      }
      if (!depends && eligible(in, st) && rename_for(in, st)) {
        HawsHint h = hint_of(in, pc, st);
        if (!commit_renames(in, st, h)) return;
        from = add(h, from, taken);
        taken = false;
        if (++st.depth > kMaxHints || out_.hints.size() >= kMaxHints) return;
      } else {
        skip(in, st);
      }
      ++pc;
    }
  }

  static constexpr size_t kMaxHints = 512;

  bool reads_unavailable(const Instr& in, const WalkState& st) const {
    for (unsigned k = 0; k < in.nreads; ++k)
      if (st.unavailable.has(in.reads[k])) return true;
    return false;
  }

  // The instruction kinds hint mode may run (sec. 3.6).
  bool eligible(const Instr& in, const WalkState& st) const {
    if (writes_memory(in.op) || collective(in.op) || in.op == Op::Prefetch || in.op == Op::Nanosleep) return false;
    if (uses_carry(in)) return false;  // the carry flag is an implicit operand the renaming does not cover
    const bool load = in.op == Op::Ld || in.op == Op::Ldu;
    if (load && (st.barrier_passed || st.store_skipped)) return false;  // a load after a barrier or a skipped store
    return true;
  }

  bool needs_rename(uint32_t slot, const WalkState& st) const {
    return st.skipped_reads.has(slot) || st.skipped_writes.has(slot) || pending_.has(slot);
  }

  // At most one destination renamed (format 1 has one Dst field).
  bool rename_for(const Instr& in, const WalkState& st) const {
    unsigned need = 0;
    for (unsigned k = 0; k < in.nwrites; ++k) need += needs_rename(in.writes[k], st);
    return need <= 1;
  }

  HawsHint hint_of(const Instr& in, uint32_t pc, const WalkState& st) const {
    HawsHint h;
    h.pc = pc;
    h.line = in.line;
    h.offset = st.offset;
    for (unsigned k = 0; k < in.nreads; ++k) {
      auto r = st.rename.find(in.reads[k]);
      if (r != st.rename.end()) h.sources.push_back({in.reads[k], r->second});
    }
    return h;
  }

  // The hint's destination: renamed into the spare its place along the path takes, or written as is.
  bool commit_renames(const Instr& in, WalkState& st, HawsHint& h) {
    for (unsigned k = 0; k < in.nwrites; ++k) {
      const uint32_t w = in.writes[k];
      st.unavailable.drop(w);
      if (!needs_rename(w, st)) {
        st.rename.erase(w);
        continue;
      }
      const bool pred = w >= f_.nregs;
      const uint32_t spare = st.depth % opt_.rcu_depth;
      uint32_t& used = pred ? spare_preds_ : spare_regs_;
      used = std::max(used, spare + 1);
      h.renamed = true;
      h.dst = w;
      h.renamed_to = f_.nregs + f_.npreds + (pred ? opt_.rcu_depth : 0) + spare;
      st.rename[w] = h.renamed_to;
    }
    return true;
  }

  void skip(const Instr& in, WalkState& st) {
    for (unsigned k = 0; k < in.nreads; ++k) st.skipped_reads.add(in.reads[k]);
    for (unsigned k = 0; k < in.nwrites; ++k) {
      st.skipped_writes.add(in.writes[k]);
      st.unavailable.add(in.writes[k]);
      st.rename.erase(in.writes[k]);
    }
    if (writes_memory(in.op)) st.store_skipped = true;
  }

  int32_t add(const HawsHint& h, int32_t from, bool taken) {
    out_.hints.push_back(h);
    const int32_t me = int32_t(out_.hints.size() - 1);
    if (from >= 0) (taken ? out_.hints[size_t(from)].taken : out_.hints[size_t(from)].next) = me;
    return me;
  }

  const FuncIR& f_;
  const std::vector<Instr>& body_;
  const std::vector<bool>& is_stall_;
  const Slots& pending_;
  const HawsOptions& opt_;
  HawsStallPoint& out_;
  uint32_t &spare_regs_, &spare_preds_;
};

}  // namespace

uint32_t HawsKernelReport::hints() const {
  uint32_t n = 0;
  for (auto& s : stall_points) n += uint32_t(s.hints.size());
  return n;
}

uint32_t HawsKernelReport::renamed() const {
  uint32_t n = 0;
  for (auto& s : stall_points)
    for (auto& h : s.hints) n += h.renamed;
  return n;
}

std::string HawsKernelReport::text() const {
  std::ostringstream os;
  os << kernel << " (line " << line << "): " << stall_points.size() << " stall points, " << hints() << " hints, "
     << renamed() << " renamed; spare registers " << spare_regs << ", spare predicates " << spare_preds << "\n";
  for (auto& s : stall_points) {
    os << "  stall point line " << s.line << " (pc " << s.pc << "): " << s.hints.size() << " hints\n";
    for (size_t i = 0; i < s.hints.size(); ++i) {
      const HawsHint& h = s.hints[i];
      os << "    [" << i << "] line " << h.line << " offset " << h.offset;
      if (h.branch) os << (h.conditional ? " branch (conditional)" : " branch (direct)");
      if (h.renamed) os << " renamed slot " << h.dst << " -> " << h.renamed_to;
      if (h.next >= 0) os << " next [" << h.next << "]";
      if (h.taken >= 0) os << " taken [" << h.taken << "]";
      os << "\n";
    }
  }
  return os.str();
}

std::vector<HawsKernelReport> haws_hints(const std::string& ptx, const std::string& origin, const HawsOptions& opt) {
  if (opt.rcu_depth == 0) throw InputError("haws: the RCU needs at least one entry");
  const ParsedModule m = parse_ptx(ptx, origin);
  std::vector<HawsKernelReport> out;
  for (const FuncIR& f : m.funcs) {
    if (!f.is_entry || !f.has_body || f.refusal) continue;  // a refused kernel never runs (module.cpp)
    HawsKernelReport r;
    r.kernel = f.name;
    r.line = f.line;
    r.num_regs = f.nregs;
    r.num_preds = f.npreds;
    std::vector<Instr> body = f.body;
    for (Instr& in : body) collect_dependences(in, f.nregs);
    const uint32_t slots = f.nregs + f.npreds;
    const std::vector<Slots> pending = pending_before(body, slots);
    std::vector<bool> is_stall(body.size(), false);
    for (uint32_t pc = 0; pc < body.size(); ++pc) is_stall[pc] = stall_point(body[pc], pending[pc]);
    for (uint32_t pc = 0; pc < body.size(); ++pc) {
      if (!is_stall[pc]) continue;
      HawsStallPoint sp;
      sp.pc = pc;
      sp.line = body[pc].line;
      sp.pending = pending[pc].list();
      ChainBuilder(f, body, is_stall, pending[pc], opt, sp, r.spare_regs, r.spare_preds).build(pc);
      r.stall_points.push_back(std::move(sp));
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace passes
}  // namespace warptlm
