// The L1 data cache of one SM: a sectored, set-associative cache between the
// SM's LD/ST unit (upstream) and the crossbar toward L2 (downstream), with
// MSHRs that merge misses to the same line, a miss queue toward L2, and
// per-line owner warps for CIAO's victim tag array (spec 002 sections 1, 2).
//
// Timing only: the functional model already moved the data when the warp
// issued, so transactions carry addresses, sector masks and GPU facts.
//
// Smart ticking: tick() runs on this cache's clock edges only while a request
// waits, a response is due or the miss queue has something to send; otherwise
// it sleeps on an event raised by a new request or a downstream answer.
#pragma once
#include <functional>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "common/clock.hpp"
#include "common/clock_domain.hpp"
#include "common/gpu_payload.hpp"
#include "common/input_register.hpp"
#include "common/stats.hpp"
#include "common/trace.hpp"
#include "common/zeroed_array.hpp"
#include "l1/l1_observer.hpp"
#include "l1/l1_side_store.hpp"
#include "l1/l1_params.hpp"

namespace warptlm {

class L1DataCache : public sc_core::sc_module, public SharedClockMember {
 public:
  tlm_utils::simple_target_socket<L1DataCache> upstream;       // from the SM's LD/ST unit
  tlm_utils::simple_initiator_socket<L1DataCache> downstream;  // toward the crossbar / L2
  // Line fills of the SM's instruction and constant caches: passed below
  // untouched through the miss queue (the SM's one port into the crossbar).
  tlm_utils::simple_target_socket_optional<L1DataCache> readonly_upstream;  // optional: an L1 tested alone leaves it unbound

  // Stats go under "sm<sm_id>.l1d.*", summed as "l1d.*". Downstream payloads
  // (fills, write-backs) come from `pool`.
  // Bytes of simulator state a cache of this geometry keeps (tags, MSHRs,
  // queues), for the memory budget checked before it is built.
  static uint64_t model_bytes(const L1Params& p);

  L1DataCache(sc_core::sc_module_name name, uint32_t sm_id, const L1Params& p, sc_core::sc_time period,
              StatsRegistry& stats, PayloadPool& pool);
  SC_HAS_PROCESS(L1DataCache);

  // Observers of hits, load misses, fills and evictions (l1_observer.hpp), told in the order they were added.
  void add_observer(L1Observer& o) { observers_.push_back(&o); }
  // The store that takes requests marked l1_redirect (l1_side_store.hpp); without one they are ordinary.
  void set_side_store(L1SideStore* s) { side_ = s; }

  // Tag-array inspection and maintenance (tests, CIAO migration, kernel end).
  bool holds(uint64_t addr, uint32_t sector_mask = 0) const;  // line present with these sectors (0 = any) valid
  bool is_dirty(uint64_t addr) const;
  int owner_of(uint64_t addr) const;  // owner warp, or -1 when the line is absent
  uint32_t set_index(uint64_t addr) const { return l1_set_index(p_, addr); }
  // Drops one line (a dirty one is written back first); true if it was present.
  bool invalidate(uint64_t addr);
  // Drops every line without write-back (local data is dead at kernel end).
  void invalidate_all();
  // l1d.unified_size: a launch's shared memory takes `carveout` bytes of the array and the L1D keeps
  // p.carve_out_ways(carveout) ways of each set; lines in the ways it gives up are dropped.
  void carve_out(uint32_t carveout);
  uint32_t active_ways() const { return active_ways_; }
  // Sampling's cache warming (docs/sampling.md): a functional launch's access to the line holding `addr`,
  // outside simulated time. The tag array changes as the access would have left it once answered (the
  // policies of a timed access; no MSHR, queue, counter or observer; a dirty victim's write-back is dropped).
  // Returns the 32-byte sectors it sends below: a load's missing ones, a write-through store's, an atomic's.
  // `nc`: an ld.global.nc, kept even where global loads bypass the L1.
  uint32_t warm(uint64_t addr, uint32_t sector_mask, MemKind kind, uint8_t space, bool nc = false);
  uint64_t capacity_lines() const { return lines_.size(); }  // the lines its tag array holds
  // A broken conservation rule (a response that answers nothing outstanding):
  // the platform stops the run with this message as a fault.
  std::function<void(const std::string&)> on_run_error;
  uint32_t mshrs_in_use() const { return p_.mshr_entries - uint32_t(free_mshrs_.size()); }
  bool idle() const;  // nothing waiting, queued, outstanding or due
  const L1Params& params() const { return p_; }
  const sc_core::sc_time& clock_period() const override { return period_; }

