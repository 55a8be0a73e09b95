#include "sm/sched/rtl/warp_select_pins.hpp"  // first: Verilator's headers before SystemC's
#include "Vwarp_select_gto.h"
#include "Vwarp_select_gto_fault.h"
#include "Vwarp_select_lrr.h"
#include "Vwarp_select_lrr_fault.h"

#include "sm/sched/rtl/rtl_warp_select.hpp"

#include <sstream>

#include "common/clock.hpp"
#include "common/errors.hpp"
#include "common/input_register.hpp"

namespace warptlm {

namespace {
constexpr uint32_t kRtlWarps = WARPTLM_RTL_SCHED_WARPS;
static_assert(kRtlWarps <= 32 && WARPTLM_RTL_SCHED_AGE_BITS == 32,
              "the transactor drives cand as one 32-bit word and each age as one 32-bit word");
}  // namespace

RtlIssueSelect::RtlIssueSelect(const std::string& policy, std::unique_ptr<WarpSelectPins> pins, const SmParams& p,
                               const sc_core::sc_time& period)
    : name_(policy), schedulers_(p.num_schedulers), period_(period), pins_(std::move(pins)),
      by_pin_(pins_->warps(), nullptr), ages_(pins_->warps(), 0) {
  const uint32_t warps = (p.max_warps + p.num_schedulers - 1) / p.num_schedulers;
  if (warps > pins_->warps())
    throw InputError(Place{"", 0, "sm.issue_select.impl"},
                     "the verilated issue selection has " + std::to_string(pins_->warps()) + " warp inputs and a scheduler of " +
                         std::to_string(p.num_schedulers) + " on an SM of sm.max_warps " + std::to_string(p.max_warps) +
                         " holds " + std::to_string(warps));
}

RtlIssueSelect::~RtlIssueSelect() = default;

void RtlIssueSelect::commit_pending_edge() {
  if (edge_pending_ && cycle_now(period_) > issue_cycle_) {
    pins_->edge();
    edge_pending_ = false;
  }
}

WarpSlot* RtlIssueSelect::select(const std::vector<WarpSlot*>& warps, uint64_t candidates) {
  commit_pending_edge();
  // Each pin's warp slot, learned once (the SM's slots never move). Only the candidates' ages matter to the
  // selection; a pin's age pins change when a new warp takes its slot.
  for (uint64_t m = candidates; m; m &= m - 1) {
    const unsigned pin = unsigned(__builtin_ctzll(m));
    WarpSlot* w = by_pin_[pin];
    if (!w) {
      for (WarpSlot* x : warps) by_pin_[x->slot / schedulers_] = x;
      w = by_pin_[pin];
    }
    if (w->age > UINT32_MAX)
      throw RunError("the verilated issue selection's 32-bit age of a warp overflowed (more than 2^32 warps on one SM)");
    if (ages_[pin] != uint32_t(w->age)) {
      ages_[pin] = uint32_t(w->age);
      pins_->age(pin, ages_[pin]);
    }
  }
  const int sel = pins_->select(uint32_t(candidates));
  return sel < 0 ? nullptr : by_pin_[size_t(sel)];
}

void RtlIssueSelect::issued(WarpSlot* w) {
  commit_pending_edge();
  pins_->issue(w->slot / schedulers_);
  edge_pending_ = true;
  issue_cycle_ = cycle_now(period_);
  issued_slot_ = int(w->slot);
}

// The order the model lists, walked as a selection: the first warp of `order` among the candidates.
void RtlIssueSelect::order(const std::vector<WarpSlot*>& warps, std::vector<WarpSlot*>& out) {
  out.clear();
  uint64_t m = 0;
  for (WarpSlot* w : warps) m |= uint64_t(1) << (w->slot / schedulers_);
  while (WarpSlot* w = m ? select(warps, m) : nullptr) {
    out.push_back(w);
    m &= ~(uint64_t(1) << (w->slot / schedulers_));
  }
}

LockstepIssueSelect::LockstepIssueSelect(std::unique_ptr<WarpOrdering> model, std::unique_ptr<WarpSelectPins> pins,
                                         const SmParams& p, uint32_t sm, uint32_t sched, const sc_core::sc_time& period)
    : model_(std::move(model)), rtl_(model_->name(), std::move(pins), p, period), sm_(sm), sched_(sched),
      schedulers_(p.num_schedulers), period_(period) {
  order_.reserve(p.max_warps);
}

WarpSlot* LockstepIssueSelect::select(const std::vector<WarpSlot*>& warps, uint64_t candidates) {
  // the model's order of this cycle, listed once at the cycle's first selection as the SM lists it once per
  // issue (the model's state changes at issued(), which the SM makes it see only from the next cycle's order)
  const uint64_t now = cycle_now(period_);
  if (now != ordered_cycle_) {
    model_->order(warps, order_);
    ordered_cycle_ = now;
  }
  WarpSlot* m = nullptr;
  for (WarpSlot* w : order_)
    if (candidates >> (w->slot / schedulers_) & 1) { m = w; break; }
  WarpSlot* r = rtl_.select(warps, candidates);
  if (m != r) {
    auto warp = [](const WarpSlot* w) { return w ? "the warp in slot " + std::to_string(w->slot) : std::string("no warp"); };
    std::ostringstream req;
    req << "scheduler " << sched_ << " (" << model_->name() << ") selects among the warps in slots {";
    bool first = true;
    for (WarpSlot* w : warps)
      if (candidates >> (w->slot / schedulers_) & 1) {
        req << (first ? "" : ", ") << w->slot << " (age " << w->age << ")";
        first = false;
      }
    const int last = rtl_.last_issued();
    req << "}, the slot that issued last " << (last < 0 ? std::string("none") : std::to_string(last));
    lockstep_divergence("sm.issue_select", sm_, cycle_now(period_), req.str(), warp(m), warp(r));
  }
  return m;
}

std::unique_ptr<WarpOrdering> make_issue_select(BlockImpl impl, std::unique_ptr<WarpOrdering> model,
                                               std::unique_ptr<WarpSelectPins> pins, const SmParams& p, uint32_t sm,
                                               uint32_t sched, const sc_core::sc_time& period) {
  if (impl == BlockImpl::Lockstep)
    return std::make_unique<LockstepIssueSelect>(std::move(model), std::move(pins), p, sm, sched, period);
  return std::make_unique<RtlIssueSelect>(model->name(), std::move(pins), p, period);
}

std::string issue_select_trace_name(uint32_t sm, uint32_t sched) {
  return "sm" + std::to_string(sm) + ".sched" + std::to_string(sched) + ".rtl";
}

namespace {
// WarpTLM's own warp_select.sv, GTO or LRR as the model's ordering is (or the test-only broken one).
std::unique_ptr<WarpOrdering> make(BlockImpl impl, std::unique_ptr<WarpOrdering> model, const SmParams& p, uint32_t sm,
                                   uint32_t sched, const sc_core::sc_time& period) {
  const std::string trace = issue_select_trace_name(sm, sched);
  const bool broken = test_fault("rtl_issue_select");
  std::unique_ptr<WarpSelectPins> pins;
  if (std::string(model->name()) == "gto")
    pins = broken ? std::unique_ptr<WarpSelectPins>(new WarpSelectPinsOf<Vwarp_select_gto_fault, kRtlWarps>(trace))
                  : std::unique_ptr<WarpSelectPins>(new WarpSelectPinsOf<Vwarp_select_gto, kRtlWarps>(trace));
  else
    pins = broken ? std::unique_ptr<WarpSelectPins>(new WarpSelectPinsOf<Vwarp_select_lrr_fault, kRtlWarps>(trace))
                  : std::unique_ptr<WarpSelectPins>(new WarpSelectPinsOf<Vwarp_select_lrr, kRtlWarps>(trace));
  return make_issue_select(impl, std::move(model), std::move(pins), p, sm, sched, period);
}
}  // namespace

// A factory set before (a platform's own RTL, docs/rtl.md) stays.
void register_rtl_issue_select() {
  if (!IssueSelectRtl::make) IssueSelectRtl::make = &make;
}

}  // namespace warptlm
