// Crossbar: partition routing, port contention, latency each way,
// back-pressure from a full output FIFO, responses back to the requesting SM
// port, and conservation (every request gets one response). Each test case
// builds one testbench: TrafficInitiators on the SM side, one
// FixedLatencySink per partition.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "interconnect/crossbar.hpp"
#include "interconnect/partition_map.hpp"
#include "tlm_tb.hpp"

using namespace warptlm;
using tb::FixedLatencySink;
using tb::PacedSink;
using tb::Request;
using tb::TrafficInitiator;

namespace {

const sc_core::sc_time kPeriod(1, sc_core::SC_NS);  // one clock for the whole testbench
// A registered input is taken at the receiver's first edge after it arrives
// (docs/determinism.md): the crossbar takes a request sent at cycle c (FIFO entry,
// END_REQ on the backward path) at c + kIn, and a response a partition sends at t at t + kIn.
constexpr uint64_t kIn = 1;

template <class Sink>
struct RigOf {
  StatsRegistry stats;
  IcnParams p;
  std::unique_ptr<Crossbar> xbar;
  std::vector<std::unique_ptr<TrafficInitiator>> sms;
  std::vector<std::unique_ptr<Sink>> parts;

  // One sink per crossbar output port: sink_latency.size() = partitions x subpartitions.
  RigOf(const IcnParams& params, uint32_t n_sms, const std::vector<uint64_t>& sink_latency, uint32_t subpartitions = 1) : p(params) {
    xbar = std::make_unique<Crossbar>("icn", p, uint32_t(sink_latency.size()) / subpartitions, kPeriod, stats, subpartitions);
    for (uint32_t i = 0; i < n_sms; ++i) {
      sms.push_back(std::make_unique<TrafficInitiator>(("sm" + std::to_string(i)).c_str(), kPeriod));
      sms.back()->socket.bind(xbar->sm_socket);
    }
    for (size_t q = 0; q < sink_latency.size(); ++q) {
      parts.push_back(std::make_unique<Sink>(("part" + std::to_string(q)).c_str(), kPeriod, sink_latency[q]));
      xbar->part_socket[q].bind(parts.back()->socket);
    }
  }
  double counter(const std::string& n) const { return stats.values().at(n); }
  uint64_t req_beats(const Request& r) const { return r.write ? (r.bytes + p.port_width - 1) / p.port_width : 1; }
  uint64_t resp_beats(const Request& r) const { return r.write ? 1 : (r.bytes + p.port_width - 1) / p.port_width; }
};
using Rig = RigOf<FixedLatencySink>;

Request read(uint64_t cycle, uint64_t addr, uint32_t bytes = 128) {
  Request r;
  r.cycle = cycle;
  r.addr = addr;
  r.bytes = bytes;
  return r;
}
Request write(uint64_t cycle, uint64_t addr, uint32_t bytes = 128) {
  Request r = read(cycle, addr, bytes);
  r.write = true;
  return r;
}

IcnParams params(uint32_t latency, uint32_t width, uint32_t queue, uint64_t interleave = 256) {
  IcnParams p;
  p.latency = latency;
  p.port_width = width;
  p.queue = queue;
  p.interleave = interleave;
  return p;
}

}  // namespace

TEST_CASE("icn: addresses route to partition (addr div interleave) mod partitions") {
  const IcnParams p = params(2, 32, 8, 256);
  Rig rig(p, 1, {3, 3, 3, 3});
  const std::vector<uint64_t> addrs = {0, 100, 256, 511, 512, 768, 1024, 1280, 4096 + 512 + 5, 1ull << 32, 99999};
  for (size_t k = 0; k < addrs.size(); ++k) rig.sms[0]->add(read(k, addrs[k]));
  sc_core::sc_start();
  std::vector<std::multiset<uint64_t>> expect(4), got(4);
  for (uint64_t a : addrs) expect[(a / p.interleave) % 4].insert(a);
  for (uint32_t q = 0; q < 4; ++q)
    for (auto& s : rig.parts[q]->seen) got[q].insert(s.addr);
  for (uint32_t q = 0; q < 4; ++q) CHECK(got[q] == expect[q]);
  for (uint64_t a : addrs) CHECK(rig.xbar->map().partition_of(a) == (a / p.interleave) % 4);
}

