#include "l2/l2_slice.hpp"

#include <algorithm>
#include <functional>
#include <string>

namespace warptlm {

namespace {
constexpr uint64_t kWritebackTag = UINT64_MAX;  // DRAM requests that are write-backs, not fetches
uint32_t popcount(uint32_t m) { return uint32_t(__builtin_popcount(m)); }
unsigned bits_for(uint64_t max) { return max ? unsigned(64 - __builtin_clzll(max)) : 1; }  // probe width
}  // namespace

uint64_t L2Slice::model_bytes(const L2Params& p) {
  const uint64_t lines = p.sets() * uint64_t(p.ways);
  return lines * sizeof(Line) + uint64_t(p.mshr_entries) * (sizeof(Mshr) + uint64_t(p.mshr_merges) * (sizeof(Waiter) + sizeof(void*))) +
         uint64_t(p.miss_queue) * 64 + (uint64_t(p.rop_latency) + p.input_queue) * sizeof(RopEntry);
}

L2Slice::L2Slice(sc_core::sc_module_name name, uint32_t id, const L2Params& p, const PartitionMap& map,
                 sc_core::sc_time period, StatsRegistry& stats, PayloadPool& pool, int sub)
    : sc_core::sc_module(name),
      up("up"),
      down("down"),
      id_(id),
      p_(p),
      map_(map),
      period_(period),
      pool_(pool),
      miss_q_(p.miss_queue),
      rop_(size_t(p.rop_latency) + p.input_queue + 8) {
  p_.check();
  sets_ = p_.sets();
  const uint32_t n = p_.sectors_per_line();
  all_sectors_ = n >= 32 ? 0xFFFFFFFFu : (1u << n) - 1;
  lines_ = ZeroedArray<Line>(size_t(sets_) * p_.ways);
  mshrs_ = ZeroedArray<Mshr>(p_.mshr_entries);
  waiters_ = ZeroedArray<Waiter>(size_t(p_.mshr_entries) * p_.mshr_merges);
  for (uint32_t m = p_.mshr_entries; m-- > 0;) free_mshrs_.push_back(m);
  resp_heap_.reserve(size_t(p_.mshr_entries) * p_.mshr_merges + 64);

  const std::string inst = "part" + std::to_string(id) + ".l2" + (sub >= 0 ? "_" + std::to_string(sub) : "");
  StatGroup g(stats, inst, "l2");
  hits_ = &g.counter("hits", "L2 accesses whose sectors were all present");
  misses_ = &g.counter("misses", "L2 accesses that missed a line or a sector (merged ones included)");
  writebacks_ = &g.counter("writebacks", "dirty lines written back to DRAM on eviction");
  merges_ = &g.counter("mshr_merges", "misses merged into an MSHR entry already fetching the line");
  res_fails_ = &g.counter("reservation_fails", "requests whose END_REQ was withheld for want of an MSHR, merge slot, miss-queue slot or victim");
  requests_ = &g.counter("requests", "requests accepted from upstream");
  responses_ = &g.counter("responses", "responses sent upstream");
  fetches_ = &g.counter("fetches", "fetches (reads) sent to DRAM");
  if (p_.preload_copies) {
    preloaded_ = &g.counter("preloaded_sectors", "sectors made valid by host-to-device copies (l2.preload_copies)");
    preload_dropped_ = &g.counter("preload_dropped_writebacks",
                                  "dirty lines replaced by a host-to-device copy without a write-back (l2.preload_copies)");
  }
  mshr_probe_.declare(inst + ".mshrs", bits_for(p_.mshr_entries));

  up.register_nb_transport_fw(this, &L2Slice::nb_transport_fw);
  down.register_nb_transport_bw(this, &L2Slice::nb_transport_bw);
  SC_METHOD(tick);
  sensitive << wake_;
  dont_initialize();
}

void L2Slice::end_of_elaboration() {
  in_.resize(up.size());
  head_failed_.assign(up.size(), false);
}

// ---------------------------------------------------------------- tag array

// The slice indexes with its slice-local line number: the address bits that
// chose the partition (and the sub-partition) are dropped, so consecutive
// chunks of this slice use consecutive sets.
uint32_t L2Slice::set_index(uint64_t addr) const {
  const uint64_t local_line = map_.slice_address(addr) / p_.line;
  if (p_.index == L2Index::Xor) return uint32_t((local_line ^ (local_line / sets_)) % sets_);
  return uint32_t(local_line % sets_);
}

bool L2Slice::holds(uint64_t addr) const { return find_way(set_index(addr), addr / p_.line) >= 0; }

bool L2Slice::valid(uint64_t addr) const {
  const uint32_t set = set_index(addr);
  const int32_t w = find_way(set, addr / p_.line);
  return w >= 0 && (lines_[size_t(set) * p_.ways + uint32_t(w)].valid & sectors_covering(addr, 1));
}

int32_t L2Slice::find_way(uint32_t set, uint64_t line_no) const {
  const Line* s = &lines_[size_t(set) * p_.ways];
  for (uint32_t w = 0; w < p_.ways; ++w)
    if (s[w].allocated && s[w].tag == line_no) return int32_t(w);
  return -1;
}

// An empty way, else the least recently used (or oldest filled) line that is
// not waiting for a fill; -1 when every way is reserved.
int32_t L2Slice::choose_victim(uint32_t set) const {
  const Line* s = &lines_[size_t(set) * p_.ways];
  int32_t best = -1;
  for (uint32_t w = 0; w < p_.ways; ++w) {
    if (!s[w].allocated) return int32_t(w);
    if (!s[w].fetching() && (best < 0 || s[w].stamp < s[best].stamp)) best = int32_t(w);
  }
  return best;
}

void L2Slice::touch(Line& l, bool allocate) {
  if (allocate || p_.replacement == L2Replacement::Lru) l.stamp = ++stamp_;
}

// The sectors of addr's line that the bytes [addr, addr + bytes) cover (at
// least one byte, at most to the end of the line).
uint32_t L2Slice::sectors_covering(uint64_t addr, uint64_t bytes) const {
  const uint64_t off = addr % p_.line;
  const uint64_t last = std::min<uint64_t>(p_.line - 1, off + std::max<uint64_t>(1, bytes) - 1);
  uint32_t m = 0;
  for (uint64_t s = off / p_.sector; s <= last / p_.sector; ++s) m |= 1u << s;
  return m;
}

// A request's sectors: its sector mask, or the sectors its bytes cover.
uint32_t L2Slice::sectors_of(const tlm::tlm_generic_payload& p) const {
  const GpuExtension* e = find_gpu_ext(p);
  const uint32_t asked = e && e->sector_mask ? cache_sectors_of(e->sector_mask, p_.sector, all_sectors_) : 0;
  return asked ? asked : sectors_covering(p.get_address(), p.get_data_length());
}

// Write-back: a dirty victim goes to DRAM through the miss queue.
void L2Slice::evict(Line& v, uint64_t now) {
  if (v.allocated && v.dirty) {
    miss_q_.push_back(MissReq{true, v.tag * p_.line, v.dirty, -1, now + 1, 0, 0});
    ++*writebacks_;
    wake_at(now + 1);
  }
  v = Line{};
}

int32_t L2Slice::allocate_mshr(uint32_t line_idx, uint64_t line_no, const GpuExtension& e) {
  const uint32_t m = free_mshrs_.back();
  free_mshrs_.pop_back();
  mshrs_[m] = Mshr{line_no, line_idx, 0, 0, 0, e.sm, e.warp};
  lines_[line_idx].mshr_plus1 = m + 1;
  mshr_probe_.set(mshrs_in_use());
  return int32_t(m);
}

// A fetch of `sectors` for entry m: one miss-queue entry, which goes to DRAM as
// one read, or (l2.dram_fetch: sector) as one read per sector.
void L2Slice::push_fetch(int32_t m, uint32_t sectors, uint64_t now) {
  Mshr& e = mshrs_[size_t(m)];
  e.requested |= sectors;
  const uint32_t reads = p_.fetch_per_sector ? std::max(1u, popcount(sectors)) : 1;
  e.fetches += reads;
  *fetches_ += reads;
  miss_q_.push_back(MissReq{false, e.line_no * p_.line, sectors, m, now + 1, e.sm, e.warp});
  wake_at(now + 1);
}

void L2Slice::respond_at(tlm::tlm_generic_payload& p, uint64_t c) {
  resp_heap_.push_back(Resp{c, seq_++, &p});
  std::push_heap(resp_heap_.begin(), resp_heap_.end(), std::greater<Resp>());
  wake_at(c);
}

// The tag lookup of one request at cycle `now`. It changes state only when
// the request can be taken whole; otherwise nothing happens (reservation fail).
L2Slice::Outcome L2Slice::lookup(tlm::tlm_generic_payload& p, uint32_t need, uint64_t now) {
  const GpuExtension& e = gpu_ext(p);
  const uint64_t line_no = p.get_address() / p_.line;
  const uint32_t set = set_index(p.get_address());
  const bool atomic = e.kind == MemKind::Atomic;
  const bool store = !atomic && p.is_write();
  const bool writes = store || atomic;  // atomics are read-modify-writes performed here
  const bool full_write = store && p.get_data_length() >= popcount(need) * p_.sector;
  const uint64_t done = now + p_.access_cycles(popcount(need)) - 1;  // the arrays' last cycle for this request
  const size_t queue_free = p_.miss_queue - miss_q_.size();
  const int32_t way = find_way(set, line_no);

  if (way >= 0) {
    const uint32_t idx = set * p_.ways + uint32_t(way);
    Line& l = lines_[idx];
    const uint32_t missing = need & ~l.valid;
    if (missing == 0 || full_write) {  // hit, or whole sectors overwritten: no fetch
      if (missing) ++*misses_; else ++*hits_;
      l.valid |= need;
      if (writes) l.dirty |= need;
      touch(l, false);
      respond_at(p, done + p_.latency);
      return Outcome::Accepted;
    }
    if (l.fetching()) {  // the line is being fetched: merge
      Mshr& m = mshrs_[l.mshr()];
      const uint32_t extra = missing & ~m.requested;
      if (m.count >= p_.mshr_merges || (extra && queue_free < 1)) return Outcome::NoResources;
      waiters_[size_t(l.mshr()) * p_.mshr_merges + m.count++] = Waiter{&p, writes ? need : 0};
      ++*merges_;
      ++*misses_;
      if (extra) push_fetch(int32_t(l.mshr()), extra, now);
      touch(l, false);
      return Outcome::Accepted;
    }
    // sector miss on a resident line
    if (free_mshrs_.empty() || queue_free < 1) return Outcome::NoResources;
    const int32_t m = allocate_mshr(idx, line_no, e);
    waiters_[size_t(m) * p_.mshr_merges + mshrs_[size_t(m)].count++] = Waiter{&p, writes ? need : 0};
    ++*misses_;
    push_fetch(m, missing, now);
    touch(l, false);
    return Outcome::Accepted;
  }

  // line miss: allocate on miss, evicting a victim that is not being filled
  const int32_t vw = choose_victim(set);
  if (vw < 0) return Outcome::NoResources;
  const uint32_t idx = set * p_.ways + uint32_t(vw);
  Line& v = lines_[idx];
  const size_t queue_need = size_t(v.allocated && v.dirty ? 1 : 0) + (full_write ? 0 : 1);
  if (queue_free < queue_need || (!full_write && free_mshrs_.empty())) return Outcome::NoResources;
  evict(v, now);
  v.allocated = true;
  v.tag = line_no;
  touch(v, true);
  ++*misses_;
  if (full_write) {
    v.valid = v.dirty = need;
    respond_at(p, done + p_.latency);
    return Outcome::Accepted;
  }
  const int32_t m = allocate_mshr(idx, line_no, e);
  waiters_[size_t(m) * p_.mshr_merges + mshrs_[size_t(m)].count++] = Waiter{&p, writes ? need : 0};
  push_fetch(m, need, now);
  return Outcome::Accepted;
}

// A host-to-device copy wrote these bytes (l2.preload_copies): their sectors
// become valid and clean, as if the copy had passed through the L2. A line
// being fetched is left alone; a replaced line's write-back is dropped (the
// copy happens between launches, outside simulated time). Returns whether
// anything changed.
bool L2Slice::preload(uint64_t addr, uint64_t bytes) {
  if (!p_.preload_copies || bytes == 0) return false;
  bool changed = false;
  const uint64_t end = addr + bytes;
  for (uint64_t line_no = addr / p_.line; line_no * p_.line < end; ++line_no) {
    const uint64_t lo = std::max(addr, line_no * p_.line);
    const uint32_t sectors = sectors_covering(lo, end - lo);
    bool dropped = false;
    Line* l = place_outside_time(lo, dropped);
    if (dropped) ++*preload_dropped_;
    if (!l || l->fetching()) continue;  // every way waits for a fill, or this line's fetch is on its way
    l->valid |= sectors;
    l->dirty &= ~sectors;
    touch(*l, false);
    *preloaded_ += popcount(sectors);
    changed = true;
  }
  return changed;
}

void L2Slice::warm(uint64_t addr, uint32_t sector_mask, bool write) {
  bool dropped = false;
  Line* l = place_outside_time(addr, dropped);
  if (!l || l->fetching()) return;
  const uint32_t sectors = cache_sectors_of(sector_mask, p_.sector, all_sectors_);
  l->valid |= sectors;
  if (write) l->dirty |= sectors;
  touch(*l, false);
}

// The line holding addr, allocated outside simulated time (a copy placed in L2, a warmed access) if absent:
// a victim leaves at once, its write-back dropped (`dropped`: it was dirty). Null when every way of the set
// waits for a fill.
L2Slice::Line* L2Slice::place_outside_time(uint64_t addr, bool& dropped) {
  const uint64_t line_no = addr / p_.line;
  const uint32_t set = set_index(addr);
  const int32_t hit = find_way(set, line_no);
  const int32_t way = hit >= 0 ? hit : choose_victim(set);
  dropped = false;
  if (way < 0) return nullptr;
  Line& l = lines_[size_t(set) * p_.ways + uint32_t(way)];
  if (hit < 0) {
    dropped = l.allocated && l.dirty;
    l = Line{};
    l.allocated = true;
    l.tag = line_no;
    touch(l, true);
  }
  return &l;
}

// ---------------------------------------------------------------- upstream

tlm::tlm_sync_enum L2Slice::nb_transport_fw(int port, tlm::tlm_generic_payload& p, tlm::tlm_phase& ph,
                                            sc_core::sc_time&) {
  if (ph == tlm::END_RESP) {
    from_up_.arrive(uint32_t(port), Input{&p, ph});
    wake_at(next_edge_after_now(period_));
    return tlm::TLM_COMPLETED;
  }
  if (ph != tlm::BEGIN_REQ) return tlm::TLM_ACCEPTED;
  wake_at(next_edge_after_now(period_));
  return answer_offer(in_[size_t(port)].offer(p, cycle()), ph);  // into the port's input buffer
}

// What arrived before this edge: DRAM first (an acceptance or a fill frees
// resources), then upstream: END_RESP, and a request that waited for room in
// its port's input buffer gets it (and its END_REQ).
void L2Slice::take_inputs(uint64_t now) {
  from_dram_.take_before(edge_value(period_, now), [&](uint32_t, const Input& in) {
    if (in.p == down_inflight_) miss_accepted(now);  // END_REQ, or a BEGIN_RESP that implies it
    if (in.phase == tlm::BEGIN_RESP) fill(*in.p, now);
  });
  from_up_.take_before(edge_value(period_, now), [&](uint32_t, const Input&) { up_awaiting_end_resp_ = false; });
  for (size_t i = 0; i < in_.size(); ++i)
    if (tlm::tlm_generic_payload* p = in_[i].admit_waiting(now)) send_end_req(up[int(i)], *p);
}

void L2Slice::resources_freed(uint64_t now) {
  if (!blocked_) return;
  blocked_ = false;
  wake_at(now + 1);  // the tag array was tried this cycle: try again at the next
}

void L2Slice::send_response(uint64_t now) {
  if (resp_heap_.empty() || up_awaiting_end_resp_ || resp_heap_.front().ready > now || last_resp_ == now) return;
  std::pop_heap(resp_heap_.begin(), resp_heap_.end(), std::greater<Resp>());
  tlm::tlm_generic_payload* p = resp_heap_.back().p;
  resp_heap_.pop_back();
  const int port = gpu_ext(*p).pop_route();
  p->set_response_status(tlm::TLM_OK_RESPONSE);
  last_resp_ = now;
  up_awaiting_end_resp_ = true;
  ++*responses_;
  tlm::tlm_phase ph = tlm::BEGIN_RESP;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum s = up[port]->nb_transport_bw(*p, ph, t);
  if (s == tlm::TLM_COMPLETED || (s == tlm::TLM_UPDATED && ph == tlm::END_RESP)) up_awaiting_end_resp_ = false;
}

// ---------------------------------------------------------------- downstream

// The miss queue's head goes to DRAM, one request per cycle, after the
// previous one was taken (END_REQ). A fetch sent sector by sector leaves the
// head until its last sector has gone.
void L2Slice::send_miss(uint64_t now) {
  if (miss_q_.empty() || down_inflight_ || miss_q_.front().ready > now || last_send_ == now) return;
  const MissReq& r = miss_q_.front();
  const uint32_t sectors = !r.write && p_.fetch_per_sector ? r.sectors & (~r.sectors + 1) : r.sectors;
  tlm::tlm_generic_payload* p = pool_.acquire();
  p->set_command(r.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  p->set_address(r.addr);
  p->set_data_length(popcount(sectors) * p_.sector);
  GpuExtension& e = gpu_ext(*p);
  e.kind = r.write ? MemKind::Store : MemKind::Load;
  e.sector_mask = sectors;  // in this slice's sectors: only the slice reads it back (miss_accepted, fill)
  e.tag = r.write ? kWritebackTag : uint64_t(r.mshr);
  e.sm = r.sm;
  e.warp = r.warp;
  e.issue_cycle = now;
  down_inflight_ = p;
  last_send_ = now;
  tlm::tlm_phase ph = tlm::BEGIN_REQ;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum s = down->nb_transport_fw(*p, ph, t);
  const bool answered = s == tlm::TLM_COMPLETED || (s == tlm::TLM_UPDATED && ph == tlm::BEGIN_RESP);
  if ((answered || (s == tlm::TLM_UPDATED && ph == tlm::END_REQ)) && down_inflight_ == p) miss_accepted(now);
  if (answered) fill(*p, now);
}

void L2Slice::miss_accepted(uint64_t now) {
  MissReq& head = miss_q_.front();
  head.sectors &= ~gpu_ext(*down_inflight_).sector_mask;
  if (head.sectors == 0) miss_q_.pop_front();
  else head.ready = now + 1;  // the next sector of a fetch sent sector by sector
  down_inflight_ = nullptr;
  if (!miss_q_.empty()) wake_at(std::max(miss_q_.front().ready, now + 1));
  resources_freed(now);
}

tlm::tlm_sync_enum L2Slice::nb_transport_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time&) {
  if (ph != tlm::END_REQ && ph != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
  from_dram_.arrive(0, Input{&p, ph});
  wake_at(next_edge_after_now(period_));
  return answer_recorded(ph);
}

// DRAM answered: a write-back is done; a fetch makes its sectors valid, and
// once all of the entry's fetches are back every merged request responds.
void L2Slice::fill(tlm::tlm_generic_payload& p, uint64_t now) {
  const GpuExtension& e = gpu_ext(p);
  const uint64_t tag = e.tag;
  const uint32_t sectors = e.sector_mask;
  p.release();
  if (tag == kWritebackTag) return;
  const uint32_t mi = uint32_t(tag);
  Mshr& m = mshrs_[mi];
  if (m.fetches == 0) {  // conservation: every DRAM answer ends exactly one fetch
    conservation_broken(on_run_error, *this, "DRAM answered MSHR " + std::to_string(mi) + ", which has no fetch outstanding");
    return;
  }
  Line& l = lines_[m.line_idx];
  l.valid |= sectors;
  if (--m.fetches) return;
  const Waiter* w = &waiters_[size_t(mi) * p_.mshr_merges];
  for (uint32_t k = 0; k < m.count; ++k) {
    l.dirty |= w[k].dirties;
    respond_at(*w[k].p, now + 1);
  }
  l.mshr_plus1 = 0;
  m.count = 0;
  free_mshrs_.push_back(mi);
  mshr_probe_.set(mshrs_in_use());
  resources_freed(now);
}

// ---------------------------------------------------------------- the cycle

void L2Slice::tick() {
  const uint64_t now = cycle();
  take_inputs(now);
  if (p_.rop_latency) {
    lookup_past_rop(now);
    enter_rop(now);
  } else {
    lookup_oldest(now);
  }
  send_miss(now);
  send_response(now);
  // Sleep until the earliest cycle something can move.
  uint64_t next = UINT64_MAX;
  // A buffered request moves on: into the ROP stage while it has room, else to the tag array when free.
  uint64_t buffered_moves = UINT64_MAX;
  if (p_.rop_latency) {
    if (rop_past_sectors_ + p_.sectors_per_line() <= p_.input_queue) buffered_moves = now + 1;
  } else if (!blocked_) {
    buffered_moves = std::max(next_lookup_, now + 1);
  }
  for (const RequestBuffer& b : in_) {
    if (!b.empty()) next = std::min(next, buffered_moves);
    if (b.has_waiting() && b.size() < RequestBuffer::kDepth) next = std::min(next, now + 1);  // a slot frees now
  }
  if (rop_past_ && !blocked_) next = std::min(next, std::max(next_lookup_, now + 1));
  if (rop_past_ < rop_.size()) next = std::min(next, std::max(rop_[rop_past_].ready, now + 1));
  if (!miss_q_.empty() && !down_inflight_) next = std::min(next, std::max(miss_q_.front().ready, now + 1));
  if (!resp_heap_.empty() && !up_awaiting_end_resp_) next = std::min(next, std::max(resp_heap_.front().ready, now + 1));
  if (!from_up_.empty() || !from_dram_.empty()) next = std::min(next, now + 1);
  if (next != UINT64_MAX) wake_at(next);
}

// The tag lookup of request p from upstream port `port`; true when it was
// taken. A request that cannot be served whole leaves the slice blocked until
// a fill, a write-back or a DRAM acceptance frees something; it counts as one
// reservation fail however often it is retried.
bool L2Slice::try_lookup(tlm::tlm_generic_payload& p, uint32_t need, uint32_t port, uint64_t now, bool& counted_fail) {
  if (lookup(p, need, now) == Outcome::Accepted) {
    counted_fail = false;
    ++*requests_;
    gpu_ext(p).push_route(int16_t(port));
    next_lookup_ = now + p_.access_cycles(popcount(need));
    return true;
  }
  if (!counted_fail) ++*res_fails_;
  counted_fail = true;
  blocked_ = true;
  return false;
}

// The oldest request at the head of an input buffer that arrived before this
// edge (port order on a tie), or null.
const RequestBuffer::Entry* L2Slice::oldest_buffered(uint64_t now, size_t& port) const {
  const RequestBuffer::Entry* h = nullptr;
  for (size_t i = 0; i < in_.size(); ++i)
    if (const RequestBuffer::Entry* e = in_[i].head(edge_value(period_, now)))
      if (!h || e->time < h->time) { h = e; port = i; }
  return h;
}

// Without a ROP stage: the oldest buffered request takes the tag array.
void L2Slice::lookup_oldest(uint64_t now) {
  if (blocked_ || next_lookup_ > now) return;
  size_t port = 0;
  const RequestBuffer::Entry* h = oldest_buffered(now, port);
  if (!h) return;
  bool failed = head_failed_[port];
  if (try_lookup(*h->p, sectors_of(*h->p), uint32_t(port), now, failed)) in_[port].pop(now);
  head_failed_[port] = failed;
}

// The ROP stage's requests whose delay is over join the tag array's queue, and
// its head takes the tag array.
void L2Slice::lookup_past_rop(uint64_t now) {
  while (rop_past_ < rop_.size() && rop_[rop_past_].ready <= now) rop_past_sectors_ += popcount(rop_[rop_past_++].need);
  if (blocked_ || next_lookup_ > now || rop_past_ == 0) return;
  const RopEntry h = rop_.front();
  if (!try_lookup(*h.p, h.need, h.port, now, rop_head_failed_)) return;
  rop_.pop_front();
  --rop_past_;
  rop_past_sectors_ -= popcount(h.need);
}

// One request a cycle, the oldest buffered (port order on a tie), enters the
// ROP stage while the queue past it has room for a whole line's sectors.
void L2Slice::enter_rop(uint64_t now) {
  if (rop_past_sectors_ + p_.sectors_per_line() > p_.input_queue) return;
  size_t port = 0;
  const RequestBuffer::Entry* h = oldest_buffered(now, port);
  if (!h) return;
  rop_.push_back(RopEntry{h->p, now + p_.rop_latency, uint32_t(port), sectors_of(*h->p)});
  in_[port].pop(now);
}

}  // namespace warptlm
