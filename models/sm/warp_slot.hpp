// A hardware warp slot of the SM: the timing state beside the functional warp
// (instruction buffer, scoreboard, in-flight work).
#pragma once
#include <cstdint>
#include <vector>

#include "isa/simt.hpp"

namespace warptlm {

// Why a scheduler issued nothing in a cycle (one reason per scheduler-cycle).
enum class Stall : uint8_t { Issued, NoWarp, LongMem, Data, Structural, Barrier, Fetch, Other, Count };
const char* stall_name(Stall s);

struct WarpSlot {
  uint32_t slot = 0;         // hardware slot index in the SM
  bool resident = false;
  Warp* fw = nullptr;        // functional warp (execute at issue)
  Block* block = nullptr;
  uint64_t age = 0;          // dynamic warp id: order of arrival on the SM
  uint64_t installed_cycle = 0;  // the core cycle the warp took its slot (achieved occupancy)
  // Its lane 0's local word 0 in the timing model's local region, and the distance between a thread's words
  // (sm.local_layout; Sm::place_local_memory).
  uint64_t local_base = 0, local_word_stride = 128;
  // front end: decoded instructions buffered from ibuf_pc on
  uint32_t ibuf_pc = 0, ibuf_count = 0;
  bool fetch_pending = false;
  uint64_t fetch_ready = 0;  // UINT64_MAX: waits for the fill of fetch_line (sm.icache.fill: memory)
  uint32_t fetch_pc = 0;
  uint64_t fetch_line = 0;
  // scoreboard: in-flight writes per register slot (predicates after registers),
  // and which of them come from memory (long latency)
  std::vector<uint8_t> pending, pending_long;
  uint32_t inflight = 0;     // results and memory requests not yet back
  uint32_t in_pipe = 0;      // subwarps in the in-order pipeline (sm.pipeline.model: inorder)
  Stall last_stall = Stall::Issued;
  // A warp stalled on its own registers or on fetch stays stalled until one of
  // its results returns or its fetch completes: the scheduler does not look again.
  Stall blocked = Stall::Issued;
  // It ran its exit and waits for its last results before its slot frees: it never issues again.
  bool exited = false;
  // Out-of-order issue (SmMechanism::instead_of_stall): how the instruction check() chose issues, and
  // whether the warp ran instructions off its program order since it last issued in order (its buffer
  // then holds those: it fetches its in-order instruction again).
  enum class IssueKind : uint8_t { InOrder, OutOfOrder, Replace } issue_kind = IssueKind::InOrder;
  bool ran_out_of_order = false;
  // The warp's instruction count + 1 when its last check found its next instruction, a memory one with its
  // registers ready, stopped only by a full LD/ST queue (0: not so). Until it issues, only the queue can change
  // that answer: its registers only free, its buffer holds the instruction.
  uint64_t queue_blocked_at = 0;
  bool waits_for_queue = false;  // listed among the SM's warps waiting for LD/ST queue room

  bool ready_to_free() const { return fw && fw->done && inflight == 0 && in_pipe == 0; }
};

}  // namespace warptlm
