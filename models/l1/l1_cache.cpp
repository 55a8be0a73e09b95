#include "l1/l1_cache.hpp"

#include <algorithm>
#include <string>

namespace warptlm {

namespace {
constexpr uint8_t kLocalSpace = 3;  // warptlm::Space::Local (isa/ir.hpp)

unsigned bits_for(uint64_t max) { return max ? unsigned(64 - __builtin_clzll(max)) : 1; }  // probe width
}  // namespace

uint64_t L1DataCache::model_bytes(const L1Params& p) {
  const uint64_t mshr = sizeof(Mshr) + uint64_t(p.mshr_merges) * 2 * sizeof(void*);  // merged requests, and their responses
  return uint64_t(p.sets) * p.ways * sizeof(Line) + uint64_t(p.mshr_entries) * mshr + (uint64_t(p.miss_queue) + p.mshr_entries) * 64;
}

L1DataCache::L1DataCache(sc_core::sc_module_name name, uint32_t sm_id, const L1Params& p, sc_core::sc_time period,
                         StatsRegistry& stats, PayloadPool& pool)
    : sc_core::sc_module(name),
      upstream("upstream"),
      downstream("downstream"),
      readonly_upstream("readonly_upstream"),
      sm_id_(sm_id),
      p_(p),
      period_(period),
      pool_(pool),
      in_(16),
      down_q_(size_t(p.miss_queue) + p.mshr_entries) {
  p_.check();
  line_bits_ = log2_of(p_.line);
  full_mask_ = p_.full_sector_mask();
  lines_ = ZeroedArray<Line>(size_t(p_.sets) * p_.ways);
  tags_ = ZeroedArray<uint64_t>(lines_.size());
  active_ways_ = p_.ways;
  mshrs_ = ZeroedArray<Mshr>(p_.mshr_entries);
  merged_requests_ = ZeroedArray<tlm::tlm_generic_payload*>(size_t(p_.mshr_entries) * p_.mshr_merges);
  mshr_lines_ = ZeroedArray<uint64_t>(p_.mshr_entries);
  free_mshrs_.reserve(p_.mshr_entries);
  for (uint32_t i = p_.mshr_entries; i-- > 0;) free_mshrs_.push_back(i);
  fills_.reserve(p_.mshr_entries);
  resp_.reserve(size_t(p_.mshr_entries) * p_.mshr_merges + 64);

  const std::string inst = "sm" + std::to_string(sm_id) + ".l1d";
  StatGroup g(stats, inst, "l1d");
  requests_ = &g.counter("requests", "requests from the LD/ST unit (one per line)");
  responses_ = &g.counter("responses", "responses to the LD/ST unit (equals requests when drained)");
  hits_ = &g.counter("hits", "loads and stores that found every requested sector valid");
  misses_ = &g.counter("misses", "loads and stores that lacked a requested sector (merged misses included)");
  merges_ = &g.counter("mshr_merges", "misses merged into an MSHR entry already holding their line");
  reservation_fails_ = &g.counter("reservation_fails", "requests refused (END_REQ withheld) for lack of an MSHR, merge slot, "
                                                     "miss-queue entry or (allocating on miss) a way not awaiting a fill");
  line_alloc_fails_ = &g.counter("line_alloc_fails", "lookups of a missing line refused because every way of its set "
                                                     "awaited a fill (l1d.allocate: on_miss; a request may count more than once)");
  writebacks_ = &g.counter("writebacks", "dirty lines written back below");
  evictions_ = &g.counter("evictions", "valid lines replaced");
  fill_requests_ = &g.counter("fill_requests", "fill reads sent below (one per MSHR entry)");
  fills_done_ = &g.counter("fills", "MSHR entries completed by their fills");
  fill_cycles_ = &g.counter("fill_cycles", "cycles from an MSHR entry's allocation to its completing fill, summed over "
                                           "l1d.fills (their ratio is the L1 miss latency)");
  write_throughs_ = &g.counter("write_throughs", "stores sent below");
  bypasses_ = &g.counter("bypasses", "atomics, and every request of a disabled cache, passed below untouched");
  side_hits_ = &g.counter("side_hits", "redirected loads served by the side store (CIAO: the shared-memory cache)");
  side_misses_ = &g.counter("side_misses", "redirected loads that missed in the L1 and the side store (fill into the side store)");
  migrations_ = &g.counter("migrations", "redirected loads whose line moved from the L1 to the side store");
  no_allocate_misses_ = &g.counter("no_allocate_misses",
                                   "load misses passed below without allocating (a bypass policy's l1_no_allocate requests)");
  {
    StatGroup ro(stats, inst + ".readonly", "l1d.readonly");
    readonly_requests_ = &ro.counter("requests", "instruction- and constant-cache line fills passed below through the miss queue");
    readonly_responses_ = &ro.counter("responses", "those fills answered back to the SM");
  }
  outcome_probe_.declare(inst + ".outcome", 3, {"idle", "hit", "miss", "merge", "reservation_fail", "bypass"});
  mshr_probe_.declare(inst + ".mshrs", bits_for(p_.mshr_entries));

  same_edge_fault_ = test_fault("l1_same_edge");  // test only: take requests and answers on the edge they arrive
  no_defer_fault_ = test_fault("beside_no_defer");  // test only: take the crossbar's answers while the own parts run
  fill_fault_ = test_fault("l1_lose_fill") ? FillFault::Lose : test_fault("l1_duplicate_fill") ? FillFault::Duplicate : FillFault::None;
  upstream.register_nb_transport_fw(this, &L1DataCache::upstream_fw);
  readonly_upstream.register_nb_transport_fw(this, &L1DataCache::readonly_fw);
  downstream.register_nb_transport_bw(this, &L1DataCache::downstream_bw);
  SC_METHOD(tick);
  sensitive << wake_;
  dont_initialize();
}

// ---------------------------------------------------------------- clock

// One clock edge: install returned fills, answer what is due, look up one
// request (the tag array has one port), send one request below.
void L1DataCache::tick() {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  const uint64_t c = cycle_at_or_after(now);
  if (edge(c) != now) {  // woken between edges (a downstream clock domain): act on our next edge
    next_trigger(edge(c) - now);
    return;
  }
  own_edge(c);
  issue_downstream(c);
  const uint64_t next = next_edge(c);
  if (next == UINT64_MAX) next_trigger(wake_);
  else next_trigger(edge(next) - now, wake_);
}

void L1DataCache::edge_own_work(uint64_t c) {
  own_cycle_ = c;
  in_own_part_ = true;
  own_edge(c);
  in_own_part_ = false;
}

uint64_t L1DataCache::clock_edge(uint64_t c) {
  if (own_cycle_ != c) edge_own_work(c);
  own_cycle_ = UINT64_MAX;
  if (!own_fault_.empty()) {
    std::string what;
    what.swap(own_fault_);
    conservation_fault(what);
  }
  issue_downstream(c);
  const uint64_t next = next_edge(c);
  return next == UINT64_MAX ? kNever : next;
}

void L1DataCache::conservation_fault(const std::string& what) {
  if (in_own_part_) {
    if (own_fault_.empty()) own_fault_ = what;
    return;
  }
  conservation_broken(on_run_error, *this, what);
}

// The edge's work up to the miss queue: fills installed, due answers sent up,
// one lookup.
void L1DataCache::own_edge(uint64_t c) {
  take_from_below();
  for (uint32_t m : fills_) fill(m, c);
  fills_.clear();
  respond(c);
  admit_waiting(c);
  take_readonly(c);
  if (lookup_cycle_ != c && !blocked_ && !in_.empty() && in_.front().cycle <= c) {
    Arrival& a = in_.front();
    tlm::tlm_generic_payload* p = a.p;
    const bool ok = access(*p, c);
    // the result shows for this cycle: idle from the next unless it looks up again
    outcome_probe_.pulse(ok ? outcome_ : uint8_t(kReservationFail), edge(c + 1), kIdle);
    if (ok) {
      in_.pop_front();
      lookup_cycle_ = c;
    } else {
      // Reservation fail: the request stays at the head, the input buffer
      // fills behind it and withholds END_REQ, and the request is looked up
      // again once an MSHR or queue entry frees.
      if (!a.failed) ++*reservation_fails_;
      a.failed = true;
      blocked_ = true;
    }
  }
}

// The next edge something can move (UINT64_MAX: none until a request or an answer from below wakes it).
uint64_t L1DataCache::next_edge(uint64_t c) const {
  uint64_t next = UINT64_MAX;
  if (!resp_.empty()) next = std::min(next, std::max(resp_.front().due, c + 1));
  if (!blocked_ && !in_.empty()) next = std::min(next, std::max(in_.front().cycle, c + 1));
  if (!down_q_.empty() && !down_inflight_) next = std::min(next, c + 1);
  if (!fills_.empty() || !from_below_.empty()) next = std::min(next, c + 1);
  // a refused request is admitted once a buffer slot is free: at the next edge only if one
  // frees now; a head blocked by a reservation fail is woken by what unblocks it
  if (waiting_ && in_.size() < RequestBuffer::kDepth) next = std::min(next, c + 1);
  // a read-only fill waits for a miss-queue entry (freed by END_REQ from below, which wakes us)
  if ((!readonly_in_.empty() && queue_room(1)) || (readonly_in_.has_waiting() && readonly_in_.size() < RequestBuffer::kDepth))
    next = std::min(next, c + 1);
  return next;
}

void L1DataCache::respond(uint64_t c) {
  while (!resp_.empty() && resp_.front().due <= c) {
    std::pop_heap(resp_.begin(), resp_.end(), std::greater<Response>());
    tlm::tlm_generic_payload* p = resp_.back().p;
    const bool readonly = resp_.back().readonly;
    resp_.pop_back();
    if (p->get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE) p->set_response_status(tlm::TLM_OK_RESPONSE);
    tlm::tlm_phase ph = tlm::BEGIN_RESP;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    if (readonly) {
      ++*readonly_responses_;
      readonly_upstream->nb_transport_bw(*p, ph, t);  // the SM takes it at once (TLM_COMPLETED)
    } else {
      ++*responses_;
      upstream->nb_transport_bw(*p, ph, t);  // the LD/ST unit takes it at once (TLM_COMPLETED)
    }
  }
}

void L1DataCache::schedule_response(tlm::tlm_generic_payload* p, uint64_t due, bool readonly) {
  resp_.push_back(Response{due, seq_++, p, readonly});
  std::push_heap(resp_.begin(), resp_.end(), std::greater<Response>());
}

// ---------------------------------------------------------------- lookup

bool L1DataCache::passes_below(MemKind kind, uint8_t space, bool nc) const {
  return !p_.enabled || (p_.global_loads_bypass && kind == MemKind::Load && space != kLocalSpace && !nc);
}

bool L1DataCache::access(tlm::tlm_generic_payload& p, uint64_t c) {
  const GpuExtension& e = gpu_ext(p);
  const uint64_t line = p.get_address() >> line_bits_;
  // the request's 32-byte sectors as this cache's sectors (a mask outside the line: the whole line)
  const uint32_t asked = e.sector_mask ? cache_sectors_of(e.sector_mask, p_.sector, full_mask_) : 0;
  const uint32_t want = asked ? asked : full_mask_;
  if (passes_below(e.kind, e.space, e.nc_load)) {  // no cache (or not for this load): below untouched, in order
    if (!queue_room(1)) return false;
    ++*bypasses_;
    outcome_ = kBypass;
    enqueue_forward(p);
    return true;
  }
  if (e.kind == MemKind::Atomic) return atomic(p, line);
  if (e.kind == MemKind::Store || p.is_write()) return store(p, line, want, c);
  if (e.l1_redirect && side_) return side_load(p, line, want, c);
  return load(p, line, want, c);
}

// Load: a hit answers after hit_latency; a miss joins the MSHR of its line or
// allocates one and queues a fill for the missing sectors only.
bool L1DataCache::load(tlm::tlm_generic_payload& p, uint64_t line, uint32_t want, uint64_t c) {
  const GpuExtension& e = gpu_ext(p);
  Line* l = lookup(line);
  const uint32_t need = want & ~(l ? l->valid : 0u);
  if (!need) {
    ++*hits_;
    outcome_ = kHit;
    touch(*l);
    for (L1Observer* o : observers_) o->line_hit(line << line_bits_, e.warp);
    schedule_response(&p, c + p_.hit_latency);
    return true;
  }
  if (e.l1_no_allocate) {  // a bypass policy: the miss goes below as it is, nothing allocated
    if (!queue_room(1)) return false;
    ++*no_allocate_misses_;
    outcome_ = kBypass;
    enqueue_forward(p);
    return true;
  }
  if (!miss(p, line, need, c, false)) return false;
  ++*misses_;
  for (L1Observer* o : observers_) o->line_missed(line << line_bits_, e.warp);
  return true;
}

// A miss joins the MSHR of its line or allocates one (for the L1, or with `side` for the side store) and
// queues a fill for the missing sectors only. False when an MSHR, a merge slot or the miss queue is full.
bool L1DataCache::miss(tlm::tlm_generic_payload& p, uint64_t line, uint32_t need, uint64_t c, bool side) {
  const GpuExtension& e = gpu_ext(p);
  const int m = find_mshr(line);
  if (m >= 0) {
    Mshr& M = mshrs_[size_t(m)];
    if (M.merged >= p_.mshr_merges) return false;  // entry full
    if ((need & ~M.fetch) && !M.queued) {
      // The fills already sent do not bring these sectors: another fill asks
      // for just them (what a sectored cache does) instead of waiting. A
      // fill still in the miss queue takes them along when it goes.
      if (!queue_room(1)) return false;
      queue_fill(uint32_t(m), line);
    }
    M.fetch |= need;
    merged_request(m, M.merged++) = &p;
    if (!p_.fill_is_use && !side)
      if (Line* l = lookup(line)) touch(*l);  // a pending hit is a use of its (reserved) line
    ++*merges_;
    for (L1Observer* o : observers_) o->mshr_merged(line << line_bits_, e.warp);
    outcome_ = kMerge;
  } else {
    if (free_mshrs_.empty() || !queue_room(1)) return false;
    if (p_.allocate == L1Allocate::OnMiss && !side && !reserve_line(line, e)) return false;
    const uint32_t idx = allocate_mshr(line, need, e, c);
    mshrs_[idx].side = side;
    merged_request(idx, mshrs_[idx].merged++) = &p;
    queue_fill(idx, line);
    for (L1Observer* o : observers_) o->mshr_allocated(line << line_bits_, e.warp, c);
    outcome_ = kMiss;
  }
  return true;
}

// A redirected load (l1_side_store.hpp): the L1's tags first, a line held here migrates to the side store;
// then the side store's own tag; a miss fills the side store through an MSHR marked for it.
bool L1DataCache::side_load(tlm::tlm_generic_payload& p, uint64_t line, uint32_t want, uint64_t c) {
  const GpuExtension& e = gpu_ext(p);
  const uint64_t due = c + p_.hit_latency + side_->access_latency();
  if (Line* l = lookup(line)) {
    if (!(want & ~l->valid) && !l->dirty) {  // migrate: L1 -> response queue -> side store, no request below
      drop(*l);
      side_->fill(line << line_bits_, e.warp);
      ++*migrations_;
      outcome_ = kHit;
      schedule_response(&p, due);
      return true;
    }
  }
  if (side_->read(line << line_bits_)) {
    ++*side_hits_;
    outcome_ = kHit;
    schedule_response(&p, due);
    return true;
  }
  if (!miss(p, line, want, c, true)) return false;
  ++*side_misses_;
  for (L1Observer* o : observers_) o->line_missed(line << line_bits_, e.warp);
  return true;
}

// Store: global stores write through (a hit updates the line, a miss leaves
// the cache alone); local stores write back into an allocated, dirty line.
// A write-allocate miss does not fetch: the stored sectors become valid.
bool L1DataCache::store(tlm::tlm_generic_payload& p, uint64_t line, uint32_t want, uint64_t c) {
  const GpuExtension& e = gpu_ext(p);
  const L1WritePolicy w = e.space == kLocalSpace ? p_.local_write : p_.global_write;
  const bool back = w == L1WritePolicy::WriteBackAllocate || w == L1WritePolicy::WriteBackNoAllocate;
  const bool alloc = w == L1WritePolicy::WriteThroughAllocate || w == L1WritePolicy::WriteBackAllocate;
  Line* l = lookup(line);
  if (side_ && e.space != kLocalSpace) {
    if (side_->holds(line << line_bits_)) side_->written(line << line_bits_);
    if (e.l1_redirect && l && !l->dirty) {  // one copy: the redirected warp's line leaves the L1
      drop(*l);
      l = nullptr;
    }
  }
  const bool hit = l && !(want & ~l->valid);  // as for a load: the sectors it writes are valid here
  Line* victim = nullptr;
  size_t below = (!back || (!l && !alloc)) ? 1 : 0;  // the store itself goes below
  if (!l && alloc) {
    victim = victim_for_miss(line);
    if (!victim) return false;  // every way awaits a fill (on_miss): retried when one arrives
    if (victim->present && victim->dirty) ++below;  // its write-back
  }
  if (!queue_room(below)) return false;
  if (hit) ++*hits_; else ++*misses_;
  outcome_ = hit ? kHit : kMiss;
  if (hit)
    for (L1Observer* o : observers_) o->line_hit(line << line_bits_, e.warp);
  if (victim) {
    evict(*victim, e.warp);
    install(*victim, line, 0, 0, e.warp, e.space);
    l = victim;
  }
  if (l && w == L1WritePolicy::WriteEvict) {
    if (hit) invalidate_sectors(*l, want);  // the store goes below; the L1 keeps no copy of what it wrote
  } else if (l) {
    touch(*l);
    if (back || alloc) l->valid |= want;
    if (back) l->dirty |= want;
  }
  if (back && l) {
    schedule_response(&p, c + p_.hit_latency);
  } else {
    ++*write_throughs_;
    enqueue_forward(p);  // answered when the level below acknowledges the write
  }
  return true;
}

// Write-evict: the written sectors leave the line; a line with none left leaves the cache.
void L1DataCache::invalidate_sectors(Line& l, uint32_t sectors) {
  l.valid &= ~sectors;
  l.dirty &= ~sectors;
  if (!l.valid && !l.reserved) drop(l);
}

// Atomics execute below (at L2): the L1 copy is invalidated (written back
// first if dirty) and the request passes through.
bool L1DataCache::atomic(tlm::tlm_generic_payload& p, uint64_t line) {
  Line* l = lookup(line);
  if (!queue_room(1 + (l && l->dirty ? 1 : 0))) return false;
  if (l) {
    if (l->dirty) enqueue_writeback(*l);
    drop(*l);
    l->valid = l->dirty = 0;
  }
  ++*bypasses_;
  outcome_ = kBypass;
  enqueue_forward(p);
  return true;
}

uint32_t L1DataCache::warm(uint64_t addr, uint32_t sector_mask, MemKind kind, uint8_t space, bool nc) {
  if (passes_below(kind, space, nc)) return sector_mask;
  const uint64_t line = addr >> line_bits_;
  const uint32_t want = sector_mask ? cache_sectors_of(sector_mask, p_.sector, full_mask_) : full_mask_;
  Line* l = lookup(line);
  if (kind == MemKind::Atomic) {  // performed below; the L1 copy leaves
    if (l && !l->reserved) drop(*l), l->valid = l->dirty = 0;
    return sector_mask;
  }
  if (kind == MemKind::Store) {
    const L1WritePolicy w = space == kLocalSpace ? p_.local_write : p_.global_write;
    const bool back = w == L1WritePolicy::WriteBackAllocate || w == L1WritePolicy::WriteBackNoAllocate;
    const bool alloc = w == L1WritePolicy::WriteThroughAllocate || w == L1WritePolicy::WriteBackAllocate;
    if (!l && alloc)
      if (Line* v = choose_victim(line)) {
        install(*v, line, 0, 0, 0, space);
        l = v;
      }
    if (l && w == L1WritePolicy::WriteEvict) {
      if (!l->reserved && !(want & ~l->valid)) invalidate_sectors(*l, want);
    } else if (l) {
      touch(*l);
      if (back || alloc) l->valid |= want;
      if (back) l->dirty |= want;
    }
    return back && l ? 0 : sector_mask;
  }
  const uint32_t need = want & ~(l ? l->valid : 0u);
  if (l) {
    if (!l->reserved) l->valid |= need;
    touch(*l);
  } else if (Line* v = choose_victim(line)) {
    install(*v, line, need, 0, 0, space);
  }
  return need ? request_sectors_of(need, p_.sector) & (sector_mask ? sector_mask : ~0u) : 0;
}

// A fill installs its sectors (into the line if its tag is still present,
// else into a victim way) and answers every request merged into the MSHR.
void L1DataCache::fill(uint32_t m, uint64_t c) {
  Mshr& M = mshrs_[m];
  if (!M.busy || M.outstanding == 0) {  // conservation: every fill answers exactly one fill request
    conservation_fault("a fill came back for MSHR " + std::to_string(m) + ", which has no fill outstanding");
    return;
  }
  // Complete only when every fill is back and none is still to be sent.
  if (--M.outstanding > 0 || M.queued) return;
  Line* l = lookup(M.line_addr);
  if (M.side && !l && side_) {  // the extra MSHR field: the data goes into the side store
    side_->fill(M.line_addr << line_bits_, M.warp);
  } else if (l) {  // allocated at the miss (on_miss), or the tag still present: the sectors arrive
    l->valid |= M.fetch;
    l->reserved = false;
    if (p_.fill_is_use) touch(*l);  // (l1d.recency: access: its age stays its last access)
  } else if (Line* v = choose_victim(M.line_addr)) {
    evict(*v, M.warp);
    install(*v, M.line_addr, M.fetch, 0, M.warp, M.space);
    l = v;
  }  // else every way awaits another fill (a reserved line invalidated meanwhile): the data is not kept
  if (l) {
    for (L1Observer* o : observers_) o->line_filled(M.line_addr << line_bits_, M.warp);
  }
  for (uint32_t k = 0; k < M.merged; ++k) schedule_response(merged_request(m, k), c + p_.hit_latency);
  ++*fills_done_;
  *fill_cycles_ += c - M.allocated;
  M.merged = 0;
  M.busy = false;
  mshr_lines_[m] = kNoLine;
  M.requested = 0;
  M.outstanding = 0;
  free_mshrs_.push_back(m);
  mshr_probe_.set(mshrs_in_use());
  blocked_ = false;
}

// ---------------------------------------------------------------- tag array

L1DataCache::Line* L1DataCache::lookup(uint64_t line) {
  const size_t base = size_t(l1_set_index(p_, line << line_bits_)) * p_.ways;
  const uint64_t* tags = &tags_[base];
  const uint64_t tag = tag_of(line);
  for (uint32_t w = 0; w < active_ways_; ++w)
    if (tags[w] == tag) return &lines_[base + w];
  return nullptr;
}

const L1DataCache::Line* L1DataCache::lookup(uint64_t line) const {
  return const_cast<L1DataCache*>(this)->lookup(line);
}

// An invalid way if there is one, else the least recently used (lru) or the
// earliest filled (fifo) line of the set.
L1DataCache::Line* L1DataCache::choose_victim(uint64_t line) {
  Line* set = &lines_[size_t(l1_set_index(p_, line << line_bits_)) * p_.ways];
  Line* best = nullptr;
  for (uint32_t w = 0; w < active_ways_; ++w) {
    Line& l = set[w];
    if (!l.present) return &l;
    if (l.reserved) continue;  // its fill is outstanding
    const uint64_t age = p_.replacement == L1Replacement::Lru ? l.last_use : l.filled;
    if (!best || age < (p_.replacement == L1Replacement::Lru ? best->last_use : best->filled)) best = &l;
  }
  return best;
}

// A miss's victim; nullptr, counted as a line allocation fail, when every way of the set awaits a fill.
L1DataCache::Line* L1DataCache::victim_for_miss(uint64_t line) {
  Line* v = choose_victim(line);
  if (!v) ++*line_alloc_fails_;
  return v;
}

// Allocate on miss (l1d.allocate: on_miss): the missing line takes a way now, its victim leaving at once, and
// the way stays reserved until the fill. False when every way of the set is reserved (a reservation fail).
// A line whose tag is present (a sector miss) is reserved in place.
bool L1DataCache::reserve_line(uint64_t line, const GpuExtension& e) {
  if (Line* l = lookup(line)) {
    l->reserved = true;
    return true;
  }
  Line* v = victim_for_miss(line);
  if (!v) return false;
  if (v->present && v->dirty && !queue_room(2)) return false;  // its write-back and the fill
  evict(*v, e.warp);
  install(*v, line, 0, 0, e.warp, e.space);
  v->reserved = true;
  return true;
}

void L1DataCache::evict(Line& l, uint16_t evicting_warp) {
  if (!l.present) return;
  ++*evictions_;
  if (l.dirty) enqueue_writeback(l);  // may exceed miss_queue by the write-backs of fills (see README)
  drop(l);
  for (L1Observer* o : observers_) o->line_evicted(l.line_addr << line_bits_, l.owner, evicting_warp);
}

void L1DataCache::drop(Line& l) {
  l.present = l.reserved = false;
  tags_[size_t(&l - lines_.data())] = kNoLine;
}

void L1DataCache::install(Line& l, uint64_t line, uint32_t valid, uint32_t dirty, uint16_t owner, uint8_t space) {
  tags_[size_t(&l - lines_.data())] = tag_of(line);
  installed_ = true;
  l.present = true;
  l.reserved = false;
  l.line_addr = line;
  l.valid = valid;
  l.dirty = dirty;
  l.owner = owner;
  l.space = space;
  l.last_use = l.filled = ++use_clock_;
}

bool L1DataCache::holds(uint64_t addr, uint32_t sector_mask) const {
  const Line* l = lookup(addr >> line_bits_);
  return l && l->valid && !(sector_mask & ~l->valid);  // a way reserved for a fill holds no data yet
}

bool L1DataCache::is_dirty(uint64_t addr) const {
  const Line* l = lookup(addr >> line_bits_);
  return l && l->dirty;
}

int L1DataCache::owner_of(uint64_t addr) const {
  const Line* l = lookup(addr >> line_bits_);
  return l ? int(l->owner) : -1;
}

bool L1DataCache::invalidate(uint64_t addr) {
  Line* l = lookup(addr >> line_bits_);
  if (!l) return false;
  if (l->dirty) {
    enqueue_writeback(*l);
    wake_at(cycle_now(period_));
  }
  drop(*l);
  l->valid = l->dirty = 0;
  return true;
}

void L1DataCache::invalidate_all() {
  if (!installed_) return;  // every line is as built or as the last invalidation left it
  for (auto& l : lines_) {
    l.present = l.reserved = false;
    l.valid = l.dirty = 0;
  }
  std::fill(tags_.begin(), tags_.end(), kNoLine);
  installed_ = false;
}

void L1DataCache::carve_out(uint32_t carveout) {
  active_ways_ = p_.carve_out_ways(carveout);
  if (!installed_) return;  // no line to drop
  for (size_t s = 0; s < p_.sets; ++s)
    for (uint32_t w = active_ways_; w < p_.ways; ++w) {
      Line& l = lines_[s * p_.ways + w];
      drop(l);
      l.valid = l.dirty = 0;
    }
}

bool L1DataCache::idle() const {
  return in_.empty() && readonly_in_.empty() && !readonly_in_.has_waiting() && down_q_.empty() && !down_inflight_ && below_ == 0 && resp_.empty() && fills_.empty() && from_below_.empty() &&
         free_mshrs_.size() == p_.mshr_entries;
}

// ---------------------------------------------------------------- MSHRs and the miss queue

int L1DataCache::find_mshr(uint64_t line) const {
  const uint64_t tag = tag_of(line);
  for (size_t i = 0; i < mshr_lines_.size(); ++i)
    if (mshr_lines_[i] == tag) return int(i);
  return -1;
}

uint32_t L1DataCache::allocate_mshr(uint64_t line, uint32_t fetch, const GpuExtension& e, uint64_t c) {
  const uint32_t idx = free_mshrs_.back();
  free_mshrs_.pop_back();
  Mshr& M = mshrs_[idx];
  M.busy = true;
  M.allocated = c;
  M.queued = false;
  M.requested = 0;
  M.outstanding = 0;
  M.line_addr = line;
  mshr_lines_[idx] = tag_of(line);
  M.fetch = fetch;
  M.warp = e.warp;
  M.space = e.space;
  M.block = e.block;
  M.pc = e.pc;
  mshr_probe_.set(mshrs_in_use());
  return idx;
}

void L1DataCache::queue_fill(uint32_t m, uint64_t line) {
  DownReq d;
  d.kind = DownKind::Fill;
  d.mshr = m;
  d.line_addr = line;
  down_q_.push_back(d);
  mshrs_[m].queued = true;
}

void L1DataCache::enqueue_forward(tlm::tlm_generic_payload& p, bool readonly) {
  DownReq d;
  d.kind = DownKind::Forward;
  d.fwd = &p;
  d.readonly = readonly;
  down_q_.push_back(d);
}

// A read-only fill from the SM takes a miss-queue entry once one is free, in
// arrival order, at most one per cycle.
void L1DataCache::take_readonly(uint64_t c) {
  if (tlm::tlm_generic_payload* p = readonly_in_.admit_waiting(c)) send_end_req(readonly_upstream, *p);
  const RequestBuffer::Entry* h = readonly_in_.head(edge_value(period_, c));
  if (!h || !queue_room(1)) return;
  enqueue_forward(*h->p, true);
  readonly_in_.pop(c);
}

void L1DataCache::enqueue_writeback(const Line& l) {
  ++*writebacks_;
  DownReq d;
  d.kind = DownKind::WriteBack;
  d.line_addr = l.line_addr;
  d.mask = l.dirty;
  d.warp = l.owner;
  d.space = l.space;
  down_q_.push_back(d);
}

// The head of the miss queue goes below, one per cycle, and waits for END_REQ
// (the crossbar's back-pressure) before the next one goes.
void L1DataCache::issue_downstream(uint64_t c) {
  if (down_inflight_ || down_q_.empty() || send_cycle_ == c) return;
  const DownReq d = down_q_.front();
  tlm::tlm_generic_payload* p;
  if (d.kind == DownKind::Forward) {
    p = d.fwd;
    gpu_ext(*p).push_route(d.readonly ? kReadOnly : kForwarded);
  } else {
    p = pool_.acquire();
    p->set_address(d.line_addr << line_bits_);
    // The sectors it moves: those a fill fetches (not yet requested) or a write-back writes; its bytes (a whole
    // line where the L1 is not sectored).
    const uint32_t moved = d.kind == DownKind::Fill ? mshrs_[d.mshr].fetch & ~mshrs_[d.mshr].requested : d.mask;
    const uint32_t bytes = uint32_t(__builtin_popcount(moved)) * p_.sector;
    p->set_data_length(bytes);
    p->set_streaming_width(bytes);
    GpuExtension& e = gpu_ext(*p);
    e.sm = uint16_t(sm_id_);
    e.issue_cycle = c;
    if (d.kind == DownKind::Fill) {
      Mshr& M = mshrs_[d.mshr];
      M.queued = false;
      p->set_command(tlm::TLM_READ_COMMAND);
      e.kind = MemKind::Load;
      e.warp = M.warp;
      e.block = M.block;
      e.pc = M.pc;
      e.space = M.space;
      e.sector_mask = request_sectors_of(moved, p_.sector);
      M.requested |= moved;
      ++M.outstanding;
      e.tag = d.mshr;
      e.push_route(int16_t(d.mshr));
      ++*fill_requests_;
    } else {
      p->set_command(tlm::TLM_WRITE_COMMAND);
      e.kind = MemKind::Store;
      e.warp = d.warp;
      e.space = d.space;
      e.sector_mask = request_sectors_of(moved, p_.sector);
      e.push_route(kWriteBack);
    }
  }
  send_cycle_ = c;
  down_inflight_ = p;
  ++below_;
  tlm::tlm_phase ph = tlm::BEGIN_REQ;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum s = downstream->nb_transport_fw(*p, ph, t);
  if (down_inflight_ != p) return;  // END_REQ already came back on the backward path
  if (s == tlm::TLM_UPDATED && ph == tlm::END_REQ) {
    downstream_accepted();
  } else if (s == tlm::TLM_COMPLETED || (s == tlm::TLM_UPDATED && ph == tlm::BEGIN_RESP)) {
    downstream_accepted();
    downstream_response(*p);
  }
  // TLM_ACCEPTED: END_REQ arrives later on the backward path
}

void L1DataCache::downstream_accepted() {
  down_q_.pop_front();
  down_inflight_ = nullptr;
  blocked_ = false;  // a miss-queue entry freed
}

void L1DataCache::downstream_response(tlm::tlm_generic_payload& p) {
  const int16_t code = gpu_ext(p).pop_route();
  --below_;
  if (code == kForwarded || code == kReadOnly) {
    schedule_response(&p, cycle_at_or_after(now_time()), code == kReadOnly);
  } else if (code == kWriteBack) {
    p.release();
  } else {
    unsigned copies = 1;
    if (fill_fault_ != FillFault::None && ++fills_seen_ == 20) copies = fill_fault_ == FillFault::Lose ? 0 : 2;
    for (unsigned i = 0; i < copies; ++i) fills_.push_back(uint32_t(code));
    p.release();
  }
}

// ---------------------------------------------------------------- sockets

tlm::tlm_sync_enum L1DataCache::upstream_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
  if (ph == tlm::END_RESP) return tlm::TLM_COMPLETED;
  if (ph != tlm::BEGIN_REQ) return tlm::TLM_ACCEPTED;
  ++*requests_;
  if (occupancy(cycle_now(period_)) >= RequestBuffer::kDepth) {
    if (waiting_) SC_REPORT_ERROR(name(), "BEGIN_REQ before END_REQ of the previous request");
    waiting_ = &p;  // END_REQ once a slot frees
    return tlm::TLM_ACCEPTED;
  }
  enqueue_request(p, now_time() + t);
  return answer_offer(true, ph);
}

