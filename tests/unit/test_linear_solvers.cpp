// Every registered solver of linear systems, stationary distributions and
// bounded steps, on small systems whose answers are known in closed form or
// by dense Gaussian elimination here. The solver list comes from the
// registry, so a new solver is covered by registering (docs/style.md,
// Tests). GPU solvers without a usable GPU (or built without CUDA) throw
// no_device and are skipped.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "common/error.hpp"
#include "solver/convergence.hpp"
#include "solver/linear/cpu_solvers.hpp"
#include "solver/linear/scc_direct_solve.hpp"
#include "solver/registry.hpp"

namespace pmc {
namespace {

using Triplet = std::tuple<uint32_t, uint32_t, double>;  // (row, column, value)
using Dense = std::vector<std::vector<double>>;

SparseMatrix csr(uint32_t n, const std::vector<Triplet>& entries) {
  SparseMatrix m;
  m.row_offsets.assign(n + 1, 0);
  for (const auto& [r, c, v] : entries) ++m.row_offsets[r + 1];
  for (uint32_t i = 0; i < n; ++i) m.row_offsets[i + 1] += m.row_offsets[i];
  std::vector<uint64_t> next(m.row_offsets.begin(), m.row_offsets.end() - 1);
  m.columns.resize(entries.size());
  m.values.resize(entries.size());
  for (const auto& [r, c, v] : entries) {
    m.columns[next[r]] = c;
    m.values[next[r]++] = v;
  }
  return m;
}

// Gaussian elimination with partial pivoting: the reference every solver is
// compared against.
std::vector<double> dense_solve(Dense m, std::vector<double> rhs) {
  const size_t n = rhs.size();
  for (size_t k = 0; k < n; ++k) {
    size_t pivot = k;
    for (size_t i = k + 1; i < n; ++i) {
      if (std::fabs(m[i][k]) > std::fabs(m[pivot][k])) pivot = i;
    }
    std::swap(m[k], m[pivot]);
    std::swap(rhs[k], rhs[pivot]);
    for (size_t i = k + 1; i < n; ++i) {
      const double f = m[i][k] / m[k][k];
      if (f == 0) continue;
      for (size_t j = k; j < n; ++j) m[i][j] -= f * m[k][j];
      rhs[i] -= f * rhs[k];
    }
  }
  std::vector<double> x(n);
  for (size_t i = n; i-- > 0;) {
    double sum = rhs[i];
    for (size_t j = i + 1; j < n; ++j) sum -= m[i][j] * x[j];
    x[i] = sum / m[i][i];
  }
  return x;
}

// x = A·x + b  ⇔  (I − A)·x = b.
std::vector<double> dense_linear(uint32_t n, const std::vector<Triplet>& a, const std::vector<double>& b) {
  Dense m(n, std::vector<double>(n, 0.0));
  for (uint32_t i = 0; i < n; ++i) m[i][i] = 1.0;
  for (const auto& [r, c, v] : a) m[r][c] -= v;
  return dense_solve(m, b);
}

// Stationary distribution of a chain given by its off-diagonal flows
// (i, j, rate or probability): π·Q = 0 with the last equation replaced by Σπ = 1.
std::vector<double> dense_stationary(uint32_t n, const std::vector<Triplet>& flows) {
  Dense m(n, std::vector<double>(n, 0.0));  // row j: Σ_i π_i·Q_ij = 0
  for (const auto& [i, j, v] : flows) {
    m[j][i] += v;
    m[i][i] -= v;
  }
  m[n - 1].assign(n, 1.0);
  std::vector<double> rhs(n, 0.0);
  rhs[n - 1] = 1.0;
  return dense_solve(m, rhs);
}

// The StationarySystem of a chain given by its off-diagonal flows i → j
// (self-loops of a DTMC are implicit: d_i = Σ_{j≠i} P_ij = 1 − P_ii).
StationarySystem stationary_system(uint32_t n, const std::vector<Triplet>& flows) {
  StationarySystem s;
  std::vector<Triplet> incoming;
  s.outflow.assign(n, 0.0);
  for (const auto& [i, j, v] : flows) {
    incoming.emplace_back(j, i, v);
    s.outflow[i] += v;
  }
  s.incoming = csr(n, incoming);
  return s;
}

LinearSystem linear_system(uint32_t n, const std::vector<Triplet>& a, std::vector<double> b) {
  return LinearSystem{csr(n, a), std::move(b)};
}

std::vector<std::string> solvers_for(ProblemKind kind) {
  std::vector<std::string> names;
  for (const SolverEntry& s : solver_registry()) {
    if (s.solves(kind)) names.push_back(s.name);
  }
  return names;
}

std::string test_name(const testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

SolverSettings tight(bool relative = true) {
  SolverSettings settings;
  settings.epsilon = 1e-12;
  settings.relative = relative;
  return settings;
}

void expect_near_all(const std::vector<double>& x, const std::vector<double>& expected, double tolerance) {
  ASSERT_EQ(x.size(), expected.size());
  for (size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(x[i], expected[i], tolerance) << "at index " << i;
}

// Runs the solver; false where it needs a GPU that is not there.
template <typename Problem, typename Solve>
bool run(Solve solve, const Problem& problem, std::vector<double>& x, const SolverSettings& settings,
         SolveStats& stats) {
  try {
    stats = solve(problem, x, settings);
    return true;
  } catch (const Error& e) {
    if (e.code() == ErrorCode::no_device) return false;
    throw;
  }
}

// ---------------------------------------------------------------------------
// Linear systems x = A·x + b.

// The registered linear solvers through run_linear (sound ones give the
// midpoint of their bounds).
struct LinearRunner {
  const SolverEntry& entry;
  SolveStats operator()(const LinearSystem& system, std::vector<double>& x, const SolverSettings& settings) const {
    return run_linear(entry, system, x, settings);
  }
};

class LinearSolvers : public testing::TestWithParam<std::string> {
 protected:
  struct Entry {
    LinearRunner linear;
  };
  Entry solver() const { return {LinearRunner{find_solver(GetParam())}}; }

  // Solves from x = 0 and expects convergence to `expected` within 1e-9.
  void check(const LinearSystem& system, const std::vector<double>& expected, const SolverSettings& settings) {
    std::vector<double> x(system.b.size(), 0.0);
    SolveStats stats;
    if (!run(solver().linear, system, x, settings, stats)) GTEST_SKIP() << GetParam() << ": no GPU";
    EXPECT_EQ(stats.solver, GetParam());
    EXPECT_TRUE(stats.converged) << "after " << stats.iterations << " iterations";
    EXPECT_LE(stats.iterations, settings.max_iterations);
    EXPECT_GT(stats.bytes_per_iteration, 0.0);
    expect_near_all(x, expected, 1e-9);
  }
};

// Gambler's ruin with goal N: unknowns are fortunes 1..N−1 (index i−1);
// win with probability p. Reaching N is worth 1 (b), reaching 0 nothing.
LinearSystem gamblers_ruin(uint32_t goal, double p) {
  const uint32_t n = goal - 1;
  std::vector<Triplet> a;
  std::vector<double> b(n, 0.0);
  for (uint32_t i = 0; i < n; ++i) {
    if (i + 1 < n) a.emplace_back(i, i + 1, p);
    if (i > 0) a.emplace_back(i, i - 1, 1 - p);
  }
  b[n - 1] = p;
  return linear_system(n, a, b);
}

TEST_P(LinearSolvers, GamblersRuinMatchesClosedForm) {
  for (bool relative : {true, false}) {
    SCOPED_TRACE(relative ? "relative" : "absolute");
    const uint32_t goal = 20;
    const double p = 0.4, ratio = (1 - p) / p;
    std::vector<double> expected;
    for (uint32_t i = 1; i < goal; ++i) expected.push_back((1 - std::pow(ratio, i)) / (1 - std::pow(ratio, goal)));
    check(gamblers_ruin(goal, p), expected, tight(relative));
  }
}

// n rows, each keeping mass in [kept_low, kept_low + kept_span) among 1..max_degree
// random columns; b gets a random part of the rest (what reaches the target).
struct RandomSystem {
  std::vector<Triplet> a;
  std::vector<double> b;
};
RandomSystem random_substochastic(uint32_t n, std::mt19937_64& rng, double kept_low, double kept_span,
                                  uint32_t max_degree) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_int_distribution<uint32_t> state(0, n - 1), degree(1, max_degree);
  RandomSystem out;
  out.b.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    const double kept = kept_low + kept_span * unit(rng);
    std::vector<std::pair<uint32_t, double>> row;
    double total = 0;
    for (uint32_t k = degree(rng); k > 0; --k) {
      row.emplace_back(state(rng), unit(rng) + 0.01);
      total += row.back().second;
    }
    for (auto& [j, w] : row) out.a.emplace_back(i, j, kept * w / total);
    out.b[i] = (1 - kept) * unit(rng);
  }
  return out;
}

TEST_P(LinearSolvers, RandomSubstochasticMatchesDenseSolve) {
  // Row sums in [0.9, 0.99]: the rest leaves the maybe states.
  const uint32_t n = 200;
  std::mt19937_64 rng(42);
  const RandomSystem r = random_substochastic(n, rng, 0.9, 0.09, 8);
  check(linear_system(n, r.a, r.b), dense_linear(n, r.a, r.b), tight());
}

TEST_P(LinearSolvers, LargeSystemRunsInParallel) {
  // Above k_parallel_rows, so the OpenMP paths run. Row sums ≤ 1/2 give a
  // sound bound without a reference: ‖x − x*‖∞ ≤ ‖x − A·x − b‖∞ / (1 − 1/2).
  const uint32_t n = 20000;
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_int_distribution<uint32_t> state(0, n - 1);
  std::vector<Triplet> a;
  std::vector<double> b(n);
  for (uint32_t i = 0; i < n; ++i) {
    for (int k = 0; k < 4; ++k) a.emplace_back(i, state(rng), 0.125 * unit(rng));
    b[i] = unit(rng);
  }
  const LinearSystem system = linear_system(n, a, b);
  std::vector<double> x(n, 0.0);
  SolveStats stats;
  if (!run(solver().linear, system, x, tight(), stats)) GTEST_SKIP() << GetParam() << ": no GPU";
  EXPECT_TRUE(stats.converged);
  double residual = 0;
  for (uint32_t i = 0; i < n; ++i) {
    double value = b[i];
    for (uint64_t e = system.a.row_offsets[i]; e < system.a.row_offsets[i + 1]; ++e) {
      value += system.a.values[e] * x[system.a.columns[e]];
    }
    residual = std::max(residual, std::fabs(x[i] - value));
  }
  EXPECT_LE(2 * residual, 1e-9);
}

TEST_P(LinearSolvers, SelfLoopsMatchDenseSolve) {
  // A lazy walk: stay with 0.9, forward 0.06, back 0.03; state 0 loses its
  // back edge, the last state's forward edge reaches the target.
  const uint32_t n = 50;
  std::vector<Triplet> a;
  std::vector<double> b(n, 0.0);
  for (uint32_t i = 0; i < n; ++i) {
    a.emplace_back(i, i, 0.9);
    if (i + 1 < n) a.emplace_back(i, i + 1, 0.06);
    if (i > 0) a.emplace_back(i, i - 1, 0.03);
  }
  b[n - 1] = 0.06;
  check(linear_system(n, a, b), dense_linear(n, a, b), tight());
}

TEST_P(LinearSolvers, NoTransitionsGivesB) {
  // A = 0: x = b at once. A Krylov method solves this in one step, which
  // must count as convergence, not as a breakdown.
  const std::vector<double> b = {0.25, 0.0, 1.0, 0.5};
  check(linear_system(4, {}, b), b, tight());
}

TEST_P(LinearSolvers, ZeroRightHandSideGivesZero) {
  // b = 0: with I − A non-singular the answer is 0 whatever the start.
  const LinearSystem system = linear_system(2, {{0, 1, 0.5}, {1, 0, 0.5}}, {0.0, 0.0});
  std::vector<double> x = {1.0, 1.0};
  SolveStats stats;
  if (!run(solver().linear, system, x, tight(), stats)) GTEST_SKIP() << GetParam() << ": no GPU";
  EXPECT_TRUE(stats.converged);
  expect_near_all(x, {0.0, 0.0}, 1e-9);
}

TEST_P(LinearSolvers, StartAtSolutionConverges) {
  const LinearSystem system = gamblers_ruin(10, 0.5);
  std::vector<double> x, expected;
  for (uint32_t i = 1; i < 10; ++i) expected.push_back(i / 10.0);
  x = expected;
  SolveStats stats;
  if (!run(solver().linear, system, x, tight(), stats)) GTEST_SKIP() << GetParam() << ": no GPU";
  EXPECT_TRUE(stats.converged);
  expect_near_all(x, expected, 1e-12);
}

TEST_P(LinearSolvers, IterationLimitReportsNotConverged) {
  // A fair gambler's ruin to 200 contracts by about cos(π/200) per Jacobi
  // sweep: two iterations of any method are far from ε = 1e-12.
  // (cpu.topo-interval-vi would solve its one small SCC directly, with no
  // iterations to limit: swept here.)
  SolverSettings settings = tight();
  settings.max_iterations = 2;
  settings.direct_small_sccs = false;
  const LinearSystem system = gamblers_ruin(200, 0.5);
  std::vector<double> x(system.b.size(), 0.0);
  SolveStats stats;
  if (!run(solver().linear, system, x, settings, stats)) GTEST_SKIP() << GetParam() << ": no GPU";
  EXPECT_FALSE(stats.converged);
  EXPECT_LE(stats.iterations, 2u);
}

INSTANTIATE_TEST_SUITE_P(Registry, LinearSolvers, testing::ValuesIn(solvers_for(ProblemKind::linear_system)),
                         test_name);

// ---------------------------------------------------------------------------
// Sound solvers: certified bounds that contain the exact solution
// and meet the stopping rule, where plain iteration stops early.

class SoundLinearSolvers : public testing::TestWithParam<std::string> {
 protected:
  // Runs the sound solver; false without a GPU.
  bool solve(const LinearSystem& system, const SolverSettings& settings, std::vector<double>& lower,
             std::vector<double>& upper, SolveStats& stats) {
    const SolverEntry& entry = find_solver(GetParam());
    try {
      stats = entry.linear_bounds(system, lower, upper, settings);
      return true;
    } catch (const Error& e) {
      if (e.code() == ErrorCode::no_device) return false;
      throw;
    }
  }

