// stationary_kernels.hpp's launchers and their kernels.
#include <cub/device/device_reduce.cuh>

#include "cuda/check.cuh"
#include "cuda/launch.hpp"
#include "cuda/reduce.cuh"
#include "cuda/stationary_kernels.hpp"

namespace pmc::cuda {

namespace {

__global__ void stationary_relax(uint64_t n, double keep, const double* x, double* y) {
  const uint64_t j = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (j < n) y[j] += keep * x[j];
}

__global__ void stationary_normalise(uint64_t n, const double* total, const double* x, double* y, double* diff,
                                     int relative) {
  const uint64_t j = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (j >= n) return;
  const double value = y[j] / *total;
  y[j] = value;
  if (diff) diff[j] = convergence_difference(x[j], value, relative);
}

}  // namespace

void launch_stationary_relax(uint64_t n, double keep, const double* x, double* y, StreamHandle stream) {
  stationary_relax<<<blocks_for_threads(n), k_block_threads, 0, stream>>>(n, keep, x, y);
  PMC_CUDA_CHECK_LAUNCH("stationary_relax");
}

size_t sum_scratch_bytes(uint64_t n) {
  size_t bytes = 0;
  PMC_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const double*>(nullptr),
                                        static_cast<double*>(nullptr), static_cast<int64_t>(n)));
  return bytes;
}

void device_sum_into(void* scratch, size_t scratch_bytes, const double* y, double* total, uint64_t n,
                     StreamHandle stream) {
  PMC_CUDA_CHECK(cub::DeviceReduce::Sum(scratch, scratch_bytes, y, total, static_cast<int64_t>(n), stream));
}

void launch_stationary_normalise(uint64_t n, const double* total, const double* x, double* y, double* diff,
                                 int relative, StreamHandle stream) {
  stationary_normalise<<<blocks_for_threads(n), k_block_threads, 0, stream>>>(n, total, x, y, diff, relative);
  PMC_CUDA_CHECK_LAUNCH("stationary_normalise");
}

}  // namespace pmc::cuda
