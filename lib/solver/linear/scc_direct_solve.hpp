// Small SCCs of a linear system x = A·x + b solved directly instead of by
// sweeps (cpu.topo-interval-vi on chains). Interval iteration needs about
// as many sweeps as the SCC's expected time to leave it, which a small but
// ill-conditioned SCC makes astronomical: Haddad–Monmege's 201 states need
// ~2^100 sweeps. State elimination (state_elimination.hpp) needs none.
//
// Two attempts, each sound on its own:
//  1. Doubles: x̂ for the successors' lower and upper bounds and ŵ, the
//     expected number of steps before the SCC is left, by one elimination.
//     The bounds l = x̂_lo − δ·ŵ and u = x̂_hi + δ·ŵ, δ from the residuals,
//     are kept only if they are inductive, B(l) ≥ l and B(u) ≤ u, checked
//     row by row (B the SCC's update with the successors' bounds): the
//     system's fixed point is unique, so an inductive l lies below it and
//     an inductive u above (as optimistic value iteration verifies its
//     guesses). The gap 2δ·ŵ is a few ulps times the expected time: tight
//     unless the SCC is ill-conditioned.
//  2. Rationals (GMP), when 1 leaves some member open at the SCC's ε and
//     the SCC is small: the same elimination with no rounding, from the
//     exact values of the doubles (A, b, the successors' bounds), rounded
//     outwards. Exact for the double model, whatever its condition.
// The bounds found only ever tighten the ones in v (both are sound).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "solver/linear/interval_sweeps.hpp"
#include "solver/problem.hpp"

namespace pmc {

// SCCs up to these sizes are tried: doubles (any structure, within the
// work budget) and rationals (only where doubles left a member open).
// Larger SCCs converge in sweeps unless ill-conditioned, and fill in more.
inline constexpr uint64_t k_direct_max_unknowns = 1024;
inline constexpr uint64_t k_exact_max_unknowns = 1024;

struct DirectSolveCounts {
  uint64_t by_doubles = 0;    // SCCs closed by attempt 1
  uint64_t by_rationals = 0;  // SCCs closed by attempt 2
  uint64_t work = 0;          // elimination steps spent (both attempts, closed or not)
};

// Whether GMP was built in (attempt 2).
bool exact_elimination_available();

class SccDirectSolver {
 public:
  SccDirectSolver(const LinearSystem& s, std::span<const uint32_t> component_of)
      : s_(s), component_of_(component_of), local_of_(s.a.num_rows()) {}

  // SCC c with members `states`, its successors' bounds final in v. True
  // when every member now meets (epsilon, relative); v's members hold the
  // tightest certified bounds found either way.
  bool solve(uint32_t c, std::span<const uint32_t> states, double epsilon, bool relative, std::vector<BoundPair>& v);

  const DirectSolveCounts& counts() const { return counts_; }

 private:
  // Attempt 1; false when the elimination was too costly (v untouched),
  // else true with `work` its steps and v tightened where the
  // certificates held.
  bool by_doubles(uint32_t c, std::span<const uint32_t> states, std::vector<BoundPair>& v, uint64_t& work);
  // Attempt 2, within its own budget and what is left of the solve's;
  // true when both bounds were set.
  bool by_rationals(uint32_t c, std::span<const uint32_t> states, std::vector<BoundPair>& v);
  bool all_close(std::span<const uint32_t> states, double epsilon, bool relative, const std::vector<BoundPair>& v) const;

  const LinearSystem& s_;
  std::span<const uint32_t> component_of_;
  std::vector<uint32_t> local_of_;  // an unknown's index within its SCC
  DirectSolveCounts counts_;
  uint64_t rational_work_ = 0;  // steps of every rational attempt so far
};

}  // namespace pmc