  // Bounds contain `exact` (up to rounding) in every unknown; when
  // converged, they meet bounds_close and their midpoint is within ε.
  void expect_certified(const LinearSystem& system, const std::vector<double>& exact, SolverSettings settings) {
    std::vector<double> lower, upper;
    SolveStats stats;
    if (!solve(system, settings, lower, upper, stats)) GTEST_SKIP() << GetParam() << ": no GPU";
    EXPECT_EQ(stats.solver, GetParam());
    ASSERT_TRUE(stats.sound);
    EXPECT_TRUE(stats.converged) << "after " << stats.iterations << " iterations";
    ASSERT_EQ(lower.size(), exact.size());
    ASSERT_EQ(upper.size(), exact.size());
    for (size_t i = 0; i < exact.size(); ++i) {
      const double slack = 1e-12 * std::max(1.0, std::fabs(exact[i]));
      EXPECT_LE(lower[i], exact[i] + slack) << "lower bound above the solution at " << i;
      EXPECT_GE(upper[i], exact[i] - slack) << "upper bound below the solution at " << i;
      EXPECT_TRUE(bounds_close(lower[i], upper[i], settings.epsilon, settings.relative)) << "at " << i;
      const double mid = 0.5 * (lower[i] + upper[i]);
      const double allowed = settings.relative ? settings.epsilon * std::fabs(exact[i]) : settings.epsilon;
      EXPECT_LE(std::fabs(mid - exact[i]), allowed * (1 + 1e-9) + slack) << "midpoint off at " << i;
    }
  }
};

// Two states feeding each other, leaving with probability 1/1000 per round
// trip: x0 = 0.999·x1 + 0.0005, x1 = x0, so x = 0.5. A sweep changes the
// iterate by ~0.0005·0.999^k: plain iteration stops at change < 1e-6·x
// while still ~1e-3 (relative) below the solution.
LinearSystem slow_cycle(double b0) { return linear_system(2, {{0, 1, 0.999}, {1, 0, 1.0}}, {b0, 0.0}); }

TEST_P(SoundLinearSolvers, SlowCycleWherePlainIterationStopsEarly) {
  LinearSystem system = slow_cycle(0.0005);
  system.upper_bound = 1.0;  // a probability
  SolverSettings settings;   // the defaults: ε = 1e-6, relative
  expect_certified(system, {0.5, 0.5}, settings);
  // The unsound default of before stops ~1e-3 off: what this guards against.
  std::vector<double> x(2, 0.0);
  gauss_seidel_linear(system, x, settings);
  EXPECT_GT(std::fabs(x[0] - 0.5), 1e-5);
}

TEST_P(SoundLinearSolvers, ExpectedRewardsWithoutAnUpperBound) {
  // x0 = 1 + 0.999·x1, x1 = 1 + x0: x0 = 1999, x1 = 2000 (no upper bound given).
  const LinearSystem system = linear_system(2, {{0, 1, 0.999}, {1, 0, 1.0}}, {1.0, 1.0});
  expect_certified(system, {1999.0, 2000.0}, SolverSettings{});
  expect_certified(system, {1999.0, 2000.0}, tight());
}

TEST_P(SoundLinearSolvers, NegativeRewards) {
  const LinearSystem system = linear_system(2, {{0, 1, 0.999}, {1, 0, 1.0}}, {-1.0, -1.0});
  expect_certified(system, {-1999.0, -2000.0}, SolverSettings{});
}

TEST_P(SoundLinearSolvers, AbsolutePrecision) {
  LinearSystem system = slow_cycle(0.0005);
  system.upper_bound = 1.0;
  expect_certified(system, {0.5, 0.5}, tight(false));
}

TEST_P(SoundLinearSolvers, RandomSystemsAgainstDenseSolve) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (const uint32_t n : {5u, 60u, 300u}) {
    const RandomSystem r = random_substochastic(n, rng, 0.95, 0.049, 6);
    const std::vector<Triplet>& a = r.a;
    const std::vector<double>& b = r.b;
    LinearSystem probabilities = linear_system(n, a, b);
    probabilities.upper_bound = 1.0;
    expect_certified(probabilities, dense_linear(n, a, b), SolverSettings{});
    std::vector<double> rewards(n);
    for (double& r : rewards) r = unit(rng) < 0.3 ? 0.0 : 10 * unit(rng);
    expect_certified(linear_system(n, a, rewards), dense_linear(n, a, rewards), SolverSettings{});
  }
}

// Stopped by the iteration limit, a sound solver says "not converged" and
// its bounds still contain the solution: never a wrong certified answer.
TEST_P(SoundLinearSolvers, IterationLimitKeepsTheBoundsSound) {
  for (const uint64_t limit : {1u, 3u, 50u, 400u}) {
    SCOPED_TRACE(limit);
    LinearSystem system = slow_cycle(0.0005);
    system.upper_bound = 1.0;
    SolverSettings settings;
    settings.max_iterations = limit;
    settings.direct_small_sccs = false;  // the sweeps' limit (see IterationLimitReportsNotConverged)
    std::vector<double> lower, upper;
    SolveStats stats;
    if (!solve(system, settings, lower, upper, stats)) GTEST_SKIP() << GetParam() << ": no GPU";
    EXPECT_FALSE(stats.converged);
    EXPECT_TRUE(stats.sound);
    EXPECT_LE(stats.iterations, limit);
    for (size_t i = 0; i < 2; ++i) {
      EXPECT_LE(lower[i], 0.5);
      EXPECT_GE(upper[i], 0.5);
    }
    // Rewards: before the first phase has a bound, nothing is certified.
    // (Its bounds can be exact at once: with Jacobi's splitting this 2-state
    // system is bounded exactly after two steps, so it may converge.)
    const LinearSystem rewards = linear_system(2, {{0, 1, 0.999}, {1, 0, 1.0}}, {1.0, 1.0});
    lower.clear();
    upper.clear();
    ASSERT_TRUE(solve(rewards, settings, lower, upper, stats));
    if (limit == 1) {
      EXPECT_FALSE(stats.converged);
    }
    EXPECT_TRUE(!stats.converged || stats.sound);
    if (stats.sound) {  // up to rounding
      EXPECT_LE(lower[0], 1999.0 * (1 + 1e-12));
      EXPECT_GE(upper[0], 1999.0 * (1 - 1e-12));
    }
  }
}

std::vector<std::string> sound_linear_solvers() {
  std::vector<std::string> names;
  for (const SolverEntry& s : solver_registry()) {
    if (s.linear_bounds != nullptr) names.push_back(s.name);
  }
  return names;
}

INSTANTIATE_TEST_SUITE_P(Registry, SoundLinearSolvers, testing::ValuesIn(sound_linear_solvers()), test_name);

// ---------------------------------------------------------------------------
// cpu.topo-interval-vi's own promises: an acyclic system in one update per
// unknown, SCCs iterated only as long as they need, each to its share of ε.

// The settings with small SCCs swept rather than solved by state
// elimination: the tests of the sweeps' own promises use small systems.
SolverSettings swept(SolverSettings settings) {
  settings.direct_small_sccs = false;
  return settings;
}

class TopologicalInterval : public testing::Test {
 protected:
  SolveStats solve(const LinearSystem& system, const SolverSettings& settings, std::vector<double>& lower,
                   std::vector<double>& upper) {
    lower.clear();
    upper.clear();
    return topological_interval_linear(system, lower, upper, settings);
  }
  // Bounds contain `exact` and meet the stopping rule everywhere.
  void expect_certified(const LinearSystem& system, const std::vector<double>& exact, const SolverSettings& settings,
                        SolveStats& stats) {
    std::vector<double> lower, upper;
    stats = solve(system, settings, lower, upper);
    ASSERT_TRUE(stats.sound);
    EXPECT_TRUE(stats.converged) << "after " << stats.iterations << " iterations";
    for (size_t i = 0; i < exact.size(); ++i) {
      const double slack = 1e-12 * std::max(1.0, std::fabs(exact[i]));
      EXPECT_LE(lower[i], exact[i] + slack) << "at " << i;
      EXPECT_GE(upper[i], exact[i] - slack) << "at " << i;
      EXPECT_TRUE(bounds_close(lower[i], upper[i], settings.epsilon, settings.relative)) << "at " << i;
    }
  }
};

// A layered chain, numbered so that index order is the wrong order for
// Gauss–Seidel: unknown i moves to i + 1 and i + 2 (or stays, a self-loop
// on every third), the last two reach the target. Acyclic apart from the
// self-loops.
LinearSystem layered_chain(uint32_t n, bool rewards) {
  std::vector<Triplet> a;
  std::vector<double> b(n, 0.0);
  for (uint32_t i = 0; i < n; ++i) {
    const double stay = i % 3 == 0 ? 0.25 : 0.0;
    if (stay > 0) a.emplace_back(i, i, stay);
    if (i + 1 < n) a.emplace_back(i, i + 1, 0.5);
    if (i + 2 < n) a.emplace_back(i, i + 2, 0.5 - stay - 0.05);
    b[i] = rewards ? 1.0 + i % 5 : (i + 2 >= n ? 0.5 : 0.0);
  }
  LinearSystem system = linear_system(n, a, b);
  if (!rewards) system.upper_bound = 1.0;
  return system;
}

TEST_F(TopologicalInterval, AcyclicChainInOnePass) {
  for (const bool rewards : {false, true}) {
    SCOPED_TRACE(rewards ? "rewards" : "probabilities");
    const uint32_t n = 300;
    const LinearSystem system = layered_chain(n, rewards);
    std::vector<Triplet> a;
    for (uint32_t i = 0; i < n; ++i) {
      for (uint64_t e = system.a.row_offsets[i]; e < system.a.row_offsets[i + 1]; ++e) {
        a.emplace_back(i, system.a.columns[e], system.a.values[e]);
      }
    }
    const std::vector<double> exact = dense_linear(n, a, system.b);
    std::vector<double> lower, upper;
    const SolveStats stats = solve(system, tight(), lower, upper);
    EXPECT_TRUE(stats.sound);
    EXPECT_TRUE(stats.converged);
    // One update per unknown: one "iteration", the work of one sweep.
    EXPECT_EQ(stats.iterations, 1u);
    EXPECT_NE(stats.kernel.find("work of 1 sweeps"), std::string::npos) << stats.kernel;
    for (uint32_t i = 0; i < n; ++i) {
      // Exact from the successors' exact values: the bounds meet.
      EXPECT_EQ(lower[i], upper[i]) << "at " << i;
      EXPECT_NEAR(lower[i], exact[i], 1e-12 * std::max(1.0, exact[i])) << "at " << i;
    }
    // Whole-system interval iteration needs a sweep per layer at least.
    std::vector<double> whole_lower, whole_upper;
    EXPECT_GT(interval_linear(system, whole_lower, whole_upper, tight()).iterations, 10u);
  }
}

// Acyclic parts before and after a slow cycle: only the cycle is iterated.
TEST_F(TopologicalInterval, ChainWithACycle) {
  // 0 → 1 (a slow two-state cycle 1 ⇄ 2 leaking 1/1000 to 3) → 3 → target,
  // and 4 → 0, 5 → 4: every unknown but the cycle's in one update.
  const std::vector<Triplet> a = {{0, 1, 0.9}, {1, 2, 0.999}, {1, 3, 0.001}, {2, 1, 1.0},
                                  {3, 3, 0.5}, {4, 0, 1.0},   {5, 4, 0.7}};
  const std::vector<double> b = {0.1, 0.0, 0.0, 0.5, 0.0, 0.3};
  LinearSystem probabilities = linear_system(6, a, b);
  probabilities.upper_bound = 1.0;
  const std::vector<double> exact = dense_linear(6, a, b);
  SolveStats stats;
  expect_certified(probabilities, exact, swept(SolverSettings{}), stats);
  EXPECT_GT(stats.iterations, 1u);
  EXPECT_NE(stats.kernel.find("1 iterated"), std::string::npos) << stats.kernel;
  EXPECT_EQ(stats.kernel.find("final"), std::string::npos) << stats.kernel;
  expect_certified(probabilities, exact, swept(tight(false)), stats);
  // Expected rewards: the cycle's upper start from its first phase, with
  // the exact bounds of 3 folded in.
  const std::vector<double> rewards = {1.0, 1.0, 2.0, 1.0, 0.0, 5.0};
  expect_certified(linear_system(6, a, rewards), dense_linear(6, a, rewards), swept(tight()), stats);
  EXPECT_NE(stats.kernel.find("sound-vi-bound"), std::string::npos) << stats.kernel;
  // At the defaults the cycle is solved by state elimination: after the
  // first 64 sweeps for the probabilities, at once (no first phase) for
  // the rewards.
  // At ε = 1e-12 doubles cannot certify the cycle (leaking 1/1000); that
  // takes rationals (a build with GMP), else it is swept on.
  for (const SolverSettings& settings : {SolverSettings{}, tight(), tight(false)}) {
    const bool direct = settings.epsilon >= 1e-9 || exact_elimination_available();
    expect_certified(probabilities, exact, settings, stats);
    if (direct) {
      EXPECT_EQ(stats.iterations, 64u);
      EXPECT_NE(stats.kernel.find("1 solved directly"), std::string::npos) << stats.kernel;
      EXPECT_NE(stats.kernel.find(", 0 iterated"), std::string::npos) << stats.kernel;
    }
    // Rewards near 3000 to 1e-12 absolute are a few ulps: sweeps stop
    // short of that, rationals reach it.
    if (!direct && !settings.relative) continue;
    expect_certified(linear_system(6, a, rewards), dense_linear(6, a, rewards), settings, stats);
    if (direct) {
      EXPECT_EQ(stats.iterations, 1u);
      EXPECT_EQ(stats.kernel.find("sound-vi-bound"), std::string::npos) << stats.kernel;
      EXPECT_NE(stats.kernel.find("1 solved directly"), std::string::npos) << stats.kernel;
    }
  }
}

// K slow cycles in sequence, each feeding the next: the precision schedule
// (k/K of ε for the k-th from the bottom) lets every cycle close without
// the final whole-system sweeps, at the user's ε.
TEST_F(TopologicalInterval, CyclesInSequenceMeetTheUsersEpsilon) {
  const uint32_t cycles = 12, n = 2 * cycles;
  std::vector<Triplet> a;
  std::vector<double> probability(n, 0.0), reward(n, 1.0);
  for (uint32_t k = 0; k < cycles; ++k) {
    const uint32_t x = 2 * k, y = 2 * k + 1;
    a.emplace_back(y, x, 1.0);
    if (k == 0) {
      a.emplace_back(x, y, 0.99);
      probability[x] = 0.005;
    } else {
      a.emplace_back(x, y, 0.98);
      a.emplace_back(x, x - 2, 0.015);  // into the cycle below
    }
  }
  // Swept (the schedule) and solved directly.
  for (const bool direct : {false, true}) {
    for (const bool relative : {true, false}) {
      for (const double epsilon : {1e-6, 1e-10}) {
        SCOPED_TRACE(fmt::format("direct {}, relative {}, epsilon {}", direct, relative, epsilon));
        SolverSettings settings;
        settings.epsilon = epsilon;
        settings.relative = relative;
        settings.direct_small_sccs = direct;
        LinearSystem system = linear_system(n, a, probability);
        system.upper_bound = 1.0;
        SolveStats stats;
        expect_certified(system, dense_linear(n, a, probability), settings, stats);
        EXPECT_EQ(stats.kernel.find("final"), std::string::npos) << stats.kernel;
        expect_certified(linear_system(n, a, reward), dense_linear(n, a, reward), settings, stats);
        EXPECT_EQ(stats.kernel.find("final"), std::string::npos) << stats.kernel;
      }
    }
  }
}

// Rewards of both signs: the schedule's argument does not hold; the result
// must meet ε anyway (the final sweeps close what the SCCs left open).
TEST_F(TopologicalInterval, RewardsOfBothSignsStillMeetEpsilon) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  // Cycles in sequence with rewards of alternating sign and size.
  const uint32_t cycles = 8, n = 3 * cycles;
  std::vector<Triplet> a;
  std::vector<double> b(n);
  for (uint32_t k = 0; k < cycles; ++k) {
    const uint32_t x = 3 * k;
    a.emplace_back(x + 1, x + 2, 1.0);
    a.emplace_back(x + 2, x, 1.0);
    a.emplace_back(x, x + 1, k == 0 ? 0.95 : 0.9);
    if (k > 0) a.emplace_back(x, x - 3, 0.05);
    for (uint32_t i = x; i < x + 3; ++i) b[i] = (k % 2 == 0 ? 1.0 : -1.0) * (0.5 + unit(rng)) * (k + 1);
  }
  SolveStats stats;
  for (const SolverSettings& settings : {SolverSettings{}, tight()}) {
    expect_certified(linear_system(n, a, b), dense_linear(n, a, b), swept(settings), stats);
    expect_certified(linear_system(n, a, b), dense_linear(n, a, b), settings, stats);
  }
}

