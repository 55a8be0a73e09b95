#include "elastic/elastic_pipeline.hpp"

namespace warptlm {

ElasticPipeline::ElasticPipeline(const PipelineShape& shape, const ElasticParams& p, const ElasticCounters& c)
    : p_(p), c_(c) {
  for (Counter** x : {&c_.bypass, &c_.nonmem_entries, &c_.premem_entries, &c_.out_of_order})
    if (!*x) *x = &fallback_;
  front_.assign(size_t(shape.front) + shape.exe, Slot{});
  mem_.assign(shape.mem, Slot{});
  premem_.reserve(p_.premem_depth);
  nonmem_.reserve(p_.nonmem_depth);
  if (p_.split) nonmem_path_.assign(shape.mem, Slot{});
}

void ElasticPipeline::issue(const Subwarp& s) {
  front_[0] = Slot{s, true, 0, next_seq_++};
  ++occupied_;
}

// The WB stage writes its subwarp if a port is left.
void ElasticPipeline::write_back(SubwarpSink& sink) {
  if (written_any_ && wb_.seq < newest_written_) ++*c_.out_of_order;
  if (!written_any_ || wb_.seq > newest_written_) newest_written_ = wb_.seq;
  written_any_ = true;
  wb_.valid = false;
  --occupied_;
  sink.leave(wb_.s);
}

// A subwarp with no register result leaves without the writeback port.
void ElasticPipeline::leave_unwritten(Slot& x, SubwarpSink& sink) {
  x.valid = false;
  --occupied_;
  sink.leave(x.s);
}

// The memory stages move in lockstep behind their output; MEM0 keeps a
// subwarp it has not served for its degree, and the stages after it drain.
void ElasticPipeline::shift_memory_stages() {
  const bool m0_holds = mem_[0].valid && mem_[0].served < mem_[0].s.mem0_cycles;
  advance(mem_, m0_holds ? 1 : 0);
}

// Lockstep stages move one step from `first_moving` on, unless the output lost the multiplexer.
void ElasticPipeline::advance(std::vector<Slot>& stages, size_t first_moving) {
  if (stages.back().valid) return;
  for (size_t k = stages.size() - 1; k > first_moving; --k) stages[k] = stages[k - 1];
  stages[first_moving].valid = false;
}

// The multiplexer's NONMEM input: the queue's oldest entry, or (split) the
// path's last stage; the path then moves one stage.
bool ElasticPipeline::take_nonmem(Slot& wb) {
  if (!p_.split) {
    if (nonmem_.empty()) return false;
    wb = nonmem_.front();
    nonmem_.erase(nonmem_.begin());
    return true;
  }
  if (!nonmem_path_.back().valid) return false;
  wb = nonmem_path_.back();
  nonmem_path_.back().valid = false;
  return true;
}

// A non-memory subwarp leaves EXE into the queue or (split) the path's first stage.
bool ElasticPipeline::enter_nonmem(const Slot& ex) {
  if (!p_.split) {
    if (nonmem_.size() >= p_.nonmem_depth) return false;
    nonmem_.push_back(ex);
    ++*c_.nonmem_entries;
    return true;
  }
  if (nonmem_path_[0].valid) return false;
  nonmem_path_[0] = ex;
  return true;
}

void ElasticPipeline::step(uint32_t ports_free, SubwarpSink& sink) {
  // WB writes, unless the interconnect's data took the port.
  const bool wb_free = !wb_.valid || ports_free > 0;
  if (wb_.valid && ports_free > 0) write_back(sink);
  // MEM0 serves one cycle of its subwarp's bank-conflict degree.
  Slot& m0 = mem_[0];
  if (m0.valid && m0.served < m0.s.mem0_cycles) ++m0.served;
  const bool m0_conflict = m0.valid && m0.served < m0.s.mem0_cycles;  // still serving its bank conflict
  Slot& out = mem_.back();
  bool out_ready = out.valid && (mem_.size() > 1 || out.served >= out.s.mem0_cycles);
  if (out_ready && !out.s.writes) {  // a store or a global load: its data, if any, comes back later
    leave_unwritten(out, sink);
    out_ready = false;
  }
  Slot& ex = front_.back();
  bool ex_done = !ex.valid;
  // The multiplexer fills WB for the next cycle: memory output and NONMEM (knob order), then EXE.
  if (wb_free) {
    auto from_memory = [&] {
      if (!out_ready) return false;
      wb_ = out;
      out.valid = false;
      return true;
    };
    auto from_nonmem = [&] { return take_nonmem(wb_); };
    const bool took = p_.mem_first ? (from_memory() || from_nonmem()) : (from_nonmem() || from_memory());
    if (!took && !p_.split && ex.valid && !ex.s.mem && ex.s.writes) {
      wb_ = ex;
      ex_done = true;
      ++*c_.bypass;
    }
  }
  if (!ex_done && !ex.s.mem && !ex.s.writes) {  // a branch, a barrier: nothing to write
    leave_unwritten(ex, sink);
    ex_done = true;
  }
  shift_memory_stages();
  if (p_.split) advance(nonmem_path_, 0);
  // MEM0 takes the oldest waiting memory subwarp: PREMEM's, else EXE's.
  if (!mem_[0].valid) {
    if (!premem_.empty()) {
      mem_[0] = premem_.front();
      premem_.erase(premem_.begin());
      mem_[0].served = 0;
    } else if (!ex_done && ex.s.mem) {
      mem_[0] = ex;
      mem_[0].served = 0;
      ex_done = true;
    }
  }
  // EXE's output waits in its queue, or holds the front end when the queue is full.
  Hold cause = Hold::None;
  if (!ex_done) {
    if (ex.s.mem) {
      if (premem_.size() < p_.premem_depth) {
        premem_.push_back(ex);
        ++*c_.premem_entries;
        ex_done = true;
      } else {  // a bank-conflict stall, unless the memory stages wait for the writeback port
        cause = m0_conflict ? Hold::BankConflict : Hold::Writeback;
      }
    } else if (enter_nonmem(ex)) {
      ex_done = true;
    } else {
      cause = Hold::Writeback;
    }
  }
  hold_ = cause;
  if (!ex_done) return;
  for (size_t k = front_.size() - 1; k > 0; --k) front_[k] = front_[k - 1];
  front_[0].valid = false;
}

}  // namespace warptlm
