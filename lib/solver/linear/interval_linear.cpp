// cpu.interval-vi on linear systems x = A·x + b (DTMC and CTMC reachability
// and expected rewards): sound interval iteration (Haddad & Monmege 2018;
// Baier et al., CAV 2017). Plain Gauss–Seidel stops when an iterate changes
// little, which says nothing about the distance to the solution (on a slow
// chain it stops far from it: errors in the 4th digit, as value iteration showed on real models). Iterating a
// lower bound up and an upper bound down and stopping when they meet gives a
// guaranteed error.
//
// The splitting. Gauss–Seidel sweeps x_i ← (b_i + Σ_{j≠i} a_ij·x_j)/(1 − a_ii)
// in place are x ← G·x + c with G = (I − L)⁻¹·U ≥ 0 (a regular splitting of
// the M-matrix I − A), whose fixed point is the solution x*. A monotone map
// with fixed point x* maps lower bounds to lower bounds and upper bounds to
// upper bounds, so clamped sweeps l ← max(l, G·l + c), u ← min(u, G·u + c)
// keep both sound, and both converge to x* (it is the only fixed point).
//
// Both vectors are swept together, stored as (lower, upper) pairs: each
// gathered column fetches both from one cache line, so the second vector
// costs far less than a second sweep (bench/NOTES.md).
//
// Upper start. Probabilities: system.upper_bound (1). Expected rewards have
// no a-priori bound: the first phase runs sound value iteration's sweeps
// (Quatmann & Katoen, CAV 2018) with the same splitting: x_k = k sweeps from
// 0 (the reward of G's first k steps), y_k = k sweeps of the homogeneous
// system from 1 (the mass G keeps among the unknowns). x* = x_k + G^k·x*
// gives, at the state where x* is largest (smallest), M ≤ x_k/(1 − y_k)
// there, hence for every s
//   x_k(s) + y_k(s)·min_t x_k(t)/(1 − y_k(t)) ≤ x*(s) ≤ x_k(s) + y_k(s)·max_t x_k(t)/(1 − y_k(t))
// once every y_k(t) < 1, for rewards of either sign. Those bounds start the
// interval phase.
#include <cmath>
#include <limits>

#include "common/error.hpp"
#include "common/stopwatch.hpp"
#include "solver/convergence.hpp"
#include "solver/iteration.hpp"
#include "solver/linear/cpu_solvers.hpp"
#include "solver/linear/interval_sweeps.hpp"

namespace pmc {

namespace {

constexpr double k_infinity = std::numeric_limits<double>::infinity();

// First phase: (x, y) sweeps until every y < k_max_kept_mass, then v holds
// sound (lower, upper) pairs. False when the iteration limit came first.
bool sound_value_iteration_bounds(const LinearSystem& s, const std::vector<double>& scale, std::vector<BoundPair>& v,
                                  IterationDriver& loop) {
  const uint64_t n = v.size();
  for (BoundPair& p : v) p = {0.0, 1.0};
  const bool kept_little = loop.until_upper_bound([&] {
    double kept = 0.0;
    for (uint64_t i = 0; i < n; ++i) {
      const BoundPair sum = off_diagonal_sums(s.a, i, v.data());
      v[i] = {(s.b[i] + sum.first) * scale[i], sum.second * scale[i]};
      kept = std::max(kept, v[i].second);
    }
    return kept <= k_max_kept_mass;
  });
  if (!kept_little) return false;
  double lowest = k_infinity, highest = -k_infinity;
  for (const BoundPair& p : v) {
    const double ratio = p.first / (1.0 - p.second);
    lowest = std::min(lowest, ratio);
    highest = std::max(highest, ratio);
  }
  lowest = widened_ratio(lowest, -1.0);
  highest = widened_ratio(highest, 1.0);
  for (BoundPair& p : v) p = {p.first + p.second * lowest, p.first + p.second * highest};
  return true;
}

}  // namespace

SolveStats interval_linear(const LinearSystem& s, std::vector<double>& lower, std::vector<double>& upper,
                           const SolverSettings& settings) {
  const Stopwatch solve_clock;
  const uint64_t n = s.a.num_rows();
  require_start_size("cpu.interval-vi", lower, n);
  SolveStats stats;
  stats.kernel = "gauss-seidel";
  // Matrix once, offsets, b, scale, the pairs read and written.
  stats.bytes_per_iteration = s.a.num_entries() * 12.0 + n * (8.0 * 3 + 32.0);
  const std::vector<double> scale = diagonal_scale(s.a);
  std::vector<BoundPair> v(n);
  IterationDriver loop(settings, stats, "cpu.interval-vi", settings.max_iterations);

  bool bounded = true;
  if (std::isfinite(s.upper_bound)) {
    for (uint64_t i = 0; i < n; ++i) v[i] = {lower.empty() ? 0.0 : lower[i], s.upper_bound};
  } else {
    stats.kernel += "+sound-vi-bound";
    bounded = sound_value_iteration_bounds(s, scale, v, loop);
  }

  auto all_close = [&] {
    for (const BoundPair& p : v) {
      if (!bounds_close(p.first, p.second, settings.epsilon, settings.relative)) return false;
    }
    return true;
  };
  stats.converged = bounded && all_close();
  if (bounded && !stats.converged) {
    stats.converged = loop.until_bounds_close(
        [&] {
          // A state's gap only shrinks after its update, so "every state
          // closed when it was updated" means all are closed at the end of
          // the sweep.
          uint64_t open = 0;
          for (uint64_t i = 0; i < n; ++i) {
            const BoundPair next = update_bounds(s, scale, i, v.data());
            open += bounds_close(next.first, next.second, settings.epsilon, settings.relative) ? 0 : 1;
          }
          return open == 0;
        },
        [&] { return widest_gap(v); });
  }

  // Without a bound (limit hit in the first phase) `lower` is plain VI's
  // estimate x_k and the result is not sound.
  store_bound_pairs(v, bounded, lower, upper);
  stats.sound = bounded;
  loop.record_loop_seconds();
  stats.seconds = solve_clock.seconds();
  return stats;
}

}  // namespace pmc
