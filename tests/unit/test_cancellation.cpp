// Cancellation and progress (common/cancellation.hpp, solver/progress.hpp):
// every registered CPU solver, on every problem kind it solves, stops with
// Error(cancelled) when the flag is set, and reports progress on a long
// solve. (GPU solvers poll the same flag; they are tested on the device.)
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "common/error.hpp"
#include "solver/progress.hpp"
#include "solver/registry.hpp"
#include "support/expect_error.hpp"

namespace pmc {
namespace {

SparseMatrix matrix(const std::vector<std::vector<std::pair<uint32_t, double>>>& rows) {
  SparseMatrix m;
  for (const auto& row : rows) {
    for (const auto& [column, value] : row) {
      m.columns.push_back(column);
      m.values.push_back(value);
    }
    m.row_offsets.push_back(m.columns.size());
  }
  return m;
}

// Two unknowns feeding each other with a small leak: about 300 sweeps to
// ε = 1e-12, so no solver converges before its first poll.
LinearSystem slow_linear() { return {matrix({{{1, 0.95}}, {{0, 0.95}}}), {0.05, 0.0}}; }

// A periodic 2-cycle: the stationary solvers damp it, slowly.
StationarySystem slow_stationary() { return {matrix({{{1, 1.0}}, {{0, 1.0}}}), {1.0, 1.0}}; }

StepProblem many_steps() {
  StepProblem p;
  p.a = matrix({{{1, 0.5}}, {{0, 0.5}}});
  p.x0 = {1.0, 0.0};
  p.steps = 1000;
  return p;
}

// x0 = max(0.95·x1 + 0.05, 0.5·x0), x1 = 0.95·x0: one SCC of two unknowns.
MinMaxProblem slow_min_max(bool maximize, uint64_t steps = 0) {
  MinMaxProblem p;
  p.maximize = maximize;
  p.steps = steps;
  p.upper_bound = 1.0;
  p.a = matrix({{{1, 0.95}}, {{0, 0.5}}, {{0, 0.95}}});
  p.b = {0.05, 0.0, 0.0};
  p.row_groups = {0, 2, 3};
  return p;
}

SolverSettings precise(const std::atomic<bool>* cancel) {
  SolverSettings s;
  s.epsilon = 1e-12;
  s.cancel = cancel;
  return s;
}

template <typename Solve>
void expect_cancelled(const std::string& what, Solve solve) {
  EXPECT_EQ(testing::expect_error(what, ErrorCode::cancelled, solve), "cancelled") << what;
}

TEST(Cancellation, EveryCpuSolverStopsOnEveryProblemItSolves) {
  std::atomic<bool> cancel{true};
  const SolverSettings settings = precise(&cancel);
  int tried = 0;
  for (const SolverEntry& s : solver_registry()) {
    if (s.device != DeviceKind::cpu) continue;
    if (s.linear) {
      std::vector<double> x(2, 0.0);
      expect_cancelled(s.name + " linear", [&] { s.linear(slow_linear(), x, settings); });
      ++tried;
    }
    if (s.stationary) {
      std::vector<double> x = {1.0, 0.0};
      expect_cancelled(s.name + " stationary", [&] { s.stationary(slow_stationary(), x, settings); });
      ++tried;
    }
    if (s.steps) {
      std::vector<double> result;
      expect_cancelled(s.name + " steps", [&] { s.steps(many_steps(), result, settings); });
      ++tried;
    }
    if (s.min_max) {
      for (bool maximize : {false, true}) {
        MinMaxSolution solution;
        expect_cancelled(s.name + (maximize ? " max" : " min"),
                         [&] { s.min_max(slow_min_max(maximize), solution, settings); });
        ++tried;
      }
    }
    if (s.min_max_steps) {
      MinMaxSolution solution;
      expect_cancelled(s.name + " bounded", [&] { s.min_max_steps(slow_min_max(true, 1000), solution, settings); });
      ++tried;
    }
  }
  EXPECT_GE(tried, 12);
}

TEST(Cancellation, ClearFlagChangesNothing) {
  std::atomic<bool> cancel{false};
  const SolverSettings settings = precise(&cancel);
  std::vector<double> x(2, 0.0);
  const SolveStats stats = find_solver("cpu.jacobi").linear(slow_linear(), x, settings);
  EXPECT_TRUE(stats.converged);
  // x0 = 0.95·x1 + 0.05, x1 = 0.95·x0.
  EXPECT_NEAR(x[0], 0.05 / (1 - 0.95 * 0.95), 1e-9);
}

TEST(Progress, ReportsALongSolveRateLimitedAndCancelsFromAnotherThread) {
  // A 2000-state random walk between two absorbing ends: the power method
  // needs millions of sweeps to 1e-15, so it runs until cancelled.
  const uint32_t n = 2000;
  LinearSystem system;
  system.a.row_offsets = {0};
  system.b.assign(n, 0.0);
  for (uint32_t i = 0; i < n; ++i) {
    if (i > 0) {
      system.a.columns.push_back(i - 1);
      system.a.values.push_back(0.5);
    }
    if (i + 1 < n) {
      system.a.columns.push_back(i + 1);
      system.a.values.push_back(0.5);
    } else {
      system.b[i] = 0.5;
    }
    system.a.row_offsets.push_back(system.a.columns.size());
  }
  std::atomic<bool> cancel{false};
  SolverSettings settings = precise(&cancel);
  settings.epsilon = 1e-15;
  settings.max_iterations = uint64_t{1} << 62;
  std::vector<SolveProgress> reports;
  std::vector<std::chrono::steady_clock::time_point> times;
  std::atomic<int> report_count{0};
  settings.progress = [&](const SolveProgress& p) {
    reports.push_back(p);
    times.push_back(std::chrono::steady_clock::now());
    ++report_count;
  };
  std::thread canceller([&] {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (report_count.load() < 3 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    cancel.store(true);
  });
  std::vector<double> x(n, 0.0);
  expect_cancelled("cpu.power", [&] { find_solver("cpu.power").linear(system, x, settings); });
  canceller.join();
  ASSERT_GE(reports.size(), 3u);
  for (size_t i = 0; i < reports.size(); ++i) {
    EXPECT_STREQ(reports[i].solver, "cpu.power");
    EXPECT_EQ(reports[i].limit, settings.max_iterations);
    EXPECT_TRUE(std::isfinite(reports[i].residual));
    EXPECT_GT(reports[i].residual, 0.0);
    EXPECT_GE(reports[i].seconds, 0.19);
    if (i > 0) {
      EXPECT_GT(reports[i].iteration, reports[i - 1].iteration);
      EXPECT_GE(times[i] - times[i - 1], k_progress_interval - std::chrono::milliseconds(1));
    }
  }
}

TEST(Progress, NoReportForAShortSolve) {
  SolverSettings settings = precise(nullptr);
  int calls = 0;
  settings.progress = [&](const SolveProgress&) { ++calls; };
  std::vector<double> x(2, 0.0);
  EXPECT_TRUE(find_solver("cpu.gauss-seidel").linear(slow_linear(), x, settings).converged);
  EXPECT_EQ(calls, 0);
}

}  // namespace
}  // namespace pmc
