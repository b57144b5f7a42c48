// linear_kernels.hpp's launchers over the kernels of row_kernels.cuh,
// segment_kernels.cuh and steps_kernels.cuh.
#include <algorithm>

#include <cub/device/device_segmented_reduce.cuh>

#include "cuda/check.cuh"
#include "cuda/launch_per_item.cuh"
#include "cuda/linear_kernels.hpp"
#include "cuda/row_kernels.cuh"
#include "cuda/segment_kernels.cuh"
#include "cuda/steps_kernels.cuh"

namespace pmc::cuda {

void launch_row_update(const RowUpdate& u, bool warp_per_row, StreamHandle stream) {
  if (u.rows <= u.first) return;
  launch_thread_or_warp_per_item(row_update_thread, row_update_warp, warp_per_row, u.rows - u.first, u, stream,
                                 "row_update");
}

void launch_segment_row_update(const DeviceSegments& m, const RowUpdate& u, StreamHandle stream) {
  if (m.rows == 0) return;
  const uint64_t segments = (m.rows + m.segment_rows - 1) / m.segment_rows;
  segment_row_update<<<blocks_for_warps(segments), k_block_threads, 0, stream>>>(m, u);
  PMC_CUDA_CHECK_LAUNCH("segment_row_update");
}

void launch_jacobi_scale(uint64_t rows, const CsrView& a, double* scale, StreamHandle stream) {
  jacobi_scale<<<blocks_for_threads(rows), k_block_threads, 0, stream>>>(rows, a.offsets, a.columns, a.values, scale);
  PMC_CUDA_CHECK_LAUNCH("jacobi_scale");
}

void launch_entry_products(uint64_t entries, const uint32_t* columns, const double* values, const double* x,
                           double* products, StreamHandle stream) {
  entry_products<<<blocks_for_threads(entries), k_block_threads, 0, stream>>>(entries, columns, values, x, products);
  PMC_CUDA_CHECK_LAUNCH("entry_products");
}

size_t segmented_sum_scratch_bytes(uint64_t rows, const uint64_t* offsets) {
  size_t bytes = 0;
  PMC_CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(nullptr, bytes, static_cast<const double*>(nullptr),
                                                 static_cast<double*>(nullptr), static_cast<int>(rows), offsets,
                                                 offsets + 1));
  return bytes;
}

void segmented_sum(void* scratch, size_t scratch_bytes, const double* products, double* row_sums, uint64_t rows,
                   const uint64_t* offsets, StreamHandle stream) {
  PMC_CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(scratch, scratch_bytes, products, row_sums, static_cast<int>(rows),
                                                 offsets, offsets + 1, stream));
}

void launch_finish_rows(const RowUpdate& u, const double* row_sums, StreamHandle stream) {
  finish_rows<<<blocks_for_threads(u.rows), k_block_threads, 0, stream>>>(u, row_sums);
  PMC_CUDA_CHECK_LAUNCH("finish_rows");
}

bool device_identical(uint64_t n, const double* a, const double* b, DeviceBuffer<unsigned>& flag,
                      StreamHandle stream) {
  if (n == 0) return true;
  if (flag.size() == 0) flag.allocate(1);
  flag.fill_zero(stream);
  const unsigned blocks = static_cast<unsigned>(std::min<uint64_t>(blocks_for_threads(n), 4096));
  differ_kernel<<<blocks, k_block_threads, 0, stream>>>(n, a, b, flag.data());
  PMC_CUDA_CHECK_LAUNCH("differ_kernel");
  unsigned changed = 0;
  copy_to_host(&changed, flag.data(), sizeof changed, stream);
  return changed == 0;
}

void device_axpy(uint64_t n, double c, const double* x, double* y, StreamHandle stream) {
  if (n == 0) return;
  axpy_kernel<<<blocks_for_threads(n), k_block_threads, 0, stream>>>(n, c, x, y);
  PMC_CUDA_CHECK_LAUNCH("axpy_kernel");
}

}  // namespace pmc::cuda
