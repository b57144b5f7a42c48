// Lumping a MinMaxProblem by bisimulation (solver/minmax/lumping.hpp): the
// quotient of a problem of k identical walkers is the problem of their
// multisets, its solution lifted is the unlumped solution, and
// cpu.topo-interval-vi takes that path by itself when its solve proves
// expensive.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "solver/minmax/lumping.hpp"
#include "solver/minmax/mdp_solvers.hpp"

namespace pmc {
namespace {

// k walkers on positions 0..m−1, all starting anywhere; the target is all
// of them at m−1 (known, not an unknown). Each choice moves one walker not
// yet at the end: from position i it advances with probability adv(i),
// falls back to 0 with fall(i) and stays otherwise. Rewards: b = 1 per
// step (expected steps), else b = the mass into the target (probability
// of reaching it; with `trap`, a walker that falls is lost instead, so the
// probability is below 1). The walkers are identical, so states that are
// permutations of each other are bisimilar.
struct Walkers {
  int k, m;
  bool rewards, trap;
  double adv(int i) const { return 0.2 + 0.02 * (i % 5); }
  double fall(int i) const { return 0.02 + 0.005 * (i % 3); }

  uint64_t count() const {
    uint64_t n = 1;
    for (int i = 0; i < k; ++i) n *= static_cast<uint64_t>(m);
    return n - 1;  // the last tuple (all at m−1) is the target
  }
  std::vector<int> tuple(uint64_t s) const {
    std::vector<int> t(k);
    for (int i = k - 1; i >= 0; --i) {
      t[i] = static_cast<int>(s % m);
      s /= m;
    }
    return t;
  }
  uint64_t index(const std::vector<int>& t) const {
    uint64_t s = 0;
    for (const int x : t) s = s * m + x;
    return s;
  }

  MinMaxProblem problem(bool maximize) const {
    MinMaxProblem p;
    p.maximize = maximize;
    p.upper_bound = rewards ? std::numeric_limits<double>::infinity() : 1.0;
    const uint64_t n = count();
    for (uint64_t s = 0; s < n; ++s) {
      const std::vector<int> t = tuple(s);
      for (int w = 0; w < k; ++w) {
        const int i = t[w];
        if (i == m - 1) continue;
        double b = rewards ? 1.0 : 0.0;
        std::vector<int> next = t;
        const auto add = [&](std::vector<int> to, double value) {
          const uint64_t target = index(to);
          if (target == n) {  // all at the end
            if (!rewards) b += value;
            return;
          }
          p.a.columns.push_back(static_cast<uint32_t>(target));
          p.a.values.push_back(value);
        };
        next[w] = i + 1;
        add(next, adv(i));
        if (!trap) {
          next[w] = 0;
          add(next, fall(i));
        }
        next[w] = i;
        add(next, 1.0 - adv(i) - fall(i));  // with a trap, fall(i) leaves for good
        p.a.row_offsets.push_back(p.a.columns.size());
        p.b.push_back(b);
      }
      p.row_groups.push_back(p.b.size());
    }
    return p;
  }

