// One L2 slice: the cache in front of one memory partition's DRAM channel.
// Sectored, set-associative, write-back and write-allocate (CIAO Table I),
// with MSHRs that merge requests to a line being fetched, a miss queue toward
// DRAM, and atomics performed here as read-modify-writes.
//
// Pipeline, in L2 cycles:
//  - input: each upstream port has a two-entry input buffer; a request is
//    accepted into it (END_REQ) while it has room, else END_REQ is withheld
//    until a slot frees (common/input_register.hpp).
//  - ROP stage (l2.rop_latency > 0, GPGPU-Sim's sub-partition front end): the
//    oldest buffered request moves on, one a cycle, into a delay line of
//    rop_latency cycles, while the requests past it that wait for the tag array
//    leave room for a whole line's sectors (l2.input_queue); hits and misses
//    alike pay it. Without the stage, the input buffers feed the tag array.
//  - lookup: from the cycle after it arrived (or left the ROP stage), the
//    oldest request takes the tag array if everything it needs is free: an MSHR
//    entry or a merge slot, miss-queue slots for its fetch and its victim's
//    write-back, and a victim way that is not waiting for a fill. Otherwise
//    it stays at the head (a reservation fail), the buffer fills behind it,
//    and it is retried when something frees. A request holds the tag and data
//    arrays for l2.data_port's share of its sectors (one cycle without it).
//  - hit: the response leaves `latency` cycles after the lookup's last cycle.
//  - miss: allocate-on-miss: the line is reserved at lookup (a dirty victim is
//    written back), the missing sectors are fetched through the miss queue
//    (one DRAM request per cycle, from the cycle after the lookup); when all
//    of the entry's fetches are back, each merged request responds, one per
//    cycle from the cycle after the fill.
//  - stores that write whole sectors (data_length covers every sector in the
//    sector mask) need no fetch: they allocate, mark the sectors valid and
//    dirty, and respond like a hit. Partial-sector stores and atomics fetch
//    the missing sectors first, then dirty them.
//
// Addresses are global; the set index uses the slice-local address
// (PartitionMap::slice_address), i.e. the bits above the partition (and
// sub-partition) interleave, so every set of every slice is used. The tag is the global line number.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "common/clock.hpp"
#include "common/gpu_payload.hpp"
#include "common/clock_domain.hpp"
#include "common/input_register.hpp"
#include "common/ring.hpp"
#include "common/stats.hpp"
#include "common/trace.hpp"
#include "common/zeroed_array.hpp"
#include "interconnect/partition_map.hpp"
#include "l2/l2_params.hpp"

namespace warptlm {

class L2Slice : public sc_core::sc_module, public SharedClockMember {
 public:
  tlm_utils::multi_passthrough_target_socket<L2Slice> up;  // from the crossbar (or any initiator)
  tlm_utils::simple_initiator_socket<L2Slice> down;        // to this partition's DRAM channel

  // `id`: partition number (stats "part<id>.l2", or "part<id>.l2_<sub>" for
  // sub-partition `sub` >= 0); `map`: the crossbar's interleaving, for the
  // set index; `pool`: payloads for DRAM requests.
  // Bytes of simulator state a slice of this geometry keeps (tags, MSHRs,
  // waiting requests), for the memory budget checked before it is built.
  static uint64_t model_bytes(const L2Params& p);

  L2Slice(sc_core::sc_module_name name, uint32_t id, const L2Params& p, const PartitionMap& map,
          sc_core::sc_time period, StatsRegistry& stats, PayloadPool& pool, int sub = -1);
  SC_HAS_PROCESS(L2Slice);

  uint32_t set_index(uint64_t addr) const;
  // A broken conservation rule (a DRAM answer that ends no fetch): the
  // platform stops the run with this message as a fault.
  std::function<void(const std::string&)> on_run_error;
  bool holds(uint64_t addr) const;  // the line is present (valid sectors or reserved)
  bool valid(uint64_t addr) const;  // the byte's sector is valid
  // A host-to-device copy of [addr, addr + bytes) (l2.preload_copies; else nothing).
  bool preload(uint64_t addr, uint64_t bytes);
  // Sampling's cache warming (docs/sampling.md): what reached this slice of a functional launch's access to
  // the line holding `addr` (`sector_mask`: its 32-byte sectors), outside simulated time. The line is
  // allocated (a dirty victim's write-back dropped) and the sectors become valid, and dirty for a write
  // (a store or an atomic); a line being fetched is left alone. No counter changes.
  void warm(uint64_t addr, uint32_t sector_mask, bool write);
  uint64_t capacity_lines() const { return lines_.size(); }  // the lines its tag array holds
  uint32_t mshrs_in_use() const { return p_.mshr_entries - uint32_t(free_mshrs_.size()); }
  uint64_t cycle() const { return cycle_now(period_); }
  const sc_core::sc_time& clock_period() const override { return period_; }
  // In a clock domain with the SMs it may take its edges beside their own parts: it reaches them only
  // through the crossbar, whose inputs are registered.
  bool runs_beside_own_parts() const override { return true; }

