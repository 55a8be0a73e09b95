// Functional SIMT executor. A warp executes one decoded instruction at a time
// over its 32 lanes ("execute at issue"): registers and memory change then, and
// the step reports the lanes' addresses so a timing model can decide when the
// access completes. Divergence uses a SIMT reconvergence stack keyed on
// immediate post-dominators (Fung et al.; GPGPU-Sim's model).
#pragma once
#include <algorithm>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "isa/ir.hpp"
#include "isa/memory.hpp"
#include "isa/module.hpp"

namespace warptlm {

struct SimtEntry {
  uint32_t pc;
  uint32_t rpc;        // reconvergence pc: the entry pops when pc reaches it
  uint32_t mask;
  int32_t call_site;   // >= 0: this entry is a .func activation; results copy back when it pops
};

// A warp's reconvergence stack. Its first entries are held in the warp itself, so the scheduler's look at a
// warp's next pc reads no other memory; deeper divergence (up to two entries per split of the mask, one per
// call) moves the entries to the heap.
class SimtStack {
 public:
  static constexpr uint32_t kInline = 4;
  SimtStack() = default;
  SimtStack(const SimtStack& o) { assign(o); }
  SimtStack& operator=(const SimtStack& o) {
    if (this != &o) assign(o);
    return *this;
  }
  SimtStack(SimtStack&& o) noexcept { take(o); }
  SimtStack& operator=(SimtStack&& o) noexcept {
    if (this != &o) take(o);
    return *this;
  }

  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  SimtEntry& back() { return data()[size_ - 1]; }
  const SimtEntry& back() const { return data()[size_ - 1]; }
  SimtEntry& operator[](size_t i) { return data()[i]; }
  const SimtEntry& operator[](size_t i) const { return data()[i]; }
  SimtEntry* begin() { return data(); }
  SimtEntry* end() { return data() + size_; }
  const SimtEntry* begin() const { return data(); }
  const SimtEntry* end() const { return data() + size_; }
  void pop_back() { --size_; }
  void clear() { size_ = 0; }
  void push_back(const SimtEntry& e) {
    if (size_ == capacity()) grow();
    data()[size_++] = e;
  }

 private:
  SimtEntry* data() { return spill_.empty() ? inline_ : spill_.data(); }
  const SimtEntry* data() const { return spill_.empty() ? inline_ : spill_.data(); }
  size_t capacity() const { return spill_.empty() ? kInline : spill_.size(); }
  void grow() {
    std::vector<SimtEntry> bigger(capacity() * 2);
    std::copy(begin(), end(), bigger.begin());
    spill_.swap(bigger);
  }
  void assign(const SimtStack& o) {
    spill_ = o.spill_;
    std::copy(o.inline_, o.inline_ + kInline, inline_);
    size_ = o.size_;
  }
  void take(SimtStack& o) {
    spill_ = std::move(o.spill_);
    std::copy(o.inline_, o.inline_ + kInline, inline_);
    size_ = o.size_;
    o.spill_.clear();
    o.size_ = 0;
  }

  uint32_t size_ = 0;
  SimtEntry inline_[kInline] = {};
  std::vector<SimtEntry> spill_;  // all entries, once more than kInline were held
};

struct LaunchState;
class Block;
class GlobalWriteLog;

// Instructions executed: warp instructions, thread instructions (lanes whose
// guard predicate was true: GPGPU-Sim's detailed-mode count, the seed papers'
// IPC) and active-lane instructions (every lane of the active mask, guard or not).
struct InstructionCounts {
  uint64_t warp = 0, thread = 0, lane = 0;
  InstructionCounts& operator+=(const InstructionCounts& o) {
    warp += o.warp, thread += o.thread, lane += o.lane;
    return *this;
  }
  InstructionCounts operator-(const InstructionCounts& o) const { return {warp - o.warp, thread - o.thread, lane - o.lane}; }
};

class Warp {
 public:
  Warp(const KernelInfo& k, Block& b, uint32_t warp_in_block, uint32_t lanes_valid);
  // As a new warp of its block (Block::restart): its storage kept.
  void restart();

