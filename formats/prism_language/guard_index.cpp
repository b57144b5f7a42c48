#include "formats/prism_language/guard_index.hpp"

#include <algorithm>
#include <limits>

namespace pmc::prism_language {

namespace {

// Below this many commands a list is evaluated whole; at most this many
// levels of splits, over variables of at most this many values.
constexpr size_t k_smallest_split = 4;
constexpr int k_deepest = 3;
constexpr int64_t k_widest_variable = 4096;
// Commands listed over all leaves (a command unconstrained by a split is
// listed under each of its values): at most this many, 512 KB of pointers
// per generator (one per thread).
constexpr double k_listed_budget = 1 << 16;

// The range a command's guard needs `variable` in, or the variable's own.
std::pair<int64_t, int64_t> needed_range(const Command& command, uint32_t variable, const Variable& declared) {
  for (const expression::VariableRange& r : command.guard.necessary_ranges()) {
    if (r.variable == variable) return {std::max<int64_t>(r.lower, declared.lower), std::min<int64_t>(r.upper, declared.upper)};
  }
  return {declared.lower, declared.upper};
}

}  // namespace

GuardIndex::GuardIndex(const std::vector<const Command*>& commands, const std::vector<Variable>& variables,
                       const std::vector<uint32_t>& tags) {
  std::vector<Entry> entries;
  entries.reserve(commands.size());
  for (size_t i = 0; i < commands.size(); ++i) entries.push_back({commands[i], i < tags.size() ? tags[i] : 0});
  build(std::move(entries), variables, 0);
}

uint32_t GuardIndex::build(std::vector<Entry> commands, const std::vector<Variable>& variables, int depth) {
  const auto index = static_cast<uint32_t>(nodes_.size());
  nodes_.emplace_back();
  // The variable whose split leaves the fewest candidates per value on
  // average (each command counted once per value its range admits).
  int32_t best = -1;
  double best_average = static_cast<double>(commands.size());
  if (commands.size() >= k_smallest_split && depth < k_deepest) {
    std::vector<uint32_t> constrained;
    for (const Entry& c : commands) {
      for (const expression::VariableRange& r : c.command->guard.necessary_ranges()) {
        if (std::find(constrained.begin(), constrained.end(), r.variable) == constrained.end()) {
          constrained.push_back(r.variable);
        }
      }
    }
    for (const uint32_t v : constrained) {
      const Variable& declared = variables[v];
      const int64_t width = int64_t{declared.upper} - declared.lower + 1;
      if (width < 2 || width > k_widest_variable) continue;
      double admitted = 0;
      for (const Entry& c : commands) {
        const auto [lo, hi] = needed_range(*c.command, v, declared);
        admitted += static_cast<double>(std::max<int64_t>(0, hi - lo + 1));
      }
      const double average = admitted / static_cast<double>(width);
      if (average < best_average) {
        best_average = average;
        best = static_cast<int32_t>(v);
      }
    }
  }
  // Split only where it leaves at most three quarters of the commands per
  // value, and while the listed commands stay within the budget.
  const double listed = best < 0 ? 0 : best_average * (int64_t{variables[static_cast<uint32_t>(best)].upper} -
                                                       variables[static_cast<uint32_t>(best)].lower + 1);
  if (best < 0 || best_average > 0.75 * static_cast<double>(commands.size()) || listed_ + listed > k_listed_budget) {
    listed_ += static_cast<double>(commands.size());
    nodes_[index].commands = std::move(commands);
    return index;
  }
  const Variable& declared = variables[static_cast<uint32_t>(best)];
  std::vector<uint32_t> children;
  for (int64_t value = declared.lower; value <= declared.upper; ++value) {
    std::vector<Entry> part;
    for (const Entry& c : commands) {
      const auto [lo, hi] = needed_range(*c.command, static_cast<uint32_t>(best), declared);
      if (lo <= value && value <= hi) part.push_back(c);
    }
    children.push_back(build(std::move(part), variables, depth + 1));
  }
  nodes_[index].variable = best;
  nodes_[index].lower = declared.lower;
  nodes_[index].children = std::move(children);
  return index;
}

std::span<const GuardIndex::Entry> GuardIndex::candidates(std::span<const int32_t> values) const {
  if (nodes_.empty()) return {};
  const Node* node = &nodes_[0];
  while (node->variable >= 0) {
    // A value outside the declared range (never in an explored state) finds nothing.
    const int64_t slot = int64_t{values[static_cast<uint32_t>(node->variable)]} - node->lower;
    if (slot < 0 || slot >= static_cast<int64_t>(node->children.size())) return {};
    node = &nodes_[node->children[static_cast<size_t>(slot)]];
  }
  return node->commands;
}

}  // namespace pmc::prism_language