 private:
  // A small growable ring (storage is reused; it grows only past its high-water mark).
  template <class T>
  struct Ring {
    std::vector<T> buf;
    size_t head = 0, count = 0;
    explicit Ring(size_t cap = 16) : buf(cap) {}
    bool empty() const { return count == 0; }
    size_t size() const { return count; }
    T& operator[](size_t i) { return buf[(head + i) % buf.size()]; }
    const T& operator[](size_t i) const { return buf[(head + i) % buf.size()]; }
    T& front() { return buf[head]; }
    const T& front() const { return buf[head]; }
    void pop_front() { head = (head + 1) % buf.size(); --count; }
    void push_back(const T& v) {
      if (count == buf.size()) {
        std::vector<T> b(buf.size() * 2);
        for (size_t i = 0; i < count; ++i) b[i] = (*this)[i];
        buf.swap(b);
        head = 0;
      }
      buf[(head + count) % buf.size()] = v;
      ++count;
    }
  };

  struct Line {
    bool present = false;
    bool reserved = false;   // allocated at a miss, its fill outstanding (l1d.allocate: on_miss): never a victim
    uint64_t line_addr = 0;  // byte address >> line bits
    uint32_t valid = 0;      // sectors present
    uint32_t dirty = 0;      // sectors written and not yet below
    uint16_t owner = 0;      // warp that brought the line in (CIAO: WID in the tag)
    uint8_t space = 0;
    uint64_t last_use = 0;   // LRU stamp
    uint64_t filled = 0;     // FIFO stamp
  };
  struct Mshr {
    bool busy = false;
    bool queued = false;     // a fill request waits in the miss queue (at most one: it asks, when sent, for every sector not yet requested)
    uint64_t line_addr = 0;
    uint32_t fetch = 0;      // sectors the fills bring
    uint32_t requested = 0;  // sectors already asked for below
    uint8_t outstanding = 0; // fills in flight (a merge needing sectors after a fill went adds one)
    uint16_t warp = 0;       // the allocating warp (the evicting warp when the fill replaces a line)
    uint8_t space = 0;
    bool side = false;       // the fill goes to the side store (its translated place: the extra MSHR field)
    uint32_t block = 0, pc = 0;
    uint64_t allocated = 0;  // cycle the entry was allocated (for the miss latency)
    uint32_t merged = 0;     // requests the fill answers (the allocating one included): merged_requests_[entry * merges, + merged)
  };
  enum class DownKind : uint8_t { Fill, Forward, WriteBack };
  struct DownReq {
    DownKind kind = DownKind::Fill;
    uint32_t mshr = 0;
    uint64_t line_addr = 0;
    uint32_t mask = 0;
    uint16_t warp = 0;
    uint8_t space = 0;
    tlm::tlm_generic_payload* fwd = nullptr;  // Forward: the upstream payload itself
    bool readonly = false;                    // Forward: a read-only fill (answered on readonly_upstream)
  };
  struct Arrival {
    uint64_t cycle = 0;
    tlm::tlm_generic_payload* p = nullptr;
    bool failed = false;  // already counted as a reservation fail
  };
  struct Response {
    uint64_t due, seq;
    tlm::tlm_generic_payload* p;
    bool readonly;  // goes back on readonly_upstream
    bool operator>(const Response& o) const { return due != o.due ? due > o.due : seq > o.seq; }
  };

  // route-stack codes on downstream payloads (fills push their MSHR index)
  static constexpr int16_t kForwarded = -1, kWriteBack = -2, kReadOnly = -3;

  // clock
  uint64_t cycle_at_or_after(const sc_core::sc_time& t) const { return edge_at_or_after(period_, t); }
  sc_core::sc_time edge(uint64_t cycle) const { return edge_time(period_, cycle); }

