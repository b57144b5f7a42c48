// Fox & Glynn 1988 compute the weights by the recurrences
//   w_{k-1} = (k/λ) · w_k,   w_{k+1} = (λ/(k+1)) · w_k
// outward from the mode m = ⌊λ⌋, starting from a large w_m so that no
// weight kept can underflow, and normalise by W = Σ w_k at the end. Every
// step multiplies by a ratio in (0,1], so nothing overflows and the relative
// error grows only by a few ulps per step, whatever λ is: no factorials, no
// e^{-λ} (which underflows for λ > 745).
//
// Where to stop differs from the paper. Its truncation points come from
// asymptotic tail bounds (Corollaries 1–3) that are loose for small λ and,
// as Jansen 2011 ("Understanding Fox and Glynn's 'Computing Poisson
// probabilities'") shows, need care at the edges of their validity. Instead
// we stop on a rigorous bound on the mass still outside, available because
// the ratios are monotone on each side of the mode:
//   right of R (R+2 > λ):  Σ_{k>R} w_k ≤ w_{R+1} / (1 − λ/(R+2))
//   left of L (L−1 < λ):   Σ_{k<L} w_k ≤ w_{L−1} / (1 − (L−1)/λ)
// (each tail is dominated by a geometric series with the first ratio). Each
// side stops once its bound is at most ε/2 of the mass gathered so far, which
// is below the total, so the normalised mass outside [L,R] is at most ε. The
// window is never wider than needed by more than one geometric step.
#include "solver/fox_glynn.hpp"

#include <algorithm>
#include <cmath>

#include "common/error.hpp"

namespace pmc {

namespace {

// Σ of a unimodal sequence, smallest terms first (Fox & Glynn §3: adding the
// tails before the large central weights keeps them from being absorbed).
double sum_smallest_first(const std::vector<double>& w) {
  size_t s = 0, t = w.size() - 1;
  double total = 0.0;
  while (s < t) {
    if (w[s] <= w[t]) {
      total += w[s++];
    } else {
      total += w[t--];
    }
  }
  return total + w[s];
}

}  // namespace

FoxGlynnWeights fox_glynn(double lambda, double epsilon) {
  if (std::isnan(lambda) || lambda < 0.0 || std::isinf(lambda)) {
    fail(ErrorCode::invalid_argument, "Fox-Glynn: the Poisson rate q*t must be finite and >= 0, got {}", lambda);
  }
  if (lambda > k_fox_glynn_max_lambda) {
    fail(ErrorCode::invalid_argument,
         "Fox-Glynn: the Poisson rate q*t = {} is too large for uniformisation (limit {})", lambda,
         k_fox_glynn_max_lambda);
  }
  if (!(epsilon > 0.0 && epsilon < 1.0)) {
    fail(ErrorCode::invalid_argument, "Fox-Glynn: the accuracy must be in (0,1), got {}", epsilon);
  }

  FoxGlynnWeights result;
  if (lambda == 0.0) {
    result.weights = {1.0};
    return result;
  }

  const auto mode = static_cast<uint64_t>(std::floor(lambda));
  // The sum of w_k/w_m is 1/P[N = m] <= 3·sqrt(λ+1) (Stirling), so this
  // start keeps W below 1e290 and never overflows, while the smallest
  // weight kept (about ε/2 of W) stays far above the underflow threshold
  // even for ε near the smallest double: the role of Fox & Glynn's
  // ω/(10^10·(R−L)).
  const double scale = 1e290 / (3.0 * std::sqrt(lambda + 1.0));
  // The recurrences carry a relative error far below 1e-9; shaving that off
  // the budget keeps the bound rigorous in floating point.
  const double half_epsilon = 0.5 * epsilon * (1.0 - 1e-9);

  // Down from the mode: below[i] = w_{m−i}.
  std::vector<double> below{scale};
  double gathered = scale;
  uint64_t left = mode;
  double left_bound = 0.0;
  while (left > 0) {
    double next = below.back() * (static_cast<double>(left) / lambda);  // w_{L−1}
    double bound = next / (1.0 - static_cast<double>(left - 1) / lambda);
    if (bound <= half_epsilon * gathered) {
      left_bound = bound;
      break;
    }
    below.push_back(next);
    gathered += next;
    --left;
  }

  // Up from the mode: above[i] = w_{m+1+i}.
  std::vector<double> above;
  uint64_t right = mode;
  double current = scale;
  double right_bound = 0.0;
  for (;;) {
    double next = current * (lambda / static_cast<double>(right + 1));  // w_{R+1}
    double bound = next / (1.0 - lambda / static_cast<double>(right + 2));
    if (bound <= half_epsilon * gathered) {
      right_bound = bound;
      break;
    }
    above.push_back(next);
    gathered += next;
    current = next;
    ++right;
  }

  result.left = left;
  result.right = right;
  result.weights.reserve(below.size() + above.size());
  result.weights.assign(below.rbegin(), below.rend());
  result.weights.insert(result.weights.end(), above.begin(), above.end());

  const double total = sum_smallest_first(result.weights);
  for (double& w : result.weights) w /= total;
  result.total_weight = sum_smallest_first(result.weights);
  result.truncation_error = (left_bound + right_bound) / total;
  return result;
}

uint64_t poisson_lower_bound(double lambda, double epsilon) {
  if (!(lambda > 0.0) || !(epsilon > 0.0 && epsilon < 1.0)) return 0;
  // An infinite lambda (q·t overflowed: a time bound near DBL_MAX) makes
  // lambda - x NaN; no step count reaches the window then (found by fuzzing).
  if (std::isinf(lambda)) return static_cast<uint64_t>(1.8e19);
  const double x = std::sqrt(2.0 * lambda * std::log(2.0 / epsilon));
  const double l = std::floor(lambda - x);
  return l <= 0.0 ? 0 : static_cast<uint64_t>(std::min(l, 1.8e19));
}

}  // namespace pmc