// Where a small value depends on large ones of the other sign, an SCC's
// share of ε does not close its predecessors: x3 = c + x0/2 ≈ 0.001 while
// the cycle 0 → 1 → 2 → 0 (x0 ≈ 60) is iterated to 2ε·60 only. The final
// sweeps over the whole system tighten the cycle until x3 meets ε too.
TEST_F(TopologicalInterval, CancellingSignsNeedTheFinalSweeps) {
  const std::vector<Triplet> a = {{0, 1, 0.9}, {1, 2, 0.5}, {1, 0, 0.45}, {2, 0, 1.0}, {3, 0, 0.5}};
  std::vector<double> b = {1.0, 2.0, 0.3, 0.0};
  b[3] = 0.001 - 0.5 * dense_linear(4, a, b)[0];
  SolveStats stats;
  const std::vector<double> exact = dense_linear(4, a, b);
  ASSERT_NEAR(exact[3], 0.001, 1e-9);
  expect_certified(linear_system(4, a, b), exact, swept(SolverSettings{}), stats);
  EXPECT_NE(stats.kernel.find("final sweeps"), std::string::npos) << stats.kernel;
  // Solved directly, the cycle is exact up to rounding: x3 meets ε at once.
  expect_certified(linear_system(4, a, b), exact, SolverSettings{}, stats);
  EXPECT_EQ(stats.kernel.find("final sweeps"), std::string::npos) << stats.kernel;
}

