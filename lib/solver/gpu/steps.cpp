// gpu.steps: v_{k+1} = A·v_k + b and Σ_k c_k·v_k (uniformisation) on the
// device; the weighted sum is accumulated in the same kernel as the product.
// Every k_stationary_check steps the last two iterates are compared bit for
// bit on the device: a stationary iterate ends the loop with the exact
// result of all steps, the rest of the weighted sum added at once.
#include <algorithm>
#include <chrono>

#include "common/stopwatch.hpp"
#include "cuda/device_csr.hpp"
#include "cuda/launch.hpp"
#include "cuda/linear_kernels.hpp"
#include "solver/gpu/gpu_solvers.hpp"
#include "solver/gpu/solve_context.hpp"
#include "solver/progress.hpp"

namespace pmc {

using cuda::DeviceBuffer;

namespace {
// As gpu.vi's convergence check: one flag read back per 8 steps keeps the
// loop launch-bound rather than copy-bound, and overshoots by at most 7 steps.
constexpr uint64_t k_stationary_check = 8;
}  // namespace

SolveStats gpu_steps(const StepProblem& p, std::vector<double>& result, const SolverSettings& settings) {
  const auto start = std::chrono::steady_clock::now();
  const gpu::SolveContext context(settings);
  const cuda::StreamHandle stream = context.stream();
  const uint64_t n = p.a.num_rows();
  cuda::DeviceCsr a(p.a, stream);
  DeviceBuffer<double> b, v(p.x0, stream), next(p.x0.size()), acc;
  if (!p.b.empty()) b.upload(p.b, stream);
  const bool accumulate = p.weighted();
  if (accumulate) {
    std::vector<double> first(p.x0.size());
    const double c0 = p.coefficient(0);
    for (uint64_t i = 0; i < n; ++i) first[i] = c0 * p.x0[i];
    acc.upload(first, stream);
  }
  const bool warp = cuda::use_warp_per_row(n, a.entries);
  SolveStats stats;
  stats.solver = "gpu.steps";
  stats.kernel = warp ? "warp-per-row" : "thread-per-row";
  stats.bytes_per_iteration = a.bytes() + n * 8.0 * (2 + (p.b.empty() ? 0 : 1) + (accumulate ? 2 : 0));
  const uint64_t limit = std::min(p.steps, settings.max_iterations);
  DeviceBuffer<unsigned> changed_flag(1);
  bool stationary = false;
  cuda::StreamTimer timer(stream);
  timer.start();
  ProgressReporter progress(settings, "gpu.steps", p.steps);
  for (uint64_t k = 1; k <= limit; ++k) {
    progress.tick(k - 1);
    cuda::RowUpdate u{n, a.view(), p.b.empty() ? nullptr : b.data(), nullptr, v.data(), next.data(), nullptr,
                      accumulate ? acc.data() : nullptr, accumulate ? p.coefficient(k) : 0.0, 0, 0};
    cuda::launch_row_update(u, warp, stream);
    std::swap(v, next);
    ++stats.iterations;
    if (k % k_stationary_check == 0 && k < p.steps &&
        cuda::device_identical(n, v.data(), next.data(), changed_flag, stream)) {
      stationary = true;
      if (accumulate) cuda::device_axpy(n, steps_weight_after(p, k), v.data(), acc.data(), stream);
      stats.notes.push_back(stationary_note(k, p.steps));
      break;
    }
  }
  stats.loop_seconds = timer.stop_seconds();
  (accumulate ? acc : v).download(result, stream);
  stats.converged = stationary || limit == p.steps;
  if (!stats.converged) stats.notes.push_back(step_limit_note("gpu.steps", limit, p.steps));
  stats.seconds = seconds_since(start);
  return stats;
}

}  // namespace pmc
