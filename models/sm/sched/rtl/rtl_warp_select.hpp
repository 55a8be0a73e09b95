// The warp schedulers' issue selection as RTL in the loop (docs/rtl.md): the transactor that puts the
// verilated warp_select.sv (GTO or LRR) where the model's ordering sits, and the lockstep pair that runs
// both. Made through IssueSelectRtl::make (sm.issue_select.impl: rtl | lockstep).
//
// The transactor is a selecting WarpOrdering (scheduler.hpp): each time the SM asks, it puts the candidates
// on `cand` and every warp's age on `age` (a warp's pin index is its slot / the SM's schedulers), evaluates
// the RTL and gives the SM the warp on `sel_warp`. The SM takes out a warp that cannot issue and asks again
// (the candidates' readiness, found warp by warp as the model finds it). A warp that issues goes on
// `issue_valid`/`issue_warp`; the RTL registers it at the rising edge that ends the cycle, which the
// transactor applies before the scheduler's next selection in a later cycle, so that selections later in
// the same cycle see the registers as they were at its start, and an idle scheduler's RTL costs nothing.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sm/sched/scheduler.hpp"

namespace warptlm {

class WarpSelectPins;  // the verilated selector behind its pins (warp_select_pins.hpp)

class RtlIssueSelect : public WarpOrdering {
 public:
  // `policy`: the ordering's name ("gto", "lrr"); `pins`: the verilated selector. Refuses (InputError) a
  // scheduler with more warps than the selector has inputs.
  RtlIssueSelect(const std::string& policy, std::unique_ptr<WarpSelectPins> pins, const SmParams& p,
                 const sc_core::sc_time& period);
  ~RtlIssueSelect() override;
  const char* name() const override { return name_.c_str(); }
  void order(const std::vector<WarpSlot*>& warps, std::vector<WarpSlot*>& out) override;
  bool selects() const override { return true; }
  WarpSlot* select(const std::vector<WarpSlot*>& warps, uint64_t candidates) override;
  void issued(WarpSlot* w) override;
  // The slot of the warp that issued last, as the transactor put it on the pins, or -1 before any.
  int last_issued() const { return issued_slot_; }

 private:
  void commit_pending_edge();
  std::string name_;
  uint32_t schedulers_;
  sc_core::sc_time period_;
  std::unique_ptr<WarpSelectPins> pins_;
  std::vector<WarpSlot*> by_pin_;  // each pin index's warp slot (the SM's slots never move)
  std::vector<uint32_t> ages_;     // each pin index's age on the pins
  bool edge_pending_ = false;      // a warp issued: the RTL's registering edge is still to come ...
  uint64_t issue_cycle_ = 0;       // ... at the end of this core cycle
  int issued_slot_ = -1;
};

// sm.issue_select.impl: lockstep. The model's ordering decides; at each selection the RTL's choice among the
// same candidates must be the first of them in the model's order, or the run stops (lockstep_divergence)
// naming the cycle, the SM, the scheduler, the candidates and both choices.
class LockstepIssueSelect : public WarpOrdering {
 public:
  LockstepIssueSelect(std::unique_ptr<WarpOrdering> model, std::unique_ptr<WarpSelectPins> pins, const SmParams& p,
                      uint32_t sm, uint32_t sched, const sc_core::sc_time& period);
  const char* name() const override { return model_->name(); }
  void order(const std::vector<WarpSlot*>& warps, std::vector<WarpSlot*>& out) override { model_->order(warps, out); }
  bool selects() const override { return true; }
  WarpSlot* select(const std::vector<WarpSlot*>& warps, uint64_t candidates) override;
  void issued(WarpSlot* w) override {
    model_->issued(w);
    rtl_.issued(w);
  }

 private:
  std::unique_ptr<WarpOrdering> model_;
  RtlIssueSelect rtl_;
  uint32_t sm_, sched_, schedulers_;
  sc_core::sc_time period_;
  std::vector<WarpSlot*> order_;         // the model's order ...
  uint64_t ordered_cycle_ = UINT64_MAX;  // ... listed in this cycle
};

// Scheduler `sched` of SM `sm` with the selector `pins` in the loop: rtl (RtlIssueSelect, named as `model`)
// or lockstep against `model`. What a factory set in IssueSelectRtl::make returns (a platform's own RTL:
// platforms/examples/rtl_scheduler).
std::unique_ptr<WarpOrdering> make_issue_select(BlockImpl impl, std::unique_ptr<WarpOrdering> model,
                                               std::unique_ptr<WarpSelectPins> pins, const SmParams& p, uint32_t sm,
                                               uint32_t sched, const sc_core::sc_time& period);
// The dotted name scheduler `sched` of SM `sm`'s selector takes in the waveform ("sm0.sched1.rtl").
std::string issue_select_trace_name(uint32_t sm, uint32_t sched);

// Sets IssueSelectRtl::make to WarpTLM's warp_select.sv, unless a platform set its own (register_rtl_blocks).
void register_rtl_issue_select();

}  // namespace warptlm