  // Multisets of k positions, less the target.
  uint64_t multisets() const {
    uint64_t c = 1;  // C(m + k − 1, k)
    for (int i = 1; i <= k; ++i) c = c * static_cast<uint64_t>(m + i - 1) / static_cast<uint64_t>(i);
    return c - 1;
  }
};

TEST(Lumping, PermutationsOfIdenticalWalkersAreOneUnknown) {
  const Walkers walkers{4, 8, true, false};
  const MinMaxProblem p = walkers.problem(false);
  Lumping lumping;
  ASSERT_TRUE(lump(p, 2, nullptr, lumping));
  EXPECT_EQ(lumping.problem.num_unknowns(), walkers.multisets());
  EXPECT_GT(lumping.rounds, 0u);
  for (uint64_t s = 0; s < p.num_unknowns(); ++s) {
    std::vector<int> sorted = walkers.tuple(s);
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(lumping.block_of[s], lumping.block_of[walkers.index(sorted)]) << "state " << s;
  }
  // Blocks are numbered in the order of their first member: state 0 is in
  // block 0, and the quotient is no looser than the original.
  EXPECT_EQ(lumping.block_of[0], 0u);
  EXPECT_LE(lumping.problem.a.num_entries(), p.a.num_entries());
}

TEST(Lumping, TheQuotientSolvesToTheOriginalsValues) {
  for (const bool rewards : {false, true}) {
    for (const bool maximize : {false, true}) {
      const Walkers walkers{4, 7, rewards, !rewards};
      const MinMaxProblem p = walkers.problem(maximize);
      Lumping lumping;
      ASSERT_TRUE(lump(p, 0, nullptr, lumping));
      SolverSettings settings;
      settings.epsilon = 1e-10;
      settings.lumping = false;
      MinMaxSolution whole, quotient;
      ASSERT_TRUE(interval_value_iteration(p, whole, settings).converged);
      ASSERT_TRUE(interval_value_iteration(lumping.problem, quotient, settings).converged);
      for (uint64_t s = 0; s < p.num_unknowns(); ++s) {
        const uint32_t b = lumping.block_of[s];
        // Both pairs of bounds are certified: they overlap.
        EXPECT_LE(whole.x[s], quotient.upper[b] * (1 + 1e-12)) << "rewards " << rewards << " state " << s;
        EXPECT_LE(quotient.x[b], whole.upper[s] * (1 + 1e-12)) << "rewards " << rewards << " state " << s;
      }
    }
  }
}

TEST(Lumping, SameBlocksOnAnyThreadCount) {
  const MinMaxProblem p = Walkers{4, 9, true, false}.problem(true);
  Lumping one, two, eight;
  ASSERT_TRUE(lump(p, 1, nullptr, one));
  ASSERT_TRUE(lump(p, 2, nullptr, two));
  ASSERT_TRUE(lump(p, 8, nullptr, eight));
  EXPECT_EQ(one.block_of, two.block_of);
  EXPECT_EQ(one.block_of, eight.block_of);
  EXPECT_EQ(one.problem.a.values, eight.problem.a.values);
  EXPECT_EQ(one.problem.b, eight.problem.b);
}

TEST(Lumping, RefusesWhatItCannotShrinkOrMustNotTouch) {
  // Random rows: hardly two unknowns alike, so refinement passes a quarter.
  std::mt19937_64 random(7);
  std::uniform_int_distribution<uint32_t> column(0, 999);
  std::uniform_real_distribution<double> weight(0.1, 1.0);
  MinMaxProblem p;
  for (uint32_t s = 0; s < 1000; ++s) {
    for (int r = 0; r < 2; ++r) {
      const double w1 = weight(random), w2 = weight(random), total = w1 + w2 + 0.5;
      p.a.columns.push_back(column(random));
      p.a.values.push_back(w1 / total);
      p.a.columns.push_back(column(random));
      p.a.values.push_back(w2 / total);
      p.a.row_offsets.push_back(p.a.columns.size());
      p.b.push_back(0.5 / total);
    }
    p.row_groups.push_back(p.b.size());
  }
  Lumping lumping;
  EXPECT_FALSE(lump(p, 0, nullptr, lumping));
  // Step-bounded problems are left alone (the checker counts their steps).
  MinMaxProblem bounded = Walkers{2, 5, false, true}.problem(true);
  bounded.steps = 10;
  EXPECT_FALSE(lump(bounded, 0, nullptr, lumping));
  // Cancellation stops refinement with the cancelled error.
  const std::atomic<bool> cancel{true};
  try {
    lump(Walkers{2, 5, false, true}.problem(true), 0, &cancel, lumping);
    FAIL() << "lump ignored the cancellation";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::cancelled);
  }
}

// The stats of a solve that tried lumping count every attempt: the budgeted
// solve before refinement, then the rest (here: nothing lumps, every
// unknown has its own b, so refinement gives up after one round).
TEST(Lumping, StatsCountEveryAttempt) {
  MinMaxProblem p;
  const uint64_t n = k_lumping_min_unknowns + 10;
  for (uint64_t s = 0; s < n; ++s) {
    if (s + 1 < n) {
      p.a.columns.push_back(static_cast<uint32_t>(s + 1));
      p.a.values.push_back(0.5);
    }
    p.a.row_offsets.push_back(p.a.columns.size());
    p.b.push_back(0.5 * static_cast<double>(s + 1) / static_cast<double>(n + 1));
    p.row_groups.push_back(p.b.size());
  }
  int calls = 0;
  MinMaxSolution solution;
  const SolveStats stats = solve_lumped(
      p, solution, SolverSettings{},
      [&](const MinMaxProblem& q, MinMaxSolution& s, const SolverSettings&, uint64_t budget, bool& finished) {
        ++calls;
        SolveStats attempt;
        attempt.solver = "attempt";
        attempt.iterations = budget > 0 ? 200 : 3;
        attempt.loop_seconds = budget > 0 ? 0.5 : 0.25;
        finished = budget == 0;
        s.x.assign(q.num_unknowns(), 0.0);
        s.upper.assign(q.num_unknowns(), 1.0);
        return attempt;
      });
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(stats.iterations, 203u);
  EXPECT_DOUBLE_EQ(stats.loop_seconds, 0.75);
  EXPECT_NE(stats.kernel.find("+not lumpable"), std::string::npos) << stats.kernel;
}

// cpu.topo-interval-vi lumps by itself once its solve needs more than its
// first budget (walkers that fall back to 0 make one SCC that needs many
// sweeps), and its bounds hold the quotient's own (solved on its own by
// cpu.interval-vi); settings.lumping turns it off.
TEST(Lumping, TheDefaultSolverLumpsAnExpensiveProblem) {
  const Walkers walkers{4, 17, true, false};  // 83520 unknowns
  const MinMaxProblem p = walkers.problem(false);
  ASSERT_GE(p.num_unknowns(), k_lumping_min_unknowns);
  SolverSettings settings;
  settings.epsilon = 1e-6;
  MinMaxSolution lumped;
  const SolveStats with = topological_interval_iteration(p, lumped, settings);
  ASSERT_TRUE(with.converged);
  EXPECT_TRUE(with.sound);
  EXPECT_NE(with.kernel.find(fmt::format("+lumped {}→{} unknowns", p.num_unknowns(), walkers.multisets())),
            std::string::npos)
      << with.kernel;
  // The stats count the sweeps of the attempt before lumping (its first
  // budget: one SCC of ~all the unknowns), not only the quotient's.
  EXPECT_GE(with.iterations, k_lumping_budget_sweeps * 9 / 10) << with.iterations;
  Lumping lumping;
  ASSERT_TRUE(lump(p, 0, nullptr, lumping));
  MinMaxSolution quotient;
  settings.epsilon = 1e-10;
  ASSERT_TRUE(interval_value_iteration(lumping.problem, quotient, settings).converged);
  ASSERT_EQ(lumped.choice.size(), p.num_unknowns());
  for (uint64_t s = 0; s < p.num_unknowns(); ++s) {
    const uint32_t b = lumping.block_of[s];
    EXPECT_LE(quotient.x[b], lumped.upper[s] * (1 + 1e-12)) << "state " << s;
    EXPECT_LE(lumped.x[s], quotient.upper[b] * (1 + 1e-12)) << "state " << s;
    EXPECT_LE(lumped.upper[s] - lumped.x[s], 2.01e-6 * lumped.x[s]) << "state " << s;
    EXPECT_LT(lumped.choice[s], p.row_groups[s + 1] - p.row_groups[s]) << "state " << s;
  }
  // Off: the first sweeps alone, the problem as given.
  settings.lumping = false;
  settings.max_iterations = 20;
  MinMaxSolution plain;
  const SolveStats without = topological_interval_iteration(p, plain, settings);
  EXPECT_FALSE(without.converged);
  EXPECT_EQ(without.kernel.find("lumped"), std::string::npos) << without.kernel;
}

}  // namespace
}  // namespace pmc
