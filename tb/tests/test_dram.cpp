// DRAM channel: timing rules through the TLM socket, with TrafficInitiator
// standing in for the L2 slice. Expected cycles are derived from the
// configured parameters. One testbench per test case (one elaboration per process).
#include <catch2/catch.hpp>

#include <systemc>

#include "common/config.hpp"
#include "common/errors.hpp"
#include "common/stats.hpp"
#include "dram/dram_channel.hpp"
#include "tests/tlm_tb.hpp"

using namespace warptlm;

namespace {

// GTX480 GDDR5 channel (CIAO Table I, GPGPU-Sim 3.x timing).
DramParams gtx480() { return DramParams{}; }

// Channel-local address of (bank, row, column) under the row:bank:column mapping.
uint64_t addr_of(const DramParams& p, uint64_t bank, uint64_t row, uint64_t col = 0) {
  return (row * p.banks + bank) * p.row_bytes + col;
}
// A registered input is taken at the receiver's first edge after it arrives
// (docs/determinism.md): a request sent at cycle c is taken into the queue,
// and its END_REQ sent on the backward path, at c + kIn.
constexpr uint64_t kIn = 1;

// Data-bus cycles of a whole line: bytes / (bytes per transfer x transfers per clock).
uint64_t line_cycles(const DramParams& p, uint64_t bytes = 128) { return bytes / (uint64_t(p.bus_width) * p.data_rate); }

tb::Request rd(uint64_t cycle, uint64_t a, uint32_t bytes = 128) {
  tb::Request r;
  r.cycle = cycle;
  r.addr = a;
  r.bytes = bytes;
  return r;
}
tb::Request wr(uint64_t cycle, uint64_t a, uint32_t bytes = 128) {
  tb::Request r = rd(cycle, a, bytes);
  r.write = true;
  r.kind = MemKind::Store;
  return r;
}

struct Bench {
  StatsRegistry stats;
  sc_core::sc_time period{1, sc_core::SC_NS};
  tb::TrafficInitiator l2;
  DramChannel dram;
  explicit Bench(const DramParams& p) : l2("l2", period), dram("dram0", 0, p, period, stats) {
    l2.socket.bind(dram.socket);
  }
  uint64_t latency(size_t i) const { return l2.done.at(i).responded - l2.done.at(i).sent; }
  double stat(const std::string& n) const {
    auto v = stats.values();
    auto it = v.find(n);
    return it == v.end() ? -1.0 : it->second;
  }
  // Every request answered exactly once, in the counters and at the initiator.
  void check_conservation() const {
    const double n = double(l2.requests());
    CHECK(l2.done.size() == l2.requests());
    for (const auto& c : l2.done) CHECK(c.responded != UINT64_MAX);
    CHECK(stat("dram0.requests") == n);
    CHECK(stat("dram0.responses") == n);
    CHECK(stat("dram.requests") == n);
    CHECK(stat("dram.responses") == n);
    CHECK(stat("dram0.row_hits") + stat("dram0.row_misses") == n);
    CHECK(stat("dram0.reads") + stat("dram0.writes") == n);
  }
};

}  // namespace

TEST_CASE("dram: a row hit takes tCL plus the transfer after a row miss took tRCD plus tCL plus the transfer") {
  const DramParams p = gtx480();
  Bench b(p);
  b.l2.add(rd(0, addr_of(p, 3, 7, 0)));      // bank closed: activate, then read
  b.l2.add(rd(100, addr_of(p, 3, 7, 128)));  // same row, open: read only
  b.l2.add(rd(200, addr_of(p, 3, 7, 256), 32));  // a 32-byte sector still moves one whole burst
  b.l2.add(wr(300, addr_of(p, 3, 7, 384)));  // write hit: write latency instead of CAS latency
  sc_core::sc_start();
  REQUIRE(b.l2.done.size() == 4);
  // Each request is taken kIn after it is sent; the bank timing runs from there.
  CHECK(b.latency(0) == kIn + p.tRCD + p.tCL + line_cycles(p));
  CHECK(b.latency(1) == kIn + p.tCL + line_cycles(p));
  CHECK(b.latency(2) == kIn + p.tCL + p.burst_length / p.data_rate);
  CHECK(b.latency(3) == kIn + p.tWL + line_cycles(p));
  CHECK(b.stat("dram0.reads") == 3);
  CHECK(b.stat("dram0.writes") == 1);
  CHECK(b.stat("dram.reads") == 3);
  CHECK(b.stat("dram.writes") == 1);
  CHECK(b.stat("dram0.row_misses") == 1);
  CHECK(b.stat("dram0.row_hits") == 3);
  CHECK(b.stat("dram.row_hits") == 3);
  CHECK(b.stat("dram0.activates") == 1);
  const double total = double(b.latency(0) + b.latency(1) + b.latency(2) + b.latency(3));
  CHECK(b.stat("dram0.latency_cycles") == total);
  CHECK(b.stat("dram0.avg_latency") == Approx(total / 4));
  CHECK(b.dram.busy_cycles() == 3 * line_cycles(p) + p.burst_length / p.data_rate);
  // One request at a time: the channel is active from taking each (kIn after it is sent) to its answer,
  // and its efficiency is the data bus's share of those cycles.
  const double active = total - 4 * kIn;
  CHECK(b.stat("dram0.active_cycles") == active);
  CHECK(b.stat("dram0.efficiency") == Approx(double(b.dram.busy_cycles()) / active));
  CHECK(b.stat("dram0.efficiency") < 0.5);  // mostly waiting for activates and CAS latency
  b.check_conservation();
}

