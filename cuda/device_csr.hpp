// A SparseMatrix on the device: the copy (DeviceCsr) and the view the
// kernels read (CsrView, a member of their launchers' plain views).
#pragma once

#include <cstdint>

#include "common/sparse_matrix.hpp"
#include "cuda/device_buffer.hpp"

namespace pmc::cuda {

// Row i's entries are [offsets[i], offsets[i + 1]) of columns and values.
struct CsrView {
  const uint64_t* offsets;
  const uint32_t* columns;
  const double* values;
};

// A SparseMatrix copied to the current device.
struct DeviceCsr {
  DeviceBuffer<uint64_t> offsets;
  DeviceBuffer<uint32_t> columns;
  DeviceBuffer<double> values;
  uint64_t rows = 0, entries = 0;

  explicit DeviceCsr(const SparseMatrix& m, StreamHandle stream = nullptr)
      : offsets(m.row_offsets, stream),
        columns(m.columns, stream),
        values(m.values, stream),
        rows(m.num_rows()),
        entries(m.num_entries()) {}

  CsrView view() const { return {offsets.data(), columns.data(), values.data()}; }
  // Bytes one pass over the matrix streams: 12 per entry, 8 per row offset.
  double bytes() const { return entries * 12.0 + (rows + 1) * 8.0; }
};

}  // namespace pmc::cuda