  // What the scheduler looks at first, together: whether it can go on, and its reconvergence stack's top.
  bool done = false;
  bool at_barrier = false;
  uint8_t barrier_id = 0;         // the named barrier it waits at (when at_barrier)
  SimtStack stack;
  const KernelInfo& kernel;
  Block& block;
  uint32_t index;                 // warp index within the block
  uint32_t valid_mask;            // lanes that hold a thread
  uint32_t exited = 0;
  std::vector<uint64_t> regs;     // [slot][lane], lane-contiguous
  std::vector<uint32_t> preds;    // one lane mask per predicate register
  std::vector<uint8_t> local;     // [lane][local_bytes]
  std::vector<uint8_t> frame;     // [lane][frame_bytes]: .func parameters
  uint32_t furthest_pc = 0;       // the furthest pc it reached (the functional watchdog's progress)
  const Instr* pending_red = nullptr;  // bar.red waiting for its result
  uint32_t pending_red_mask = 0;

  // The last memory instruction's per-lane addresses (for the timing model).
  uint64_t addr[32];
  uint32_t addr_mask = 0;
  uint8_t addr_bytes = 0;
  Space addr_space = Space::Generic;

  InstructionCounts insts;  // what this warp executed

  uint32_t pc() const { return stack.empty() ? kNoPc : stack.back().pc; }
  uint32_t active_mask() const { return stack.empty() ? 0 : stack.back().mask; }
  uint64_t* reg(uint32_t slot) { return &regs[size_t(slot) * 32]; }
  uint32_t thread_id(unsigned lane) const { return index * 32 + lane; }

 private:
  void start();  // registers, predicates and local memory zeroed, the special registers set, at pc 0
};

// Where a block's shared-memory offsets lie in its SM's physical shared memory:
// offsets below `boundary` move by `low`, the others by `high` (two base registers).
struct SharedAddressMap {
  uint32_t boundary = 0, low = 0, high = 0;
  uint32_t operator()(uint32_t offset) const { return offset + (offset < boundary ? low : high); }
};

// What a block sees of the mesh its unit belongs to (a mesh platform, seed 003):
// its communication buffers and the mesh-wide block synchronisation. Null on a GPU.
class MeshPort {
 public:
  virtual ~MeshPort() = default;
  // Host bytes of [offset, offset + bytes) of the CB the block's unit reaches in
  // this step with an access to `space` (a load: north for cbv, west for cbh; a
  // store: south or east); null with `why` set where it has no CB there or the
  // range is past the CB's end.
  virtual uint8_t* cb_span(const Block& b, Space space, bool store, uint64_t offset, unsigned bytes,
                           std::string& why) = 0;
  // Every live warp of the block reached bar.blocksync: the unit arrives at the
  // mesh-wide barrier, which releases the block's kMeshBarrier when it does.
  virtual void block_synchronised(Block& b) = 0;
  // bar.unleashvius, executed by a warp of the block.
  virtual void unleash_vius(Block& b) = 0;
};

// A resident thread block: its shared memory, warps and barrier.
class Block {
 public:
  // `warps_now`: its warps (their registers, predicates and local memory) made now, or by make_warps()
  // when an SM installs it (its own part: the dispatcher only chooses the SM).
  Block(const KernelInfo& k, const LaunchState& launch, uint32_t linear_id, uint32_t sm_id, bool warps_now = true);
  void make_warps();
  // The block becomes block `id` of the same launch on SM `sm`, as a new one would be (shared memory and
  // every warp's state zeroed, its barriers free), keeping its storage: the functional executor runs a
  // launch's blocks one after another in one Block. Only for a block never placed in an SM's memory.
  void restart(uint32_t id, uint32_t sm);
  const KernelInfo& kernel;
  const LaunchState& launch;
  uint32_t linear_id;
  uint32_t ctaid[3];
  uint32_t sm_id;
  // The block's scratchpad: `shared_bytes` bytes, its own (`shared`, zeroed)
  // until an SM places it in the SM's physical shared memory (place_shared),
  // where its offsets go through `shared_map` and blocks that share a region
  // really use the same bytes.
  std::vector<uint8_t> shared;
  uint32_t shared_bytes = 0;
  uint8_t* shared_base = nullptr;  // shared.data(), or the SM's storage
  SharedAddressMap shared_map;     // identity for its own bytes
  void place_shared(uint8_t* storage, const SharedAddressMap& m);
  // [a, a + n) as one span of storage, or null when the map splits it (an
  // access across `boundary`: read_shared/write_shared move it byte by byte).
  uint8_t* shared_span(uint32_t a, unsigned n) {
    const uint32_t m = shared_map.boundary;
    return a < m && a + n > m ? nullptr : shared_base + shared_map(a);
  }
  void read_shared(uint32_t a, unsigned n, uint8_t* out) const;
  void write_shared(uint32_t a, unsigned n, const uint8_t* in);
  std::vector<Warp> warps;
  // One of the block's 16 named barriers (PTX bar.sync a{, b}: barrier a,
  // b threads). Warps at different ids wait for their own barrier only.
  static constexpr uint32_t kNamedBarriers = warptlm::kNamedBarriers;
  struct NamedBarrier {
    uint32_t arrived = 0;   // warps arrived (waiting, or passed with bar.arrive)
    uint32_t expected = 0;  // warps it waits for (0: all live warps)
    // bar.red: the reduction of the predicate, delivered at release.
    uint32_t red_popc = 0;
    bool red_and = true, red_or = false;
    uint32_t need(uint32_t live) const { return expected ? expected : live; }
  };
  NamedBarrier barriers[kNamedBarriers + 1];  // the named ones, then bar.blocksync's (kMeshBarrier)
  uint32_t warps_done = 0;
  // On a mesh platform: the unit's mesh and the registers its run-time sets
  // (seed 003 sec. 2.9), which the block's warps read as %regiu ... %reglast.
  MeshPort* mesh = nullptr;
  uint32_t mesh_regs[kMeshRegs] = {};
  // On a timing SM: where the block's global stores and atomics wait for the
  // end of the core edge (write_log.hpp). Null: they take effect at once.
  GlobalWriteLog* global_writes = nullptr;
  // On a timing SM: its core cycle, which %clock reads (null: the launch's clock).
  const uint64_t* clock = nullptr;
  // The run-time writes a unit register: every warp of the block sees the new value.
  void set_mesh_register(SReg r, uint32_t value);

