// Launchers of the kernels behind gpu.jacobi, gpu.segscan-jacobi, gpu.steps
// and gpu.bicgstab (linear_kernels.cu), over plain views of device memory:
// host code calls them without nvcc. Each enqueues its work on `stream` and
// returns; only the reductions that hand a value to the host wait for it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuda/device_buffer.hpp"
#include "cuda/device_csr.hpp"
#include "cuda/device_runtime.hpp"

namespace pmc::cuda {

// The one row update behind gpu.jacobi, gpu.power-style steps and
// uniformisation: y_i = scale_i·(b_i + Σ_k a_k·x[col_k]), optionally
// acc_i += coef·y_i (uniformisation's weighted sum) and diff_i = the
// convergence difference between x_i and y_i. Null pointers switch parts off.
struct RowUpdate {
  uint64_t rows;
  CsrView a;
  const double* b;      // may be null
  const double* scale;  // may be null (1)
  const double* x;
  double* y;
  double* diff;  // may be null
  double* acc;   // may be null
  double coef;
  int relative;
  int skip_diagonal;  // Jacobi on the system as given: leave a_ii out of the sum (scale holds 1/(1 − a_ii))
  // Slices of a multi-GPU solve (lib/solver/gpu/partitioned_solve.cpp): only rows
  // [first, rows) are updated, and row i's own value sits at x[slot_base + i]
  // and y[slot_base + i] (the padded iterate of solver/device/row_partition.hpp).
  uint64_t first = 0;
  uint64_t slot_base = 0;
};

// The warp-segmented layout of solver/linear/matrix_layouts.hpp on the
// device (no diagonal: Jacobi's scale carries it).
struct DeviceSegments {
  uint64_t rows;
  uint32_t segment_rows;   // 32: one thread per row; 16: two
  uint32_t lanes_per_row;  // 32 / segment_rows
  const uint64_t* segment_starts;
  const uint32_t* columns;
  const double* values;
};

// Two layouts (GPU-PRISM §3): a thread per row for short rows, a warp per
// row (lanes over the entries, shuffle reduction) for long ones.
void launch_row_update(const RowUpdate& u, bool warp_per_row, StreamHandle stream);
// The row update over the warp-segmented layout (a warp per segment).
void launch_segment_row_update(const DeviceSegments& m, const RowUpdate& u, StreamHandle stream);
// Jacobi's scale_i = 1/(1 − a_ii), from the matrix on the device (no host
// copy of the matrix without its diagonal). rows > 0.
void launch_jacobi_scale(uint64_t rows, const CsrView& a, double* scale, StreamHandle stream);

// GPU-PRISM's alternative (§4): one thread per entry writes its product and
// a segmented reduction (CUB) sums each row, which balances rows of very
// different lengths at the price of writing and reading the products.
// products[k] = values[k]·x[columns[k]]; entries > 0.
void launch_entry_products(uint64_t entries, const uint32_t* columns, const double* values, const double* x,
                           double* products, StreamHandle stream);
// The scratch bytes row_sums needs for `rows` rows (CUB's query).
size_t segmented_sum_scratch_bytes(uint64_t rows, const uint64_t* offsets);
// row_sums[i] = Σ products over row i's entries.
void segmented_sum(void* scratch, size_t scratch_bytes, const double* products, double* row_sums, uint64_t rows,
                   const uint64_t* offsets, StreamHandle stream);
// y_i from the per-row sums of the segmented reduction.
void launch_finish_rows(const RowUpdate& u, const double* row_sums, StreamHandle stream);

// The stationarity test for gpu.steps and bounded gpu.vi: true when
// a and b (n values each, on the device) are identical bit for bit (-0.0
// vs 0.0 and NaN payloads differ). Every later step would then compute the
// same vector again, so the bounded loop may stop with the exact result.
// `flag` is one word of scratch, allocated on first use; waits for `stream`.
bool device_identical(uint64_t n, const double* a, const double* b, DeviceBuffer<unsigned>& flag,
                      StreamHandle stream);
// y[i] += c·x[i]: the remaining weight of a stationary iterate.
void device_axpy(uint64_t n, double c, const double* x, double* y, StreamHandle stream);

}  // namespace pmc::cuda