TEST_CASE("dram: a row conflict adds tRP and first waits for tRAS since the activate") {
  const DramParams p = gtx480();
  Bench b(p);
  b.l2.add(rd(0, addr_of(p, 5, 1)));    // taken at kIn: opens row 1 at cycle kIn
  b.l2.add(rd(1, addr_of(p, 5, 2)));    // sent at kIn (its END_REQ), conflict at once: precharge not before tRAS, activate not before tRC
  b.l2.add(rd(300, addr_of(p, 5, 1)));  // conflict long after: precharge at once
  sc_core::sc_start();
  REQUIRE(b.l2.done.size() == 3);
  // The second activate counts from the first one, at kIn.
  const uint64_t act2 = kIn + std::max<uint64_t>(p.tRAS + p.tRP, p.tRC);
  CHECK(b.l2.done[1].responded == act2 + p.tRCD + p.tCL + line_cycles(p));
  CHECK(b.latency(2) == kIn + p.tRP + p.tRCD + p.tCL + line_cycles(p));
  CHECK(b.stat("dram0.row_misses") == 3);
  CHECK(b.stat("dram0.row_hits") == 0);
  CHECK(b.stat("dram0.activates") == 3);
  CHECK(b.stat("dram0.precharges") == 2);
  b.check_conservation();
}

TEST_CASE("dram: activates of different banks are tRRD apart") {
  const DramParams p = gtx480();
  Bench b(p);
  b.l2.add(rd(0, addr_of(p, 0, 0)));
  b.l2.add(rd(0, addr_of(p, 1, 0)));
  sc_core::sc_start();
  REQUIRE(b.l2.done.size() == 2);
  CHECK(b.l2.done[0].responded == kIn + p.tRCD + p.tCL + line_cycles(p));
  // Both are accepted into the input buffer at 0 and taken at kIn; bank 0 activates at
  // kIn, bank 1 tRRD later; its data also has to follow bank 0's on the bus.
  CHECK(b.l2.done[1].sent == 0);
  const uint64_t want = std::max<uint64_t>(kIn + p.tRRD + p.tRCD + p.tCL, b.l2.done[0].responded) + line_cycles(p);
  CHECK(b.l2.done[1].responded == want);
  b.check_conservation();
}

TEST_CASE("dram: a read after a write waits tWTR after the write data") {
  const DramParams p = gtx480();
  Bench b(p);
  b.l2.add(wr(0, addr_of(p, 2, 4, 0)));
  b.l2.add(rd(0, addr_of(p, 2, 4, 128)));
  sc_core::sc_start();
  REQUIRE(b.l2.done.size() == 2);
  const uint64_t write_end = kIn + p.tRCD + p.tWL + line_cycles(p);  // taken and activated at kIn
  CHECK(b.l2.done[0].responded == write_end);
  CHECK(b.l2.done[1].responded == write_end + p.tWTR + p.tCL + line_cycles(p));
  CHECK(b.stat("dram0.writes") == 1);
  CHECK(b.stat("dram0.reads") == 1);
  CHECK(b.stat("dram0.row_hits") == 1);
  b.check_conservation();
}

// A read and then a write to the same open row: the write's data starts `bubble` cycles after the read's
// last data (GPGPU-Sim's read-to-write turnaround, tRTW = CL + BL/ratio + 2 - WL from the read command,
// leaves 2); with no bubble it follows at once.
static void check_read_to_write_turnaround(uint32_t bubble) {
  DramParams p = gtx480();
  p.tRTW_bubble = bubble;
  Bench b(p);
  b.l2.add(rd(0, addr_of(p, 3, 5, 0)));
  b.l2.add(wr(0, addr_of(p, 3, 5, 128)));
  sc_core::sc_start();
  REQUIRE(b.l2.done.size() == 2);
  const uint64_t read_end = kIn + p.tRCD + p.tCL + line_cycles(p);  // taken and activated at kIn
  CHECK(b.l2.done[0].responded == read_end);
  CHECK(b.l2.done[1].responded == read_end + bubble + line_cycles(p));
  CHECK(b.stat("dram0.row_hits") == 1);
  b.check_conservation();
}

TEST_CASE("dram: a write after a read starts its data tRTW_bubble cycles after the read data") {
  check_read_to_write_turnaround(2);
}

TEST_CASE("dram: with no read-to-write bubble a write's data follows the read data at once") {
  check_read_to_write_turnaround(0);
}

