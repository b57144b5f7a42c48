// Turning one state's alternatives (successors.hpp) into matrix rows, as
// PRISM's explicit engine does for each model type (explicit.ConstructModel):
//
//  - MDP: every alternative is a choice; branches of a choice that reach
//    the same state are one transition (probabilities summed).
//  - DTMC: the alternatives are resolved uniformly at random, each weighted
//    1/(number of alternatives) (PRISM divides by the number of choices),
//    and all branches to the same state are summed into one entry.
//  - CTMC: the rates of all alternatives to the same state are summed.
//
// A state without alternatives is a deadlock: it gets a self-loop of
// probability (CTMC: rate) 1 without an action, as PRISM's findDeadlocks(fix).
//
// Transition rewards: an MDP choice earns, on each of its entries, the sum
// of the items `[a] g : r` whose action is the choice's and whose guard
// holds in the source state, plus the rewards of the commands it combines
// (Command::rewards, JANI's edges; successors.hpp records them). A DTMC/CTMC entry merged from several
// alternatives earns their rewards weighted by each alternative's share of
// the entry's probability (rate) — the expected reward of taking that
// transition; from one alternative (every manifest model) it is exactly
// that alternative's reward, as in PRISM's `.trew` export. A merged entry's
// action is that of the first alternative reaching it, in PRISM's order.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "formats/prism_language/prism_model.hpp"
#include "formats/prism_language/row_block.hpp"
#include "formats/prism_language/successors.hpp"

namespace pmc::prism_language {

class RowBuilder {
 public:
  // `reward_structures`: indices into program.rewards of the structures with
  // transition rewards (transition_reward_structures; RowBlock::
  // transition_rewards follows this order).
  RowBuilder(const PrismModel& program, uint32_t words, std::vector<uint32_t> reward_structures);

  // Appends the rows of the state with discovery id `state` (whose
  // successors `generator` has just expanded from `values`; `target_ids`:
  // each branch's target's discovery id) to `block`.
  void add_state(uint32_t state, std::span<const int32_t> values, const SuccessorGenerator& generator,
                 std::span<const uint32_t> target_ids, RowBlock& block);

 private:
  double transition_reward(uint32_t structure, const SuccessorGenerator& generator, size_t alternative,
                           std::span<const int32_t> values) const;
  void sort_branches(const SuccessorGenerator& generator, size_t first, size_t last);

  const PrismModel& program_;
  uint32_t words_;
  bool with_actions_;  // whether the program names actions: else no action is recorded
  std::vector<uint32_t> structures_;
  std::vector<size_t> order_;
  std::vector<double> scaled_;
  std::vector<uint32_t> alternative_of_;
  std::vector<double> alternative_rewards_;  // alternatives × structures
};

}  // namespace pmc::prism_language
