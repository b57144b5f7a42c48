// Conditional probabilities P[ F φ || F ψ ] (see conditional.hpp).
//
// Chains: P(F φ | F ψ) = P(F φ ∧ F ψ) / P(F ψ). A run that satisfies both
// meets φ ∪ ψ somewhere first and from there still needs the other one: a
// ψ\φ state is worth P(F φ), a φ\ψ state P(F ψ), a state of both 1. So the
// numerator is the reachability of φ ∪ ψ with those target values: the
// linear system unbounded reachability solves (x = A·x + b over the states
// that can reach a target of positive value), with the values in b.
//
// Bounds: x = (I − A)⁻¹·b with (I − A)⁻¹ ≥ 0 is monotone in the target
// values, so the solve on the targets' lower bounds gives a lower bound of
// the numerator (its own lower bound), the one on their upper bounds an
// upper bound. With N ∈ [Nl, Nu] and D ∈ [Dl, Du], N/D ∈ [Nl/Du, Nu/Dl].
//
// Precision: relative widths add up (D's, the targets', the numerator's own
// two solves), so every solve runs at ε/4, which usually meets ε at once;
// where it does not (an absolute ε with a small P(F ψ) magnifies N's error
// by 1/P(F ψ); an MDP minimum close to 0 is 1 minus a value close to 1),
// ε shrinks by the missing factor and the whole computation runs again.
//
// MDPs (Baier, Klein, Klüppelholz & Wunderlich, "Computing conditional
// probabilities in Markovian models efficiently", TACAS 2014, §3): the
// supremum over schedulers with P(F ψ) > 0 of P(F φ ∧ F ψ)/P(F ψ) is the
// maximal probability of reaching "goal" from s0 in a copy of the MDP in
// which a run that can no longer satisfy ψ restarts in s0 — it is then not
// counted in the denominator, and restarting is worth the answer itself, so
// the value v solves v = a + (1 − c)·v, v = a/c. A run moves as in the MDP
// until it meets φ ∪ ψ; then (maximum):
//   φ ∩ ψ: goal;
//   ψ \ φ: goal with Pmax(F φ), else fail (ψ holds: the run counts);
//   φ \ ψ: goal with Pmax(F ψ), else restart (the run counts only with ψ);
//   no scheduler reaches ψ (Pmax(F ψ) = 0): restart.
// A state from which some scheduler avoids φ ∪ ψ forever gets one more
// choice, restart: staying away forever discards the run as well (without
// it, a scheduler that stays in an end component would look worse than it
// is). Each continuation is optimal on its own because goal (1) is worth
// at least a restart (the answer, ≤ 1) and a restart at least a fail.
// The minimum is 1 − the maximum of P(G ¬φ | F ψ), the same construction
// with φ ∩ ψ: fail; ψ \ φ: goal with 1 − Pmin(F φ); φ \ ψ: fail with
// Pmin(F ψ), else restart. The restarting MDP's value is monotone in those
// continuation probabilities, so their lower/upper bounds give two problems
// whose solutions bound it.
#include "check/conditional.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "check/chain_matrices.hpp"
#include "common/error.hpp"
#include "graph/bitset_ops.hpp"
#include "graph/dtmc_precomputation.hpp"
#include "graph/mdp_precomputation.hpp"
#include "solver/convergence.hpp"