tlm::tlm_sync_enum L1DataCache::readonly_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time&) {
  if (ph == tlm::END_RESP) return tlm::TLM_COMPLETED;
  if (ph != tlm::BEGIN_REQ) return tlm::TLM_ACCEPTED;
  ++*readonly_requests_;
  const bool taken = readonly_in_.offer(p, cycle_now(period_));
  wake_at(next_edge_after_now(period_));
  return answer_offer(taken, ph);
}

// The lookup queue is the L1's two-entry input buffer, with RequestBuffer's rule
// (common/input_register.hpp) kept here because the queue also orders by an
// annotated delay and remembers a refused head: a request that finds room is
// accepted (END_REQ) at once and looked up from the first edge after it arrived;
// a slot frees the cycle after its request is looked up, so the count is the
// same whichever ran first in an instant.
uint32_t L1DataCache::occupancy(uint64_t c) const { return uint32_t(in_.size()) + (lookup_cycle_ == c ? 1 : 0); }

void L1DataCache::enqueue_request(tlm::tlm_generic_payload& p, const sc_core::sc_time& at) {
  const Arrival a{same_edge_fault_ ? cycle_at_or_after(at) : edge_after(period_, at), &p, false};
  in_.push_back(a);
  size_t i = in_.size() - 1;
  const size_t first_movable = in_.front().failed ? 1 : 0;
  while (i > first_movable && in_[i - 1].cycle > a.cycle) {
    in_[i] = in_[i - 1];
    --i;
  }
  in_[i] = a;
  wake_at(a.cycle);
}

