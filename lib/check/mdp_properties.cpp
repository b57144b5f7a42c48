// Pmin/Pmax and Rmin/Rmax of MDPs (Berger 2014 §2.4–2.7): graph
// precomputation decides the states with value 0, 1 or ∞, value iteration
// solves the rest, and an optimal memoryless scheduler is extracted.
#include <algorithm>

#include "check/computations.hpp"
#include "check/mdp_problems.hpp"
#include "common/error.hpp"
#include "graph/bitset_ops.hpp"
#include "graph/mdp_precomputation.hpp"
#include "graph/reachability.hpp"
#include "solver/convergence.hpp"
#include "solver/parallel.hpp"

namespace pmc {

namespace {

namespace bits = graph::bits;
using Phase = CheckContext::Phase;

int threads(const CheckContext& ctx) { return solver_threads(ctx.options().settings); }
using property::PathFormula;
using property::PathKind;
using property::RewardFormula;
using property::RewardKind;

Bitset states_with_status(const std::vector<uint8_t>& status, uint8_t wanted) {
  Bitset set(status.size());
  for (uint64_t s = 0; s < status.size(); ++s) {
    if (status[s] == wanted) set.set(s);
  }
  return set;
}

std::vector<double> indicator(const Bitset& set) {
  std::vector<double> v(set.size(), 0.0);
  bits::for_each_set(set, [&](uint64_t s) { v[s] = 1.0; });
  return v;
}

uint64_t step_bound(const property::Number& n, size_t column) {
  if (!n.is_integer) {
    fail(ErrorCode::property, "column {}: an MDP has discrete time: the bound {} must be an integer number of steps",
         column, property::to_string(n));
  }
  return static_cast<uint64_t>(n.value);
}

// Writes the solution of `mdp_problem` into `values` (and bounds, choices).
void scatter(const MdpProblem& mp, const Bitset& unknowns, const MinMaxSolution& solution, std::vector<double>& values,
             ResultExtras& extras, const Model& model) {
  const bool bounds = !solution.upper.empty();
  if (bounds) {
    if (extras.lower.empty()) extras.lower = values;
    if (extras.upper.empty()) extras.upper = values;
  }
  bits::for_each_set(unknowns, [&](uint64_t s) {
    const uint32_t u = mp.index[s];
    if (bounds) {
      extras.lower[s] = solution.x[u];
      extras.upper[s] = solution.upper[u];
      values[s] = bounds_midpoint(solution.x[u], solution.upper[u]);
    } else {
      values[s] = solution.x[u];
    }
    if (!extras.scheduler.empty() && u < solution.choice.size()) {
      const uint64_t row = mp.row_of(u, solution.choice[u]);
      extras.scheduler[s] = static_cast<int64_t>(row - model.row_groups()[s]);
    }
  });
}

// Pmax needs a scheduler that keeps moving towards the goal, not any
// choice attaining the value (Berger 2014 §2.5): an end component can
// attain it too while never reaching ψ. Among the optimal choices, pick by a
// backward search from ψ the one through which a state was first reached.
void progressing_max_choices(const Model& model, const graph::TransposedGraph& transposed, const Bitset& target,
                             const Bitset& decided_zero, const std::vector<double>& values,
                             std::vector<int64_t>& scheduler, double tolerance) {
  const auto& groups = model.row_groups();
  const auto& offsets = model.row_offsets();
  // Whether a row is optimal (its value within tolerance of its state's
  // value) is decided when the search first meets it: 0 unknown, 1 yes, 2 no.
  // Rows the search never meets (states with value 0, or unreachable
  // backwards) cost nothing.
  std::vector<uint8_t> optimal(model.num_rows(), 0);
  auto is_optimal = [&](uint32_t row, uint32_t state) {
    if (optimal[row] == 0) {
      double v = 0;
      for (uint64_t k = offsets[row]; k < offsets[row + 1]; ++k) v += model.values()[k] * values[model.columns()[k]];
      optimal[row] = v >= values[state] - tolerance * std::max(1.0, values[state]) ? 1 : 2;
    }
    return optimal[row] == 1;
  };
  // Breadth-first over predecessor rows: a state is reached through the
  // first optimal choice that leads into the already-reached set.
  graph::backward_search(transposed, target, [&](uint32_t row, uint32_t s) {
    if (decided_zero.test(s) || !is_optimal(row, s)) return false;
    scheduler[s] = static_cast<int64_t>(row - groups[s]);
    return true;
  });
}

// φ U ψ, unbounded.
std::vector<double> until_unbounded(CheckContext& ctx, bool maximize, const Bitset& left, const Bitset& right,
                                    ResultExtras& extras) {
  const Model& model = ctx.model();
  ReachabilitySolution resident;
  const bool on_device = ctx.solve_reachability(left, right, resident, maximize);
  if (on_device && resident.solved) {  // the whole check on a GPU
    extras.lower = std::move(resident.lower);
    extras.upper = std::move(resident.upper);
    extras.scheduler = std::move(resident.choice);
    return std::move(resident.values);
  }
  // max: 0 where no scheduler reaches ψ, 1 where one does almost surely;
  // min: 0 where some scheduler avoids ψ, 1 where all reach it a.s. (From
  // the device's precomputation when it decided them.)
  Bitset zero, one;
  if (on_device) {
    zero = states_with_status(resident.status, k_reach_zero);
    one = states_with_status(resident.status, k_reach_one);
  } else {
    const auto& tg = ctx.transposed();
    zero = ctx.timed(Phase::precompute, [&] {
      return maximize ? graph::prob0a(model, tg, left, right) : graph::prob0e(model, tg, left, right);
    });
    one = ctx.timed(Phase::precompute, [&] {
      return maximize ? graph::prob1e(model, tg, left, right) : graph::prob1a(model, tg, left, right);
    });
  }
  const Bitset maybe = bits::complement(bits::set_union(zero, one));
  std::vector<double> values = indicator(one);
  extras.scheduler.assign(model.num_states(), -1);
  if (maybe.count() > 0) {
    ctx.require_problem_memory(Computation::mdp_reachability, maybe);
    MdpProblem mp =
        ctx.timed(Phase::build, [&] { return restrict_mdp(model, maybe, values, {}, {}, maximize, threads(ctx)); });
    mp.problem.upper_bound = 1.0;
    MinMaxSolution solution;
    solution.x.assign(mp.problem.num_unknowns(), 0.0);
    ctx.solve_min_max(mp.problem, solution);
    scatter(mp, maybe, solution, values, extras, model);
  }
  if (maximize) {
    // On the lower bounds where there are bounds: with a monotone lower
    // iteration the arg-max row of every state satisfies B(l) >= l, while
    // the midpoints are no fixpoint (on consensus N6_K2 a state's midpoint
    // exceeded each of its rows' by more than the tolerance, and the
    // search left it without a choice).
    progressing_max_choices(model, ctx.transposed(), right, zero, extras.lower.empty() ? values : extras.lower,
                            extras.scheduler, 1e-9);
  } else {
    // Where Pmin = 0, stay inside the zero set (some choice does).
    const auto& groups = model.row_groups();
    const auto& offsets = model.row_offsets();
    bits::for_each_set(zero, [&](uint64_t s) {
      if (right.test(s)) return;
      for (uint64_t r = groups[s]; r < groups[s + 1]; ++r) {
        bool stays = true;
        for (uint64_t k = offsets[r]; k < offsets[r + 1] && stays; ++k) stays = zero.test(model.columns()[k]);
        if (stays) {
          extras.scheduler[s] = static_cast<int64_t>(r - groups[s]);
          break;
        }
      }
    });
  }
  return values;
}

// φ U<=k ψ: k Bellman steps over the states that can still reach ψ.
std::vector<double> until_bounded(CheckContext& ctx, bool maximize, const Bitset& left, const Bitset& right,
                                  uint64_t k) {
  const Model& model = ctx.model();
  // No scheduler can reach ψ from `zero`.
  const Bitset zero = ctx.timed(Phase::precompute, [&] { return graph::prob0a(model, ctx.transposed(), left, right); });
  const Bitset active = bits::difference(bits::difference(left, right), zero);
  std::vector<double> values = indicator(right);
  if (k == 0 || active.count() == 0) return values;
  ctx.require_problem_memory(Computation::mdp_bounded_steps, active);
  MdpProblem mp =
      ctx.timed(Phase::build, [&] { return restrict_mdp(model, active, values, {}, {}, maximize, threads(ctx)); });
  mp.problem.steps = k;
  MinMaxSolution solution;
  solution.x.assign(mp.problem.num_unknowns(), 0.0);
  ctx.solve_min_max(mp.problem, solution);
  bits::for_each_set(active, [&](uint64_t s) { values[s] = solution.x[mp.index[s]]; });
  return values;
}

std::vector<double> next_values(const Model& model, bool maximize, const Bitset& target) {
  std::vector<double> values(model.num_states(), 0.0);
  const auto& groups = model.row_groups();
  const auto& offsets = model.row_offsets();
  for (uint64_t s = 0; s < model.num_states(); ++s) {
    double best = maximize ? 0.0 : 1.0;
    for (uint64_t r = groups[s]; r < groups[s + 1]; ++r) {
      double v = 0;
      for (uint64_t k = offsets[r]; k < offsets[r + 1]; ++k) {
        if (target.test(model.columns()[k])) v += model.values()[k];
      }
      best = maximize ? std::max(best, v) : std::min(best, v);
    }
    values[s] = best;
  }
  return values;
}

std::vector<double> until(CheckContext& ctx, const PathFormula& path, bool maximize, const Bitset& left,
                          const Bitset& right, ResultExtras& extras) {
  if (path.bound.lower) {
    fail(ErrorCode::unsupported, "column {}: lower time bounds (>=, [a,b]) on MDPs are not supported", path.column);
  }
  if (path.bound.upper) return until_bounded(ctx, maximize, left, right, step_bound(*path.bound.upper, path.column));
  return until_unbounded(ctx, maximize, left, right, extras);
}

std::vector<double> reachability_reward(CheckContext& ctx, bool maximize, const RewardStructure& rewards,
                                        const Bitset& target, ResultExtras& extras) {
  const Model& model = ctx.model();
  const uint64_t n = model.num_states();
  const auto& tg = ctx.transposed();
  const Bitset all = bits::full(n);
  // Rmin is finite where some scheduler reaches ψ almost surely (Pmax = 1),
  // Rmax where every scheduler does (Pmin = 1); elsewhere +∞, as PRISM.
  const Bitset finite = ctx.timed(Phase::precompute, [&] {
    return maximize ? graph::prob1a(model, tg, all, target) : graph::prob1e(model, tg, all, target);
  });
  const Bitset maybe = bits::difference(finite, target);
  std::vector<double> values(n, k_infinity);
  bits::for_each_set(target, [&](uint64_t s) { values[s] = 0.0; });
  extras.scheduler.assign(n, -1);
  if (maybe.count() == 0) return values;
  ctx.require_problem_memory(Computation::mdp_reachability, maybe);
  // Rmin: a choice that may leave the finite region has infinite reward.
  std::vector<bool> excluded;
  if (!maximize) {
    excluded.assign(model.num_rows(), false);
    const auto& groups = model.row_groups();
    const auto& offsets = model.row_offsets();
    bits::for_each_set(maybe, [&](uint64_t s) {
      for (uint64_t r = groups[s]; r < groups[s + 1]; ++r) {
        for (uint64_t k = offsets[r]; k < offsets[r + 1]; ++k) {
          if (!finite.test(model.columns()[k])) excluded[r] = true;
        }
      }
    });
  }
  const std::vector<double> earned = choice_rewards(model, rewards);
  // Iteration from 0 is a lower bound only for rewards ≥ 0 (as PRISM, which
  // rejects negative rewards for MDP expected rewards too).
  const auto& groups = model.row_groups();
  for (uint64_t s = 0; s < n; ++s) {
    for (uint64_t r = groups[s]; r < groups[s + 1]; ++r) {
      if (earned[r] < 0) {
        fail(ErrorCode::unsupported,
             "reward structure \"{}\": negative reward {} on a choice of state {}: MDP expected rewards need "
             "non-negative rewards",
             rewards.name, earned[r], s);
      }
    }
  }
  MdpProblem mp = ctx.timed(Phase::build,
                            [&] { return restrict_mdp(model, maybe, {}, earned, excluded, maximize, threads(ctx)); });
  MinMaxSolution solution;
  solution.x.assign(mp.problem.num_unknowns(), 0.0);
  ctx.solve_min_max(mp.problem, solution);
  scatter(mp, maybe, solution, values, extras, model);
  return values;
}

// C<=k and I=k by exact Bellman steps over all states.
std::vector<double> bounded_reward(CheckContext& ctx, const RewardFormula& formula, bool maximize,
                                   const RewardStructure& rewards) {
  const Model& model = ctx.model();
  const uint64_t n = model.num_states();
  const uint64_t k = step_bound(formula.bound, formula.column);
  const bool cumulative = formula.kind == RewardKind::cumulative;
  std::vector<double> values(n, 0.0);
  if (!cumulative && !rewards.state_rewards.empty()) values = rewards.state_rewards;
  if (k == 0) return values;
  ctx.require_problem_memory(Computation::mdp_bounded_steps, whole_model(model));
  MdpProblem mp = ctx.timed(Phase::build, [&] {
    return restrict_mdp(model, bits::full(n), {}, cumulative ? choice_rewards(model, rewards) : std::vector<double>{},
                        {}, maximize, threads(ctx));
  });
  mp.problem.steps = k;
  MinMaxSolution solution;
  solution.x = values;
  ctx.solve_min_max(mp.problem, solution);
  return solution.x;
}

}  // namespace

std::vector<double> mdp_path_probabilities(CheckContext& ctx, const PathFormula& path, bool maximize,
                                           const Bitset& left, const Bitset& right, ResultExtras& extras) {
  switch (path.kind) {
    case PathKind::next:
      return next_values(ctx.model(), maximize, right);
    case PathKind::until:
    case PathKind::eventually:
      return until(ctx, path, maximize, left, right, extras);
    case PathKind::globally: {
      // Pmax[G ψ] = 1 − Pmin[F ¬ψ] and vice versa. The scheduler of the dual
      // problem is the one we want (it optimises the complement).
      std::vector<double> values = until(ctx, path, !maximize, bits::full(right.size()), bits::complement(right), extras);
      complement_probabilities(values, extras);
      return values;
    }
  }
  fail(ErrorCode::internal, "unknown path formula");
}

std::vector<double> mdp_reward_values(CheckContext& ctx, const RewardFormula& formula, bool maximize,
                                      const RewardStructure& rewards, const Bitset& target, ResultExtras& extras) {
  switch (formula.kind) {
    case RewardKind::reachability:
      return reachability_reward(ctx, maximize, rewards, target, extras);
    case RewardKind::cumulative:
    case RewardKind::instantaneous:
      return bounded_reward(ctx, formula, maximize, rewards);
    case RewardKind::long_run:
      return mdp_long_run_values(ctx, choice_rewards(ctx.model(), rewards), maximize, extras);
  }
  fail(ErrorCode::internal, "unknown reward formula");
}

}  // namespace pmc
