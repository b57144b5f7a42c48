// Issue 23's stationarity test for gpu.steps and bounded gpu.vi: is the
// iterate bit-for-bit the previous one? Every later step would then compute
// the same vector again, so the bounded loop may stop with the exact result.
// One flag word, set by any differing element and read back like the
// convergence scalars of cuda/scalar.cuh (every few steps, not every one).
#pragma once

#include <algorithm>
#include <cstdint>

#include "cuda/device_buffer.cuh"
#include "cuda/launch.cuh"

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

// True when a and b (n values each, on the device) are identical bit for bit.
inline bool device_identical(uint64_t n, const double* a, const double* b, DeviceBuffer<unsigned>& flag) {
  if (n == 0) return true;
  if (flag.size() == 0) flag.allocate(1);
  flag.fill_zero();
  const unsigned blocks = static_cast<unsigned>(std::min<uint64_t>(blocks_for_threads(n), 4096));
  differ_kernel<<<blocks, k_block_threads>>>(n, a, b, flag.data());
  PMC_CUDA_CHECK_LAUNCH("differ_kernel");
  unsigned changed = 0;
  PMC_CUDA_CHECK(cudaMemcpy(&changed, flag.data(), sizeof changed, cudaMemcpyDeviceToHost));
  return changed == 0;
}

inline void device_axpy(uint64_t n, double c, const double* x, double* y) {
  if (n == 0) return;
  axpy_kernel<<<blocks_for_threads(n), k_block_threads>>>(n, c, x, y);
  PMC_CUDA_CHECK_LAUNCH("axpy_kernel");
}

}  // namespace pmc::cuda