TEST_CASE("icn: with sub-partitions a partition's chunks alternate between its L2 slices") {
  // GTX480 in GPGPU-Sim 4.2: 6 channels of 2 sub-partitions, 256-byte chunks; chunk k is in
  // channel k mod 6 and sub-partition (k / 6) mod 2 (the channel-local address's bit 8).
  const PartitionMap m{256, 6, false, 2};
  CHECK(m.slices() == 12);
  struct Case { uint64_t addr; uint32_t part, slice; uint64_t channel_local, slice_local; };
  const Case cases[] = {
      {0, 0, 0, 0, 0},
      {255, 0, 0, 255, 255},
      {256 * 5 + 3, 5, 10, 3, 3},
      {256 * 6 + 9, 0, 1, 256 + 9, 9},          // the next row of channels: the other sub-partition
      {256 * 7, 1, 3, 256, 0},
      {256 * 12 + 4, 0, 0, 512 + 4, 256 + 4},   // two rows on: sub-partition 0 again, its second chunk
      {256 * 13 + 5, 1, 2, 512 + 5, 256 + 5},
      {256 * 19 + 7, 1, 3, 768 + 7, 256 + 7},
  };
  for (const Case& c : cases) {
    INFO("address " << c.addr);
    CHECK(m.partition_of(c.addr) == c.part);
    CHECK(m.slice_of(c.addr) == c.slice);
    CHECK(m.local_address(c.addr) == c.channel_local);
    CHECK(m.slice_address(c.addr) == c.slice_local);
  }
  // Without sub-partitions a slice is its partition and sees the channel-local address.
  const PartitionMap one{256, 6, false};
  for (uint64_t a = 0; a < 256 * 40; a += 97) {
    CHECK(one.slice_of(a) == one.partition_of(a));
    CHECK(one.slice_address(a) == one.local_address(a));
  }
}

TEST_CASE("icn: with sub-partitions a request goes to the output port of its L2 slice") {
  const IcnParams p = params(4, 32, 8);
  Rig rig(p, 1, {3, 3, 3, 3}, 2);  // 2 partitions x 2 sub-partitions: ports 0,1 (partition 0) and 2,3 (partition 1)
  // chunks 0..7: partition k mod 2, sub-partition (k / 2) mod 2, port = partition x 2 + sub
  const uint32_t port_of_chunk[8] = {0, 2, 1, 3, 0, 2, 1, 3};
  for (uint64_t k = 0; k < 8; ++k) rig.sms[0]->add(read(k, k * 256 + 64));
  sc_core::sc_start();
  for (uint32_t q = 0; q < 4; ++q) {
    INFO("port " << q);
    REQUIRE(rig.parts[q]->seen.size() == 2);
    for (const auto& s : rig.parts[q]->seen) CHECK(port_of_chunk[s.addr / 256] == q);
  }
  CHECK(rig.counter("icn.requests") == 8);
  CHECK(rig.counter("icn.responses") == 8);
}

TEST_CASE("icn: hashed mapping is a permutation per row and spreads a camping stride") {
  const PartitionMap lin{256, 6, false}, hash{256, 6, true};
  std::set<uint32_t> lin_hit, hash_hit;
  for (uint64_t k = 0; k < 64; ++k) {
    const uint64_t a = k * 256 * 6;  // a stride of one row: every address in one partition when linear
    lin_hit.insert(lin.partition_of(a));
    hash_hit.insert(hash.partition_of(a));
    CHECK(hash.local_address(a) == lin.local_address(a));
  }
  CHECK(lin_hit.size() == 1);
  CHECK(hash_hit.size() == 6);
  for (uint64_t row = 0; row < 300; ++row) {  // each row of 6 chunks covers all 6 partitions once
    std::set<uint32_t> seen;
    for (uint64_t c = 0; c < 6; ++c) seen.insert(hash.partition_of((row * 6 + c) * 256 + 17));
    CHECK(seen.size() == 6);
  }
}

