// One DRAM channel behind one memory partition: a memory controller with a
// request queue and a row-buffer-aware scheduler in front of `banks` banks
// that share one command bus and one data bus. Transactions carry timing only: data was moved by
// the functional model when the instruction issued.
//
// Each bank is closed (precharged) or has one open row. A request to the open
// row is a row hit and needs only a column command; any other request is a row
// miss: precharge the open row (tRP, not before tRAS after its activate), then
// activate (tRCD; tRRD after any activate, tRC after this bank's last one),
// then the column command. With GDDR5 bank groups, column commands to one
// group are tCCDL apart (tCCD between groups). Read data appears tCL after its column command,
// write data tWL after, and holds the shared data bus for whole bursts.
//
// Above the channel are the L2 slices of its partition (one, or its
// sub-partitions): each binds to `socket`; the channel takes at most one
// request a cycle from them, round robin from the slice after the one served
// last, and answers each on the port it came from.
//
// Smart ticking: the channel takes only DRAM clock edges where a command may
// issue or a response is due, computed from the timing state; an idle channel
// has no pending edge. In the platform the channels share one clock domain
// (common/clock_domain.hpp); built alone, a channel runs its own process.
#pragma once
#include <cstdint>
#include <functional>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <vector>

#include "common/clock.hpp"
#include "common/clock_domain.hpp"
#include "common/gpu_payload.hpp"
#include "common/input_register.hpp"
#include "common/ring.hpp"
#include "common/stats.hpp"
#include "common/trace.hpp"
#include "dram/dram_params.hpp"

namespace warptlm {

class DramChannel : public sc_core::sc_module, public SharedClockMember {
 public:
  tlm_utils::multi_passthrough_target_socket<DramChannel> socket;  // one binding per L2 slice above

  // `id` names the stats ("dram<id>.reads", summed as "dram.reads");
  // `period` is the DRAM clock period (all timing is counted in it).
  DramChannel(sc_core::sc_module_name name, uint32_t id, const DramParams& p, sc_core::sc_time period,
              StatsRegistry& stats);
  SC_HAS_PROCESS(DramChannel);

  // The partition above may hand the channel global addresses: this maps one
  // to the channel-local address that row/bank/column are taken from
  // (default: the address as given). Called once per request.
  std::function<uint64_t(uint64_t)> local_address;

  // Where a channel-local address lands.
  struct Location { uint32_t bank; uint64_t row; uint32_t column; };
  Location locate(uint64_t local_addr) const;

  // Data-bus utilisation since the first request: busy / elapsed DRAM cycles.
  // The platform sums busy and elapsed cycles over channels for dram.bw_util.
  uint64_t busy_cycles() const { return busy_->value; }
  uint64_t elapsed_cycles() const;
  // The platform closes the window at the end of each launch, so the figure
  // does not depend on when the simulation happens to stop afterwards.
  void end_window(const sc_core::sc_time& t) { window_end_ = int64_t(t.value() / period_.value()); }
  double bw_util() const;

  uint64_t cycle() const { return cycle_now(period_); }  // the current DRAM cycle
  const sc_core::sc_time& clock_period() const override { return period_; }
  uint32_t queued() const { return uint32_t(order_.size()); }
  const DramParams& params() const { return p_; }

 private:
  static constexpr int64_t kNever = INT64_MIN / 4;
  static constexpr int64_t kNone = INT64_MAX / 4;
  static constexpr uint16_t kNoSlot = UINT16_MAX;

  // One row buffer.
  struct Bank {
    int64_t open_row = -1;      // -1: precharged
    int64_t col_ok = kNever;    // earliest column command (activate + tRCD)
    int64_t pre_ok = kNever;    // earliest precharge (tRAS, read-to-precharge, write recovery)
    int64_t act_ok = kNever;    // earliest activate (precharge + tRP, last activate + tRC)
    uint16_t head = kNoSlot;    // the bank's queued requests, oldest first (Entry::next)
    uint16_t tail = kNoSlot;
    uint16_t hit[2] = {kNoSlot, kNoSlot};  // its oldest queued read [0] and write [1] for the open row
    uint32_t group = 0;         // bank group
  };
  // One bank group's column-command spacing (GDDR5).
  struct Group {
    int64_t col_ok = kNever;  // tCCDL after the group's last column command
    int64_t pre_ok = kNever;  // tRTPL after the group's last read command
  };
  // One request-queue entry.
  struct Entry {
    tlm::tlm_generic_payload* payload = nullptr;
    int64_t sent = 0;      // DRAM cycle of its BEGIN_REQ (latency is counted from here)
    int64_t arrive = 0;    // DRAM cycle it entered the queue (later than sent after back-pressure)
    uint64_t row = 0;
    uint32_t bank = 0;
    uint32_t bytes = 0;
    bool write = false;
    bool activated = false;  // an activate was issued for this request: a row miss
    uint64_t age = 0;        // admission order: a smaller age is older
    uint16_t prev = kNoSlot, next = kNoSlot;  // neighbours in its bank's queue
  };
  // A request whose column command has issued, waiting for its last data beat.
  struct InFlight {
    tlm::tlm_generic_payload* payload;
    int64_t done;
    int64_t sent;
  };

