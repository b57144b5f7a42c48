// A bottom SCC's long-run value in rationals (see the header).
#include "solver/linear/exact_stationary.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "solver/linear/rationals.hpp"
#include "solver/linear/state_elimination.hpp"

namespace pmc {

#ifdef PMC_HAVE_GMP

std::optional<ValueBounds> exact_long_run_value(const StationarySystem& system, std::span<const double> f,
                                                uint64_t budget, uint64_t& spent) {
  const SparseMatrix& incoming = system.incoming;  // row j: (i, m_ij), i ≠ j
  const uint64_t m = incoming.num_rows();
  if (m == 0 || m > k_exact_stationary_max_states || f.size() != m) return std::nullopt;
  for (const double v : f) {
    if (!std::isfinite(v)) return std::nullopt;
  }
  if (m == 1) return ValueBounds{f[0], f[0]};
  // d_i = Σ_{j≠i} m_ij exactly, from the same entries.
  std::vector<mpq_class> out(m, mpq_class(0));
  for (uint64_t j = 0; j < m; ++j) {
    for (uint64_t e = incoming.row_offsets[j]; e < incoming.row_offsets[j + 1]; ++e) {
      if (!std::isfinite(incoming.values[e])) return std::nullopt;
      out[incoming.columns[e]] += mpq_class(incoming.values[e]);
    }
  }
  for (const mpq_class& d : out) {
    if (d <= 0) return std::nullopt;  // not a BSCC of more than one state
  }
  // Unknown k is state k + 1; the reference state 0's flow enters the
  // right-hand side.
  const auto unknowns = static_cast<uint32_t>(m - 1);
  StateElimination<mpq_class> elimination(unknowns, 1);
  std::vector<std::pair<uint32_t, mpq_class>> row;
  for (uint64_t j = 1; j < m; ++j) {
    row.clear();
    mpq_class from_reference(0);
    for (uint64_t e = incoming.row_offsets[j]; e < incoming.row_offsets[j + 1]; ++e) {
      const uint32_t i = incoming.columns[e];
      const mpq_class share = mpq_class(incoming.values[e]) / out[i];
      if (i == 0) {
        from_reference += share;
      } else if (i != j) {
        row.emplace_back(i - 1, share);
      }
    }
    std::sort(row.begin(), row.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (size_t p = 0; p < row.size();) {
      mpq_class sum = row[p].second;
      size_t q = p + 1;
      for (; q < row.size() && row[q].first == row[p].first; ++q) sum += row[q].second;
      elimination.add(static_cast<uint32_t>(j - 1), row[p].first, sum);
      p = q;
    }
    elimination.rhs(static_cast<uint32_t>(j - 1), 0) = from_reference;
  }
  const auto outcome = elimination.eliminate(budget);
  spent += elimination.work();
  if (outcome != StateElimination<mpq_class>::Outcome::eliminated) return std::nullopt;
  const std::vector<mpq_class> y = elimination.solution(0);
  // π_j ∝ y_j/d_j (y_0 = 1).
  mpq_class total = mpq_class(1) / out[0], weighted = total * mpq_class(f[0]);
  for (uint64_t j = 1; j < m; ++j) {
    const mpq_class mass = y[j - 1] / out[j];
    total += mass;
    weighted += mass * mpq_class(f[j]);
  }
  const mpq_class value = weighted / total;
  return ValueBounds{round_down(value), round_up(value)};
}

#else

std::optional<ValueBounds> exact_long_run_value(const StationarySystem&, std::span<const double>, uint64_t,
                                                uint64_t&) {
  return std::nullopt;
}

#endif

}  // namespace pmc
