// reduction_kernels.hpp's reductions over the kernels of reduce.cuh.
#include "cuda/check.cuh"
#include "cuda/reduce.cuh"
#include "cuda/reduction_kernels.hpp"

namespace pmc::cuda {

void launch_max_into(uint64_t n, const double* values, double* into, StreamHandle stream) {
  max_kernel<<<reduction_blocks(n), k_block_threads, 0, stream>>>(n, values, into);
  PMC_CUDA_CHECK_LAUNCH("max_kernel");
}

double device_max(uint64_t n, const double* values, DeviceScalar& scratch, StreamHandle stream) {
  scratch.reset(0.0, stream);
  launch_max_into(n, values, scratch.data(), stream);
  return scratch.read(stream);
}

double device_dot(uint64_t n, const double* a, const double* b, DeviceScalar& scratch, StreamHandle stream) {
  scratch.reset(0.0, stream);
  dot_kernel<<<reduction_blocks(n), k_block_threads, 0, stream>>>(n, a, b, scratch.data());
  PMC_CUDA_CHECK_LAUNCH("dot_kernel");
  return scratch.read(stream);
}

double device_max_abs(uint64_t n, const double* a, DeviceScalar& scratch, StreamHandle stream) {
  scratch.reset(0.0, stream);
  max_abs_kernel<<<reduction_blocks(n), k_block_threads, 0, stream>>>(n, a, scratch.data());
  PMC_CUDA_CHECK_LAUNCH("max_abs_kernel");
  return scratch.read(stream);
}

}  // namespace pmc::cuda
