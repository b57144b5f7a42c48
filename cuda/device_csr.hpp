// A SparseMatrix copied to the current device.
#pragma once

#include "common/sparse_matrix.hpp"
#include "cuda/device_buffer.hpp"

namespace pmc::cuda {

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

  // Bytes one pass over the matrix streams: 12 per entry, 8 per row offset.
  double bytes() const { return entries * 12.0 + (rows + 1) * 8.0; }
};

}  // namespace pmc::cuda
