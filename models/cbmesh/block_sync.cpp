#include "cbmesh/block_sync.hpp"

#include <stdexcept>

#include "common/errors.hpp"

namespace warptlm {

BlockSync::BlockSync(std::vector<std::string> unit_names, bool leave_early)
    : names_(std::move(unit_names)),
      state_(names_.size(), State::Out),
      finished_at_(names_.size(), 0),
      virtual_(names_.size(), false),
      leave_early_(leave_early) {}

void BlockSync::begin_pass(uint32_t pass, const std::vector<bool>& participant, const std::vector<bool>& parked,
                           const std::vector<bool>& virtual_unit) {
  if (participant.size() != names_.size() || parked.size() != names_.size() ||
      (!virtual_unit.empty() && virtual_unit.size() != names_.size()))
    throw std::invalid_argument("block synchronisation: one participant, parked and virtual flag per unit");
  pass_ = pass;
  syncs_ = 0;
  restart_ = false;
  last_ = false;
  for (size_t u = 0; u < names_.size(); ++u) {
    virtual_[u] = !virtual_unit.empty() && virtual_unit[u];
    if (parked[u] && !participant[u]) throw std::invalid_argument("block synchronisation: a parked unit must take part");
    state_[u] = !participant[u] ? State::Out : parked[u] ? State::Parked : State::Running;
    finished_at_[u] = 0;
  }
}

std::vector<uint32_t> BlockSync::arrive(uint32_t u) {
  // After the pass's last synchronisation only virtual IUs still loop: each is let go at once.
  if (virtual_[u] && (state_[u] == State::Running || state_[u] == State::Parked) && only_virtual_left()) {
    last_ = true;
    return {u};
  }
  switch (state_[u]) {
    case State::Running: state_[u] = State::Waiting; return release_if_complete();
    case State::Parked: state_[u] = State::ParkedWaiting; return {};
    default:
      throw RunError(names_[u] + ": bar.blocksync in pass " + std::to_string(pass_) +
                     " while not running (it does not take part, already waits, or finished)");
  }
}

bool BlockSync::only_virtual_left() const {
  for (size_t u = 0; u < state_.size(); ++u)
    if (!virtual_[u] && state_[u] != State::Out && state_[u] != State::Finished && state_[u] != State::Left)
      return false;
  return true;
}

std::vector<uint32_t> BlockSync::closing_release() {
  std::vector<uint32_t> released;
  for (uint32_t u = 0; u < state_.size(); ++u)
    if (state_[u] == State::Waiting || state_[u] == State::ParkedWaiting) {
      state_[u] = state_[u] == State::Waiting ? State::Running : State::Parked;
      released.push_back(u);
    }
  if (!released.empty()) last_ = true;
  return released;
}

std::vector<uint32_t> BlockSync::unleash() {
  restart_ = true;
  std::vector<uint32_t> released;
  for (uint32_t u = 0; u < state_.size(); ++u) {
    if (state_[u] == State::ParkedWaiting) {
      state_[u] = State::Running;
      released.push_back(u);
    } else if (state_[u] == State::Parked) {
      state_[u] = State::Running;
    }
  }
  return released;
}

std::vector<uint32_t> BlockSync::leave(uint32_t u) {
  if (!leave_early_) throw std::logic_error("block synchronisation: leave() without leave_early");
  return depart(u, State::Left);
}

std::vector<uint32_t> BlockSync::finish(uint32_t u) {
  if (state_[u] == State::Left) {  // it left already: the barrier does not wait for it
    state_[u] = State::Finished;
    return {};
  }
  return depart(u, State::Finished);
}

std::vector<uint32_t> BlockSync::depart(uint32_t u, State to) {
  if (state_[u] != State::Running && state_[u] != State::Parked)
    throw RunError(names_[u] + ": finished in pass " + std::to_string(pass_) + " while not running");
  const bool was_counted = state_[u] == State::Running;
  state_[u] = to;
  finished_at_[u] = was_counted ? syncs_ : kParkedToEnd;
  if (!virtual_[u] && only_virtual_left()) return closing_release();
  // Leaving early, the unit is no longer waited for: the others go if they all wait.
  if (leave_early_) return was_counted ? release_if_complete() : std::vector<uint32_t>{};
  // A counted unit that leaves while others wait at the barrier leaves them
  // waiting for a synchronisation it will never perform (virtual IUs wait
  // for the closing release instead).
  if (was_counted) {
    const std::string waiting = names_if([this](uint32_t w) { return state_[w] == State::Waiting && !virtual_[w]; });
    if (!waiting.empty())
      throw RunError("block synchronisation " + std::to_string(syncs_ + 1) + " of pass " + std::to_string(pass_) +
                     ": " + names_[u] + " finished after " + std::to_string(syncs_) +
                     " synchronisations while " + waiting + " wait (every block must perform the same number)");
  }
  return {};
}

void BlockSync::end_pass() {
  if (!all_finished()) throw RunError("pass " + std::to_string(pass_) + " ended early: " + describe_wait());
  if (leave_early_) {  // the counts may differ; regspillnb still reports pass 0's
    if (!pass0_done_) spill_nb_ = syncs_;
    pass0_done_ = true;
    return;
  }
  // A unit that finished before the last synchronisation was left out of it.
  for (size_t u = 0; u < state_.size(); ++u)
    if (state_[u] == State::Finished && finished_at_[u] != kParkedToEnd && finished_at_[u] != syncs_)
      throw RunError("pass " + std::to_string(pass_) + ": " + names_[u] + " finished after " +
                     std::to_string(finished_at_[u]) + " block synchronisations, the pass performed " +
                     std::to_string(syncs_) + " (every block must perform the same number)");
  if (!pass0_done_) {
    spill_nb_ = syncs_;
    pass0_done_ = true;
    return;
  }
  if (syncs_ != spill_nb_)
    throw RunError("pass " + std::to_string(pass_) + " performed " + std::to_string(syncs_) +
                   " block synchronisations, pass 0 performed " + std::to_string(spill_nb_) +
                   " (regspillnb: every pass must perform as many)");
}

bool BlockSync::all_finished() const {
  for (State s : state_)
    if (s != State::Out && s != State::Finished) return false;
  return true;
}

std::vector<uint32_t> BlockSync::release_if_complete() {
  bool any_waiting = false;
  for (State s : state_) {
    if (s == State::Running) return {};  // a counted unit has not arrived
    any_waiting |= s == State::Waiting;
  }
  if (!any_waiting) return {};
  std::vector<uint32_t> released;
  for (uint32_t u = 0; u < state_.size(); ++u)
    if (state_[u] == State::Waiting) {
      state_[u] = State::Running;
      released.push_back(u);
    }
  ++syncs_;
  return released;
}

std::string BlockSync::describe_wait() const {
  const std::string running = names_in(State::Running), waiting = names_in(State::Waiting);
  std::string s = "block synchronisation " + std::to_string(syncs_ + 1) + " of pass " + std::to_string(pass_) + ": ";
  s += running.empty() ? "nobody missing" : "waiting for " + running;
  if (!waiting.empty()) s += " (arrived: " + waiting + ")";
  const std::string parked = names_in(State::ParkedWaiting, State::Parked);
  if (!parked.empty()) s += "; parked, not counted: " + parked;
  return s;
}

}  // namespace warptlm
