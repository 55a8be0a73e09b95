// The SM's in-order stage pipeline (sm.pipeline.model: inorder), seed 001's
// baseline core (spec 001 sec. 1.2-1.5): a warp instruction issues as
// ceil(32 / simd_width) subwarps on consecutive issue cycles, and each subwarp
// walks the stages front (fetch/decode/operand read) -> EXE -> MEM0 .. MEM(m-1)
// -> WB in lockstep. Two things hold it:
//   - MEM0 serves a shared-memory subwarp for its part's bank-conflict degree
//     (single-ported banks, P = 1: ceil(d / P) = d cycles). While it serves,
//     MEM0 and every stage before it hold; the stages after it drain, so a
//     bubble reaches WB (Fig. 2a).
//   - WB has the SM's writeback ports, which data returning from the
//     interconnect takes first (fn 6: the MUX at the end of the memory stages
//     favours the interconnect). A subwarp with a register result that finds no
//     port left holds WB and with it the whole pipeline.
// A hold decided in one cycle freezes the issue stage in the next: that cycle
// is a stall charged to the hold's cause (Fig. 6: bank conflict, or "other"
// for a writeback conflict).
//
// The class knows nothing of warps or SystemC: the SM gives it subwarps and
// is told which ones leave at WB. It is the SM's own pipeline ("unified",
// sm.pipeline.backend); a mechanism may provide another one behind the same
// interface, StagePipeline.
#pragma once
#include <cstdint>
#include <vector>

namespace warptlm {

struct Instr;

struct Subwarp {
  const Instr* in = nullptr;
  uint32_t slot = 0;         // the warp's hardware slot
  uint8_t index = 0;         // subwarp 0 .. S-1
  bool last = false;         // the instruction's last subwarp
  bool writes = false;       // a register result written at WB (needs a writeback port)
  bool completes = false;    // the pipeline completes the instruction (else data returning from memory does)
  bool mem = false;          // a memory instruction (a pipeline may send the others past the memory stages)
  uint8_t mem0_cycles = 1;   // cycles MEM0 serves it: a shared part's conflict degree, else 1
};

// What the SM tells a pipeline about its shape (sm.pipeline.*).
struct PipelineShape {
  uint32_t front = 18, exe = 1, mem = 4;  // stages before EXE (the issue stage first), EXE, MEM0 .. MEM(mem-1)
  uint32_t subwarps = 4;                 // ceil(32 / simd_width)
  uint32_t writeback_ports = 1;          // 0 = unlimited
};

// Receives the subwarps that leave the pipeline (at WB, or with no result to write).
struct SubwarpSink {
  virtual ~SubwarpSink() = default;
  virtual void leave(const Subwarp& s) = 0;
};

// The stages from the issue stage to WB, as the SM drives them: each cycle
// the issue stage may take a subwarp, then step() runs the cycle.
class StagePipeline {
 public:
  enum class Hold : uint8_t { None, BankConflict, Writeback };
  virtual ~StagePipeline() = default;
  // The issue stage takes a subwarp this cycle only if it is empty and last
  // cycle's hold does not freeze it.
  virtual bool can_issue() const = 0;
  // Why the issue stage is frozen this cycle (None: it is not).
  virtual Hold frozen_by() const = 0;
  virtual void issue(const Subwarp& s) = 0;
  // One cycle, after the issue stage: `ports_free` writeback ports are left
  // after the data returning from memory took its share.
  virtual void step(uint32_t ports_free, SubwarpSink& sink) = 0;
  virtual bool empty() const = 0;
};

class InOrderPipeline : public StagePipeline {
 public:
  InOrderPipeline() = default;
  explicit InOrderPipeline(const PipelineShape& s) { configure(s.front, s.exe, s.mem); }
  // front: stages before EXE (the issue stage is the first), exe: EXE stages,
  // mem: MEM0 .. MEM(mem-1); one WB stage ends it.
  void configure(uint32_t front, uint32_t exe, uint32_t mem) {
    front_ = front;
    exe_ = exe;
    stage_.assign(size_t(front) + exe + mem + 1, Entry{});
    occupied_ = 0;
    hold_ = Hold::None;
  }
  uint32_t depth() const { return uint32_t(stage_.size()); }
  uint32_t mem0() const { return front_ + exe_; }

  bool can_issue() const override { return !stage_[0].valid && hold_ == Hold::None; }
  Hold frozen_by() const override { return hold_; }
  void issue(const Subwarp& s) override {
    stage_[0] = Entry{s, true, 0};
    ++occupied_;
  }
  bool empty() const override { return occupied_ == 0; }
  // The subwarp in stage k (null: a bubble), for tests and waveforms.
  const Subwarp* at(uint32_t k) const { return stage_[k].valid ? &stage_[k].s : nullptr; }

  // One cycle, after the issue stage has issued: WB writes if it may
  // (`ports_free`: writeback ports the interconnect left this cycle), MEM0
  // serves one cycle of its subwarp, then every stage that may move does.
  // The sink hears of the subwarp that leaves WB.
  void step(uint32_t ports_free, SubwarpSink& sink) override {
    const uint32_t wb = depth() - 1, m0 = mem0();
    Entry& out = stage_[wb];
    if (out.valid) {
      if (out.s.writes && ports_free == 0) {  // no port: the whole pipeline holds
        hold_ = Hold::Writeback;
        return;
      }
      out.valid = false;
      --occupied_;
      sink.leave(out.s);
    }
    uint32_t hold_at = UINT32_MAX;  // the stage that keeps its subwarp, with every stage before it
    hold_ = Hold::None;
    Entry& m = stage_[m0];
    if (m.valid && ++m.served < m.s.mem0_cycles) {
      hold_at = m0;
      hold_ = Hold::BankConflict;
    }
    const uint32_t first_moving = hold_at == UINT32_MAX ? 0 : hold_at + 1;
    for (uint32_t k = wb; k > first_moving; --k) {
      stage_[k] = stage_[k - 1];
      stage_[k].served = 0;
    }
    stage_[first_moving].valid = false;  // a bubble behind the hold (or at the issue stage)
  }

 private:
  struct Entry {
    Subwarp s;
    bool valid = false;
    uint8_t served = 0;  // cycles MEM0 has served it
  };
  std::vector<Entry> stage_;
  uint32_t front_ = 0, exe_ = 0;
  uint32_t occupied_ = 0;
  Hold hold_ = Hold::None;
};

}  // namespace warptlm