// The request that found the buffer full gets its slot (and END_REQ).
void L1DataCache::admit_waiting(uint64_t c) {
  if (!waiting_ || occupancy(c) >= RequestBuffer::kDepth) return;
  tlm::tlm_generic_payload* p = waiting_;
  waiting_ = nullptr;
  enqueue_request(*p, now_time());
  send_end_req(upstream, *p);
}

tlm::tlm_sync_enum L1DataCache::downstream_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time&) {
  if (ph != tlm::END_REQ && ph != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
  if (inputs_deferred() && !no_defer_fault_) {
    if (deferred_.empty()) defer_inputs();
    deferred_.push_back(Input{&p, ph});
    return answer_recorded(ph);
  }
  from_below_.arrive(0, Input{&p, ph});
  wake_at(next_edge_after_now(period_));
  return answer_recorded(ph);
}

void L1DataCache::take_deferred() {
  for (const Input& in : deferred_) from_below_.arrive(0, in);
  if (!deferred_.empty()) wake_at(next_edge_after_now(period_));
  deferred_.clear();
}

// What came from below before this edge: END_REQ frees the miss queue's head;
// a response brings a fill, a forwarded answer or a write-back's end.
void L1DataCache::take_from_below() {
  // (WARPTLM_TEST_FAULT=l1_same_edge: also what arrives on this very edge, whichever process ran first)
  from_below_.take_before(now_value() + (same_edge_fault_ ? 1 : 0), [&](uint32_t, const Input& in) {
    if (in.p == down_inflight_) downstream_accepted();  // END_REQ, or a BEGIN_RESP that implies it
    if (in.phase == tlm::BEGIN_RESP) downstream_response(*in.p);
  });
}

}  // namespace warptlm
