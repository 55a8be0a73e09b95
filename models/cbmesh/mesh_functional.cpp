#include "cbmesh/mesh_functional.hpp"

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

MeshFunctional::MeshFunctional(const CbMeshGeometry& mesh, uint32_t cb_bytes, bool park_vius)
    : mesh_(mesh),
      storage_(mesh, cb_bytes),
      sync_(unit_names(mesh)),
      park_vius_(park_vius),
      one_half_(test_fault("cbmesh_one_half")),
      no_handover_(test_fault("cbmesh_no_handover")) {}

UnitTask MeshFunctional::task(const PassPlan& plan, uint32_t pass, uint32_t unit) const {
  const UnitTask t = plan.task(pass, unit);
  if (no_handover_ && (t.role == IuRole::Restore || t.role == IuRole::Spill)) return UnitTask{};
  return t;
}

uint8_t* MeshFunctional::cb_span(const Block& b, Space space, bool store, uint64_t offset, unsigned bytes,
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

void MeshFunctional::refresh_cb_bases() {
  const uint64_t syncs = one_half_ ? 0 : sync_.syncs();
  if (syncs == cb_base_syncs_) return;
  cb_base_syncs_ = syncs;
  cb_base_.resize(mesh_.units());
  for (uint32_t u = 0; u < mesh_.units(); ++u)
    for (CbAccess a : {CbAccess::LoadV, CbAccess::StoreV, CbAccess::LoadH, CbAccess::StoreH})
      cb_base_[u][size_t(a)] = storage_.cb(u, a, syncs);
}

void MeshFunctional::set_register(SReg r, uint32_t value) {
  for (auto& b : blocks_)
    if (b) b->set_mesh_register(r, value);
}

void MeshFunctional::released(const std::vector<uint32_t>& units) {
  if (units.empty()) return;
  refresh_cb_bases();
  set_register(SReg::MeshCSpillNb, uint32_t(sync_.syncs()));
  // reglast reaches a virtual IU only with the release that ends its loop: one
  // still between the pass's last synchronisation and its spill reads 0, so it
  // spills that step, whatever order the units run in.
  for (uint32_t u : units) {
    if (sync_.last()) blocks_[u]->set_mesh_register(SReg::MeshLast, 1);
    blocks_[u]->release_barrier(kMeshBarrier);
  }
}

void MeshFunctional::block_synchronised(Block& b) { released(sync_.arrive(b.sm_id)); }

void MeshFunctional::unleash_vius(Block&) {
  const bool first = !sync_.restart();
  const std::vector<uint32_t> r = sync_.unleash();
  if (first) set_register(SReg::MeshRestart, 1);
  released(r);
}

void MeshFunctional::start_unit(const KernelInfo& k, const LaunchState& L, const PassPlan& plan, uint32_t pass,
                                uint32_t unit, const UnitTask& t) {
  const uint32_t linear = t.block.y * L.grid[0] + t.block.x;
  auto b = std::make_unique<Block>(k, L, linear, unit);
  b->mesh = this;
  const PassCoord p = plan.coord(pass);
  const bool iu = t.kind == UnitTask::Kind::Interface;
  const bool viu = iu && (t.role == IuRole::Restore || t.role == IuRole::Spill);
  b->set_mesh_register(SReg::MeshIu, iu);
  b->set_mesh_register(SReg::MeshVirIu, viu);
  b->set_mesh_register(SReg::MeshIuDir, iu ? uint32_t(t.side) : 0);
  b->set_mesh_register(SReg::MeshIuId, iu ? t.iu_id : 0);
  b->set_mesh_register(SReg::MeshCPassX, p.x);
  b->set_mesh_register(SReg::MeshPassX, plan.passes_x());
  b->set_mesh_register(SReg::MeshCPassY, p.y);
  b->set_mesh_register(SReg::MeshSpillNb, uint32_t(sync_.syncs_per_pass()));
  ++(viu ? stats_.virtual_blocks : iu ? stats_.interface_blocks : stats_.compute_blocks);
  blocks_[unit] = std::move(b);
}

namespace {
// The instructions an interface unit cannot execute (sec. 5: "SMs in which we
// removed the shared memory, L1 cache, SFU and FPU"): float arithmetic and
// comparisons, the special functions, and shared-memory accesses. Moves,
// loads, stores and conversions need none of them.
const char* missing_unit(const Warp& w, const Instr& in) {
  switch (in.op) {
    case Op::Sqrt: case Op::Rsqrt: case Op::Rcp: case Op::Sin: case Op::Cos: case Op::Lg2: case Op::Ex2:
    case Op::Tanh:
      return "SFU";
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Mad: case Op::Fma: case Op::Div: case Op::Min: case Op::Max:
    case Op::Abs: case Op::Neg: case Op::Copysign: case Op::Testp:
      return dtype_float(in.type) ? "FPU" : nullptr;
    case Op::Setp: case Op::Set:
      return dtype_float(in.type2) || dtype_float(in.type) ? "FPU" : nullptr;
    default: break;
  }
  if (in.is_mem && w.addr_mask) {
    if (w.addr_space == Space::Shared) return "shared memory";
    if (w.addr_space == Space::Generic)
      for (uint32_t m = w.addr_mask; m; m &= m - 1) {
        if (in_shared_window(w.addr[__builtin_ctz(m)])) return "shared memory";
      }
  }
  return nullptr;
}
}  // namespace

void MeshFunctional::check_reduced(uint32_t unit, const Warp& w, const Instr& in) const {
  if (const char* what = missing_unit(w, in))
    throw RunError(mesh_.unit_name(unit) + " (an interface unit: a reduced SM without FPU, SFU or shared memory, seed "
                   "003 sec. 5) executes `" + in.text + "` at " + w.kernel.origin + ":" + std::to_string(in.line) +
                   ", which needs the " + what + " (kernel '" + w.kernel.name + "')");
}

void MeshFunctional::count_global(const Warp& w, const Instr& in, MeshSource src) {
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
  (in.op == Op::St ? stats_.global_stores : stats_.global_loads)[size_t(src)] += n;
}

void MeshFunctional::run_pass(const KernelInfo& k, const LaunchState& L, const PassPlan& plan, uint32_t pass) {
  const uint32_t n = mesh_.units();
  blocks_.clear();
  blocks_.resize(n);
  finished_.assign(n, false);
  source_.assign(n, MeshSource::Sm);
  reduced_.assign(n, false);
  std::vector<UnitTask> tasks(n);
  std::vector<bool> participant(n), parked(n), virt(n);
  for (uint32_t u = 0; u < n; ++u) {
    const UnitTask& t = tasks[u] = task(plan, pass, u);
    participant[u] = t.kind != UnitTask::Kind::None;
    virt[u] = t.role == IuRole::Restore || t.role == IuRole::Spill;
    reduced_[u] = t.kind == UnitTask::Kind::Interface && mesh_.kind(u) == CbMeshGeometry::UnitKind::Iu;
    source_[u] = virt[u] ? MeshSource::Viu : t.kind == UnitTask::Kind::Interface ? MeshSource::Iu : MeshSource::Sm;
    parked[u] = park_vius_ && virt[u];
  }
  sync_.begin_pass(pass, participant, parked, virt);
  cb_base_syncs_ = UINT64_MAX;
  refresh_cb_bases();
  uint32_t left = 0;
  for (uint32_t u = 0; u < n; ++u)
    if (participant[u]) {
      start_unit(k, L, plan, pass, u, tasks[u]);
      ++left;
    }
  while (left) {
    bool progress = false;
    for (uint32_t u = 0; u < n; ++u) {
      Block* b = blocks_[u].get();
      if (!b || finished_[u]) continue;
      for (auto& w : b->warps) {
        if (w.done || w.at_barrier) continue;
        progress = true;
        for (;;) {
          const Instr& in = w.kernel.prog[w.pc()];
          w.addr_mask = 0;
          const uint64_t executed = w.insts.thread;
          const StepStatus s = step(w, L);
          if (in.is_mem && w.addr_mask) count_global(w, in, source_[u]);
          if (reduced_[u] && w.insts.thread != executed) check_reduced(u, w, in);
          if (s == StepStatus::Ok) continue;
          if (s == StepStatus::Exited) b->warp_exited();
          break;
        }
      }
      if (b->warps_done == b->warps.size()) {
        for (const Warp& w : b->warps) stats_.instructions += w.insts;
        finished_[u] = true;
        --left;
        released(sync_.finish(u));
      }
    }
    if (!progress && left) throw RunError("deadlock on the mesh, " + sync_.describe_wait());
  }
  sync_.end_pass();
  stats_.syncs += sync_.syncs();
}

void MeshFunctional::run(const KernelInfo& k, const LaunchState& L) {
  if (L.grid[2] != 1)
    throw InputError("kernel '" + k.name + "': the mesh runs 2-D grids only (gridDim.z is " +
                     std::to_string(L.grid[2]) + ", seed 003 sec. 2.5)");
  const PassPlan plan(mesh_, L.grid[0], L.grid[1]);
  stats_ = MeshRunStats{};
  stats_.passes = plan.passes();
  for (uint32_t pass = 0; pass < plan.passes(); ++pass) run_pass(k, L, plan, pass);
  stats_.syncs_per_pass = sync_.syncs_per_pass();
  blocks_.clear();
}

}  // namespace warptlm
