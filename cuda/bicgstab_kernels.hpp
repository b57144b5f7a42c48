// Launchers of gpu.bicgstab's vector updates (bicgstab_kernels.cu), each
// one thread per element with `blocks` blocks of k_block_threads, enqueued
// on `stream`. Its products and reductions are in linear_kernels.hpp and
// reduction_kernels.hpp.
#pragma once

#include <cstdint>

#include "cuda/device_runtime.hpp"

namespace pmc::cuda {

// p = r + β·(p − ω·v)
void launch_update_direction(unsigned blocks, uint64_t n, const double* r, const double* v, double beta, double omega,
                             double* p, StreamHandle stream);
// out = a + c·b
void launch_axpy_into(unsigned blocks, uint64_t n, const double* a, double c, const double* b, double* out,
                      StreamHandle stream);
// x += α·p + ω·s, diff_i = convergence difference of x_i.
void launch_update_solution(unsigned blocks, uint64_t n, const double* p, const double* s, double alpha, double omega,
                            double* x, double* diff, int relative, StreamHandle stream);

}  // namespace pmc::cuda
