// cpu.vi: value iteration for MDPs (Berger 2014 §2.6, Algorithm 2), and its
// step-bounded form for bounded properties.
#include <algorithm>
#include <bit>

#include "common/stopwatch.hpp"
#include "solver/iteration.hpp"
#include "solver/minmax/bellman.hpp"
#include "solver/minmax/mdp_solvers.hpp"
#include "solver/minmax/end_component_quotient.hpp"
#include "solver/progress.hpp"

namespace pmc {

namespace {

SolveStats vi_core(const MinMaxProblem& p, MinMaxSolution& solution, const SolverSettings& settings) {
  const uint64_t n = p.num_unknowns();
  std::vector<double> x = start_vector(solution.x, n, "cpu.vi");
  const int threads = solver_threads(settings);
  BellmanSweeper sweeper(jacobi_sweeps_pay_off(n, threads), settings.relative, threads);
  SolveStats stats;
  stats.kernel = sweeper.jacobi() ? "jacobi" : "gauss-seidel";
  stats.bytes_per_iteration = bellman_bytes(p);
  IterationDriver loop(settings, stats, "cpu.vi", settings.max_iterations);
  stats.converged = loop.until_converged([&] { return sweeper.sweep(p, x); });
  loop.record_loop_seconds();
  store_values(p, std::move(x), settings.epsilon, solution);
  return stats;
}

}  // namespace

SolveStats value_iteration(const MinMaxProblem& p, MinMaxSolution& solution, const SolverSettings& settings) {
  return solve_from_below_with_end_components_collapsed(p, solution, settings, vi_core);
}

// A huge step bound must not run for ever: as cpu.steps, the loop ends once x_k is bit-for-bit x_{k−1}
// (every later step would recompute it), and after max_iterations steps.
SolveStats value_iteration_steps(const MinMaxProblem& p, MinMaxSolution& solution, const SolverSettings& settings) {
  const Stopwatch solve_clock;
  const int64_t n = static_cast<int64_t>(p.num_unknowns());
  std::vector<double> x = start_vector(solution.x, static_cast<uint64_t>(n), "cpu.vi");
  std::vector<double> next(static_cast<uint64_t>(n));
  std::vector<uint32_t> choice(static_cast<uint64_t>(n), 0);
  SolveStats stats;
  stats.kernel = "jacobi";  // step k must read exactly the values of step k − 1
  stats.bytes_per_iteration = bellman_bytes(p);
  const int threads = solver_threads(settings);
  IterationDriver loop(settings, stats, "cpu.vi", p.steps);
  bool recorded = false;
  loop.bounded_steps(p.steps, [&](uint64_t k) {
    // Only the last step's choice matters: the first move with `steps` to go.
    uint32_t* record = k == p.steps ? choice.data() : nullptr;
    int changed = 0;
#pragma omp parallel for if (n > k_parallel_rows) num_threads(threads) schedule(static, 1024) reduction(| : changed)
    for (int64_t s = 0; s < n; ++s) {
      next[s] = state_value(p, s, x.data(), record ? record + s : nullptr);
      changed |= std::bit_cast<uint64_t>(next[s]) != std::bit_cast<uint64_t>(x[s]) ? 1 : 0;
    }
    x.swap(next);
    recorded = record != nullptr;
    return changed != 0;
  });
  // The last step reads x_{K−1}, which is x when stationary (and, cut short
  // by the limit, the choices are those of the values reached).
  if (!recorded) {
    for (int64_t s = 0; s < n; ++s) state_value(p, s, x.data(), &choice[s]);
  }
  loop.record_loop_seconds();
  solution.x = std::move(x);
  solution.choice = std::move(choice);
  stats.seconds = solve_clock.seconds();
  return stats;
}

}  // namespace pmc