// An SCC whose first phase stops at the iteration limit has no upper
// bound; every unknown that reaches it then has none either: not sound,
// no NaN.
TEST_F(TopologicalInterval, NoUpperBoundBelowIsPassedOnWithoutNaN) {
  // 0 ⇄ 1 keeps 0.9999 per round trip (thousands of first-phase sweeps);
  // 2 → 0 (one update), 3 ⇄ 4 → 2.
  const std::vector<Triplet> a = {{0, 1, 0.9999}, {1, 0, 1.0}, {2, 0, 0.5}, {3, 4, 0.5}, {4, 3, 0.5}, {4, 2, 0.5}};
  const LinearSystem system = linear_system(5, a, {1.0, 1.0, 1.0, 1.0, 1.0});
  SolverSettings settings = swept(SolverSettings{});
  settings.max_iterations = 5;
  std::vector<double> lower, upper;
  const SolveStats stats = solve(system, settings, lower, upper);
  EXPECT_FALSE(stats.sound);
  EXPECT_FALSE(stats.converged);
  EXPECT_LE(stats.iterations, 5u);
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_FALSE(std::isnan(lower[i])) << "at " << i;
    EXPECT_TRUE(std::isinf(upper[i])) << "at " << i;
  }
}

// Garbage in: a start vector of the wrong size is an error that says so.
TEST_F(TopologicalInterval, WrongStartVectorSizeIsAnError) {
  const LinearSystem system = gamblers_ruin(10, 0.5);
  std::vector<double> lower(3, 0.0), upper;
  try {
    topological_interval_linear(system, lower, upper, SolverSettings{});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("start vector has 3 values"), std::string::npos) << e.what();
  }
}

