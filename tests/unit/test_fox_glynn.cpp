// Fox–Glynn weights against the exact Poisson pmf, computed independently in
// long double from lgamma: P[N = k] = exp(k·ln λ − λ − lgamma(k+1)).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "common/error.hpp"
#include "solver/fox_glynn.hpp"

namespace pmc {
namespace {

long double exact_pmf(long double lambda, uint64_t k) {
  if (k == 0) return std::exp(-lambda);
  long double kk = static_cast<long double>(k);
  return std::exp(kk * std::log(lambda) - lambda - std::lgamma(kk + 1.0L));
}

// P[N < n], summed from n−1 downwards, where the terms shrink, until they
// no longer matter (the head of the distribution is never visited for large λ).
long double exact_mass_below(long double lambda, uint64_t n) {
  long double mass = 0.0L;
  for (uint64_t k = n; k-- > 0;) {
    long double p = exact_pmf(lambda, k);
    mass += p;
    if (static_cast<long double>(k) < lambda && (p <= mass * 1e-25L || p < 1e-4900L)) break;
  }
  return mass;
}

// P[N > n], summed from n+1 upwards in the same way.
long double exact_mass_above(long double lambda, uint64_t n) {
  long double mass = 0.0L;
  for (uint64_t k = n + 1;; ++k) {
    long double p = exact_pmf(lambda, k);
    mass += p;
    if (static_cast<long double>(k) > lambda && (p <= mass * 1e-25L || p < 1e-4900L)) break;
  }
  return mass;
}

// P[N < left] + P[N > right], summed term by term (no 1 − Σ cancellation).
long double exact_outside_mass(long double lambda, uint64_t left, uint64_t right) {
  return exact_mass_below(lambda, left) + exact_mass_above(lambda, right);
}

long double exact_window_mass(long double lambda, uint64_t left, uint64_t right) {
  long double mass = 0.0L;
  for (uint64_t k = left; k <= right; ++k) mass += exact_pmf(lambda, k);
  return mass;
}

void check_against_exact(double lambda, double epsilon, double relative_tolerance) {
  SCOPED_TRACE(testing::Message() << "lambda=" << lambda << " epsilon=" << epsilon);
  FoxGlynnWeights fg = fox_glynn(lambda, epsilon);
  ASSERT_LE(fg.left, fg.right);
  ASSERT_EQ(fg.weights.size(), fg.right - fg.left + 1);
  EXPECT_NEAR(fg.total_weight, 1.0, 1e-13);

  long double sum = 0.0L;
  for (double w : fg.weights) {
    ASSERT_TRUE(std::isfinite(w));
    ASSERT_GT(w, 0.0);
    sum += w;
  }
  EXPECT_NEAR(static_cast<double>(sum), 1.0, 1e-13);

  // The weights are the pmf conditioned on the window.
  long double window = exact_window_mass(lambda, fg.left, fg.right);
  double worst = 0.0;
  for (uint64_t k = fg.left; k <= fg.right; ++k) {
    long double expected = exact_pmf(lambda, k) / window;
    double relative = static_cast<double>(std::fabs((fg.weight(k) - expected) / expected));
    worst = std::max(worst, relative);
  }
  EXPECT_LE(worst, relative_tolerance);

  long double outside = exact_outside_mass(lambda, fg.left, fg.right);
  EXPECT_LE(static_cast<double>(outside), epsilon);
  // The reported bound really bounds the truncated mass, and respects ε.
  EXPECT_LE(static_cast<double>(outside), fg.truncation_error * (1.0 + 1e-6));
  EXPECT_LE(fg.truncation_error, epsilon);
  // And the window is no wider than needed: one step less at either end
  // would leave out a sizeable part of the budget. (The geometric tail bound
  // is within a small factor of the true tail, cf. Mills' ratio.)
  if (fg.left > 0) {
    EXPECT_GT(static_cast<double>(exact_mass_below(lambda, fg.left + 1)), 0.1 * epsilon);
  }
  if (fg.right > 0) {
    EXPECT_GT(static_cast<double>(exact_mass_above(lambda, fg.right - 1)), 0.1 * epsilon);
  }
}

TEST(FoxGlynn, MatchesExactPmf) {
  for (double lambda : {0.5, 2.0, 10.0, 100.0, 1000.0, 25000.0}) {
    check_against_exact(lambda, 1e-6, 1e-10);
  }
}

TEST(FoxGlynn, MatchesExactPmfAtTightAccuracy) {
  for (double lambda : {0.5, 2.0, 10.0, 100.0, 1000.0, 25000.0}) {
    check_against_exact(lambda, 1e-12, 1e-10);
  }
}

TEST(FoxGlynn, NonIntegerAndSmallRates) {
  for (double lambda : {1e-3, 0.1, 1.0, 1.5, 7.25, 24.99, 399.5, 401.0}) {
    check_against_exact(lambda, 1e-8, 1e-10);
  }
}

TEST(FoxGlynn, LargeRates) {
  // lgamma in long double loses about 1e-19 · ln(k!) absolutely, so the
  // reference itself is only good to ~1e-12 (λ = 1e6) or ~3e-9 (λ = 1e9).
  check_against_exact(1e6, 1e-6, 1e-9);
  check_against_exact(1e9, 1e-6, 1e-6);
}

TEST(FoxGlynn, ZeroRate) {
  FoxGlynnWeights fg = fox_glynn(0.0, 1e-6);
  EXPECT_EQ(fg.left, 0u);
  EXPECT_EQ(fg.right, 0u);
  ASSERT_EQ(fg.weights.size(), 1u);
  EXPECT_EQ(fg.weights[0], 1.0);
  EXPECT_EQ(fg.total_weight, 1.0);
  EXPECT_EQ(fg.truncation_error, 0.0);
  EXPECT_EQ(fg.weight(1), 0.0);
}

TEST(FoxGlynn, TinyRates) {
  // P[N >= 1] = 1 − e^{−λ} ≈ λ is below ε: only k = 0 is kept.
  for (double lambda : {1e-300, std::numeric_limits<double>::denorm_min(), 1e-9}) {
    FoxGlynnWeights fg = fox_glynn(lambda, 1e-6);
    EXPECT_EQ(fg.left, 0u);
    EXPECT_EQ(fg.right, 0u);
    EXPECT_EQ(fg.weights[0], 1.0);
  }
  // λ = 1e-3, ε = 1e-12: P[N = k] ≈ 1e-3k/k!, so k = 0..3 are needed
  // (P[N > 3] ≈ 4e-14) and the weights are e^{−λ}λ^k/k! over the window.
  FoxGlynnWeights fg = fox_glynn(1e-3, 1e-12);
  EXPECT_EQ(fg.left, 0u);
  EXPECT_EQ(fg.right, 3u);
  double window = 1.0 + 1e-3 + 1e-6 / 2 + 1e-9 / 6;
  EXPECT_NEAR(fg.weights[0], 1.0 / window, 1e-16);
  EXPECT_NEAR(fg.weights[1] / (1e-3 / window), 1.0, 1e-13);
  EXPECT_NEAR(fg.weights[3] / (1e-9 / 6 / window), 1.0, 1e-13);
}

TEST(FoxGlynn, WindowIsAroundTheMode) {
  FoxGlynnWeights small = fox_glynn(2.0, 1e-6);
  EXPECT_EQ(small.left, 0u);  // P[N = 0] = e^{-2} is far above ε
  FoxGlynnWeights big = fox_glynn(10000.0, 1e-6);
  // About ±5 standard deviations (σ = 100) for ε = 1e-6.
  EXPECT_GT(big.left, 9400u);
  EXPECT_LT(big.left, 9600u);
  EXPECT_GT(big.right, 10400u);
  EXPECT_LT(big.right, 10600u);
  // The largest weight is at the mode ⌊λ⌋ (λ integer: also at λ − 1).
  auto max_at = std::max_element(big.weights.begin(), big.weights.end()) - big.weights.begin();
  EXPECT_NEAR(static_cast<double>(big.left + static_cast<uint64_t>(max_at)), 9999.5, 0.5);
}

TEST(FoxGlynn, ExtremeAccuracyStaysFinite) {
  for (double lambda : {0.5, 100.0, 1e4, 1e6}) {
    for (double epsilon : {1e-300, std::numeric_limits<double>::denorm_min()}) {
      SCOPED_TRACE(testing::Message() << "lambda=" << lambda << " epsilon=" << epsilon);
      FoxGlynnWeights fg = fox_glynn(lambda, epsilon);
      double sum = 0.0;
      for (double w : fg.weights) {
        ASSERT_TRUE(std::isfinite(w));
        ASSERT_GE(w, 0.0);
        sum += w;
      }
      EXPECT_NEAR(sum, 1.0, 1e-12);
      EXPECT_LE(fg.truncation_error, epsilon);
    }
  }
  long double outside = exact_outside_mass(100.0L, fox_glynn(100.0, 1e-300).left, fox_glynn(100.0, 1e-300).right);
  EXPECT_LE(outside, 1e-300L);
}

TEST(FoxGlynn, RejectsBadArguments) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  auto expect_invalid = [](double lambda, double epsilon, const char* fragment) {
    try {
      fox_glynn(lambda, epsilon);
      ADD_FAILURE() << "accepted lambda=" << lambda << " epsilon=" << epsilon;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  expect_invalid(nan, 1e-6, "must be finite and >= 0, got nan");
  expect_invalid(-1.0, 1e-6, "must be finite and >= 0, got -1");
  expect_invalid(-0.0 - 1e-300, 1e-6, "must be finite and >= 0");
  expect_invalid(inf, 1e-6, "must be finite and >= 0, got inf");
  expect_invalid(-inf, 1e-6, "must be finite and >= 0");
  expect_invalid(1e11, 1e-6, "too large");
  expect_invalid(1.0, 0.0, "accuracy must be in (0,1), got 0");
  expect_invalid(1.0, 1.0, "accuracy must be in (0,1), got 1");
  expect_invalid(1.0, -1e-6, "accuracy must be in (0,1)");
  expect_invalid(1.0, nan, "accuracy must be in (0,1), got nan");
  expect_invalid(1.0, inf, "accuracy must be in (0,1)");
  // -0.0 is zero: a valid rate.
  EXPECT_EQ(fox_glynn(-0.0, 1e-6).weights.size(), 1u);
}

}  // namespace
}  // namespace pmc
