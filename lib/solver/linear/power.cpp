// The power method: x ← A·x + b with the diagonal left in A (no division),
// and for stationary distributions the uniformised chain
// π ← π + (π·M − π∘d)/q, q = 1.02·max d: the 2% margin gives every state a
// self-loop, so the chain is aperiodic and the iteration converges.
#include <algorithm>
#include <cmath>

#include "common/stopwatch.hpp"
#include "solver/convergence.hpp"
#include "solver/iteration.hpp"
#include "solver/linear/cpu_solvers.hpp"
#include "solver/parallel.hpp"

namespace pmc {

SolveStats power_linear(const LinearSystem& system, std::vector<double>& x, const SolverSettings& settings) {
  const Stopwatch solve_clock;
  const SparseMatrix& a = system.a;
  const int64_t n = static_cast<int64_t>(a.num_rows());
  std::vector<double> next(x.size());
  SolveStats stats;
  stats.bytes_per_iteration = a.num_entries() * 12.0 + n * 8.0 * 4;
  const int threads = solver_threads(settings);
  IterationDriver loop(settings, stats, "cpu.power", settings.max_iterations);
  stats.converged = loop.until_converged([&] {
    double max_diff = 0.0;
#pragma omp parallel for if (n > k_parallel_rows) num_threads(threads) schedule(static, 1024) reduction(max : max_diff)
    for (int64_t i = 0; i < n; ++i) {
      double sum = system.b[i];
      for (uint64_t e = a.row_offsets[i]; e < a.row_offsets[i + 1]; ++e) sum += a.values[e] * x[a.columns[e]];
      next[i] = sum;
      max_diff = std::max(max_diff, convergence_difference(x[i], sum, settings.relative));
    }
    x.swap(next);
    return max_diff;
  });
  stats.seconds = solve_clock.seconds();
  return stats;
}

SolveStats power_stationary(const StationarySystem& system, std::vector<double>& x, const SolverSettings& settings) {
  const Stopwatch solve_clock;
  const SparseMatrix& m = system.incoming;
  const int64_t n = static_cast<int64_t>(m.num_rows());
  const double max_outflow = n > 0 ? *std::max_element(system.outflow.begin(), system.outflow.end()) : 0.0;
  const double q = max_outflow > 0 ? 1.02 * max_outflow : 1.0;
  std::vector<double> next(x.size());
  SolveStats stats;
  stats.bytes_per_iteration = m.num_entries() * 12.0 + n * 8.0 * 4;
  const int threads = solver_threads(settings);
  IterationDriver loop(settings, stats, "cpu.power", settings.max_iterations);
  stats.converged = loop.until_converged([&] {
    double total = 0.0;
#pragma omp parallel for if (n > k_parallel_rows) num_threads(threads) schedule(static, 1024) reduction(+ : total)
    for (int64_t j = 0; j < n; ++j) {
      double inflow = 0.0;
      for (uint64_t e = m.row_offsets[j]; e < m.row_offsets[j + 1]; ++e) inflow += m.values[e] * x[m.columns[e]];
      next[j] = x[j] + (inflow - system.outflow[j] * x[j]) / q;
      total += next[j];
    }
    double max_diff = 0.0;
#pragma omp parallel for if (n > k_parallel_rows) num_threads(threads) schedule(static, 4096) reduction(max : max_diff)
    for (int64_t j = 0; j < n; ++j) {
      next[j] /= total;
      max_diff = std::max(max_diff, convergence_difference(x[j], next[j], settings.relative));
    }
    x.swap(next);
    return max_diff;
  });
  stats.seconds = solve_clock.seconds();
  return stats;
}

}  // namespace pmc