// One SCC of 100K unknowns (a ring, plus one entry to a random unknown per
// row, or a near one for the banded case): large enough to be swept in
// blocks on several threads. On 1, 2 and 4 threads the bounds close at ε
// and overlap cpu.interval-vi's certified bounds; the rows keep mass 0.2
// outside the SCC, so the solution is a probability.
TEST_F(TopologicalInterval, LargeSccSweptInBlocksOnAnyThreadCount) {
  const uint32_t n = 100000;
  for (const bool banded : {true, false}) {
    SCOPED_TRACE(banded ? "banded" : "random");
    std::mt19937_64 rng(17);
    std::uniform_int_distribution<uint32_t> anywhere(0, n - 1), near(1, 64);
    std::vector<Triplet> a;
    std::vector<double> b(n, 0.0);
    for (uint32_t i = 0; i < n; ++i) {
      a.emplace_back(i, (i + 1) % n, 0.4);
      a.emplace_back(i, banded ? (i + n - near(rng)) % n : anywhere(rng), 0.4);
      b[i] = i % 7 == 0 ? 0.2 : 0.0;
    }
    LinearSystem system = linear_system(n, a, b);
    system.upper_bound = 1.0;
    SolverSettings settings;  // the defaults: ε = 1e-6 relative
    std::vector<double> reference_lower, reference_upper;
    settings.threads = 1;
    ASSERT_TRUE(interval_linear(system, reference_lower, reference_upper, settings).converged);
    for (const int threads : {1, 2, 4}) {
      SCOPED_TRACE(threads);
      settings.threads = threads;
      std::vector<double> lower, upper;
      const SolveStats stats = solve(system, settings, lower, upper);
      ASSERT_TRUE(stats.sound);
      EXPECT_TRUE(stats.converged) << stats.kernel;
#ifdef _OPENMP
      if (threads == 4) {
        EXPECT_NE(stats.kernel.find("(1 on 4 threads)"), std::string::npos) << stats.kernel;
      }
#endif
      if (threads == 1) {
        EXPECT_EQ(stats.kernel.find("threads"), std::string::npos) << stats.kernel;
      }
      for (uint32_t i = 0; i < n; ++i) {
        ASSERT_LE(lower[i], reference_upper[i] + 1e-15) << i;
        ASSERT_GE(upper[i], reference_lower[i] - 1e-15) << i;
        ASSERT_TRUE(bounds_close(lower[i], upper[i], settings.epsilon, settings.relative)) << i;
      }
    }
  }
}

// 24 cycles of 1100–1330 unknowns (past the direct solver's size) side by
// side, fed by 20000 single unknowns: one depth of mid-sized SCCs and one
// of many singles. Every thread count gives the same bits, and bounds
// that hold the whole-system solution.
TEST_F(TopologicalInterval, SccsOfOneDepthSideBySideOnAnyThreadCount) {
  const uint32_t cycles = 24, singles = 20000;
  std::vector<uint32_t> first{0};
  for (uint32_t g = 0; g < cycles; ++g) first.push_back(first.back() + 1100 + 10 * g);
  const uint32_t n = first.back() + singles;
  for (const bool rewards : {false, true}) {
    SCOPED_TRACE(rewards ? "rewards" : "probabilities");
    std::mt19937_64 rng(5);
    std::uniform_int_distribution<uint32_t> any_cycle_state(0, first.back() - 1);
    std::vector<Triplet> a;
    std::vector<double> b(n, 0.0);
    for (uint32_t g = 0; g < cycles; ++g) {
      const uint32_t size = first[g + 1] - first[g];
      const double around = 0.45 + 0.002 * g;
      for (uint32_t k = 0; k < size; ++k) {
        const uint32_t i = first[g] + k;
        a.emplace_back(i, first[g] + (k + 1) % size, around);
        a.emplace_back(i, first[g] + (k + size - 7) % size, around);
        b[i] = rewards ? 1.0 + i % 3 : (1.0 - 2 * around) / 2;
      }
    }
    for (uint32_t i = first.back(); i < n; ++i) {
      a.emplace_back(i, any_cycle_state(rng), 0.45);
      a.emplace_back(i, any_cycle_state(rng), 0.45);
      b[i] = rewards ? 2.0 : 0.1;
    }
    LinearSystem system = linear_system(n, a, b);
    if (!rewards) system.upper_bound = 1.0;
    SolverSettings settings;  // the defaults: ε = 1e-6 relative
    settings.threads = 1;
    std::vector<double> reference_lower, reference_upper, one_lower, one_upper;
    ASSERT_TRUE(interval_linear(system, reference_lower, reference_upper, settings).converged);
    const SolveStats one = solve(system, settings, one_lower, one_upper);
    ASSERT_TRUE(one.sound);
    EXPECT_TRUE(one.converged) << one.kernel;
    EXPECT_EQ(one.kernel.find("side by side"), std::string::npos) << one.kernel;
    for (uint32_t i = 0; i < n; ++i) {
      ASSERT_LE(one_lower[i], reference_upper[i] * (1 + 1e-12)) << i;
      ASSERT_GE(one_upper[i], reference_lower[i] * (1 - 1e-12)) << i;
      ASSERT_TRUE(bounds_close(one_lower[i], one_upper[i], settings.epsilon, settings.relative)) << i;
    }
    for (const int threads : {2, 8}) {
      SCOPED_TRACE(threads);
      settings.threads = threads;
      std::vector<double> lower, upper;
      const SolveStats stats = solve(system, settings, lower, upper);
#ifdef _OPENMP
      EXPECT_NE(stats.kernel.find("(24 side by side)"), std::string::npos) << stats.kernel;
#endif
      EXPECT_EQ(stats.iterations, one.iterations);
      EXPECT_EQ(lower, one_lower);
      EXPECT_EQ(upper, one_upper);
    }
  }
}

// ---------------------------------------------------------------------------
// Stationary distributions.

class StationarySolvers : public testing::TestWithParam<std::string> {
 protected:
  const SolverEntry& solver() const { return find_solver(GetParam()); }

  void check(const StationarySystem& system, std::vector<double> start, const std::vector<double>& expected,
             const SolverSettings& settings = tight()) {
    SolveStats stats;
    if (!run(solver().stationary, system, start, settings, stats)) GTEST_SKIP() << GetParam() << ": no GPU";
    EXPECT_EQ(stats.solver, GetParam());
    EXPECT_TRUE(stats.converged) << "after " << stats.iterations << " iterations";
    expect_near_all(start, expected, 1e-9);
    double total = 0;
    for (double v : start) {
      EXPECT_GE(v, 0.0);
      total += v;
    }
    EXPECT_NEAR(total, 1.0, 1e-12);
  }
};

std::vector<double> uniform(uint32_t n) { return std::vector<double>(n, 1.0 / n); }

TEST_P(StationarySolvers, TwoCycleFromSkewedStart) {
  // Period 2: an undamped Jacobi sweep just swaps the two values.
  check(stationary_system(2, {{0, 1, 1.0}, {1, 0, 1.0}}), {0.9, 0.1}, {0.5, 0.5});
}

TEST_P(StationarySolvers, ThreeCycleFromPointMass) {
  // A start with zeros: an in-place sweep from (1, 0, 0) can wipe it out.
  const std::vector<double> third(3, 1.0 / 3);
  check(stationary_system(3, {{0, 1, 1.0}, {1, 2, 1.0}, {2, 0, 1.0}}), {1.0, 0.0, 0.0}, third);
}