TEST_CASE("icn: latency each way plus port occupancy of header and data") {
  const IcnParams p = params(5, 32, 8);
  const uint64_t S = 10;
  Rig rig(p, 1, {S});
  const Request rd = read(0, 0x40, 128), wr = write(100, 0x80, 128);
  rig.sms[0]->add(rd);
  rig.sms[0]->add(wr);
  sc_core::sc_start();
  auto& sink = rig.parts[0]->seen;
  REQUIRE(sink.size() == 2);
  REQUIRE(rig.sms[0]->done.size() == 2);
  // read: taken kIn after it is sent, a 1-beat header forward; the sink's response is
  // taken kIn after it arrives, then 128 bytes of data back
  const uint64_t rd_at_sink = rd.cycle + kIn + rig.req_beats(rd) - 1 + p.latency;
  CHECK(sink[0].cycle == rd_at_sink);
  CHECK(rig.sms[0]->done[0].responded == rd_at_sink + S + kIn + rig.resp_beats(rd) - 1 + p.latency);
  // write: data forward, a 1-beat acknowledgement back (each taken kIn after arrival)
  const uint64_t wr_at_sink = wr.cycle + kIn + rig.req_beats(wr) - 1 + p.latency;
  CHECK(sink[1].cycle == wr_at_sink);
  CHECK(sink[1].write);
  CHECK(rig.sms[0]->done[1].responded == wr_at_sink + S + kIn + rig.resp_beats(wr) - 1 + p.latency);
}

TEST_CASE("icn: two SM ports to one partition serialise on its output port") {
  const IcnParams p = params(4, 32, 8);
  Rig rig(p, 2, {20, 20});
  const Request a = write(0, 0), b = write(0, 512);  // both partition 0 of 2
  REQUIRE(rig.xbar->map().partition_of(a.addr) == rig.xbar->map().partition_of(b.addr));
  rig.sms[0]->add(a);
  rig.sms[1]->add(b);
  sc_core::sc_start();
  auto& sink = rig.parts[0]->seen;
  REQUIRE(sink.size() == 2);
  const uint64_t beats = rig.req_beats(a);
  CHECK(sink[0].cycle == kIn + beats - 1 + p.latency);  // both taken at kIn, port 0 first
  CHECK(sink[1].cycle == sink[0].cycle + beats);  // the second waits for the first's occupancy
  CHECK(rig.counter("icn.queue_wait_cycles") == beats);
  CHECK(rig.counter("icn.to_part0.busy_cycles") == 2 * beats);
  CHECK(rig.counter("icn.to_part1.busy_cycles") == 0);
}

TEST_CASE("icn: two SM ports to different partitions do not wait") {
  const IcnParams p = params(4, 32, 8);
  Rig rig(p, 2, {20, 20});
  const Request a = write(0, 0), b = write(0, 256);
  REQUIRE(rig.xbar->map().partition_of(a.addr) != rig.xbar->map().partition_of(b.addr));
  rig.sms[0]->add(a);
  rig.sms[1]->add(b);
  sc_core::sc_start();
  REQUIRE(rig.parts[0]->seen.size() == 1);
  REQUIRE(rig.parts[1]->seen.size() == 1);
  const uint64_t expect = kIn + rig.req_beats(a) - 1 + p.latency;  // both taken at kIn
  CHECK(rig.parts[0]->seen[0].cycle == expect);
  CHECK(rig.parts[1]->seen[0].cycle == expect);
  CHECK(rig.counter("icn.queue_wait_cycles") == 0);
}