// Bank 0's column command and bank 1's activate both become possible in the same cycle: read A opens bank 0 at
// kIn and may take its column command at kIn + tRCD; read B, sent so that it is taken in that cycle, wants its
// activate then. One command bus: the column command goes first and B's activate waits a cycle. Two (HBM's row
// and column buses, GPGPU-Sim's -dram_dual_bus_interface): both issue in that cycle.
static void check_row_command_beside_column(bool dual_bus) {
  DramParams p = gtx480();
  p.dual_bus = dual_bus;
  Bench b(p);
  const uint64_t col_a = kIn + p.tRCD;
  REQUIRE(col_a - kIn >= p.tRRD);  // B's activate is not held by tRRD
  b.l2.add(rd(0, addr_of(p, 0, 3)));
  b.l2.add(rd(col_a - kIn, addr_of(p, 1, 5)));  // taken at col_a
  sc_core::sc_start();
  REQUIRE(b.l2.done.size() == 2);
  CHECK(b.l2.done[0].responded == col_a + p.tCL + line_cycles(p));
  const uint64_t act_b = dual_bus ? col_a : col_a + 1;
  CHECK(b.l2.done[1].responded == act_b + p.tRCD + p.tCL + line_cycles(p));
  CHECK(b.stat("dram0.activates") == 2);
  b.check_conservation();
}

TEST_CASE("dram: with one command bus an activate waits for the cycle after a column command") {
  check_row_command_beside_column(false);
}

TEST_CASE("dram: with dual command buses an activate issues in the cycle of a column command") {
  check_row_command_beside_column(true);
}

TEST_CASE("dram: FR-FCFS serves a younger row hit before an older row miss") {
  DramParams p = gtx480();
  p.scheduler = DramScheduler::FrFcfs;
  Bench b(p);
  // Both later requests are accepted into the input buffer at t1 and reach the queue
  // one a cycle (the channel takes one request a cycle), the older kIn later and the
  // younger the cycle after, while the older miss cannot start yet: tRAS since row 10's
  // activate (at kIn) still forbids its precharge. They are sent after the first column
  // command (kIn + tRCD) so that the younger hit finds the bank and the bus free.
  const uint64_t t1 = 20;
  REQUIRE(t1 + kIn >= kIn + p.tRCD + line_cycles(p));  // taken a column gap after the first column command
  REQUIRE(t1 + kIn < kIn + p.tRAS);
  b.l2.add(rd(0, addr_of(p, 0, 10)));         // opens row 10 at kIn
  b.l2.add(rd(t1, addr_of(p, 0, 11)));        // older: conflict, held by tRAS
  b.l2.add(rd(t1, addr_of(p, 0, 10, 128)));   // younger: hit
  sc_core::sc_start();
  REQUIRE(b.l2.done.size() == 3);
  CHECK(b.l2.done[1].sent == t1);
  CHECK(b.l2.done[2].sent == b.l2.done[1].sent);
  CHECK(b.latency(2) == kIn + 1 + p.tCL + line_cycles(p));
  CHECK(b.l2.done[2].responded < b.l2.done[1].responded);
  CHECK(b.latency(1) > p.tRP + p.tRCD + p.tCL + line_cycles(p));  // it also waited for the hit
  CHECK(b.stat("dram0.row_hits") == 1);
  CHECK(b.stat("dram0.row_misses") == 2);
  b.check_conservation();
}

TEST_CASE("dram: FIFO serves an older row miss before a younger row hit") {
  DramParams p = gtx480();
  p.scheduler = DramScheduler::Fifo;
  Bench b(p);
  b.l2.add(rd(0, addr_of(p, 0, 10)));
  b.l2.add(rd(100, addr_of(p, 0, 11)));
  b.l2.add(rd(100, addr_of(p, 0, 10, 128)));
  sc_core::sc_start();
  REQUIRE(b.l2.done.size() == 3);
  CHECK(b.latency(1) == kIn + p.tRP + p.tRCD + p.tCL + line_cycles(p));
  CHECK(b.l2.done[1].responded < b.l2.done[2].responded);
  // The younger request finds row 11 open by then: a miss of its own.
  CHECK(b.latency(2) >= p.tRP + p.tRCD + p.tCL + line_cycles(p));
  CHECK(b.stat("dram0.row_misses") == 3);
  b.check_conservation();
}

TEST_CASE("dram: FIFO sends requests to their banks in order and a younger row hit on another bank reads first") {
  DramParams p = gtx480();
  p.scheduler = DramScheduler::Fifo;
  Bench b(p);
  b.l2.add(rd(0, addr_of(p, 1, 10)));         // opens row 10 of bank 1
  b.l2.add(rd(100, addr_of(p, 0, 5)));        // older: bank 0 is precharged, an activate first
  b.l2.add(rd(100, addr_of(p, 1, 10, 128)));  // younger: a hit on bank 1's open row
  sc_core::sc_start();
  REQUIRE(b.l2.done.size() == 3);
  // Each goes to its bank (a cycle apart: one a cycle leaves the input buffer); the banks work
  // independently, so the hit's column command need not wait for the older request's activate.
  CHECK(b.latency(1) == kIn + p.tRCD + p.tCL + line_cycles(p));
  CHECK(b.latency(2) == 2 * kIn + p.tCL + line_cycles(p));
  CHECK(b.l2.done[2].responded < b.l2.done[1].responded);
  CHECK(b.stat("dram0.row_hits") == 1);
  b.check_conservation();
}

