// The elastic pipeline (seed 001 sec. 4; spec 001 sec. 3): the stages after
// EXE of the in-order core, rebuilt so that a shared-memory bank conflict no
// longer stalls the front end.
//   - Memory subwarps take the memory stages MEM0 .. MEM(m-1). One that finds
//     MEM0 busy waits in the PREMEM queue (N entries, Eq. 5: one warp's other
//     subwarps, ceil(warp_size / simd_width) - 1), which enters MEM0 before
//     EXE does. Only when PREMEM is full is the front end held (a bank-conflict
//     stall: the conflict outlasted what the queue absorbs).
//   - Other subwarps skip the memory stages: from EXE straight to WB when the
//     writeback multiplexer picks them, else into the NONMEM queue (M entries,
//     Eq. 4: the memory stages' depth), which writes back from its oldest
//     entry. A full NONMEM queue holds the front end ("other").
//   - The writeback multiplexer (one port): data returning from the
//     interconnect first (the SM gives it the port before the pipeline), then
//     the memory stages' output and the NONMEM queue (their order a knob,
//     elastic.wb_order), EXE last.
// Subwarps therefore write back out of order (a non-memory subwarp of a later
// warp before the conflicting shared access of an earlier one); with strict
// barrel processing they belong to different warps, so no register hazard
// arises (spec 001 sec. 3.7), and with relaxed barrel processing the
// scoreboard holds a warp's dependent instructions (operands are read at issue,
// so a write-after-read cannot occur).
// With `split` it is instead the analysis step of Fig. 2b (sec. 3.2, not
// evaluated by the paper): the memory stages and a NONMEM path of the same
// depth side by side, both fixed-length lockstep stages, no queues and no
// bypass. A conflict no longer holds non-memory subwarps behind it, but the
// writeback bubble remains, and when both paths reach WB together the loser
// holds its path and the front end (a writeback conflict).
#pragma once
#include <cstdint>
#include <vector>

#include "common/stats.hpp"
#include "sm/inorder_pipeline.hpp"

namespace warptlm {

struct ElasticParams {
  uint32_t nonmem_depth = 4;  // M
  uint32_t premem_depth = 3;  // N
  bool mem_first = true;      // the memory stages' output before the NONMEM queue at WB
  bool split = false;         // Fig. 2b: a fixed NONMEM path instead of the queues
};

struct ElasticCounters {
  Counter* bypass = nullptr;         // subwarps written back straight from EXE
  Counter* nonmem_entries = nullptr; // subwarps that waited in the NONMEM queue
  Counter* premem_entries = nullptr; // subwarps that waited in the PREMEM queue
  Counter* out_of_order = nullptr;   // subwarps written back after one issued later
};

class ElasticPipeline : public StagePipeline {
 public:
  ElasticPipeline(const PipelineShape& shape, const ElasticParams& p, const ElasticCounters& c);
  bool can_issue() const override { return !front_[0].valid && hold_ == Hold::None; }
  Hold frozen_by() const override { return hold_; }
  void issue(const Subwarp& s) override;
  void step(uint32_t ports_free, SubwarpSink& sink) override;
  bool empty() const override { return occupied_ == 0; }

  // For tests: queue occupancy now.
  size_t premem_size() const { return premem_.size(); }
  size_t nonmem_size() const { return nonmem_.size(); }

 private:
  struct Slot {
    Subwarp s;
    bool valid = false;
    uint8_t served = 0;  // cycles MEM0 has served it
    uint64_t seq = 0;    // issue order
  };
  void write_back(SubwarpSink& sink);
  void leave_unwritten(Slot& x, SubwarpSink& sink);
  void shift_memory_stages();
  static void advance(std::vector<Slot>& stages, size_t first_moving);
  bool take_nonmem(Slot& wb);
  bool enter_nonmem(const Slot& ex);

  ElasticParams p_;
  ElasticCounters c_;
  Counter fallback_;                 // where a counter not given counts
  std::vector<Slot> front_;          // the issue stage .. the last EXE stage (back: EXE's output)
  std::vector<Slot> mem_;            // MEM0 .. MEM(m-1)
  std::vector<Slot> premem_, nonmem_;  // oldest first
  std::vector<Slot> nonmem_path_;      // split: NONMEM0 .. NONMEM(m-1)
  Slot wb_;                          // the WB stage: writes this cycle
  Hold hold_ = Hold::None;
  uint32_t occupied_ = 0;
  uint64_t next_seq_ = 0, newest_written_ = 0;
  bool written_any_ = false;
};

}  // namespace warptlm
