// The scratchpad-sharing pair-lock arbiter's RTL (models/scratchpad/rtl/lock_arbiter.sv, verilated) in
// lockstep with its model (LockArbiter, driven through its TLM socket): the same request streams go to both,
// and after every request the grant and every pair's owner must agree. The test-only broken variant
// (FAULT_HANDOVER=1: a finishing owner frees the lock instead of handing it to its partner) must diverge, at
// the first request where the rule it breaks applies: the proof that the comparison can fail.
// Verilator's headers first, before anything includes SystemC: the models are --cc (no SystemC), and
// Verilator's headers take SystemC's time when they see it already included.
#include <verilated.h>
#include "Vlock_arbiter.h"
#include "Vlock_arbiter_fault.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "common/stats.hpp"
#include "scratchpad/lock_arbiter.hpp"

using namespace warptlm;

namespace {

constexpr uint32_t kPairs = WARPTLM_RTL_LOCK_PAIRS;
constexpr uint32_t kRtlFree = uint32_t((uint64_t(1) << WARPTLM_RTL_LOCK_BLOCK_BITS) - 1);  // the RTL's free code: all ones
constexpr uint32_t kFree = LockArbiter::kFree;

struct Req {
  MemKind kind;
  uint32_t pair, block, partner;
};

std::string describe(const Req& r) {
  std::ostringstream s;
  switch (r.kind) {
    case MemKind::LockAcquire: s << "acquire"; break;
    case MemKind::LockRelease: s << "release"; break;
    case MemKind::LockOwnerDone: s << "owner_done"; break;
    default: s << "?"; break;
  }
  s << " pair " << r.pair << " block " << r.block;
  if (r.kind == MemKind::LockOwnerDone) {
    if (r.partner == kFree) s << " partner none";
    else s << " partner " << r.partner;
  }
  return s.str();
}

std::string owners_text(const std::vector<uint32_t>& o) {
  std::ostringstream s;
  s << "[";
  for (size_t k = 0; k < o.size(); ++k) {
    if (k) s << " ";
    if (o[k] == kFree) s << "free";
    else s << o[k];
  }
  s << "]";
  return s.str();
}

// The model as the SM's resource access unit drives it: one TLM transaction per request.
struct ModelSide : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<ModelSide> socket;
  PayloadPool pool;
  StatsRegistry stats;
  LockArbiter arb;
  explicit ModelSide(sc_core::sc_module_name n)
      : sc_core::sc_module(n), socket("socket"), arb("arbiter", 0, kPairs, stats) {
    socket.bind(arb.socket);
  }
  uint32_t ask(const Req& r) {
    tlm::tlm_generic_payload* p = pool.acquire();
    p->set_address(r.pair);
    p->set_data_length(r.partner);
    gpu_ext(*p).kind = r.kind;
    gpu_ext(*p).block = r.block;
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    REQUIRE(socket->nb_transport_fw(*p, ph, t) == tlm::TLM_COMPLETED);
    const uint32_t g = uint32_t(gpu_ext(*p).tag);
    p->release();
    return g;
  }
  std::vector<uint32_t> owners() const {
    std::vector<uint32_t> o(kPairs);
    for (uint32_t k = 0; k < kPairs; ++k) o[k] = arb.owner(k);
    return o;
  }
};

// One model for the process (SystemC elaborates once); each stream starts from reset.
ModelSide& model() {
  static ModelSide* m = [] {
    auto* side = new ModelSide("model");
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    return side;
  }();
  m->arb.reset();
  return *m;
}

// The verilated RTL, clocked by hand: a request is put on the pins, the answer read in the same cycle,
// then one rising edge of clk registers the new owner.
template <class V>
struct RtlSide {
  VerilatedContext ctx;
  V top{&ctx, "lock_arbiter"};
  RtlSide() { reset(); }
  ~RtlSide() { top.final(); }
  void reset() {
    top.clk = 0;
    top.req_valid = 0;
    top.rst_n = 1;  // a falling edge of rst_n: the reset is asynchronous (the pins start at 0)
    top.eval();
    top.rst_n = 0;
    top.eval();
    edge();  // held through an edge too
    top.rst_n = 1;
    top.eval();
  }
  void edge() {
    top.clk = 1;
    top.eval();
    top.clk = 0;
    top.eval();
  }
  void present(const Req& r) {
    top.req_valid = 1;
    top.req_kind = r.kind == MemKind::LockAcquire ? 0 : r.kind == MemKind::LockRelease ? 1 : 2;
    top.req_pair = r.pair;
    top.req_block = r.block == kFree ? kRtlFree : r.block;
    top.req_partner = r.partner == kFree ? kRtlFree : r.partner;
    top.eval();
  }
  uint32_t ask(const Req& r) {
    present(r);
    const uint32_t g = top.req_granted;
    edge();
    top.req_valid = 0;
    top.eval();
    return g;
  }
  uint32_t owner(uint32_t pair) {
    top.rd_pair = pair;
    top.eval();
    const uint32_t o = top.rd_owner;
    return o == kRtlFree ? kFree : o;
  }
  std::vector<uint32_t> owners() {
    std::vector<uint32_t> o(kPairs);
    for (uint32_t k = 0; k < kPairs; ++k) o[k] = owner(k);
    return o;
  }
};

