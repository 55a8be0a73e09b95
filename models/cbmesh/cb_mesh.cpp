#include "cbmesh/cb_mesh.hpp"

#include "common/clock.hpp"
#include "common/errors.hpp"

namespace warptlm {

CbMesh::CbMesh(sc_core::sc_module_name name, const CbMeshGeometry& mesh, uint32_t cb_bytes, bool park_vius,
               bool leave_early, uint32_t sync_latency, PlatformSite& site)
    : sc_core::sc_module(name),
      MeshRuntime(mesh, cb_bytes, park_vius, leave_early),
      sms_(site.sms),
      clock_(site.core_clock),
      clock_index_(site.core_clock.join(*this)),
      period_(site.period),
      sync_latency_(sync_latency),
      fault_(site.fault) {
  SharedMemoryParams p = SharedMemoryParams::from(site.cfg);
  p.size = 8 * cb_bytes;  // the unit's four double-buffered CBs
  for (uint32_t u = 0; u < mesh.units(); ++u) {
    const std::string n = "cb_port" + std::to_string(u);
    ports_.push_back(std::make_unique<SharedMemory>(n.c_str(), "sm" + std::to_string(u) + ".cb", "cb", p, period_,
                                                    site.stats));
    sms_[u]->cb_socket.bind(ports_.back()->socket);
    site.bound(sms_[u]->cb_socket, ports_.back()->socket);
    site.in_core_clock(*ports_.back());
  }
  site.in_core_clock(*this);
}

BlockSchedule& CbMesh::begin_launch(const KernelInfo& k, LaunchState& L) {
  begin_run(k, L);
  kernel_ = &k;
  launch_ = &L;
  pending_.clear();
  next_pass_ = 0;
  pass_running_ = false;
  blocks_total_ = 0;
  for (uint32_t pass = 0; pass < plan().passes(); ++pass)
    for (uint32_t u = 0; u < geometry().units(); ++u) blocks_total_ += task(pass, u).kind != UnitTask::Kind::None;
  return *this;
}

void CbMesh::dispatch(const std::function<void(uint32_t, std::unique_ptr<Block>)>& send) {
  if (pass_running_ || next_pass_ >= plan().passes()) return;
  std::vector<UnitBlock> units = begin_pass(*kernel_, *launch_, next_pass_);
  pass_running_ = true;
  for (UnitBlock& ub : units) send(ub.unit, std::move(ub.block));
}

void CbMesh::signal(Signal s, uint32_t unit) {
  const uint64_t due = cycle_now(period_) + sync_latency_ - 1;
  pending_.push_back(Pending{due, s, unit});
  clock_.request(clock_index_, due);
}

void CbMesh::unit_retired(uint32_t u) {
  forget_block(u);  // the SM frees it now; the barrier hears of it at its edge
  signal(Signal::Finish, u);
}

void CbMesh::release_unit(uint32_t u) {
  MeshRuntime::release_unit(u);
  sms_[u]->wake(cycle_ + 1);
}

// The barrier's edge: the signals due now, in the order the SMs gave them
// (SM order within an edge); a pass whose units all finished ends here, so the
// dispatcher, whose edge follows, sends the next one.
uint64_t CbMesh::clock_edge(uint64_t cycle) {
  cycle_ = cycle;
  try {
    size_t i = 0;
    for (; i < pending_.size() && pending_[i].due <= cycle; ++i) {
      const Pending& p = pending_[i];
      switch (p.what) {
        case Signal::Arrive: arrive(p.unit); break;
        case Signal::Unleash: unleash(); break;
        case Signal::Finish: finish(p.unit); break;
      }
    }
    pending_.erase(pending_.begin(), pending_.begin() + ptrdiff_t(i));
    if (pass_running_ && pass_finished()) {
      end_pass();
      pass_running_ = false;
      ++next_pass_;
      if (on_pass_end) on_pass_end(stats_);
      stats_ = MeshRunStats{};
      if (ready) ready();
    }
  } catch (const RunError& e) {
    pending_.clear();
    if (fault_) fault_(e.what());
    return kNever;
  }
  return pending_.empty() ? kNever : pending_.front().due;
}

}  // namespace warptlm
