// The power method: x ← A·x + b with the diagonal left in A (no division),
// and for stationary distributions the uniformised chain
// π ← π + (π·M − π∘d)/q, q = 1.02·max d: the 2% margin gives every state a
// self-loop, so the chain is aperiodic and the iteration converges.
#include <algorithm>

#include "common/stopwatch.hpp"
#include "solver/linear/cpu_solvers.hpp"
#include "solver/linear/parallel_sweeps.hpp"

namespace pmc {

SolveStats power_linear(const LinearSystem& system, std::vector<double>& x, const SolverSettings& settings) {
  const Stopwatch solve_clock;
  const SparseMatrix& a = system.a;
  const int64_t n = static_cast<int64_t>(a.num_rows());
  const auto row_value = [&](int64_t i) {
    double sum = system.b[i];
    for (uint64_t e = a.row_offsets[i]; e < a.row_offsets[i + 1]; ++e) sum += a.values[e] * x[a.columns[e]];
    return sum;
  };
  SolveStats stats = parallel_linear_sweeps(settings, "cpu.power", a.num_entries() * 12.0 + n * 8.0 * 4, n,
                                            a.num_entries(), x, row_value);
  stats.seconds = solve_clock.seconds();
  return stats;
}

SolveStats power_stationary(const StationarySystem& system, std::vector<double>& x, const SolverSettings& settings) {
  const Stopwatch solve_clock;
  const uint64_t n = system.incoming.num_rows();
  const double max_outflow = n > 0 ? *std::max_element(system.outflow.begin(), system.outflow.end()) : 0.0;
  const double q = max_outflow > 0 ? 1.02 * max_outflow : 1.0;
  const double bytes = system.incoming.num_entries() * 12.0 + n * 8.0 * 4;
  SolveStats stats = parallel_stationary_sweeps(settings, "cpu.power", bytes, system, x, [&](int64_t j, double inflow) {
    return x[j] + (inflow - system.outflow[j] * x[j]) / q;
  });
  stats.seconds = solve_clock.seconds();
  return stats;
}

}  // namespace pmc
