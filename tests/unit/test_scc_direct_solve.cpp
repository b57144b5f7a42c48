// State elimination (solver/linear/state_elimination.hpp) against dense
// Gaussian elimination and exact rationals, the direct solve of small
// SCCs in cpu.topo-interval-vi (scc_direct_solve.hpp): certified bounds
// around the exact values, Haddad–Monmege without sweeps, the model's own
// rounding not certified away, and the fall-back to sweeps; and a bottom
// SCC's long-run value in rationals (exact_stationary.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#ifdef PMC_HAVE_GMP
#include <gmpxx.h>
#endif

#include "solver/convergence.hpp"
#include "solver/linear/cpu_solvers.hpp"
#include "solver/linear/exact_stationary.hpp"
#include "solver/linear/scc_direct_solve.hpp"
#include "solver/linear/state_elimination.hpp"

namespace pmc {
namespace {

using Triplet = std::tuple<uint32_t, uint32_t, double>;

LinearSystem linear_system(uint32_t n, const std::vector<Triplet>& entries, std::vector<double> b) {
  std::vector<Triplet> sorted = entries;
  std::sort(sorted.begin(), sorted.end());
  LinearSystem s;
  s.a.row_offsets.assign(n + 1, 0);
  for (const auto& [r, c, v] : sorted) {
    ++s.a.row_offsets[r + 1];
    s.a.columns.push_back(c);
    s.a.values.push_back(v);
  }
  for (uint32_t i = 0; i < n; ++i) s.a.row_offsets[i + 1] += s.a.row_offsets[i];
  s.b = std::move(b);
  return s;
}

// The last column of `m` (n rows of n + 1) solved for by dense Gaussian
// elimination with partial pivoting.
std::vector<double> solve_augmented(std::vector<std::vector<double>> m) {
  const auto n = static_cast<uint32_t>(m.size());
  for (uint32_t k = 0; k < n; ++k) {
    uint32_t pivot = k;
    for (uint32_t i = k + 1; i < n; ++i) {
      if (std::fabs(m[i][k]) > std::fabs(m[pivot][k])) pivot = i;
    }
    std::swap(m[k], m[pivot]);
    for (uint32_t i = k + 1; i < n; ++i) {
      const double f = m[i][k] / m[k][k];
      for (uint32_t j = k; j <= n; ++j) m[i][j] -= f * m[k][j];
    }
  }
  std::vector<double> x(n);
  for (uint32_t i = n; i-- > 0;) {
    double sum = m[i][n];
    for (uint32_t j = i + 1; j < n; ++j) sum -= m[i][j] * x[j];
    x[i] = sum / m[i][i];
  }
  return x;
}

// (I − A)·x = b.
std::vector<double> dense_solution(uint32_t n, const std::vector<Triplet>& a, const std::vector<double>& b) {
  std::vector<std::vector<double>> m(n, std::vector<double>(n + 1, 0.0));
  for (uint32_t i = 0; i < n; ++i) {
    m[i][i] = 1.0;
    m[i][n] = b[i];
  }
  for (const auto& [r, c, v] : a) m[r][c] -= v;
  return solve_augmented(std::move(m));
}

// A random strongly connected system: a ring plus `extra` random entries
// per row, every row keeping `leak` of its mass outside (to b).
std::vector<Triplet> random_scc(uint32_t n, uint32_t extra, double leak, std::mt19937_64& rng) {
  std::uniform_int_distribution<uint32_t> anywhere(0, n - 1);
  std::uniform_real_distribution<double> weight(0.1, 1.0);
  std::vector<Triplet> a;
  for (uint32_t i = 0; i < n; ++i) {
    std::vector<std::pair<uint32_t, double>> row = {{(i + 1) % n, weight(rng)}};
    for (uint32_t k = 0; k < extra; ++k) row.emplace_back(anywhere(rng), weight(rng));
    std::sort(row.begin(), row.end());
    double total = 0.0;
    for (const auto& entry : row) total += entry.second;
    uint32_t last = n;
    for (const auto& [j, w] : row) {
      if (j == last) {
        std::get<2>(a.back()) += (1.0 - leak) * w / total;
      } else {
        a.emplace_back(i, j, (1.0 - leak) * w / total);
      }
      last = j;
    }
  }
  return a;
}

TEST(StateElimination, AgreesWithDenseGaussianElimination) {
  std::mt19937_64 rng(3);
  for (const uint32_t n : {1u, 2u, 7u, 40u, 300u}) {
    for (const uint32_t extra : {0u, 2u, 6u}) {
      SCOPED_TRACE(std::to_string(n) + " unknowns, " + std::to_string(extra) + " extra entries per row");
      const std::vector<Triplet> a = random_scc(n, extra, 0.05, rng);
      std::vector<double> b(n);
      for (uint32_t i = 0; i < n; ++i) b[i] = 0.05 * (i % 3);
      StateElimination<double> elimination(n, 2);
      for (const auto& [r, c, v] : a) elimination.add(r, c, v);
      for (uint32_t i = 0; i < n; ++i) {
        elimination.rhs(i, 0) = b[i];
        elimination.rhs(i, 1) = 1.0;
      }
      ASSERT_EQ(elimination.eliminate(UINT64_MAX), StateElimination<double>::Outcome::eliminated);
      const std::vector<double> x = elimination.solution(0), time = elimination.solution(1);
      const std::vector<double> expected = dense_solution(n, a, b);
      const std::vector<double> expected_time = dense_solution(n, a, std::vector<double>(n, 1.0));
      for (uint32_t i = 0; i < n; ++i) {
        EXPECT_NEAR(x[i], expected[i], 1e-12) << "at " << i;
        EXPECT_NEAR(time[i], expected_time[i], 1e-11 * expected_time[i]) << "at " << i;
      }
    }
  }
}

TEST(StateElimination, GivesUpBeyondItsBudgetOrOnASingularPivot) {
  std::mt19937_64 rng(5);
  const uint32_t n = 200;
  const std::vector<Triplet> a = random_scc(n, 8, 0.05, rng);
  StateElimination<double> costly(n, 1);
  for (const auto& [r, c, v] : a) costly.add(r, c, v);
  // Random structure fills in far beyond that.
  EXPECT_EQ(costly.eliminate(1000), StateElimination<double>::Outcome::over_budget);
  // A closed cycle (no exit): 1 − c_kk reaches 0.
  StateElimination<double> closed(2, 1);
  closed.add(0, 1, 1.0);
  closed.add(1, 0, 1.0);
  EXPECT_EQ(closed.eliminate(UINT64_MAX), StateElimination<double>::Outcome::singular_pivot);
}

#ifdef PMC_HAVE_GMP
// Gambler's ruin with p = 1/2 on 0..N: x_i = i/N exactly.
TEST(StateElimination, RationalsAreExact) {
  const uint32_t goal = 30;
  StateElimination<mpq_class> elimination(goal - 1, 1);  // unknowns 1..N−1 as 0..N−2
  for (uint32_t i = 0; i + 1 < goal; ++i) {
    if (i > 0) elimination.add(i, i - 1, mpq_class(1, 2));
    if (i + 2 < goal) elimination.add(i, i + 1, mpq_class(1, 2));
  }
  elimination.rhs(goal - 2, 0) = mpq_class(1, 2);
  ASSERT_EQ(elimination.eliminate(UINT64_MAX), StateElimination<mpq_class>::Outcome::eliminated);
  const std::vector<mpq_class> x = elimination.solution(0);
  for (uint32_t i = 0; i + 1 < goal; ++i) {
    mpq_class expected(i + 1, goal);
    expected.canonicalize();
    EXPECT_EQ(x[i], expected) << "at " << i;
  }
}
#endif

class DirectSolve : public testing::Test {
 protected:
  static SolveStats solve(const LinearSystem& s, std::vector<double>& lower, std::vector<double>& upper,
                          SolverSettings settings = {}) {
    lower.clear();
    upper.clear();
    return topological_interval_linear(s, lower, upper, settings);
  }
};

// Haddad–Monmege (QVBS's dtmc/haddad-monmege): x on 0..2N from N; at N,
// p to N−1 and 1−p to N+1; below N, ½ down and ½ back to N; above N, ½ up
// and ½ back to N; 0 (the target) and 2N absorb. P(reach 0) = p exactly,
// yet value iteration needs ~2^N sweeps. Unknowns 1..2N−1 as 0..2N−2.
LinearSystem haddad_monmege(uint32_t n, double p, bool steps) {
  std::vector<Triplet> a;
  std::vector<double> b(2 * n - 1, steps ? 1.0 : 0.0);
  auto unknown = [](uint32_t x) { return x - 1; };
  for (uint32_t x = 1; x < 2 * n; ++x) {
    if (x == n) {
      a.emplace_back(unknown(x), unknown(n - 1), p);
      a.emplace_back(unknown(x), unknown(n + 1), 1.0 - p);
    } else {
      const uint32_t on = x < n ? x - 1 : x + 1;  // 0 and 2N are not unknowns
      if (on != 0 && on != 2 * n) a.emplace_back(unknown(x), unknown(on), 0.5);
      if (on == 0 && !steps) b[unknown(x)] = 0.5;
      a.emplace_back(unknown(x), unknown(n), 0.5);
    }
  }
  LinearSystem s = linear_system(2 * n - 1, a, b);
  if (!steps) s.upper_bound = 1.0;
  return s;
}

TEST_F(DirectSolve, HaddadMonmegeWithoutSweeps) {
  for (const uint32_t n : {5u, 20u, 100u}) {
    SCOPED_TRACE("N=" + std::to_string(n));
    const LinearSystem s = haddad_monmege(n, 0.7, false);
    std::vector<double> lower, upper;
    const SolveStats stats = solve(s, lower, upper);
    const uint32_t start = n - 1;
    EXPECT_TRUE(stats.sound);
    if (n <= 20 || exact_elimination_available()) {
      EXPECT_TRUE(stats.converged) << stats.kernel;
      // The first 64 sweeps leave the SCC open; then it is eliminated.
      EXPECT_EQ(stats.iterations, 64u);
      EXPECT_NE(stats.kernel.find("1 solved directly"), std::string::npos) << stats.kernel;
      EXPECT_LE(lower[start], 0.7);
      EXPECT_GE(upper[start], 0.7);
      // Doubles certify N ≤ 20 with a gap of ~ulps × 2^N (1.5e-8 at N=20);
      // N=100 needs rationals, whose bounds are the exact value rounded out.
      EXPECT_TRUE(bounds_close(lower[start], upper[start], 1e-6, true));
      if (n == 100) {
        EXPECT_LE(upper[start] - lower[start], 2e-16);
      }
      EXPECT_EQ(stats.kernel.find("in rationals") != std::string::npos, n == 100) << stats.kernel;
    }
    for (uint32_t i = 0; i < lower.size(); ++i) {
      ASSERT_LE(lower[i], upper[i]) << "at " << i;
      ASSERT_GE(lower[i], 0.0) << "at " << i;
      ASSERT_LE(upper[i], 1.0) << "at " << i;
    }
  }
}

TEST_F(DirectSolve, HaddadMonmegeExpectedSteps) {
  // QVBS's exact reference at N=20 (Storm/exact): 1572862 steps.
  const LinearSystem s = haddad_monmege(20, 0.7, true);
  std::vector<double> lower, upper;
  const SolveStats stats = solve(s, lower, upper);
  EXPECT_TRUE(stats.sound);
  EXPECT_TRUE(stats.converged);
  EXPECT_LE(lower[19], 1572862.0);
  EXPECT_GE(upper[19], 1572862.0);
  EXPECT_TRUE(bounds_close(lower[19], upper[19], 1e-6, true));
}

// Many small random SCCs feeding each other (and some acyclic unknowns):
// every bound encloses the dense solution and meets ε, with or without
// the direct solve. Reward SCCs are solved directly at once (in one update
// each); probability SCCs that leak this fast close in their first sweeps.
TEST_F(DirectSolve, RandomSccsInSequence) {
  std::mt19937_64 rng(9);
  for (const bool rewards : {false, true}) {
    SCOPED_TRACE(rewards ? "rewards" : "probabilities");
    std::vector<Triplet> a;
    std::vector<double> b;
    uint32_t n = 0;
    for (uint32_t block = 0; block < 30; ++block) {
      const uint32_t size = 1 + block % 9;
      const std::vector<Triplet> inside = random_scc(size, block % 3, 0.3, rng);
      for (const auto& [r, c, v] : inside) a.emplace_back(n + r, n + c, v);
      for (uint32_t k = 0; k < size; ++k) {
        b.push_back(rewards ? 1.0 + k % 4 : 0.1);
        if (n > 0) a.emplace_back(n + k, (n + k) % n, 0.2);  // into an earlier block
      }
      n += size;
    }
    LinearSystem s = linear_system(n, a, b);
    if (!rewards) s.upper_bound = 1.0;
    const std::vector<double> exact = dense_solution(n, a, b);
    for (const bool direct : {true, false}) {
      SCOPED_TRACE(direct ? "direct" : "swept");
      SolverSettings settings;
      settings.epsilon = 1e-9;
      settings.direct_small_sccs = direct;
      std::vector<double> lower, upper;
      const SolveStats stats = solve(s, lower, upper, settings);
      ASSERT_TRUE(stats.sound);
      EXPECT_TRUE(stats.converged);
      if (direct && rewards) {  // no first phase: each SCC in one update
        EXPECT_EQ(stats.iterations, 1u) << stats.kernel;
        EXPECT_NE(stats.kernel.find(" 0 iterated"), std::string::npos) << stats.kernel;
      }
      for (uint32_t i = 0; i < n; ++i) {
        const double slack = 1e-12 * std::max(1.0, exact[i]);
        EXPECT_LE(lower[i], exact[i] + slack) << "at " << i;
        EXPECT_GE(upper[i], exact[i] - slack) << "at " << i;
        EXPECT_TRUE(bounds_close(lower[i], upper[i], settings.epsilon, true)) << "at " << i;
      }
    }
  }
}

// A CTMC-like SCC whose only way out is the target: the probability is 1
// for the model as written, but its rows, rates over exit rates, sum to 1
// only up to rounding, and the SCC is slow to leave. The exact solution of
// the rounded rows can miss 1 by more than ε·ulps; the bounds must not.
TEST_F(DirectSolve, ProbabilityOneSurvivesTheModelsRounding) {
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> rate(0.3, 7.0);
  const uint32_t n = 60;
  std::vector<Triplet> a;
  std::vector<double> b(n, 0.0);
  for (uint32_t i = 0; i < n; ++i) {
    const double next = rate(rng), back = rate(rng), leave = i == 0 ? 1e-4 : 0.0;
    const double exit = next + back + leave;
    a.emplace_back(i, (i + 1) % n, next / exit);
    a.emplace_back(i, (i + n - 1) % n, back / exit);
    b[i] = leave / exit;
  }
  LinearSystem s = linear_system(n, a, b);
  s.upper_bound = 1.0;
  std::vector<double> lower, upper;
  const SolveStats stats = solve(s, lower, upper);
  ASSERT_TRUE(stats.sound);
  EXPECT_TRUE(stats.converged);
  EXPECT_NE(stats.kernel.find("solved directly"), std::string::npos) << stats.kernel;
  // The sweeps before it may take an ulp per sweep off 1 (their clamped
  // update sees the same rows); not the exact solve's ~1e-12.
  for (uint32_t i = 0; i < n; ++i) {
    EXPECT_LE(lower[i], 1.0) << "at " << i;
    EXPECT_GE(upper[i], 1.0 - 1e-14) << "at " << i;
  }
}

// An SCC above the direct solve's size is swept as before, and an SCC
// whose elimination fills in beyond its budget falls back to sweeps.
TEST_F(DirectSolve, LargeOrCostlySccsAreSwept) {
  std::mt19937_64 rng(21);
  for (const uint32_t n : {static_cast<uint32_t>(k_direct_max_unknowns) + 1, 2000u}) {
    SCOPED_TRACE(n);
    const std::vector<Triplet> a = random_scc(n, n > 2000 ? 1 : 12, 0.2, rng);
    std::vector<double> b(n, 0.2);
    LinearSystem s = linear_system(n, a, b);
    s.upper_bound = 1.0;
    std::vector<double> lower, upper;
    const SolveStats stats = solve(s, lower, upper);
    ASSERT_TRUE(stats.sound);
    EXPECT_TRUE(stats.converged);
    EXPECT_NE(stats.kernel.find("1 iterated"), std::string::npos) << stats.kernel;
    EXPECT_EQ(stats.kernel.find("solved directly"), std::string::npos) << stats.kernel;
    for (uint32_t i = 0; i < n; ++i) {
      ASSERT_LE(lower[i], 1.0 + 1e-12) << i;  // every row leaks 0.2 to value 1: x = 1
      ASSERT_GE(upper[i], 1.0 - 1e-12) << i;
    }
  }
}


// The StationarySystem of flows (i, j, m_ij), i ≠ j: transposed rows and
// the outflows d_i.
StationarySystem stationary_system(uint32_t n, const std::vector<Triplet>& flows) {
  std::vector<Triplet> incoming;
  StationarySystem s;
  s.outflow.assign(n, 0.0);
  for (const auto& [i, j, v] : flows) {
    incoming.emplace_back(j, i, v);
    s.outflow[i] += v;
  }
  s.incoming = linear_system(n, incoming, std::vector<double>(n, 0.0)).a;
  return s;
}

// π of flows by dense elimination: π·Q = 0, Σπ = 1.
std::vector<double> dense_stationary(uint32_t n, const std::vector<Triplet>& flows) {
  std::vector<std::vector<double>> m(n, std::vector<double>(n + 1, 0.0));
  for (const auto& [i, j, v] : flows) {
    m[j][i] += v;
    m[i][i] -= v;
  }
  m[n - 1].assign(n + 1, 1.0);
  return solve_augmented(std::move(m));
}

TEST(ExactStationary, BirthDeathChainInClosedForm) {
  uint64_t spent = 0;
  // Rates λ up and μ down on 0..n−1: π_k ∝ (λ/μ)^k. f = k: the mean.
  const uint32_t n = 40;
  const double up = 3.0, down = 5.0;
  std::vector<Triplet> flows;
  for (uint32_t k = 0; k + 1 < n; ++k) {
    flows.emplace_back(k, k + 1, up);
    flows.emplace_back(k + 1, k, down);
  }
  std::vector<double> f(n);
  double total = 0.0, mean = 0.0, weight = 1.0;
  for (uint32_t k = 0; k < n; ++k, weight *= up / down) {
    f[k] = k;
    total += weight;
    mean += weight * k;
  }
  mean /= total;
  const std::optional<ValueBounds> bounds = exact_long_run_value(stationary_system(n, flows), f, k_exact_stationary_work, spent);
  if (!exact_elimination_available()) {
    EXPECT_FALSE(bounds.has_value());
    return;
  }
  ASSERT_TRUE(bounds.has_value());
  EXPECT_LE(bounds->lower, bounds->upper);
  EXPECT_LE(bounds->upper - bounds->lower, 4 * DBL_EPSILON * mean);
  EXPECT_NEAR(bounds->lower, mean, 1e-12 * mean);
}

TEST(ExactStationary, RandomIrreducibleChainsAgreeWithDenseSolve) {
  if (!exact_elimination_available()) GTEST_SKIP() << "built without GMP";
  uint64_t spent = 0;
  std::mt19937_64 rng(31);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (const uint32_t n : {2u, 5u, 30u}) {
    SCOPED_TRACE(n);
    std::vector<Triplet> flows;
    for (uint32_t i = 0; i < n; ++i) {
      flows.emplace_back(i, (i + 1) % n, 0.1 + unit(rng));  // a ring: irreducible
      const uint32_t j = static_cast<uint32_t>(unit(rng) * n) % n;
      if (j != i && j != (i + 1) % n) flows.emplace_back(i, j, 0.1 + unit(rng));
    }
    std::vector<double> f(n);
    for (double& v : f) v = unit(rng) < 0.5 ? 1.0 : 0.0;
    const std::vector<double> pi = dense_stationary(n, flows);
    double expected = 0.0;
    for (uint32_t i = 0; i < n; ++i) expected += pi[i] * f[i];
    const std::optional<ValueBounds> bounds = exact_long_run_value(stationary_system(n, flows), f, k_exact_stationary_work, spent);
    ASSERT_TRUE(bounds.has_value());
    EXPECT_LE(bounds->lower, expected + 1e-12);
    EXPECT_GE(bounds->upper, expected - 1e-12);
    EXPECT_LE(bounds->upper - bounds->lower, 4 * DBL_EPSILON);
  }
}

TEST(ExactStationary, TooLargeOrBadInputGivesNothing) {
  uint64_t spent = 0;
  const uint32_t n = static_cast<uint32_t>(k_exact_stationary_max_states) + 1;
  std::vector<Triplet> flows;
  for (uint32_t i = 0; i < n; ++i) flows.emplace_back(i, (i + 1) % n, 1.0);
  EXPECT_FALSE(exact_long_run_value(stationary_system(n, flows), std::vector<double>(n, 1.0), k_exact_stationary_work, spent).has_value());
  // f of the wrong length, a value that is not finite.
  const StationarySystem two = stationary_system(2, {{0, 1, 1.0}, {1, 0, 2.0}});
  EXPECT_FALSE(exact_long_run_value(two, std::vector<double>(3, 1.0), k_exact_stationary_work, spent).has_value());
  EXPECT_FALSE(exact_long_run_value(two, std::vector<double>{1.0, std::nan("")}, k_exact_stationary_work, spent).has_value());
  if (exact_elimination_available()) {
    // π = (2/3, 1/3): the value of f = (0, 3) is 1, exactly.
    const std::optional<ValueBounds> one = exact_long_run_value(two, std::vector<double>{0.0, 3.0}, k_exact_stationary_work, spent);
    ASSERT_TRUE(one.has_value());
    EXPECT_EQ(one->lower, 1.0);
    EXPECT_EQ(one->upper, 1.0);
  }
}

}  // namespace
}  // namespace pmc