TEST_P(StationarySolvers, RandomBipartiteChainMatchesDenseSolve) {
  // Period 2 with many states: every edge goes between the halves
  // {0..39} and {40..99}.
  const uint32_t left = 40, n = 100;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<Triplet> flows;
  for (uint32_t i = 0; i < n; ++i) {
    const bool in_left = i < left;
    const uint32_t lo = in_left ? left : 0, hi = in_left ? n - 1 : left - 1;
    std::uniform_int_distribution<uint32_t> other(lo, hi);
    // Left i → right 40+i (and 80+i); right j → left j−39: all states on one
    // strongly connected graph.
    std::vector<std::pair<uint32_t, double>> row = {{in_left ? left + i : (i - left + 1) % left, 1.0}};
    if (in_left && 2 * left + i < n) row.emplace_back(2 * left + i, 1.0);
    for (int k = 0; k < 3; ++k) row.emplace_back(other(rng), unit(rng));
    double total = 0;
    for (auto& [j, w] : row) total += w;
    for (auto& [j, w] : row) flows.emplace_back(i, j, w / total);
  }
  const StationarySystem system = stationary_system(n, flows);
  const std::vector<double> expected = dense_stationary(n, flows);
  check(system, uniform(n), expected);
  std::vector<double> skewed(n, 0.0);
  skewed[0] = 1.0;
  check(system, skewed, expected);
}

TEST_P(StationarySolvers, PeriodicChainInAnUnluckyOrder) {
  // Period 4, classes {2,5} → {0,7} → {4,6} → {1,3} → {2,5}, numbered out
  // of order: from the uniform start an unrelaxed Gauss–Seidel sweep cycles
  // forever here (as on 11 of 800 random periodic chains, shuffled).
  const std::vector<Triplet> flows = {{5, 7, 0.5}, {5, 0, 0.5}, {2, 7, 1.0}, {7, 4, 1.0}, {0, 6, 0.5},
                                      {0, 4, 0.5}, {4, 1, 0.5}, {4, 3, 0.5}, {6, 1, 0.5}, {6, 3, 0.5},
                                      {1, 2, 0.5}, {1, 5, 0.5}, {3, 5, 1.0}};
  check(stationary_system(8, flows), uniform(8), dense_stationary(8, flows));
}

// Birth–death DTMC on 0..n−1: up with p, down with q, stay otherwise;
// detailed balance gives π_i ∝ (p/q)^i.
TEST_P(StationarySolvers, BirthDeathMatchesClosedForm) {
  const uint32_t n = 30;
  const double p = 0.3, q = 0.5;
  std::vector<Triplet> flows;
  for (uint32_t i = 0; i + 1 < n; ++i) {
    flows.emplace_back(i, i + 1, p);
    flows.emplace_back(i + 1, i, q);
  }
  std::vector<double> expected(n);
  double total = 0;
  for (uint32_t i = 0; i < n; ++i) total += expected[i] = std::pow(p / q, i);
  for (double& v : expected) v /= total;
  check(stationary_system(n, flows), uniform(n), expected);
}

// M/M/1/K queue as a CTMC (d = exit rates): π_i ∝ (λ/μ)^i whatever the time
// unit, so rates scaled by 1e−6 or 1e6 must give the same π.
TEST_P(StationarySolvers, CtmcQueueMatchesClosedFormAtAnyRateScale) {
  const uint32_t n = 21;
  const double lambda = 2.0, mu = 3.0;
  std::vector<double> expected(n);
  double total = 0;
  for (uint32_t i = 0; i < n; ++i) total += expected[i] = std::pow(lambda / mu, i);
  for (double& v : expected) v /= total;
  for (double scale : {1.0, 1e-6, 1e6}) {
    SCOPED_TRACE(testing::Message() << "rate scale " << scale);
    std::vector<Triplet> flows;
    for (uint32_t i = 0; i + 1 < n; ++i) {
      flows.emplace_back(i, i + 1, lambda * scale);
      flows.emplace_back(i + 1, i, mu * scale);
    }
    check(stationary_system(n, flows), uniform(n), expected);
  }
}

TEST_P(StationarySolvers, RandomIrreducibleChainMatchesDenseSolve) {
  // A ring keeps it irreducible; random extra edges and self-loops (implicit
  // in d = 1 − P_ii) make it aperiodic and uneven.
  const uint32_t n = 100;
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_int_distribution<uint32_t> state(0, n - 1), degree(0, 5);
  std::vector<Triplet> flows;
  for (uint32_t i = 0; i < n; ++i) {
    std::vector<std::pair<uint32_t, double>> row = {{(i + 1) % n, unit(rng) + 0.05}};
    for (uint32_t k = degree(rng); k > 0; --k) {
      const uint32_t j = state(rng);
      if (j != i) row.emplace_back(j, unit(rng));
    }
    const double stay = 0.5 * unit(rng);
    double total = 0;
    for (auto& [j, w] : row) total += w;
    for (auto& [j, w] : row) flows.emplace_back(i, j, (1 - stay) * w / total);
  }
  check(stationary_system(n, flows), uniform(n), dense_stationary(n, flows));
}

TEST_P(StationarySolvers, LargeChainRunsInParallel) {
  // Above k_parallel_rows: a ring with random chords (fast mixing). No
  // reference: π must balance every state, π_j·d_j = Σ_i π_i·m_ij.
  const uint32_t n = 20000;
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_int_distribution<uint32_t> state(0, n - 1);
  std::vector<Triplet> flows;
  for (uint32_t i = 0; i < n; ++i) {
    flows.emplace_back(i, (i + 1) % n, 0.1 + unit(rng));
    for (int k = 0; k < 3; ++k) {
      const uint32_t j = state(rng);
      if (j != i) flows.emplace_back(i, j, unit(rng));
    }
  }
  const StationarySystem system = stationary_system(n, flows);
  std::vector<double> x = uniform(n);
  SolveStats stats;
  if (!run(solver().stationary, system, x, tight(), stats)) GTEST_SKIP() << "no GPU";
  EXPECT_TRUE(stats.converged);
  double total = 0, imbalance = 0;
  for (uint32_t j = 0; j < n; ++j) {
    double inflow = 0;
    for (uint64_t e = system.incoming.row_offsets[j]; e < system.incoming.row_offsets[j + 1]; ++e) {
      inflow += system.incoming.values[e] * x[system.incoming.columns[e]];
    }
    imbalance = std::max(imbalance, std::fabs(x[j] - inflow / system.outflow[j]));
    total += x[j];
  }
  EXPECT_NEAR(total, 1.0, 1e-12);
  EXPECT_LE(imbalance, 1e-9 / n);  // a Jacobi step from π: 1e-9 relative to π ≈ 1/n
}

TEST_P(StationarySolvers, IterationLimitReportsNotConverged) {
  const uint32_t n = 200;
  std::vector<Triplet> flows;
  for (uint32_t i = 0; i + 1 < n; ++i) {
    flows.emplace_back(i, i + 1, 0.3);
    flows.emplace_back(i + 1, i, 0.5);
  }
  SolverSettings settings = tight();
  settings.max_iterations = 2;
  std::vector<double> x = uniform(n);
  SolveStats stats;
  if (!run(solver().stationary, stationary_system(n, flows), x, settings, stats)) GTEST_SKIP() << "no GPU";
  EXPECT_FALSE(stats.converged);
  EXPECT_LE(stats.iterations, 2u);
}

INSTANTIATE_TEST_SUITE_P(Registry, StationarySolvers, testing::ValuesIn(solvers_for(ProblemKind::stationary)),
                         test_name);

// ---------------------------------------------------------------------------
// Certified long-run averages g = π·f of one bottom SCC (SolverEntry::long_run).

