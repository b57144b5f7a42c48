#include "check/epoch_problem.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "common/error.hpp"

namespace pmc {

namespace {

// Rewards computed in doubles by a model's source (0.1·30) may miss an
// integer by a few ulps; beyond this they are not integers.
constexpr double k_integer_tolerance = 1e-9;

// `value` rounded to the integer it is, or a negative number when it is no
// non-negative integer (NaN included).
double whole(double value) {
  if (!(value >= 0) || !std::isfinite(value)) return -1;
  const double rounded = std::round(value);
  return std::fabs(value - rounded) <= k_integer_tolerance * std::max(1.0, rounded) ? rounded : -1;
}

std::string structure_name(const RewardStructure& rewards) {
  return rewards.name.empty() ? std::string("the unnamed reward structure") : "\"" + rewards.name + "\"";
}

[[noreturn]] void not_integer(const EpochProblemSpec& spec, const RewardStructure& rewards, const std::string& what,
                              double value) {
  fail(ErrorCode::unsupported,
       "column {}: reward bound over {}: the reward of {} is {}; epoch unfolding needs non-negative integer rewards",
       spec.column, structure_name(rewards), what, value);
}

}  // namespace

EpochProblem build_epoch_problem(const Model& model, const RewardStructure& rewards, const EpochProblemSpec& spec) {
  const uint64_t n = model.num_states();
  const bool mdp = model.type() == ModelType::mdp;
  const auto& groups = model.row_groups();
  const auto& offsets = model.row_offsets();
  const auto& columns = model.columns();
  const auto& values = model.values();
  const Bitset& unknowns = *spec.unknowns;
  const Bitset& targets = *spec.exit_targets;
  const auto cap = static_cast<double>(spec.reward_cap);

  EpochProblem p;
  p.index.assign(n, EpochProblem::k_not_unknown);
  for (uint64_t s = unknowns.find_next(0); s < n; s = unknowns.find_next(s + 1)) {
    p.index[s] = static_cast<uint32_t>(p.states.size());
    p.states.push_back(static_cast<uint32_t>(s));
  }
  p.row_groups.reserve(p.states.size() + 1);
  p.row_groups.push_back(0);
  p.exit_offsets.push_back(0);
  for (const uint32_t s : p.states) {
    const double state_reward = rewards.state_rewards.empty() ? 0.0 : whole(rewards.state_rewards[s]);
    if (state_reward < 0) not_integer(spec, rewards, fmt::format("state {}", s), rewards.state_rewards[s]);
    for (uint64_t r = groups[s]; r < groups[s + 1]; ++r) {
      bool closed = true;
      for (uint64_t k = offsets[r]; k < offsets[r + 1]; ++k) {
        if (values[k] == 0.0) continue;
        const uint32_t t = columns[k];
        double step = state_reward;
        if (!rewards.transition_rewards.empty()) {
          const double transition = whole(rewards.transition_rewards[k]);
          if (transition < 0) {
            not_integer(spec, rewards,
                        mdp ? fmt::format("the transition from state {} (choice {}) to state {}", s, r - groups[s], t)
                            : fmt::format("the transition from state {} to state {}", s, t),
                        rewards.transition_rewards[k]);
          }
          step += transition;
        }
        const auto reward = static_cast<uint32_t>(std::min(step, cap));
        if (reward == 0 && p.is_unknown(t)) {
          p.stay.columns.push_back(p.index[t]);
          p.stay.values.push_back(values[k]);
          continue;
        }
        closed = false;
        if (p.is_unknown(t) || (targets.test(t) && (reward > 0 || spec.zero_reward_exits))) {
          p.exits.push_back({t, reward, values[k]});
          p.largest_reward = std::max(p.largest_reward, reward);
        }
      }
      p.stay.row_offsets.push_back(p.stay.columns.size());
      p.exit_offsets.push_back(p.exits.size());
      p.closed.push_back(closed ? 1 : 0);
    }
    p.row_groups.push_back(p.stay.row_offsets.size() - 1);
  }
  return p;
}

Bitset zero_reward_traps(const EpochProblem& p, uint64_t num_states) {
  const uint64_t m = p.num_unknowns(), rows = p.num_rows();
  const auto& offsets = p.stay.row_offsets;
  // Greatest fixed point: start from every unknown, remove one without a
  // closed choice all of whose steps stay in the set, and let its removal
  // close the choices that entered it (a counter per state, the closed
  // rows by target).
  std::vector<uint32_t> owner(rows);
  std::vector<uint64_t> live(m, 0);
  for (uint64_t u = 0; u < m; ++u) {
    for (uint64_t r = p.row_groups[u]; r < p.row_groups[u + 1]; ++r) {
      owner[r] = static_cast<uint32_t>(u);
      live[u] += p.closed[r];
    }
  }
  std::vector<uint64_t> entering(m + 1, 0);  // closed rows by target, CSR
  for (uint64_t r = 0; r < rows; ++r) {
    if (!p.closed[r]) continue;
    for (uint64_t k = offsets[r]; k < offsets[r + 1]; ++k) ++entering[p.stay.columns[k] + 1];
  }
  for (uint64_t u = 0; u < m; ++u) entering[u + 1] += entering[u];
  std::vector<uint64_t> rows_entering(entering[m]);
  std::vector<uint64_t> fill(entering.begin(), entering.end() - 1);
  for (uint64_t r = 0; r < rows; ++r) {
    if (!p.closed[r]) continue;
    for (uint64_t k = offsets[r]; k < offsets[r + 1]; ++k) rows_entering[fill[p.stay.columns[k]]++] = r;
  }
  std::vector<uint8_t> in_set(m, 1), row_alive(p.closed);
  std::vector<uint32_t> removed;
  for (uint64_t u = 0; u < m; ++u) {
    if (live[u] == 0) {
      in_set[u] = 0;
      removed.push_back(static_cast<uint32_t>(u));
    }
  }
  while (!removed.empty()) {
    const uint32_t v = removed.back();
    removed.pop_back();
    for (uint64_t i = entering[v]; i < entering[v + 1]; ++i) {
      const uint64_t r = rows_entering[i];
      if (!row_alive[r]) continue;
      row_alive[r] = 0;
      const uint32_t u = owner[r];
      if (--live[u] == 0 && in_set[u]) {
        in_set[u] = 0;
        removed.push_back(u);
      }
    }
  }
  Bitset traps(num_states);
  for (uint64_t u = 0; u < m; ++u) {
    if (in_set[u]) traps.set(p.states[u]);
  }
  return traps;
}

std::optional<uint64_t> zero_reward_depth(const EpochProblem& p) {
  const uint64_t m = p.num_unknowns();
  const auto& offsets = p.stay.row_offsets;
  // Kahn's algorithm from the unknowns without zero-reward successors:
  // `level` is the longest zero-reward path from an unknown, known once all
  // its successors' are.
  std::vector<uint64_t> pending(m, 0), entering(m + 1, 0);
  for (uint64_t u = 0; u < m; ++u) {
    for (uint64_t k = offsets[p.row_groups[u]]; k < offsets[p.row_groups[u + 1]]; ++k) {
      ++pending[u];
      ++entering[p.stay.columns[k] + 1];
    }
  }
  for (uint64_t u = 0; u < m; ++u) entering[u + 1] += entering[u];
  std::vector<uint32_t> predecessors(entering[m]);
  std::vector<uint64_t> fill(entering.begin(), entering.end() - 1);
  for (uint64_t u = 0; u < m; ++u) {
    for (uint64_t k = offsets[p.row_groups[u]]; k < offsets[p.row_groups[u + 1]]; ++k) {
      predecessors[fill[p.stay.columns[k]]++] = static_cast<uint32_t>(u);
    }
  }
  std::vector<uint64_t> level(m, 0);
  std::vector<uint32_t> ready;
  for (uint64_t u = 0; u < m; ++u) {
    if (pending[u] == 0) ready.push_back(static_cast<uint32_t>(u));
  }
  uint64_t done = 0, deepest = 0;
  while (!ready.empty()) {
    const uint32_t v = ready.back();
    ready.pop_back();
    ++done;
    deepest = std::max(deepest, level[v]);
    for (uint64_t i = entering[v]; i < entering[v + 1]; ++i) {
      const uint32_t u = predecessors[i];
      level[u] = std::max(level[u], level[v] + 1);
      if (--pending[u] == 0) ready.push_back(u);
    }
  }
  if (done < m) return std::nullopt;  // the rest lie on or before a cycle
  return deepest + 1;
}

}  // namespace pmc
