// gpu.jacobi's layout options, host side (solver/linear/matrix_layouts.hpp): the
// breadth-first renumbering is a permutation that leaves the solution
// unchanged, and the warp-segmented storage, read the way the kernels read
// it, multiplies exactly like CSR.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "solver/linear/cpu_solvers.hpp"
#include "solver/linear/matrix_layouts.hpp"

namespace pmc {
namespace {

// Rows of 0..max_length entries with random columns, substochastic.
SparseMatrix random_matrix(uint32_t n, uint32_t max_length, std::mt19937_64& rng) {
  SparseMatrix a;
  std::uniform_int_distribution<uint32_t> length(0, max_length), column(0, n - 1);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t len = length(rng);
    for (uint32_t k = 0; k < len; ++k) {
      a.columns.push_back(column(rng));
      a.values.push_back(0.9 / len);
    }
    a.row_offsets.push_back(a.columns.size());
  }
  return a;
}

// y = A·x read the way segment_row_update reads the segmented layout.
std::vector<double> segmented_product(const SegmentedMatrix& m, const std::vector<double>& x) {
  std::vector<double> y(m.rows, 0.0);
  for (uint64_t segment = 0; segment + 1 < m.segment_starts.size(); ++segment) {
    const uint64_t first = segment * m.segment_rows;
    const uint64_t rows = std::min<uint64_t>(m.segment_rows, m.rows - first);
    const uint64_t stride = rows * m.lanes_per_row;
    for (uint64_t lane = 0; lane < stride; ++lane) {
      for (uint64_t k = m.segment_starts[segment] + lane; k < m.segment_starts[segment + 1]; k += stride) {
        y[first + lane / m.lanes_per_row] += m.values[k] * x[m.columns[k]];
      }
    }
  }
  return y;
}

TEST(MatrixLayouts, SegmentsMultiplyLikeCsr) {
  std::mt19937_64 rng(3);
  for (uint32_t n : {1u, 15u, 16u, 17u, 31u, 32u, 33u, 1000u}) {
    const SparseMatrix a = random_matrix(n, 9, rng);
    std::vector<double> x(n);
    for (uint32_t i = 0; i < n; ++i) x[i] = 1.0 + i % 7;
    std::vector<double> expected(n, 0.0);
    for (uint32_t i = 0; i < n; ++i) {
      for (uint64_t k = a.row_offsets[i]; k < a.row_offsets[i + 1]; ++k) expected[i] += a.values[k] * x[a.columns[k]];
    }
    for (auto [rows, lanes] : {std::pair{32u, 1u}, std::pair{16u, 2u}}) {
      const SegmentedMatrix m = to_segments(a, rows, lanes);
      EXPECT_EQ(m.segment_starts.size(), (n + rows - 1) / rows + 1);
      EXPECT_GE(m.slots(), a.num_entries());
      const std::vector<double> y = segmented_product(m, x);
      for (uint32_t i = 0; i < n; ++i) EXPECT_DOUBLE_EQ(y[i], expected[i]) << "n " << n << " row " << i;
    }
  }
}

TEST(MatrixLayouts, SegmentsOfEqualRowsNeedNoPadding) {
  SparseMatrix a;
  for (uint32_t i = 0; i < 64; ++i) {
    a.columns.insert(a.columns.end(), {i, (i + 1) % 64});
    a.values.insert(a.values.end(), {0.5, 0.5});
    a.row_offsets.push_back(a.columns.size());
  }
  EXPECT_EQ(to_segments(a, 32, 1).slots(), 128u);
  EXPECT_EQ(to_segments(a, 16, 2).slots(), 128u);
}

TEST(MatrixLayouts, BfsOrderIsAPermutationFollowingTheGraph) {
  // A chain 0 -> 5 -> 2 -> 7 ..., and an isolated cycle.
  SparseMatrix a;
  const std::vector<std::vector<uint32_t>> successors = {{5}, {1}, {7}, {4}, {3}, {2}, {6}, {}};
  for (const auto& row : successors) {
    for (uint32_t j : row) {
      a.columns.push_back(j);
      a.values.push_back(0.5);
    }
    a.row_offsets.push_back(a.columns.size());
  }
  EXPECT_EQ(bfs_order(a), (std::vector<uint32_t>{0, 5, 2, 7, 1, 3, 4, 6}));
}

TEST(MatrixLayouts, ThePermutedSystemHasThePermutedSolution) {
  std::mt19937_64 rng(5);
  LinearSystem system{random_matrix(500, 6, rng), std::vector<double>(500, 0.1)};
  const std::vector<uint32_t> order = bfs_order(system.a);
  std::vector<uint32_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  std::vector<uint32_t> identity(500);
  std::iota(identity.begin(), identity.end(), 0u);
  ASSERT_EQ(sorted, identity);
  SolverSettings settings;
  settings.epsilon = 1e-13;
  std::vector<double> x(500, 0.0), renamed_x(500, 0.0);
  ASSERT_TRUE(jacobi_linear(system, x, settings).converged);
  ASSERT_TRUE(jacobi_linear(permute_system(system, order), renamed_x, settings).converged);
  for (size_t k = 0; k < order.size(); ++k) EXPECT_NEAR(renamed_x[k], x[order[k]], 1e-11);
}

}  // namespace
}  // namespace pmc