TEST_CASE("dram: FIFO holds a request behind an older one whose bank is busy even when its own bank is free") {
  DramParams p = gtx480();
  p.scheduler = DramScheduler::Fifo;
  Bench b(p);
  b.l2.add(rd(0, addr_of(p, 0, 10)));  // goes to bank 0 and opens row 10
  b.l2.add(rd(0, addr_of(p, 0, 11)));  // waits: bank 0 holds the first until its column command
  b.l2.add(rd(1, addr_of(p, 1, 20)));  // waits behind it, though bank 1 is free
  sc_core::sc_start();
  REQUIRE(b.l2.done.size() == 3);
  CHECK(b.latency(0) == kIn + p.tRCD + p.tCL + line_cycles(p));
  // The first's column command (kIn + tRCD) frees bank 0; the second goes to it the next edge and the
  // third to bank 1 the edge after; only then is bank 1 activated.
  const uint64_t first_col = kIn + p.tRCD;
  CHECK(b.l2.done[2].responded == first_col + 2 + p.tRCD + p.tCL + line_cycles(p));
  // The second had to close row 10 first.
  CHECK(b.l2.done[1].responded > b.l2.done[2].responded);
  CHECK(b.stat("dram0.precharges") == 1);
  b.check_conservation();
}

TEST_CASE("dram: FIFO's queue counts only the requests still waiting for their banks") {
  DramParams p = gtx480();
  p.scheduler = DramScheduler::Fifo;
  p.queue = 2;  // GPGPU-Sim's FIFO queue
  Bench b(p);
  for (uint64_t k = 0; k < 6; ++k) b.l2.add(rd(0, addr_of(p, k, 1)));  // six banks
  sc_core::sc_start();
  REQUIRE(b.l2.done.size() == 6);
  // Each leaves the queue for its free bank the edge it is taken, so the queue never fills: the sixth
  // is accepted as the input buffer frees, before any column command (the first is at kIn + tRCD).
  CHECK(b.l2.done[5].accepted == 5 * kIn);
  CHECK(b.l2.done[5].accepted < kIn + p.tRCD);
  // Six row misses, the banks opened in parallel: the last answer within a tRRD per activate and a
  // cycle per command that took the command bus first.
  CHECK(b.l2.done[5].responded <= kIn + 5 * p.tRRD + 5 + p.tRCD + p.tCL + line_cycles(p));
  CHECK(b.stat("dram0.activates") == 6);
  b.check_conservation();
}

TEST_CASE("dram: a full queue withholds END_REQ until a column command frees a slot") {
  DramParams p = gtx480();
  p.queue = 4;
  Bench b(p);
  for (int i = 0; i < 8; ++i) b.l2.add(rd(0, addr_of(p, 0, 0, 128 * i)));  // one row: one miss, then hits
  sc_core::sc_start();
  REQUIRE(b.l2.done.size() == 8);
  // The two-entry input buffer accepts two at once; the channel takes one a cycle into
  // the queue, at kIn and 2 * kIn, and each slot frees the cycle after: the 3rd is
  // accepted at 2 * kIn, the 4th (sent then, finding the buffer full) at 3 * kIn.
  CHECK(b.l2.done[0].accepted == 0);
  CHECK(b.l2.done[1].accepted == 0);
  CHECK(b.l2.done[2].accepted == 2 * kIn);
  CHECK(b.l2.done[3].accepted == 3 * kIn);
  // The 3rd and 4th fill the queue (4 entries) at 4 * kIn; the 5th and 6th then wait in
  // the buffer, accepted one a cycle as its slots free.
  CHECK(b.l2.done[4].sent == 3 * kIn);
  CHECK(b.l2.done[4].accepted == 4 * kIn);
  CHECK(b.l2.done[5].accepted == 5 * kIn);
  // The 7th finds the buffer full: END_REQ is withheld until the first column command
  // (kIn + tRCD: the activate was at kIn) frees a queue entry, the 5th moves into it at
  // the next edge, and its buffer slot frees the edge after that; the 8th waits likewise
  // for the next column command, one column gap later.
  const uint64_t first_col = kIn + p.tRCD;
  const uint64_t col_gap = std::max<uint64_t>(line_cycles(p), uint64_t(p.tCCD) * (128 / (p.burst_length * p.bus_width)));
  CHECK(b.l2.done[6].sent == 5 * kIn);
  CHECK(b.l2.done[6].accepted == first_col + 2 * kIn);
  CHECK(b.l2.done[7].accepted == first_col + col_gap + 2 * kIn);
  // Latency counts from BEGIN_REQ (the 5th at 3 * kIn), back-pressure included; the 5th
  // column command is 4 column gaps after the first.
  CHECK(b.latency(4) == first_col + 4 * col_gap + p.tCL + line_cycles(p) - 3 * kIn);
  CHECK(b.stat("dram0.row_misses") == 1);
  CHECK(b.stat("dram0.row_hits") == 7);
  b.check_conservation();
}

