// Device-side reductions for convergence tests and Krylov dot products:
// one block-level CUB reduction per block, then one atomic per block into a
// device scalar, so only a single double crosses to the host per check.
#pragma once

#include <cub/block/block_reduce.cuh>

#include "cuda/launch.hpp"

namespace pmc::cuda {

struct MaxOp {
  __device__ double operator()(double a, double b) const { return fmax(a, b); }
};

// For v >= 0 the IEEE bit patterns order like the values.
__device__ inline void atomic_max_nonnegative(double* target, double v) {
  atomicMax(reinterpret_cast<unsigned long long*>(target), static_cast<unsigned long long>(__double_as_longlong(v)));
}

// *out = max(*out, max_i values[i]) for non-negative values.
static __global__ void max_kernel(uint64_t n, const double* values, double* out) {
  using Reduce = cub::BlockReduce<double, k_block_threads>;
  __shared__ typename Reduce::TempStorage storage;
  double local = 0.0;
  for (uint64_t i = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x; i < n; i += uint64_t{gridDim.x} * k_block_threads) {
    local = fmax(local, values[i]);
  }
  const double block = Reduce(storage).Reduce(local, MaxOp());
  if (threadIdx.x == 0) atomic_max_nonnegative(out, block);
}

// *out += Σ_i a[i]·b[i].
static __global__ void dot_kernel(uint64_t n, const double* a, const double* b, double* out) {
  using Reduce = cub::BlockReduce<double, k_block_threads>;
  __shared__ typename Reduce::TempStorage storage;
  double local = 0.0;
  for (uint64_t i = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x; i < n; i += uint64_t{gridDim.x} * k_block_threads) {
    local += a[i] * b[i];
  }
  const double block = Reduce(storage).Sum(local);
  if (threadIdx.x == 0) atomicAdd(out, block);
}

// *out = max(*out, max_i |a[i]|).
static __global__ void max_abs_kernel(uint64_t n, const double* a, double* out) {
  using Reduce = cub::BlockReduce<double, k_block_threads>;
  __shared__ typename Reduce::TempStorage storage;
  double local = 0.0;
  for (uint64_t i = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x; i < n; i += uint64_t{gridDim.x} * k_block_threads) {
    local = fmax(local, fabs(a[i]));
  }
  const double block = Reduce(storage).Reduce(local, MaxOp());
  if (threadIdx.x == 0) atomic_max_nonnegative(out, block);
}

// Sums the values of a warp's lanes into lane 0's (the other lanes end with
// partial sums). Every lane of the warp must call it.
__device__ inline void warp_sum(double& value) {
  for (int delta = k_warp / 2; delta > 0; delta /= 2) value += __shfl_down_sync(0xffffffffu, value, delta);
}
__device__ inline void warp_sum(double2& value) {
  for (int delta = k_warp / 2; delta > 0; delta /= 2) {
    value.x += __shfl_down_sync(0xffffffffu, value.x, delta);
    value.y += __shfl_down_sync(0xffffffffu, value.y, delta);
  }
}

// Grid for the grid-stride reductions: enough blocks to fill the GPU, few
// enough that the atomics stay negligible.
inline unsigned reduction_blocks(uint64_t n) {
  const unsigned needed = blocks_for_threads(n);
  return needed < 1024 ? (needed == 0 ? 1 : needed) : 1024;
}

__device__ inline double convergence_difference(double old_value, double new_value, int relative) {
  const double diff = fabs(new_value - old_value);
  return (relative && new_value != 0.0) ? diff / fabs(new_value) : diff;
}

}  // namespace pmc::cuda
