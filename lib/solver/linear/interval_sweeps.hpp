// The row-level pieces of interval iteration on a linear system x = A·x + b,
// shared by cpu.interval-vi (interval_linear.cpp, whole-system sweeps) and
// cpu.topo-interval-vi (topological_interval_linear.cpp, SCC by SCC):
// Gauss–Seidel's splitting (each row solved for its own unknown) and one
// row's clamped update of both bounds. interval_linear.cpp says why the
// clamped sweeps keep both bounds sound.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "common/error.hpp"
#include "solver/problem.hpp"

namespace pmc {

// Interleaved so that one gather brings both bounds (or, in a first phase,
// the two vectors it sweeps).
struct BoundPair {
  double first, second;
};

// 1/(1 − a_ii) per row: Gauss–Seidel solves each row for its own unknown.
// A given lower start must have one value per unknown (empty: none given).
inline void require_start_size(const char* solver, const std::vector<double>& lower, uint64_t unknowns) {
  if (!lower.empty() && lower.size() != unknowns) {
    fail(ErrorCode::invalid_argument, "{}: start vector has {} values, the system has {} unknowns", solver,
         lower.size(), unknowns);
  }
}

// The solved pairs back into the caller's vectors: lower bounds, and upper
// bounds where `bounded` (else ∞: the first phase never ended).
inline void store_bound_pairs(const std::vector<BoundPair>& v, bool bounded, std::vector<double>& lower,
                              std::vector<double>& upper) {
  lower.resize(v.size());
  upper.resize(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    lower[i] = v[i].first;
    upper[i] = bounded ? v[i].second : std::numeric_limits<double>::infinity();
  }
}

inline std::vector<double> diagonal_scale(const SparseMatrix& a) {
  std::vector<double> scale(a.num_rows(), 1.0);
  for (uint64_t i = 0; i < a.num_rows(); ++i) {
    double diagonal = 0.0;
    for (uint64_t e = a.row_offsets[i]; e < a.row_offsets[i + 1]; ++e) {
      if (a.columns[e] == i) diagonal += a.values[e];
    }
    scale[i] = 1.0 / (1.0 - diagonal);
  }
  return scale;
}

// Row i's two off-diagonal sums Σ_{j≠i} a_ij·v_j over both members.
inline BoundPair off_diagonal_sums(const SparseMatrix& a, uint64_t i, const BoundPair* v) {
  BoundPair sum{0.0, 0.0};
  for (uint64_t e = a.row_offsets[i]; e < a.row_offsets[i + 1]; ++e) {
    const uint32_t j = a.columns[e];
    if (j == i) continue;
    sum.first += a.values[e] * v[j].first;
    sum.second += a.values[e] * v[j].second;
  }
  return sum;
}

// Row i's Gauss–Seidel image of both bounds, each column j's pair read as
// read(j), clamped so that the lower bound only rises and the upper one
// only falls; stored in v[i] (in place: later rows of the sweep read it)
// and returned.
template <typename Read>
BoundPair update_bounds_reading(const LinearSystem& s, const std::vector<double>& scale, uint64_t i, BoundPair* v,
                                Read read) {
  BoundPair sum{0.0, 0.0};
  for (uint64_t e = s.a.row_offsets[i]; e < s.a.row_offsets[i + 1]; ++e) {
    const uint32_t j = s.a.columns[e];
    if (j == i) continue;
    const BoundPair& x = read(j);
    sum.first += s.a.values[e] * x.first;
    sum.second += s.a.values[e] * x.second;
  }
  const BoundPair next{std::max(v[i].first, (s.b[i] + sum.first) * scale[i]),
                       std::min(v[i].second, (s.b[i] + sum.second) * scale[i])};
  v[i] = next;
  return next;
}

// The same, reading every column from v.
inline BoundPair update_bounds(const LinearSystem& s, const std::vector<double>& scale, uint64_t i, BoundPair* v) {
  return update_bounds_reading(s, scale, i, v, [v](uint32_t j) -> const BoundPair& { return v[j]; });
}

inline double widest_gap(const std::vector<BoundPair>& v) {
  double gap = 0.0;
  for (const BoundPair& p : v) gap = std::max(gap, p.second - p.first);
  return gap;
}

}  // namespace pmc
