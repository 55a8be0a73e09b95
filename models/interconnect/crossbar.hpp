// The crossbar between the SMs (their L1s) and the memory partitions (their
// L2 slices): two disjoint subnetworks, one per direction (the switch the
// HAWS thesis describes, spec 004 section 2.8; GPGPU-Sim's local crossbar).
//
// Forward: a request arriving on SM port i goes to the L2 slice
// PartitionMap::slice_of(addr) (its partition, or its sub-partition) and
// waits in that output port's FIFO. Each
// output port moves one transfer at a time: a transfer of D bytes holds it
// ceil(D / port_width) cycles (reads send a header only: 1 cycle; writes and
// atomics carry their data), then takes `latency` cycles through the switch.
// A full output FIFO blocks the SM port's head, its input buffer fills, and
// END_REQ is withheld from the port (back-pressure); an L2 slice that withholds
// END_REQ keeps the FIFO's head, so its back-pressure reaches the SMs the same way.
// Return: each SM-side return port likewise moves one response at a time
// (read and atomic responses carry data; write acknowledgements 1 cycle) and
// adds `latency`. The SM port rides on the payload's route stack.
// With `reply_buffer` > 0 the return network is input-queued: each L2 slice's
// replies wait in its input buffer in arrival order, and each cycle a switch
// allocator matches input heads to free SM ports (each port grants round-robin
// among the heads asking for it). A head whose port is busy blocks the replies
// behind it (head of line), and a slice whose buffer is full gets no END_RESP
// until the buffer has room for its reply.
//
// Registered inputs (common/input_register.hpp): each SM port has a two-entry
// input buffer (END_REQ at once while it has room); a request, an END_REQ or a
// response is taken at the first crossbar edge after it arrives; SM ports are
// served in port order, partitions before SM ports. A port whose head waits
// for a full output FIFO is blocked (head of line) until the FIFO frees.
// Smart ticking: tick() runs only at cycles where a transfer is due or an input
// waits; every delivery time is computed when the transfer is queued. It takes
// its edges from its own SystemC process, or from a clock domain of its period
// it joins (the platform's core clock: one wake-up per edge for the SMs and the
// memory side), where it may run beside the SMs' own parts
// (ClockedBlock::runs_beside_own_parts): it touches none of their state, and
// what it sends an L1 is a registered input.
#pragma once
#include <algorithm>
#include <cstdint>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "common/clock.hpp"
#include "common/clock_domain.hpp"
#include "common/gpu_payload.hpp"
#include "common/input_register.hpp"
#include "common/stats.hpp"
#include "common/trace.hpp"
#include "interconnect/icn_params.hpp"
#include "interconnect/partition_map.hpp"
#include "common/ring.hpp"

namespace warptlm {

class Crossbar : public sc_core::sc_module, public SharedClockMember {
 public:
  // SM side: every L1 (or SM) binds its initiator socket here; port i is the i-th binding.
  tlm_utils::multi_passthrough_target_socket<Crossbar> sm_socket;
  // Partition side: part_socket[q] binds to the upstream target of L2 slice q
  // (partition q, or with sub-partitions sub-partition q mod S of partition q / S).
  sc_core::sc_vector<tlm_utils::simple_initiator_socket_tagged<Crossbar>> part_socket;

  // `partitions`: memory partitions, each with `subpartitions` L2 slices (one
  // output port per slice); `period`: the crossbar clock.
  Crossbar(sc_core::sc_module_name name, const IcnParams& p, uint32_t partitions, sc_core::sc_time period,
           StatsRegistry& stats, uint32_t subpartitions = 1);
  SC_HAS_PROCESS(Crossbar);

  const PartitionMap& map() const { return map_; }
  uint32_t slices() const { return uint32_t(out_.size()); }  // output ports: one per L2 slice
  uint64_t cycle() const { return cycle_now(period_); }
  // Edges the crossbar took (its process ran): none while nothing moves.
  uint64_t edges_taken() const { return edges_taken_; }
  const sc_core::sc_time& clock_period() const override { return period_; }
  // Whether its edges may run beside the SMs' own parts: only while every SM port's initiator defers what it
  // receives then (the L1s do; the platform says so before the run starts).
  void allow_beside_own_parts(bool yes) { beside_ = yes; }
  bool runs_beside_own_parts() const override { return beside_; }