  // the cycle: alone, tick() on the cache's own process; in its SM's partition of the core clock domain,
  // the own part (everything but the miss queue's send below, which reaches the crossbar) and clock_edge.
  void tick();
  void own_edge(uint64_t c);
  uint64_t next_edge(uint64_t c) const;
  bool splits_edge() const override { return true; }
  void edge_own_work(uint64_t c) override;
  uint64_t clock_edge(uint64_t c) override;
  void wake_at(uint64_t cycle) { ask_edge(wake_, period_, cycle); }
  // A broken conservation rule: reported at once, or, found in the own part, at the edge's clock_edge.
  void conservation_fault(const std::string& what);
  uint64_t own_cycle_ = UINT64_MAX;
  bool in_own_part_ = false;
  std::string own_fault_;
  void respond(uint64_t c);
  bool access(tlm::tlm_generic_payload& p, uint64_t c);
  bool load(tlm::tlm_generic_payload& p, uint64_t line, uint32_t want, uint64_t c);
  bool store(tlm::tlm_generic_payload& p, uint64_t line, uint32_t want, uint64_t c);
  bool atomic(tlm::tlm_generic_payload& p, uint64_t line);
  bool side_load(tlm::tlm_generic_payload& p, uint64_t line, uint32_t want, uint64_t c);
  bool miss(tlm::tlm_generic_payload& p, uint64_t line, uint32_t need, uint64_t c, bool side);
  void fill(uint32_t m, uint64_t c);
  void issue_downstream(uint64_t c);

  // tag array
  Line* lookup(uint64_t line);
  const Line* lookup(uint64_t line) const;
  Line* choose_victim(uint64_t line);  // nullptr: every way of the set is reserved
  Line* victim_for_miss(uint64_t line);  // choose_victim, counting a line allocation fail on nullptr
  bool reserve_line(uint64_t line, const GpuExtension& e);
  void evict(Line& l, uint16_t evicting_warp);
  void install(Line& l, uint64_t line, uint32_t valid, uint32_t dirty, uint16_t owner, uint8_t space);
  void touch(Line& l) { l.last_use = ++use_clock_; }
  void drop(Line& l);  // the line leaves its way: not present, not reserved

  // MSHRs and queues
  int find_mshr(uint64_t line) const;
  uint32_t allocate_mshr(uint64_t line, uint32_t fetch, const GpuExtension& e, uint64_t c);
  bool queue_room(size_t n) const { return down_q_.size() + n <= p_.miss_queue; }
  // A request that passes below untouched: every one when the cache is disabled, and a global load under
  // l1d.global_loads: bypass (timed and warmed alike).
  bool passes_below(MemKind kind, uint8_t space, bool nc) const;
  void invalidate_sectors(Line& l, uint32_t sectors);
  void queue_fill(uint32_t m, uint64_t line);
  void enqueue_forward(tlm::tlm_generic_payload& p, bool readonly = false);
  void enqueue_writeback(const Line& l);
  void schedule_response(tlm::tlm_generic_payload* p, uint64_t due, bool readonly = false);
  void take_readonly(uint64_t c);
  void downstream_accepted();
  void downstream_response(tlm::tlm_generic_payload& p);

  // sockets
  tlm::tlm_sync_enum upstream_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
  tlm::tlm_sync_enum readonly_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
  tlm::tlm_sync_enum downstream_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);

  uint32_t sm_id_;
  L1Params p_;
  sc_core::sc_time period_;
  PayloadPool& pool_;
  uint32_t line_bits_;
  uint32_t full_mask_;

