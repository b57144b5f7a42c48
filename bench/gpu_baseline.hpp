// What a user could assemble from NVIDIA's libraries, measured beside pmc's
// own GPU solvers in bench/gpu_benchmark: a Jacobi iteration built on
// cusparseSpMV (CSR, 32-bit indices) plus a CUB reduction for the convergence
// test, and a device-to-device copy as the bandwidth ceiling. Host-callable,
// implemented in cusparse_jacobi.cu.
#pragma once

#include <cstdint>
#include <vector>

#include "solver/problem.hpp"

namespace pmc::bench {

struct BaselineRun {
  uint64_t iterations = 0;
  bool converged = false;
  double loop_seconds = 0;  // CUDA events around the iteration loop
};

// x = A·x + b by Jacobi: y ← b, y ← A·x + y (cusparseSpMV, beta = 1),
// diff = max_i |y_i − x_i| (/|y_i| when relative) by
// cub::DeviceReduce::TransformReduce, read back every iteration (the
// straightforward loop). x: start in, solution out.
BaselineRun cusparse_jacobi(const LinearSystem& system, std::vector<double>& x, const SolverSettings& settings);

// Device-to-device cudaMemcpy of `bytes` bytes: GB/s counting read + write,
// median of 5 after a warm-up, on settings.device.
double copy_bandwidth_gbs(uint64_t bytes, const SolverSettings& settings);

}  // namespace pmc::bench
