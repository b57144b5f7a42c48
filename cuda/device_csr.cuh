// A SparseMatrix on the device.
#pragma once

#include "cuda/device_buffer.cuh"
#include "solver/problem.hpp"

namespace pmc::cuda {

struct DeviceCsr {
  DeviceBuffer<uint64_t> offsets;
  DeviceBuffer<uint32_t> columns;
  DeviceBuffer<double> values;
  uint64_t rows = 0, entries = 0;

  explicit DeviceCsr(const SparseMatrix& m)
      : offsets(m.row_offsets), columns(m.columns), values(m.values), rows(m.num_rows()), entries(m.num_entries()) {}

  // Bytes one pass over the matrix streams: 12 per entry, 8 per row offset.
  double bytes() const { return entries * 12.0 + (rows + 1) * 8.0; }
};

}  // namespace pmc::cuda
