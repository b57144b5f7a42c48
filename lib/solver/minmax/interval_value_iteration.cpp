// cpu.interval-vi: sound interval iteration (Haddad & Monmege 2014; Baier
// et al., CAV 2017). Plain VI stops when an iterate changes little, which
// says nothing about the distance to the fixed point (a slow cycle changes
// little per sweep while far from it). Iterating a lower bound l (from
// below) and an upper bound u (from above) together and stopping when they
// meet gives a result with a guaranteed error.
//
// Both iterations converge to the fixed point only when it is unique; with
// end components among the unknowns the upper iteration can stay put, so
// the solver runs on the end-component quotient
// (end_component_quotient.hpp), for maximize and minimize alike.
//
// Upper start, in order: solution.upper if the caller gives one; the
// problem's upper_bound (1 for probabilities); else optimistic value
// iteration (Hartmanns & Kaminski, CAV 2020), the usual case for expected
// rewards, for which no a-priori bound is at hand: run VI on l until its
// change is below ε', guess u = l·(1+ε)+ε, and accept u if it is
// inductive, B(u) ≤ u. On a problem whose value is the least fixed point of
// B (the quotient's, from 0), every such u is an upper bound (Knaster–
// Tarski: the least fixed point lies below every pre-fixed point). A guess
// that is not inductive means VI stopped too far from the fixed point:
// continue VI with ε' / 10 and guess again, at most k_ovi_attempts times.
// The guess keeps the offset ε while ε' shrinks (as in Hartmanns & Kaminski):
// with ε' = ε the offset shrinks with VI's last change, while VI's
// remaining error is about that change times λ/(1 − λ) for a contraction
// factor λ, so for slow problems every guess stays below the fixed point
// (measured: a 10^5-state reward MDP with λ = 0.95 failed all attempts that
// way; with the fixed offset the fourth, ε' = ε/1000, succeeds).
#include <cmath>
#include <limits>

#include "solver/convergence.hpp"
#include "solver/iteration.hpp"
#include "solver/minmax/bellman.hpp"
#include "solver/minmax/mdp_solvers.hpp"
#include "solver/minmax/end_component_quotient.hpp"
#include "solver/minmax/optimistic_upper.hpp"
#include "solver/progress.hpp"

namespace pmc {

namespace {

// The stopping test, bounds_close (solver/convergence.hpp) in every unknown.
bool bounds_met(const std::vector<double>& l, const std::vector<double>& u, const SolverSettings& settings,
                int threads) {
  const auto n = static_cast<int64_t>(l.size());
  int64_t open = 0;
#pragma omp parallel for if (n > k_parallel_rows) num_threads(threads) schedule(static, 4096) reduction(+ : open)
  for (int64_t s = 0; s < n; ++s) {
    if (!bounds_close(l[s], u[s], settings.epsilon, settings.relative)) ++open;  // also catches u = ∞ and NaN
  }
  return open == 0;
}

// max_s (u_s − l_s): the progress report's residual (computed only when a
// report is due).
double widest_gap(const std::vector<double>& l, const std::vector<double>& u) {
  double gap = 0.0;
  for (size_t s = 0; s < l.size(); ++s) gap = std::max(gap, u[s] - l[s]);
  return gap;
}

// `optimistic`: start the upper bounds from a verified guess even where the
// problem has an a-priori bound (cpu.optimistic-vi); otherwise only where it has none.
SolveStats interval_core(const MinMaxProblem& p, MinMaxSolution& solution, const SolverSettings& settings,
                         bool optimistic, const char* name) {
  const uint64_t n = p.num_unknowns();
  std::vector<double> l = start_vector(solution.x, n, "cpu.interval-vi");
  std::vector<double> u;
  const int threads = solver_threads(settings);
  const bool jacobi = jacobi_sweeps_pay_off(n, threads);
  BellmanSweeper lower(jacobi, settings.relative, threads);
  BellmanSweeper upper(jacobi, settings.relative, threads);
  SolveStats stats;
  stats.kernel = jacobi ? "jacobi" : "gauss-seidel";
  stats.bytes_per_iteration = 2 * bellman_bytes(p);

  IterationDriver loop(settings, stats, name, settings.max_iterations);
  bool have_upper = true;
  if (!solution.upper.empty()) {
    u = start_vector(solution.upper, n, (std::string(name) + " (upper)").c_str());
  } else if (std::isfinite(p.upper_bound) && !optimistic) {
    u.assign(n, p.upper_bound);
  } else {
    u.assign(n, std::numeric_limits<double>::infinity());
    have_upper = optimistic_upper_bound(loop, stats.iterations, p, l, u, settings.epsilon, threads,
                                        [&] { return lower.sweep(p, l, Clamp::up); });
    if (have_upper) stats.kernel += "+optimistic";
    // The a-priori bound is inductive too, and so is the smaller of two
    // inductive bounds (B is monotone): a guess above it is cut down to it.
    if (have_upper && std::isfinite(p.upper_bound)) {
      for (double& x : u) x = std::min(x, p.upper_bound);
    }
    if (!have_upper && std::isfinite(p.upper_bound)) {
      // No guess held within the attempts: interval iteration from the bound.
      u.assign(n, p.upper_bound);
      have_upper = true;
    }
  }
  if (!have_upper) std::fill(u.begin(), u.end(), std::numeric_limits<double>::infinity());
  stats.converged = have_upper && bounds_met(l, u, settings, threads);
  if (have_upper && !stats.converged) {
    stats.converged = loop.until_bounds_close(
        [&] {
          lower.sweep(p, l, Clamp::up);
          upper.sweep(p, u, Clamp::down);
          return bounds_met(l, u, settings, threads);
        },
        // The residual here is the stopping test's own: the widest gap.
        [&] { return widest_gap(l, u); });
  }
  stats.sound = have_upper;
  loop.record_loop_seconds();
  store_bounds(p, std::move(l), std::move(u), settings.epsilon, solution);
  return stats;
}

}  // namespace

SolveStats interval_value_iteration(const MinMaxProblem& p, MinMaxSolution& solution,
                                    const SolverSettings& settings) {
  return solve_with_end_components_collapsed(
      p, solution, settings, [](const MinMaxProblem& q, MinMaxSolution& x, const SolverSettings& s) {
        return interval_core(q, x, s, false, "cpu.interval-vi");
      });
}

SolveStats optimistic_value_iteration(const MinMaxProblem& p, MinMaxSolution& solution,
                                      const SolverSettings& settings) {
  return solve_with_end_components_collapsed(
      p, solution, settings, [](const MinMaxProblem& q, MinMaxSolution& x, const SolverSettings& s) {
        return interval_core(q, x, s, true, "cpu.optimistic-vi");
      });
}

}  // namespace pmc