struct Divergence {
  size_t index;
  std::string report;
};

// Both sides from reset, one request at a time; the first request after which the grant or any pair's
// owner differs, with a report naming it, the request and both answers.
template <class V>
std::optional<Divergence> lockstep(const std::vector<Req>& stream, size_t* compared = nullptr) {
  ModelSide& m = model();
  RtlSide<V> rtl;
  for (size_t i = 0; i < stream.size(); ++i) {
    const Req& r = stream[i];
    const uint32_t mg = m.ask(r), rg = rtl.ask(r);
    const std::vector<uint32_t> mo = m.owners(), ro = rtl.owners();
    if (compared) *compared = i + 1;
    if (mg != rg || mo != ro) {
      std::ostringstream s;
      s << "lock arbiter divergence at request #" << i << " (" << describe(r) << "): model: granted " << mg
        << ", owners " << owners_text(mo) << "; rtl: granted " << rg << ", owners " << owners_text(ro);
      return Divergence{i, s.str()};
    }
  }
  return std::nullopt;
}

Req acquire(uint32_t pair, uint32_t block) { return {MemKind::LockAcquire, pair, block, kFree}; }
Req release(uint32_t pair, uint32_t block) { return {MemKind::LockRelease, pair, block, kFree}; }
Req owner_done(uint32_t pair, uint32_t block, uint32_t partner) { return {MemKind::LockOwnerDone, pair, block, partner}; }

// Every rule of seed 000 sections 2.5 and 4, with the answer each must give.
struct Step {
  Req req;
  uint32_t granted;
};
const std::vector<Step>& scripted() {
  static const std::vector<Step> steps = {
      {acquire(2, 3), 1},                 // 0: a free lock: the first to ask takes it
      {acquire(2, 10), 0},                // 1: held by the other block of the pair: denied (retry)
      {acquire(2, 3), 1},                 // 2: held by the requester: granted again
      {acquire(1, 10), 1},                // 3: another pair's lock is independent
      {release(2, 10), 0},                // 4: relssp by a non-owner: no effect
      {release(2, 3), 1},                 // 5: relssp by the owner frees the lock
      {acquire(2, 10), 1},                // 6: the partner's retry after relssp gets it
      {owner_done(2, 10, 17), 1},         // 7: the owner finishes: ownership passes to its partner
      {acquire(2, 17), 1},                // 8: the partner holds it
      {acquire(2, 3), 0},                 // 9: ... and others are denied
      {owner_done(2, 99, 5), 0},          // 10: a non-owner finishing changes nothing
      {owner_done(2, 17, kFree), 1},      // 11: the owner finishes without a partner: the lock is free
      {acquire(2, 3), 1},                 // 12: and can be taken
      {release(1, 3), 0},                 // 13: relssp by a non-owner of pair 1
      {release(1, 10), 1},                // 14: relssp by its owner
      {owner_done(1, 10, 4), 0},          // 15: finishing without the lock (it was released): no hand-over
      {release(0, 5), 0},                 // 16: relssp on a free lock: no effect
      {acquire(kPairs - 1, 0), 1},        // 17: the last pair, block 0
      {owner_done(kPairs - 1, 0, 1), 1},  // 18: handed to block 1
      {acquire(kPairs - 1, 1), 1},        // 19: which holds it
      {acquire(0, kRtlFree - 1), 1},      // 20: the largest block id
      {release(0, kRtlFree - 1), 1},      // 21
  };
  return steps;
}

std::vector<Req> scripted_requests() {
  std::vector<Req> v;
  for (const Step& s : scripted()) v.push_back(s.req);
  return v;
}