// `distribution`: the solvers' estimate of π (default: uniform).
LongRunProblem long_run_problem(uint32_t n, const std::vector<Triplet>& flows, std::vector<double> reward,
                                std::vector<double> distribution = {}) {
  if (distribution.empty()) distribution.assign(reward.size(), 1.0 / std::max<size_t>(reward.size(), 1));
  return LongRunProblem{csr(n, flows), std::move(reward), std::move(distribution)};
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0;
  for (size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
  return sum;
}

// M/M/1/K as a CTMC on n states (arrivals λ, services μ, both scaled by
// `scale`), its stationary distribution π_i ∝ (λ/μ)^i, and f = the queue length.
struct Queue {
  std::vector<Triplet> flows;
  std::vector<double> pi, length;
};
Queue queue(uint32_t n, double lambda, double mu, double scale = 1.0) {
  Queue q;
  q.pi.resize(n);
  q.length.resize(n);
  double total = 0;
  for (uint32_t i = 0; i < n; ++i) {
    total += q.pi[i] = std::pow(lambda / mu, i);
    q.length[i] = i;
    if (i + 1 < n) {
      q.flows.emplace_back(i, i + 1, lambda * scale);
      q.flows.emplace_back(i + 1, i, mu * scale);
    }
  }
  for (double& v : q.pi) v /= total;
  return q;
}

std::vector<std::string> long_run_solvers() {
  std::vector<std::string> names;
  for (const SolverEntry& s : solver_registry()) {
    if (s.long_run != nullptr) names.push_back(s.name);
  }
  return names;
}

class LongRunSolvers : public testing::TestWithParam<std::string> {
 protected:
  const SolverEntry& solver() const { return find_solver(GetParam()); }

  // False without a GPU for a GPU solver (the test is then skipped).
  bool solve(const LongRunProblem& problem, LongRunBounds& bounds, SolveStats& stats,
             const SolverSettings& settings = tight()) {
    try {
      stats = solver().long_run(problem, bounds, settings);
      return true;
    } catch (const Error& e) {
      if (e.code() == ErrorCode::no_device) return false;
      throw;
    }
  }

  // The bounds contain `expected` (up to the reference's own rounding) and
  // meet the precision asked for.
  void check(const LongRunProblem& problem, double expected, const SolverSettings& settings = tight()) {
    LongRunBounds bounds;
    SolveStats stats;
    if (!solve(problem, bounds, stats, settings)) GTEST_SKIP() << GetParam() << ": no GPU";
    EXPECT_EQ(stats.solver, GetParam());
    EXPECT_TRUE(stats.sound);
    EXPECT_TRUE(stats.converged) << "after " << stats.iterations << " iterations";
    const double slack = 1e-13 * std::max(1.0, std::fabs(expected));
    EXPECT_LE(bounds.lower, expected + slack);
    EXPECT_GE(bounds.upper, expected - slack);
    EXPECT_TRUE(bounds_close(bounds.lower, bounds.upper, settings.epsilon, settings.relative))
        << "[" << bounds.lower << ", " << bounds.upper << "]";
  }
};

TEST_P(LongRunSolvers, TwoCycleIsPeriodicYetBounded) {
  // Period 2: undamped Jacobi on the bias equations would swap forever.
  check(long_run_problem(2, {{0, 1, 1.0}, {1, 0, 1.0}}, {1.0, 0.0}, {0.5, 0.5}), 0.5);
}

TEST_P(LongRunSolvers, PeriodicChainInAnUnluckyOrder) {
  const std::vector<Triplet> flows = {{5, 7, 0.5}, {5, 0, 0.5}, {2, 7, 1.0}, {7, 4, 1.0}, {0, 6, 0.5},
                                      {0, 4, 0.5}, {4, 1, 0.5}, {4, 3, 0.5}, {6, 1, 0.5}, {6, 3, 0.5},
                                      {1, 2, 0.5}, {1, 5, 0.5}, {3, 5, 1.0}};
  const std::vector<double> f = {0, 1, 0, 1, 0, 0, 2, 0};
  const std::vector<double> pi = dense_stationary(8, flows);
  check(long_run_problem(8, flows, f, pi), dot(pi, f));
}

TEST_P(LongRunSolvers, ConstantRewardNeedsNoSweep) {
  LongRunBounds bounds;
  SolveStats stats;
  if (!solve(long_run_problem(3, {{0, 1, 2.0}, {1, 2, 3.0}, {2, 0, 0.5}}, {0.25, 0.25, 0.25}), bounds, stats)) {
    GTEST_SKIP() << "no GPU";
  }
  EXPECT_TRUE(stats.converged);
  EXPECT_EQ(stats.iterations, 0u);
  EXPECT_LE(bounds.lower, 0.25);
  EXPECT_GE(bounds.upper, 0.25);
  EXPECT_LE(bounds.upper - bounds.lower, 2e-15);  // the rounding margins alone
}

TEST_P(LongRunSolvers, RandomChainsMatchDenseSolve) {
  // Irreducible (a ring) with random chords, some bipartite (period 2), and
  // rewards of either sign: the dense π·f lies inside the bounds.
  for (int seed = 1; seed <= 6; ++seed) {
    SCOPED_TRACE(testing::Message() << "seed " << seed);
    const uint32_t n = 120;
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0), reward(-3.0, 5.0);
    std::uniform_int_distribution<uint32_t> state(0, n - 1);
    const bool bipartite = seed % 2 == 0;
    std::vector<Triplet> flows;
    for (uint32_t i = 0; i < n; ++i) {
      flows.emplace_back(i, (i + 1) % n, 0.05 + unit(rng));
      for (int k = 0; k < 3; ++k) {
        uint32_t j = state(rng);
        if (bipartite && (j % 2) == (i % 2)) j = (j + 1) % n;
        if (j != i) flows.emplace_back(i, j, unit(rng));
      }
    }
    std::vector<double> f(n);
    for (double& v : f) v = reward(rng);
    const std::vector<double> pi = dense_stationary(n, flows);
    check(long_run_problem(n, flows, f, pi), dot(pi, f));
  }
}

// M/M/1/K as a CTMC, f = the queue length: the mean length from the
// closed form π_i ∝ (λ/μ)^i, at any time unit.
TEST_P(LongRunSolvers, CtmcQueueLengthAtAnyRateScale) {
  for (double scale : {1.0, 1e-6, 1e6}) {
    SCOPED_TRACE(testing::Message() << "rate scale " << scale);
    const Queue q = queue(21, 2.0, 3.0, scale);
    check(long_run_problem(21, q.flows, q.length, q.pi), dot(q.pi, q.length));
  }
}

TEST_P(LongRunSolvers, SmallAverageToTheRoundingAndNoFurther) {
  // A state visited rarely (π_0 ≈ 1.6e-8, f = 1 there, 0 elsewhere): its
  // Δ is 1 cancelled down to π_0, so rounding leaves ~1e-15 of width.
  // Relative 1e-6 is reached; relative 1e-12 cannot be, and the solve stops
  // there with sound bounds rather than at the iteration limit.
  const uint32_t n = 20;
  std::vector<Triplet> flows;
  for (uint32_t i = 0; i + 1 < n; ++i) {
    flows.emplace_back(i, i + 1, 2.5);
    flows.emplace_back(i + 1, i, 1.0);
  }
  std::vector<double> f(n, 0.0), pi(n);
  f[0] = 1.0;
  double total = 0;
  for (uint32_t i = 0; i < n; ++i) total += pi[i] = std::pow(2.5, i);
  for (double& v : pi) v /= total;
  const LongRunProblem problem = long_run_problem(n, flows, f, pi);
  LongRunBounds bounds;
  SolveStats stats;
  if (!solve(problem, bounds, stats, tight())) GTEST_SKIP() << "no GPU";
  EXPECT_FALSE(stats.converged);
  EXPECT_LT(stats.iterations, 100000u);
  EXPECT_LE(bounds.lower, 1.0 / total * (1 + 1e-13));
  EXPECT_GE(bounds.upper, 1.0 / total * (1 - 1e-13));
  ASSERT_EQ(stats.notes.size(), 1u);
  EXPECT_NE(stats.notes[0].find("rounding"), std::string::npos) << stats.notes[0];
  SolverSettings usual;  // relative 1e-6
  check(problem, 1.0 / total, usual);
  check(problem, 1.0 / total, tight(false));
}

TEST_P(LongRunSolvers, LargeChainOnAllCoresAgreesWithOneThread) {
  // Above k_parallel_rows: the bounds contain the stationary solve's π·f,
  // and a CPU solver's bounds are the same bits on 1 and 4 threads.
  const uint32_t n = 20000;
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_int_distribution<uint32_t> state(0, n - 1);
  std::vector<Triplet> flows;
  std::vector<double> f(n);
  for (uint32_t i = 0; i < n; ++i) {
    flows.emplace_back(i, (i + 1) % n, 0.1 + unit(rng));
    for (int k = 0; k < 3; ++k) {
      const uint32_t j = state(rng);
      if (j != i) flows.emplace_back(i, j, unit(rng));
    }
    f[i] = unit(rng) < 0.3 ? 1.0 : 0.0;
  }
  std::vector<double> pi(n, 1.0 / n);
  ASSERT_TRUE(gauss_seidel_stationary(stationary_system(n, flows), pi, tight()).converged);
  const LongRunProblem problem = long_run_problem(n, flows, f, pi);
  check(problem, dot(pi, f));
  if (solver().device != DeviceKind::cpu) return;
  SolverSettings one = tight(), four = tight();
  one.threads = 1;
  four.threads = 4;
  LongRunBounds a, b;
  SolveStats stats;
  ASSERT_TRUE(solve(problem, a, stats, one));
  ASSERT_TRUE(solve(problem, b, stats, four));
  EXPECT_EQ(a.lower, b.lower);
  EXPECT_EQ(a.upper, b.upper);
}

