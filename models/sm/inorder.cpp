// The SM with sm.pipeline.model: inorder (seed 001's baseline core, spec 001
// sec. 1.2-1.5 and 1.7): the issue stage sends a warp instruction's subwarps
// on consecutive cycles into the stage pipeline (inorder_pipeline.hpp); data
// returning from memory takes the writeback port before the pipeline's own
// results; every cycle of the issue stage is charged to one outcome of the
// paper's Fig. 6 taxonomy.
//
// The instruction still executes at issue (registers and memory change then);
// the pipeline decides when its results count as written: a register result
// at its last subwarp's WB, a global load's when its data returns. Requests
// leave the LD/ST unit as the first subwarp nominally reaches MEM0 (issue +
// front + EXE stages), shared-memory requests too, so the bank array's
// statistics stay those of the shared memory itself.
#include <algorithm>

#include "sm/sm.hpp"

namespace warptlm {

PipelineShape Sm::pipeline_shape() const {
  PipelineShape s;
  s.front = p_.front_stages;
  s.exe = p_.exe_stages;
  s.mem = p_.mem_stages;
  s.subwarps = p_.subwarps();
  s.writeback_ports = p_.writeback_ports;
  return s;
}

void Sm::declare_pipeline_stats(StatsRegistry& stats, const std::string& inst) {
  StatGroup g(stats, inst + ".pipe", "pipe");
  pipe_stats_.issue = &g.counter("issue_cycles", "cycles the issue stage sent a warp instruction's first subwarp");
  pipe_stats_.subwarp = &g.counter("subwarp_cycles", "cycles the issue stage sent a later subwarp of the instruction in progress");
  pipe_stats_.sched_fail = &g.counter("stall_sched_fail", "stall cycles with no warp ready to issue (Fig. 6: warp scheduling fails)");
  pipe_stats_.bank_conflict = &g.counter("stall_bank_conflict", "stall cycles the front end was held by a bank conflict at MEM0 (Fig. 6)");
  pipe_stats_.other = &g.counter("stall_other",
                                 "stall cycles the front end was held by a writeback conflict, or the ready warp found the "
                                 "LD/ST unit full (Fig. 6: other)");
  pipe_stats_.wb_core = &g.counter("wb_results", "subwarp results the pipeline wrote back");
  pipe_stats_.wb_returns = &g.counter("wb_returns", "writeback slots taken by data returning from memory");
  // the analytical check of spec 001 (Eq. 2, Table 5): r = shared_thread_instructions / thread instructions,
  // cd = shared_active_mem0_cycles / shared_active_subwarps (per SIMD access: a subwarp with an active lane),
  // theoretic speedup 1 + r (cd - 1); the all-subwarp counts include the idle subwarps MEM0 also passes
  pipe_stats_.shared_threads = &g.counter("shared_thread_instructions", "thread instructions of shared-memory instructions");
  pipe_stats_.shared_subwarps = &g.counter("shared_subwarps", "subwarps of shared-memory instructions (SIMD accesses)");
  pipe_stats_.shared_mem0 = &g.counter("shared_mem0_cycles", "cycles MEM0 serves shared subwarps: the sum of their conflict degrees");
  pipe_stats_.shared_active_subwarps =
      &g.counter("shared_active_subwarps", "subwarps of shared-memory instructions with an active lane (SIMD accesses)");
  pipe_stats_.shared_active_mem0 =
      &g.counter("shared_active_mem0_cycles", "cycles MEM0 serves shared subwarps with an active lane");
}

// One cycle of the issue stage and the pipeline. Returns whether they need the next cycle.
bool Sm::inorder_cycle() {
  const uint32_t ports = p_.writeback_ports ? p_.writeback_ports : UINT32_MAX;
  const size_t waiting = completions_.size();
  const uint32_t taken = take_returns();
  issue_stage();
  const bool had_work = !pipe_->empty() || taken || completions_.size() != waiting;  // what left may let a warp issue next cycle
  pipe_->step(ports - taken, leave_sink_);
  return had_work || issuing_.count || return_slots_left_;
}

// Data returning from memory (and the acknowledgements of stores) completes
// its instruction; a load's data takes a writeback slot per subwarp (or one)
// before the pipeline's results do (spec 001 fn 6). Returns the ports it uses
// this cycle.
uint32_t Sm::take_returns() {
  while (return_slots_left_ == 0 && !completions_.empty() && completions_.top().cycle <= cycle_) {
    const Completion c = completions_.top();
    completions_.pop();
    const bool data = c.in->nwrites > 0;
    release(slots_[c.slot], *c.in, c.long_latency);
    if (data) return_slots_left_ = p_.return_wb_per_subwarp ? p_.subwarps() : 1;
  }
  if (!return_slots_left_) return 0;
  --return_slots_left_;
  ++*pipe_stats_.wb_returns;
  return 1;
}

void Sm::count_issue_outcome(Stall s) {
  ++*stall_[0][size_t(s)];
  last_reason_[0] = s;
  probe_issue(0, s, nullptr);
}

// The issue stage: frozen by last cycle's hold, busy with the subwarps of the
// instruction in progress, or free to issue the next warp instruction.
void Sm::issue_stage() {
  if (!pipe_->can_issue()) {
    ++*(pipe_->frozen_by() == StagePipeline::Hold::BankConflict ? pipe_stats_.bank_conflict : pipe_stats_.other);
    count_issue_outcome(Stall::Structural);
    return;
  }
  if (issuing_.count) {
    send_next_subwarp();
    ++*pipe_stats_.subwarp;
    count_issue_outcome(Stall::Structural);
    return;
  }
  if (issue(*scheds_[0])) {
    ++*pipe_stats_.issue;
    return;
  }
  // A ready warp the LD/ST unit refused is held by memory ("other"); else no warp was ready.
  ++*(last_reason_[0] == Stall::Structural ? pipe_stats_.other : pipe_stats_.sched_fail);
}

// Called by execute() for the instruction just issued (it has executed): its
// timing in the pipeline, and its first subwarp into the issue stage.
void Sm::enter_pipeline(WarpSlot& w, const Instr& in) {
  Warp& f = *w.fw;
  const uint32_t n = p_.subwarps();
  std::fill(part_degrees_, part_degrees_ + n, 1u);  // a shared access replaces them with its parts' degrees
  bool completes = false;  // the pipeline completes it (its registers count as written at the last subwarp's WB)
  const bool mem = in.is_mem && f.addr_mask;
  if (mem) {
    timing_in_pipe_ = false;
    shared_sent_ = false;
    send_memory(w, in, cycle_ + p_.front_stages + p_.exe_stages);  // leaves as the first subwarp reaches MEM0
    completes = timing_in_pipe_;
    if (shared_sent_) {
      *pipe_stats_.shared_threads += uint32_t(__builtin_popcount(f.addr_mask));
      *pipe_stats_.shared_subwarps += n;
      const uint32_t lanes = p_.simd_width, part_mask = lanes >= 32 ? 0xFFFFFFFFu : (1u << lanes) - 1;
      for (uint32_t k = 0; k < n; ++k) {
        *pipe_stats_.shared_mem0 += part_degrees_[k];
        if ((f.addr_mask >> (k * lanes)) & part_mask) {
          ++*pipe_stats_.shared_active_subwarps;
          *pipe_stats_.shared_active_mem0 += part_degrees_[k];
        }
      }
    }
  } else if (in.nwrites) {
    for (unsigned i = 0; i < in.nwrites; ++i) ++w.pending[in.writes[i]];
    ++w.inflight;
    completes = true;
  }
  std::copy(part_degrees_, part_degrees_ + n, issuing_.mem0_cycles);
  issuing_.slot = w.slot;
  issuing_.in = &in;
  issuing_.next = 0;
  issuing_.count = n;
  issuing_.writes = completes && in.nwrites > 0;
  issuing_.completes = completes;
  issuing_.mem = mem;
  send_next_subwarp();  // the first subwarp goes into the issue stage now
}

// The issue stage sends the next subwarp of the instruction in progress.
void Sm::send_next_subwarp() {
  const uint32_t k = issuing_.next++;
  Subwarp s;
  s.in = issuing_.in;
  s.slot = issuing_.slot;
  s.index = uint8_t(k);
  s.last = issuing_.next == issuing_.count;
  s.writes = issuing_.writes;
  s.completes = issuing_.completes;
  s.mem = issuing_.mem;
  s.mem0_cycles = uint8_t(issuing_.mem0_cycles[k]);
  pipe_->issue(s);
  ++slots_[s.slot].in_pipe;
  if (s.last) issuing_.count = 0;
}

// A subwarp leaves WB: the instruction completes with its last subwarp; a warp
// with nothing left in the pipeline may issue again under strict barrel
// processing, or retire.
void Sm::leave_pipeline(const Subwarp& s) {
  WarpSlot& w = slots_[s.slot];
  if (s.writes) ++*pipe_stats_.wb_core;
  if (on_writeback) on_writeback(cycle_, s.slot, s.in->pc, s.index, s.writes);
  --w.in_pipe;
  if (s.last && s.completes) {
    release(w, *s.in, false);  // also makes the warp eligible again, or retires it
    return;
  }
  if (w.in_pipe == 0 && w.resident) {
    set_blocked(w, Stall::Issued);
    if (w.ready_to_free()) retire_warp(w);
  }
}

}  // namespace warptlm
