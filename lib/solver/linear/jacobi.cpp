// Jacobi iteration (GPU-PRISM §2–3 uses the same scheme on the device):
//   x_i ← (Σ_{j≠i} a_ij·x_j + b_i) / (1 − a_ii)
// Every row reads only the previous iterate, so rows are independent and
// the sweep runs on all cores.
#include "common/stopwatch.hpp"
#include "solver/linear/cpu_solvers.hpp"
#include "solver/linear/parallel_sweeps.hpp"
#include "solver/linear/stationary_damping.hpp"

namespace pmc {

namespace {

// Split of each row into the diagonal and the rest, computed once.
std::vector<double> diagonal_of(const SparseMatrix& a) {
  std::vector<double> d(a.num_rows(), 0.0);
  for (uint64_t i = 0; i < a.num_rows(); ++i) {
    for (uint64_t e = a.row_offsets[i]; e < a.row_offsets[i + 1]; ++e) {
      if (a.columns[e] == i) d[i] += a.values[e];
    }
  }
  return d;
}

}  // namespace

SolveStats jacobi_linear(const LinearSystem& system, std::vector<double>& x, const SolverSettings& settings) {
  const Stopwatch solve_clock;
  const SparseMatrix& a = system.a;
  const int64_t n = static_cast<int64_t>(a.num_rows());
  const std::vector<double> diagonal = diagonal_of(a);
  SolveStats stats = parallel_linear_sweeps(
      settings, "cpu.jacobi", a.num_entries() * 12.0 + n * (8.0 * 4 + 8.0), n, a.num_entries(), x, [&](int64_t i) {
        double sum = system.b[i];
        for (uint64_t e = a.row_offsets[i]; e < a.row_offsets[i + 1]; ++e) {
          if (a.columns[e] != static_cast<uint64_t>(i)) sum += a.values[e] * x[a.columns[e]];
        }
        return sum / (1.0 - diagonal[i]);
      });
  stats.seconds = solve_clock.seconds();
  return stats;
}

SolveStats jacobi_stationary(const StationarySystem& system, std::vector<double>& x, const SolverSettings& settings) {
  const Stopwatch solve_clock;
  const double bytes = system.incoming.num_entries() * 12.0 + system.incoming.num_rows() * (8.0 * 4 + 8.0);
  SolveStats stats = parallel_stationary_sweeps(settings, "cpu.jacobi", bytes, system, x, [&](int64_t j, double inflow) {
    return k_stationary_damping * (inflow / system.outflow[j]) + (1.0 - k_stationary_damping) * x[j];
  });
  stats.seconds = solve_clock.seconds();
  return stats;
}

}  // namespace pmc
