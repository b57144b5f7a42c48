#include "solver/linear/matrix_layouts.hpp"

#include <algorithm>

#include "common/error.hpp"

namespace pmc {

std::vector<uint32_t> bfs_order(const SparseMatrix& a) {
  const uint64_t n = a.num_rows();
  std::vector<uint32_t> order;
  order.reserve(n);
  std::vector<bool> seen(n, false);
  for (uint64_t root = 0; root < n; ++root) {
    if (seen[root]) continue;
    seen[root] = true;
    size_t head = order.size();
    order.push_back(static_cast<uint32_t>(root));
    while (head < order.size()) {
      const uint32_t i = order[head++];
      for (uint64_t k = a.row_offsets[i]; k < a.row_offsets[i + 1]; ++k) {
        const uint32_t j = a.columns[k];
        if (j < n && !seen[j]) {
          seen[j] = true;
          order.push_back(j);
        }
      }
    }
  }
  return order;
}

LinearSystem permute_system(const LinearSystem& system, const std::vector<uint32_t>& order) {
  const uint64_t n = system.a.num_rows();
  if (order.size() != n) fail(ErrorCode::internal, "permute_system: {} indices for {} unknowns", order.size(), n);
  std::vector<uint32_t> new_index(n);
  for (uint64_t k = 0; k < n; ++k) new_index[order[k]] = static_cast<uint32_t>(k);
  LinearSystem out;
  out.a.row_offsets.reserve(n + 1);
  out.a.columns.reserve(system.a.num_entries());
  out.a.values.reserve(system.a.num_entries());
  out.b.resize(system.b.size());
  for (uint64_t k = 0; k < n; ++k) {
    const uint32_t i = order[k];
    for (uint64_t e = system.a.row_offsets[i]; e < system.a.row_offsets[i + 1]; ++e) {
      out.a.columns.push_back(new_index[system.a.columns[e]]);
      out.a.values.push_back(system.a.values[e]);
    }
    out.a.row_offsets.push_back(out.a.columns.size());
    if (!system.b.empty()) out.b[k] = system.b[i];
  }
  return out;
}

SegmentedMatrix to_segments(const SparseMatrix& a, uint32_t segment_rows, uint32_t lanes_per_row) {
  if (segment_rows == 0 || lanes_per_row == 0 || segment_rows * lanes_per_row != 32) {
    fail(ErrorCode::internal, "to_segments: {} rows x {} lanes is not a warp", segment_rows, lanes_per_row);
  }
  SegmentedMatrix m;
  m.segment_rows = segment_rows;
  m.lanes_per_row = lanes_per_row;
  m.rows = a.num_rows();
  m.segment_starts.push_back(0);
  // Entry e of a row goes to lane e % lanes as that lane's entry e / lanes.
  for (uint64_t first = 0; first < m.rows; first += segment_rows) {
    const uint64_t r_count = std::min<uint64_t>(segment_rows, m.rows - first);
    uint64_t width = 0;
    for (uint64_t r = first; r < first + r_count; ++r) {
      const uint64_t length = a.row_offsets[r + 1] - a.row_offsets[r];
      width = std::max(width, (length + lanes_per_row - 1) / lanes_per_row);
    }
    const uint64_t start = m.columns.size();
    const uint64_t stride = r_count * lanes_per_row;
    m.columns.resize(start + width * stride);
    m.values.resize(start + width * stride, 0.0);
    for (uint64_t r = first; r < first + r_count; ++r) {
      for (uint64_t slot = 0; slot < width * lanes_per_row; ++slot) {
        const uint64_t lane = slot % lanes_per_row, k = slot / lanes_per_row;
        const uint64_t at = start + k * stride + (r - first) * lanes_per_row + lane;
        const uint64_t e = a.row_offsets[r] + slot;
        if (e < a.row_offsets[r + 1]) {
          m.columns[at] = a.columns[e];
          m.values[at] = a.values[e];
        } else {
          m.columns[at] = static_cast<uint32_t>(r);
        }
      }
    }
    m.segment_starts.push_back(m.columns.size());
  }
  return m;
}

}  // namespace pmc
