// Step-bounded iteration v_{k+1} = A·v_k + b, optionally accumulating
// Σ_k c_k·v_k (uniformisation with Fox–Glynn weights, cumulative rewards).
// Rows are independent: the product runs on all cores.
#include <chrono>

#include "solver/linear/cpu_solvers.hpp"
#include "solver/parallel.hpp"
#include "solver/progress.hpp"

namespace pmc {

SolveStats steps_cpu(const StepProblem& p, std::vector<double>& result, const SolverSettings& settings) {
  const auto start = std::chrono::steady_clock::now();
  const SparseMatrix& a = p.a;
  const int64_t n = static_cast<int64_t>(a.num_rows());
  const bool accumulate = !p.coefficients.empty();
  std::vector<double> v = p.x0, next(v.size());
  if (accumulate) {
    result.assign(v.size(), 0.0);
    for (int64_t i = 0; i < n; ++i) result[i] = p.coefficients[0] * v[i];
  }
  SolveStats stats;
  stats.solver = "cpu.steps";
  stats.bytes_per_iteration = a.num_entries() * 12.0 + n * (8.0 * 3 + (accumulate ? 16.0 : 0.0));
  const int threads = solver_threads(settings);
  ProgressReporter progress(settings, "cpu.steps", p.steps);
  for (uint64_t k = 1; k <= p.steps; ++k) {
    const double c = accumulate ? p.coefficients[k] : 0.0;
#pragma omp parallel for if (n > k_parallel_rows) num_threads(threads) schedule(static, 1024)
    for (int64_t i = 0; i < n; ++i) {
      double sum = p.b.empty() ? 0.0 : p.b[i];
      for (uint64_t e = a.row_offsets[i]; e < a.row_offsets[i + 1]; ++e) sum += a.values[e] * v[a.columns[e]];
      next[i] = sum;
      if (accumulate) result[i] += c * sum;
    }
    v.swap(next);
    ++stats.iterations;
    progress.tick(stats.iterations);
  }
  if (!accumulate) result = std::move(v);
  stats.converged = true;
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return stats;
}

}  // namespace pmc
