#include "isa/register_storage.hpp"

#include <algorithm>

#include "isa/cfg.hpp"

namespace warptlm {

namespace {

// Past this many registers the interference matrix (n^2 bits) is not worth building: one slot each.
constexpr uint32_t kMaxSharedRegisters = 4096;

// f(reg, written) for every data-register operand of `in` (predicates are a file of their own).
template <class F>
void for_data_registers(const Instr& in, F&& f) {
  for_each_register_operand(in, [&](uint32_t r, bool predicate, bool written) {
    if (!predicate) f(r, written);
  });
}

struct Bits {
  std::vector<uint64_t> w;
  explicit Bits(uint32_t n = 0) : w((n + 63) / 64, 0) {}
  void set(uint32_t r) { w[r >> 6] |= uint64_t(1) << (r & 63); }
  void clear(uint32_t r) { w[r >> 6] &= ~(uint64_t(1) << (r & 63)); }
  bool test(uint32_t r) const { return w[r >> 6] >> (r & 63) & 1; }
  void merge(const Bits& o) {
    for (size_t i = 0; i < w.size(); ++i) w[i] |= o.w[i];
  }
  bool operator!=(const Bits& o) const { return w != o.w; }
  template <class F>
  void each(F&& f) const {
    for (size_t i = 0; i < w.size(); ++i)
      for (uint64_t m = w[i]; m; m &= m - 1) f(uint32_t(i * 64 + unsigned(__builtin_ctzll(m))));
  }
};

// One thread's view, instruction by instruction backwards: a write the guard may skip leaves the register's
// old value in place, so only an unguarded write ends the value before it.
void step_back(const Instr& in, Bits& live, RegisterStorageFault fault) {
  if (in.guard < 0 || fault == RegisterStorageFault::GuardedWriteEndsValue)
    for_data_registers(in, [&](uint32_t r, bool written) { if (written) live.clear(r); });
  for_data_registers(in, [&](uint32_t r, bool written) { if (!written) live.set(r); });
}

}  // namespace

// Registers interfere when one is written while the other holds a value a thread may still read (live); such
// pairs need their own storage, all others may share (greedy colouring in declaration order, deterministic).
// A thread's lanes are written only where it executes, so per-thread liveness is what a warp needs: lanes on
// another path keep their own values. Besides liveness:
// - an instruction's destinations never share with its sources, nor with each other: a handler may write a
//   lane before it reads another (shfl) or write one element before it reads the next;
// - special-register slots (written by the SM at block start and by a mesh's run-time at any time) and atomic
//   destinations (written at the end of the core edge, after a dual-issued instruction) keep a slot alone, as
//   does a global load's destination that nothing reads (with sim.quantum > 1 it is written at the quantum's
//   end, after the instructions that follow; a destination that is read is live until its response);
// - registers live at entry (read before any write: zero, or a special register) interfere with each other.
void share_register_storage(KernelInfo& k, RegisterStorageFault fault) {
  const uint32_t n = k.num_regs;
  if (n == 0 || n > kMaxSharedRegisters || !k.call_sites.empty() || k.prog.empty()) return;
  const Cfg g = build_cfg(k.prog);
  const uint32_t nb = uint32_t(g.blocks.size());

  // live-in of each basic block, iterated to a fixed point
  std::vector<Bits> live_in(nb, Bits(n));
  auto live_out = [&](uint32_t b) {
    Bits out(n);
    for (uint32_t s : g.blocks[b].succ)
      if (s < nb) out.merge(live_in[s]);
    return out;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t b = nb; b-- > 0;) {
      Bits live = live_out(b);
      for (uint32_t pc = g.blocks[b].last + 1; pc-- > g.blocks[b].first;) step_back(k.prog[pc], live, fault);
      if (live != live_in[b]) {
        live_in[b] = std::move(live);
        changed = true;
      }
    }
  }

  std::vector<Bits> conflict(n, Bits(n));
  auto interfere = [&](uint32_t a, uint32_t b) {
    if (a == b) return;
    conflict[a].set(b);
    conflict[b].set(a);
  };
  Bits alone(n);
  for (auto& s : k.sreg_slots) alone.set(s.first);
  for (uint32_t b = 0; b < nb; ++b) {
    Bits live = live_out(b);
    for (uint32_t pc = g.blocks[b].last + 1; pc-- > g.blocks[b].first;) {
      const Instr& in = k.prog[pc];
      for_data_registers(in, [&](uint32_t d, bool written) {
        if (!written) return;
        if (in.op == Op::Atom) alone.set(d);
        if ((in.op == Op::Ld || in.op == Op::Ldu) && (in.space == Space::Global || in.space == Space::Generic) &&
            !live.test(d))
          alone.set(d);
        live.each([&](uint32_t r) { interfere(d, r); });
        for_data_registers(in, [&](uint32_t r, bool) { interfere(d, r); });
      });
      step_back(in, live, fault);
    }
  }
  if (nb) {
    const Bits& entry = live_in[g.block_of.empty() ? 0 : g.block_of[0]];
    entry.each([&](uint32_t a) { entry.each([&](uint32_t b) { interfere(a, b); }); });
  }

  // registers the program names at all
  Bits named(n);
  for (const Instr& in : k.prog) for_data_registers(in, [&](uint32_t r, bool) { named.set(r); });
  alone.each([&](uint32_t r) { named.set(r); });

  std::vector<uint32_t> slot(n, 0);
  uint32_t slots = 0;
  std::vector<uint32_t> alone_slots;  // slots of registers kept alone: no other register may take them
  std::vector<uint8_t> taken;
  for (uint32_t r = 0; r < n; ++r) {
    if (!named.test(r)) continue;
    if (alone.test(r)) {
      slot[r] = slots++;
      alone_slots.push_back(slot[r]);
      continue;
    }
    taken.assign(slots + 1, 0);
    for (uint32_t s : alone_slots) taken[s] = 1;
    conflict[r].each([&](uint32_t o) {
      if (o < r && named.test(o)) taken[slot[o]] = 1;
    });
    uint32_t s = 0;
    while (taken[s]) ++s;
    slot[r] = s;
    slots = std::max(slots, s + 1);
  }
  if (slots >= n) return;  // nothing shared

  k.declared_prog = k.prog;
  for (Instr& in : k.prog)
    for (unsigned i = 0; i < in.nops; ++i) {
      Operand& o = in.ops[i];
      switch (o.kind) {
        case OpKind::Reg: o.reg = slot[o.reg]; break;
        case OpKind::Vec:
          for (unsigned e = 0; e < o.nvec; ++e)
            if (o.vec[e] != UINT32_MAX) o.vec[e] = slot[o.vec[e]];
          break;
        case OpKind::Addr:
          if (o.addr_has_reg) o.reg = slot[o.reg];
          break;
        default: break;
      }
    }
  k.storage_of = std::move(slot);
  k.storage_regs = std::max(slots, 1u);
}

}  // namespace warptlm
