// SpMV rows over the warp-segmented layout of solver/linear/matrix_layouts.hpp
// (Wijs–Bošnački 2013, Algorithms 2 and 3): a warp covers one segment;
// lane l of the warp reads slot segment_start + k·stride + l in step k, so
// the 32 loads of a step are consecutive. The matrix holds no diagonal
// (Jacobi's scale carries it).
#pragma once

#include <cstdint>

#include "cuda/check.cuh"
#include "cuda/launch.hpp"
#include "cuda/row_kernels.cuh"

namespace pmc::cuda {

static __global__ void segment_row_update(DeviceSegments m, RowUpdate u) {
  const uint64_t thread = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  const uint64_t segment = thread / k_warp;
  const unsigned lane = threadIdx.x % k_warp;
  const uint64_t first = segment * m.segment_rows;
  if (first >= m.rows) return;  // whole warps leave together
  const uint64_t segment_rows = min(uint64_t{m.segment_rows}, m.rows - first);
  const uint64_t stride = segment_rows * m.lanes_per_row;
  const uint64_t row = first + lane / m.lanes_per_row;
  double sum = 0.0;
  if (lane < stride) {
    const uint64_t end = m.segment_starts[segment + 1];
    for (uint64_t k = m.segment_starts[segment] + lane; k < end; k += stride) sum += m.values[k] * u.x[m.columns[k]];
  }
  if (m.lanes_per_row == 2) sum += __shfl_down_sync(0xffffffffu, sum, 1);
  if (lane < stride && lane % m.lanes_per_row == 0) finish_row(u, row, sum);
}

}  // namespace pmc::cuda