// One SM port sends two 128 B writes to different partitions in consecutive cycles. Without icn.sm_inject the
// port moves its buffer's head each edge, so the second leaves a cycle after the first; with it the port takes
// one flit a cycle (GPGPU-Sim's injection queue), so the second leaves once the first's beats are in.
static void check_sm_injection(bool inject) {
  IcnParams p = params(4, 32, 8);
  p.sm_inject = inject;
  Rig rig(p, 1, {20, 20});
  const Request a = write(0, 0), b = write(1, 256);
  REQUIRE(rig.xbar->map().partition_of(a.addr) != rig.xbar->map().partition_of(b.addr));
  rig.sms[0]->add(a);
  rig.sms[0]->add(b);
  sc_core::sc_start();
  REQUIRE(rig.parts[0]->seen.size() == 1);
  REQUIRE(rig.parts[1]->seen.size() == 1);
  const uint64_t beats = rig.req_beats(a);
  REQUIRE(beats == 4);
  CHECK(rig.parts[0]->seen[0].cycle == kIn + beats - 1 + p.latency);
  const uint64_t b_taken = inject ? kIn + beats : b.cycle + kIn;
  CHECK(rig.parts[1]->seen[0].cycle == b_taken + beats - 1 + p.latency);
}

TEST_CASE("icn: an SM port without injection occupancy sends a request each cycle") {
  check_sm_injection(false);
}

TEST_CASE("icn: with icn.sm_inject an SM port's next request waits for the last one's flits") {
  check_sm_injection(true);
}

TEST_CASE("icn: a full output queue withholds END_REQ until the partition takes its head") {
  const IcnParams p = params(5, 32, 1);  // one entry per output port
  Rig rig(p, 2, {10});
  rig.sms[0]->add(read(0, 0));
  for (int i = 0; i < 3; ++i) rig.sms[1]->add(read(0, 1024));  // three from SM port 1 to the same partition
  sc_core::sc_start();
  const auto& d0 = rig.sms[0]->done[0];
  const auto& d1 = rig.sms[1]->done;
  const uint64_t first_delivery = kIn + 1 - 1 + p.latency;  // taken at kIn; a read header holds the port 1 cycle
  // Each SM port's two-entry input buffer takes two requests at once. At kIn port 0's
  // head takes the output FIFO's one slot; port 1's head waits for it (the port is
  // blocked), so port 1's third request finds the buffer full and gets END_REQ only
  // when the head has left for the FIFO (as the partition took port 0's request) and
  // its slot freed, the cycle after.
  CHECK(d0.accepted == 0);
  REQUIRE(d1.size() == 3);
  CHECK(d1[0].accepted == 0);
  CHECK(d1[1].accepted == 0);
  CHECK(d1[2].accepted == first_delivery + 1);
  auto& sink = rig.parts[0]->seen;
  REQUIRE(sink.size() == 4);
  CHECK(sink[0].cycle == first_delivery);
  CHECK(sink[1].cycle == first_delivery + p.latency);
  CHECK(rig.counter("icn.backpressure_stalls") == 1);
  // port 1's first request waited at the head from kIn to first_delivery; each of the
  // other two becomes the head kIn after the one before it entered the FIFO and waits
  // until the partition takes that one, p.latency after it entered
  CHECK(rig.counter("icn.backpressure_cycles") == (first_delivery - kIn) + 2 * (p.latency - kIn));
}

