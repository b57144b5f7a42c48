// gpu.bicgstab's vector updates (bicgstab_kernels.hpp).
#include "cuda/bicgstab_kernels.hpp"
#include "cuda/check.cuh"
#include "cuda/launch.hpp"
#include "cuda/reduce.cuh"  // convergence_difference

namespace pmc::cuda {

namespace {

__global__ void update_direction(uint64_t n, const double* r, const double* v, double beta, double omega, double* p) {
  const uint64_t i = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (i < n) p[i] = r[i] + beta * (p[i] - omega * v[i]);
}

__global__ void axpy_into(uint64_t n, const double* a, double c, const double* b, double* out) {
  const uint64_t i = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (i < n) out[i] = a[i] + c * b[i];
}

__global__ void update_solution(uint64_t n, const double* p, const double* s, double alpha, double omega, double* x,
                                double* diff, int relative) {
  const uint64_t i = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (i >= n) return;
  const double old_value = x[i];
  const double new_value = old_value + alpha * p[i] + omega * s[i];
  x[i] = new_value;
  diff[i] = convergence_difference(old_value, new_value, relative);
}

}  // namespace

void launch_update_direction(unsigned blocks, uint64_t n, const double* r, const double* v, double beta, double omega,
                             double* p, StreamHandle stream) {
  update_direction<<<blocks, k_block_threads, 0, stream>>>(n, r, v, beta, omega, p);
  PMC_CUDA_CHECK_LAUNCH("update_direction");
}

void launch_axpy_into(unsigned blocks, uint64_t n, const double* a, double c, const double* b, double* out,
                      StreamHandle stream) {
  axpy_into<<<blocks, k_block_threads, 0, stream>>>(n, a, c, b, out);
  PMC_CUDA_CHECK_LAUNCH("axpy_into");
}

void launch_update_solution(unsigned blocks, uint64_t n, const double* p, const double* s, double alpha, double omega,
                            double* x, double* diff, int relative, StreamHandle stream) {
  update_solution<<<blocks, k_block_threads, 0, stream>>>(n, p, s, alpha, omega, x, diff, relative);
  PMC_CUDA_CHECK_LAUNCH("update_solution");
}

}  // namespace pmc::cuda
