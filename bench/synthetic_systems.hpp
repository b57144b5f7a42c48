// Synthetic problems for the GPU benchmarks: sizes beyond the manifest's
// models, with vectors larger than the GPU's L2 cache.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "solver/problem.hpp"

namespace pmc::bench {

// The columns of row i among n: `per_row` distinct ones, sorted; banded:
// within ±1024 of i, else anywhere.
inline void row_columns(uint64_t i, uint64_t n, uint64_t per_row, bool banded, std::mt19937_64& rng,
                        std::vector<uint32_t>& cols) {
  cols.clear();
  while (cols.size() < per_row) {
    const int64_t c = banded ? static_cast<int64_t>(i) + static_cast<int64_t>(rng() % 2048) - 1024
                             : static_cast<int64_t>(rng() % n);
    if (c < 0 || c >= static_cast<int64_t>(n)) continue;
    if (std::find(cols.begin(), cols.end(), static_cast<uint32_t>(c)) == cols.end()) cols.push_back(static_cast<uint32_t>(c));
  }
  std::sort(cols.begin(), cols.end());
}

// n rows, `per_row` entries each, 90% of every row's mass among the unknowns
// (so Jacobi contracts by 0.9 per step), the rest in b.
inline LinearSystem synthetic_system(uint64_t entries, uint64_t per_row, bool banded, std::mt19937_64& rng) {
  const uint64_t n = entries / per_row;
  LinearSystem s;
  s.a.row_offsets.reserve(n + 1);
  s.a.columns.reserve(n * per_row);
  s.a.values.reserve(n * per_row);
  s.b.reserve(n);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<uint32_t> cols;
  for (uint64_t i = 0; i < n; ++i) {
    row_columns(i, n, per_row, banded, rng, cols);
    for (uint32_t c : cols) {
      s.a.columns.push_back(c);
      s.a.values.push_back(0.9 / static_cast<double>(per_row));
    }
    s.a.row_offsets.push_back(s.a.columns.size());
    s.b.push_back(0.1 * u(rng));
  }
  return s;
}

// The same rows as an MDP: two choices per state, columns among the states.
inline MinMaxProblem synthetic_mdp(uint64_t entries, uint64_t per_row, bool banded, std::mt19937_64& rng) {
  const LinearSystem rows = synthetic_system(entries, per_row, banded, rng);
  const uint64_t states = rows.a.num_rows() / 2;
  MinMaxProblem p;
  p.maximize = true;
  p.a.row_offsets.assign(1, 0);
  for (uint64_t r = 0; r < 2 * states; ++r) {
    for (uint64_t k = rows.a.row_offsets[r]; k < rows.a.row_offsets[r + 1]; ++k) {
      p.a.columns.push_back(static_cast<uint32_t>(banded ? std::min<uint64_t>(rows.a.columns[k] / 2, states - 1)
                                                         : rows.a.columns[k] % states));
      p.a.values.push_back(rows.a.values[k]);
    }
    p.a.row_offsets.push_back(p.a.columns.size());
    p.b.push_back(rows.b[r]);
    if (r % 2 == 1) p.row_groups.push_back(r + 1);
  }
  return p;
}

// "5,20,80" (the --synthetic flag): sizes in millions of non-zeros.
inline std::vector<uint64_t> synthetic_sizes(const std::string& text) {
  std::vector<uint64_t> out;
  size_t start = 0;
  while (start < text.size()) {
    const size_t comma = text.find(',', start);
    out.push_back(std::stoull(text.substr(start, comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace pmc::bench