  uint32_t live_warps() const { return uint32_t(warps.size()) - warps_done; }
  // Some warp of the block waits at one of its barriers (a warp a scheduler
  // holds back must then still issue, or the barrier never releases).
  bool waits_at_barrier() const {
    for (const NamedBarrier& n : barriers)  // bar.blocksync's included
      if (n.arrived) return true;
    return false;
  }
  // A warp reached bar.sync `id` (waits) or bar.arrive `id` (passes on);
  // returns true when the barrier releases (all arrived).
  bool arrive_at_barrier(Warp& w, uint32_t id, uint32_t expected_warps, bool wait = true);
  void release_barrier(uint32_t id);
  // Every warp it waits for arrived: a named barrier releases; bar.blocksync's
  // hands the block to the mesh-wide barrier (MeshPort::block_synchronised).
  void barrier_complete(uint32_t id);
  // A warp finished: it no longer holds a pending barrier back.
  void warp_exited();
};

// How a functional run is watched (the platform's run control): the block
// runner reports each warp instruction; every `look_every` of them the watch
// looks at the stop requests (an interrupt, a run limit: check() throws
// RunStopped), and a block in which no warp reached a pc beyond the furthest it
// had reached, and no warp exited, for `watchdog` warp instructions (0 = never)
// is stopped as a deadlock naming each warp and its PTX line. A block that
// retires is progress too: its successor's warps start from pc 0.
class FunctionalWatch {
 public:
  static constexpr uint64_t kLookEvery = 1u << 16;  // warp instructions between looks
  explicit FunctionalWatch(uint64_t watchdog) : watchdog_(watchdog) {}
  virtual ~FunctionalWatch() = default;
  // After each warp instruction of `w` (the executor's hot path: a count and a compare).
  void after_step(Warp& w) {
    ++executed_;
    const uint32_t pc = w.stack.empty() ? kNoPc : w.stack.back().pc;
    if (pc > w.furthest_pc) w.furthest_pc = pc, progress_at_ = executed_;
    if (executed_ >= next_look_) look(w);
  }
  // Warp instructions run under this watch so far (every functional launch of the run).
  uint64_t executed() const { return executed_; }

 protected:
  // The stop requests: throws RunStopped naming `kernel` when one holds.
  virtual void check(const std::string& kernel) = 0;

