#include "formats/prism_language/rows.hpp"

#include <algorithm>
#include <numeric>

namespace pmc::prism_language {

RowBuilder::RowBuilder(const PrismModel& program, const StateSet& states, std::vector<uint32_t> reward_structures)
    : program_(program), states_(states), words_(states.words()), structures_(std::move(reward_structures)) {}

double RowBuilder::transition_reward(uint32_t structure, uint32_t action, std::span<const int32_t> values) const {
  double sum = 0;
  for (const TransitionRewardItem& item : program_.rewards[structure].transition_items) {
    if (item.action == action && item.guard.evaluate_bool(values)) sum += item.value.evaluate_real(values);
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

void RowBuilder::add_state(uint64_t state, std::span<const int32_t> values, const SuccessorGenerator& g,
                           RowBlock& block) {
  const size_t num_structures = structures_.size();
  const size_t alternatives = g.num_alternatives();
  auto push_entry = [&](uint32_t column, double value, uint32_t action) {
    block.columns.push_back(column);
    block.values.push_back(value);
    block.actions.push_back(action);
  };
  if (alternatives == 0) {
    if (block.deadlocks++ == 0) block.first_deadlock = state;
    if (program_.type == ModelType::mdp) block.choices_per_state.push_back(1);
    block.entries_per_row.push_back(1);
    push_entry(static_cast<uint32_t>(state), 1.0, 0);
    for (size_t r = 0; r < num_structures; ++r) block.transition_rewards[r].push_back(0.0);
    return;
  }
  alternative_rewards_.resize(alternatives * num_structures);
  for (size_t a = 0; a < alternatives; ++a) {
    for (size_t r = 0; r < num_structures; ++r) {
      alternative_rewards_[a * num_structures + r] = transition_reward(structures_[r], g.action(a), values);
    }
  }

  if (program_.type == ModelType::mdp) {
    block.choices_per_state.push_back(static_cast<uint32_t>(alternatives));
    for (size_t a = 0; a < alternatives; ++a) {
      sort_branches(g, g.first_branch(a), g.last_branch(a));
      size_t entries = 0;
      for (size_t i = 0; i < order_.size();) {
        const uint64_t* key = g.target(order_[i]);
        double p = 0;
        size_t j = i;
        for (; j < order_.size() && packed_equal(g.target(order_[j]), key, words_); ++j) p += g.weight(order_[j]);
        push_entry(states_.index_of(key), p, g.action(a));
        for (size_t r = 0; r < num_structures; ++r) {
          block.transition_rewards[r].push_back(alternative_rewards_[a * num_structures + r]);
        }
        ++entries;
        i = j;
      }
      block.entries_per_row.push_back(static_cast<uint32_t>(entries));
    }
    return;
  }

  // DTMC / CTMC: one row of every alternative's branches.
  if (program_.type == ModelType::dtmc && alternatives > 1) {
    if (block.nondeterministic++ == 0) block.first_nondeterministic = state;
  }
  const double scale = program_.type == ModelType::dtmc ? 1.0 / static_cast<double>(alternatives) : 1.0;
  alternative_of_.resize(g.num_branches());
  for (size_t a = 0; a < alternatives; ++a) {
    for (size_t b = g.first_branch(a); b < g.last_branch(a); ++b) alternative_of_[b] = static_cast<uint32_t>(a);
  }
  sort_branches(g, 0, g.num_branches());
  size_t entries = 0;
  for (size_t i = 0; i < order_.size();) {
    const uint64_t* key = g.target(order_[i]);
    const uint32_t first_alternative = alternative_of_[order_[i]];
    double value = 0;
    size_t j = i;
    bool single_alternative = true;
    for (; j < order_.size() && packed_equal(g.target(order_[j]), key, words_); ++j) {
      value += g.weight(order_[j]) * scale;
      single_alternative = single_alternative && alternative_of_[order_[j]] == first_alternative;
    }
    push_entry(states_.index_of(key), value, g.action(first_alternative));
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
    ++entries;
    i = j;
  }
  block.entries_per_row.push_back(static_cast<uint32_t>(entries));
}

}  // namespace pmc::prism_language
