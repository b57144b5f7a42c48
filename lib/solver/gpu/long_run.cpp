// gpu.jacobi's certified long-run bounds on one bottom SCC (LongRunProblem):
// cpu.jacobi's bias sweeps (solver/linear/long_run_bounds.cpp says why the
// bracket bounds the long-run average) on the device. Each iteration is one
// damped Jacobi sweep, shifted to keep v_0 at the origin; every 8th also
// computes the bracket [min Δ_v, max Δ_v], block-reduced into the interval
// solvers' check record and read back, and π̃·Δ_v (CUB's sum), the sweep's
// next estimate of the average. It stops where the bracket is as narrow as its
// rounding allows (long_run_setup.hpp), as the CPU's.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <utility>

#include "common/stopwatch.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/device_csr.hpp"
#include "cuda/long_run_kernels.hpp"
#include "cuda/stationary_kernels.hpp"
#include "solver/convergence.hpp"
#include "solver/gpu/gpu_solvers.hpp"
#include "solver/gpu/interval_loop.hpp"
#include "solver/gpu/solve_context.hpp"
#include "solver/linear/long_run_setup.hpp"
#include "solver/linear/stationary_damping.hpp"
#include "solver/parallel.hpp"
#include "solver/progress.hpp"

namespace pmc {

using namespace pmc::cuda;

SolveStats gpu_jacobi_long_run(const LongRunProblem& problem, LongRunBounds& bounds, const SolverSettings& settings) {
  const auto start = std::chrono::steady_clock::now();
  constexpr const char* k_name = "gpu.jacobi";
  require_valid_long_run(problem, k_name);
  const SparseMatrix& m = problem.rates;
  const uint64_t n = m.num_rows();
  SolveStats stats;
  stats.solver = k_name;
  stats.sound = true;
  if (n == 0) {
    bounds = {0, 0};
    stats.converged = true;
    return stats;
  }
  const std::vector<double> scale = long_run_scales(problem, k_stationary_damping, solver_threads(settings));

  const gpu::SolveContext context(settings);
  const StreamHandle stream = context.stream();
  const Stopwatch upload_clock;
  DeviceCsr rates(m, stream);
  DeviceBuffer<double> reward(problem.reward, stream), d_scale(scale, stream), v(n), w(n);
  v.fill_zero(stream);
  DeviceBuffer<double> distribution(problem.distribution, stream), weighted(n), total(1);
  const size_t scratch_bytes = sum_scratch_bytes(n);
  DeviceBuffer<unsigned char> scratch(std::max<size_t>(scratch_bytes, 1));
  const double mass = long_run_mass(problem);
  stats.transfer_seconds = upload_clock.seconds();
  const bool warp = gpu::interval_loop::warp_layout(settings, n, m.num_entries());
  stats.kernel = warp ? "warp-per-row" : "thread-per-row";
  // The matrix, reward, scale and v read, w written.
  stats.bytes_per_iteration = rates.bytes() + n * 8.0 * 4;

  gpu::interval_loop::CheckRecord record(stream);
  const auto read_bracket = [&](IntervalCheck* check) {
    launch_bias_bracket({n, rates.view(), reward.data(), v.data(), distribution.data(), weighted.data(), check},
                        warp, stream);
    device_sum_into(scratch.data(), scratch_bytes, weighted.data(), total.data(), n, stream);
  };
  // ĝ = π̃·Δ_v / Σπ̃ (long_run_bounds.cpp says why).
  const auto weighted_estimate = [&] {
    double sum = 0;
    copy_to_host(&sum, total.data(), sizeof sum, stream);
    return sum / mass;
  };
  read_bracket(record.reset());
  const gpu::interval_loop::CheckReading reading = record.read();
  bounds = {reading.lowest, reading.highest};
  double estimate = weighted_estimate();
  double residual = bounds.upper - bounds.lower;
  stats.converged = bounds_close(bounds.lower, bounds.upper, settings.epsilon, settings.relative);
  bool at_rounding = false;
  if (!stats.converged) {
    StreamTimer timer(stream);
    timer.start();
    ProgressReporter progress(settings, k_name, settings.max_iterations);
    stats.converged = gpu::interval_loop::iterate(
        [&](IntervalCheck* check) {
          launch_bias_sweep({n, rates.view(), reward.data(), d_scale.data(), estimate, 1.0 - k_stationary_damping,
                             v.data(), w.data()},
                            warp, stream);
          std::swap(v, w);
          if (check != nullptr) read_bracket(check);
        },
        [&](const gpu::interval_loop::CheckReading& r) {
          bounds = {r.lowest, r.highest};
          estimate = weighted_estimate();
          residual = bounds.upper - bounds.lower;
          at_rounding = long_run_at_rounding(bounds, r.widest);
          return at_rounding || bounds_close(bounds.lower, bounds.upper, settings.epsilon, settings.relative);
        },
        record, settings, stats, progress, residual);
    stats.loop_seconds = timer.stop_seconds();
    if (at_rounding) {
      stats.converged = bounds_close(bounds.lower, bounds.upper, settings.epsilon, settings.relative);
      if (!stats.converged) stats.notes.push_back(long_run_rounding_note(k_name, bounds));
    }
  }
  stats.seconds = seconds_since(start);
  return stats;
}

}  // namespace pmc
