// The one row update behind gpu.jacobi, gpu.power-style steps and
// uniformisation: y_i = scale_i·(b_i + Σ_k a_k·x[col_k]), optionally
// acc_i += coef·y_i (uniformisation's weighted sum) and diff_i = the
// convergence difference between x_i and y_i. Null pointers switch parts off.
// Two layouts (GPU-PRISM §3): a thread per row for short rows, a warp per
// row (lanes over the entries, shuffle reduction) for long ones.
#pragma once

#include <cstdint>

#include "cuda/launch.cuh"
#include "cuda/reduce.cuh"

namespace pmc::cuda {

struct RowUpdate {
  uint64_t rows;
  const uint64_t* offsets;
  const uint32_t* columns;
  const double* values;
  const double* b;      // may be null
  const double* scale;  // may be null (1)
  const double* x;
  double* y;
  double* diff;  // may be null
  double* acc;   // may be null
  double coef;
  int relative;
  int skip_diagonal;  // Jacobi on the system as given: leave a_ii out of the sum (scale holds 1/(1 − a_ii))
  // Slices of a multi-GPU solve (cuda/partitioned_solve.cu): only rows
  // [first, rows) are updated, and row i's own value sits at x[slot_base + i]
  // and y[slot_base + i] (the padded iterate of solver/device/row_partition.hpp).
  uint64_t first = 0;
  uint64_t slot_base = 0;
};

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
  for (uint64_t k = u.offsets[i]; k < u.offsets[i + 1]; ++k) {
    const uint32_t j = u.columns[k];
    if (!u.skip_diagonal || j != u.slot_base + i) sum += u.values[k] * u.x[j];
  }
  finish_row(u, i, sum);
}

static __global__ void row_update_warp(RowUpdate u) {
  const uint64_t i = u.first + (blockIdx.x * uint64_t{k_block_threads} + threadIdx.x) / k_warp;
  const unsigned lane = threadIdx.x % k_warp;
  if (i >= u.rows) return;  // whole warps leave together: i is the same for all lanes
  double sum = 0.0;
  for (uint64_t k = u.offsets[i] + lane; k < u.offsets[i + 1]; k += k_warp) {
    const uint32_t j = u.columns[k];
    if (!u.skip_diagonal || j != u.slot_base + i) sum += u.values[k] * u.x[j];
  }
  for (int delta = k_warp / 2; delta > 0; delta /= 2) sum += __shfl_down_sync(0xffffffffu, sum, delta);
  if (lane == 0) finish_row(u, i, sum);
}

static inline void launch_row_update(const RowUpdate& u, bool warp_per_row, cudaStream_t stream = nullptr) {
  if (u.rows <= u.first) return;
  const uint64_t count = u.rows - u.first;
  if (warp_per_row) {
    row_update_warp<<<blocks_for_warps(count), k_block_threads, 0, stream>>>(u);
  } else {
    row_update_thread<<<blocks_for_threads(count), k_block_threads, 0, stream>>>(u);
  }
  PMC_CUDA_CHECK_LAUNCH("row_update");
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
