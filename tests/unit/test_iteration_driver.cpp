// The iteration driver (solver/iteration.hpp) on its own: counting, the
// iteration limit, the stopping rules, check-every-k, where it polls the
// cancel flag, and the bounded-steps notes. The solvers that use it are
// tested in test_linear_solvers, test_mdp_solvers, test_bounded_steps and
// test_cancellation.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <vector>

#include "common/error.hpp"
#include "common/stopwatch.hpp"
#include "solver/iteration.hpp"

namespace pmc {
namespace {

SolverSettings settings_with(double epsilon, uint64_t max_iterations) {
  SolverSettings s;
  s.epsilon = epsilon;
  s.max_iterations = max_iterations;
  return s;
}

TEST(IterationDriver, ConvergesOnTheFirstChangeBelowEpsilon) {
  const SolverSettings settings = settings_with(1e-3, 100);
  SolveStats stats;
  IterationDriver loop(settings, stats, "test.halving");
  double change = 1.0;
  const bool converged = loop.until_converged([&] { return change /= 2; });
  EXPECT_TRUE(converged);
  EXPECT_EQ(stats.solver, "test.halving");
  EXPECT_EQ(stats.iterations, 10u);  // 2^-10 < 1e-3 <= 2^-9
  EXPECT_EQ(loop.total_iterations(), 10u);
}

TEST(IterationDriver, StopsAtTheIterationLimit) {
  const SolverSettings settings = settings_with(1e-3, 7);
  SolveStats stats;
  IterationDriver loop(settings, stats, "test.stuck");
  EXPECT_FALSE(loop.until_converged([] { return 1.0; }));
  EXPECT_EQ(stats.iterations, 7u);
  // A later phase on the same counter has no iterations left.
  EXPECT_FALSE(loop.until_bounds_close([] { return true; }, [] { return 0.0; }));
  EXPECT_EQ(stats.iterations, 7u);
}

TEST(IterationDriver, APerPhaseCounterKeepsTheTotal) {
  const SolverSettings settings = settings_with(0.5, 5);
  SolveStats stats;
  IterationDriver loop(settings, stats, "test.sccs");
  for (int scc = 0; scc < 3; ++scc) {
    uint64_t sweeps = 0;
    EXPECT_FALSE(loop.until_converged(sweeps, [] { return 1.0; }));
    EXPECT_EQ(sweeps, 5u);
  }
  EXPECT_EQ(loop.total_iterations(), 15u);
  EXPECT_EQ(stats.iterations, 0u);  // the solver decides what it reports
}

TEST(IterationDriver, ChecksEveryKthIterationAndAtTheLimit) {
  const SolverSettings settings = settings_with(1e-6, 20);
  SolveStats stats;
  IterationDriver loop(settings, stats, "test.device");
  std::vector<uint64_t> checked;
  const IterationSchedule schedule{20, 8, ProgressPoll::before_every_iteration};
  const bool done = loop.run(
      stats.iterations, schedule,
      [&](bool check) {
        if (check) checked.push_back(stats.iterations + 1);
        return false;
      },
      [] { return 1.0; });
  EXPECT_FALSE(done);
  EXPECT_EQ(checked, (std::vector<uint64_t>{8, 16, 20}));
  EXPECT_EQ(stats.iterations, 20u);
}

// Where the cancel flag is polled decides whether a cancel that arrives
// during the iteration that converges still ends the solve.
TEST(IterationDriver, PollsTheCancelFlagWhereTheLoopAsks) {
  std::atomic<bool> cancel{false};
  SolverSettings settings = settings_with(1e-3, 100);
  settings.cancel = &cancel;
  auto converge_while_cancelling = [&] {
    cancel = true;
    return 0.0;
  };
  {
    cancel = false;
    SolveStats stats;
    IterationDriver loop(settings, stats, "test.unsound");
    EXPECT_TRUE(loop.until_converged(converge_while_cancelling));
  }
  {
    cancel = false;
    SolveStats stats;
    IterationDriver loop(settings, stats, "test.sound");
    EXPECT_THROW(loop.until_bounds_close([&] { return converge_while_cancelling() == 0.0; }, [] { return 0.0; }),
                 Error);
  }
  {
    cancel = true;
    SolveStats stats;
    IterationDriver loop(settings, stats, "test.device");
    uint64_t launched = 0;
    EXPECT_THROW(loop.run(
                     stats.iterations, {10, 8, ProgressPoll::before_every_iteration},
                     [&](bool) {
                       ++launched;
                       return false;
                     },
                     [] { return 1.0; }),
                 Error);
    EXPECT_EQ(launched, 0u);
  }
}

TEST(IterationDriver, BoundedStepsStopAtAStationaryIterate) {
  const SolverSettings settings = settings_with(1e-6, 1000);
  SolveStats stats;
  IterationDriver loop(settings, stats, "test.steps", 50);
  std::vector<uint64_t> steps;
  const bool stationary = loop.bounded_steps(50, [&](uint64_t k) {
    steps.push_back(k);
    return k < 4;  // v_4 == v_3
  });
  EXPECT_TRUE(stationary);
  EXPECT_EQ(steps, (std::vector<uint64_t>{1, 2, 3, 4}));
  EXPECT_EQ(stats.iterations, 4u);
  EXPECT_TRUE(stats.converged);
  ASSERT_EQ(stats.notes.size(), 1u);
  EXPECT_EQ(stats.notes[0], stationary_note(4, 50));
}

TEST(IterationDriver, BoundedStepsAtTheLastStepAreNotStationary) {
  const SolverSettings settings = settings_with(1e-6, 1000);
  SolveStats stats;
  IterationDriver loop(settings, stats, "test.steps", 3);
  EXPECT_FALSE(loop.bounded_steps(3, [](uint64_t k) { return k < 3; }));
  EXPECT_EQ(stats.iterations, 3u);
  EXPECT_TRUE(stats.converged);
  EXPECT_TRUE(stats.notes.empty());
}

TEST(IterationDriver, BoundedStepsCutShortByTheLimitSaySo) {
  const SolverSettings settings = settings_with(1e-6, 5);
  SolveStats stats;
  IterationDriver loop(settings, stats, "test.steps", 100);
  EXPECT_FALSE(loop.bounded_steps(100, [](uint64_t) { return true; }));
  EXPECT_EQ(stats.iterations, 5u);
  EXPECT_FALSE(stats.converged);
  ASSERT_EQ(stats.notes.size(), 1u);
  EXPECT_EQ(stats.notes[0], step_limit_note("test.steps", 5, 100));
}

TEST(Stopwatch, CountsForward) {
  const Stopwatch clock;
  const double first = clock.seconds();
  EXPECT_GE(first, 0.0);
  EXPECT_GE(clock.seconds(), first);
  EXPECT_GE(seconds_since(clock.started()), first);
}

}  // namespace
}  // namespace pmc
