// Step-bounded iteration v_{k+1} = A·v_k + b, optionally accumulating
// Σ_k c_k·v_k (uniformisation with Fox–Glynn weights, cumulative rewards).
// Rows are independent: the product runs on all cores.
//
// A bound of 1e14 steps must not run for months when the iterate
// stops changing after a few dozen. Each step also tells whether v_k is
// bit-for-bit v_{k−1}; from then on every step recomputes the same vector
// (the same rows summed in the same order), so v_K = v_k exactly and the
// weighted sum's remaining terms are (Σ_{j>k} c_j)·v_k — equal to adding them
// one by one up to rounding. The comparison rides in the product's loop (a
// load of v_i and a compare per row), so it costs nothing measurable.
#include <bit>

#include "common/stopwatch.hpp"
#include "solver/iteration.hpp"
#include "solver/linear/cpu_solvers.hpp"
#include "solver/parallel.hpp"

namespace pmc {

SolveStats steps_cpu(const StepProblem& p, std::vector<double>& result, const SolverSettings& settings) {
  const Stopwatch solve_clock;
  const SparseMatrix& a = p.a;
  const int64_t n = static_cast<int64_t>(a.num_rows());
  const bool accumulate = p.weighted();
  std::vector<double> v = p.x0, next(v.size());
  if (accumulate) {
    result.assign(v.size(), 0.0);
    const double c0 = p.coefficient(0);
    for (int64_t i = 0; i < n; ++i) result[i] = c0 * v[i];
  }
  SolveStats stats;
  stats.bytes_per_iteration = a.num_entries() * 12.0 + n * (8.0 * 3 + (accumulate ? 16.0 : 0.0));
  const int threads = solver_threads(settings);
  IterationDriver loop(settings, stats, "cpu.steps", p.steps);
  const bool stationary = loop.bounded_steps(p.steps, [&](uint64_t k) {
    const double c = accumulate ? p.coefficient(k) : 0.0;
    int changed = 0;
#pragma omp parallel for if (n > k_parallel_rows) num_threads(threads) schedule(static, 1024) reduction(| : changed)
    for (int64_t i = 0; i < n; ++i) {
      double sum = p.b.empty() ? 0.0 : p.b[i];
      for (uint64_t e = a.row_offsets[i]; e < a.row_offsets[i + 1]; ++e) sum += a.values[e] * v[a.columns[e]];
      next[i] = sum;
      changed |= std::bit_cast<uint64_t>(sum) != std::bit_cast<uint64_t>(v[i]) ? 1 : 0;
      if (accumulate) result[i] += c * sum;
    }
    v.swap(next);
    return changed != 0;
  });
  if (stationary && accumulate) {
    const double rest = steps_weight_after(p, stats.iterations);
    for (int64_t i = 0; i < n; ++i) result[i] += rest * v[i];
  }
  if (!accumulate) result = std::move(v);
  stats.seconds = solve_clock.seconds();
  return stats;
}

}  // namespace pmc