TEST_CASE("dram: dram.latency delays each request on its way to the queue without taking a queue entry") {
  DramParams p = gtx480();
  p.latency = 50;
  p.queue = 1;
  Bench b(p);
  b.l2.add(rd(0, addr_of(p, 3, 7, 0)));
  b.l2.add(rd(1, addr_of(p, 3, 7, 128)));  // same row: a hit once it reaches the queue
  sc_core::sc_start();
  REQUIRE(b.l2.done.size() == 2);
  // Both enter the delay line at once although the queue has one entry: requests on
  // their way do not hold it.
  CHECK(b.l2.done[0].accepted == 0);
  CHECK(b.l2.done[1].accepted == 1);
  // The first reaches the queue latency cycles after it was taken, then pays a row miss.
  CHECK(b.latency(0) == kIn + p.latency + p.tRCD + p.tCL + line_cycles(p));
  // The second reached the end of the line one cycle later but waits there for the one
  // queue entry, which its predecessor's column command frees; then it is a row hit.
  const uint64_t first_col = kIn + p.latency + p.tRCD;
  CHECK(b.l2.done[1].responded > first_col + p.tCL + line_cycles(p));
  CHECK(b.stat("dram0.row_hits") == 1);
  b.check_conservation();
}

TEST_CASE("dram: streaming reads of consecutive lines keep the data bus at least 90 percent busy") {
  const DramParams p = gtx480();
  Bench b(p);
  const size_t n = 2 * p.banks * p.row_bytes / 128;  // wraps to row 1 of every bank: row conflicts included
  for (size_t i = 0; i < n; ++i) b.l2.add(rd(0, 128 * i));
  sc_core::sc_start();
  REQUIRE(b.l2.done.size() == n);
  CHECK(b.dram.busy_cycles() == n * line_cycles(p));
  // The channel's window opens at the first request's BEGIN_REQ.
  CHECK(b.dram.elapsed_cycles() == b.l2.done.back().responded - b.l2.done.front().sent);
  CHECK(b.dram.bw_util() >= 0.9);
  CHECK(b.stat("dram0.bw_util") == Approx(b.dram.bw_util()));
  // every request arrived at once: active from the first take to the last answer, and efficient
  CHECK(b.stat("dram0.active_cycles") == double(b.dram.elapsed_cycles() - kIn));
  CHECK(b.stat("dram0.efficiency") >= 0.9);
  // After warm-up (the first row's activate), the bus should hardly idle.
  const size_t warm = 32;
  const double window = double(b.l2.done.back().responded - b.l2.done[warm].responded);
  CHECK(double((n - 1 - warm) * line_cycles(p)) / window >= 0.9);
  CHECK(b.stat("dram0.row_misses") == double(2 * p.banks));
  CHECK(b.stat("dram0.row_hits") == double(n - 2 * p.banks));
  b.check_conservation();
}

TEST_CASE("dram: closed page precharges after the last queued hit") {
  DramParams p = gtx480();
  p.page_policy = DramPagePolicy::Closed;
  Bench b(p);
  b.l2.add(rd(0, addr_of(p, 4, 3, 0)));
  b.l2.add(rd(100, addr_of(p, 4, 3, 128)));  // same row, but it was closed: a miss again
  b.l2.add(rd(200, addr_of(p, 4, 3, 256)));
  b.l2.add(rd(200, addr_of(p, 4, 3, 384)));  // queued behind a hit: the row stays open for it
  sc_core::sc_start();
  REQUIRE(b.l2.done.size() == 4);
  CHECK(b.latency(0) == kIn + p.tRCD + p.tCL + line_cycles(p));
  CHECK(b.latency(1) == kIn + p.tRCD + p.tCL + line_cycles(p));
  CHECK(b.latency(2) == kIn + p.tRCD + p.tCL + line_cycles(p));
  // The 4th is accepted into the input buffer with the 3rd (at 200) and taken with it,
  // before the 3rd's column command; its data follows the 3rd's on the bus.
  CHECK(b.l2.done[3].sent == 200);
  CHECK(b.l2.done[3].responded == 200 + kIn + p.tRCD + p.tCL + 2 * line_cycles(p));
  CHECK(b.latency(3) == kIn + p.tRCD + p.tCL + 2 * line_cycles(p));
  CHECK(b.stat("dram0.row_misses") == 3);
  CHECK(b.stat("dram0.row_hits") == 1);
  CHECK(b.stat("dram0.precharges") == 3);
  b.check_conservation();
}