  tlm::tlm_sync_enum nb_transport_fw(int port, tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
  void end_of_elaboration() override;
  void tick();
  uint64_t clock_edge(uint64_t) override;  // an edge of the channels' shared clock domain
  // The edge's work; returns the next cycle the channel needs (kNone: none until a request arrives).
  int64_t step();
  void admit(tlm::tlm_generic_payload& p, int64_t sent, int64_t arrive);
  void respond(int64_t now);
  void count_active_until(int64_t now);
  // Picks and issues at most one command this cycle; returns the earliest
  // later cycle at which some command could issue (kNone when none waits).
  int64_t schedule(int64_t now);
  struct ColumnFloor { int64_t read, write; };
  ColumnFloor column_floor() const;
  int64_t column_ready(const Entry& e, const ColumnFloor& f) const;
  bool has_queued_hit(uint32_t bank, int64_t now) const;
  const Entry* oldest_ready_hit(const ColumnFloor& floor, int64_t now, int64_t& next) const;
  int64_t prepare_bank(int64_t now, int64_t next);
  int64_t row_command_beside(int64_t now);
  bool queue_has_room() const;
  bool send_oldest_to_bank(int64_t now);
  bool oldest_may_go_to_bank(int64_t now) const;
  void link_to_bank(uint16_t slot);
  void unlink_from_bank(uint16_t slot);
  uint16_t next_hit(const Bank& b, uint16_t from, bool write) const;
  void issue_column(uint16_t slot, int64_t now);
  void precharge(Bank& b, int64_t at);
  void activate(Entry& e, int64_t now);

  DramParams p_;
  bool fifo_;  // dram.scheduler: fifo (requests go to their banks in arrival order, one per bank)
  uint32_t id_;
  sc_core::sc_time period_;
  sc_core::sc_event wake_;
  std::vector<RequestBuffer> in_;  // per L2 slice above: requests (common/input_register.hpp)
  uint32_t last_port_ = 0;         // the port served last (round robin)
  const RequestBuffer::Entry* next_request(int64_t now, uint32_t& port) const;
  std::vector<uint8_t> bit_field_;  // dram.address_bits: per address bit, LSB first, 'R', 'B' or 'C'
  // The same map as runs of adjacent address bits that land next to each other in one field: a run takes
  // `mask` of the address shifted down by `from` and places it at `to` in its field (0 row, 1 bank, 2 column).
  struct BitRun { uint8_t field, from, to; uint64_t mask; };
  std::vector<BitRun> runs_;
  uint8_t row_bits_ = 0;  // row bits the map names (the address above the map adds to the row past them)
  void map_bit_runs();
  struct Delayed { tlm::tlm_generic_payload* p; int64_t sent, ready; };
  Ring<Delayed> delay_;         // dram.latency: requests on their way to the queue, in order
  void take_requests(int64_t now);
  int64_t window_end_ = -1;  // DRAM cycle the utilisation window ends (-1: now)

  std::vector<Bank> banks_;
  std::vector<Group> groups_;
  std::vector<Entry> entries_;     // queue storage, `queue` slots (FIFO: and one per bank)
  std::vector<uint16_t> free_;     // free slots
  std::vector<uint16_t> order_;    // occupied slots, oldest first
  uint32_t at_banks_ = 0;          // FIFO: the first at_banks_ of order_ have gone to their banks
  std::vector<InFlight> ring_;     // column issued, in data order (grows only if ever too small)
  size_t ring_head_ = 0, ring_count_ = 0;

  // channel-wide timing state
  int64_t last_cmd_ = kNever;        // one command per cycle on the command bus
  int64_t next_col_ = kNever;        // tCCD and burst spacing of column commands
  int64_t bus_free_ = kNever;        // the data bus is busy until here
  int64_t last_write_end_ = kNever;  // for write-to-read turnaround
  int64_t last_read_end_ = kNever;   // for read-to-write turnaround
  int64_t last_act_ = kNever;        // for tRRD
  int64_t first_request_ = -1;
  // The scheduler's last finding when it issued nothing: no command can issue
  // before this cycle unless a request joins the queue (every other input of
  // its decision changes only by a command, which it issues itself).
  int64_t quiet_until_ = kNever;
  uint64_t admitted_ = 0;  // requests admitted so far: the next one's age
  std::vector<uint32_t> busy_banks_;  // scratch: banks whose oldest request wants a row command

  Counter *requests_, *responses_, *reads_, *writes_, *row_hits_, *row_misses_;
  Counter *latency_, *busy_, *active_, *activates_, *precharges_;
  uint32_t outstanding_ = 0;   // requests taken from the input and not yet answered
  int64_t active_since_ = 0;   // the cycle outstanding_ last left 0
  bool drop_write_acks_ = false;  // WARPTLM_TEST_FAULT=dram_drop_write_ack: the conservation check must see it

  // Waveform probes: "dram<c>.queue" (requests queued) and per bank
  // "dram<c>.bank<b>.open_row" (the open row's low 20 bits; kClosedRow when
  // precharged; a closed-page auto-precharge shows at the cycle it may issue).
  // Transactions: "dram<c>.req" (read or write), its address and SM in the cycle the queue takes it,
  // "dram<c>.resp" and its latency in DRAM cycles (arrival to last data beat) in the cycle it is answered.
  static constexpr uint64_t kClosedRow = (1u << 20) - 1;
  Probe queue_probe_;
  std::vector<Probe> row_probes_;
  Probe req_probe_, req_addr_probe_, req_sm_probe_, resp_probe_, resp_latency_probe_;
};

}  // namespace warptlm
