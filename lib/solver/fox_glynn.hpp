// Poisson weights for uniformisation (Fox & Glynn 1988, "Computing Poisson
// probabilities", CACM 31(4)): the probabilities P[N = k] of N ~ Poisson(λ),
// λ = q·t, truncated to a window [left, right] that holds all but ε of the
// mass. Shared by the CPU and GPU transient solvers (shared numerics
// live once, docs/style.md).
#pragma once

#include <cstdint>
#include <vector>

namespace pmc {

// Largest λ accepted: uniformisation needs about λ matrix-vector products,
// so beyond this the computation is hopeless anyway, and the window (at most
// about 110·sqrt(λ) entries, at the smallest ε) stays below 100 MB.
inline constexpr double k_fox_glynn_max_lambda = 1e10;

struct FoxGlynnWeights {
  uint64_t left = 0;   // L: first k kept
  uint64_t right = 0;  // R: last k kept
  // weights[k - left] = P[N = k | left <= N <= right] for k in [left, right]:
  // Fox–Glynn's w_k / W, so they sum to 1 and a transient probability is
  // Σ_k weights[k - left] · (P^k v). Each is within a few 1e-13 (relative)
  // of the exact conditional probability for λ up to 1e6.
  std::vector<double> weights;
  // Σ weights as computed in double, summed smallest first: 1 up to rounding.
  // Code written after PRISM's FoxGlynn, which divides by getTotalWeight(),
  // can divide by it unchanged.
  double total_weight = 1.0;
  // An upper bound on P[N < left] + P[N > right]; at most the ε asked for.
  double truncation_error = 0.0;

  // P[N = k | left <= N <= right], 0 outside the window.
  double weight(uint64_t k) const { return k < left || k > right ? 0.0 : weights[k - left]; }
};

// Computes the window and weights for λ = q·t >= 0 and accuracy ε in (0,1).
// λ = 0 gives left = right = 0 and weights = {1}. Throws pmc::Error
// (invalid_argument) for a NaN, negative or infinite λ, λ above
// k_fox_glynn_max_lambda, or ε outside (0,1). Thread-safe; no global state.
FoxGlynnWeights fox_glynn(double lambda, double epsilon);

// A step count L with P[N < L] <= ε/2 for N ~ Poisson(λ), without computing
// any weight, so a huge λ is never summed term by term: the Chernoff bound
// P[N <= λ − x] <= exp(−x²/(2λ)) with x = sqrt(2·λ·ln(2/ε)). Fox–Glynn's window starts near it (its left
// end is at least about this far right), so uniformisation up to L needs no
// weights: every c_k before it is below ε/2 in total. 0 when λ is small.
uint64_t poisson_lower_bound(double lambda, double epsilon);

}  // namespace pmc
