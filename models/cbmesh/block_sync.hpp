// The SPU-wide block synchronisation (seed 003 sec. 2.4, 2.8): the barrier's
// bookkeeping, free of SystemC so its rules can be checked alone (the mesh's
// SystemC barrier drives it).
//
// A pass has participants (its SMs with a block and its non-idle IUs). A
// `bar.blocksync` arrival counts once the unit's own block barrier has
// released; the SPU barrier releases when every participant that is counted
// and has not finished has arrived, and every release advances the pass's
// synchronisation count (regcspillnb, which flips the CB halves).
// Virtual IUs may start parked (the `restart` optimisation): a parked unit
// that reaches a synchronisation waits there without being counted, so the
// others are not held; `bar.unleashvius` releases the parked units that wait
// and counts them from then on, at the pass's current count.
// Every unit of a pass must perform the same number of synchronisations, and
// every pass as many as pass 0 (regspillnb, latched at its end): a unit that
// finishes while others wait, or a pass with another count, is a run error
// naming the units and counts, never a hang.
// With `leave_early` (spec sec. 6, skipping the dummy synchronisations at the
// end of a pass) a unit that finishes leaves the synchronisation instead: the
// barrier stops waiting for it, releasing the others if they all wait, and
// the units' and passes' counts may differ.
// The pass's last synchronisation is known only when it is over: once every
// participant that is not a virtual IU has finished, the virtual IUs still in
// their loops are released without another count and with reglast set (the
// report's LAST, "set to true by the run time system when all the thread
// blocks from the current pass are done", sec. 3.2), so they leave their loops.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace warptlm {

class BlockSync {
 public:
  // Unit names for messages ("sm5", "iu_east1"), indexed by unit id.
  // `leave_early`: a finished unit leaves the synchronisation (no count check).
  explicit BlockSync(std::vector<std::string> unit_names, bool leave_early = false);

  // A new pass: `participant[u]` for the units that take part, `parked[u]`
  // for those that start parked (a subset), `virtual_unit[u]` for the virtual
  // IUs (empty: none), which the pass's closing release lets go.
  void begin_pass(uint32_t pass, const std::vector<bool>& participant, const std::vector<bool>& parked,
                  const std::vector<bool>& virtual_unit = {});

  // Unit `u` reached bar.blocksync (its block barrier has released). Returns
  // the units released by this arrival (empty while the barrier still waits;
  // a parked unit waits uncounted and is released by unleash()).
  std::vector<uint32_t> arrive(uint32_t u);
  // bar.unleashvius: releases the parked units that wait and counts every
  // parked unit from now on; sets `restart`. Returns the released units.
  std::vector<uint32_t> unleash();
  // Unit `u` finished its block for this pass. Returns the virtual IUs the
  // pass's closing release lets go (reglast set), if this was the last other
  // unit; with leave_early, otherwise the units its leaving releases.
  std::vector<uint32_t> finish(uint32_t u);
  // With leave_early: unit `u`'s program ended before its block finished (the
  // timing mesh: its last warp exited, its stores still in flight). It leaves
  // the synchronisation as finish() would; the pass ends once it finished too.
  std::vector<uint32_t> leave(uint32_t u);
  // Every participant finished: checks the pass's count against pass 0's (not with leave_early).
  void end_pass();

  uint64_t syncs() const { return syncs_; }                 // regcspillnb: synchronisations so far in this pass
  uint64_t syncs_per_pass() const { return spill_nb_; }     // regspillnb: pass 0's count (0 before it ends)
  bool restart() const { return restart_; }
  bool last() const { return last_; }                       // reglast: every unit but the virtual IUs finished
  bool waiting(uint32_t u) const { return state_[u] == State::Waiting || state_[u] == State::ParkedWaiting; }
  bool all_finished() const;
  // For a watchdog: which counted units the barrier still waits for.
  std::string describe_wait() const;

 private:
  enum class State : uint8_t { Out, Running, Waiting, Parked, ParkedWaiting, Left, Finished };
  static constexpr uint64_t kParkedToEnd = UINT64_MAX;  // finished without ever being counted
  bool counted(uint32_t u) const { return state_[u] == State::Running || state_[u] == State::Waiting; }
  std::vector<uint32_t> release_if_complete();
  bool only_virtual_left() const;             // every participant but the virtual IUs finished
  std::vector<uint32_t> closing_release();    // lets the waiting virtual IUs go with reglast set
  std::vector<uint32_t> depart(uint32_t u, State to);  // finish() and leave(): the barrier stops waiting for u
  template <class Pred>
  std::string names_if(Pred p) const {  // the units for which p(u) holds, by id
    std::string out;
    for (uint32_t u = 0; u < state_.size(); ++u)
      if (p(u)) out += (out.empty() ? "" : ", ") + names_[u];
    return out;
  }
  std::string names_in(State a, State b) const {  // units in either state
    return names_if([&](uint32_t u) { return state_[u] == a || state_[u] == b; });
  }
  std::string names_in(State s) const { return names_in(s, s); }

  std::vector<std::string> names_;
  std::vector<State> state_;
  std::vector<uint64_t> finished_at_;
  std::vector<bool> virtual_;
  uint32_t pass_ = 0;
  uint64_t syncs_ = 0, spill_nb_ = 0;
  bool leave_early_;
  bool restart_ = false, pass0_done_ = false, last_ = false;
};

}  // namespace warptlm
