// Device code of the stationarity test for gpu.steps and bounded gpu.vi
// (device_identical, linear_kernels.hpp): one flag word, set by any
// differing element and read back every few steps, like the convergence
// scalars of reduction_kernels.hpp.
#pragma once

#include <cstdint>

#include "cuda/check.cuh"
#include "cuda/launch.hpp"

namespace pmc::cuda {

// *changed = 1 if some a[i] and b[i] differ in any bit (-0.0 vs 0.0, NaN
// payloads included: only identical words count as stationary).
static __global__ void differ_kernel(uint64_t n, const double* a, const double* b, unsigned* changed) {
  for (uint64_t i = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x; i < n;
       i += uint64_t{gridDim.x} * k_block_threads) {
    if (__double_as_longlong(a[i]) != __double_as_longlong(b[i])) {
      *changed = 1u;  // every writer writes 1: no atomic needed
      return;
    }
  }
}

// y[i] += c·x[i]: the remaining weight of a stationary iterate.
static __global__ void axpy_kernel(uint64_t n, double c, const double* x, double* y) {
  const uint64_t i = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (i < n) y[i] += c * x[i];
}

}  // namespace pmc::cuda