TEST_CASE("icn: responses return to the SM port that sent the request") {
  const IcnParams p = params(2, 32, 8);
  const uint64_t S0 = 20, S1 = 3;
  Rig rig(p, 3, {S0, S1});  // partition 0 is slow, partition 1 fast: answers cross
  // 32-byte reads: one beat each way. Partition 0: addresses 0, 512; partition 1: 256, 768.
  rig.sms[0]->add(read(0, 0, 32));
  rig.sms[1]->add(read(0, 256, 32));
  rig.sms[1]->add(read(1, 768, 32));
  rig.sms[2]->add(read(10, 768 + 256 * 2 * 4, 32));
  rig.sms[2]->add(read(11, 512, 32));
  sc_core::sc_start();
  auto responded = [&](uint32_t sm, size_t k) { return rig.sms[sm]->done.at(k).responded; };
  const uint64_t L = p.latency;
  // sent, taken kIn later, L to the partition, its latency, taken kIn later, L back.
  // The second request of a port is sent at the first's END_REQ (kIn after it was sent).
  CHECK(responded(0, 0) == 0 + kIn + L + S0 + kIn + L);
  CHECK(responded(1, 0) == 0 + kIn + L + S1 + kIn + L);
  CHECK(responded(1, 1) == 0 + kIn + kIn + L + S1 + kIn + L);
  CHECK(responded(2, 0) == 10 + kIn + L + S1 + kIn + L);
  CHECK(responded(2, 1) == 10 + kIn + kIn + L + S0 + kIn + L);
  CHECK(rig.sms[0]->done.size() == 1);
  CHECK(rig.sms[1]->done.size() == 2);
  CHECK(rig.sms[2]->done.size() == 2);
  CHECK(rig.counter("icn.requests") == 5);
  CHECK(rig.counter("icn.responses") == 5);
}

TEST_CASE("icn: every request gets exactly one response under contention") {
  const IcnParams p = params(3, 32, 2);
  Rig rig(p, 4, {7, 1, 15});
  uint64_t req_beats = 0, resp_beats = 0, n = 0;
  std::vector<uint64_t> per_port_resp(4, 0);
  for (uint32_t s = 0; s < 4; ++s)
    for (uint32_t k = 0; k < 50; ++k) {
      const uint64_t addr = (uint64_t(s) * 7919 + k * 104729) % (1 << 20);
      const uint32_t bytes = 32u << (k % 3);
      Request r = (k + s) % 3 == 0 ? write(k, addr, bytes) : read(k, addr, bytes);
      rig.sms[s]->add(r);
      req_beats += rig.req_beats(r);
      resp_beats += rig.resp_beats(r);
      per_port_resp[s] += rig.resp_beats(r);
      ++n;
    }
  sc_core::sc_start();
  for (auto& sm : rig.sms) {
    REQUIRE(sm->done.size() == sm->requests());
    for (auto& d : sm->done) CHECK(d.responded != UINT64_MAX);
  }
  CHECK(rig.counter("icn.requests") == n);
  CHECK(rig.counter("icn.responses") == n);
  size_t seen = 0;
  for (auto& part : rig.parts) seen += part->seen.size();
  CHECK(seen == n);
  double out_busy = 0, ret_busy = 0;
  for (uint32_t q = 0; q < 3; ++q) out_busy += rig.counter("icn.to_part" + std::to_string(q) + ".busy_cycles");
  for (uint32_t s = 0; s < 4; ++s) {
    const double b = rig.counter("icn.to_sm" + std::to_string(s) + ".busy_cycles");
    CHECK(b == per_port_resp[s]);
    ret_busy += b;
  }
  CHECK(out_busy == req_beats);
  CHECK(ret_busy == resp_beats);
  CHECK(rig.counter("icn.backpressure_stalls") > 0);  // queues of 2 must have filled
}

