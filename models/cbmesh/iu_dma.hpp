// An interface unit as a DMA engine (seed 003 sec. 5, "Don't use reduced SMs
// for IUs ... use DMAs instead": spu.iu_model: dma). No SIMT pipeline: the
// engine's sequencer runs the IU's program (the kernel's interface-unit path,
// its addressing and moves) at no instruction cost, one step at a time, and
// the engine moves the data the step names:
//   gather   the global lines the step's loads touch, read from the memory
//            below the SMs (one line request per cycle, END_REQ back-pressure,
//            every response awaited);
//   CB       the step's CB accesses, one request per warp instruction of lane
//            offsets through the unit's CB port (banks, conflicts, latency, as
//            an SM's LD/ST unit sends them), each once the previous was taken;
//   scatter  the global lines the step's stores touch, written below (one per
//            cycle, every acknowledgement awaited);
// and then the step ends (the engine reaches the block synchronisation, or
// its program finished). A step's loads feed its CB writes and its CB reads
// feed its stores (an IU loads or restores into a CB, or spills or stores
// from one: sec. 2.6-2.7), so the three phases run in that order.
// Data moves when the sequencer runs the step (as an SM's does at issue); the
// requests carry none. Each line goes once per step, its sectors merged.
#pragma once
#include <cstdint>
#include <utility>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "common/clock_domain.hpp"
#include "common/gpu_payload.hpp"
#include "common/input_register.hpp"
#include "isa/simt.hpp"

namespace warptlm {

// Who runs the engine's sequencer (the timing mesh): told when a step is due
// and when a step's transfers all completed.
class DmaSequencer {
 public:
  virtual ~DmaSequencer() = default;
  virtual void dma_step_due(uint32_t unit) = 0;
  virtual void dma_step_done(uint32_t unit) = 0;
};

class IuDma : public sc_core::sc_module, public ClockedBlock {
 public:
  tlm_utils::simple_initiator_socket<IuDma> mem_socket;  // to the memory below the SMs (an L1's place)
  tlm_utils::simple_initiator_socket<IuDma> cb_socket;   // to the unit's CB port

  // `unit`: the mesh's unit id (requests carry it as their SM); `line_bytes`: sm.mem_line.
  // Joins `clock` (its members take their edges in joining order).
  IuDma(sc_core::sc_module_name name, uint32_t unit, uint32_t line_bytes, ClockDomain& clock, sc_core::sc_time period,
        PayloadPool& pool, DmaSequencer& sequencer);

  // The sequencer's next step is due at this engine's edge of `cycle`.
  void schedule(uint64_t cycle);
  // While the sequencer runs a step: a memory instruction of the program accessed memory (the run-time
  // refuses what an engine cannot do: MeshRuntime::check_reduced_op).
  void record(const Warp& w, const Instr& in);
  // The recorded step's transfers start (this edge); dma_step_done follows at the edge they all completed.
  // Returns the step's line reads and writes.
  std::pair<uint64_t, uint64_t> begin_transfers(uint64_t cycle);
  bool busy() const { return phase_ != Phase::Idle; }

 private:
  enum class Phase : uint8_t { Idle, Gather, Cb, Scatter };
  struct Line {
    uint64_t line;
    uint32_t sectors;
  };
  struct CbAccess {
    uint64_t lanes[32];
    uint32_t mask;
    uint8_t bytes;
    bool store;
    Space space;
  };
  uint64_t clock_edge(uint64_t cycle) override;
  // hardware steps
  bool move_data(uint64_t cycle);  // sends what may go now; true when the step's transfers all completed
  template <class SendNext>
  bool phase_over(size_t count, uint64_t cycle, SendNext&& send_next);
  void send_line(const Line& l, bool write, uint64_t cycle);
  void send_cb(const CbAccess& a, uint64_t cycle);
  template <class Socket>
  void send(Socket& s, tlm::tlm_generic_payload& p, uint64_t cycle);
  static void merge(std::vector<Line>& lines);
  // Registered inputs (common/input_register.hpp): END_REQ and answers from below (port 0) and from the CB
  // port (port 1) are taken at the engine's first edge after they arrived.
  tlm::tlm_sync_enum mem_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
  tlm::tlm_sync_enum cb_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
  tlm::tlm_sync_enum record_answer(uint32_t port, tlm::tlm_generic_payload& p, tlm::tlm_phase& ph);
  void take_answers(uint64_t cycle);
  bool can_send(uint64_t cycle) const { return !unaccepted_ && sent_cycle_ != cycle; }
  // The next edge has work: a request left to send (the last one taken), or a phase with nothing awaited.
  // (Answers awaited ask for the edge after they arrive themselves.)
  bool sends_next() const;

  uint32_t unit_, line_bytes_;
  ClockDomain& clock_;
  uint32_t index_;
  sc_core::sc_time period_;
  PayloadPool& pool_;
  DmaSequencer& sequencer_;
  struct Answer {
    tlm::tlm_generic_payload* p;
    tlm::tlm_phase phase;
  };
  InputRegister<Answer> answers_;
  std::vector<Line> reads_, writes_;
  std::vector<CbAccess> cb_;
  Phase phase_ = Phase::Idle;
  size_t next_ = 0;                                 // the phase's next transfer to send
  uint32_t outstanding_ = 0;                        // sent, not answered
  tlm::tlm_generic_payload* unaccepted_ = nullptr;  // sent, END_REQ not yet back
  uint64_t sent_cycle_ = UINT64_MAX;
  uint64_t step_due_ = ClockedBlock::kNever;
  // Test-only fault (WARPTLM_TEST_FAULT=cbmesh_dma_no_wait): a phase ends without awaiting its answers.
  bool no_wait_;
};

}  // namespace warptlm
