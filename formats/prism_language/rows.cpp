#include "formats/prism_language/rows.hpp"

#include <algorithm>
#include <numeric>

namespace pmc::prism_language {

uint64_t RowBlock::bytes() const {
  uint64_t rewards = 0;
  for (const std::vector<double>& r : transition_rewards) rewards += r.capacity() * sizeof(double);
  return states.capacity() * sizeof(uint32_t) + flags.capacity() + state_rows.capacity() * sizeof(uint32_t) +
         row_entries.capacity() * sizeof(uint32_t) + columns.capacity() * sizeof(uint32_t) +
         values.capacity() * sizeof(double) + actions.capacity() * sizeof(uint32_t) + rewards;
}

RowBuilder::RowBuilder(const PrismModel& program, uint32_t words, std::vector<uint32_t> reward_structures)
    : program_(program),
      words_(words),
      with_actions_(program.actions.size() > 1),
      structures_(std::move(reward_structures)) {}

double RowBuilder::transition_reward(uint32_t structure, const SuccessorGenerator& g, size_t alternative,
                                     std::span<const int32_t> values) const {
  const uint32_t action = g.action(alternative);
  double sum = 0;
  for (const TransitionRewardItem& item : program_.rewards[structure].transition_items) {
    if (item.action == action && item.guard.evaluate_bool(values)) sum += item.value.evaluate_real(values);
  }
  for (const Command* command : g.commands(alternative)) {  // empty unless the program has command rewards
    for (const CommandReward& reward : command->rewards) {
      if (reward.structure == structure) sum += reward.value.evaluate_real(values);
    }
  }
  return sum;
}

// Orders branches [first, last) by target (= by target state index: packed
// order is state order), ties by branch index so the first alternative
// reaching a target comes first.
void RowBuilder::sort_branches(const SuccessorGenerator& g, size_t first, size_t last) {
  order_.resize(last - first);
  std::iota(order_.begin(), order_.end(), first);
  std::sort(order_.begin(), order_.end(), [&](size_t a, size_t b) {
    const uint64_t* ka = g.target(a);
    const uint64_t* kb = g.target(b);
    for (uint32_t w = 0; w < words_; ++w) {
      if (ka[w] != kb[w]) return ka[w] < kb[w];
    }
    return a < b;
  });
}

void RowBuilder::add_state(uint32_t state, std::span<const int32_t> values, const SuccessorGenerator& g,
                           std::span<const uint32_t> target_ids, RowBlock& block) {
  const size_t num_structures = structures_.size();
  const size_t alternatives = g.num_alternatives();
  block.states.push_back(state);
  block.flags.push_back(0);
  block.state_rows.push_back(static_cast<uint32_t>(block.row_entries.size()));
  auto start_row = [&] { block.row_entries.push_back(static_cast<uint32_t>(block.columns.size())); };
  auto push_entry = [&](uint32_t column, double value, uint32_t action) {
    block.columns.push_back(column);
    block.values.push_back(value);
    if (with_actions_) block.actions.push_back(action);
  };
  if (alternatives == 0) {
    block.flags.back() |= RowBlock::k_deadlock;
    start_row();
    push_entry(state, 1.0, 0);
    for (size_t r = 0; r < num_structures; ++r) block.transition_rewards[r].push_back(0.0);
    return;
  }
  alternative_rewards_.resize(alternatives * num_structures);
  for (size_t a = 0; a < alternatives; ++a) {
    for (size_t r = 0; r < num_structures; ++r) {
      alternative_rewards_[a * num_structures + r] = transition_reward(structures_[r], g, a, values);
    }
  }

  if (program_.type == ModelType::mdp) {
    for (size_t a = 0; a < alternatives; ++a) {
      start_row();
      sort_branches(g, g.first_branch(a), g.last_branch(a));
      for (size_t i = 0; i < order_.size();) {
        const uint32_t target = target_ids[order_[i]];
        double p = 0;
        size_t j = i;
        for (; j < order_.size() && target_ids[order_[j]] == target; ++j) p += g.weight(order_[j]);
        push_entry(target, p, g.action(a));
        for (size_t r = 0; r < num_structures; ++r) {
          block.transition_rewards[r].push_back(alternative_rewards_[a * num_structures + r]);
        }
        i = j;
      }
    }
    return;
  }

  // DTMC / CTMC: one row of every alternative's branches.
  if (program_.type == ModelType::dtmc && alternatives > 1) block.flags.back() |= RowBlock::k_nondeterministic;
  start_row();
  const double scale = program_.type == ModelType::dtmc ? 1.0 / static_cast<double>(alternatives) : 1.0;
  alternative_of_.resize(g.num_branches());
  for (size_t a = 0; a < alternatives; ++a) {
    for (size_t b = g.first_branch(a); b < g.last_branch(a); ++b) alternative_of_[b] = static_cast<uint32_t>(a);
  }
  sort_branches(g, 0, g.num_branches());
  for (size_t i = 0; i < order_.size();) {
    const uint32_t target = target_ids[order_[i]];
    const uint32_t first_alternative = alternative_of_[order_[i]];
    double value = 0;
    size_t j = i;
    bool single_alternative = true;
    for (; j < order_.size() && target_ids[order_[j]] == target; ++j) {
      value += g.weight(order_[j]) * scale;
      single_alternative = single_alternative && alternative_of_[order_[j]] == first_alternative;
    }
    push_entry(target, value, g.action(first_alternative));
    for (size_t r = 0; r < num_structures; ++r) {
      if (single_alternative) {
        block.transition_rewards[r].push_back(alternative_rewards_[first_alternative * num_structures + r]);
        continue;
      }
      double weighted = 0;
      for (size_t k = i; k < j; ++k) {
        weighted += g.weight(order_[k]) * scale * alternative_rewards_[alternative_of_[order_[k]] * num_structures + r];
      }
      block.transition_rewards[r].push_back(weighted / value);
    }
    i = j;
  }
}

}  // namespace pmc::prism_language
