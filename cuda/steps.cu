// gpu.steps: v_{k+1} = A·v_k + b and Σ_k c_k·v_k (uniformisation) on the
// device; the weighted sum is accumulated in the same kernel as the product.
#include <chrono>

#include "cuda/device_context.cuh"
#include "cuda/device_csr.cuh"
#include "cuda/gpu_solvers.hpp"
#include "cuda/row_kernels.cuh"
#include "solver/progress.hpp"

namespace pmc {

using namespace pmc::cuda;

SolveStats gpu_steps(const StepProblem& p, std::vector<double>& result, const SolverSettings& settings) {
  const auto start = std::chrono::steady_clock::now();
  select_device(settings);
  const uint64_t n = p.a.num_rows();
  DeviceCsr a(p.a);
  DeviceBuffer<double> b, v(p.x0), next(p.x0.size()), acc;
  if (!p.b.empty()) b.upload(p.b);
  const bool accumulate = !p.coefficients.empty();
  if (accumulate) {
    std::vector<double> first(p.x0.size());
    for (uint64_t i = 0; i < n; ++i) first[i] = p.coefficients[0] * p.x0[i];
    acc.upload(first);
  }
  const bool warp = use_warp_per_row(n, a.entries);
  SolveStats stats;
  stats.solver = "gpu.steps";
  stats.kernel = warp ? "warp-per-row" : "thread-per-row";
  stats.bytes_per_iteration = a.bytes() + n * 8.0 * (2 + (p.b.empty() ? 0 : 1) + (accumulate ? 2 : 0));
  EventTimer timer;
  timer.start();
  ProgressReporter progress(settings, "gpu.steps", p.steps);
  for (uint64_t k = 1; k <= p.steps; ++k) {
    progress.tick(k - 1);
    RowUpdate u{n,       a.offsets.data(), a.columns.data(), a.values.data(), p.b.empty() ? nullptr : b.data(), nullptr,
                v.data(), next.data(),     nullptr,          accumulate ? acc.data() : nullptr,
                accumulate ? p.coefficients[k] : 0.0, 0, 0};
    launch_row_update(u, warp);
    std::swap(v, next);
    ++stats.iterations;
  }
  stats.loop_seconds = timer.stop_seconds();
  (accumulate ? acc : v).download(result);
  stats.converged = true;
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return stats;
}

}  // namespace pmc
