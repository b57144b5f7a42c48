// The iteration loop gpu.jacobi shares between linear systems (jacobi.cpp)
// and stationary distributions (stationary.cpp): progress and cancellation
// between launches, the largest change read back every k_check_interval-th
// iteration (one double costs a few microseconds, about an iteration of a
// mid-size model: checking every 8th keeps the cost small and overshoots
// by at most 7 iterations), the loop timed by CUDA events.
#pragma once

#include <cstdint>
#include <limits>

#include "cuda/device_runtime.hpp"
#include "cuda/reduction_kernels.hpp"
#include "solver/problem.hpp"
#include "solver/progress.hpp"

namespace pmc::gpu {

inline constexpr uint64_t k_jacobi_check_interval = 8;

// Runs `step(check)` until the largest change (written by the step into
// `diff`, n values, on the iterations where `check` is true) is below ε or
// the iteration limit is reached. Sets stats.iterations, converged and
// loop_seconds; `name` is the solver's, for progress.
template <typename Step>
void run_jacobi_loop(const SolverSettings& settings, cuda::StreamHandle stream, const char* name, uint64_t n,
                     const double* diff, SolveStats& stats, Step step) {
  cuda::DeviceScalar max_diff;
  cuda::StreamTimer timer(stream);
  timer.start();
  ProgressReporter progress(settings, name, settings.max_iterations);
  double residual = std::numeric_limits<double>::quiet_NaN();
  while (stats.iterations < settings.max_iterations) {
    progress.tick(stats.iterations, residual);  // cancellation: between launches, nothing half written
    const bool check = (stats.iterations + 1) % k_jacobi_check_interval == 0 ||
                       stats.iterations + 1 == settings.max_iterations;
    step(check);
    ++stats.iterations;
    if (check && (residual = cuda::device_max(n, diff, max_diff, stream)) < settings.epsilon) {
      stats.converged = true;
      break;
    }
  }
  stats.loop_seconds = timer.stop_seconds();
}

}  // namespace pmc::gpu