TEST_CASE("dram: the xor mapping spreads a stride of banks times row bytes over the banks") {
  DramParams p = gtx480();
  p.address_mapping = DramMapping::RowBankColumnXor;
  Bench b(p);
  const uint64_t stride = uint64_t(p.banks) * p.row_bytes;
  for (uint64_t k = 0; k < p.banks; ++k) {
    const auto l = b.dram.locate(k * stride + 640);
    CHECK(l.bank == k);  // row k, bank bits 0, hashed with the row's low bits
    CHECK(l.row == k);
    CHECK(l.column == 640);
  }
  // The stride reads then overlap in four banks (activates tRRD apart, plus a
  // command-bus slot where a column command goes first) instead of queueing on
  // one bank, where the fourth activate could not come before 3 x tRC.
  for (uint64_t k = 0; k < 4; ++k) b.l2.add(rd(0, k * stride));
  sc_core::sc_start();
  REQUIRE(b.l2.done.size() == 4);
  CHECK(b.l2.done[3].responded <= 3 * (p.tRRD + 1) + p.tRCD + p.tCL + line_cycles(p));
  CHECK(b.l2.done[3].responded < 3 * p.tRC);
  CHECK(b.stat("dram0.activates") == 4);
  b.check_conservation();
}

TEST_CASE("dram: row bank column mapping keeps consecutive lines in one row then moves to the next bank") {
  const DramParams p = gtx480();
  Bench b(p);
  const auto a = b.dram.locate(p.row_bytes - 128);
  const auto c = b.dram.locate(p.row_bytes);
  const auto d = b.dram.locate(uint64_t(p.banks) * p.row_bytes + 256);
  CHECK(a.bank == 0);
  CHECK(a.row == 0);
  CHECK(a.column == p.row_bytes - 128);
  CHECK(c.bank == 1);
  CHECK(c.row == 0);
  CHECK(c.column == 0);
  CHECK(d.bank == 0);
  CHECK(d.row == 1);
  CHECK(d.column == 256);
  // A global-to-local hook is applied before the split.
  b.dram.local_address = [&p](uint64_t g) { return g - 6 * uint64_t(p.row_bytes) * p.banks; };
  b.l2.add(rd(0, 6 * uint64_t(p.row_bytes) * p.banks));
  sc_core::sc_start();
  REQUIRE(b.l2.done.size() == 1);
  CHECK(b.latency(0) == kIn + p.tRCD + p.tCL + line_cycles(p));
  b.check_conservation();
}

TEST_CASE("dram: peak bandwidth of six GTX480 channels is 177.4 GB per second") {
  const DramParams p = gtx480();
  CHECK(6 * peak_bytes_per_second(p) == Approx(924e6 * 4 * 8 * 6));
  CHECK(6 * peak_bytes_per_second(p) / 1e9 == Approx(177.4).epsilon(0.001));
}

TEST_CASE("dram: parameters default to the GTX480 GDDR5 values and reject a row that splits a line") {
  ParamTable t;
  DramParams::declare(t);
  Config c(t);
  const DramParams p = DramParams::from(c);
  CHECK(p.banks == 16);
  CHECK(p.tCL == 12);
  CHECK(p.tRCD == 12);
  CHECK(p.tRAS == 28);
  CHECK(p.tRP == 12);
  CHECK(p.tRC == 40);
  CHECK(p.tCCD == 2);
  CHECK(p.tRRD == 6);
  CHECK(p.tWL == 4);
  CHECK(p.tWR == 12);
  CHECK(p.tWTR == 5);
  CHECK(p.burst_length == 8);
  CHECK(p.bus_width == 8);
  CHECK(p.data_rate == 4);
  CHECK(p.queue == 16);
  CHECK(p.clock_mhz == 924);
  CHECK(p.scheduler == DramScheduler::FrFcfs);
  CHECK(p.page_policy == DramPagePolicy::Open);
  c.set("dram.scheduler", "fifo");
  c.set("dram.page_policy", "closed");
  CHECK(DramParams::from(c).scheduler == DramScheduler::Fifo);
  CHECK(DramParams::from(c).page_policy == DramPagePolicy::Closed);
  c.set("dram.row_bytes", "200");
  CHECK_THROWS_AS(DramParams::from(c), InputError);
  c.set("dram.row_bytes", "2048");
  c.set("dram.banks", "12");
  c.set("dram.address_mapping", "row_bank_column_xor");
  CHECK_THROWS_AS(DramParams::from(c), InputError);
  CHECK_THROWS_AS(c.set("dram.scheduler", "random"), InputError);
}

TEST_CASE("dram: column commands to one bank group are tCCDL apart, to different groups tCCD apart") {
  DramParams p = gtx480();
  p.bank_groups = 4;  // bank b is in group b mod 4
  p.tCCDL = 3;
  const uint64_t bc = p.burst_length / p.data_rate;  // a 32-byte read moves one burst: 2 bus cycles
  REQUIRE(bc == 2);
  REQUIRE(p.tCCD == 2);
  Bench b(p);
  for (uint64_t bank : {0, 1, 4}) b.l2.add(rd(0, addr_of(p, bank, 5), 32));  // open row 5 in banks 0, 1 and 4
  // Phase 1 at 100: banks 0 and 1 in turn (groups 0 and 1). Phase 2 at 300: banks 0 and 4 (both group 0).
  for (int k = 0; k < 8; ++k) b.l2.add(rd(100, addr_of(p, k % 2 ? 1 : 0, 5, 128 * uint64_t(k / 2 + 1)), 32));
  for (int k = 0; k < 8; ++k) b.l2.add(rd(300, addr_of(p, k % 2 ? 4 : 0, 5, 128 * uint64_t(k / 2 + 8)), 32));
  sc_core::sc_start();
  REQUIRE(b.l2.done.size() == 19);
  // The channel takes one request a cycle, from kIn after they were sent; every read is a row
  // hit, so its column command waits only for the spacing: tCCD (2) across groups, tCCDL (3)
  // within one. Its data ends tCL plus a burst later.
  for (int k = 0; k < 8; ++k) {
    INFO("read " << k);
    CHECK(b.l2.done[size_t(3 + k)].responded == 100 + kIn + p.tCCD * uint64_t(k) + p.tCL + bc);
    CHECK(b.l2.done[size_t(11 + k)].responded == 300 + kIn + p.tCCDL * uint64_t(k) + p.tCL + bc);
  }
  CHECK(b.stat("dram0.row_hits") == 16);
  b.check_conservation();
}

