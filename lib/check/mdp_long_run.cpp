// Long-run averages of MDPs (LRAmin/LRAmax, Rmin/Rmax [ S ] and [ LRA ]):
// the optimal long-run average of a scheduler that stays in an end
// component forever is that component's gain, and a scheduler eventually
// stays in some maximal end component with probability 1. So
//
//  1. each maximal end component's optimal gain is bounded by value
//     iteration on its internal choices (the aperiodicity transform
//     P' = (P + I)/2, which keeps every gain, makes the iteration converge):
//     with d = T(v) − v, min d ≤ gain ≤ max d after every sweep, because
//     an end component's internal choices form a communicating MDP, whose
//     optimal gain is the same in every state and is lim T^k(v)/k;
//  2. every end component is collapsed into one unknown with its exits and
//     one more choice, "stay", worth its gain and leaving nothing; the
//     result is a maximal (minimal) expected total of those, a problem
//     without end components that the sound MDP solvers certify;
//  3. solved once with every gain's lower bound and once with every upper
//     bound (the values are monotone in them): certified bounds.
#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "check/computations.hpp"
#include "check/memory_budget.hpp"
#include "common/cancellation.hpp"
#include "common/error.hpp"
#include "common/stopwatch.hpp"
#include "graph/bitset_ops.hpp"
#include "graph/end_components.hpp"
#include "solver/convergence.hpp"
#include "solver/parallel.hpp"

