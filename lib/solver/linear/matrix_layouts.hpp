// Host-side matrix transformations behind gpu.jacobi's layout options
// (Wijs–Bošnački 2013): breadth-first renumbering of the unknowns (§3) and
// the warp-segmented storage (§4.2 full warp, §4.3 half warp). Free of fmt
// so that cuda/ can include it.
#pragma once

#include <cstdint>
#include <vector>

#include "solver/problem.hpp"

namespace pmc {

// The unknowns in breadth-first order over A's graph (row i -> its columns),
// starting from unknown 0 and then from the lowest unvisited one:
// order[new_index] = old_index.
std::vector<uint32_t> bfs_order(const SparseMatrix& a);

// The system with unknown order[k] renamed k (rows and columns alike).
LinearSystem permute_system(const LinearSystem& system, const std::vector<uint32_t>& order);

// Rows in segments of `segment_rows`; each row's entries are split over
// `lanes_per_row` threads, and within a segment entry k of every (row, lane)
// is stored next to entry k of the neighbouring (row, lane), so that the
// threads of a warp read consecutive addresses. A segment of R rows and
// width W (the most entries any of its (row, lane) holds) occupies
// W·R·lanes slots from segment_starts[s]; entry k of (row r, lane l) is at
// segment_starts[s] + k·R·lanes + (r − first row)·lanes + l. Padding slots
// hold value 0 and the row's own column (a harmless, cached read).
struct SegmentedMatrix {
  uint32_t segment_rows = 32;
  uint32_t lanes_per_row = 1;
  uint64_t rows = 0;
  std::vector<uint64_t> segment_starts;  // one per segment, plus the end
  std::vector<uint32_t> columns;
  std::vector<double> values;
  uint64_t slots() const { return columns.size(); }
};

// segment_rows · lanes_per_row must be a warp (32).
SegmentedMatrix to_segments(const SparseMatrix& a, uint32_t segment_rows, uint32_t lanes_per_row);

}  // namespace pmc