TEST_CASE("icn: with 40-byte flits a sector reply holds the return port one cycle and a line reply four") {
  // GPGPU-Sim's GTX480 flit (-icnt_flit_size 40): reads of 32 B and 128 B to one partition,
  // both replies back to one SM port; the second reply waits for the first's flits.
  const IcnParams p = params(3, 40, 8);
  const uint64_t S = 10;
  Rig rig(p, 1, {S});
  rig.sms[0]->add(read(0, 0x40, 128));
  rig.sms[0]->add(read(1, 0x80, 32));
  sc_core::sc_start();
  REQUIRE(rig.sms[0]->done.size() == 2);
  CHECK(rig.counter("icn.to_sm0.busy_cycles") == 4 + 1);  // ceil(128 / 40) + ceil(32 / 40)
  const auto& d = rig.sms[0]->done;
  const auto& sink = rig.parts[0]->seen;
  REQUIRE(sink.size() == 2);
  // each reply: taken kIn after the sink answers, its flits, then the switch latency
  CHECK(d[0].responded == sink[0].cycle + S + kIn + 4 - 1 + p.latency);
  const uint64_t second_ready = sink[1].cycle + S + kIn;  // its reply is taken here ...
  const uint64_t port_free = sink[0].cycle + S + kIn + 4;  // ... and leaves once the line's 4 flits are out
  CHECK(d[1].responded == std::max(second_ready, port_free) + 1 - 1 + p.latency);
}

// A 128 B write and a 64 B write from one SM port to one partition. Their acknowledgements hold the SM's
// return port one flit each, or with icn.ack_per_sector one flit per 32-byte sector written (GPGPU-Sim's
// sectored L2 answers each sector request of a write on its own): 4 and 2, the second waiting for the first's.
static void check_write_acks(bool per_sector) {
  IcnParams p = params(3, 40, 8);
  p.ack_per_sector = per_sector;
  const uint64_t S = 10;
  Rig rig(p, 1, {S});
  rig.sms[0]->add(write(0, 0x00, 128));
  rig.sms[0]->add(write(1, 0x80, 64));
  sc_core::sc_start();
  REQUIRE(rig.sms[0]->done.size() == 2);
  const uint64_t first = per_sector ? 4 : 1, second = per_sector ? 2 : 1;
  CHECK(rig.counter("icn.to_sm0.busy_cycles") == first + second);
  const auto& d = rig.sms[0]->done;
  const auto& sink = rig.parts[0]->seen;
  REQUIRE(sink.size() == 2);
  CHECK(d[0].responded == sink[0].cycle + S + kIn + first - 1 + p.latency);
  const uint64_t second_ready = sink[1].cycle + S + kIn;
  const uint64_t port_free = sink[0].cycle + S + kIn + first;
  CHECK(d[1].responded == std::max(second_ready, port_free) + second - 1 + p.latency);
}

TEST_CASE("icn: a write's acknowledgement is one flit") {
  check_write_acks(false);
}

TEST_CASE("icn: with icn.ack_per_sector a write's acknowledgement is a flit per sector it wrote") {
  check_write_acks(true);
}

// ------------------------------------------------------------ input-queued reply network (icn.reply_buffer > 0)

namespace {
const tb::Completed& completion_of(const TrafficInitiator& sm, size_t index) {
  for (const tb::Completed& c : sm.done)
    if (c.index == index) return c;
  FAIL("request " << index << " never completed");
  return sm.done.front();
}
}  // namespace

