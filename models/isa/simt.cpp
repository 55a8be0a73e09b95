// Warp and block state, the step of one warp-instruction, the SIMT
// reconvergence stack and the control-flow handlers.
#include "isa/simt.hpp"

#include <algorithm>
#include <cfenv>
#include <sstream>

#include "common/errors.hpp"
#include "isa/exec_common.hpp"

namespace warptlm {

Warp::Warp(const KernelInfo& k, Block& b, uint32_t warp_in_block, uint32_t lanes_valid)
    : kernel(k), block(b), index(warp_in_block), valid_mask(lanes_valid) {
  start();
}

void Warp::restart() {
  done = at_barrier = false;
  barrier_id = 0;
  stack.clear();
  exited = 0;
  furthest_pc = 0;
  pending_red = nullptr;
  pending_red_mask = 0;
  addr_mask = 0;
  addr_bytes = 0;
  addr_space = Space::Generic;
  insts = InstructionCounts{};
  start();
}

void Warp::start() {
  const KernelInfo& k = kernel;
  const Block& b = block;
  const uint32_t lanes_valid = valid_mask;
  regs.assign(size_t(k.stored_regs()) * 32, 0);
  preds.assign(k.num_preds, 0);
  local.assign(size_t(k.local_bytes) * 32, 0);
  frame.assign(size_t(k.frame_bytes) * 32, 0);
  stack.push_back(SimtEntry{0, kNoPc, lanes_valid, -1});
  const LaunchState& L = b.launch;
  for (auto& s : k.sreg_slots) {
    uint64_t* r = reg(k.storage_slot(s.first));
    switch (s.second) {
      case SReg::TidX: case SReg::TidY: case SReg::TidZ: {
        // lane 0's thread index, then each lane's from the one before (x first, carrying into y and z)
        const uint32_t t = thread_id(0);
        uint32_t x = t % L.block[0], y = (t / L.block[0]) % L.block[1], z = t / (L.block[0] * L.block[1]);
        for (unsigned l = 0; l < 32; ++l) {
          r[l] = s.second == SReg::TidX ? x : s.second == SReg::TidY ? y : z;
          if (++x == L.block[0]) {
            x = 0;
            if (++y == L.block[1]) y = 0, ++z;
          }
        }
        break;
      }
      case SReg::LaneId: for (unsigned l = 0; l < 32; ++l) r[l] = l; break;
      case SReg::LanemaskEq: for (unsigned l = 0; l < 32; ++l) r[l] = 1u << l; break;
      case SReg::LanemaskLe: for (unsigned l = 0; l < 32; ++l) r[l] = l == 31 ? 0xFFFFFFFFu : (2u << l) - 1; break;
      case SReg::LanemaskLt: for (unsigned l = 0; l < 32; ++l) r[l] = (1u << l) - 1; break;
      case SReg::LanemaskGe: for (unsigned l = 0; l < 32; ++l) r[l] = ~((1u << l) - 1); break;
      case SReg::LanemaskGt: for (unsigned l = 0; l < 32; ++l) r[l] = l == 31 ? 0 : ~((2u << l) - 1); break;
      default: {  // the same for every lane
        uint32_t v = 0;
        switch (s.second) {
          case SReg::NtidX: v = L.block[0]; break;
          case SReg::NtidY: v = L.block[1]; break;
          case SReg::NtidZ: v = L.block[2]; break;
          case SReg::CtaidX: v = b.ctaid[0]; break;
          case SReg::CtaidY: v = b.ctaid[1]; break;
          case SReg::CtaidZ: v = b.ctaid[2]; break;
          case SReg::NctaidX: v = L.grid[0]; break;
          case SReg::NctaidY: v = L.grid[1]; break;
          case SReg::NctaidZ: v = L.grid[2]; break;
          case SReg::WarpId: v = index; break;
          case SReg::NWarpId: v = 64; break;
          case SReg::SmId: v = b.sm_id; break;
          case SReg::NSmId: v = L.num_sms; break;
          case SReg::GridId: v = uint32_t(L.grid_id); break;
          default:
            if (is_mesh_sreg(s.second)) v = b.mesh_regs[uint32_t(s.second) - uint32_t(SReg::MeshIu)];
            break;
        }
        std::fill(r, r + 32, uint64_t(v));
        break;
      }
    }
  }
}

Block::Block(const KernelInfo& k, const LaunchState& L, uint32_t id, uint32_t sm, bool warps_now)
    : kernel(k), launch(L), linear_id(id), sm_id(sm) {
  ctaid[0] = id % L.grid[0];
  ctaid[1] = (id / L.grid[0]) % L.grid[1];
  ctaid[2] = id / (L.grid[0] * L.grid[1]);
  uint32_t dyn_base = (k.static_smem + 15) & ~15u;
  shared.assign(L.dynamic_smem ? dyn_base + L.dynamic_smem : k.static_smem, 0);
  shared_bytes = uint32_t(shared.size());
  shared_base = shared.data();
  if (warps_now) make_warps();
}

void Block::restart(uint32_t id, uint32_t sm) {
  linear_id = id;
  sm_id = sm;
  ctaid[0] = id % launch.grid[0];
  ctaid[1] = (id / launch.grid[0]) % launch.grid[1];
  ctaid[2] = id / (launch.grid[0] * launch.grid[1]);
  std::fill(shared.begin(), shared.end(), uint8_t(0));
  for (NamedBarrier& n : barriers) n = NamedBarrier{};
  warps_done = 0;
  for (Warp& w : warps) w.restart();
}

void Block::make_warps() {
  const LaunchState& L = launch;
  warps.reserve(L.warps_per_block);
  for (uint32_t w = 0; w < L.warps_per_block; ++w) {
    uint32_t first = w * 32;
    uint32_t n = std::min<uint32_t>(32, L.threads_per_block - first);
    warps.emplace_back(kernel, *this, w, n == 32 ? 0xFFFFFFFFu : ((1u << n) - 1));
  }
}

void Block::place_shared(uint8_t* storage, const SharedAddressMap& m) {
  shared_base = storage;
  shared_map = m;
  std::vector<uint8_t>().swap(shared);
}

void Block::read_shared(uint32_t a, unsigned n, uint8_t* out) const {
  for (unsigned i = 0; i < n; ++i) out[i] = shared_base[shared_map(a + i)];
}

void Block::write_shared(uint32_t a, unsigned n, const uint8_t* in) {
  for (unsigned i = 0; i < n; ++i) shared_base[shared_map(a + i)] = in[i];
}

bool Block::arrive_at_barrier(Warp& w, uint32_t id, uint32_t expected_warps, bool wait) {
  NamedBarrier& b = barriers[id];
  if (wait) {
    w.at_barrier = true;
    w.barrier_id = uint8_t(id);
  }
  ++b.arrived;
  if (expected_warps) b.expected = expected_warps;
  if (b.arrived >= b.need(live_warps())) { barrier_complete(id); return true; }
  return false;
}

void Block::barrier_complete(uint32_t id) {
  if (id != kMeshBarrier) { release_barrier(id); return; }
  barriers[id].arrived = 0;  // the warps stay waiting until the mesh-wide barrier releases them
  mesh->block_synchronised(*this);
}

void Block::set_mesh_register(SReg r, uint32_t value) {
  mesh_regs[uint32_t(r) - uint32_t(SReg::MeshIu)] = value;
  for (auto& s : kernel.sreg_slots)
    if (s.second == r)
      for (Warp& w : warps) {
        uint64_t* reg = w.reg(kernel.storage_slot(s.first));
        for (unsigned l = 0; l < 32; ++l) reg[l] = value;
      }
}

void Block::release_barrier(uint32_t id) {
  NamedBarrier& b = barriers[id];
  for (auto& w : warps) {
    if (!w.at_barrier || w.barrier_id != id) continue;
    w.at_barrier = false;
    if (!w.pending_red) continue;
    // bar.red delivers the block-wide result to every thread that took part.
    const Instr& in = *w.pending_red;
    const uint32_t m = w.pending_red_mask;
    if (in.sub == SubOp::Add) {
      uint64_t* d = w.reg(in.ops[0].reg);
      for_lanes(m, [&](unsigned l) { d[l] = b.red_popc; });
    } else {
      bool r = in.sub == SubOp::And ? b.red_and : b.red_or;
      uint32_t& p = w.preds[in.ops[0].reg];
      p = (p & ~m) | (r ? m : 0);
    }
    w.pending_red = nullptr;
  }
  b = NamedBarrier{};
}

void Block::warp_exited() {
  ++warps_done;
  for (uint32_t id = 0; id <= kMeshBarrier; ++id)
    if (barriers[id].arrived && barriers[id].arrived >= barriers[id].need(live_warps())) barrier_complete(id);
}

// ---------------------------------------------------------------- faults

static std::string fault_message(const Warp& w, const Instr& in, const MemFault& f) {
  const Block& b = w.block;
  const LaunchState& L = b.launch;
  uint32_t t = w.thread_id(f.lane);
  std::ostringstream os;
  os << "memory fault in kernel '" << w.kernel.name << "', block (" << b.ctaid[0] << "," << b.ctaid[1] << ","
     << b.ctaid[2] << "), thread (" << t % L.block[0] << "," << (t / L.block[0]) % L.block[1] << ","
     << t / (L.block[0] * L.block[1]) << "), pc " << in.pc << ", " << w.kernel.origin << ":" << in.line << " `"
     << in.text << "`: " << space_name(f.space) << " address 0x" << std::hex << f.addr << std::dec << " " << f.why;
  return os.str();
}

// [a, a + bytes) lies inside a window of `size` bytes (no wrap-around for addresses near 2^64).
static bool within(uint64_t a, unsigned bytes, uint64_t size) { return bytes <= size && a <= size - bytes; }

uint8_t* resolve_address(ExecCtx& c, Space space, uint64_t a, unsigned bytes, unsigned lane, bool write) {
  unsigned align = bytes > 16 ? 16 : bytes;
  if (a & (align - 1)) throw MemFault{lane, a, space, "is misaligned for a " + std::to_string(bytes) + "-byte access"};
  switch (space) {
    case Space::Generic:
      if (in_shared_window(a))
        return resolve_address(c, Space::Shared, a - kSharedWindow, bytes, lane, write);
      if (in_local_window(a))
        return resolve_address(c, Space::Local, a - kLocalWindow, bytes, lane, write);
      return resolve_address(c, Space::Global, a, bytes, lane, write);
    case Space::Global:
    case Space::Const: {
      if (write && space == Space::Const) throw MemFault{lane, a, space, "is read-only"};
      uint8_t* p = c.L.mem->translate(a, bytes);
      if (!p) throw MemFault{lane, a, space, "is outside every device allocation (out of bounds or unmapped)"};
      return p;
    }
    case Space::Shared:
      if (!within(a, bytes, c.b.shared_bytes))
        throw MemFault{lane, a, space, "is past the block's " + std::to_string(c.b.shared_bytes) + " bytes of shared memory"};
      return c.b.shared_span(uint32_t(a), bytes);  // null: split by the physical layout
    case Space::Local: {
      uint32_t lb = c.w.kernel.local_bytes;
      if (!within(a, bytes, lb)) throw MemFault{lane, a, space, "is past the thread's " + std::to_string(lb) + " bytes of local memory"};
      return c.w.local.data() + size_t(lane) * lb + a;
    }
    case Space::Param:
      if (write) throw MemFault{lane, a, space, "is a kernel parameter (read-only)"};
      if (!within(a, bytes, c.L.params.size())) throw MemFault{lane, a, space, "is past the kernel's parameters"};
      return const_cast<uint8_t*>(c.L.params.data()) + a;
    case Space::ParamFunc: {
      uint32_t fb = c.w.kernel.frame_bytes;
      if (!within(a, bytes, fb)) throw MemFault{lane, a, space, "is past the call's parameters"};
      return c.w.frame.data() + size_t(lane) * fb + a;
    }
    case Space::Cbv:
    case Space::Cbh: {
      if (!c.b.mesh) throw MemFault{lane, a, space, "is a communication buffer, and this block runs on no mesh"};
      std::string why;
      uint8_t* p = c.b.mesh->cb_span(c.b, space, write, a, bytes, why);
      if (!p) throw MemFault{lane, a, space, why};
      return p;
    }
  }
  throw MemFault{lane, a, space, "is in an unknown state space"};
}

RoundingScope::RoundingScope(Rnd r) : saved(std::fegetround()) {
  switch (r) {
    case Rnd::Rz: case Rnd::Rzi: std::fesetround(FE_TOWARDZERO); break;
    case Rnd::Rm: case Rnd::Rmi: std::fesetround(FE_DOWNWARD); break;
    case Rnd::Rp: case Rnd::Rpi: std::fesetround(FE_UPWARD); break;
    default: std::fesetround(FE_TONEAREST); break;
  }
}
RoundingScope::~RoundingScope() { std::fesetround(saved); }

// ---------------------------------------------------------------- step

// Lanes set in a mask, counted without a library call (the build targets no x86 level with a popcnt
// instruction, and GCC calls libgcc's bit count for __builtin_popcount): twice per warp instruction.
inline unsigned lanes_in(uint32_t m) {
  m = m - ((m >> 1) & 0x55555555u);
  m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
  return (((m + (m >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
}

static void pop_entry(Warp& w) {
  const SimtEntry e = w.stack.back();
  w.stack.pop_back();
  if (e.call_site >= 0 && e.mask) {
    // A .func activation returns: its result parameters go back to the caller.
    const CallSite& cs = w.kernel.call_sites[size_t(e.call_site)];
    const uint32_t fb = w.kernel.frame_bytes;
    for (auto& cp : cs.results)
      for_lanes(e.mask, [&](unsigned l) { std::memmove(&w.frame[l * fb + cp.dst], &w.frame[l * fb + cp.src], cp.size); });
  }
}

namespace {
// Runs `in` for the warp's active lanes with its guard (faults name `named`, the program's instruction) and
// counts it; `run` false counts it only (a branch off the program order).
[[gnu::always_inline]] inline void run_for_active_lanes(Warp& w, const LaunchState& L, const Instr& in, const Instr& named,
                                                      bool run = true) {
  const uint32_t active = w.stack.back().mask;
  const uint32_t exec = guard_true(w, in, active);
  if (run) {
    ExecCtx c{w, w.block, L, exec, active};
    try {
      in.fn(in, c);
    } catch (const MemFault& f) {
      throw RunError(fault_message(w, named, f));
    }
  }
  ++w.insts.warp;
  w.insts.thread += lanes_in(exec);
  w.insts.lane += lanes_in(active);
}

// After an instruction: past it unless it moved the pc itself; the entries that reached their
// reconvergence point (or lost every lane) pop.
[[gnu::always_inline]] inline StepStatus move_on(Warp& w, bool control) {
  if (!control) ++w.stack.back().pc;
  while (!w.stack.empty()) {
    const SimtEntry& t = w.stack.back();
    if (t.mask != 0 && t.pc != t.rpc) break;
    pop_entry(w);
  }
  if (w.stack.empty()) { w.done = true; return StepStatus::Exited; }
  return w.at_barrier ? StepStatus::Barrier : StepStatus::Ok;
}
}  // namespace

StepStatus step(Warp& w, const LaunchState& L) {
  const Instr& in = w.kernel.prog[w.stack.back().pc];
  run_for_active_lanes(w, L, in, in);
  return move_on(w, in.is_control);
}

StepStatus step_in_place_of(Warp& w, const LaunchState& L, const Instr* as) {
  const Instr& orig = w.kernel.prog[w.stack.back().pc];
  if (as) run_for_active_lanes(w, L, *as, orig);
  return move_on(w, false);
}

void execute_detached(Warp& w, const LaunchState& L, const Instr& in) {
  run_for_active_lanes(w, L, in, in, in.op != Op::Bra);
}

uint32_t peek_addresses(const Warp& w, const Instr& in, uint64_t* addr) {
  if (!in.is_mem || w.stack.empty()) return 0;
  const uint32_t mask = guard_true(w, in, w.stack.back().mask);
  const Operand& a = (in.op == Op::St || in.op == Op::Red) ? in.ops[0] : in.ops[1];
  const uint64_t* base = a.addr_has_reg ? &w.regs[size_t(a.reg) * 32] : nullptr;
  for (uint32_t m = mask; m; m &= m - 1) {
    const unsigned l = unsigned(__builtin_ctz(m));
    const uint64_t b = base ? base[l] : 0, sum = b + a.imm;
    addr[l] = a.addr_32 ? uint64_t(uint32_t(sum)) : sum;  // as lane_address (exec_common.hpp)
  }
  return mask;
}

void run_block_functional(Block& b, const LaunchState& L) {
  const uint32_t n = uint32_t(b.warps.size());
  FunctionalWatch* const watch = L.watch;
  while (b.warps_done < n) {
    bool progress = false;
    for (auto& w : b.warps) {
      if (w.done || w.at_barrier) continue;
      progress = true;
      for (;;) {
        StepStatus s;
        if (MemoryAccessObserver* const seen = L.accesses) {
          const Instr& in = w.kernel.prog[w.stack.back().pc];
          w.addr_mask = 0;
          s = step(w, L);
          if (in.is_mem && w.addr_mask) seen->accessed(b, w, in);
        } else {
          s = step(w, L);
        }
        if (watch) watch->after_step(w);
        if (s == StepStatus::Ok) continue;
        if (s == StepStatus::Exited) b.warp_exited();
        break;
      }
    }
    if (!progress) {
      std::ostringstream os;
      os << "deadlock in kernel '" << b.kernel.name << "', block (" << b.ctaid[0] << "," << b.ctaid[1] << ","
         << b.ctaid[2] << "):";
      for (uint32_t id = 0; id < Block::kNamedBarriers; ++id)  // (a block on a mesh is not run alone)
        if (b.barriers[id].arrived)
          os << " " << b.barriers[id].arrived << " warps arrived at barrier " << id << ", which expects "
             << b.barriers[id].need(b.live_warps()) << ";";
      os << " waiting warps at:";
      for (auto& w : b.warps)
        if (w.at_barrier)
          os << " warp " << w.index << " (barrier " << unsigned(w.barrier_id) << ", " << b.kernel.origin << ":"
             << b.kernel.prog[w.pc() - 1].line << ")";
      throw RunStopped("deadlock", os.str());
    }
  }
}

void describe_block_warps(std::ostream& os, const Block& b) {
  for (const Warp& w : b.warps) {
    if (w.done) continue;
    uint32_t pc = w.pc() == kNoPc ? 0 : w.pc();
    // a warp at a barrier has moved past it: name the barrier
    if (w.at_barrier && pc > 0 && (w.kernel.prog[pc - 1].op == Op::Bar || w.kernel.prog[pc - 1].op == Op::BarRed)) --pc;
    const Instr& in = w.kernel.prog[pc];
    // (the functional model runs a block's warps one at a time, each until it waits at a barrier or exits)
    const char* what = w.at_barrier ? "waits at a barrier" : w.insts.warp ? "spins without progress" : "has not run yet";
    os << "\n  block (" << b.ctaid[0] << "," << b.ctaid[1] << "," << b.ctaid[2] << ")/warp " << w.index << " " << what
       << " at pc " << pc << ", " << w.kernel.origin
       << ":" << in.line << " `" << in.text << "`";
  }
}

void FunctionalWatch::look(const Warp& w) {
  next_look_ = executed_ + kLookEvery;
  check(w.kernel.name);
  if (watchdog_ && executed_ - progress_at_ >= watchdog_) {
    std::ostringstream os;
    os << "deadlock in kernel '" << w.kernel.name << "': no progress for " << (executed_ - progress_at_)
       << " warp instructions (sim.watchdog_instructions): no block retired, no warp exited or reached a pc beyond "
          "the furthest it had reached; its warps:";
    describe_block_warps(os, w.block);
    throw RunStopped("deadlock", os.str());
  }
}

// ---------------------------------------------------------------- control

static void exec_bra(const Instr& in, ExecCtx& c) {
  auto& st = c.w.stack;
  SimtEntry& top = st.back();
  const uint32_t taken = c.mask, not_taken = c.active & ~c.mask;
  if (!not_taken) { top.pc = in.target; return; }
  if (!taken) { ++top.pc; return; }
  // Divergence: the current entry waits at the reconvergence point while the
  // two paths run, taken path first.
  const uint32_t r = in.reconv, fall = top.pc + 1;
  top.pc = r;
  st.push_back(SimtEntry{fall, r, not_taken, -1});
  st.push_back(SimtEntry{in.target, r, taken, -1});
}

static void exec_call(const Instr& in, ExecCtx& c) {
  auto& st = c.w.stack;
  ++st.back().pc;  // the caller resumes after the call once the activation pops
  if (!c.mask) return;
  const CallSite& cs = c.w.kernel.call_sites[in.call_site];
  const uint32_t fb = c.w.kernel.frame_bytes;
  for (auto& cp : cs.args)
    for_lanes(c.mask, [&](unsigned l) { std::memmove(&c.w.frame[l * fb + cp.dst], &c.w.frame[l * fb + cp.src], cp.size); });
  st.push_back(SimtEntry{cs.callee_pc, kFuncExit, c.mask, int32_t(in.call_site)});
}

static void exec_exit(const Instr&, ExecCtx& c) {
  const uint32_t ex = c.mask;
  if (ex) {
    c.w.exited |= ex;
    for (auto& e : c.w.stack) e.mask &= ~ex;
  }
  if (c.w.stack.back().mask) ++c.w.stack.back().pc;
}

// The barrier id and thread count of bar.sync / bar.arrive / bar.red, from
// immediates or registers (the first active lane's value, as hardware takes
// it); a register value out of the hardware's range is a fault.
static uint32_t barrier_operand(const Instr& in, ExecCtx& c, const Operand& o, bool count) {
  const uint32_t v = uint32_t(src(c, o)[__builtin_ctz(c.mask)]);
  const bool ok = count ? (v > 0 && v % 32 == 0 && v <= c.L.warps_per_block * 32) : v < Block::kNamedBarriers;
  if (!ok) {
    std::ostringstream os;
    os << "bad barrier " << (count ? "thread count " : "id ") << v << " in kernel '" << c.w.kernel.name << "', block ("
       << c.b.ctaid[0] << "," << c.b.ctaid[1] << "," << c.b.ctaid[2] << "), warp " << c.w.index << ", "
       << c.w.kernel.origin << ":" << in.line << " `" << in.text << "`: "
       << (count ? "a multiple of 32 threads is needed" : "ids are 0 to 15");
    throw RunError(os.str());
  }
  return count ? (v + 31) / 32 : v;
}

// bar.sync a{, b} waits at barrier a; bar.arrive a, b counts toward it and
// goes on (it is not a control instruction: the stepper moves its pc).
template <bool Wait>
static void exec_bar(const Instr& in, ExecCtx& c) {
  if (Wait) ++c.w.stack.back().pc;
  if (!c.mask) return;
  const uint32_t id = barrier_operand(in, c, in.ops[0], false);
  const uint32_t expected = in.nops >= 2 ? barrier_operand(in, c, in.ops[1], true) : 0;
  c.b.arrive_at_barrier(c.w, id, expected, Wait);
}

// bar.red.{popc,and,or} d, a{, b}, {!}c: a barrier that also reduces c over the block.
static void exec_bar_red(const Instr& in, ExecCtx& c) {
  ++c.w.stack.back().pc;
  if (!c.mask) return;
  const uint32_t id = barrier_operand(in, c, in.ops[1], false);
  const uint32_t expected = in.nops >= 4 ? barrier_operand(in, c, in.ops[2], true) : 0;
  const Operand& po = in.ops[in.nops - 1];
  uint32_t pv = c.w.preds[po.reg];
  if (po.negate) pv = ~pv;
  pv &= c.mask;
  Block::NamedBarrier& b = c.b.barriers[id];
  b.red_popc += unsigned(__builtin_popcount(pv));
  b.red_and = b.red_and && pv == c.mask;
  b.red_or = b.red_or || pv != 0;
  c.w.pending_red = &in;
  c.w.pending_red_mask = c.mask;
  c.b.arrive_at_barrier(c.w, id, expected);
}

static void exec_trap(const Instr& in, ExecCtx& c) {
  if (!c.mask) { ++c.w.stack.back().pc; return; }
  std::ostringstream os;
  os << "trap in kernel '" << c.w.kernel.name << "', block (" << c.b.ctaid[0] << "," << c.b.ctaid[1] << ","
     << c.b.ctaid[2] << "), pc " << in.pc << ", " << c.w.kernel.origin << ":" << in.line;
  throw RunError(os.str());
}

static void exec_nop(const Instr&, ExecCtx&) {}

// A mesh instruction needs the block to run on a mesh.
static MeshPort& mesh_of(const Instr& in, ExecCtx& c) {
  if (c.b.mesh) return *c.b.mesh;
  std::ostringstream os;
  os << op_name(in.op) << " in kernel '" << c.w.kernel.name << "', " << c.w.kernel.origin << ":" << in.line
     << ": the block runs on no mesh";
  throw RunError(os.str());
}

// bar.blocksync: the block's own barrier first (every live warp), then the
// mesh-wide one (seed 003 sec. 2.4); the warps wait until the mesh releases them.
static void exec_blocksync(const Instr& in, ExecCtx& c) {
  ++c.w.stack.back().pc;
  if (!c.mask) return;
  mesh_of(in, c);
  c.b.arrive_at_barrier(c.w, kMeshBarrier, 0);
}

// bar.unleashvius: the unit's run-time releases the parked virtual IUs (seed 003 sec. 2.8).
static void exec_unleash(const Instr& in, ExecCtx& c) {
  if (c.mask) mesh_of(in, c).unleash_vius(c.b);
}

ExecFn select_control(const Instr& in, std::string& why) {
  switch (in.op) {
    case Op::Bra:
    case Op::Ret: return exec_bra;
    case Op::Call: return exec_call;
    case Op::Exit: return exec_exit;
    case Op::Bar: return exec_bar<true>;
    case Op::BarArrive: return exec_bar<false>;
    case Op::BarRed:
      if (in.sub == SubOp::None || in.nops < 3 || in.ops[in.nops - 1].kind != OpKind::Pred) {
        why = "bar.red needs .popc, .and or .or and a predicate source";
        return nullptr;
      }
      return exec_bar_red;
    case Op::Trap: return exec_trap;
    case Op::Membar: case Op::Fence: case Op::Nanosleep: case Op::Prefetch: return exec_nop;
    // relssp has no functional effect: the SM's scratchpad-sharing logic acts on it at issue
    case Op::Relssp: return in.nops == 0 ? exec_nop : nullptr;
    case Op::BlockSync: return in.nops <= 1 ? exec_blocksync : nullptr;
    case Op::UnleashVius: return in.nops <= 1 ? exec_unleash : nullptr;
    default: (void)why; return nullptr;
  }
}

ExecFn select_handler(const Instr& in, std::string& why) {
  why = "no handler for this opcode and type";
  using Sel = ExecFn (*)(const Instr&, std::string&);
  for (Sel s : {select_control, select_memory, select_warp, select_convert, select_float, select_int}) {
    std::string w;
    if (ExecFn f = s(in, w)) return f;
    if (!w.empty()) why = w;
  }
  return nullptr;
}

}  // namespace warptlm