// A long random stream: every pair, six block ids, partners among them or none; fixed seed.
std::vector<Req> random_stream(size_t n) {
  std::mt19937 rng(49);
  std::vector<Req> v;
  v.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t pair = rng() % kPairs, block = rng() % 6, k = rng() % 10;
    const uint32_t partner = rng() % 4 == 0 ? kFree : rng() % 6;
    if (k < 5) v.push_back(acquire(pair, block));
    else if (k < 7) v.push_back(release(pair, block));
    else v.push_back(owner_done(pair, block, partner));
  }
  return v;
}

}  // namespace

TEST_CASE("rtl lock arbiter: the scripted stream of every rule agrees with the model, request by request") {
  // the model answers as the rules say (the stream covers what it claims to)
  {
    ModelSide& m = model();
    for (size_t i = 0; i < scripted().size(); ++i) {
      INFO("request #" << i << " " << describe(scripted()[i].req));
      CHECK(m.ask(scripted()[i].req) == scripted()[i].granted);
    }
  }
  size_t compared = 0;
  const auto d = lockstep<Vlock_arbiter>(scripted_requests(), &compared);
  if (d) FAIL(d->report);
  CHECK(compared == scripted().size());
}

TEST_CASE("rtl lock arbiter: a long random stream agrees with the model, request by request") {
  const std::vector<Req> stream = random_stream(20000);
  // the stream exercises every outcome: each kind granted and refused, hand-overs to a partner and to none
  {
    ModelSide& m = model();
    size_t outcome[3][2] = {}, to_partner = 0, to_none = 0;
    for (const Req& r : stream) {
      const uint32_t g = m.ask(r);
      const int k = r.kind == MemKind::LockAcquire ? 0 : r.kind == MemKind::LockRelease ? 1 : 2;
      ++outcome[k][g];
      if (k == 2 && g) ++(r.partner == kFree ? to_none : to_partner);
    }
    for (int k = 0; k < 3; ++k)
      for (int g = 0; g < 2; ++g) {
        INFO("kind " << k << " granted " << g);
        CHECK(outcome[k][g] > 100);
      }
    CHECK(to_partner > 100);
    CHECK(to_none > 20);
  }
  size_t compared = 0;
  const auto d = lockstep<Vlock_arbiter>(stream, &compared);
  if (d) FAIL(d->report);
  CHECK(compared == stream.size());
}

TEST_CASE("rtl lock arbiter: the answer is combinational, the owner is registered at the next edge") {
  RtlSide<Vlock_arbiter> rtl;
  rtl.present(acquire(3, 7));
  CHECK(rtl.top.req_granted == 1);  // 0 cycles: granted while the request is on the pins
  CHECK(rtl.owner(3) == kFree);     // the lock is not taken before the edge
  rtl.edge();
  CHECK(rtl.owner(3) == 7);         // ... and is after it
  rtl.present(acquire(3, 8));
  CHECK(rtl.top.req_granted == 0);  // the next cycle's request sees the new owner
  rtl.top.req_valid = 0;
  rtl.top.eval();
  CHECK(rtl.top.req_granted == 0);  // no request, no grant
  rtl.reset();
  CHECK(rtl.owner(3) == kFree);     // reset frees every lock
}

TEST_CASE("rtl lock arbiter: the broken hand-over variant diverges where its rule applies, and the report says so") {
  // scripted: the first hand-over to a partner is request #7 (owner_done pair 2 block 10 partner 17)
  const auto d = lockstep<Vlock_arbiter_fault>(scripted_requests());
  REQUIRE(d);
  CHECK(d->index == 7);
  INFO(d->report);
  CHECK(d->report.find("request #7 ") != std::string::npos);
  CHECK(d->report.find("(owner_done pair 2 block 10 partner 17)") != std::string::npos);
  CHECK(d->report.find("model: granted 1, owners [free 10 17 free") != std::string::npos);
  CHECK(d->report.find("rtl: granted 1, owners [free 10 free free") != std::string::npos);
  // random: at the first request where an owner finishes with a partner, found on the model alone
  const std::vector<Req> stream = random_stream(20000);
  size_t first = stream.size();
  {
    ModelSide& m = model();
    for (size_t i = 0; i < stream.size() && first == stream.size(); ++i)
      if (m.ask(stream[i]) && stream[i].kind == MemKind::LockOwnerDone && stream[i].partner != kFree) first = i;
  }
  REQUIRE(first < stream.size());
  const auto dr = lockstep<Vlock_arbiter_fault>(stream);
  REQUIRE(dr);
  CHECK(dr->index == first);
  CHECK(dr->report.find("request #" + std::to_string(first) + " (" + describe(stream[first]) + ")") != std::string::npos);
  // the good RTL passes the same streams (the divergence is the fault's, not the comparison's)
  CHECK_FALSE(lockstep<Vlock_arbiter>(stream));
}