namespace {
// Two partitions (interleave 256). SM0 reads a line from partition 1, then a line from partition 0;
// SM1 reads a sector from partition 0 just after. Partition 1's line reply takes SM0's port for 4 flits;
// partition 0's line reply for SM0 waits for it. Returns when the sector reply (for SM1) was ready in
// partition 0's reply input, when the line before it started, and when SM1 got the sector.
struct HeadOfLine {
  uint64_t sector_ready = 0, head_start = 0, sector_answered = 0;
  uint32_t latency = 2;
};
HeadOfLine head_of_line_case(uint32_t reply_buffer) {
  const uint64_t S0 = 11, S1 = 10;
  IcnParams p = params(2, 32, 8);
  p.reply_buffer = reply_buffer;
  Rig rig(p, 2, {S0, S1});
  rig.sms[0]->add(read(0, 256, 128));
  rig.sms[0]->add(read(0, 0, 128));
  rig.sms[1]->add(read(1, 512, 32));
  sc_core::sc_start();
  HeadOfLine r;
  r.latency = p.latency;
  REQUIRE(rig.parts[0]->seen.size() == 2);
  REQUIRE(rig.parts[1]->seen.size() == 1);
  const uint64_t L = p.latency;
  const uint64_t line1_ready = rig.parts[1]->seen[0].cycle + S1 + kIn;  // taken into partition 1's reply input
  const uint64_t line0_ready = rig.parts[0]->seen[0].cycle + S0 + kIn;
  r.sector_ready = rig.parts[0]->seen[1].cycle + S0 + kIn;
  REQUIRE(rig.parts[0]->seen[0].addr == 0);  // SM0's line first in partition 0, the sector behind it
  REQUIRE(line0_ready < line1_ready + 4);    // SM0's line finds SM0's port busy ...
  REQUIRE(r.sector_ready < line1_ready + 4);  // ... and the sector arrives behind it before the port frees
  // partition 1's line finds SM0's port free; partition 0's line starts when its 4 flits are out
  CHECK(completion_of(*rig.sms[0], 0).responded == line1_ready + 4 - 1 + L);
  r.head_start = std::max(line0_ready, line1_ready + 4);
  CHECK(completion_of(*rig.sms[0], 1).responded == r.head_start + 4 - 1 + L);
  r.sector_answered = completion_of(*rig.sms[1], 0).responded;
  CHECK(rig.counter("icn.responses") == 3);
  if (reply_buffer)
    CHECK(rig.counter("icn.resp_queue_wait_cycles") == (r.head_start - line0_ready) + (r.head_start + 4 - r.sector_ready));
  return r;
}
}  // namespace

TEST_CASE("icn: an input-queued reply network holds a slice's replies behind a head whose SM port is busy") {
  const HeadOfLine r = head_of_line_case(64);
  CHECK(r.sector_answered == r.head_start + 4 + 1 - 1 + r.latency);  // after the head's last flit, although SM1's port is idle
}

TEST_CASE("icn: with replies queued at their SM port only (reply_buffer 0) a slice's replies do not block each other") {
  const HeadOfLine r = head_of_line_case(0);
  CHECK(r.sector_answered == r.sector_ready + 1 - 1 + r.latency);
}

TEST_CASE("icn: a full reply input withholds END_RESP from its slice until a reply leaves") {
  // Reply buffer of 4 flits: one line reply fills it. The slice's second line reply, offered the next
  // cycle, is refused (flits freed in the cycle of an offer do not count), enters at the next edge once
  // the first has left, and only then does the slice get END_RESP.
  IcnParams p = params(2, 32, 8);
  p.reply_buffer = 4;
  RigOf<PacedSink> rig(p, 1, {5});
  rig.sms[0]->add(read(0, 0, 128));
  rig.sms[0]->add(read(0, 512, 128));
  sc_core::sc_start();
  const auto& a = rig.parts[0]->answers;
  REQUIRE(a.size() == 2);
  REQUIRE(rig.sms[0]->done.size() == 2);
  CHECK(a[0].released == a[0].offered);      // room: END_RESP with the call
  REQUIRE(a[1].offered == a[0].offered + 1);  // the sink answers back to back
  CHECK(a[1].released == a[1].offered + 1);   // refused, admitted at the crossbar's next edge
  CHECK(rig.counter("icn.reply_backpressure_stalls") == 1);
  CHECK(rig.counter("icn.reply_backpressure_cycles") == 1);
  const uint64_t first_start = a[0].offered + kIn;
  CHECK(completion_of(*rig.sms[0], 0).responded == first_start + 4 - 1 + p.latency);
  // the second enters at its admission and starts once the port has moved the first's 4 flits
  CHECK(completion_of(*rig.sms[0], 1).responded == std::max(a[1].released + 1, first_start + 4) + 4 - 1 + p.latency);
}

