#include "dram/dram_channel.hpp"

#include <algorithm>
#include <string>

namespace warptlm {

namespace {
unsigned bits_for(uint64_t max) { return max ? unsigned(64 - __builtin_clzll(max)) : 1; }  // probe width
}  // namespace

DramChannel::DramChannel(sc_core::sc_module_name name, uint32_t id, const DramParams& p, sc_core::sc_time period,
                         StatsRegistry& stats)
    : sc_core::sc_module(name), socket("socket"), p_(p), fifo_(p.scheduler == DramScheduler::Fifo), id_(id), period_(period) {
  p_.check();
  banks_.resize(p_.banks);
  for (uint32_t b = 0; b < p_.banks; ++b) banks_[b].group = b & (p_.bank_groups - 1);
  groups_.resize(p_.bank_groups);
  for (auto it = p_.address_bits.rbegin(); it != p_.address_bits.rend(); ++it)
    if (*it != '.') bit_field_.push_back(uint8_t(*it == 'S' ? 'C' : *it));
  map_bit_runs();
  // FIFO: dram.queue requests wait for their banks, and each bank holds one more.
  const uint32_t slots = p_.queue + (fifo_ ? p_.banks : 0);
  entries_.resize(slots);
  free_.reserve(slots);
  for (uint32_t i = slots; i-- > 0;) free_.push_back(uint16_t(i));
  order_.reserve(slots);
  busy_banks_.reserve(p_.banks);
  ring_.resize(size_t(slots) + 8);

  const std::string inst = "dram" + std::to_string(id_);
  StatGroup g(stats, inst, "dram");
  requests_ = &g.counter("requests", "requests that reached the channel (BEGIN_REQ)");
  responses_ = &g.counter("responses", "responses the channel sent (BEGIN_RESP)");
  reads_ = &g.counter("reads", "read requests");
  writes_ = &g.counter("writes", "write requests");
  row_hits_ = &g.counter("row_hits", "requests served from the row already open for them (no activate)");
  row_misses_ = &g.counter("row_misses", "requests that needed an activate (bank closed or another row open)");
  latency_ = &g.counter("latency_cycles", "sum over requests of DRAM cycles from BEGIN_REQ to BEGIN_RESP");
  busy_ = &g.counter("busy_cycles", "DRAM cycles the data bus carried data");
  active_ = &g.counter("active_cycles", "DRAM cycles with a request in the channel (taken from its input, not yet answered)");
  activates_ = &g.counter("activates", "activate commands");
  precharges_ = &g.counter("precharges", "precharges, explicit and automatic (closed page)");
  stats.derived(
      inst + ".avg_latency",
      [this] {
        const uint64_t n = responses_->value;
        return n ? double(latency_->value) / double(n) : 0.0;
      },
      "average DRAM cycles from request to response");
  // A busy period open when stats are read (a kernel's end while a write-back is still in the channel) is
  // counted up to now, so each kernel's active cycles hold its own busy cycles.
  stats.before_read([this] {
    catch_up_domain();  // the channels' edges due by now, if they wait for the core clock's
    if (outstanding_) count_active_until(int64_t(cycle()));
  });
  stats.derived(
      inst + ".efficiency",
      [this] { return active_->value ? double(busy_->value) / double(active_->value) : 0.0; },
      "DRAM efficiency: data-bus busy cycles over the cycles with a request in the channel (0..1)");
  stats.derived(inst + ".bw_util", [this] { return bw_util(); },
                "data-bus busy cycles / DRAM cycles since the first request (0..1)");

  queue_probe_.declare(inst + ".queue", bits_for(uint32_t(entries_.size())));
  row_probes_.resize(p_.banks);
  for (uint32_t b = 0; b < p_.banks; ++b)
    row_probes_[b].declare(inst + ".bank" + std::to_string(b) + ".open_row", 20, ProbeView{{}, {{kClosedRow, "closed"}}, false, {}});
  static const std::vector<std::string> kinds = {"idle", "read", "write"};
  req_probe_.declare(inst + ".req", 2, kinds);
  req_addr_probe_.declare(inst + ".req_addr", 64, ProbeView{{}, {}, true, {}});
  req_sm_probe_.declare(inst + ".req_sm", 16);
  resp_probe_.declare(inst + ".resp", 2, kinds);
  resp_latency_probe_.declare(inst + ".resp_latency", 32);

  socket.register_nb_transport_fw(this, &DramChannel::nb_transport_fw);
  drop_write_acks_ = test_fault("dram_drop_write_ack");
  SC_METHOD(tick);
  sensitive << wake_;
  dont_initialize();
}

void DramChannel::end_of_elaboration() {
  in_.resize(socket.size());
  last_port_ = uint32_t(in_.size()) - 1;  // port 0 is served first
}

uint64_t DramChannel::elapsed_cycles() const {
  if (first_request_ < 0) return 0;
  const int64_t now = window_end_ >= 0 ? window_end_ : int64_t(cycle());
  return now > first_request_ ? uint64_t(now - first_request_) : 0;
}

double DramChannel::bw_util() const {
  const uint64_t e = elapsed_cycles();
  if (!e) return 0.0;
  return std::min(1.0, double(busy_->value) / double(e));
}

// Address mapping, high to low bits: row | bank | column. The column bits are
// the low log2(row_bytes) bits, so a streaming access stays in one row for
// row_bytes bytes and then moves to the next bank, whose activate can overlap
// the current row's transfers (GPGPU-Sim's GTX480 mapping has the same shape:
// 11 column bits, 4 bank bits, row above). The _xor variant hashes the bank
// index with the low row bits (permutation interleaving) so that strides of
// banks * row_bytes spread over banks instead of conflicting in one.
// With dram.address_bits, each address bit goes to the field its letter names,
// in order from the least significant bit of each field (GPGPU-Sim's address
// masks); bits above the string are row bits.
// dram.address_bits as runs: each maximal stretch of address bits that go to one field, one after the other.
void DramChannel::map_bit_runs() {
  uint8_t next[3] = {0, 0, 0};
  for (size_t i = 0; i < bit_field_.size(); ++i) {
    const uint8_t f = bit_field_[i] == 'R' ? 0 : bit_field_[i] == 'B' ? 1 : 2;
    if (!runs_.empty() && runs_.back().field == f && runs_.back().from + unsigned(__builtin_popcountll(runs_.back().mask)) == i)
      runs_.back().mask = (runs_.back().mask << 1) | 1;
    else
      runs_.push_back({f, uint8_t(i), next[f], 1});
    ++next[f];
  }
  row_bits_ = next[0];
}

DramChannel::Location DramChannel::locate(uint64_t a) const {
  Location l;
  if (!bit_field_.empty()) {
    uint64_t field[3] = {0, 0, 0};
    for (const BitRun& r : runs_) field[r.field] |= ((a >> r.from) & r.mask) << r.to;
    l.row = field[0] | (bit_field_.size() < 64 ? (a >> bit_field_.size()) << row_bits_ : 0);
    l.bank = uint32_t(field[1]);
    l.column = uint32_t(field[2]);
    return l;
  }
  l.column = uint32_t(a % p_.row_bytes);
  const uint64_t chunk = a / p_.row_bytes;
  l.bank = uint32_t(chunk % p_.banks);
  l.row = chunk / p_.banks;
  if (p_.address_mapping == DramMapping::RowBankColumnXor) l.bank = uint32_t((l.bank ^ l.row) & (p_.banks - 1));
  return l;
}

// ---------------------------------------------------------------- requests

tlm::tlm_sync_enum DramChannel::nb_transport_fw(int port, tlm::tlm_generic_payload& p, tlm::tlm_phase& ph,
                                                sc_core::sc_time&) {
  if (ph == tlm::END_RESP) return tlm::TLM_COMPLETED;
  if (ph != tlm::BEGIN_REQ) return tlm::TLM_ACCEPTED;
  // Taken at the next edge; while the queue is full the column command that frees a slot
  // wakes the channel anyway (either order in this instant gives that same next edge).
  // A request refused by a full buffer is admitted into it at an edge where a slot is free.
  const bool taken = in_[size_t(port)].offer(p, cycle());  // into the port's input buffer
  if (queue_has_room() || !taken) ask_edge(wake_, period_, next_edge_after_now(period_));
  return answer_offer(taken, ph);
}

// The requests that arrived enter the controller's queue at the first edge
// after their arrival, one a cycle, while the queue has a free slot: the oldest
// of the first port, round robin from the one after the port served last, that
// has one (GPGPU-Sim's arbitration between the sub-partitions of a channel).
// The latency counts from the edge of arrival.
// With dram.latency, a request first crosses the delay line: it enters it
// while the queue has a free entry and joins the queue `latency` cycles
// later, once an entry is free then.
void DramChannel::take_requests(int64_t now) {
  for (size_t i = 0; i < in_.size(); ++i)
    if (tlm::tlm_generic_payload* p = in_[i].admit_waiting(uint64_t(now))) send_end_req(socket[int(i)], *p);
  uint32_t port = 0;
  if (queue_has_room())
    if (const RequestBuffer::Entry* h = next_request(now, port)) {
      tlm::tlm_generic_payload* p = h->p;
      const int64_t sent = int64_t(edge_at_or_after(period_, sc_core::sc_time::from_value(h->time)));
      in_[port].pop(uint64_t(now));
      last_port_ = port;
      gpu_ext(*p).push_route(int16_t(port));
      ++*requests_;
      if (outstanding_++ == 0) active_since_ = now;  // the channel becomes active
      if (first_request_ < 0) {
        first_request_ = sent;
        for (Probe& r : row_probes_) r.set(kClosedRow);  // every bank starts precharged
      }
      if (p_.latency) delay_.push_back(Delayed{p, sent, now + int64_t(p_.latency)});
      else admit(*p, sent, now);
    }
  while (!delay_.empty() && delay_.front().ready <= now && queue_has_room()) {
    const Delayed d = delay_.front();
    delay_.pop_front();
    admit(*d.p, d.sent, now);
  }
}

const RequestBuffer::Entry* DramChannel::next_request(int64_t now, uint32_t& port) const {
  const uint32_t n = uint32_t(in_.size());
  for (uint32_t k = 1; k <= n; ++k) {
    const uint32_t i = (last_port_ + k) % n;
    if (const RequestBuffer::Entry* h = in_[i].head(edge_value(period_, uint64_t(now)))) {
      port = i;
      return h;
    }
  }
  return nullptr;
}

void DramChannel::admit(tlm::tlm_generic_payload& p, int64_t sent, int64_t arrive) {
  const uint16_t slot = free_.back();
  free_.pop_back();
  Entry& e = entries_[slot];
  const uint64_t addr = local_address ? local_address(p.get_address()) : p.get_address();
  const Location l = locate(addr);
  e.payload = &p;
  e.arrive = arrive;
  e.sent = sent;
  e.row = l.row;
  e.bank = l.bank;
  e.bytes = p.get_data_length();
  e.write = p.is_write();
  e.activated = false;
  ++*(e.write ? writes_ : reads_);
  if (req_probe_.on()) {
    req_probe_.pulse(e.write ? 2 : 1, edge_time(period_, cycle() + 1));
    req_addr_probe_.set(p.get_address());
    req_sm_probe_.set(gpu_ext(p).sm);
  }
  e.age = admitted_++;
  order_.push_back(slot);
  link_to_bank(slot);
  queue_probe_.set(order_.size());
  quiet_until_ = kNever;  // a new candidate: the scheduler looks again
}

// FIFO: room in the queue of requests waiting for their banks; otherwise a free queue entry.
bool DramChannel::queue_has_room() const {
  if (fifo_) return order_.size() - at_banks_ < p_.queue;
  return !free_.empty();
}

// FIFO (GPGPU-Sim's scheduler_fifo): the oldest request not yet at its bank
// goes there when the bank holds no older one; the requests behind it wait,
// whatever their banks. True when one went.
bool DramChannel::send_oldest_to_bank(int64_t now) {
  if (!oldest_may_go_to_bank(now)) return false;
  ++at_banks_;
  return true;
}

bool DramChannel::oldest_may_go_to_bank(int64_t now) const {
  if (at_banks_ == order_.size()) return false;
  const uint16_t s = order_[at_banks_];
  return entries_[s].arrive <= now && banks_[entries_[s].bank].head == s;  // its bank holds no older one
}

// ---------------------------------------------------------------- the cycle

void DramChannel::tick() {
  const int64_t now = int64_t(cycle());
  const int64_t next = step();
  if (next == kNone) next_trigger(wake_);  // idle: sleep until a request arrives
  else next_trigger(period_ * double(next - now), wake_);
}

uint64_t DramChannel::clock_edge(uint64_t) {
  const int64_t next = step();
  return next == kNone ? ClockedBlock::kNever : uint64_t(next);
}

int64_t DramChannel::step() {
  const int64_t now = int64_t(cycle());
  respond(now);
  take_requests(now);
  if (fifo_ && send_oldest_to_bank(now)) quiet_until_ = kNever;
  int64_t next = order_.empty() ? kNone : schedule(now);
  if (fifo_ && oldest_may_go_to_bank(now)) next = std::min(next, now + 1);
  if (ring_count_) next = std::min(next, ring_[ring_head_].done);
  // The buffer moves on while the queue has room, and a refused request is admitted once a
  // buffer slot is free; while the queue is full the column command that frees it wakes us.
  for (const RequestBuffer& b : in_)
    if ((!b.empty() && queue_has_room()) || (b.has_waiting() && b.size() < RequestBuffer::kDepth)) next = std::min(next, now + 1);
  if (!delay_.empty() && queue_has_room()) next = std::min(next, std::max(delay_.front().ready, now + 1));
  return next == kNone ? kNone : std::max(next, now + 1);
}

// The open busy period (a request in the channel since active_since_) counted up to `now`.
void DramChannel::count_active_until(int64_t now) {
  if (now <= active_since_) return;
  *active_ += uint64_t(now - active_since_);
  active_since_ = now;
}

// The last data beat of a request has crossed the bus: answer it.
void DramChannel::respond(int64_t now) {
  while (ring_count_ && ring_[ring_head_].done <= now) {
    const InFlight f = ring_[ring_head_];
    ring_head_ = (ring_head_ + 1) % ring_.size();
    --ring_count_;
    if (drop_write_acks_ && f.payload->is_write()) {  // test only: a write's answer is lost
      f.payload->release();
      continue;
    }
    ++*responses_;
    *latency_ += uint64_t(f.done - f.sent);
    if (--outstanding_ == 0) count_active_until(now);  // the last request answered: idle
    if (resp_probe_.on()) {
      resp_probe_.pulse(f.payload->is_write() ? 2 : 1, edge_time(period_, uint64_t(now) + 1));
      resp_latency_probe_.set(uint64_t(f.done - f.sent));
    }
    f.payload->set_response_status(tlm::TLM_OK_RESPONSE);
    tlm::tlm_phase ph = tlm::BEGIN_RESP;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    const int port = gpu_ext(*f.payload).pop_route();
    socket[port]->nb_transport_bw(*f.payload, ph, t);  // TLM_COMPLETED, or END_RESP later: nothing waits on it
  }
}

// The memory controller's decision for one cycle. The command bus carries one
// command per cycle. Column commands go first (they move data); then a row
// command (precharge or activate) prepares a bank for its oldest request. With
// dram.dual_bus (HBM) the row command has a bus of its own: it may follow a
// column command in the same cycle.
//  - FR-FCFS: the oldest queued row hit whose column command can issue now;
//    a bank's open row is kept while any queued request hits it.
//  - FIFO (GPGPU-Sim's scheduler_fifo): requests go to their banks in
//    arrival order, one a cycle, a bank holding one at a time; the oldest
//    request at a bank whose row is open takes the column command, and the
//    others' banks are prepared meanwhile.
int64_t DramChannel::schedule(int64_t now) {
  if (last_cmd_ >= now) return now + 1;
  if (now < quiet_until_) return quiet_until_;  // nothing has changed since the search that found it
  int64_t next = kNone;

  // Column command: none before the channel's column spacing allows one (every
  // request has arrived: the queue takes them at the current edge), nor before
  // the data bus takes the earliest read or write: then the queue needs no search.
  const ColumnFloor floor = column_floor();
  const int64_t first_col = std::min(floor.read, floor.write);
  if (first_col > now) {
    next = first_col;
  } else if (fifo_) {
    for (uint32_t i = 0; i < at_banks_; ++i) {  // the requests at their banks, oldest first
      const uint16_t s = order_[i];
      const Entry& e = entries_[s];
      if (banks_[e.bank].open_row != int64_t(e.row)) continue;
      const int64_t r = column_ready(e, floor);
      if (r <= now) {
        issue_column(s, now);
        return row_command_beside(now);
      }
      next = std::min(next, r);
    }
  } else if (const Entry* e = oldest_ready_hit(floor, now, next)) {
    issue_column(uint16_t(e - entries_.data()), now);
    return row_command_beside(now);
  }
  next = prepare_bank(now, next);
  if (last_cmd_ != now) quiet_until_ = next;  // no command issued: nothing will change until one can
  return next;
}

// After a column command: with a row command bus of its own, a bank is prepared in the same cycle.
int64_t DramChannel::row_command_beside(int64_t now) {
  if (p_.dual_bus) prepare_bank(now, kNone);
  return now + 1;
}

// FR-FCFS's column command: the oldest queued row hit whose column command can
// issue now, or null; `next` takes the earliest cycle one of them could. Within
// a bank, requests are queued in age order and their column timing is the
// bank's, so only its oldest read hit and oldest write hit (Bank::hit) can be the earliest.
const DramChannel::Entry* DramChannel::oldest_ready_hit(const ColumnFloor& floor, int64_t now, int64_t& next) const {
  const Entry* best = nullptr;
  for (const Bank& b : banks_)
    for (uint16_t s : b.hit) {
      if (s == kNoSlot) continue;
      const Entry& e = entries_[s];
      const int64_t r = column_ready(e, floor);
      if (r > now) next = std::min(next, r);
      else if (!best || e.age < best->age) best = &e;
    }
  return best;
}

// Row command (precharge or activate) for the oldest request of each bank,
// oldest bank first; returns `next` lowered to the earliest cycle one of them
// could issue, or now + 1 after issuing one.
int64_t DramChannel::prepare_bank(int64_t now, int64_t next) {
  busy_banks_.clear();
  // FIFO: only a request at its bank: older than the oldest still waiting for its bank.
  const uint64_t waiting = fifo_ && at_banks_ < order_.size() ? entries_[order_[at_banks_]].age : UINT64_MAX;
  for (uint32_t k = 0; k < banks_.size(); ++k) {
    const Bank& b = banks_[k];
    // requests arrive in queue order: when the oldest has not arrived, none of the bank's has
    if (b.head == kNoSlot || entries_[b.head].arrive > now) continue;
    if (entries_[b.head].age >= waiting) continue;  // FIFO: not yet at the bank
    if (b.open_row == int64_t(entries_[b.head].row)) continue;  // waits for its column command
    busy_banks_.push_back(k);
  }
  std::sort(busy_banks_.begin(), busy_banks_.end(),
            [&](uint32_t x, uint32_t y) { return entries_[banks_[x].head].age < entries_[banks_[y].head].age; });
  for (uint32_t k : busy_banks_) {
    Bank& b = banks_[k];
    Entry& e = entries_[b.head];
    if (b.open_row >= 0) {
      if (!fifo_ && has_queued_hit(k, now)) continue;  // FR-FCFS: serve the open row's hits first
      const int64_t r = std::max(b.pre_ok, groups_[b.group].pre_ok);
      if (r <= now) {
        precharge(b, now);
        last_cmd_ = now;
        return now + 1;
      }
      next = std::min(next, r);
    } else {
      const int64_t r = std::max(b.act_ok, last_act_ + p_.tRRD);
      if (r <= now) {
        activate(e, now);
        return now + 1;
      }
      next = std::min(next, r);
    }
  }
  return next;
}

// The channel-wide bounds on a column command: the command bus and column
// spacing, and the data bus. Read-to-write: a write's data follows the last read
// data on the bus after tRTW_bubble idle cycles; write-to-read: tWTR after the last
// write data, and read data follows the bus.
DramChannel::ColumnFloor DramChannel::column_floor() const {
  const int64_t cmd = std::max(next_col_, last_cmd_ + 1);
  ColumnFloor f;
  f.read = std::max({cmd, bus_free_ - int64_t(p_.tCL), last_write_end_ + int64_t(p_.tWTR)});
  f.write = std::max({cmd, bus_free_ - int64_t(p_.tWL), last_read_end_ + int64_t(p_.tRTW_bubble) - int64_t(p_.tWL)});
  return f;
}

// Earliest cycle the column command of `e` (its row open) may issue: the
// channel's floor, its bank's and bank group's spacing, its arrival.
int64_t DramChannel::column_ready(const Entry& e, const ColumnFloor& f) const {
  const Bank& b = banks_[e.bank];
  return std::max(std::max(b.col_ok, groups_[b.group].col_ok), std::max(e.arrive, e.write ? f.write : f.read));
}

// A queued request (arrived by now) hits the open row of `bank`.
bool DramChannel::has_queued_hit(uint32_t bank, int64_t now) const {
  for (uint16_t s : banks_[bank].hit)
    if (s != kNoSlot && entries_[s].arrive <= now) return true;
  return false;
}

// The oldest request of the kind from slot `from` on in the bank's queue that hits its open row.
uint16_t DramChannel::next_hit(const Bank& b, uint16_t from, bool write) const {
  for (uint16_t s = from; s != kNoSlot; s = entries_[s].next)
    if (entries_[s].write == write && int64_t(entries_[s].row) == b.open_row) return s;
  return kNoSlot;
}

// A bank's queue: a request joins at its tail and leaves when its column command issues.
void DramChannel::link_to_bank(uint16_t slot) {
  Entry& e = entries_[slot];
  Bank& b = banks_[e.bank];
  e.prev = b.tail;
  e.next = kNoSlot;
  if (int64_t(e.row) == b.open_row && b.hit[e.write] == kNoSlot) b.hit[e.write] = slot;
  if (b.tail != kNoSlot) entries_[b.tail].next = slot; else b.head = slot;
  b.tail = slot;
}

void DramChannel::unlink_from_bank(uint16_t slot) {
  Entry& e = entries_[slot];
  Bank& b = banks_[e.bank];
  if (b.hit[e.write] == slot) b.hit[e.write] = next_hit(b, e.next, e.write);
  if (e.prev != kNoSlot) entries_[e.prev].next = e.next; else b.head = e.next;
  if (e.next != kNoSlot) entries_[e.next].prev = e.prev; else b.tail = e.prev;
  e.prev = e.next = kNoSlot;
}

void DramChannel::issue_column(uint16_t slot, int64_t now) {
  Entry& e = entries_[slot];
  Bank& b = banks_[e.bank];
  const uint32_t bc = p_.burst_cycles();
  const uint32_t bursts = e.bytes ? (e.bytes + p_.burst_bytes() - 1) / p_.burst_bytes() : 1;
  const uint32_t xfer = bursts * bc;
  // A line is several bursts: one column command per burst to the same bank,
  // tCCD (tCCDL within a bank group) and a burst's bus time apart, modelled
  // here as one command of that length.
  const int64_t burst_spacing = int64_t(std::max({p_.tCCD, bc, p_.bank_groups > 1 ? p_.tCCDL : 0u}));
  const int64_t last = now + int64_t(bursts - 1) * burst_spacing;  // the last burst's column command
  const int64_t start = now + int64_t(e.write ? p_.tWL : p_.tCL);
  const int64_t end = start + (last - now) + int64_t(bc);  // the last burst's data
  last_cmd_ = now;
  next_col_ = last + int64_t(std::max(p_.tCCD, bc));
  Group& g = groups_[b.group];
  if (p_.bank_groups > 1) g.col_ok = last + int64_t(p_.tCCDL);
  bus_free_ = end;
  *busy_ += xfer;
  if (e.write) {
    last_write_end_ = end;
    b.pre_ok = std::max(b.pre_ok, end + int64_t(p_.tWR));  // write recovery
  } else {
    last_read_end_ = end;
    b.pre_ok = std::max(b.pre_ok, next_col_);  // read-to-precharge: one burst after the last column command
    g.pre_ok = std::max(g.pre_ok, last + int64_t(p_.tRTPL));
  }
  ++*(e.activated ? row_misses_ : row_hits_);

  // Closed page: auto-precharge (RDA/WRA) unless another queued request wants this row.
  unlink_from_bank(slot);
  if (p_.page_policy == DramPagePolicy::Closed && !has_queued_hit(e.bank, now)) precharge(b, b.pre_ok);

  if (ring_count_ == ring_.size()) {  // never expected: the ring holds more than the queue
    std::vector<InFlight> bigger(ring_.size() * 2);
    for (size_t i = 0; i < ring_count_; ++i) bigger[i] = ring_[(ring_head_ + i) % ring_.size()];
    ring_.swap(bigger);
    ring_head_ = 0;
  }
  // Data leaves the bus in column-command order, so the ring stays sorted by `done`.
  ring_[(ring_head_ + ring_count_) % ring_.size()] = InFlight{e.payload, end, e.sent};
  ++ring_count_;

  e.payload = nullptr;
  order_.erase(std::find(order_.begin(), order_.end(), slot));
  if (fifo_) --at_banks_;  // only a request at its bank takes a column command
  queue_probe_.set(order_.size());
  free_.push_back(slot);
}

// Close the open row at cycle `at` (an explicit command now, or the automatic
// precharge of a closed-page access once tRAS/write recovery allow it).
void DramChannel::precharge(Bank& b, int64_t at) {
  b.open_row = -1;
  b.hit[0] = b.hit[1] = kNoSlot;
  Probe& row = row_probes_[size_t(&b - banks_.data())];
  if (at > int64_t(cycle())) row.set_at(period_ * double(at), kClosedRow);  // closed page: precharges when allowed
  else row.set(kClosedRow);
  b.act_ok = std::max(b.act_ok, at + int64_t(p_.tRP));
  ++*precharges_;
}

void DramChannel::activate(Entry& e, int64_t now) {
  Bank& b = banks_[e.bank];
  b.open_row = int64_t(e.row);
  b.hit[0] = next_hit(b, b.head, false);
  b.hit[1] = next_hit(b, b.head, true);
  row_probes_[e.bank].set(e.row & kClosedRow);
  b.col_ok = now + p_.tRCD;
  b.pre_ok = now + p_.tRAS;
  b.act_ok = now + p_.tRC;
  last_act_ = now;
  last_cmd_ = now;
  e.activated = true;
  ++*activates_;
}

}  // namespace warptlm
