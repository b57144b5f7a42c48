// Launchers of the kernels that turn gpu.jacobi's row update into damped
// Jacobi on a stationary system π·(I − P) = 0 (stationary_kernels.cu; host
// half lib/solver/gpu/stationary.cpp). The row update computes
// y_j = ω·Σ_i π_i·m_ij / d_j; these add the damping's (1 − ω)·π_j, sum the
// iterate and normalise it to 1. Each enqueues its work on `stream`.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuda/device_runtime.hpp"

namespace pmc::cuda {

// y_j += keep·x_j for j < n (keep = 1 − ω). n > 0.
void launch_stationary_relax(uint64_t n, double keep, const double* x, double* y, StreamHandle stream);

// The scratch bytes device_sum_into needs for n values.
size_t sum_scratch_bytes(uint64_t n);
// *total = Σ_j y_j (CUB's device reduction: the same bits on every run of
// the same device and n).
void device_sum_into(void* scratch, size_t scratch_bytes, const double* y, double* total, uint64_t n,
                     StreamHandle stream);

// y_j /= *total, and, where diff is not null, diff_j = the convergence
// difference between x_j and the normalised y_j. n > 0.
void launch_stationary_normalise(uint64_t n, const double* total, const double* x, double* y, double* diff,
                                 int relative, StreamHandle stream);

}  // namespace pmc::cuda