 private:
  void look(const Warp& w);
  uint64_t watchdog_;
  uint64_t executed_ = 0, progress_at_ = 0, next_look_ = kLookEvery;
};

// What a functional run tells about each memory instruction it executes (sampling warms the timing model's
// caches with them: docs/sampling.md): the warp's per-lane addresses are in w.addr / w.addr_mask.
class MemoryAccessObserver {
 public:
  virtual ~MemoryAccessObserver() = default;
  virtual void accessed(const Block& b, const Warp& w, const Instr& in) = 0;
};

// What every block of one launch shares.
struct LaunchState {
  const KernelInfo* kernel = nullptr;
  GlobalMemory* mem = nullptr;
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
  uint32_t dynamic_smem = 0;
  uint32_t num_sms = 1;
  uint32_t threads_per_block = 1;
  uint32_t warps_per_block = 1;
  std::vector<uint8_t> params;
  const uint64_t* clock = nullptr;  // current core cycle, read by %clock
  uint64_t grid_id = 0;
  uint32_t launch_hint = 0;  // the host's scheduling hint for this launch (0: none), for the mechanisms that read one
  // Where the timing model fetches from (set by the platform): instruction i of
  // the kernel at code_address + 8 i, parameter byte j at param_address + j.
  uint64_t code_address = 0, param_address = 0;
  FunctionalWatch* watch = nullptr;  // the functional run's watch (null: unwatched, as in unit tests)
  MemoryAccessObserver* accesses = nullptr;  // told each memory instruction of a functional run (null: none)
};

// Everything a handler needs for one warp-instruction.
struct ExecCtx {
  Warp& w;
  Block& b;
  const LaunchState& L;
  uint32_t mask;    // lanes that execute: active and guard true
  uint32_t active;  // SIMT-active lanes
};

// The lanes of `lanes` whose guard predicate holds (all of them when the instruction has no guard).
inline uint32_t guard_true(const Warp& w, const Instr& in, uint32_t lanes) {
  if (in.guard < 0) return lanes;
  return lanes & (in.guard_neg ? ~w.preds[size_t(in.guard)] : w.preds[size_t(in.guard)]);
}

// Why a warp stopped after a step.
enum class StepStatus : uint8_t { Ok, Barrier, Exited };

// One warp-instruction. Faults throw RunError naming kernel, block, thread,
// pc, PTX file:line and address.
StepStatus step(Warp& w, const LaunchState& L);
// The warp's next instruction in program order done another way (a mechanism's replay of work it ran out
// of order): `as` executes in its place (e.g. a copy of a renamed result into the register the instruction
// writes), or with `as` null nothing executes; either way the warp moves past the instruction as `step`
// would past a non-control one. Counts a warp instruction only when something executes.
StepStatus step_in_place_of(Warp& w, const LaunchState& L, const Instr* as);
// An instruction executed off the warp's program order (a mechanism's out-of-order issue): `in` runs for
// the warp's active lanes with its guard, the pc and the SIMT stack stay; a branch does nothing here (the
// mechanism follows its direction: branch_lanes). Counts a warp instruction.
void execute_detached(Warp& w, const LaunchState& L, const Instr& in);
// The active lanes a branch would send to its target (all of them for an unguarded branch).
inline uint32_t branch_lanes(const Warp& w, const Instr& in);

// The per-lane addresses a memory instruction will access, read from the
// warp's registers before it executes (issue-time checks such as the
// scratchpad-sharing lock need them). Returns the lanes that access memory
// (active and guard true); 0 for a non-memory instruction.
uint32_t peek_addresses(const Warp& w, const Instr& in, uint64_t* addr);

// Run one block to completion on the functional model (all warps, barriers),
// watched by L.watch when it has one. A barrier no warp can pass is a deadlock
// (RunStopped "deadlock") naming the waiting warps.
void run_block_functional(Block& b, const LaunchState& L);
// The block's unfinished warps, one line each: where each waits or spins, at which pc and PTX line.
void describe_block_warps(std::ostream& os, const Block& b);

// Handler selection at link time; nullptr with `why` set when unsupported.
ExecFn select_handler(const Instr& in, std::string& why);

inline uint32_t branch_lanes(const Warp& w, const Instr& in) { return guard_true(w, in, w.stack.back().mask); }

}  // namespace warptlm