 private:
  struct Line {
    uint64_t tag = 0;      // global line number
    uint64_t stamp = 0;    // replacement order
    uint32_t valid = 0;    // sector masks
    uint32_t dirty = 0;
    uint32_t mshr_plus1 = 0;  // 1 + the entry fetching into this line (0: none); the line cannot be evicted meanwhile
    bool allocated = false;
    bool fetching() const { return mshr_plus1 != 0; }
    uint32_t mshr() const { return mshr_plus1 - 1; }
  };
  struct Waiter {
    tlm::tlm_generic_payload* p = nullptr;
    uint32_t dirties = 0;  // sectors it writes once the data is there (partial stores, atomics)
  };
  struct Mshr {
    uint64_t line_no = 0;
    uint32_t line_idx = 0;
    uint32_t requested = 0;  // sectors fetched or being fetched
    uint32_t fetches = 0;    // DRAM reads not yet answered
    uint32_t count = 0;      // waiters
    uint16_t sm = 0, warp = 0;
  };
  struct MissReq {
    bool write = false;  // write-back of a dirty victim, else a fetch
    uint64_t addr = 0;
    uint32_t sectors = 0;
    int32_t mshr = -1;
    uint64_t ready = 0;  // first cycle it may go to DRAM
    uint16_t sm = 0, warp = 0;
  };
  struct Resp {
    uint64_t ready, seq;
    tlm::tlm_generic_payload* p;
    bool operator>(const Resp& o) const { return ready != o.ready ? ready > o.ready : seq > o.seq; }
  };
  enum class Outcome { Accepted, NoResources };

  void end_of_elaboration() override;
  tlm::tlm_sync_enum nb_transport_fw(int port, tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
  void tick();
  uint64_t clock_edge(uint64_t) override {  // an edge of the slices' shared clock domain
    tick();
    return kNever;  // tick() asked for its next edge
  }
  // hardware steps
  void take_inputs(uint64_t now);
  void lookup_oldest(uint64_t now);
  const RequestBuffer::Entry* oldest_buffered(uint64_t now, size_t& port) const;
  void enter_rop(uint64_t now);
  void lookup_past_rop(uint64_t now);
  bool try_lookup(tlm::tlm_generic_payload& p, uint32_t need, uint32_t port, uint64_t now, bool& counted_fail);
  // `need`: the request's sectors in this slice's sectors (sectors_of).
  Outcome lookup(tlm::tlm_generic_payload& p, uint32_t need, uint64_t now);
  int32_t find_way(uint32_t set, uint64_t line_no) const;
  int32_t choose_victim(uint32_t set) const;
  void evict(Line& victim, uint64_t now);
  int32_t allocate_mshr(uint32_t line_idx, uint64_t line_no, const GpuExtension& e);
  void push_fetch(int32_t m, uint32_t sectors, uint64_t now);
  void respond_at(tlm::tlm_generic_payload& p, uint64_t cycle);
  void send_miss(uint64_t now);
  void miss_accepted(uint64_t now);
  void fill(tlm::tlm_generic_payload& p, uint64_t now);
  void send_response(uint64_t now);
  void touch(Line& l, bool allocate);
  Line* place_outside_time(uint64_t addr, bool& dropped);
  uint32_t sectors_of(const tlm::tlm_generic_payload& p) const;
  uint32_t sectors_covering(uint64_t addr, uint64_t bytes) const;
  void wake_at(uint64_t cycle) { ask_edge(wake_, period_, cycle); }
  void resources_freed(uint64_t now);

  uint32_t id_;
  L2Params p_;
  PartitionMap map_;
  sc_core::sc_time period_;
  PayloadPool& pool_;
  uint32_t sets_, all_sectors_;
  ZeroedArray<Line> lines_;  // set-major: set * ways + way
  ZeroedArray<Mshr> mshrs_;
  ZeroedArray<Waiter> waiters_;  // entry m's waiters at [m * merges, m * merges + count)
  std::vector<uint32_t> free_mshrs_;
  Ring<MissReq> miss_q_;
  std::vector<Resp> resp_heap_;
  std::vector<RequestBuffer> in_;  // per upstream port: requests (common/input_register.hpp)
  std::vector<bool> head_failed_;  // per port: its head already counted as a reservation fail
  // The ROP stage (l2.rop_latency): requests in arrival order, each with the
  // cycle it reaches the tag array's queue; the first rop_past_ have, and hold
  // rop_past_sectors_ sectors.
  struct RopEntry {
    tlm::tlm_generic_payload* p;
    uint64_t ready;
    uint32_t port, need;  // need: its sectors (sectors_of), found once as it enters
  };
  Ring<RopEntry> rop_;
  size_t rop_past_ = 0;
  uint32_t rop_past_sectors_ = 0;
  bool rop_head_failed_ = false;
  uint64_t stamp_ = 0, seq_ = 0;
  uint64_t next_lookup_ = 0;              // first cycle the tag array is free
  uint64_t last_send_ = UINT64_MAX, last_resp_ = UINT64_MAX;
  tlm::tlm_generic_payload* down_inflight_ = nullptr;  // sent to DRAM, END_REQ not yet seen
  bool up_awaiting_end_resp_ = false;
  uint32_t up_resp_port_ = 0;
  bool blocked_ = false;  // the oldest buffered request waits for a resource to free
  sc_core::sc_event wake_;
  struct Input {
    tlm::tlm_generic_payload* p;
    tlm::tlm_phase phase;
  };
  InputRegister<Input> from_up_, from_dram_;  // registered inputs (common/input_register.hpp)

  Counter *hits_, *misses_, *writebacks_, *merges_, *res_fails_, *requests_, *responses_, *fetches_;
  Counter *preloaded_ = nullptr, *preload_dropped_ = nullptr;  // registered with l2.preload_copies
  Probe mshr_probe_;  // "part<p>.l2.mshrs": MSHR entries in use
};

}  // namespace warptlm