TEST_CASE("icn: a reply input whose head waits for a busy SM port stays full and withholds END_RESP until the head leaves") {
  // Partition 1 answers SM0 with 512 B (16 flits on SM0's port). Partition 0's reply input holds 4 flits:
  // its first line reply for SM0 fills it and waits for the port; the second, offered the next cycle, is
  // refused and gets END_RESP only in the cycle the first leaves, with the port's 16 flits out.
  IcnParams p = params(2, 32, 8);
  p.reply_buffer = 4;
  RigOf<PacedSink> rig(p, 1, {5, 1});
  rig.sms[0]->add(read(0, 256, 512));  // partition 1
  rig.sms[0]->add(read(0, 0, 128));    // partition 0
  rig.sms[0]->add(read(0, 512, 128));  // partition 0
  sc_core::sc_start();
  REQUIRE(rig.sms[0]->done.size() == 3);
  const auto& a0 = rig.parts[0]->answers;
  const auto& a1 = rig.parts[1]->answers;
  REQUIRE(a0.size() == 2);
  REQUIRE(a1.size() == 1);
  const uint64_t long_start = a1[0].offered + kIn;       // SM0's port is free: it goes at once
  const uint64_t head_ready = a0[0].offered + kIn;
  REQUIRE(head_ready < long_start + 16);                 // the head waits for the port
  REQUIRE(a0[1].offered < long_start + 16);              // the second is offered while the buffer is full
  CHECK(a0[0].released == a0[0].offered);
  const uint64_t head_start = long_start + 16;
  CHECK(a0[1].released == head_start);                   // END_RESP when the head leaves, not before
  CHECK(rig.counter("icn.reply_backpressure_stalls") == 1);
  CHECK(rig.counter("icn.reply_backpressure_cycles") == head_start - a0[1].offered);
  CHECK(completion_of(*rig.sms[0], 1).responded == head_start + 4 - 1 + p.latency);
  CHECK(completion_of(*rig.sms[0], 2).responded == head_start + 4 + 4 - 1 + p.latency);
}

TEST_CASE("icn: an SM port grants the slices waiting for it in round-robin order") {
  // SM0 reads 512 B from partition 2 (16 flits on its port), then a sector each from partitions 0, 1, 0, 1.
  // All four sector replies reach their slices' heads while the long reply holds SM0's port. When it
  // frees, the port grants partition 0, then 1, then 0, then 1: each grant moves the pointer past the
  // winner, where a fixed priority would serve partition 0 twice first.
  IcnParams p = params(2, 32, 8);
  p.reply_buffer = 64;
  Rig rig(p, 1, {4, 4, 1});
  rig.sms[0]->add(read(0, 512, 512));        // partition 2
  rig.sms[0]->add(read(0, 0, 32));           // partition 0
  rig.sms[0]->add(read(0, 256, 32));         // partition 1
  rig.sms[0]->add(read(0, 768, 32));         // partition 0
  rig.sms[0]->add(read(0, 256 + 768, 32));   // partition 1
  sc_core::sc_start();
  REQUIRE(rig.sms[0]->done.size() == 5);
  REQUIRE(rig.parts[2]->seen.size() == 1);
  const uint64_t long_ready = rig.parts[2]->seen[0].cycle + 1 + kIn;
  const uint64_t free_at = long_ready + 16;
  for (uint32_t q = 0; q < 2; ++q)
    for (const auto& s : rig.parts[q]->seen) REQUIRE(s.cycle + 4 + kIn < free_at);  // all waiting when it frees
  CHECK(completion_of(*rig.sms[0], 0).responded == long_ready + 16 - 1 + p.latency);
  for (size_t k = 1; k <= 4; ++k) CHECK(completion_of(*rig.sms[0], k).responded == free_at + (k - 1) + p.latency);
}
