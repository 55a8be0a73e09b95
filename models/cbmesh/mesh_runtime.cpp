#include "cbmesh/mesh_runtime.hpp"

#include "common/errors.hpp"
#include "common/input_register.hpp"

namespace warptlm {

namespace {
std::vector<std::string> unit_names(const CbMeshGeometry& mesh) {
  std::vector<std::string> n;
  for (uint32_t u = 0; u < mesh.units(); ++u) n.push_back(mesh.unit_name(u));
  return n;
}
const char* side_word(CbAccess a) {
  switch (a) {
    case CbAccess::LoadV: return "north";
    case CbAccess::StoreV: return "south";
    case CbAccess::LoadH: return "west";
    case CbAccess::StoreH: return "east";
  }
  return "?";
}
}  // namespace

MeshRuntime::MeshRuntime(const CbMeshGeometry& mesh, uint32_t cb_bytes, MeshRules rules)
    : mesh_(mesh),
      storage_(mesh, cb_bytes),
      sync_(unit_names(mesh), rules.leave_early),
      rules_(rules),
      one_half_(test_fault("cbmesh_one_half")),
      no_handover_(test_fault("cbmesh_no_handover")),
      blocks_(mesh.units(), nullptr),
      source_(mesh.units(), MeshSource::Sm),
      reduced_(mesh.units(), false),
      cb_base_(mesh.units()) {}

UnitTask MeshRuntime::task(uint32_t pass, uint32_t unit) const {
  const UnitTask t = plan_->task(pass, unit);
  if (no_handover_ && (t.role == IuRole::Restore || t.role == IuRole::Spill)) return UnitTask{};
  return t;
}

uint8_t* MeshRuntime::cb_span(const Block& b, Space space, bool store, uint64_t offset, unsigned bytes,
                              std::string& why) {
  const CbAccess a = space == Space::Cbv ? (store ? CbAccess::StoreV : CbAccess::LoadV)
                                         : (store ? CbAccess::StoreH : CbAccess::LoadH);
  uint8_t* cb = cb_base_[b.sm_id][size_t(a)];
  if (!cb) {
    why = std::string("is in no CB: ") + mesh_.unit_name(b.sm_id) + " has no CB to the " + side_word(a);
    return nullptr;
  }
  if (offset + bytes > storage_.cb_bytes() || offset + bytes < offset) {
    why = "is past the end of " + mesh_.unit_name(b.sm_id) + "'s " + side_word(a) + " CB (" +
          std::to_string(storage_.cb_bytes()) + " bytes)";
    return nullptr;
  }
  ++(store ? stats_.cb_stores : stats_.cb_loads);
  return cb + offset;
}

void MeshRuntime::refresh_cb_bases() {
  const uint64_t syncs = one_half_ ? 0 : sync_.syncs();
  if (syncs == cb_base_syncs_) return;
  cb_base_syncs_ = syncs;
  for (uint32_t u = 0; u < mesh_.units(); ++u)
    for (CbAccess a : {CbAccess::LoadV, CbAccess::StoreV, CbAccess::LoadH, CbAccess::StoreH})
      cb_base_[u][size_t(a)] = storage_.cb(u, a, syncs);
}

void MeshRuntime::set_register(SReg r, uint32_t value) {
  for (Block* b : blocks_)
    if (b) b->set_mesh_register(r, value);
}

void MeshRuntime::released(const std::vector<uint32_t>& units) {
  if (units.empty()) return;
  refresh_cb_bases();
  set_register(SReg::MeshCSpillNb, uint32_t(sync_.syncs()));
  // reglast reaches a virtual IU only with the release that ends its loop: one
  // still between the pass's last synchronisation and its spill reads 0, so it
  // spills that step, whatever order the units run in.
  for (uint32_t u : units) {
    if (sync_.last()) blocks_[u]->set_mesh_register(SReg::MeshLast, 1);
    release_unit(u);
  }
}

void MeshRuntime::unleash() {
  const bool first = !sync_.restart();
  const std::vector<uint32_t> r = sync_.unleash();
  if (first) set_register(SReg::MeshRestart, 1);
  released(r);
}

void MeshRuntime::finish(uint32_t u) {
  blocks_[u] = nullptr;
  released(sync_.finish(u));
}

void MeshRuntime::end_pass() {
  sync_.end_pass();
  stats_.syncs += sync_.syncs();
  stats_.syncs_per_pass = sync_.syncs_per_pass();
}

std::unique_ptr<Block> MeshRuntime::make_block(const KernelInfo& k, const LaunchState& L, uint32_t pass,
                                               uint32_t unit, const UnitTask& t) {
  const uint32_t linear = t.block.y * L.grid[0] + t.block.x;
  auto b = std::make_unique<Block>(k, L, linear, unit);
  b->mesh = this;
  const PassCoord p = plan_->coord(pass);
  const bool iu = t.kind == UnitTask::Kind::Interface;
  const bool viu = iu && (t.role == IuRole::Restore || t.role == IuRole::Spill);
  b->set_mesh_register(SReg::MeshIu, iu);
  b->set_mesh_register(SReg::MeshVirIu, viu);
  b->set_mesh_register(SReg::MeshIuDir, iu ? uint32_t(t.side) : 0);
  b->set_mesh_register(SReg::MeshIuId, iu ? t.iu_id : 0);
  b->set_mesh_register(SReg::MeshCPassX, p.x);
  b->set_mesh_register(SReg::MeshPassX, plan_->passes_x());
  b->set_mesh_register(SReg::MeshCPassY, p.y);
  b->set_mesh_register(SReg::MeshSpillNb, uint32_t(sync_.syncs_per_pass()));
  ++(viu ? stats_.virtual_blocks : iu ? stats_.interface_blocks : stats_.compute_blocks);
  return b;
}

void MeshRuntime::begin_run(const KernelInfo& k, const LaunchState& L) {
  if (L.grid[2] != 1)
    throw InputError("kernel '" + k.name + "': the mesh runs 2-D grids only (gridDim.z is " +
                     std::to_string(L.grid[2]) + ", seed 003 sec. 2.5)");
  plan_ = std::make_unique<PassPlan>(mesh_, L.grid[0], L.grid[1]);
  stats_ = MeshRunStats{};
}

std::vector<UnitBlock> MeshRuntime::begin_pass(const KernelInfo& k, const LaunchState& L, uint32_t pass) {
  const uint32_t n = mesh_.units();
  std::vector<UnitTask> tasks(n);
  std::vector<bool> participant(n), parked(n), virt(n);
  for (uint32_t u = 0; u < n; ++u) {
    const UnitTask& t = tasks[u] = task(pass, u);
    participant[u] = t.kind != UnitTask::Kind::None;
    virt[u] = t.role == IuRole::Restore || t.role == IuRole::Spill;
    reduced_[u] = t.kind == UnitTask::Kind::Interface && mesh_.kind(u) == CbMeshGeometry::UnitKind::Iu;
    source_[u] = virt[u] ? MeshSource::Viu : t.kind == UnitTask::Kind::Interface ? MeshSource::Iu : MeshSource::Sm;
    parked[u] = rules_.park_vius && virt[u];
  }
  sync_.begin_pass(pass, participant, parked, virt);
  cb_base_syncs_ = UINT64_MAX;
  refresh_cb_bases();
  ++stats_.passes;
  std::vector<UnitBlock> out;
  for (uint32_t u = 0; u < n; ++u) {
    blocks_[u] = nullptr;
    if (!participant[u]) continue;
    out.push_back(UnitBlock{u, make_block(k, L, pass, u, tasks[u])});
    blocks_[u] = out.back().block.get();
    if (parked[u]) hold_at_start(u, *blocks_[u]);
  }
  return out;
}

// A parked virtual IU starts its block waiting at the mesh barrier, as if at a
// synchronisation before its first instruction: it does nothing until
// bar.unleashvius lets it go, and then starts at the pass's count of then
// (sec. 2.8: the VIUs "start their computation at the same time step than the
// loading IUs"). A VIU that ran up to its first synchronisation instead could
// still be moving a stale step's data while the count runs ahead, and land it
// in the CB half of a later step (models/cbmesh/README.md).
void MeshRuntime::hold_at_start(uint32_t u, Block& b) {
  for (Warp& w : b.warps) {
    w.at_barrier = true;
    w.barrier_id = uint8_t(kMeshBarrier);
  }
  released(sync_.arrive(u));  // waits parked, uncounted
}

namespace {
// The instructions an interface unit cannot execute (sec. 5: "SMs in which we
// removed the shared memory, L1 cache, SFU and FPU"): float arithmetic and
// comparisons, the special functions; and shared-memory accesses. Moves,
// loads, stores and conversions need none of them.
const char* missing_unit(const Instr& in) {
  switch (in.op) {
    case Op::Sqrt: case Op::Rsqrt: case Op::Rcp: case Op::Sin: case Op::Cos: case Op::Lg2: case Op::Ex2:
    case Op::Tanh:
      return "SFU";
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Mad: case Op::Fma: case Op::Div: case Op::Min: case Op::Max:
    case Op::Abs: case Op::Neg: case Op::Copysign: case Op::Testp:
      return dtype_float(in.type) ? "FPU" : nullptr;
    case Op::Setp: case Op::Set:
      return dtype_float(in.type2) || dtype_float(in.type) ? "FPU" : nullptr;
    default: return nullptr;
  }
}
bool touches_shared(const Warp& w, const Instr& in) {
  if (!in.is_mem || !w.addr_mask) return false;
  if (w.addr_space == Space::Shared) return true;
  if (w.addr_space == Space::Generic)
    for (uint32_t m = w.addr_mask; m; m &= m - 1)
      if (in_shared_window(w.addr[__builtin_ctz(m)])) return true;
  return false;
}
[[noreturn]] void reduced_error(const CbMeshGeometry& mesh, uint32_t unit, bool dma, const Warp& w, const Instr& in,
                                const char* what) {
  throw RunError(mesh.unit_name(unit) +
                 (dma ? " (an interface unit: a DMA engine, whose sequencer runs the IU's addressing and moves, "
                        "without FPU, SFU or shared memory, seed 003 sec. 5)"
                      : " (an interface unit: a reduced SM without FPU, SFU or shared memory, seed 003 sec. 5)") +
                 " executes `" + in.text + "` at " + w.kernel.origin + ":" + std::to_string(in.line) +
                 ", which needs the " + what + " (kernel '" + w.kernel.name + "')");
}
}  // namespace

void MeshRuntime::check_reduced_op(uint32_t u, const Warp& w, const Instr& in) const {
  if (const char* what = missing_unit(in)) reduced_error(mesh_, u, dma_unit(u), w, in, what);
  // A DMA engine moves data; it has no atomic unit at memory's side.
  if (dma_unit(u) && (in.op == Op::Atom || in.op == Op::Red)) reduced_error(mesh_, u, true, w, in, "atomic unit");
}

void MeshRuntime::check_reduced_access(uint32_t u, const Warp& w, const Instr& in) const {
  if (touches_shared(w, in)) reduced_error(mesh_, u, dma_unit(u), w, in, "shared memory");
}

void MeshRuntime::step_overrun(uint32_t u, const Warp& w, uint64_t budget) const {
  throw RunError(mesh_.unit_name(u) + ": its program ran " + std::to_string(budget) +
                 " instructions in one step without reaching bar.blocksync or its end (sim.watchdog_cycles), at " +
                 w.kernel.origin + ":" + std::to_string(w.kernel.prog[w.pc()].line) + " (kernel '" + w.kernel.name + "')");
}

void MeshRuntime::count_instructions(uint32_t u, const Block& b) {
  InstructionCounts& to = dma_unit(u) ? stats_.dma_instructions : stats_.instructions;
  for (const Warp& w : b.warps) to += w.insts;
}

void MeshRuntime::count_global(uint32_t u, const Warp& w, const Instr& in) {
  if (in.op != Op::Ld && in.op != Op::Ldu && in.op != Op::St) return;
  uint64_t n = 0;
  if (w.addr_space == Space::Global) {
    n = uint64_t(__builtin_popcount(w.addr_mask));
  } else if (w.addr_space == Space::Generic) {
    for (uint32_t m = w.addr_mask; m; m &= m - 1) {
      const uint64_t a = w.addr[__builtin_ctz(m)];
      n += !in_shared_window(a) && !in_local_window(a);
    }
  }
  (in.op == Op::St ? stats_.global_stores : stats_.global_loads)[size_t(source_[u])] += n;
}

}  // namespace warptlm