TEST_P(LongRunSolvers, IterationLimitLeavesSoundBounds) {
  const uint32_t n = 200;
  const double p = 0.3, q = 0.5;
  std::vector<Triplet> flows;
  std::vector<double> pi(n), f(n);
  double total = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (i + 1 < n) {
      flows.emplace_back(i, i + 1, p);
      flows.emplace_back(i + 1, i, q);
    }
    total += pi[i] = std::pow(p / q, i);
    f[i] = i % 3;
  }
  for (double& v : pi) v /= total;
  SolverSettings settings = tight();
  settings.max_iterations = 3;
  LongRunBounds bounds;
  SolveStats stats;
  if (!solve(long_run_problem(n, flows, f, pi), bounds, stats, settings)) GTEST_SKIP() << "no GPU";
  EXPECT_FALSE(stats.converged);
  EXPECT_TRUE(stats.sound);
  EXPECT_LE(stats.iterations, 3u);
  EXPECT_LE(bounds.lower, dot(pi, f));
  EXPECT_GE(bounds.upper, dot(pi, f));
}

TEST_P(LongRunSolvers, UniformWeightsOnARandomChain) {
  // A DTMC without self loops (every E_s = 1), weighted uniformly while π
  // is not: the estimate of the average is off until the sweeps settle.
  const uint32_t n = 60;
  std::mt19937_64 rng(23);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_int_distribution<uint32_t> state(0, n - 1);
  std::vector<Triplet> flows;
  std::vector<double> f(n);
  for (uint32_t i = 0; i < n; ++i) {
    std::vector<std::pair<uint32_t, double>> row = {{(i + 1) % n, 0.2 + unit(rng)}};
    for (int k = 0; k < 2; ++k) {
      const uint32_t j = state(rng);
      if (j != i) row.emplace_back(j, unit(rng));
    }
    double total = 0;
    for (auto& [j, w] : row) total += w;
    for (auto& [j, w] : row) flows.emplace_back(i, j, w / total);
    f[i] = unit(rng);
  }
  check(long_run_problem(n, flows, f), dot(dense_stationary(n, flows), f));
}

TEST_P(LongRunSolvers, RoughDistributionStillCloses) {
  // The queue of CtmcQueueLengthAtAnyRateScale with exit rates 2 to 5 and π
  // far from uniform, weighted by a uniform "estimate" of π: a stationary
  // solve cut short must cost sweeps, not the bounds.
  const Queue q = queue(21, 2.0, 3.0);
  check(long_run_problem(21, q.flows, q.length, std::vector<double>(21, 1.0)), dot(q.pi, q.length));
}

TEST_P(LongRunSolvers, BadProblemsAreErrors) {
  {
    LongRunBounds bounds;
    SolveStats stats;
    if (!solve(long_run_problem(1, {}, {1.0}), bounds, stats)) GTEST_SKIP() << "no GPU";
  }
  const auto expect_invalid = [&](const LongRunProblem& problem, const char* what) {
    LongRunBounds bounds;
    SolveStats stats;
    try {
      solve(problem, bounds, stats);
      ADD_FAILURE() << what << ": no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::invalid_argument) << what << ": " << e.what();
    }
  };
  expect_invalid(long_run_problem(2, {{0, 1, 1.0}, {1, 0, 1.0}}, {1.0}), "a reward short");
  expect_invalid(long_run_problem(2, {{0, 0, 1.0}, {1, 0, 1.0}}, {1.0, 0.0}), "a self loop");
  expect_invalid(long_run_problem(2, {{0, 1, -1.0}, {1, 0, 1.0}}, {1.0, 0.0}), "a negative rate");
  expect_invalid(long_run_problem(2, {{0, 1, INFINITY}, {1, 0, 1.0}}, {1.0, 0.0}), "an infinite rate");
  expect_invalid(long_run_problem(2, {{0, 1, 1.0}, {1, 0, 1.0}}, {NAN, 0.0}), "a NaN reward");
  LongRunProblem outside = long_run_problem(2, {{0, 1, 1.0}, {1, 0, 1.0}}, {1.0, 0.0});
  outside.rates.columns[0] = 7;
  expect_invalid(outside, "a column outside");
  expect_invalid(long_run_problem(2, {{0, 1, 1.0}, {1, 0, 1.0}}, {1.0, 0.0}, {1.0}), "a distribution short");
  LongRunProblem none = long_run_problem(2, {{0, 1, 1.0}, {1, 0, 1.0}}, {1.0, 0.0});
  none.distribution.clear();
  expect_invalid(none, "no distribution");
  expect_invalid(long_run_problem(2, {{0, 1, 1.0}, {1, 0, 1.0}}, {1.0, 0.0}, {0.0, 0.0}), "a distribution of no mass");
  expect_invalid(long_run_problem(2, {{0, 1, 1.0}, {1, 0, 1.0}}, {1.0, 0.0}, {-0.5, 1.0}), "a negative weight");
}

INSTANTIATE_TEST_SUITE_P(Registry, LongRunSolvers, testing::ValuesIn(long_run_solvers()), test_name);

// ---------------------------------------------------------------------------
// Bounded steps v_{k+1} = A·v_k + b.

class StepSolvers : public testing::TestWithParam<std::string> {};

TEST_P(StepSolvers, ThreeStatesMatchDenseIteration) {
  const std::vector<Triplet> entries = {{0, 0, 0.2}, {0, 1, 0.5}, {0, 2, 0.1}, {1, 1, 0.3},
                                        {1, 2, 0.6}, {2, 0, 0.4}, {2, 2, 0.5}};
  Dense a(3, std::vector<double>(3, 0.0));
  for (const auto& [r, c, v] : entries) a[r][c] = v;
  const std::vector<double> x0 = {1.0, 0.0, 0.5}, c = {0.1, 0.2, 0.3, 0.25, 0.15};
  for (bool with_b : {true, false}) {
    SCOPED_TRACE(with_b ? "with b" : "without b");
    const std::vector<double> b = with_b ? std::vector<double>{0.1, 0.0, 0.05} : std::vector<double>{};
    // v_0..v_4 and Σ_k c_k·v_k, by hand.
    std::vector<std::vector<double>> v = {x0};
    std::vector<double> weighted(3, 0.0);
    for (int k = 1; k <= 4; ++k) {
      std::vector<double> next(3, 0.0);
      for (int i = 0; i < 3; ++i) {
        next[i] = b.empty() ? 0.0 : b[i];
        for (int j = 0; j < 3; ++j) next[i] += a[i][j] * v.back()[j];
      }
      v.push_back(next);
    }
    for (int k = 0; k <= 4; ++k) {
      for (int i = 0; i < 3; ++i) weighted[i] += c[k] * v[k][i];
    }
    StepProblem problem{csr(3, entries), b, x0, 4, {}};
    std::vector<double> result;
    SolveStats stats;
    if (!run(find_solver(GetParam()).steps, problem, result, tight(), stats)) GTEST_SKIP() << "no GPU";
    EXPECT_EQ(stats.solver, GetParam());
    EXPECT_EQ(stats.iterations, 4u);
    expect_near_all(result, v[4], 1e-14);

    problem.coefficients = c;
    result.clear();
    ASSERT_TRUE(run(find_solver(GetParam()).steps, problem, result, tight(), stats));
    expect_near_all(result, weighted, 1e-14);

    problem.steps = 0;
    problem.coefficients.clear();
    ASSERT_TRUE(run(find_solver(GetParam()).steps, problem, result, tight(), stats));
    expect_near_all(result, x0, 0.0);
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, StepSolvers, testing::ValuesIn(solvers_for(ProblemKind::bounded_steps)),
                         test_name);

}  // namespace
}  // namespace pmc