TEST_CASE("dram: a precharge waits tRTPL after a read to a bank of its group") {
  DramParams p = gtx480();
  p.bank_groups = 4;
  p.tCCDL = 3;
  p.tRTPL = 6;
  const uint64_t bc = p.burst_length / p.data_rate;
  Bench b(p);
  b.l2.add(rd(0, addr_of(p, 4, 1), 32));    // open row 1 in bank 4 (group 0)
  b.l2.add(rd(0, addr_of(p, 0, 7), 32));    // open row 7 in bank 0 (group 0)
  b.l2.add(rd(200, addr_of(p, 0, 7, 128), 32));  // a row hit in bank 0: its column command at 200 + kIn
  b.l2.add(rd(200, addr_of(p, 4, 2), 32));   // a conflict in bank 4: its precharge waits tRTPL after that read
  sc_core::sc_start();
  REQUIRE(b.l2.done.size() == 4);
  const uint64_t read0 = 200 + kIn;
  CHECK(b.l2.done[2].responded == read0 + p.tCL + bc);
  CHECK(b.l2.done[3].responded == read0 + p.tRTPL + p.tRP + p.tRCD + p.tCL + bc);
  b.check_conservation();
}

TEST_CASE("dram: address_bits places each address bit in the field its letter names") {
  DramParams p = gtx480();
  p.row_bytes = 4096;
  p.address_bits = "RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS";  // GPGPU-Sim 4.2's GTX480 mask of a channel-local address
  Bench b(p);
  struct Case { uint64_t addr, row; uint32_t bank, column; };
  const Case cases[] = {
      {0x000, 0, 0, 0},
      {0x03F, 0, 0, 0x3F},        // bits 0-5: byte of the burst
      {0x0C0, 0, 0, 0xC0},        // bits 6-7: column
      {0x100, 0, 1, 0},           // bit 8: bank bit 0, so 256-byte chunks alternate two banks
      {0x200, 0, 0, 0x100},       // bit 9: the next column bit
      {0x1E00, 0, 0, 0xF00},      // bits 9-12: column bits 8-11
      {0x2000, 0, 2, 0},          // bits 13-15: bank bits 1-3
      {0x8100, 0, 9, 0},
      {0x10000, 1, 0, 0},         // bit 16: row
      {0xFFF0000, 0xFFF, 0, 0},
      {1ull << 40, 1ull << 24, 0, 0},  // above the string's 28 bits: more row bits
  };
  for (const Case& c : cases) {
    INFO("address " << c.addr);
    const auto l = b.dram.locate(c.addr);
    CHECK(l.row == c.row);
    CHECK(l.bank == c.bank);
    CHECK(l.column == c.column);
  }
  // A stream of 256-byte chunks alternates banks 0 and 1 inside one row of each.
  for (uint64_t k = 0; k < 32; ++k) {
    CHECK(b.dram.locate(k * 256).bank == k % 2);
    CHECK(b.dram.locate(k * 256).row == 0);
  }
}

TEST_CASE("dram: with latency_clock core the delay line lasts dram.latency core cycles, in whole DRAM cycles") {
  ParamTable t;
  DramParams::declare(t);
  Config c(t);
  c.set("dram.latency", "100");
  c.set("dram.clock_mhz", "924");
  DramParams own = DramParams::from(c);
  own.count_in_dram_cycles(1050);
  CHECK(own.latency == 100);  // dram (the default): the channel's own cycles
  c.set("dram.latency_clock", "core");
  DramParams base = DramParams::from(c), faster = base;
  base.count_in_dram_cycles(700);
  CHECK(base.latency == 132);  // gtx480: 100 core cycles at 700 MHz are 132 at 924 MHz
  faster.count_in_dram_cycles(1050);
  CHECK(faster.latency == 88);  // the core 50 % faster: 88
}

