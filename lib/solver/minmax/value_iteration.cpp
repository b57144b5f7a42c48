// cpu.vi: value iteration for MDPs (Berger 2014 §2.6, Algorithm 2), and its
// step-bounded form for bounded properties.
#include <algorithm>
#include <bit>
#include <chrono>

#include "solver/minmax/bellman.hpp"
#include "solver/minmax/mdp_solvers.hpp"
#include "solver/minmax/end_component_quotient.hpp"
#include "solver/progress.hpp"

namespace pmc {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

SolveStats vi_core(const MinMaxProblem& p, MinMaxSolution& solution, const SolverSettings& settings) {
  const auto start = std::chrono::steady_clock::now();
  const uint64_t n = p.num_unknowns();
  std::vector<double> x = start_vector(solution.x, n, "cpu.vi");
  const int threads = solver_threads(settings);
  // Gauss–Seidel needs fewer sweeps but is inherently sequential; with
  // several cores and a large problem, Jacobi's parallel sweep wins.
  const bool jacobi = n > static_cast<uint64_t>(k_parallel_rows) && threads >= k_min_threads_for_jacobi_vi;
  std::vector<double> next(jacobi ? n : 0);
  SolveStats stats;
  stats.solver = "cpu.vi";
  stats.kernel = jacobi ? "jacobi" : "gauss-seidel";
  stats.bytes_per_iteration = bellman_bytes(p);
  const auto loop_start = std::chrono::steady_clock::now();
  ProgressReporter progress(settings, "cpu.vi", settings.max_iterations);
  while (stats.iterations < settings.max_iterations) {
    const double diff = bellman_sweep(p, x.data(), jacobi ? next.data() : x.data(), settings.relative, threads);
    if (jacobi) x.swap(next);
    ++stats.iterations;
    if (diff < settings.epsilon) {
      stats.converged = true;
      break;
    }
    progress.tick(stats.iterations, diff);
  }
  stats.loop_seconds = seconds_since(loop_start);
  solution.choice = optimal_choices(p, x, settings.epsilon);
  solution.x = std::move(x);
  stats.seconds = seconds_since(start);
  return stats;
}

}  // namespace

SolveStats value_iteration(const MinMaxProblem& p, MinMaxSolution& solution, const SolverSettings& settings) {
  // Maximize: end components do no harm to iteration from below (it
  // converges to the least fixed point), so the search is skipped.
  if (p.maximize) return vi_core(p, solution, settings);
  return solve_with_end_components_collapsed(p, solution, settings, vi_core);
}

// Issue 23: as cpu.steps, the loop ends once x_k is bit-for-bit x_{k−1}
// (every later step would recompute it), and after max_iterations steps.
SolveStats value_iteration_steps(const MinMaxProblem& p, MinMaxSolution& solution, const SolverSettings& settings) {
  const auto start = std::chrono::steady_clock::now();
  const int64_t n = static_cast<int64_t>(p.num_unknowns());
  std::vector<double> x = start_vector(solution.x, static_cast<uint64_t>(n), "cpu.vi");
  std::vector<double> next(static_cast<uint64_t>(n));
  std::vector<uint32_t> choice(static_cast<uint64_t>(n), 0);
  SolveStats stats;
  stats.solver = "cpu.vi";
  stats.kernel = "jacobi";  // step k must read exactly the values of step k − 1
  stats.bytes_per_iteration = bellman_bytes(p);
  const int threads = solver_threads(settings);
  const uint64_t limit = std::min(p.steps, settings.max_iterations);
  const auto loop_start = std::chrono::steady_clock::now();
  ProgressReporter progress(settings, "cpu.vi", p.steps);
  bool stationary = false, recorded = false;
  for (uint64_t k = 0; k < limit; ++k) {
    // Only the last step's choice matters: the first move with `steps` to go.
    uint32_t* record = k + 1 == p.steps ? choice.data() : nullptr;
    int changed = 0;
#pragma omp parallel for if (n > k_parallel_rows) num_threads(threads) schedule(static, 1024) reduction(| : changed)
    for (int64_t s = 0; s < n; ++s) {
      next[s] = state_value(p, s, x.data(), record ? record + s : nullptr);
      changed |= std::bit_cast<uint64_t>(next[s]) != std::bit_cast<uint64_t>(x[s]) ? 1 : 0;
    }
    x.swap(next);
    ++stats.iterations;
    recorded = record != nullptr;
    if (!changed && k + 1 < p.steps) {
      stationary = true;
      stats.notes.push_back(stationary_note(k + 1, p.steps));
      break;
    }
    progress.tick(stats.iterations);
  }
  // The last step reads x_{K−1}, which is x when stationary (and, cut short
  // by the limit, the choices are those of the values reached).
  if (!recorded) {
    for (int64_t s = 0; s < n; ++s) state_value(p, s, x.data(), &choice[s]);
  }
  stats.loop_seconds = seconds_since(loop_start);
  stats.converged = stationary || limit == p.steps;
  if (!stats.converged) stats.notes.push_back(step_limit_note("cpu.vi", limit, p.steps));
  solution.x = std::move(x);
  solution.choice = std::move(choice);
  stats.seconds = seconds_since(start);
  return stats;
}

}  // namespace pmc
