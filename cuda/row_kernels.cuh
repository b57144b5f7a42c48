// Device code of the row update (RowUpdate, linear_kernels.hpp): a thread
// per row for short rows, a warp per row (lanes over the entries, shuffle
// reduction) for long ones (GPU-PRISM §3); launched from linear_kernels.cu.
#pragma once

#include <cstdint>

#include "cuda/check.cuh"
#include "cuda/launch.hpp"
#include "cuda/linear_kernels.hpp"  // RowUpdate
#include "cuda/reduce.cuh"

namespace pmc::cuda {

__device__ inline void finish_row(const RowUpdate& u, uint64_t i, double sum) {
  if (u.b) sum += u.b[i];
  if (u.scale) sum *= u.scale[i];
  u.y[u.slot_base + i] = sum;
  if (u.acc) u.acc[i] += u.coef * sum;
  if (u.diff) u.diff[i] = convergence_difference(u.x[u.slot_base + i], sum, u.relative);
}

static __global__ void row_update_thread(RowUpdate u) {
  const uint64_t i = u.first + blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (i >= u.rows) return;
  double sum = 0.0;
  for (uint64_t k = u.a.offsets[i]; k < u.a.offsets[i + 1]; ++k) {
    const uint32_t j = u.a.columns[k];
    if (!u.skip_diagonal || j != u.slot_base + i) sum += u.a.values[k] * u.x[j];
  }
  finish_row(u, i, sum);
}

static __global__ void row_update_warp(RowUpdate u) {
  const uint64_t i = u.first + (blockIdx.x * uint64_t{k_block_threads} + threadIdx.x) / k_warp;
  const unsigned lane = threadIdx.x % k_warp;
  if (i >= u.rows) return;  // whole warps leave together: i is the same for all lanes
  double sum = 0.0;
  for (uint64_t k = u.a.offsets[i] + lane; k < u.a.offsets[i + 1]; k += k_warp) {
    const uint32_t j = u.a.columns[k];
    if (!u.skip_diagonal || j != u.slot_base + i) sum += u.a.values[k] * u.x[j];
  }
  warp_sum(sum);
  if (lane == 0) finish_row(u, i, sum);
}

// Jacobi's scale_i = 1/(1 − a_ii), from the matrix on the device (no host
// copy of the matrix without its diagonal).
static __global__ void jacobi_scale(uint64_t rows, const uint64_t* offsets, const uint32_t* columns,
                                    const double* values, double* scale) {
  const uint64_t i = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (i >= rows) return;
  double diagonal = 0.0;
  for (uint64_t k = offsets[i]; k < offsets[i + 1]; ++k) {
    if (columns[k] == i) diagonal += values[k];
  }
  scale[i] = 1.0 / (1.0 - diagonal);
}

// GPU-PRISM's alternative (§4): one thread per entry writes its product and
// a segmented reduction (CUB) sums each row, which balances rows of very
// different lengths at the price of writing and reading the products.
static __global__ void entry_products(uint64_t entries, const uint32_t* columns, const double* values, const double* x,
                               double* products) {
  const uint64_t k = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (k < entries) products[k] = values[k] * x[columns[k]];
}

// y_i from the per-row sums of the segmented reduction.
static __global__ void finish_rows(RowUpdate u, const double* row_sums) {
  const uint64_t i = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (i < u.rows) finish_row(u, i, row_sums[i]);
}

}  // namespace pmc::cuda
