// A CSR matrix over the unknowns of one problem (32-bit columns, as the
// model store). Plain data, so that the solvers' problems
// (solver/problem.hpp) and the device copies of cuda/ share it.
#pragma once

#include <cstdint>
#include <vector>

namespace pmc {

struct SparseMatrix {
  std::vector<uint64_t> row_offsets{0};
  std::vector<uint32_t> columns;
  std::vector<double> values;
  uint64_t num_rows() const { return row_offsets.size() - 1; }
  uint64_t num_entries() const { return columns.size(); }
};

}  // namespace pmc
