// gpu.jacobi on a stationary system (one bottom SCC's π·(I − P) = 0, the
// long-run and steady-state checks): the damped Jacobi iteration of
// cpu.jacobi (solver/linear/stationary_damping.hpp) on the device. Each
// iteration is gpu.jacobi's row update over the incoming entries, scaled by
// ω/d_j, then the damping's (1 − ω)·π_j, the iterate's sum (CUB) and its
// normalisation, all on the device; the loop and its convergence test (the
// largest change of the normalised iterate) are gpu.jacobi's (jacobi_loop.hpp).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>

#include "common/error.hpp"
#include "common/stopwatch.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/device_csr.hpp"
#include "cuda/launch.hpp"
#include "cuda/linear_kernels.hpp"
#include "cuda/reduction_kernels.hpp"
#include "cuda/stationary_kernels.hpp"
#include "solver/gpu/gpu_solvers.hpp"
#include "solver/gpu/jacobi_loop.hpp"
#include "solver/gpu/solve_context.hpp"
#include "solver/linear/stationary_damping.hpp"
#include "solver/progress.hpp"

namespace pmc {

using namespace pmc::cuda;

SolveStats gpu_jacobi_stationary(const StationarySystem& system, std::vector<double>& x,
                                 const SolverSettings& settings) {
  const auto start = std::chrono::steady_clock::now();
  const SparseMatrix& m = system.incoming;
  const uint64_t n = m.num_rows();
  if (x.size() != n || system.outflow.size() != n) {
    throw Error(ErrorCode::invalid_argument, "gpu.jacobi: the stationary system has " + std::to_string(n) +
                                                 " rows, " + std::to_string(system.outflow.size()) +
                                                 " outflows and a start vector of " + std::to_string(x.size()));
  }
  SolveStats stats;
  stats.solver = "gpu.jacobi";
  if (n == 0) {
    stats.converged = true;
    return stats;
  }
  // The damped update mixes old and new values, so both must be on the
  // same scale: the normalised start (uniform if it has no mass or is not
  // finite), as cpu.gauss-seidel starts.
  double start_total = 0.0;
  for (double v : x) start_total += v;
  const bool usable = start_total > 0 && std::isfinite(start_total);
  for (double& v : x) v = usable ? v / start_total : 1.0 / static_cast<double>(n);
  std::vector<double> scale(n);
  for (uint64_t j = 0; j < n; ++j) scale[j] = k_stationary_damping / system.outflow[j];

  const gpu::SolveContext context(settings);
  const StreamHandle stream = context.stream();
  DeviceCsr incoming(m, stream);
  DeviceBuffer<double> d_scale(scale, stream), x_old(x, stream), x_new(n), diff(n), total(1);
  const size_t scratch_bytes = sum_scratch_bytes(n);
  DeviceBuffer<unsigned char> scratch(std::max<size_t>(scratch_bytes, 1));
  const bool warp = settings.gpu_layout == GpuLayout::warp_per_row ||
                    (settings.gpu_layout != GpuLayout::thread_per_row && use_warp_per_row(n, m.num_entries()));
  stats.kernel = warp ? "warp-per-row" : "thread-per-row";
  // Matrix, scale, x gathered (at least once) and read for the damping, y
  // written, relaxed, summed and normalised, diff on check iterations.
  stats.bytes_per_iteration = incoming.bytes() + n * 8.0 * 8;
  gpu::run_jacobi_loop(settings, stream, "gpu.jacobi", n, diff.data(), stats, [&](bool check) {
    const RowUpdate u{n, incoming.view(), nullptr, d_scale.data(), x_old.data(), x_new.data(), nullptr, nullptr, 0.0,
                      settings.relative ? 1 : 0, 0};
    launch_row_update(u, warp, stream);
    launch_stationary_relax(n, 1.0 - k_stationary_damping, x_old.data(), x_new.data(), stream);
    device_sum_into(scratch.data(), scratch_bytes, x_new.data(), total.data(), n, stream);
    launch_stationary_normalise(n, total.data(), x_old.data(), x_new.data(), check ? diff.data() : nullptr,
                                settings.relative ? 1 : 0, stream);
    std::swap(x_old, x_new);
  });
  x_old.download(x, stream);
  stats.seconds = seconds_since(start);
  return stats;
}

}  // namespace pmc
