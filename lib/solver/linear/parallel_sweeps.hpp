// The loops of the CPU solvers whose rows read only the previous iterate
// (cpu.jacobi, cpu.power): each iteration computes every row's new value
// into a second vector, on all cores, and then swaps the two. The solvers
// differ only in the update of one row, which they pass in as a callable
// (a template parameter, so it is inlined into the parallel loop).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "solver/convergence.hpp"
#include "solver/iteration.hpp"
#include "solver/parallel.hpp"
#include "solver/problem.hpp"

namespace pmc {

// Both loops below: `sweep()` runs one iteration and returns its largest
// change, until PRISM's stopping rule holds (at most
// settings.max_iterations). stats.seconds is left to the caller, whose
// clock also covers its set-up.
template <typename Sweep>
SolveStats sweep_until_converged(const SolverSettings& settings, const char* solver, double bytes_per_iteration,
                                 Sweep sweep) {
  SolveStats stats;
  stats.bytes_per_iteration = bytes_per_iteration;
  IterationDriver loop(settings, stats, solver, settings.max_iterations);
  stats.converged = loop.until_converged(sweep);
  return stats;
}

// x_i ← new_value(i) for the `rows` rows (`entries` matrix entries in
// all), until converged. `new_value(i)` must read x, the previous iterate,
// and nothing this iteration writes.
template <typename NewValue>
SolveStats parallel_linear_sweeps(const SolverSettings& settings, const char* solver, double bytes_per_iteration,
                                  int64_t rows, uint64_t entries, std::vector<double>& x, NewValue new_value) {
  std::vector<double> next(x.size());
  const int threads = solver_threads(settings);
  const bool parallel = sweep_in_parallel(rows, entries);
  const int64_t chunk = sweep_chunk(rows, threads);
  return sweep_until_converged(settings, solver, bytes_per_iteration, [&] {
    double max_diff = 0.0;
#pragma omp parallel for if (parallel) num_threads(threads) schedule(static, chunk) reduction(max : max_diff)
    for (int64_t i = 0; i < rows; ++i) {
      const double value = new_value(i);
      next[i] = value;
      max_diff = std::max(max_diff, convergence_difference(x[i], value, settings.relative));
    }
    x.swap(next);
    return max_diff;
  });
}

// The same loop for a stationary distribution π·Q = 0: state j's new,
// unnormalised value is new_value(j, inflow_j) with inflow_j = Σ_i π_i·M_ij
// (M = system.incoming), from the previous iterate π = x. Each iterate is
// normalised to sum 1 before it is compared with the previous one, since
// the unnormalised update drifts in scale.
template <typename NewValue>
SolveStats parallel_stationary_sweeps(const SolverSettings& settings, const char* solver, double bytes_per_iteration,
                                      const StationarySystem& system, std::vector<double>& x, NewValue new_value) {
  const SparseMatrix& m = system.incoming;
  const int64_t n = static_cast<int64_t>(m.num_rows());
  std::vector<double> next(x.size());
  const int threads = solver_threads(settings);
  return sweep_until_converged(settings, solver, bytes_per_iteration, [&] {
    double total = 0.0;
#pragma omp parallel for if (n > k_parallel_rows) num_threads(threads) schedule(static, 1024) reduction(+ : total)
    for (int64_t j = 0; j < n; ++j) {
      double inflow = 0.0;
      for (uint64_t e = m.row_offsets[j]; e < m.row_offsets[j + 1]; ++e) inflow += m.values[e] * x[m.columns[e]];
      next[j] = new_value(j, inflow);
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
}

}  // namespace pmc
