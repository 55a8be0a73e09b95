#include "common/rtl/rtl_context.hpp"  // first: Verilator's headers before SystemC's
#include "Vlock_arbiter.h"
#include "Vlock_arbiter_fault.h"

#include "scratchpad/rtl/rtl_lock_arbiter.hpp"

#include <sstream>

#include "common/clock.hpp"
#include "common/errors.hpp"
#include "common/rtl/rtl_signals.hpp"

namespace warptlm {

namespace {

constexpr uint32_t kRtlPairs = WARPTLM_RTL_LOCK_PAIRS;
constexpr uint32_t kRtlFree = uint32_t((uint64_t(1) << WARPTLM_RTL_LOCK_BLOCK_BITS) - 1);
static_assert(WARPTLM_RTL_LOCK_BLOCK_BITS == 32, "the transactor passes the model's 32-bit block ids (all ones: free)");

const char* kind_pin_name(MemKind k) {
  switch (k) {
    case MemKind::LockAcquire: return "acquire";
    case MemKind::LockRelease: return "release";
    case MemKind::LockOwnerDone: return "owner_done";
    default: return "?";
  }
}

uint8_t kind_pins(MemKind k) {
  switch (k) {
    case MemKind::LockAcquire: return 0;
    case MemKind::LockRelease: return 1;
    case MemKind::LockOwnerDone: return 2;
    default: return 3;  // no request: never granted
  }
}

}  // namespace

// The verilated arbiter (or its test-only broken variant) and its pins.
class LockArbiterPins {
 public:
  virtual ~LockArbiterPins() = default;
  virtual uint32_t request(uint8_t kind, uint32_t pair, uint32_t block, uint32_t partner, uint32_t& before) = 0;
  virtual void commit(const sc_core::sc_time& next_edge) = 0;
  virtual uint32_t owner(uint32_t pair) = 0;
  virtual void reset() = 0;
};

template <class V>
class LockArbiterPinsOf : public LockArbiterPins {
 public:
  LockArbiterPinsOf(const std::string& trace_name) : rtl_(trace_name), signals_(rtl_.ctx, trace_name, trace_name) {
    top_.clk = 0;
    reset();
  }
  // A request on the pins in this core cycle: the combinational answer; `before` the pair's owner.
  uint32_t request(uint8_t kind, uint32_t pair, uint32_t block, uint32_t partner, uint32_t& before) override {
    top_.req_valid = 1;
    top_.req_kind = kind;
    top_.req_pair = pair;
    top_.req_block = block;
    top_.req_partner = partner;
    top_.rd_pair = pair;
    top_.eval();
    before = top_.rd_owner;
    if (signals_.on()) signals_.sample();
    return top_.req_granted;
  }
  // The rising edge that writes the owner table, and the request taken off the pins; in the waveform from
  // the next core cycle on.
  void commit(const sc_core::sc_time& next_edge) override {
    top_.clk = 1;
    top_.eval();
    top_.clk = 0;
    top_.req_valid = 0;
    top_.eval();
    if (signals_.on()) signals_.sample_at(next_edge);
  }
  uint32_t owner(uint32_t pair) override {
    top_.rd_pair = pair;
    top_.eval();
    return top_.rd_owner;
  }
  void reset() override {
    top_.req_valid = 0;
    top_.rst_n = 0;
    top_.eval();
    top_.rst_n = 1;
    top_.eval();
  }

