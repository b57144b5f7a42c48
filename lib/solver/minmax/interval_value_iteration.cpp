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

#include "common/stopwatch.hpp"
#include "solver/convergence.hpp"
#include "solver/iteration.hpp"
#include "solver/minmax/bellman.hpp"
#include "solver/minmax/mdp_solvers.hpp"
#include "solver/minmax/end_component_quotient.hpp"
#include "solver/progress.hpp"

namespace pmc {

namespace {

// ε' down to ε·10⁻⁹: enough for contraction factors up to 1 − 10⁻⁸.
constexpr int k_ovi_attempts = 10;

// B(u) ≤ u is tested up to the rounding of computing B(u). A state whose
// optimal row earns nothing and keeps all its mass (b = 0, Σa = 1) maps
// the guess l·(1+ε)+ε onto itself exactly, so there the exact test fails
// on the last bit (measured: 1 ulp off on the unit tests' random min-reward
// problems, at every ε'). Like every bound computed in doubles, the result
// is sound up to rounding.
constexpr double k_rounding = 8 * std::numeric_limits<double>::epsilon();

// Iterates lower and upper bounds in place (Gauss–Seidel) or through a
// second vector (Jacobi, parallel), as cpu.vi chooses.
struct Sweeper {
  const MinMaxProblem& p;
  bool relative;
  int threads;
  bool jacobi;
  std::vector<double> next;

  double sweep(std::vector<double>& v, Clamp clamp) {
    if (!jacobi) return bellman_sweep(p, v.data(), v.data(), relative, threads, clamp);
    next.resize(v.size());
    const double diff = bellman_sweep(p, v.data(), next.data(), relative, threads, clamp);
    v.swap(next);
    return diff;
  }
};

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

// Optimistic value iteration: an inductive upper bound from the lower
// iterate, or false when none was found within the attempts or iterations.
bool optimistic_upper(const MinMaxProblem& p, std::vector<double>& l, std::vector<double>& u,
                      const SolverSettings& settings, Sweeper& sweeper, IterationDriver& loop) {
  const auto n = static_cast<int64_t>(l.size());
  std::vector<double> image(l.size());
  const double eps = settings.epsilon;
  double vi_eps = eps;
  for (int attempt = 0; attempt < k_ovi_attempts; ++attempt, vi_eps /= 10) {
    const bool settled = loop.until_upper_bound([&] { return sweeper.sweep(l, Clamp::up) < vi_eps; });
    if (!settled) return false;
    for (int64_t s = 0; s < n; ++s) u[s] = l[s] * (1.0 + eps) + eps;
    bellman_sweep(p, u.data(), image.data(), false, sweeper.threads);
    bool inductive = true;
    for (int64_t s = 0; s < n && inductive; ++s) inductive = image[s] - u[s] <= k_rounding * std::fabs(u[s]);
    if (inductive) return true;
  }
  return false;
}

SolveStats interval_core(const MinMaxProblem& p, MinMaxSolution& solution, const SolverSettings& settings) {
  const Stopwatch solve_clock;
  const uint64_t n = p.num_unknowns();
  std::vector<double> l = start_vector(solution.x, n, "cpu.interval-vi");
  std::vector<double> u;
  const int threads = solver_threads(settings);
  const bool jacobi = n > static_cast<uint64_t>(k_parallel_rows) && threads >= k_min_threads_for_jacobi_vi;
  Sweeper lower{p, settings.relative, threads, jacobi, {}};
  Sweeper upper{p, settings.relative, threads, jacobi, {}};
  SolveStats stats;
  stats.kernel = jacobi ? "jacobi" : "gauss-seidel";
  stats.bytes_per_iteration = 2 * bellman_bytes(p);

  IterationDriver loop(settings, stats, "cpu.interval-vi", settings.max_iterations);
  bool have_upper = true;
  if (!solution.upper.empty()) {
    u = start_vector(solution.upper, n, "cpu.interval-vi (upper)");
  } else if (std::isfinite(p.upper_bound)) {
    u.assign(n, p.upper_bound);
  } else {
    u.assign(n, std::numeric_limits<double>::infinity());
    have_upper = optimistic_upper(p, l, u, settings, lower, loop);
    if (have_upper) stats.kernel += "+optimistic";
  }
  if (!have_upper) std::fill(u.begin(), u.end(), std::numeric_limits<double>::infinity());
  stats.converged = have_upper && bounds_met(l, u, settings, threads);
  if (have_upper && !stats.converged) {
    stats.converged = loop.until_bounds_close(
        [&] {
          lower.sweep(l, Clamp::up);
          upper.sweep(u, Clamp::down);
          return bounds_met(l, u, settings, threads);
        },
        // The residual here is the stopping test's own: the widest gap.
        [&] { return widest_gap(l, u); });
  }
  stats.sound = have_upper;
  loop.record_loop_seconds();
  solution.choice = optimal_choices(p, l, settings.epsilon);
  solution.x = std::move(l);
  solution.upper = std::move(u);
  stats.seconds = solve_clock.seconds();
  return stats;
}

}  // namespace

SolveStats interval_value_iteration(const MinMaxProblem& p, MinMaxSolution& solution,
                                    const SolverSettings& settings) {
  return solve_with_end_components_collapsed(p, solution, settings, interval_core);
}

}  // namespace pmc
