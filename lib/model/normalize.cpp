#include "model/normalize.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_set>

#include "common/error.hpp"
#include "model/validation.hpp"

namespace pmc {
namespace {

template <typename... Args>
[[noreturn]] void model_error(fmt::format_string<Args...> format, Args&&... args) {
  fail(ErrorCode::model, format, std::forward<Args>(args)...);
}

// The least i in [0, n) for which bad(i) holds, or n. The checks scan every
// entry of models of hundreds of millions (consensus N=8: 8.6 s on one core
// of a 44 s check); on every core, and where one fails, the serial check of
// that index throws the message it always did.
template <typename Bad>
uint64_t first_where(uint64_t n, Bad bad) {
  auto first = static_cast<int64_t>(n);
#pragma omp parallel for schedule(static, 16384) reduction(min : first) if (n > (uint64_t{1} << 16))
  for (int64_t i = 0; i < static_cast<int64_t>(n); ++i) {
    if (i < first && bad(static_cast<uint64_t>(i))) first = i;
  }
  return static_cast<uint64_t>(first);
}

// The first row of `state`'s group and one past its last.
std::pair<uint64_t, uint64_t> group_of(const ModelParts& p, uint64_t state) {
  return {p.row_groups[state], p.row_groups[state + 1]};
}

template <typename T>
void check_monotone(const std::vector<T>& v, std::string_view what) {
  if (v.size() < 2) return;
  const uint64_t i = first_where(v.size() - 1, [&](uint64_t k) { return v[k + 1] < v[k]; }) + 1;
  if (i < v.size()) model_error("{} decrease at index {} ({} after {})", what, i, v[i], v[i - 1]);
}

// Sizes and offsets must be consistent before any entry is looked at.
void validate_structure(ModelParts& p) {
  const uint64_t n = p.num_states;
  if (n == 0) model_error("a model needs at least one state");
  if (n > k_max_states) model_error("{} states exceed pmc's limit of {} (32-bit column indices)", n, k_max_states);
  if (p.row_offsets.empty()) model_error("row offsets are missing: expected num_rows+1 entries");
  const uint64_t rows = p.num_rows();
  if (p.type == ModelType::mdp) {
    if (p.row_groups.size() != n + 1) {
      model_error("an MDP needs num_states+1 row-group offsets, got {} for {} states", p.row_groups.size(), n);
    }
    if (p.row_groups.front() != 0) model_error("row groups must start at row 0, not {}", p.row_groups.front());
    if (p.row_groups.back() != rows) {
      model_error("row groups end at row {} but the matrix has {} rows", p.row_groups.back(), rows);
    }
    check_monotone(p.row_groups, "row-group offsets");
  } else {
    if (rows != n) model_error("a {} has one row per state: {} rows for {} states", to_string(p.type), rows, n);
    if (!p.row_groups.empty()) {
      for (uint64_t s = 0; s < p.row_groups.size(); ++s) {
        if (p.row_groups.size() != n + 1 || p.row_groups[s] != s) {
          model_error("a {} has one row per state; leave the row groups out", to_string(p.type));
        }
      }
    } else {
      p.row_groups.resize(n + 1);
      std::iota(p.row_groups.begin(), p.row_groups.end(), uint64_t{0});
    }
  }
  if (p.row_offsets.front() != 0) model_error("row offsets must start at 0, not {}", p.row_offsets.front());
  check_monotone(p.row_offsets, "row offsets");
  const uint64_t nnz = p.columns.size();
  if (p.row_offsets.back() != nnz) {
    model_error("row offsets end at {} but there are {} column indices", p.row_offsets.back(), nnz);
  }
  if (p.values.size() != nnz) model_error("{} values for {} column indices", p.values.size(), nnz);
  if (p.type == ModelType::pctmc) {
    if (p.parameters.empty()) model_error("a parametric CTMC needs at least one parameter");
    if (p.coefficients.size() != nnz * p.parameters.size()) {
      model_error("{} parameter coefficients, expected {} ({} entries × {} parameters)", p.coefficients.size(),
                  nnz * p.parameters.size(), nnz, p.parameters.size());
    }
  } else if (!p.parameters.empty() || !p.coefficients.empty()) {
    model_error("only a parametric CTMC (pctmc) has parameters; this model is a {}", to_string(p.type));
  }
  if (!p.entry_actions.empty() && p.entry_actions.size() != nnz) {
    model_error("{} entry actions for {} entries", p.entry_actions.size(), nnz);
  }
  for (const RewardStructure& r : p.rewards) {
    if (!r.state_rewards.empty() && r.state_rewards.size() != n) {
      model_error("reward structure \"{}\": {} state rewards for {} states", r.name, r.state_rewards.size(), n);
    }
    if (!r.transition_rewards.empty() && r.transition_rewards.size() != nnz) {
      model_error("reward structure \"{}\": {} transition rewards for {} transitions", r.name,
                  r.transition_rewards.size(), nnz);
    }
  }
}

template <typename T>
std::vector<T> remap(const std::vector<T>& old, const std::vector<int64_t>& source, uint64_t stride = 1) {
  std::vector<T> out(source.size() * stride, T{});
  for (size_t j = 0; j < source.size(); ++j) {
    if (source[j] < 0) continue;
    std::copy_n(old.begin() + static_cast<int64_t>(static_cast<uint64_t>(source[j]) * stride), stride,
                out.begin() + static_cast<int64_t>(j * stride));
  }
  return out;
}

}  // namespace

std::string describe_row_of(const ModelParts& p, uint64_t row) {
  if (p.type != ModelType::mdp || p.row_groups.size() != p.num_states + 1) return fmt::format("state {}", row);
  auto it = std::upper_bound(p.row_groups.begin(), p.row_groups.end(), row);
  uint64_t state = static_cast<uint64_t>(it - p.row_groups.begin()) - 1;
  return fmt::format("state {}, choice {}", state, row - p.row_groups[state]);
}

void clear_zero_rewards(RewardStructure& r) {
  auto all_zero = [](const std::vector<double>& v) {
    return first_where(v.size(), [&](uint64_t i) { return v[i] != 0.0; }) == v.size();
  };
  if (all_zero(r.state_rewards)) r.state_rewards.clear();
  if (all_zero(r.transition_rewards)) r.transition_rewards.clear();
}

bool normalize_model_parts(ModelParts& p, const ModelOptions& options) {
  validate_structure(p);
  for (RewardStructure& r : p.rewards) clear_zero_rewards(r);
  const uint64_t n = p.num_states;
  const uint64_t num_params = p.parameters.size();
  auto is_zero = [&](uint64_t e) {
    if (p.values[e] != 0.0) return false;
    for (uint64_t k = 0; k < num_params; ++k) {
      if (p.coefficients[e * num_params + k] != 0.0) return false;
    }
    return true;
  };
  auto is_deadlock = [&](uint64_t state) {
    auto [first, last] = group_of(p, state);
    if (p.type == ModelType::mdp) return first == last;
    return p.type == ModelType::dtmc && p.row_offsets[first] == p.row_offsets[first + 1];
  };

  // A quick pass decides whether anything has to be rewritten: whether
  // state s needs it, or (with `report`) the first error in its rows
  // thrown, else `error` set.
  auto scan_state = [&](uint64_t s, bool report, bool& error) {
    bool rewrite_state = false;
    auto [first_row, last_row] = group_of(p, s);
    for (uint64_t r = first_row; r < last_row; ++r) {
      const uint64_t begin = p.row_offsets[r], end = p.row_offsets[r + 1];
      if (begin == end && p.type == ModelType::mdp) {
        if (report) model_error("{}: the choice has no transitions", describe_row_of(p, r));
        error = true;
      }
      for (uint64_t e = begin; e < end; ++e) {
        if (p.columns[e] >= n) {
          if (report) {
            model_error("{}: transition to state {}, but the model has {} states", describe_row_of(p, r),
                        p.columns[e], n);
          }
          error = true;
        }
        if (e > begin && p.columns[e] <= p.columns[e - 1]) {
          if (p.columns[e] == p.columns[e - 1]) {
            if (report) {
              model_error("{}: duplicate transition to state {} (give each target once)", describe_row_of(p, r),
                          p.columns[e]);
            }
            error = true;
          }
          rewrite_state = true;
        }
        if (is_zero(e)) rewrite_state = true;
      }
    }
    return rewrite_state;
  };
  bool rewrite = false;
  uint64_t deadlocks = 0;
  auto first_deadlock_index = static_cast<int64_t>(n), first_error = static_cast<int64_t>(n);
#pragma omp parallel for schedule(static, 16384) reduction(|| : rewrite) reduction(+ : deadlocks) \
    reduction(min : first_deadlock_index, first_error) if (n > (uint64_t{1} << 16))
  for (int64_t i = 0; i < static_cast<int64_t>(n); ++i) {
    const auto s = static_cast<uint64_t>(i);
    if (is_deadlock(s)) {
      ++deadlocks;
      first_deadlock_index = std::min(first_deadlock_index, i);
      rewrite = true;
    }
    bool error = false;
    if (scan_state(s, false, error)) rewrite = true;
    if (error) first_error = std::min(first_error, i);
  }
  if (first_error < static_cast<int64_t>(n)) {
    bool error = false;
    scan_state(static_cast<uint64_t>(first_error), true, error);  // throws
  }
  const auto first_deadlock = static_cast<uint64_t>(first_deadlock_index);
  if (deadlocks > 0 && options.strict) {
    model_error("{} state(s) have no outgoing transitions (first: state {}); strict loading rejects deadlocks",
                deadlocks, first_deadlock);
  }
  if (!rewrite) return false;

  // Rebuild the matrix; `source` maps each new entry to its old one (-1 for
  // an added self-loop) so every per-entry array can follow.
  const uint64_t nnz = p.columns.size();
  std::vector<uint64_t> offsets{0}, groups;
  std::vector<uint32_t> columns;
  std::vector<double> values;
  std::vector<int64_t> source;
  offsets.reserve(p.num_rows() + deadlocks + 1);
  columns.reserve(nnz + deadlocks);
  values.reserve(nnz + deadlocks);
  source.reserve(nnz + deadlocks);
  groups.reserve(n + 1);
  std::vector<uint64_t> order;
  uint64_t dropped = 0, dropped_rewards = 0;
  auto carries_reward = [&](uint64_t e) {
    return std::any_of(p.rewards.begin(), p.rewards.end(), [&](const RewardStructure& r) {
      return !r.transition_rewards.empty() && r.transition_rewards[e] != 0.0;
    });
  };
  for (uint64_t s = 0; s < n; ++s) {
    groups.push_back(offsets.size() - 1);
    if (is_deadlock(s)) {
      columns.push_back(static_cast<uint32_t>(s));
      values.push_back(1.0);
      source.push_back(-1);
      offsets.push_back(columns.size());
      continue;
    }
    auto [first_row, last_row] = group_of(p, s);
    for (uint64_t r = first_row; r < last_row; ++r) {
      const uint64_t begin = p.row_offsets[r], end = p.row_offsets[r + 1];
      order.resize(end - begin);
      std::iota(order.begin(), order.end(), begin);
      std::stable_sort(order.begin(), order.end(), [&](uint64_t a, uint64_t b) { return p.columns[a] < p.columns[b]; });
      for (size_t i = 0; i < order.size(); ++i) {
        const uint64_t e = order[i];
        if (i > 0 && p.columns[e] == p.columns[order[i - 1]]) {
          model_error("{}: duplicate transition to state {} (give each target once)", describe_row_of(p, r),
                      p.columns[e]);
        }
        if (is_zero(e)) {
          ++dropped;
          if (carries_reward(e)) ++dropped_rewards;
          continue;
        }
        columns.push_back(p.columns[e]);
        values.push_back(p.values[e]);
        source.push_back(static_cast<int64_t>(e));
      }
      offsets.push_back(columns.size());
    }
  }
  groups.push_back(offsets.size() - 1);

  if (num_params > 0) p.coefficients = remap(p.coefficients, source, num_params);
  if (!p.entry_actions.empty()) p.entry_actions = remap(p.entry_actions, source);
  for (RewardStructure& r : p.rewards) {
    if (!r.transition_rewards.empty()) r.transition_rewards = remap(r.transition_rewards, source);
  }
  p.columns = std::move(columns);
  p.values = std::move(values);
  p.row_offsets = std::move(offsets);
  p.row_groups = std::move(groups);

  if (deadlocks > 0) {
    p.warnings.push_back(fmt::format(
        "{} state(s) had no outgoing transitions (first: state {}) and got a self-loop, as PRISM does; "
        "load strictly to reject them",
        deadlocks, first_deadlock));
  }
  // Storm keeps such a transition and its reward; dropping both
  // gives the same values (a transition never taken earns nothing) and keeps
  // the graph algorithms from seeing an edge that is not there.
  if (dropped > 0) {
    p.warnings.push_back(
        dropped_rewards == 0
            ? fmt::format("dropped {} transition(s) whose value is 0", dropped)
            : fmt::format("dropped {} transition(s) whose value is 0, with the transition rewards of {} of them (a "
                          "transition that is never taken earns nothing)",
                          dropped, dropped_rewards));
  }
  return true;
}

void validate_labels(const ModelParts& p) {
  std::unordered_set<std::string_view> seen;
  for (const Label& label : p.labels) {
    if (auto problem = name_problem(label.name, "label", false); !problem.empty()) model_error("{}", problem);
    if (!seen.insert(label.name).second) model_error("label \"{}\" is defined twice", label.name);
    if (label.states.size() != p.num_states) {
      model_error("label \"{}\" covers {} states but the model has {}", label.name, label.states.size(),
                  p.num_states);
    }
  }
}

void validate_rewards(const ModelParts& p) {
  std::unordered_set<std::string_view> seen;
  for (const RewardStructure& r : p.rewards) {
    if (auto problem = name_problem(r.name, "reward structure", true); !problem.empty()) model_error("{}", problem);
    // PRISM allows several unnamed structures (selected by index); names that
    // are given must be unique.
    if (!r.name.empty() && !seen.insert(r.name).second) {
      model_error("reward structure \"{}\" is defined twice", r.name);
    }
    if (!r.state_rewards.empty() && r.state_rewards.size() != p.num_states) {
      model_error("reward structure \"{}\": {} state rewards for {} states", r.name, r.state_rewards.size(),
                  p.num_states);
    }
    if (!r.transition_rewards.empty() && r.transition_rewards.size() != p.num_entries()) {
      model_error("reward structure \"{}\": {} transition rewards for {} transitions", r.name,
                  r.transition_rewards.size(), p.num_entries());
    }
    const std::vector<double>& state = r.state_rewards;
    if (const uint64_t s = first_where(state.size(), [&](uint64_t i) { return !std::isfinite(state[i]); });
        s < state.size()) {
      model_error("reward structure \"{}\": state {} has reward {}", r.name, s, state[s]);
    }
    const std::vector<double>& transition = r.transition_rewards;
    if (const uint64_t e = first_where(transition.size(), [&](uint64_t i) { return !std::isfinite(transition[i]); });
        e < transition.size()) {
      model_error("reward structure \"{}\": transition {} has reward {}", r.name, e, transition[e]);
    }
  }
}

namespace {

void validate_values(const ModelParts& p, const ModelOptions& options) {
  const uint64_t num_params = p.parameters.size();
  // Row r's check: throws (with `report`) or answers false at its first problem.
  auto check_row = [&](uint64_t r, bool report) {
    double sum = 0.0;
    for (uint64_t e = p.row_offsets[r]; e < p.row_offsets[r + 1]; ++e) {
      if (p.type == ModelType::pctmc) {
        // The affine rate c + Σ a_k p_k is smallest at a corner of the box.
        double lowest = p.values[e];
        bool finite = std::isfinite(lowest);
        for (uint64_t k = 0; k < num_params; ++k) {
          const double a = p.coefficients[e * num_params + k];
          finite = finite && std::isfinite(a);
          const Parameter& par = p.parameters[k];
          lowest += a >= 0 ? a * par.lower : (std::isinf(par.upper) ? -INFINITY : a * par.upper);
        }
        if (!finite) {
          if (!report) return false;
          model_error("{}: rate to state {} has a non-finite coefficient", describe_row_of(p, r), p.columns[e]);
        }
        if (lowest < 0) {
          if (!report) return false;
          model_error("{}: rate to state {} can be negative within the parameters' ranges", describe_row_of(p, r),
                      p.columns[e]);
        }
        continue;
      }
      if (!report) {
        // entry_value_problem's test, its message formatted only for the row reported.
        const double v = p.values[e];
        if (!std::isfinite(v) || v < 0.0 || (has_probability_rows(p.type) && v > 1.0)) return false;
      } else if (auto problem = entry_value_problem(p.type, p.values[e]); !problem.empty()) {
        model_error("{}: transition to state {}: {}", describe_row_of(p, r), p.columns[e], problem);
      }
      sum += p.values[e];
    }
    if (has_probability_rows(p.type)) {
      if (auto problem = row_sum_problem(sum, options.row_sum_tolerance); !problem.empty()) {
        if (!report) return false;
        model_error("{}: {}", describe_row_of(p, r), problem);
      }
    }
    return true;
  };
  const uint64_t bad = first_where(p.num_rows(), [&](uint64_t r) { return !check_row(r, false); });
  if (bad < p.num_rows()) check_row(bad, true);  // throws
}

void validate_parameters(const ModelParts& p) {
  std::unordered_set<std::string_view> seen;
  for (const Parameter& par : p.parameters) {
    if (auto problem = name_problem(par.name, "parameter", false); !problem.empty()) model_error("{}", problem);
    if (!seen.insert(par.name).second) model_error("parameter \"{}\" is declared twice", par.name);
    if (!(par.lower <= par.upper) || !std::isfinite(par.lower) || std::isnan(par.upper)) {
      model_error("parameter \"{}\" has an invalid range [{}, {}]", par.name, par.lower, par.upper);
    }
  }
}

void validate_actions(const ModelParts& p) {
  if (p.entry_actions.empty() && p.action_names.empty()) return;
  if (p.action_names.empty() || !p.action_names.front().empty()) {
    model_error("action names must start with the empty name (index 0 = no action)");
  }
  std::unordered_set<std::string_view> seen;
  for (size_t i = 1; i < p.action_names.size(); ++i) {
    if (auto problem = name_problem(p.action_names[i], "action", false); !problem.empty()) model_error("{}", problem);
    if (!seen.insert(p.action_names[i]).second) model_error("action \"{}\" is named twice", p.action_names[i]);
  }
  const std::vector<uint32_t>& actions = p.entry_actions;
  if (const uint64_t e = first_where(actions.size(), [&](uint64_t i) { return actions[i] >= p.action_names.size(); });
      e < actions.size()) {
    model_error("transition {} has action index {} but only {} actions are named", e, actions[e],
                p.action_names.size());
  }
}

void validate_valuations(const ModelParts& p) {
  const StateValuations& v = p.valuations;
  if (v.empty() && v.num_states() == 0) return;
  if (v.is_bool.size() != v.variables.size()) model_error("state valuations: one type flag per variable needed");
  if (!v.consistent()) model_error("state valuations: the packed values do not match the {} variables", v.variables.size());
  std::unordered_set<std::string_view> seen;
  for (const std::string& name : v.variables) {
    if (name.empty() || name.find_first_of(",() \t") != std::string::npos) {
      model_error("state valuations: invalid variable name {}", quote_for_message(name));
    }
    if (!seen.insert(name).second) model_error("state valuations: variable \"{}\" appears twice", name);
  }
  if (v.num_states() != p.num_states) {
    model_error("state valuations: values for {} states, but the model has {}", v.num_states(), p.num_states);
  }
}

void validate_state_bytes(const ModelParts& p) {
  if (p.state_bytes.empty()) return;
  if (p.state_bytes.num_states() != p.num_states) {
    model_error("state bytes: {} states have bytes, but the model has {}", p.state_bytes.num_states(), p.num_states);
  }
}

}  // namespace

void validate_model_parts(const ModelParts& p, const ModelOptions& options) {
  validate_parameters(p);
  validate_values(p, options);
  validate_actions(p);
  validate_labels(p);
  validate_rewards(p);
  validate_valuations(p);
  validate_state_bytes(p);
}

}  // namespace pmc
