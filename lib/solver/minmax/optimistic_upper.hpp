// Optimistic value iteration's guess-and-verify (Hartmanns & Kaminski, CAV
// 2020): the upper start of cpu.interval-vi and cpu.topo-interval-vi where
// no a-priori bound is at hand (expected rewards). Value iteration on the
// lower bounds l runs until its change is below ε'; then u = l·(1+ε)+ε is a
// guess, accepted if it is inductive, B(u) ≤ u. On a problem whose value is
// the least fixed point of B, every such u is an upper bound (Knaster–
// Tarski). interval_value_iteration.cpp says why ε' shrinks while the
// offset stays ε.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "solver/iteration.hpp"
#include "solver/minmax/bellman.hpp"
#include "solver/problem.hpp"

namespace pmc {

// ε' down to ε·10⁻⁹: enough for contraction factors up to 1 − 10⁻⁸.
inline constexpr int k_ovi_attempts = 10;

// B(u) ≤ u is tested up to the rounding of computing B(u). A state whose
// optimal row earns nothing and keeps all its mass (b = 0, Σa = 1) maps
// the guess l·(1+ε)+ε onto itself exactly, so there the exact test fails
// on the last bit (measured: 1 ulp off on the unit tests' random min-reward
// problems, at every ε'). Like every bound computed in doubles, the result
// is sound up to rounding.
inline constexpr double k_rounding = 8 * std::numeric_limits<double>::epsilon();

// Whether `image`, a sweep's value at a state, stays at or below the
// candidate upper bound `candidate` there, up to k_rounding.
inline bool maps_below(double image, double candidate) {
  return image - candidate <= k_rounding * std::fabs(candidate);
}

// The guess-and-verify loop. `sweep_lower()` sweeps the lower bounds `l`
// once (clamped up, raising them) and returns the sweep's largest change;
// the guess must be inductive for `upper_problem` (whose fixed point it is
// to bound). ε' starts at `epsilon` and shrinks tenfold after each guess
// that is not inductive, for at most k_ovi_attempts guesses; sweeps count
// in `count`. True with the inductive guess in `guess`; false when no guess
// was inductive or the iteration limit came first.
template <typename SweepLower>
bool optimistic_upper_bound(IterationDriver& loop, uint64_t& count, const MinMaxProblem& upper_problem,
                            std::vector<double>& l, std::vector<double>& guess, double epsilon, int threads,
                            SweepLower sweep_lower) {
  std::vector<double> image(l.size());
  guess.resize(l.size());
  double vi_epsilon = epsilon;
  for (int attempt = 0; attempt < k_ovi_attempts; ++attempt, vi_epsilon /= 10) {
    if (!loop.until_upper_bound(count, [&] { return sweep_lower() < vi_epsilon; })) return false;
    for (uint64_t s = 0; s < l.size(); ++s) guess[s] = l[s] * (1.0 + epsilon) + epsilon;
    bellman_sweep(upper_problem, guess.data(), image.data(), false, threads);
    bool inductive = true;
    for (uint64_t s = 0; s < l.size() && inductive; ++s) inductive = maps_below(image[s], guess[s]);
    if (inductive) return true;
  }
  return false;
}

}  // namespace pmc
