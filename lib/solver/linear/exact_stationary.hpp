// The long-run value Σ_j π_j·f_j of one bottom SCC, exactly: its stationary
// distribution π by state elimination in GMP rationals, from the exact
// values of the StationarySystem's doubles, and the value rounded outwards.
// Steady-state probabilities and long-run averages are then certified
// (check/long_run.cpp), as reachability is.
//
// With y_j = π_j·d_j (the flow out of j) and state 0 as reference (y_0 = 1),
// the balance equations π_j·d_j = Σ_{i≠j} π_i·m_ij read, for j ≠ 0,
//   y_j = m_0j/d_0 + Σ_{i≠0,j} y_i·(m_ij/d_i):
// the system x = C·x + r of state_elimination.hpp, where I − C is
// non-singular because without state 0 the BSCC is transient. Then
// π_j ∝ y_j/d_j. Each d_i is recomputed exactly as Σ_{j≠i} m_ij, so the
// equations are the flows of the double model as given.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "solver/problem.hpp"

namespace pmc {

struct ValueBounds {
  double lower, upper;
};

// BSCCs up to this many states, within this many elimination steps each
// and all together in one check (EliminationCost: a step costs its
// numbers' limbs, ~2.6 µs). A CTMC's rates over exit rates grow the
// numbers fast: QVBS polling's BSCCs of 96 and 240 states take 8849 and
// 382169 steps (0.01 s and 0.6 s), 576 states 7.5M (20 s); these budgets
// keep an attempt near 0.15 s and a check's attempts near 1 s.
inline constexpr uint64_t k_exact_stationary_max_states = 1024;
inline constexpr uint64_t k_exact_stationary_work = 60000;
inline constexpr uint64_t k_exact_stationary_total_work = 400000;

// Certified bounds of Σ_j π_j·f_j (f in the system's local order), or
// nothing: no GMP in this build, more than k_exact_stationary_max_states
// states, the elimination over `budget` steps, or a value that is not
// finite. `spent` grows by the steps taken, solved or not.
std::optional<ValueBounds> exact_long_run_value(const StationarySystem& system, std::span<const double> f,
                                                uint64_t budget, uint64_t& spent);

}  // namespace pmc