namespace pmc {

namespace {

namespace bits = graph::bits;
using Phase = CheckContext::Phase;
using property::Operator;
using property::PathFormula;
using property::PathKind;

constexpr double k_undefined = std::numeric_limits<double>::quiet_NaN();
// ε/4 per solve: the quotient's relative width is about 4 solves' widths.
constexpr double k_first_epsilon_share = 0.25;
// Below this a solve's own rounding dominates: tightening further gains nothing.
constexpr double k_min_solve_epsilon = 1e-14;
constexpr int k_max_attempts = 4;
// An MDP's restarting problem is as large as the MDP and differs per initial
// state (the restart target): beyond this many, the cost would be quadratic.
constexpr uint64_t k_max_mdp_initial_states = 64;

// Values with their certified bounds; lower = upper = value where a value
// is exact, or where no solve certified any (the context is then unsound).
struct Bounded {
  std::vector<double> value, lower, upper;
  bool empty() const { return value.empty(); }
};

Bounded with_bounds(std::vector<double> values, ResultExtras& extras) {
  Bounded b;
  b.lower = extras.lower.empty() ? values : std::move(extras.lower);
  b.upper = extras.upper.empty() ? values : std::move(extras.upper);
  b.value = std::move(values);
  return b;
}

// As the result reports them: the "init" label, else state 0 (PRISM's rule).
Bitset initial_states(const Model& model) {
  const Bitset* init = model.initial_states();
  if (init != nullptr && init->count() > 0) return *init;
  Bitset first(model.num_states());
  first.set(0);
  return first;
}

[[noreturn]] void condition_impossible(const Operator& op, uint64_t state, bool mdp) {
  fail(ErrorCode::property,
       "column {}: the condition {} has probability 0 {}from the initial state {}, so the conditional probability "
       "{} is undefined there",
       op.condition->column, property::to_string(*op.condition), mdp ? "under every scheduler " : "", state,
       property::to_string(op));
}

// The quotient's values and bounds per state (NaN where undefined or not computed).
struct Quotient {
  std::vector<double> value, lower, upper;
  explicit Quotient(uint64_t n) : value(n, k_undefined), lower(n, k_undefined), upper(n, k_undefined) {}
  void set(uint64_t s, double low, double high) {
    lower[s] = std::clamp(low, 0.0, 1.0);
    upper[s] = std::clamp(high, lower[s], 1.0);
    value[s] = bounds_midpoint(lower[s], upper[s]);
  }
};

// ---- DTMCs and CTMCs ----

Bounded chain_reach(CheckContext& ctx, const Bitset& target) {
  ResultExtras extras;
  std::vector<double> values = unbounded_until(ctx, bits::full(target.size()), target, extras);
  return with_bounds(std::move(values), extras);
}

// P(F φ ∧ F ψ) from every state: φ ∪ ψ reached with the target values of
// the file comment, solved once on their lower and once on their upper bounds.
Bounded chain_joint(CheckContext& ctx, const Bitset& goal, const Bitset& condition, const Bounded& reach_goal,
                    const Bounded& reach_condition) {
  const Model& model = ctx.model();
  const uint64_t n = model.num_states();
  const Bitset targets = bits::set_union(goal, condition);
  Bounded joint;
  joint.lower.assign(n, 0.0);
  joint.upper.assign(n, 0.0);
  Bitset positive(n);
  bits::for_each_set(targets, [&](uint64_t s) {
    const Bounded* after = !goal.test(s) ? &reach_goal : !condition.test(s) ? &reach_condition : nullptr;
    joint.lower[s] = after != nullptr ? after->lower[s] : 1.0;
    joint.upper[s] = after != nullptr ? after->upper[s] : 1.0;
    if (joint.upper[s] > 0) positive.set(s);  // an exact 0 is a prob0 state
  });
  const Bitset others = bits::complement(targets);
  const Bitset zero = ctx.timed(Phase::precompute, [&] { return graph::prob0(ctx.transposed(), others, positive); });
  const Bitset maybe = bits::difference(others, zero);
  if (maybe.count() > 0) {
    const std::vector<double> known_lower = joint.lower, known_upper = joint.upper;
    std::vector<uint32_t> index;
    auto solve = [&](const std::vector<double>& known, bool take_upper) {
      LinearSystem system = ctx.timed(
          Phase::build, [&] { return restrict_linear(probability_matrix(model), maybe, known, {}, index); });
      system.upper_bound = 1.0;
      std::vector<double> x(system.b.size(), 0.0), lower, upper;
      ctx.solve_linear(system, x, &lower, &upper);
      const std::vector<double>& bound = take_upper ? upper : lower;
      std::vector<double>& out = take_upper ? joint.upper : joint.lower;
      bits::for_each_set(maybe, [&](uint64_t s) { out[s] = bound.empty() ? x[index[s]] : bound[index[s]]; });
      if (known_lower == known_upper) {  // exact targets: one solve gives both bounds
        const std::vector<double>& other = take_upper ? lower : upper;
        std::vector<double>& other_out = take_upper ? joint.lower : joint.upper;
        bits::for_each_set(maybe, [&](uint64_t s) { other_out[s] = other.empty() ? x[index[s]] : other[index[s]]; });
      }
    };
    solve(known_lower, false);
    if (known_lower != known_upper) solve(known_upper, true);
  }
  joint.value.resize(n);
  for (uint64_t s = 0; s < n; ++s) joint.value[s] = bounds_midpoint(joint.lower[s], joint.upper[s]);
  return joint;
}

Quotient chain_conditional(CheckContext& ctx, const Operator& op, const Bitset& goal, const Bitset& condition) {
  const Model& model = ctx.model();
  const uint64_t n = model.num_states();
  const Bounded reach_condition = chain_reach(ctx, condition);
  // Exact zeros: prob0 states get 0 before any solve.
  bits::for_each_set(initial_states(model), [&](uint64_t s) {
    if (reach_condition.upper[s] <= 0) condition_impossible(op, s, false);
  });
  // P(F φ) is only needed where ψ\φ states give it to the numerator.
  const Bounded reach_goal = bits::difference(condition, goal).count() > 0 ? chain_reach(ctx, goal) : Bounded{};
  const Bounded joint = chain_joint(ctx, goal, condition, reach_goal, reach_condition);
  Quotient q(n);
  for (uint64_t s = 0; s < n; ++s) {
    if (reach_condition.upper[s] <= 0) continue;  // undefined: P(F ψ) = 0
    const double low = joint.lower[s] / reach_condition.upper[s];
    const double high = reach_condition.lower[s] > 0 ? joint.upper[s] / reach_condition.lower[s] : 1.0;
    q.set(s, low, high);
  }
  return q;
}

// ---- MDPs ----

// Where a run of the restarting MDP goes on meeting a state outside the
// unknowns: goal with `goal[s]`, restart with `restart[s]`, else fail.
struct Outcomes {
  std::vector<double> goal, restart;
};

// `after_condition` (ψ\φ states): P(F φ), `after_goal` (φ\ψ states):
// P(F ψ), each optimised in the operator's direction (one of their bounds).
Outcomes outcomes(uint64_t n, bool maximize, const Bitset& unknowns, const Bitset& goal, const Bitset& condition,
                  const Bitset& no_condition, const std::vector<double>& after_condition,
                  const std::vector<double>& after_goal) {
  Outcomes out{std::vector<double>(n, 0.0), std::vector<double>(n, 0.0)};
  for (uint64_t s = 0; s < n; ++s) {
    if (unknowns.test(s)) continue;
    if (no_condition.test(s)) {
      out.restart[s] = 1.0;
    } else if (goal.test(s) && condition.test(s)) {
      out.goal[s] = maximize ? 1.0 : 0.0;
    } else if (condition.test(s)) {
      out.goal[s] = maximize ? after_condition[s] : 1.0 - after_condition[s];
    } else {  // φ \ ψ, ψ still possible
      if (maximize) out.goal[s] = after_goal[s];
      out.restart[s] = 1.0 - after_goal[s];
    }
  }
  return out;
}

// The restarting MDP over the unknowns (ψ not yet met, still possible):
// its rows, with what leaves the unknowns folded into b (goal) and into an
// entry to `start` (restart); plus a restart choice where some scheduler
// can avoid φ ∪ ψ forever.
MinMaxProblem restarting_problem(const Model& mdp, const Bitset& unknowns, const std::vector<uint32_t>& index,
                                 uint32_t start, const Bitset& can_avoid, const Outcomes& out) {
  MinMaxProblem p;
  p.maximize = true;
  p.upper_bound = 1.0;
  const auto& groups = mdp.row_groups();
  const auto& offsets = mdp.row_offsets();
  const auto& columns = mdp.columns();
  const auto& values = mdp.values();
  auto end_row = [&](double b) {
    p.b.push_back(b);
    p.a.row_offsets.push_back(p.a.columns.size());
  };
  bits::for_each_set(unknowns, [&](uint64_t s) {
    for (uint64_t r = groups[s]; r < groups[s + 1]; ++r) {
      double b = 0.0, restart = 0.0;
      uint64_t start_entry = std::numeric_limits<uint64_t>::max();
      for (uint64_t k = offsets[r]; k < offsets[r + 1]; ++k) {
        const uint32_t t = columns[k];
        if (unknowns.test(t)) {
          if (index[t] == start) start_entry = p.a.columns.size();
          p.a.columns.push_back(index[t]);
          p.a.values.push_back(values[k]);
        } else {
          b += values[k] * out.goal[t];
          restart += values[k] * out.restart[t];
        }
      }
      if (restart > 0) {
        if (start_entry != std::numeric_limits<uint64_t>::max()) {
          p.a.values[start_entry] += restart;
        } else {
          p.a.columns.push_back(start);
          p.a.values.push_back(restart);
        }
      }
      end_row(b);
    }
    if (can_avoid.test(s)) {
      p.a.columns.push_back(start);
      p.a.values.push_back(1.0);
      end_row(0.0);
    }
    p.row_groups.push_back(p.b.size());
  });
  return p;
}

Bounded mdp_reach(CheckContext& ctx, bool maximize, const Bitset& target) {
  PathFormula eventually;
  eventually.kind = PathKind::eventually;
  ResultExtras extras;
  std::vector<double> values =
      mdp_path_probabilities(ctx, eventually, maximize, bits::full(target.size()), target, extras);
  return with_bounds(std::move(values), extras);
}

// Pmax of reaching goal from `start` in the restarting MDP: [lower, upper].
std::pair<double, double> restarting_value(CheckContext& ctx, const MinMaxProblem& problem, uint32_t start) {
  MinMaxSolution solution;
  solution.x.assign(problem.num_unknowns(), 0.0);
  ctx.solve_min_max(problem, solution);
  const double lower = solution.x[start];
  return {lower, solution.upper.empty() ? lower : solution.upper[start]};
}

Quotient mdp_conditional(CheckContext& ctx, const Operator& op, bool maximize, const Bitset& goal,
                         const Bitset& condition) {
  const Model& model = ctx.model();
  const uint64_t n = model.num_states();
  const Bitset all = bits::full(n);
  const Bitset no_condition =
      ctx.timed(Phase::precompute, [&] { return graph::prob0a(model, ctx.transposed(), all, condition); });
  const Bitset initial = initial_states(model);
  if (initial.count() > k_max_mdp_initial_states) {
    fail(ErrorCode::unsupported,
         "column {}: a conditional probability of an MDP solves one problem per initial state, and this MDP has {} "
         "(at most {} are supported)",
         op.column, initial.count(), k_max_mdp_initial_states);
  }
  bits::for_each_set(initial, [&](uint64_t s) {
    if (no_condition.test(s)) condition_impossible(op, s, true);
  });
  const Bitset targets = bits::set_union(goal, condition);
  const Bitset can_avoid =
      ctx.timed(Phase::precompute, [&] { return graph::prob0e(model, ctx.transposed(), all, targets); });
  const Bitset unknowns = bits::complement(bits::set_union(targets, no_condition));
  const Bitset condition_only = bits::difference(condition, goal);
  const Bitset goal_only = bits::difference(bits::difference(goal, condition), no_condition);
  const Bounded after_condition = condition_only.count() > 0 ? mdp_reach(ctx, maximize, goal) : Bounded{};
  const Bounded after_goal = goal_only.count() > 0 ? mdp_reach(ctx, maximize, condition) : Bounded{};
  static const std::vector<double> k_none;
  auto side = [&](const Bounded& b, bool low) -> const std::vector<double>& {
    return b.empty() ? k_none : low ? b.lower : b.upper;
  };
  // The restarting MDP's value grows with the continuations' probabilities
  // for the maximum and shrinks with them for the minimum's complement.
  const Outcomes pessimistic = outcomes(n, maximize, unknowns, goal, condition, no_condition,
                                        side(after_condition, maximize), side(after_goal, maximize));
  const Outcomes optimistic = outcomes(n, maximize, unknowns, goal, condition, no_condition,
                                       side(after_condition, !maximize), side(after_goal, !maximize));
  const bool exact = pessimistic.goal == optimistic.goal && pessimistic.restart == optimistic.restart;
  std::vector<uint32_t> index(n, 0);
  uint32_t next = 0;
  bits::for_each_set(unknowns, [&](uint64_t s) { index[s] = next++; });

  Quotient q(n);
  bits::for_each_set(initial, [&](uint64_t s0) {
    if (!unknowns.test(s0)) {
      // ψ\φ: ψ holds already, what remains is P(F φ); φ (with ψ possible):
      // every run that meets ψ has met φ.
      if (condition_only.test(s0)) {
        q.set(s0, after_condition.lower[s0], after_condition.upper[s0]);
      } else {
        q.set(s0, 1.0, 1.0);
      }
      return;
    }
    const auto build = [&](const Outcomes& out) {
      return ctx.timed(Phase::build,
                       [&] { return restarting_problem(model, unknowns, index, index[s0], can_avoid, out); });
    };
    auto [low, high] = restarting_value(ctx, build(pessimistic), index[s0]);
    if (!exact) high = restarting_value(ctx, build(optimistic), index[s0]).second;
    if (maximize) {
      q.set(s0, low, high);
    } else {
      q.set(s0, 1.0 - high, 1.0 - low);
    }
  });
  return q;
}

// How far the widest defined bounds are from what ε asks (≤ 1: met).
double excess_width(const Quotient& q, const SolverSettings& settings) {
  double worst = 0.0;
  for (uint64_t s = 0; s < q.value.size(); ++s) {
    if (std::isnan(q.value[s])) continue;
    const double scale = settings.relative ? std::fmax(std::fabs(q.lower[s]), k_relative_floor) : 1.0;
    worst = std::max(worst, (q.upper[s] - q.lower[s]) / (2.0 * settings.epsilon * scale));
  }
  return worst;
}

}  // namespace

void require_conditional_shape(const Operator& op) {
  for (const PathFormula* path : {op.path.get(), op.condition.get()}) {
    const bool goal = path == op.path.get();
    if (path->kind != PathKind::eventually) {
      fail(ErrorCode::unsupported,
           "column {}: conditional probabilities are supported for P[ F a || F b ] (unbounded F on both sides), "
           "not for the {} {}",
           path->column, goal ? "goal" : "condition", property::to_string(*path));
    }
    if (path->reward_bound) {
      fail(ErrorCode::unsupported,
           "column {}: a reward bound in a conditional probability ({}) is not supported; goal and condition must "
           "be unbounded F",
           path->column, property::to_string(*path));
    }
    if (!path->bound.unbounded()) {
      fail(ErrorCode::unsupported,
           "column {}: a time or step bound in a conditional probability ({}) is not supported; goal and condition "
           "must be unbounded F",
           path->column, property::to_string(*path));
    }
  }
}

std::vector<double> conditional_probabilities(CheckContext& ctx, const Operator& op, bool maximize,
                                              const Bitset& goal, const Bitset& condition, ResultExtras& extras) {
  const SolverSettings& asked = ctx.options().settings;
  const bool mdp = ctx.model().type() == ModelType::mdp;
  double epsilon = asked.epsilon * k_first_epsilon_share;
  for (int attempt = 1;; ++attempt) {
    CheckOptions options = ctx.options();
    options.settings.epsilon = epsilon;
    CheckContext inner(ctx.model(), options);
    Quotient q = mdp ? mdp_conditional(inner, op, maximize, goal, condition)
                     : chain_conditional(inner, op, goal, condition);
    ctx.absorb(inner);
    const double excess = excess_width(q, asked);
    const bool done = excess <= 1.0 || !inner.sound() || !inner.converged();
    if (done || attempt == k_max_attempts || epsilon <= k_min_solve_epsilon) {
      if (!done) {
        ctx.add_note(fmt::format("the conditional probability's bounds stay {:.3g} times wider than epsilon {} "
                                 "asks (its solves reached epsilon {:.3g})",
                                 excess, asked.epsilon, epsilon));
      }
      extras.lower = std::move(q.lower);
      extras.upper = std::move(q.upper);
      return std::move(q.value);
    }
    epsilon = std::max(k_min_solve_epsilon, epsilon / (2.0 * excess));
    ctx.add_note(fmt::format("the conditional probability's bounds were {:.3g} times wider than epsilon asks: "
                             "solved again at epsilon {:.3g}",
                             excess, epsilon));
  }
}

}  // namespace pmc