  ZeroedArray<Line> lines_;  // sets * ways
  // Each way's tag, side by side: tag_of(its line) while present, kNoLine when not. The lookup compares these
  // alone, so a set of 256 ways (a unified L1 with no carve-out) is read as 2 KB of tags, not 12 KB of lines.
  // A tag is its line inverted, so that zero bytes (the table as built) hold no line.
  static constexpr uint64_t kNoLine = 0;
  static uint64_t tag_of(uint64_t line) { return ~line; }
  ZeroedArray<uint64_t> tags_;
  uint32_t active_ways_ = 0;  // the ways of each set in use: all, or those a shared-memory carve-out leaves
  bool installed_ = false;    // a line was installed since the last invalidation (lines untouched since are as built)
  ZeroedArray<Mshr> mshrs_;
  ZeroedArray<tlm::tlm_generic_payload*> merged_requests_;  // each entry's requests, l1d.mshr_merges apart
  tlm::tlm_generic_payload*& merged_request(size_t entry, uint32_t k) { return merged_requests_[entry * p_.mshr_merges + k]; }
  std::vector<uint32_t> free_mshrs_;
  // Each MSHR's line while it is busy (tag_of(line); kNoLine when free), side by side: the lookup at every
  // access reads these few host cache lines instead of every entry (the MSHR's associative tag compare).
  ZeroedArray<uint64_t> mshr_lines_;
  std::vector<uint32_t> fills_;          // MSHRs whose fill came back, installed at the next edge
  Ring<Arrival> in_;                     // upstream requests, in arrival order
  Ring<DownReq> down_q_;                 // the miss queue
  std::vector<Response> resp_;           // min-heap by due cycle
  tlm::tlm_generic_payload* down_inflight_ = nullptr;  // sent downstream, END_REQ not yet seen
  uint32_t below_ = 0;                   // sent downstream, not yet answered
  bool blocked_ = false;                 // the head request failed; retry when a resource frees
  uint64_t lookup_cycle_ = UINT64_MAX, send_cycle_ = UINT64_MAX;
  uint64_t use_clock_ = 0, seq_ = 0;
  sc_core::sc_event wake_;
  struct Input {
    tlm::tlm_generic_payload* p;
    tlm::tlm_phase phase;
  };
  RequestBuffer readonly_in_;        // read-only fills from the SM, waiting for a miss-queue entry
  InputRegister<Input> from_below_;  // END_REQ and responses, taken at the next edge (common/input_register.hpp)
  // What came from below while the crossbar ran beside the own parts (SharedClockMember::inputs_deferred):
  // recorded into from_below_ once they are done, in the same instant and order.
  std::vector<Input> deferred_;
  void take_deferred() override;
  // WARPTLM_TEST_FAULT=beside_no_defer: they go into from_below_ at once, racing with the own part (the
  // domain refuses the edge request that follows, and ThreadSanitizer reports the race: scripts/tsan)
  bool no_defer_fault_ = false;
  bool same_edge_fault_ = false;  // WARPTLM_TEST_FAULT=l1_same_edge
  // WARPTLM_TEST_FAULT=l1_lose_fill / l1_duplicate_fill: the 20th fill from
  // below is dropped / taken twice (the conservation checks must catch both)
  enum class FillFault : uint8_t { None, Lose, Duplicate } fill_fault_ = FillFault::None;
  uint64_t fills_seen_ = 0;
  tlm::tlm_generic_payload* waiting_ = nullptr;  // found the input buffer full: END_REQ withheld
  uint32_t occupancy(uint64_t cycle) const;
  void enqueue_request(tlm::tlm_generic_payload& p, const sc_core::sc_time& at);
  void admit_waiting(uint64_t cycle);
  void take_from_below();

  // waveform probes: "sm<i>.l1d.outcome" (the result of the lookup in this
  // cycle, idle in cycles without one: set ahead with Probe::set_at, no extra
  // wake-up) and "sm<i>.l1d.mshrs" (entries in use)
  enum : uint8_t { kIdle, kHit, kMiss, kMerge, kReservationFail, kBypass };
  uint8_t outcome_ = kIdle;  // set by the lookup that succeeds
  Probe outcome_probe_, mshr_probe_;

  // stats
  std::vector<L1Observer*> observers_;
  L1SideStore* side_ = nullptr;
  Counter *side_hits_ = nullptr, *side_misses_ = nullptr, *migrations_ = nullptr;
  Counter* line_alloc_fails_;  // misses refused because every way of their set awaited a fill (on_miss)
  Counter *requests_, *responses_, *hits_, *misses_, *merges_, *reservation_fails_, *writebacks_, *evictions_,
      *fill_requests_, *write_throughs_, *bypasses_, *readonly_requests_, *readonly_responses_, *fills_done_, *fill_cycles_, *no_allocate_misses_;
};

}  // namespace warptlm
