// The equation system every epoch of a reward bound shares
// (check/reward_bounded.hpp): built once, its right-hand side refilled per
// epoch.
//
// In epoch unfolding a step that earns reward c leaves the epoch for the
// one c lower, and a step that earns nothing stays in it. So the unknowns
// of one epoch are linked only by their zero-reward steps (the matrix
// `stay`), and every other step of an unknown's choice is an exit whose
// value is already known when the epoch is solved: from a lower epoch, or
// from a state whose value the property fixes. The matrix and the exits are
// the same in every epoch; only the exits' values change.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "common/bitset.hpp"
#include "model/model.hpp"
#include "solver/problem.hpp"

namespace pmc {

// A step out of the epoch or out of the unknowns.
struct EpochExit {
  uint32_t target = 0;  // the model state it enters
  uint32_t reward = 0;  // the step's reward, capped at EpochProblem::reward_cap
  double probability = 0;
};

struct EpochProblem {
  static constexpr uint32_t k_not_unknown = UINT32_MAX;
  std::vector<uint32_t> states;  // unknown -> model state
  std::vector<uint32_t> index;   // model state -> unknown, or k_not_unknown
  // Each unknown's rows: its choices (MDP) or its one row (DTMC), in model
  // order; unknowns + 1 entries.
  std::vector<uint64_t> row_groups;
  SparseMatrix stay;  // per row: its zero-reward steps to unknowns, columns are unknowns
  std::vector<uint64_t> exit_offsets;  // per row: its exits are exits[exit_offsets[r], exit_offsets[r+1])
  std::vector<EpochExit> exits;
  // Per row: 1 when every step of it is a zero-reward step to an unknown
  // (no exit, nothing dropped): a choice a run can repeat forever inside
  // the epoch.
  std::vector<uint8_t> closed;
  uint32_t largest_reward = 0;  // over the exits (capped)

  uint64_t num_unknowns() const { return states.size(); }
  uint64_t num_rows() const { return row_groups.back(); }
  bool is_unknown(uint32_t state) const { return index[state] != k_not_unknown; }
};

// What build_epoch_problem needs beyond the model.
struct EpochProblemSpec {
  const Bitset* unknowns = nullptr;
  // Non-unknown states whose value may be positive in some epoch; steps into
  // other states are dropped (value 0). A zero-reward step into one of them
  // is kept only when `zero_reward_exits` (an upper bound's targets count in
  // the same epoch; a lower bound's only once the bound is reached, which a
  // step without reward never does).
  const Bitset* exit_targets = nullptr;
  bool zero_reward_exits = true;
  // Rewards above this count as this: every one of them leaves the bound's
  // range at once (bound + 1 for an upper bound, the bound for a lower one).
  uint64_t reward_cap = 0;
  // For messages: the reward structure and the column of the bound.
  size_t column = 0;
};

// Throws Error(unsupported) naming the state (and the transition) when a
// reward the epochs read is not a non-negative integer: a state reward of an
// unknown, or a transition reward of one of its steps.
EpochProblem build_epoch_problem(const Model& model, const RewardStructure& rewards, const EpochProblemSpec& spec);

// The unknowns from which some choice of theirs (the only one of a DTMC
// state) can keep the run forever among unknowns on zero-reward steps: a
// run that does never reaches another epoch nor a target, so their value is
// 0 in every epoch where the targets are not unknowns themselves. The
// greatest set in which each state has a choice whose every step is a
// zero-reward step into the set.
// Over model states.
Bitset zero_reward_traps(const EpochProblem& problem, uint64_t num_states);

// When no run can return to an unknown on zero-reward steps (the matrix
// `stay` has no cycle), the number of Bellman steps that give an epoch's
// values exactly from any start: the longest zero-reward path plus one.
// Nothing when there is a cycle.
std::optional<uint64_t> zero_reward_depth(const EpochProblem& problem);

}  // namespace pmc
