#include "cbmesh/cb_mesh.hpp"

#include "common/clock.hpp"
#include "common/errors.hpp"

namespace warptlm {

CbMesh::CbMesh(sc_core::sc_module_name name, const CbMeshGeometry& mesh, uint32_t cb_bytes, MeshRules rules,
               uint32_t sync_latency, PlatformSite& site)
    : sc_core::sc_module(name),
      MeshRuntime(mesh, cb_bytes, rules),
      sms_(site.sms),
      clock_(site.core_clock),
      period_(site.period),
      sync_latency_(sync_latency),
      fault_(site.fault),
      step_budget_(site.cfg.get_int("sim.watchdog_cycles") ? uint64_t(site.cfg.get_int("sim.watchdog_cycles"))
                                                           : kStepBudgetWithoutWatchdog),
      dma_blocks_(mesh.units()),
      dma_arrived_(mesh.units(), false) {
  SharedMemoryParams p = SharedMemoryParams::from(site.cfg);
  p.size = 8 * cb_bytes;  // the unit's four double-buffered CBs
  const uint32_t line = uint32_t(site.cfg.get_int("sm.mem_line"));
  for (uint32_t u = 0; u < mesh.units(); ++u) {
    const std::string n = "cb_port" + std::to_string(u);
    ports_.push_back(std::make_unique<SharedMemory>(n.c_str(), "sm" + std::to_string(u) + ".cb", "cb", p, period_,
                                                    site.stats));
    if (dma_unit(u)) {
      dmas_.push_back(std::make_unique<IuDma>(mesh.unit_name(u).c_str(), u, line, clock_, period_, site.pool, *this));
      IuDma& d = *dmas_.back();
      d.cb_socket.bind(ports_.back()->socket);
      site.bound(d.cb_socket, ports_.back()->socket);
      site.bind_below(d.mem_socket);
      site.in_core_clock(d);
    } else {
      sms_[u]->cb_socket.bind(ports_.back()->socket);
      site.bound(sms_[u]->cb_socket, ports_.back()->socket);
    }
    site.in_core_clock(*ports_.back());
  }
  clock_index_ = clock_.join(*this);  // after the SMs and the engines
  site.in_core_clock(*this);
}

void CbMesh::block_synchronised(Block& b) {
  if (dma_unit(b.sm_id)) dma_arrived_[b.sm_id] = true;  // reaches the barrier once the step's transfers completed
  else signal(Signal::Arrive, b.sm_id);
}

// An engine's step: its sequencer runs the IU's program up to bar.blocksync or
// its end, recording the transfers, which then go out.
void CbMesh::dma_step_due(uint32_t u) {
  Block* b = dma_blocks_[u].get();
  if (!b) return;
  IuDma& d = dma(u);
  try {
    dma_arrived_[u] = false;
    const auto record = [&d](const Warp& w, const Instr& in) { d.record(w, in); };
    // Until every warp waits at bar.blocksync or exited (a thread barrier lets the warps before it go again).
    bool ran = false;
    while (run_step(u, *b, *launch_, record, step_budget_)) ran = true;
    if (!ran) return;  // waits parked
    const auto lines = d.begin_transfers(cycle_now(period_));
    stats_.dma_line_reads += lines.first;
    stats_.dma_line_writes += lines.second;
  } catch (const RunError& e) {
    if (fault_) fault_(e.what());
  }
}

void CbMesh::dma_step_done(uint32_t u) {
  Block* b = dma_blocks_[u].get();
  if (b->warps_done == b->warps.size()) {
    count_instructions(u, *b);
    forget_block(u);
    dma_blocks_[u].reset();
    signal(Signal::Finish, u);
  } else if (dma_arrived_[u]) {
    signal(Signal::Arrive, u);
  }
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
    for (uint32_t u = 0; u < geometry().units(); ++u)
      blocks_total_ += task(pass, u).kind != UnitTask::Kind::None && !dma_unit(u);  // the SMs' to retire
  return *this;
}

void CbMesh::dispatch(const std::function<void(uint32_t, std::unique_ptr<Block>)>& send) {
  if (pass_running_ || next_pass_ >= plan().passes()) return;
  std::vector<UnitBlock> units = begin_pass(*kernel_, *launch_, next_pass_);
  pass_running_ = true;
  for (UnitBlock& ub : units) {
    if (!dma_unit(ub.unit)) {
      send(ub.unit, std::move(ub.block));
      continue;
    }
    dma_blocks_[ub.unit] = std::move(ub.block);
    dma(ub.unit).schedule(cycle_now(period_) + 1);
  }
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
  if (dma_unit(u)) dma(u).schedule(cycle_ + 1);
  else sms_[u]->wake(cycle_ + 1);
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
        case Signal::Leave: leave(p.unit); break;
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