namespace pmc {

namespace {

// The name results give the gain iteration (it runs outside the registry).
constexpr const char* k_gain_solver = "mec-gain-vi";

struct GainBounds {
  double lower = 0, upper = 0;
  uint64_t sweeps = 0;
  bool converged = true;
};

// Bounds on the optimal gain of the end component `states` under its
// internal choices (`internal`: mecs.choices), to a gap of 2ε (scaled by
// the gain when ε is relative). `local` holds each member's position.
GainBounds end_component_gain(const Model& mdp, std::span<const uint32_t> states, const Bitset& internal,
                              const std::vector<double>& row_rewards, bool maximize, const SolverSettings& settings,
                              std::vector<uint32_t>& local) {
  const auto m = static_cast<int64_t>(states.size());
  for (int64_t i = 0; i < m; ++i) local[states[i]] = static_cast<uint32_t>(i);
  const auto& groups = mdp.row_groups();
  const auto& offsets = mdp.row_offsets();
  const auto& columns = mdp.columns();
  const auto& values = mdp.values();
  const int threads = solver_threads(settings);
  const bool parallel = m > k_parallel_rows;
  std::vector<double> v(static_cast<size_t>(m), 0.0), next(static_cast<size_t>(m), 0.0);
  GainBounds gain;
  gain.lower = -std::numeric_limits<double>::infinity();
  gain.upper = std::numeric_limits<double>::infinity();
  const uint64_t limit = settings.max_iterations > 0 ? settings.max_iterations : std::numeric_limits<uint64_t>::max();
  for (gain.sweeps = 1; gain.sweeps <= limit; ++gain.sweeps) {
    if (gain.sweeps % 64 == 0) throw_if_cancelled(settings.cancel);
    double lowest = std::numeric_limits<double>::infinity(), highest = -lowest;
#pragma omp parallel for if (parallel) num_threads(threads) schedule(static, 1024) reduction(min : lowest) \
    reduction(max : highest)
    for (int64_t i = 0; i < m; ++i) {
      const uint32_t s = states[i];
      double best = maximize ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
      for (uint64_t r = groups[s]; r < groups[s + 1]; ++r) {
        if (!internal.test(r)) continue;
        double sum = 0;
        for (uint64_t k = offsets[r]; k < offsets[r + 1]; ++k) sum += values[k] * v[local[columns[k]]];
        const double value = row_rewards[r] + 0.5 * sum + 0.5 * v[i];
        best = maximize ? std::max(best, value) : std::min(best, value);
      }
      next[i] = best;
      const double d = best - v[i];
      lowest = std::min(lowest, d);
      highest = std::max(highest, d);
    }
    // Every sweep's bounds hold; keep the tightest.
    gain.lower = std::max(gain.lower, lowest);
    gain.upper = std::min(gain.upper, highest);
    const double scale = settings.relative ? std::max(std::fabs(gain.lower), k_relative_floor) : 1.0;
    if (gain.upper - gain.lower <= 2 * settings.epsilon * scale) return gain;
    // Relative value iteration: the values stay bounded, the differences
    // (and so the bounds) are those of T.
    const double shift = next[0];
    for (int64_t i = 0; i < m; ++i) v[i] = next[i] - shift;
  }
  gain.sweeps = limit;
  gain.converged = false;
  return gain;
}

// The MDP with every end component collapsed into one unknown: its exits
// (the members' choices that may leave it) and a choice "stay", worth the
// component's gain (`stay`, per component) and leaving nothing. Other
// choices earn nothing: only where a path stays counts in the long run.
// `stay_row`: each component's stay choice among the problem's rows.
MinMaxProblem collapsed_problem(const Model& mdp, const graph::MecDecomposition& mecs, const std::vector<double>& stay,
                                bool maximize, std::vector<uint32_t>& unknown_of, std::vector<uint64_t>& stay_row) {
  const uint64_t n = mdp.num_states();
  const auto& groups = mdp.row_groups();
  const auto& offsets = mdp.row_offsets();
  constexpr uint32_t k_unassigned = std::numeric_limits<uint32_t>::max();
  unknown_of.assign(n, k_unassigned);
  std::vector<uint64_t> first_state;  // per unknown: the state that opened it
  for (uint64_t s = 0; s < n; ++s) {
    if (unknown_of[s] != k_unassigned) continue;
    const auto u = static_cast<uint32_t>(first_state.size());
    first_state.push_back(s);
    if (mecs.mec_of[s] == graph::MecDecomposition::k_no_mec) {
      unknown_of[s] = u;
    } else {
      for (const uint32_t member : mecs.mec(mecs.mec_of[s])) unknown_of[member] = u;
    }
  }
  MinMaxProblem p;
  p.maximize = maximize;
  p.upper_bound = 0;
  for (const double g : stay) p.upper_bound = std::max(p.upper_bound, g);
  auto add_row = [&](uint64_t r) {
    for (uint64_t k = offsets[r]; k < offsets[r + 1]; ++k) {
      p.a.columns.push_back(unknown_of[mdp.columns()[k]]);
      p.a.values.push_back(mdp.values()[k]);
    }
    p.a.row_offsets.push_back(p.a.columns.size());
    p.b.push_back(0.0);
  };
  for (const uint64_t s : first_state) {
    const uint32_t mec = mecs.mec_of[s];
    if (mec == graph::MecDecomposition::k_no_mec) {
      for (uint64_t r = groups[s]; r < groups[s + 1]; ++r) add_row(r);
    } else {
      for (const uint32_t member : mecs.mec(mec)) {
        for (uint64_t r = groups[member]; r < groups[member + 1]; ++r) {
          if (!mecs.choices.test(r)) add_row(r);
        }
      }
      stay_row[mec] = p.b.size();
      p.a.row_offsets.push_back(p.a.columns.size());
      p.b.push_back(stay[mec]);
    }
    p.row_groups.push_back(p.b.size());
  }
  return p;
}

}  // namespace

std::vector<double> mdp_long_run_values(CheckContext& ctx, const std::vector<double>& row_rewards, bool maximize,
                                        ResultExtras& extras) {
  const Model& mdp = ctx.model();
  const uint64_t n = mdp.num_states();
  const graph::MecDecomposition mecs =
      ctx.timed(CheckContext::Phase::precompute, [&] { return graph::maximal_end_components(mdp); });
  // Each gain to half the precision asked, and the collapsed problem's
  // solves too: a value's bounds add both gaps.
  CheckOptions tighter = ctx.options();
  tighter.settings.epsilon = std::max(k_min_epsilon, ctx.options().settings.epsilon / 2);
  std::vector<double> lower_gain(mecs.count()), upper_gain(mecs.count());
  {
    const Stopwatch clock;
    std::vector<uint32_t> local(n, 0);
    uint64_t sweeps = 0, unconverged = 0;
    for (uint64_t i = 0; i < mecs.count(); ++i) {
      const GainBounds gain =
          end_component_gain(mdp, mecs.mec(i), mecs.choices, row_rewards, maximize, tighter.settings, local);
      lower_gain[i] = gain.lower;
      upper_gain[i] = gain.upper;
      sweeps = std::max(sweeps, gain.sweeps);
      if (!gain.converged) ++unconverged;
    }
    ctx.record_direct_solve(k_gain_solver, clock.seconds());
    ctx.add_note(fmt::format("long-run: {} maximal end component{}, their gains bounded by value iteration (at most "
                             "{} sweep{})",
                             mecs.count(), mecs.count() == 1 ? "" : "s", sweeps, sweeps == 1 ? "" : "s"));
    if (unconverged > 0) {
      ctx.add_note(fmt::format("long-run: {} end components' gains stopped at the iteration limit; their bounds hold "
                               "but are wider than epsilon asks",
                               unconverged));
    }
  }
  // The collapsed problem iterates from 0, a lower bound only for stay
  // values ≥ 0: negative gains are shifted up by the least, and the
  // values back down (every value is a convex combination of gains).
  double offset = 0;
  for (const double g : lower_gain) offset = std::min(offset, g);
  for (double& g : lower_gain) g -= offset;
  for (double& g : upper_gain) g -= offset;
  ctx.require_problem_memory(Computation::mdp_reachability, graph::bits::full(n));
  std::vector<uint32_t> unknown_of;
  std::vector<uint64_t> stay_row(mecs.count());
  CheckContext inner(mdp, tighter);
  MinMaxProblem problem = ctx.timed(CheckContext::Phase::build, [&] {
    return collapsed_problem(mdp, mecs, lower_gain, maximize, unknown_of, stay_row);
  });
  MinMaxSolution from_lower;
  from_lower.x.assign(problem.num_unknowns(), 0.0);
  inner.solve_min_max(problem, from_lower);
  MinMaxSolution from_upper = from_lower;
  const bool same_gains = lower_gain == upper_gain;
  if (!same_gains) {
    for (uint64_t i = 0; i < mecs.count(); ++i) problem.b[stay_row[i]] = upper_gain[i];
    problem.upper_bound = 0;
    for (const double g : upper_gain) problem.upper_bound = std::max(problem.upper_bound, g);
    from_upper = MinMaxSolution{};
    from_upper.x.assign(problem.num_unknowns(), 0.0);
    inner.solve_min_max(problem, from_upper);
  }
  ctx.absorb(inner);
  const bool bounded = !from_lower.upper.empty() && !from_upper.upper.empty();
  std::vector<double> values(n), lower(n), upper(n);
  for (uint64_t s = 0; s < n; ++s) {
    const uint32_t u = unknown_of[s];
    lower[s] = from_lower.x[u] + offset;
    upper[s] = (bounded ? from_upper.upper[u] : from_upper.x[u]) + offset;
    values[s] = bounded ? bounds_midpoint(lower[s], upper[s]) : 0.5 * (lower[s] + upper[s]);
  }
  if (bounded) {
    extras.lower = std::move(lower);
    extras.upper = std::move(upper);
  }
  return values;
}

}  // namespace pmc