 private:
  struct Transfer {
    tlm::tlm_generic_payload* p = nullptr;
    uint64_t deliver = 0;  // cycle it reaches the far side of the switch
  };
  struct Stalled {
    tlm::tlm_generic_payload* p = nullptr;
    uint32_t sm_port = 0;
    uint64_t since = 0;
  };
  // Toward one partition.
  struct OutPort {
    Ring<Transfer> fifo;            // accepted, not yet taken by the partition
    Ring<Stalled> waiters;          // SM ports whose head found the FIFO full, oldest first
    uint64_t free_at = 0;           // first cycle the port can start a new transfer
    uint64_t last_delivery = UINT64_MAX;
    bool awaiting_end_req = false;  // head delivered, partition has not taken it yet
    Counter* busy = nullptr;
    Probe depth;                    // "icn.to_part<p>.queue": requests in the FIFO
  };
  // Toward one SM.
  struct ReturnPort {
    Ring<Transfer> fifo;
    uint64_t free_at = 0;
    uint64_t last_delivery = UINT64_MAX;
    bool awaiting_end_resp = false;
    Counter* busy = nullptr;
    Probe depth;                    // "icn.to_sm<i>.queue": responses in the FIFO
  };
  // From one L2 slice into the reply network (input-queued return, reply_buffer > 0).
  struct Reply {
    tlm::tlm_generic_payload* p = nullptr;
    uint64_t arrived = 0;
    uint32_t sm_port = 0;
    uint32_t beats = 0;
  };
  struct ReplyInput {
    Ring<Reply> fifo;                              // replies in arrival order; the head competes for its SM port
    uint32_t flits = 0;                            // buffer flits held by queued or promised replies
    uint64_t freed_at = UINT64_MAX;                // flits freed in this cycle are not yet seen by an offer
    uint32_t freed_flits = 0;
    uint64_t busy_until = 0;                       // the input sends one flit a cycle
    tlm::tlm_generic_payload* refused = nullptr;   // reply offered while the buffer was full: END_RESP when room
    uint32_t refused_beats = 0;
    uint64_t refused_since = 0;
    Probe held;                                    // "icn.from_part<q>.reply_flits": flits in the buffer
    void hold(uint32_t f) {
      flits = f;
      held.set(std::min<uint32_t>(f, 0xFFFF));
    }
  };
  void end_of_elaboration() override;
  tlm::tlm_sync_enum nb_transport_fw(int port, tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
  tlm::tlm_sync_enum nb_transport_bw(int part, tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
  void tick();
  uint64_t clock_edge(uint64_t) override {  // an edge of the clock domain it joined
    tick();
    return kNever;  // tick() asked for its next edge
  }
  // hardware steps
  void take_inputs(uint64_t now);
  void request_arrived(uint32_t sm_port, tlm::tlm_generic_payload& p, uint64_t now);
  void take_requests(uint64_t now);
  void enqueue_request(uint32_t sm_port, uint32_t part, tlm::tlm_generic_payload& p, uint64_t at);
  void deliver_request(uint32_t part, uint64_t now);
  void partition_accepted(uint32_t part, uint64_t now);
  void enqueue_response(uint32_t part, tlm::tlm_generic_payload& p, uint64_t at);
  void deliver_response(uint32_t sm_port, uint64_t now);
  void return_transfer(ReturnPort& r, tlm::tlm_generic_payload& p, uint32_t beats, uint64_t start, uint64_t since);
  bool reply_fits(uint32_t held, uint32_t beats) const { return held + beats <= p_.reply_buffer || held == 0; }
  bool reply_input_has_room(const ReplyInput& in, uint32_t beats, uint64_t now) const;
  tlm::tlm_sync_enum offer_reply(uint32_t part, tlm::tlm_generic_payload& p, tlm::tlm_phase& ph);
  void queue_reply(uint32_t part, tlm::tlm_generic_payload& p, uint64_t now);
  void allocate_reply_switch(uint64_t now);
  void send_reply(uint32_t part, uint64_t now);
  void admit_refused_reply(uint32_t part, uint64_t now);
  uint64_t next_reply_event(uint64_t now) const;
  bool input_queued_replies() const { return p_.reply_buffer > 0; }
  uint32_t request_beats(const tlm::tlm_generic_payload& p) const;
  uint32_t response_beats(const tlm::tlm_generic_payload& p) const;
  void wake_at(uint64_t cycle) { ask_edge(wake_, period_, cycle); }

  IcnParams p_;
  PartitionMap map_;
  sc_core::sc_time period_;
  StatsRegistry& stats_;
  std::vector<OutPort> out_;
  std::vector<ReturnPort> ret_;
  sc_core::sc_event wake_;
  uint64_t edges_taken_ = 0;
  bool beside_ = false;
  bool every_edge_fault_ = false;  // WARPTLM_TEST_FAULT=idle_edges (test-only): the crossbar takes every edge
  struct Input {
    tlm::tlm_generic_payload* p;
    tlm::tlm_phase phase;
  };
  InputRegister<Input> from_sms_, from_parts_;  // END_RESP from SM ports; END_REQ and responses from partitions
  std::vector<RequestBuffer> in_;                // per SM port: requests (common/input_register.hpp)
  std::vector<bool> stalled_;                    // per SM port: its head waits for an output FIFO slot
  std::vector<uint64_t> inject_free_;            // per SM port (icn.sm_inject): the cycle its last request's flits are in
  // The SM ports with something to do, as bit sets (a crossbar edge costs the busy ports, not every port):
  // a request in the input buffer or one refused there; a response in the return FIFO.
  std::vector<uint64_t> in_busy_, ret_busy_;
  static void mark(std::vector<uint64_t>& set, uint32_t i) { set[i >> 6] |= uint64_t(1) << (i & 63); }
  static void unmark(std::vector<uint64_t>& set, uint32_t i) { set[i >> 6] &= ~(uint64_t(1) << (i & 63)); }
  template <class F>
  static void for_each_in(const std::vector<uint64_t>& set, F f) {  // ascending port order
    for (size_t w = 0; w < set.size(); ++w)
      for (uint64_t m = set[w]; m; m &= m - 1) f(uint32_t(w * 64 + unsigned(__builtin_ctzll(m))));
  }
  std::vector<ReplyInput> rin_;                  // per L2 slice: reply input buffer (input-queued return)
  std::vector<uint32_t> grant_rr_;               // per SM port: the input its round-robin grant favours next
  std::vector<int32_t> grant_;                   // per SM port: this cycle's winning input, -1 none
  std::vector<uint32_t> granted_ports_;          // SM ports granted this cycle

  Counter *requests_, *responses_, *queue_wait_, *resp_queue_wait_, *backpressured_, *backpressure_cycles_;
  Counter *reply_refused_, *reply_refused_cycles_;
};

}  // namespace warptlm