TEST_CASE("dram: address_bits and bank_groups that do not fit the geometry are refused naming the key") {
  ParamTable t;
  DramParams::declare(t);
  Config c(t);
  c.set("dram.row_bytes", "4096");
  c.set("dram.address_bits", "RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS");
  CHECK(DramParams::from(c).address_bits == "RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS");
  auto refused = [&](const char* key, const char* value, const char* named) {
    Config d = c;
    d.set(key, value);
    INFO(key << " = " << value);
    try {
      DramParams::from(d);
      FAIL("accepted");
    } catch (const InputError& e) {
      CHECK(std::string(e.what()).find(named) != std::string::npos);
    }
  };
  refused("dram.address_bits", "RRRR.RRRRRRRR.BBXCCCCB.CCSSSSSS", "dram.address_bits");  // a letter that is no field
  refused("dram.address_bits", "RRRR.RRRRRRRR.RBBCCCCB.CCSSSSSS", "dram.address_bits");  // 3 bank bits for 16 banks
  refused("dram.address_bits", "RRRR.RRRRRRRR.BBBCCCCB.CSSSSSS", "dram.address_bits");   // 11 column bits for 4 KB rows
  refused("dram.address_bits", (std::string(40, 'R') + "RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS").c_str(), "dram.address_bits");  // over 63 bits
  refused("dram.bank_groups", "3", "dram.bank_groups");
  refused("dram.bank_groups", "32", "dram.bank_groups");  // more groups than banks
}

TEST_CASE("dram: two L2 slices above one channel are served one request a cycle in turn") {
  const DramParams p = gtx480();
  const uint64_t bc = p.burst_length / p.data_rate;
  StatsRegistry stats;
  const sc_core::sc_time period(1, sc_core::SC_NS);
  tb::TrafficInitiator sub0("sub0", period), sub1("sub1", period);
  DramChannel dram("dram0", 0, p, period, stats);
  sub0.socket.bind(dram.socket);
  sub1.socket.bind(dram.socket);
  for (uint64_t k = 0; k < 3; ++k) {  // all to row 3 of bank 0: one activate, then row hits in queue order
    sub0.add(rd(0, addr_of(p, 0, 3, 128 * (2 * k)), 32));
    sub1.add(rd(0, addr_of(p, 0, 3, 128 * (2 * k + 1)), 32));
  }
  sc_core::sc_start();
  REQUIRE(sub0.done.size() == 3);
  REQUIRE(sub1.done.size() == 3);
  // Queue order sub0, sub1, sub0, ... one a cycle from kIn; the activate is at kIn and the
  // column commands follow tRCD later, tCCD apart, each answered on its own port.
  for (uint64_t k = 0; k < 3; ++k) {
    INFO("request " << k);
    CHECK(sub0.done[k].responded == kIn + p.tRCD + p.tCCD * (2 * k) + p.tCL + bc);
    CHECK(sub1.done[k].responded == kIn + p.tRCD + p.tCCD * (2 * k + 1) + p.tCL + bc);
  }
  CHECK(stats.values().at("dram0.requests") == 6);
  CHECK(stats.values().at("dram0.responses") == 6);
}

TEST_CASE("dram: FR-FCFS serves row hits oldest first across banks, and a bank's hits behind its own older miss") {
  DramParams p = gtx480();
  p.scheduler = DramScheduler::FrFcfs;
  Bench b(p);
  // Rows 10 (bank 1) and 20 (bank 0) open first. Later, one request a cycle reaches the
  // queue: a conflict in bank 1 (held: its bank still has hits queued), then hits to
  // bank 0, bank 1 and bank 0 again, and a write hit to bank 1 behind them. Every hit
  // goes before the conflict, the hits in their age order whatever their bank, and the
  // conflict is served once its bank has no hit left. All arrive while tRAS since bank
  // 1's activate still holds its precharge, so the conflict cannot close the row first.
  const uint64_t t1 = 20;
  REQUIRE(t1 + kIn + 4 < kIn + p.tRAS);
  b.l2.add(rd(0, addr_of(p, 1, 10)));
  b.l2.add(rd(0, addr_of(p, 0, 20)));
  b.l2.add(rd(t1, addr_of(p, 1, 11)));         // 2: conflict in bank 1
  b.l2.add(rd(t1, addr_of(p, 0, 20, 128)));    // 3: hit, bank 0
  b.l2.add(rd(t1, addr_of(p, 1, 10, 128)));    // 4: hit, bank 1
  b.l2.add(rd(t1, addr_of(p, 0, 20, 256)));    // 5: hit, bank 0
  b.l2.add(wr(t1, addr_of(p, 1, 10, 256)));    // 6: write hit, bank 1
  sc_core::sc_start();
  REQUIRE(b.l2.done.size() == 7);
  CHECK(b.l2.done[3].responded < b.l2.done[4].responded);
  CHECK(b.l2.done[4].responded < b.l2.done[5].responded);
  CHECK(b.l2.done[5].responded < b.l2.done[6].responded);
  CHECK(b.l2.done[6].responded < b.l2.done[2].responded);
  // the conflict waited for the last hit of its bank, then a precharge and an activate
  CHECK(b.l2.done[2].responded >= b.l2.done[6].responded + p.tRP + p.tRCD);
  CHECK(b.stat("dram0.row_hits") == 4);
  CHECK(b.stat("dram0.row_misses") == 3);
  b.check_conservation();
}
