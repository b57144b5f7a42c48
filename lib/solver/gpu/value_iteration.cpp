// gpu.vi: Jacobi-style value iteration for MDPs on the device (Berger 2014
// §3.5), with the convergence test read back every few iterations.
#include <algorithm>
#include <chrono>
#include <limits>

#include "common/stopwatch.hpp"
#include "cuda/device_csr.hpp"
#include "cuda/launch.hpp"
#include "cuda/linear_kernels.hpp"
#include "cuda/minmax_kernels.hpp"
#include "cuda/reduction_kernels.hpp"
#include "solver/device/device_selection.hpp"
#include "solver/gpu/gpu_solvers.hpp"
#include "solver/gpu/solve_context.hpp"
#include "solver/minmax/end_component_quotient.hpp"
#include "solver/progress.hpp"

namespace pmc {

namespace {

using namespace pmc::cuda;

constexpr uint64_t k_check_interval = 8;

SolveStats run(const MinMaxProblem& p, MinMaxSolution& solution, const SolverSettings& settings, bool bounded) {
  const auto start = std::chrono::steady_clock::now();
  const gpu::SolveContext context(settings);
  const StreamHandle stream = context.stream();
  const uint64_t n = p.num_unknowns();
  if (solution.x.empty()) solution.x.assign(n, 0.0);
  if (solution.x.size() != n) {
    throw Error(ErrorCode::invalid_argument, "gpu.vi: start vector has " + std::to_string(solution.x.size()) +
                                                 " values, the problem has " + std::to_string(n) + " unknowns");
  }
  DeviceCsr a(p.a, stream);
  DeviceBuffer<uint64_t> groups(p.row_groups, stream);
  DeviceBuffer<double> b(p.b, stream), x(solution.x, stream), y(solution.x.size()), diff(solution.x.size());
  DeviceBuffer<uint32_t> choice(n);
  DeviceScalar max_diff;
  // A warp per state pays off once a state has many entries over its choices.
  const bool warp = use_warp_per_row(n, a.entries);
  SolveStats stats;
  stats.solver = "gpu.vi";
  stats.kernel = warp ? "warp-per-state" : "thread-per-state";
  stats.bytes_per_iteration = a.bytes() + p.b.size() * 8.0 + (n + 1) * 8.0 + n * 8.0 * 2;
  // Bounded: at most max_iterations of the steps, and every
  // k_check_interval steps a bit-for-bit comparison of the last two iterates:
  // a stationary one is what every remaining step would give.
  const uint64_t limit = bounded ? std::min(p.steps, settings.max_iterations) : settings.max_iterations;
  DeviceBuffer<unsigned> changed_flag(bounded ? 1 : 0);
  bool stationary = false;
  StreamTimer timer(stream);
  timer.start();
  ProgressReporter progress(settings, "gpu.vi", limit);
  double residual = std::numeric_limits<double>::quiet_NaN();
  while (stats.iterations < limit) {
    progress.tick(stats.iterations, residual);
    const bool check = !bounded && ((stats.iterations + 1) % k_check_interval == 0 || stats.iterations + 1 == limit);
    BellmanUpdate u{n, groups.data(), a.view(), b.data(), x.data(), y.data(), check ? diff.data() : nullptr,
                    nullptr, p.maximize ? 1 : 0, settings.relative ? 1 : 0};
    launch_bellman(u, warp, stream);
    std::swap(x, y);
    ++stats.iterations;
    if (check && (residual = device_max(n, diff.data(), max_diff, stream)) < settings.epsilon) {
      stats.converged = true;
      break;
    }
    if (bounded && stats.iterations % k_check_interval == 0 && stats.iterations < p.steps &&
        device_identical(n, x.data(), y.data(), changed_flag, stream)) {
      stationary = true;
      stats.notes.push_back(stationary_note(stats.iterations, p.steps));
      break;
    }
  }
  if (bounded) {
    stats.converged = stationary || limit == p.steps;
    if (!stats.converged) stats.notes.push_back(step_limit_note("gpu.vi", limit, p.steps));
  }
  stats.loop_seconds = timer.stop_seconds();
  // One more update only to read off the optimal choices (values unchanged).
  BellmanUpdate final_update{n, groups.data(), a.view(), b.data(), x.data(), y.data(), nullptr, choice.data(),
                             p.maximize ? 1 : 0, 0};
  launch_bellman(final_update, warp, stream);
  x.download(solution.x, stream);
  choice.download(solution.choice, stream);
  stats.seconds = seconds_since(start);
  return stats;
}

// One GPU, or the states split over several (solver/device/device_selection.hpp).
SolveStats on_planned_devices(const MinMaxProblem& p, MinMaxSolution& solution, const SolverSettings& settings,
                              bool bounded) {
  const DevicePlan plan = plan_devices(settings, p.a.num_entries(), p.a.num_rows());
  if (plan.devices.size() > 1) {
    return gpu_value_iteration_partitioned(p, solution, settings, plan.devices, settings.gpu_exchange, bounded);
  }
  return run(p, solution, settings, bounded);
}

SolveStats unbounded_on_planned_devices(const MinMaxProblem& p, MinMaxSolution& solution,
                                        const SolverSettings& settings) {
  return on_planned_devices(p, solution, settings, false);
}

}  // namespace

// Minimize: zero-reward end components collapsed first, as cpu.vi does
// (iteration from 0 would stay at 0 inside them).
SolveStats gpu_value_iteration(const MinMaxProblem& p, MinMaxSolution& solution, const SolverSettings& settings) {
  if (p.maximize) return unbounded_on_planned_devices(p, solution, settings);
  return solve_with_end_components_collapsed(p, solution, settings, unbounded_on_planned_devices);
}

SolveStats gpu_value_iteration_without_collapse(const MinMaxProblem& p, MinMaxSolution& solution,
                                                const SolverSettings& settings) {
  return run(p, solution, settings, false);
}

SolveStats gpu_value_iteration_steps(const MinMaxProblem& p, MinMaxSolution& solution, const SolverSettings& settings) {
  return on_planned_devices(p, solution, settings, true);
}

}  // namespace pmc