 private:
  RtlModel<V> rtl_;
  V& top_ = rtl_.top;
  RtlSignals signals_;
};

RtlLockArbiter::RtlLockArbiter(sc_core::sc_module_name n, uint32_t sm_id, uint32_t max_pairs, StatsRegistry* stats,
                               const std::string& trace_name, const sc_core::sc_time& period)
    : sc_core::sc_module(n), socket("socket"), period_(period) {
  // The model keeps a lock per block slot; pairs use at most half of them.
  const uint32_t pairs = max_pairs / 2;
  if (pairs > kRtlPairs)
    throw InputError(Place{"", 0, "ss.lock_arbiter.impl"},
                     "the verilated pair-lock arbiter has " + std::to_string(kRtlPairs) + " locks and sm.max_blocks " +
                         std::to_string(max_pairs) + " needs " + std::to_string(pairs) +
                         ": reconfigure WarpTLM with -DWARPTLM_RTL_LOCKS=" + std::to_string(pairs));
  if (test_fault("rtl_lock_arbiter_handover"))
    pins_ = std::make_unique<LockArbiterPinsOf<Vlock_arbiter_fault>>(trace_name);
  else
    pins_ = std::make_unique<LockArbiterPinsOf<Vlock_arbiter>>(trace_name);
  if (stats) stats_ = std::make_unique<LockArbiterStats>(sm_id, max_pairs, *stats);
  socket.register_nb_transport_fw(this, &RtlLockArbiter::nb_transport_fw);
}

RtlLockArbiter::~RtlLockArbiter() = default;

uint32_t RtlLockArbiter::owner(uint32_t pair) const {
  const uint32_t o = pins_->owner(pair);
  return o == kRtlFree ? kFree : o;
}

void RtlLockArbiter::reset() {
  pins_->reset();
  if (stats_) stats_->reset();
}

uint32_t RtlLockArbiter::decide(MemKind kind, uint32_t pair, uint32_t block, uint32_t partner) {
  uint32_t before = 0;
  const uint32_t granted = pins_->request(kind_pins(kind), pair, block, partner, before);
  // the owner table's new value shows in the waveform from the next core clock edge
  pins_->commit(period_ * double(cycle_now(period_) + 1));
  if (stats_) stats_->record(kind, pair, block, granted != 0, before, owner(pair));
  return granted;
}

tlm::tlm_sync_enum RtlLockArbiter::nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time&) {
  return answer_lock_request(p, ph, [this](MemKind k, uint32_t pair, uint32_t block, uint32_t partner) {
    return decide(k, pair, block, partner);
  });
}

LockstepLockArbiter::LockstepLockArbiter(sc_core::sc_module_name n, uint32_t sm_id, uint32_t max_pairs, StatsRegistry& stats,
                                         const std::string& trace_name, const sc_core::sc_time& period)
    : sc_core::sc_module(n), socket("socket"), sm_id_(sm_id), period_(period), to_model_("to_model"), to_rtl_("to_rtl"),
      model_("model", sm_id, max_pairs, &stats), rtl_("rtl", sm_id, max_pairs, nullptr, trace_name, period) {
  socket.register_nb_transport_fw(this, &LockstepLockArbiter::nb_transport_fw);
  to_model_.bind(model_.socket);
  to_rtl_.bind(rtl_.socket);
}

tlm::tlm_sync_enum LockstepLockArbiter::nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time&) {
  if (ph != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED;
  GpuExtension& e = gpu_ext(p);
  const uint32_t pair = uint32_t(p.get_address()), partner = p.get_data_length();
  // the same transaction to each, one after the other, in this core cycle
  auto ask = [&](tlm_utils::simple_initiator_socket<LockstepLockArbiter>& to) {
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    e.tag = 0;
    to->nb_transport_fw(p, phase, t);
    return uint32_t(e.tag);
  };
  const uint32_t m = ask(to_model_);
  const uint32_t r = ask(to_rtl_);
  const uint32_t mo = model_.owner(pair), ro = rtl_.owner(pair);
  if (m != r || mo != ro) {
    auto who = [](uint32_t b) { return b == kFree ? std::string("free") : "block " + std::to_string(b); };
    auto answer = [&](uint32_t g, uint32_t o) { return std::string(g ? "granted" : "denied") + ", owner " + who(o); };
    std::ostringstream req;
    req << kind_pin_name(e.kind) << " of pair " << pair << " by block " << e.block;
    if (e.kind == MemKind::LockOwnerDone) req << " (partner " << (partner == kFree ? std::string("none") : std::to_string(partner)) << ")";
    lockstep_divergence("ss.lock_arbiter", sm_id_, cycle_now(period_), req.str(), answer(m, mo), answer(r, ro));
  }
  e.tag = m;
  p.set_response_status(tlm::TLM_OK_RESPONSE);
  ph = tlm::BEGIN_RESP;
  return tlm::TLM_COMPLETED;
}

namespace {
std::unique_ptr<LockArbiterBlock> make(BlockImpl impl, const char* n, uint32_t sm_id, uint32_t max_pairs, StatsRegistry& stats,
                                       const sc_core::sc_time& period) {
  const std::string trace = "sm" + std::to_string(sm_id) + ".ssp.rtl";
  if (impl == BlockImpl::Lockstep) return std::make_unique<LockstepLockArbiter>(n, sm_id, max_pairs, stats, trace, period);
  return std::make_unique<RtlLockArbiter>(n, sm_id, max_pairs, &stats, trace, period);
}
}  // namespace

// A factory set before (a platform's own RTL, docs/rtl.md) stays.
void register_rtl_lock_arbiter() {
  if (!LockArbiter::make_rtl) LockArbiter::make_rtl = &make;
}

}  // namespace warptlm
