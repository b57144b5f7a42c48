// The power method: x ← A·x + b with the diagonal left in A (no division),
// and for stationary distributions the uniformised chain
// π ← π + (π·M − π∘d)/q, q = 1.02·max d: the 2% margin gives every state a
// self-loop, so the chain is aperiodic and the iteration converges.
#include <algorithm>
#include <chrono>
#include <cmath>

#include "solver/convergence.hpp"
#include "solver/linear/cpu_solvers.hpp"
#include "solver/parallel.hpp"
#include "solver/progress.hpp"

namespace pmc {

SolveStats power_linear(const LinearSystem& system, std::vector<double>& x, const SolverSettings& settings) {
  const auto start = std::chrono::steady_clock::now();
  const SparseMatrix& a = system.a;
  const int64_t n = static_cast<int64_t>(a.num_rows());
  std::vector<double> next(x.size());
  SolveStats stats;
  stats.solver = "cpu.power";
  stats.bytes_per_iteration = a.num_entries() * 12.0 + n * 8.0 * 4;
  const int threads = solver_threads(settings);
  ProgressReporter progress(settings, "cpu.power", settings.max_iterations);
  while (stats.iterations < settings.max_iterations) {
    double max_diff = 0.0;
#pragma omp parallel for if (n > k_parallel_rows) num_threads(threads) schedule(static, 1024) reduction(max : max_diff)
    for (int64_t i = 0; i < n; ++i) {
      double sum = system.b[i];
      for (uint64_t e = a.row_offsets[i]; e < a.row_offsets[i + 1]; ++e) sum += a.values[e] * x[a.columns[e]];
      next[i] = sum;
      max_diff = std::max(max_diff, convergence_difference(x[i], sum, settings.relative));
    }
    x.swap(next);
    ++stats.iterations;
    if (max_diff < settings.epsilon) {
      stats.converged = true;
      break;
    }
    progress.tick(stats.iterations, max_diff);
  }
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return stats;
}

SolveStats power_stationary(const StationarySystem& system, std::vector<double>& x, const SolverSettings& settings) {
  const auto start = std::chrono::steady_clock::now();
  const SparseMatrix& m = system.incoming;
  const int64_t n = static_cast<int64_t>(m.num_rows());
  const double max_outflow = n > 0 ? *std::max_element(system.outflow.begin(), system.outflow.end()) : 0.0;
  const double q = max_outflow > 0 ? 1.02 * max_outflow : 1.0;
  std::vector<double> next(x.size());
  SolveStats stats;
  stats.solver = "cpu.power";
  stats.bytes_per_iteration = m.num_entries() * 12.0 + n * 8.0 * 4;
  const int threads = solver_threads(settings);
  ProgressReporter progress(settings, "cpu.power", settings.max_iterations);
  while (stats.iterations < settings.max_iterations) {
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
    ++stats.iterations;
    if (max_diff < settings.epsilon) {
      stats.converged = true;
      break;
    }
    progress.tick(stats.iterations, max_diff);
  }
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return stats;
}

}  // namespace pmc
