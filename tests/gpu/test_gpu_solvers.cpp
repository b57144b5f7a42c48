// GPU solvers (docs/design.md §7): exit 77 (skipped) without a usable GPU;
// with one, every GPU solver must agree with the manifest's reference values
// and with the CPU solvers, and random problems must match the CPU to 1e-9.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <thread>

#include "check/check.hpp"
#include "common/caller_language.hpp"
#include "common/error.hpp"
#include "common/stopwatch.hpp"
#include "formats/model_files.hpp"
#include "solver/convergence.hpp"
#include "solver/linear/cpu_solvers.hpp"
#include "solver/minmax/mdp_solvers.hpp"
#include "solver/registry.hpp"
#include "support/expect_error.hpp"
#include "support/manifest.hpp"

namespace pmc {
namespace {

using testing::ManifestRow;
using testing::cached_model;

struct Case {
  ManifestRow row;
  std::string solver;
};
void PrintTo(const Case& c, std::ostream* out) { *out << c.row.name() << " " << c.row.property << " " << c.solver; }

bool time_bounded(const std::string& p) {
  return p.find("<=") != std::string::npos || p.find("F[") != std::string::npos || p.find("I=") != std::string::npos;
}

uint64_t max_transitions() { return testing::max_test_transitions(); }

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const ManifestRow& row : testing::manifest()) {
    if (row.transitions > max_transitions()) continue;
    const bool mdp = row.type == "mdp";
    const bool bounded = time_bounded(row.property);
    // Steady-state properties are stationary distributions first; a GPU
    // solver joins them once it solves those.
    const bool steady = row.property.rfind("S=?", 0) == 0 || row.property.find("[ S ]") != std::string::npos;
    for (const SolverEntry& s : solver_registry()) {
      if (s.device != DeviceKind::gpu) continue;
      const bool applies = mdp      ? (bounded ? s.solves(ProblemKind::min_max_steps) : s.solves(ProblemKind::min_max))
                           : steady ? s.solves(ProblemKind::stationary)
                           : bounded ? s.solves(ProblemKind::bounded_steps)
                                     : s.solves(ProblemKind::linear_system);
      if (applies) out.push_back({row, s.name});
    }
  }
  return out;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  std::string name = info.param.row.model + "_" + info.param.row.instance + "_" + std::to_string(info.index) + "_" +
                     info.param.solver;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

class GpuReference : public ::testing::TestWithParam<Case> {};

TEST_P(GpuReference, AgreesWithPrismAndTheCpu) {
  const Case& c = GetParam();
  const Model& model = cached_model(c.row);
  CheckOptions options;
  options.solver = c.solver;
  options.settings.epsilon = 1e-10;
  const CheckResult gpu = check(model, c.row.property, options);
  ASSERT_TRUE(gpu.converged) << gpu.notes.back();
  if (!gpu.solvers.empty()) {
    EXPECT_NE(std::find(gpu.solvers.begin(), gpu.solvers.end(), c.solver), gpu.solvers.end()) << gpu.solver_names();
  }
  const double ref = c.row.reference_value;
  if (std::isinf(ref)) {
    EXPECT_EQ(gpu.initial_value, ref);
  } else {
    const double tol = (c.row.type == "ctmc" && time_bounded(c.row.property)) ? 1e-5 : 1e-6;
    EXPECT_LE(std::fabs(gpu.initial_value - ref), tol * std::max(std::fabs(ref), 1e-9))
        << "gpu " << gpu.initial_value << " reference " << ref;
  }
  // Every state, not only the initial one, against the CPU.
  CheckOptions cpu_options = options;
  cpu_options.solver = "cpu";
  const CheckResult cpu = check(model, c.row.property, cpu_options);
  ASSERT_EQ(cpu.values.size(), gpu.values.size());
  // Sound solvers report midpoints within ε of the value, absolute where
  // the lower bound is 0 (bounds_close): near 0 two of them may differ by 2ε.
  const double absolute = 2 * options.settings.epsilon;
  double worst = 0;
  size_t worst_state = 0;
  for (size_t s = 0; s < cpu.values.size(); ++s) {
    if (std::isinf(cpu.values[s]) || std::isinf(gpu.values[s])) {
      EXPECT_EQ(cpu.values[s], gpu.values[s]) << "state " << s;
      continue;
    }
    const double difference = std::max(0.0, std::fabs(cpu.values[s] - gpu.values[s]) - absolute) /
                              std::max(std::fabs(cpu.values[s]), 1e-9);
    if (difference > worst) {
      worst = difference;
      worst_state = s;
    }
  }
  EXPECT_LE(worst, 1e-5) << "largest relative difference to the CPU (" << cpu.solver_names()
                         << ") over all states: state " << worst_state << ", gpu " << gpu.values[worst_state]
                         << ", cpu " << cpu.values[worst_state];
  // A sound solver's bounds hold the CPU's (sound) midpoint in every state,
  // up to the CPU's own error (ε, relative or, near 0, absolute).
  if (find_solver(c.solver).sound && cpu.sound) {
    ASSERT_TRUE(gpu.sound) << gpu.solver_names();
    ASSERT_EQ(gpu.lower.size(), cpu.values.size());
    ASSERT_EQ(gpu.upper.size(), cpu.values.size());
    for (size_t s = 0; s < cpu.values.size(); ++s) {
      if (std::isinf(cpu.values[s])) continue;
      const double slack = 2 * options.settings.epsilon * std::max(std::fabs(cpu.values[s]), 1.0);
      ASSERT_LE(gpu.lower[s], cpu.values[s] + slack) << "state " << s;
      ASSERT_GE(gpu.upper[s], cpu.values[s] - slack) << "state " << s;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Manifest, GpuReference, ::testing::ValuesIn(cases()), case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GpuReference);

// "auto" moves large problems to the GPU and says why; "cpu" keeps them.
// Sound (the default): interval iteration, on the CPU when it does not fit;
// unsound: topological VI, in SCC blocks when it does not fit.
TEST(GpuAuto, LargeProblemsGoToTheGpu) {
  const auto& rows = testing::manifest();
  auto it = std::find_if(rows.begin(), rows.end(), [](const ManifestRow& r) {
    return r.type == "mdp" && r.transitions >= 500000 && !time_bounded(r.property);
  });
  if (it == rows.end()) GTEST_SKIP() << "no MDP of 500000+ transitions among the carried models";
  const Model& model = cached_model(*it);
  CheckOptions options;
  const CheckResult automatic = check(model, it->property, options);
  EXPECT_EQ(automatic.solver_names(), "gpu.interval-vi") << automatic.solver_reason;
  EXPECT_NE(automatic.solver_reason.find("non-zeros, needs"), std::string::npos) << automatic.solver_reason;
  EXPECT_TRUE(automatic.sound);
  options.settings.gpu_memory_limit = 1000;  // nothing fits
  const CheckResult limited = check(model, it->property, options);
  EXPECT_EQ(limited.solver_names(), "cpu.topo-interval-vi") << limited.solver_reason;
  EXPECT_NE(limited.solver_reason.find("does not fit the GPU"), std::string::npos) << limited.solver_reason;
  options.settings.sound = false;
  EXPECT_NE(check(model, it->property, options).solver_reason.find("in SCC blocks"), std::string::npos);
  options.settings.gpu_memory_limit = 0;
  EXPECT_EQ(check(model, it->property, options).solver_names(), "gpu.topo-vi");
  options.solver = "cpu";
  EXPECT_EQ(check(model, it->property, options).solver_names(), "cpu.topo-vi");
  // A small problem stays on the CPU.
  auto small = std::find_if(rows.begin(), rows.end(), [](const ManifestRow& r) { return r.transitions < 10000; });
  ASSERT_NE(small, rows.end());
  CheckOptions automatic_small;
  const CheckResult r = check(cached_model(*small), small->property, automatic_small);
  EXPECT_EQ(r.solver_names().rfind("cpu.", 0), 0u) << r.solver_reason;
}

// gpu.topo-vi with a device memory limit far below the problem's size: the
// SCC blocks, each solved on its own, and the CPU fallback for an SCC that
// alone exceeds the limit must still give PRISM's values.
std::vector<Case> blocked_cases() {
  std::vector<Case> out;
  for (const ManifestRow& row : testing::manifest()) {
    if (row.type == "mdp" && !time_bounded(row.property) && row.transitions <= max_transitions()) {
      out.push_back({row, "gpu.topo-vi"});
    }
  }
  return out;
}

class GpuBlocked : public ::testing::TestWithParam<Case> {};

TEST_P(GpuBlocked, SmallMemoryLimitStillAgreesWithPrism) {
  const Case& c = GetParam();
  const Model& model = cached_model(c.row);
  CheckOptions options;
  options.solver = c.solver;
  options.settings.epsilon = 1e-10;
  options.settings.gpu_memory_limit = 64 * 1024;
  const CheckResult r = check(model, c.row.property, options);
  ASSERT_TRUE(r.converged);
  std::printf("  %s %s: %s\n", c.row.name().c_str(), c.row.property.c_str(), r.kernel.c_str());
  const double ref = c.row.reference_value;
  if (std::isinf(ref)) {
    EXPECT_EQ(r.initial_value, ref);
  } else {
    EXPECT_LE(std::fabs(r.initial_value - ref), 1e-6 * std::max(std::fabs(ref), 1e-9))
        << "gpu.topo-vi " << r.initial_value << " reference " << ref << " (" << r.kernel << ")";
  }
}

INSTANTIATE_TEST_SUITE_P(Manifest, GpuBlocked, ::testing::ValuesIn(blocked_cases()), case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GpuBlocked);

// A chain of SCCs: one large (so that a limit can exclude it: CPU fallback)
// and many small ones, each pointing into earlier ones. Every row keeps
// part of its mass out of the unknowns (no end components).
MinMaxProblem chain_of_sccs(const std::vector<uint32_t>& sizes, bool maximize, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  MinMaxProblem p;
  p.maximize = maximize;
  uint32_t first = 0;
  for (const uint32_t size : sizes) {
    for (uint32_t i = 0; i < size; ++i) {
      const uint32_t choices = 1 + static_cast<uint32_t>(rng() % 3);
      for (uint32_t c = 0; c < choices; ++c) {
        std::vector<std::pair<uint32_t, double>> row;
        auto add = [&](uint32_t col) {
          if (std::none_of(row.begin(), row.end(), [&](auto& e) { return e.first == col; })) row.push_back({col, u(rng) + 0.05});
        };
        if (size > 1) add(first + (i + 1) % size);  // the ring keeps the SCC strongly connected
        for (int k = 0; k < 2; ++k) add(first + static_cast<uint32_t>(rng() % size));
        if (first > 0 && rng() % 2 == 0) add(static_cast<uint32_t>(rng() % first));
        std::sort(row.begin(), row.end());
        double total = 0;
        for (auto& e : row) total += e.second;
        const double keep = 0.5 + 0.45 * u(rng);
        for (auto& [col, v] : row) {
          p.a.columns.push_back(col);
          p.a.values.push_back(v / total * keep);
        }
        p.a.row_offsets.push_back(p.a.columns.size());
        p.b.push_back((1 - keep) * u(rng));
      }
      p.row_groups.push_back(p.b.size());
    }
    first += size;
  }
  return p;
}

TEST(GpuMdpSolvers, BlockedTopologicalMatchesTheCpu) {
  std::mt19937_64 rng(20261123);
  std::vector<uint32_t> sizes;
  for (int i = 0; i < 300; ++i) sizes.push_back(1 + static_cast<uint32_t>(rng() % 40));
  sizes.push_back(20000);  // the large SCC, in the middle of the chain
  for (int i = 0; i < 300; ++i) sizes.push_back(1 + static_cast<uint32_t>(rng() % 40));
  for (const bool maximize : {true, false}) {
    const MinMaxProblem p = chain_of_sccs(sizes, maximize, rng);
    SolverSettings settings;
    settings.epsilon = 1e-13;
    MinMaxSolution cpu;
    ASSERT_TRUE(topological_value_iteration(p, cpu, settings).converged);
    const SolverEntry& solver = find_solver("gpu.topo-vi");
    // Unlimited (one block, gpu.vi), then a limit that holds many small SCCs
    // per block but not the large one.
    for (const uint64_t limit : {uint64_t{0}, uint64_t{256 * 1024}}) {
      settings.gpu_memory_limit = limit;
      MinMaxSolution gpu;
      const SolveStats stats = solver.min_max(p, gpu, settings);
      EXPECT_TRUE(stats.converged) << stats.kernel;
      if (limit > 0) {
        EXPECT_NE(stats.kernel.find("1 SCCs on the CPU"), std::string::npos) << stats.kernel;
        EXPECT_EQ(stats.kernel.find(" 0 on the GPU"), std::string::npos) << stats.kernel;
      }
      ASSERT_EQ(gpu.x.size(), cpu.x.size());
      for (size_t i = 0; i < cpu.x.size(); ++i) {
        ASSERT_NEAR(gpu.x[i], cpu.x[i], 1e-9 * std::max(1.0, std::fabs(cpu.x[i])))
            << "unknown " << i << (maximize ? " max" : " min") << ", limit " << limit << " (" << stats.kernel << ")";
      }
      ASSERT_EQ(gpu.choice.size(), cpu.choice.size());
    }
  }
}

// A random substochastic system with rows of very different lengths, so
// both the thread-per-row and warp-per-row kernels and every row length
// class are exercised; the output is poisoned (NaN start) so an unwritten
// entry cannot pass.
LinearSystem random_system(uint64_t n, uint64_t long_row_every, std::mt19937_64& rng) {
  LinearSystem s;
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t len = (i % long_row_every == 0) ? 40 + rng() % 60 : 1 + rng() % 4;
    double total = 0;
    std::vector<std::pair<uint32_t, double>> row;
    for (uint64_t k = 0; k < len; ++k) {
      const uint32_t col = static_cast<uint32_t>(rng() % n);
      if (std::any_of(row.begin(), row.end(), [&](auto& e) { return e.first == col; })) continue;
      row.push_back({col, u(rng) + 0.01});
      total += row.back().second;
    }
    std::sort(row.begin(), row.end());
    const double keep = 0.9 * u(rng) + 0.05;  // the rest of the mass goes to b
    for (auto& [col, v] : row) {
      s.a.columns.push_back(col);
      s.a.values.push_back(v / total * keep);
    }
    s.a.row_offsets.push_back(s.a.columns.size());
    s.b.push_back((1 - keep) * u(rng));
  }
  return s;
}

TEST(GpuLinearSolvers, RandomSystemsMatchTheCpu) {
  std::mt19937_64 rng(20261122);
  SolverSettings settings;
  settings.epsilon = 1e-13;
  for (uint64_t long_every : {1000000ull, 3ull, 1ull}) {  // thread-per-row, mixed, warp-per-row
    const LinearSystem system = random_system(50000, long_every, rng);
    std::vector<double> cpu(system.b.size(), 0.0);
    ASSERT_TRUE(gauss_seidel_linear(system, cpu, settings).converged);
    for (const SolverEntry& s : solver_registry()) {
      if (s.device != DeviceKind::gpu || !s.linear) continue;
      std::vector<double> x(system.b.size(), 0.0);
      const SolveStats stats = s.linear(system, x, settings);
      EXPECT_TRUE(stats.converged) << s.name;
      double worst = 0;
      for (size_t i = 0; i < x.size(); ++i) {
        ASSERT_TRUE(std::isfinite(x[i])) << s.name << " row " << i;
        worst = std::max(worst, std::fabs(x[i] - cpu[i]) / std::max(std::fabs(cpu[i]), 1e-12));
      }
      EXPECT_LE(worst, 1e-9) << s.name << " (" << stats.kernel << ", long rows every " << long_every << ")";
    }
  }
}

// gpu.jacobi's layout options (Wijs–Bošnački: CSR thread/warp per row,
// full- and half-warp segments, each with and without BFS renumbering) all
// solve the same random systems to the CPU's answer.
TEST(GpuLinearSolvers, EveryLayoutMatchesTheCpu) {
  std::mt19937_64 rng(20261123);
  for (uint64_t n : {31ull, 40000ull}) {  // a partial last segment; many segments
    for (uint64_t long_every : {1000000ull, 3ull}) {
      const LinearSystem system = random_system(n, long_every, rng);
      SolverSettings settings;
      settings.epsilon = 1e-13;
      std::vector<double> cpu(system.b.size(), 0.0);
      ASSERT_TRUE(gauss_seidel_linear(system, cpu, settings).converged);
      for (GpuLayout layout : {GpuLayout::thread_per_row, GpuLayout::warp_per_row, GpuLayout::warp_segments,
                               GpuLayout::half_warp_segments}) {
        for (bool bfs : {false, true}) {
          settings.gpu_layout = layout;
          settings.bfs_reorder = bfs;
          std::vector<double> x(system.b.size(), 0.0);
          const SolveStats stats = find_solver("gpu.jacobi").linear(system, x, settings);
          EXPECT_TRUE(stats.converged) << stats.kernel;
          EXPECT_EQ(stats.kernel.find("+bfs") != std::string::npos, bfs) << stats.kernel;
          double worst = 0;
          for (size_t i = 0; i < x.size(); ++i) {
            ASSERT_TRUE(std::isfinite(x[i])) << stats.kernel << " row " << i;
            worst = std::max(worst, std::fabs(x[i] - cpu[i]) / std::max(std::fabs(cpu[i]), 1e-12));
          }
          EXPECT_LE(worst, 1e-9) << stats.kernel << ", n " << n << ", long rows every " << long_every;
        }
      }
    }
  }
}

// The layouts on the manifest's DTMC/CTMC reachability properties, against PRISM.
TEST(GpuLinearSolvers, EveryLayoutAgreesWithPrism) {
  int checked = 0;
  for (const ManifestRow& row : testing::manifest()) {
    if (row.type == "mdp" || row.transitions > std::min<uint64_t>(max_transitions(), 1000000) ||
        time_bounded(row.property) || row.property.rfind("S=?", 0) == 0 || row.property.find("[ S ]") != std::string::npos ||
        row.property.find("C<=") != std::string::npos) {
      continue;
    }
    const Model& model = cached_model(row);
    for (GpuLayout layout : {GpuLayout::warp_segments, GpuLayout::half_warp_segments}) {
      for (bool bfs : {false, true}) {
        CheckOptions options;
        options.solver = "gpu.jacobi";
        options.settings.epsilon = 1e-10;
        options.settings.gpu_layout = layout;
        options.settings.bfs_reorder = bfs;
        const CheckResult r = check(model, row.property, options);
        const double ref = row.reference_value;
        if (std::isinf(ref)) {
          EXPECT_EQ(r.initial_value, ref) << row.name() << " " << row.property;
        } else {
          EXPECT_LE(std::fabs(r.initial_value - ref), 1e-6 * std::max(std::fabs(ref), 1e-9))
              << row.name() << " " << row.property << " " << r.kernel << ": " << r.initial_value << " vs " << ref;
        }
        ++checked;
      }
    }
  }
  EXPECT_GE(checked, 20);
}

TEST(GpuSteps, UniformisationSumMatchesTheCpu) {
  std::mt19937_64 rng(7);
  const LinearSystem system = random_system(30000, 5, rng);
  StepProblem p;
  p.a = system.a;
  p.x0 = system.b;
  p.steps = 50;
  for (uint64_t k = 0; k <= p.steps; ++k) p.coefficients.push_back(1.0 / (1 + k));
  std::vector<double> cpu, gpu;
  SolverSettings settings;
  steps_cpu(p, cpu, settings);
  const SolverEntry& solver = find_solver("gpu.steps");
  solver.steps(p, gpu, settings);
  ASSERT_EQ(cpu.size(), gpu.size());
  for (size_t i = 0; i < cpu.size(); ++i) EXPECT_NEAR(gpu[i], cpu[i], 1e-12 * std::max(1.0, std::fabs(cpu[i])));
}

// Bounded steps: n copies of 0 → ½ stay, ½ to an absorbing 1 (b = ½):
// v_k(0) = 1 − 2^−k reaches 1.0 exactly after 53 steps; the GPU stops within
// the 8 steps of its check interval, with the CPU's bits.
StepProblem halving_chains(uint32_t copies, uint64_t steps) {
  StepProblem p;
  for (uint32_t c = 0; c < copies; ++c) {
    p.a.columns.push_back(2 * c);
    p.a.values.push_back(0.5);
    p.a.row_offsets.push_back(p.a.columns.size());
    p.a.row_offsets.push_back(p.a.columns.size());
    p.b.insert(p.b.end(), {0.5, 1.0});
    p.x0.insert(p.x0.end(), {0.0, 1.0});
  }
  p.steps = steps;
  return p;
}

TEST(GpuSteps, StationaryIterateStopsTheLoopWithTheCpuBits) {
  const SolverEntry& solver = find_solver("gpu.steps");
  StepProblem p = halving_chains(50000, 99999999999910ull);
  std::vector<double> cpu, gpu;
  const SolveStats cs = steps_cpu(p, cpu, SolverSettings{});
  const auto start = std::chrono::steady_clock::now();
  const SolveStats gs = solver.steps(p, gpu, SolverSettings{});
  EXPECT_LT(seconds_since(start), 5.0);
  EXPECT_TRUE(gs.converged);
  EXPECT_LE(gs.iterations, cs.iterations + 8);
  EXPECT_EQ(gpu, cpu);
  ASSERT_FALSE(gs.notes.empty());
  EXPECT_NE(gs.notes[0].find("of 99999999999910 steps"), std::string::npos) << gs.notes[0];
  // Weighted, stationary long before the window: the rest added at once.
  p.coefficient_before = 1e-3;
  p.coefficients_first = 1000000;
  p.coefficients = {0.25, 0.5};
  p.steps = 1000001;
  steps_cpu(p, cpu, SolverSettings{});
  const SolveStats ws = solver.steps(p, gpu, SolverSettings{});
  EXPECT_TRUE(ws.converged);
  EXPECT_LT(ws.iterations, 100u);
  ASSERT_EQ(gpu.size(), cpu.size());
  for (size_t i = 0; i < cpu.size(); ++i) EXPECT_NEAR(gpu[i], cpu[i], 1e-12 * std::fabs(cpu[i])) << i;
}

TEST(GpuSteps, IterationLimitGivesThePartialResult) {
  const SolverEntry& solver = find_solver("gpu.steps");
  const StepProblem p = halving_chains(1000, 1000);
  SolverSettings settings;
  settings.max_iterations = 10;
  std::vector<double> cpu, gpu;
  steps_cpu(p, cpu, settings);
  const SolveStats gs = solver.steps(p, gpu, settings);
  EXPECT_FALSE(gs.converged);
  EXPECT_EQ(gs.iterations, 10u);
  EXPECT_EQ(gpu, cpu);
}

TEST(GpuMdpSolvers, BoundedStepsStopWhenStationaryAndHonourTheLimit) {
  // Per copy: A reaches the goal w.p. ½ (else stays), B w.p. ¼: Pmax after
  // k steps 1 − 2^−k, exactly 1 after 53; the first choice A.
  MinMaxProblem p;
  const uint32_t copies = 20000;
  for (uint32_t c = 0; c < copies; ++c) {
    p.a.columns.insert(p.a.columns.end(), {c, c});
    p.a.values.insert(p.a.values.end(), {0.5, 0.75});
    p.a.row_offsets.push_back(p.a.columns.size() - 1);
    p.a.row_offsets.push_back(p.a.columns.size());
    p.b.insert(p.b.end(), {0.5, 0.25});
    p.row_groups.push_back(2 * (c + 1));
  }
  p.maximize = true;
  p.steps = 99999999999910ull;
  const SolverEntry& solver = find_solver("gpu.vi");
  MinMaxSolution solution;
  solution.x.assign(copies, 0.0);
  SolveStats stats = solver.min_max_steps(p, solution, SolverSettings{});
  EXPECT_TRUE(stats.converged);
  EXPECT_LE(stats.iterations, 61u);
  EXPECT_EQ(solution.x, std::vector<double>(copies, 1.0));
  EXPECT_EQ(solution.choice, std::vector<uint32_t>(copies, 0));
  SolverSettings settings;
  settings.max_iterations = 3;
  solution.x.assign(copies, 0.0);
  stats = solver.min_max_steps(p, solution, settings);
  EXPECT_FALSE(stats.converged);
  EXPECT_EQ(stats.iterations, 3u);
  EXPECT_EQ(solution.x, std::vector<double>(copies, 0.875));
}

// Step bounds far beyond the die's stationary point (10^14, 10^7 steps)
// through the checker with --solver gpu.steps: stationary early, exact.
TEST(GpuSteps, HugeBoundsOnTheDieAreFastAndExact) {
  ModelPtr die = load_model({std::string(PMC_TEST_DATA_DIR) + "/../../examples/die/die.tra"}, "", {});
  CheckOptions o;
  o.solver = "gpu.steps";
  const CheckResult r = check(*die, "P=? [ !\"one\" U<=99999999999910 (\"six\" | \"done\") ]", o);
  EXPECT_TRUE(r.converged);
  // nvcc contracts a·v + s into FMAs: the CPU's bits up to an ulp or two.
  EXPECT_NEAR(r.initial_value, check(*die, "P=? [ !\"one\" U<=1000 (\"six\" | \"done\") ]").initial_value, 1e-15);
  const CheckResult f = check(*die, "P=? [ F<=10000000 \"six\" ]", o);
  EXPECT_TRUE(f.converged);
  EXPECT_NEAR(f.initial_value, 1.0 / 6, 1e-15);
  EXPECT_LT(f.iterations, 100u);
}

// Memory limits: a named GPU solver whose problem exceeds the device budget
// fails with Error(out_of_memory) before any cudaMalloc, naming the need and
// the GPU memory limit in the caller's words (the resident chain of
// gpu.interval-vi, the explicit systems of the others); the device stays
// usable; the host memory limit refuses a GPU check as it does a CPU one.
TEST(GpuMemoryLimit, ProblemsBeyondTheBudgetFailBeforeAllocating) {
  ModelPtr die = load_model({std::string(PMC_TEST_DATA_DIR) + "/../../examples/die/die.tra"}, "", {});
  const std::string unbounded = "P=? [ F \"six\" ]", bounded = "P=? [ F<=10 \"six\" ]";
  for (const char* solver : {"gpu.jacobi", "gpu.bicgstab", "gpu.interval-vi", "gpu.steps"}) {
    CheckOptions o;
    o.solver = solver;
    o.settings.devices = {0};  // one GPU: gpu.jacobi would otherwise split a problem that does not fit
    o.settings.gpu_memory_limit = 64;
    const std::string& property = std::string(solver) == "gpu.steps" ? bounded : unbounded;
    const std::string message =
        testing::expect_error(solver, ErrorCode::out_of_memory, [&] { check(*die, property, o); });
    EXPECT_NE(message.find(setting_name(Setting::gpu_memory_limit)), std::string::npos) << message;
    EXPECT_NE(message.find("64 bytes"), std::string::npos) << message;
    o.settings.gpu_memory_limit = 0;
    const CheckResult r = check(*die, property, o);
    EXPECT_EQ(r.solver_names(), solver);
    if (property == unbounded) {
      EXPECT_NEAR(r.initial_value, 1.0 / 6, 1e-6) << solver;
    }
    o.settings.memory_limit = 1024;
    const std::string host =
        testing::expect_error(solver, ErrorCode::out_of_memory, [&] { check(*die, property, o); });
    EXPECT_NE(host.find("more than the memory limit of 1.0 KiB"), std::string::npos) << host;
    EXPECT_NE(host.find(setting_name(Setting::memory_limit)), std::string::npos) << host;
  }
}

// A symmetric random walk between two absorbing ends (n states, the ends
// known): iterative solvers need millions of sweeps to 1e-15 on it.
SparseMatrix random_walk_matrix(uint32_t n, std::vector<double>& b) {
  SparseMatrix a;
  a.row_offsets = {0};
  b.assign(n, 0.0);
  for (uint32_t i = 0; i < n; ++i) {
    if (i > 0) {
      a.columns.push_back(i - 1);
      a.values.push_back(0.5);
    }
    if (i + 1 < n) {
      a.columns.push_back(i + 1);
      a.values.push_back(0.5);
    } else {
      b[i] = 0.5;
    }
    a.row_offsets.push_back(a.columns.size());
  }
  return a;
}

template <typename Solve>
void expect_cancelled(const std::string& what, Solve solve) {
  testing::expect_error(what, ErrorCode::cancelled, solve);
}

// Every GPU solver polls the cancel flag in its device loop: set before the
// solve, the solve ends with Error(cancelled), and the device stays usable.
TEST(GpuCancellation, EveryGpuSolverStopsOnEveryProblemItSolves) {
  std::atomic<bool> cancel{true};
  SolverSettings settings;
  settings.epsilon = 1e-15;
  settings.max_iterations = uint64_t{1} << 40;
  settings.cancel = &cancel;
  LinearSystem linear;
  linear.a = random_walk_matrix(20000, linear.b);
  StationarySystem stationary{linear.a, std::vector<double>(20000, 1.0)};
  StepProblem steps;
  steps.a = linear.a;
  steps.x0 = linear.b;
  steps.steps = 100000;
  MinMaxProblem min_max;  // two identical choices per state
  min_max.upper_bound = 1.0;
  min_max.row_groups = {0};
  min_max.a.row_offsets = {0};
  for (uint32_t i = 0; i < 20000; ++i) {
    for (int c = 0; c < 2; ++c) {
      for (uint64_t k = linear.a.row_offsets[i]; k < linear.a.row_offsets[i + 1]; ++k) {
        min_max.a.columns.push_back(linear.a.columns[k]);
        min_max.a.values.push_back(linear.a.values[k]);
      }
      min_max.a.row_offsets.push_back(min_max.a.columns.size());
      min_max.b.push_back(linear.b[i]);
    }
    min_max.row_groups.push_back(min_max.b.size());
  }
  int tried = 0;
  for (const SolverEntry& s : solver_registry()) {
    if (s.device != DeviceKind::gpu) continue;
    if (s.linear) {
      std::vector<double> x(20000, 0.0);
      expect_cancelled(s.name + " linear", [&] { s.linear(linear, x, settings); });
      ++tried;
    }
    if (s.linear_bounds) {  // no upper bound given: cancelled in the first (sound VI) phase
      std::vector<double> lower, upper;
      expect_cancelled(s.name + " linear bounds", [&] { s.linear_bounds(linear, lower, upper, settings); });
      ++tried;
    }
    if (s.stationary) {
      std::vector<double> x(20000, 1.0 / 20000);
      expect_cancelled(s.name + " stationary", [&] { s.stationary(stationary, x, settings); });
      ++tried;
    }
    if (s.steps) {
      std::vector<double> result;
      expect_cancelled(s.name + " steps", [&] { s.steps(steps, result, settings); });
      ++tried;
    }
    if (s.min_max) {
      for (bool maximize : {false, true}) {
        min_max.maximize = maximize;
        min_max.steps = 0;
        MinMaxSolution solution;
        expect_cancelled(s.name + (maximize ? " max" : " min"), [&] { s.min_max(min_max, solution, settings); });
        ++tried;
      }
    }
    if (s.min_max_steps) {
      min_max.maximize = true;
      min_max.steps = 100000;
      MinMaxSolution solution;
      expect_cancelled(s.name + " bounded", [&] { s.min_max_steps(min_max, solution, settings); });
      ++tried;
    }
  }
  EXPECT_GE(tried, 7);
  // The device is still fine: an uncancelled solve converges.
  cancel.store(false);
  std::mt19937_64 rng(11);
  const LinearSystem small = random_system(1000, 7, rng);
  std::vector<double> x(1000, 0.0);
  settings.epsilon = 1e-10;
  EXPECT_TRUE(find_solver("gpu.jacobi").linear(small, x, settings).converged);
}

TEST(GpuProgress, ALongGpuSolveReportsAndCancelsFromAnotherThread) {
  LinearSystem walk;
  walk.a = random_walk_matrix(20000, walk.b);
  std::atomic<bool> cancel{false};
  SolverSettings settings;
  settings.epsilon = 1e-15;
  settings.max_iterations = uint64_t{1} << 50;
  settings.cancel = &cancel;
  std::vector<SolveProgress> reports;
  std::atomic<int> count{0};
  settings.progress = [&](const SolveProgress& p) {
    reports.push_back(p);
    ++count;
  };
  std::thread canceller([&] {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (count.load() < 3 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    cancel.store(true);
  });
  std::vector<double> x(20000, 0.0);
  const auto began = std::chrono::steady_clock::now();
  expect_cancelled("gpu.jacobi", [&] { find_solver("gpu.jacobi").linear(walk, x, settings); });
  canceller.join();
  const double seconds = seconds_since(began);
  ASSERT_GE(reports.size(), 3u);
  EXPECT_LT(seconds, 10.0) << "cancel took too long to take effect";
  for (size_t i = 0; i < reports.size(); ++i) {
    EXPECT_STREQ(reports[i].solver, "gpu.jacobi");
    EXPECT_GT(reports[i].residual, 0.0);
    if (i > 0) {
      EXPECT_GT(reports[i].iteration, reports[i - 1].iteration);
    }
  }
}

// ---- gpu.jacobi on stationary systems (lib/solver/gpu/stationary.cpp) --------

// A random strongly connected chain of n states (a ring through all of
// them, plus random edges, rows of very different lengths) as the
// StationarySystem of its transposed matrix; rates, so outflows vary.
StationarySystem random_stationary_system(uint32_t n, uint32_t long_every, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.05, 1.0);
  std::vector<std::vector<std::pair<uint32_t, double>>> incoming(n);
  StationarySystem system;
  system.outflow.assign(n, 0.0);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t len = i % long_every == 0 ? 40 + static_cast<uint32_t>(rng() % 40) : 1 + rng() % 3;
    std::vector<uint32_t> targets = {(i + 1) % n};
    for (uint32_t k = 0; k < len; ++k) {
      const uint32_t t = static_cast<uint32_t>(rng() % n);
      if (t != i && std::find(targets.begin(), targets.end(), t) == targets.end()) targets.push_back(t);
    }
    for (uint32_t t : targets) {
      const double rate = 3 * u(rng);
      incoming[t].push_back({i, rate});
      system.outflow[i] += rate;
    }
  }
  system.incoming.row_offsets = {0};
  for (auto& row : incoming) {
    std::sort(row.begin(), row.end());
    for (auto& [from, rate] : row) {
      system.incoming.columns.push_back(from);
      system.incoming.values.push_back(rate);
    }
    system.incoming.row_offsets.push_back(system.incoming.columns.size());
  }
  return system;
}

// Against cpu.gauss-seidel at ε = 1e-12: the same distribution to 1e-8
// (relative), on both layouts; normalised; every entry written.
TEST(GpuStationary, RandomChainsMatchTheCpu) {
  std::mt19937_64 rng(20261128);
  for (const uint32_t long_every : {1000000u, 5u}) {
    const StationarySystem system = random_stationary_system(50000, long_every, rng);
    SolverSettings settings;
    settings.epsilon = 1e-12;
    std::vector<double> reference(50000, 1.0 / 50000);
    ASSERT_TRUE(gauss_seidel_stationary(system, reference, settings).converged);
    for (const GpuLayout layout : {GpuLayout::thread_per_row, GpuLayout::warp_per_row}) {
      settings.gpu_layout = layout;
      std::vector<double> x(50000, std::nan(""));  // not usable: the solver starts uniform
      const SolveStats stats = find_solver("gpu.jacobi").stationary(system, x, settings);
      const std::string what = stats.kernel + ", long rows every " + std::to_string(long_every);
      EXPECT_EQ(stats.solver, "gpu.jacobi");
      EXPECT_TRUE(stats.converged) << what;
      EXPECT_GT(stats.bytes_per_iteration, 0.0);
      EXPECT_EQ(stats.kernel, layout == GpuLayout::warp_per_row ? "warp-per-row" : "thread-per-row");
      double total = 0;
      for (size_t j = 0; j < x.size(); ++j) {
        ASSERT_NEAR(x[j], reference[j], 1e-8 * reference[j]) << what << ", state " << j;
        total += x[j];
      }
      EXPECT_NEAR(total, 1.0, 1e-12) << what;
    }
  }
}

// A start of the wrong size is an error naming the sizes, before the GPU.
TEST(GpuStationary, BadStartVectorIsAnError) {
  std::mt19937_64 rng(3);
  const StationarySystem system = random_stationary_system(100, 1000000, rng);
  std::vector<double> x(99, 0.01);
  const std::string message = testing::expect_error("short start", ErrorCode::invalid_argument, [&] {
    find_solver("gpu.jacobi").stationary(system, x, SolverSettings{});
  });
  EXPECT_NE(message.find("start vector of 99"), std::string::npos) << message;
}

// ---- gpu.jacobi's certified long-run bounds (lib/solver/gpu/long_run.cpp) ----

// The outgoing rates of random_stationary_system's chain (its incoming
// entries turned back), f = 1 on every third state and a state's index
// mod 7 elsewhere.
LongRunProblem long_run_of(const StationarySystem& system, std::vector<double> distribution) {
  const uint64_t n = system.outflow.size();
  std::vector<std::vector<std::pair<uint32_t, double>>> rows(n);
  for (uint64_t j = 0; j < n; ++j) {
    for (uint64_t k = system.incoming.row_offsets[j]; k < system.incoming.row_offsets[j + 1]; ++k) {
      rows[system.incoming.columns[k]].push_back({static_cast<uint32_t>(j), system.incoming.values[k]});
    }
  }
  LongRunProblem problem;
  problem.rates.row_offsets = {0};
  for (const auto& row : rows) {
    for (const auto& [to, rate] : row) {
      problem.rates.columns.push_back(to);
      problem.rates.values.push_back(rate);
    }
    problem.rates.row_offsets.push_back(problem.rates.columns.size());
  }
  problem.reward.resize(n);
  for (uint64_t s = 0; s < n; ++s) problem.reward[s] = s % 3 == 0 ? 1.0 : static_cast<double>(s % 7);
  problem.distribution = std::move(distribution);
  return problem;
}

// Against cpu.jacobi (the same sweeps) and the stationary solve's π·f: the
// bounds contain π·f, meet ε, and overlap the CPU's, on both layouts.
TEST(GpuLongRun, RandomChainsAgreeWithTheCpu) {
  std::mt19937_64 rng(20261129);
  for (const uint32_t long_every : {1000000u, 5u}) {
    const StationarySystem system = random_stationary_system(50000, long_every, rng);
    SolverSettings settings;
    settings.epsilon = 1e-12;
    std::vector<double> pi(50000, 1.0 / 50000);
    ASSERT_TRUE(gauss_seidel_stationary(system, pi, settings).converged);
    const LongRunProblem problem = long_run_of(system, pi);
    double expected = 0;
    for (size_t s = 0; s < pi.size(); ++s) expected += pi[s] * problem.reward[s];
    settings.epsilon = 1e-9;
    LongRunBounds cpu;
    ASSERT_TRUE(jacobi_long_run(problem, cpu, settings).converged);
    for (const GpuLayout layout : {GpuLayout::thread_per_row, GpuLayout::warp_per_row}) {
      settings.gpu_layout = layout;
      LongRunBounds gpu;
      const SolveStats stats = find_solver("gpu.jacobi").long_run(problem, gpu, settings);
      const std::string what = stats.kernel + ", long rows every " + std::to_string(long_every);
      EXPECT_EQ(stats.solver, "gpu.jacobi");
      EXPECT_TRUE(stats.sound);
      EXPECT_TRUE(stats.converged) << what << " after " << stats.iterations;
      EXPECT_EQ(stats.kernel, layout == GpuLayout::warp_per_row ? "warp-per-row" : "thread-per-row");
      EXPECT_LE(gpu.lower, expected * (1 + 1e-11)) << what;
      EXPECT_GE(gpu.upper, expected * (1 - 1e-11)) << what;
      EXPECT_TRUE(bounds_close(gpu.lower, gpu.upper, settings.epsilon, true)) << what;
      EXPECT_LE(std::max(gpu.lower, cpu.lower), std::min(gpu.upper, cpu.upper)) << what << ": disjoint from the CPU's";
    }
  }
}

// The iteration limit leaves wide but certified bounds; bad input is an
// error before the GPU is touched.
TEST(GpuLongRun, IterationLimitAndBadInput) {
  std::mt19937_64 rng(5);
  const StationarySystem system = random_stationary_system(5000, 1000000, rng);
  std::vector<double> pi(5000, 1.0 / 5000);
  SolverSettings settings;
  settings.epsilon = 1e-12;
  ASSERT_TRUE(gauss_seidel_stationary(system, pi, settings).converged);
  LongRunProblem problem = long_run_of(system, pi);
  double expected = 0;
  for (size_t s = 0; s < pi.size(); ++s) expected += pi[s] * problem.reward[s];
  settings.max_iterations = 5;
  LongRunBounds bounds;
  const SolveStats stats = find_solver("gpu.jacobi").long_run(problem, bounds, settings);
  EXPECT_FALSE(stats.converged);
  EXPECT_TRUE(stats.sound);
  EXPECT_LE(bounds.lower, expected * (1 + 1e-12));
  EXPECT_GE(bounds.upper, expected * (1 - 1e-12));
  problem.distribution.pop_back();
  testing::expect_error("short distribution", ErrorCode::invalid_argument,
                        [&] { find_solver("gpu.jacobi").long_run(problem, bounds, SolverSettings{}); });
}

// auto gives a large stationary system to the GPU, cpu keeps it.
TEST(GpuAuto, LargeStationarySystemsGoToTheGpu) {
  std::string reason;
  const SolverEntry& automatic =
      choose_solver(ProblemKind::stationary, "auto", 50000000, 5000000, SolverSettings{}, reason);
  EXPECT_EQ(automatic.name, "gpu.jacobi") << reason;
  EXPECT_EQ(choose_solver(ProblemKind::stationary, "cpu", 50000000, 5000000, SolverSettings{}, reason).name,
            "cpu.gauss-seidel");
  EXPECT_EQ(choose_solver(ProblemKind::stationary, "gpu", 1000, 100, SolverSettings{}, reason).name, "gpu.jacobi");
}

// ---- gpu.interval-vi (lib/solver/gpu/interval_value_iteration.cpp) -----------

constexpr double k_inf = std::numeric_limits<double>::infinity();

// lower ≤ exact ≤ upper in every unknown, up to `slack`·max(1, |exact|) (the
// reference is itself iterated to 1e-13, or a closed form in doubles).
void expect_brackets(const std::vector<double>& lower, const std::vector<double>& upper,
                     const std::vector<double>& exact, const std::string& what, double slack = 1e-11) {
  ASSERT_EQ(lower.size(), exact.size()) << what;
  ASSERT_EQ(upper.size(), exact.size()) << what;
  for (size_t i = 0; i < exact.size(); ++i) {
    const double margin = slack * std::max(1.0, std::fabs(exact[i]));
    ASSERT_LE(lower[i], exact[i] + margin) << what << ", unknown " << i;
    ASSERT_GE(upper[i], exact[i] - margin) << what << ", unknown " << i;
  }
}

void expect_close(const std::vector<double>& lower, const std::vector<double>& upper, const SolverSettings& settings,
                  const std::string& what) {
  for (size_t i = 0; i < lower.size(); ++i) {
    ASSERT_TRUE(bounds_close(lower[i], upper[i], settings.epsilon, settings.relative))
        << what << ", unknown " << i << ": [" << lower[i] << ", " << upper[i] << "]";
  }
}

std::vector<double> gauss_seidel_reference(const LinearSystem& system) {
  SolverSettings precise;
  precise.epsilon = 1e-13;
  std::vector<double> x(system.b.size(), 0.0);
  EXPECT_TRUE(gauss_seidel_linear(system, x, precise).converged);
  return x;
}

// random_system's rows keep 5–95% of their mass and b ≤ the rest: values in
// [0, 1] (probabilities); scaled up, b is a reward with no a-priori bound.
LinearSystem random_bounded_system(uint64_t n, uint64_t long_every, bool rewards, std::mt19937_64& rng) {
  LinearSystem s = random_system(n, long_every, rng);
  if (rewards) {
    for (double& v : s.b) v = 0.5 + 4 * v;
  }
  s.upper_bound = rewards ? k_inf : 1.0;
  return s;
}

TEST(GpuIntervalIteration, LinearBoundsBracketTheSolution) {
  const SolverEntry& solver = find_solver("gpu.interval-vi");
  ASSERT_NE(solver.linear_bounds, nullptr);
  EXPECT_TRUE(solver.sound);
  std::mt19937_64 rng(20261124);
  struct Run {
    double epsilon;
    bool relative;
    GpuLayout layout;
  };
  const Run runs[] = {{1e-6, true, GpuLayout::automatic},
                      {1e-10, false, GpuLayout::automatic},
                      {1e-8, true, GpuLayout::thread_per_row},
                      {1e-8, true, GpuLayout::warp_per_row}};
  for (uint64_t long_every : {1000000ull, 3ull, 1ull}) {  // thread-per-row, mixed, warp-per-row
    for (const bool rewards : {false, true}) {
      const LinearSystem system = random_bounded_system(20000, long_every, rewards, rng);
      const std::vector<double> exact = gauss_seidel_reference(system);
      for (const Run& run : runs) {
        SolverSettings settings;
        settings.epsilon = run.epsilon;
        settings.relative = run.relative;
        settings.gpu_layout = run.layout;
        std::vector<double> lower, upper;
        const SolveStats stats = solver.linear_bounds(system, lower, upper, settings);
        const std::string what = stats.kernel + (rewards ? " rewards" : " probabilities") + " eps " +
                                 std::to_string(run.epsilon) + ", long rows every " + std::to_string(long_every);
        EXPECT_EQ(stats.solver, "gpu.interval-vi");
        EXPECT_TRUE(stats.converged) << what;
        EXPECT_TRUE(stats.sound) << what;
        EXPECT_EQ(stats.kernel.find("+sound-vi-bound") != std::string::npos, rewards) << what;
        if (run.layout == GpuLayout::warp_per_row) {
          EXPECT_EQ(stats.kernel.rfind("warp-per-row", 0), 0u) << what;
        }
        if (run.layout == GpuLayout::thread_per_row) {
          EXPECT_EQ(stats.kernel.rfind("thread-per-row", 0), 0u) << what;
        }
        EXPECT_GT(stats.bytes_per_iteration, 0.0);
        expect_brackets(lower, upper, exact, what);
        expect_close(lower, upper, settings, what);
      }
      // The CPU twin brackets the same values (the same bounds semantics).
      SolverSettings settings;
      std::vector<double> cpu_lower, cpu_upper;
      const SolveStats cpu = interval_linear(system, cpu_lower, cpu_upper, settings);
      EXPECT_TRUE(cpu.converged && cpu.sound);
      expect_brackets(cpu_lower, cpu_upper, exact, "cpu.interval-vi");
    }
  }
}

// A ring of N unknowns, each passing p to the next; the last also gets c
// (1 − p: a probability; 1: a reward). x_i = p^(N−1−i)·c/(1 − p^N). With
// p^N ≈ 0.999 every sweep changes little while far from the solution.
LinearSystem slow_ring(uint32_t n, double p, double c, double upper_bound) {
  LinearSystem s;
  s.upper_bound = upper_bound;
  for (uint32_t i = 0; i < n; ++i) {
    s.a.columns.push_back((i + 1) % n);
    s.a.values.push_back(p);
    s.a.row_offsets.push_back(s.a.columns.size());
    s.b.push_back(i + 1 == n ? c : 0.0);
  }
  return s;
}

std::vector<double> slow_ring_values(uint32_t n, double p, double c) {
  std::vector<double> x(n);
  const double last = c / -std::expm1(n * std::log(p));
  for (uint32_t i = 0; i < n; ++i) x[i] = std::pow(p, n - 1 - i) * last;
  return x;
}

// The ring as an MDP: the ring's choice, or stopping with half its value.
MinMaxProblem slow_ring_mdp(const LinearSystem& ring, const std::vector<double>& values) {
  MinMaxProblem p;
  p.maximize = true;
  p.upper_bound = ring.upper_bound;
  for (uint32_t i = 0; i < values.size(); ++i) {
    p.a.columns.push_back(ring.a.columns[i]);
    p.a.values.push_back(ring.a.values[i]);
    p.a.row_offsets.push_back(p.a.columns.size());
    p.b.push_back(ring.b[i]);
    p.a.row_offsets.push_back(p.a.columns.size());
    p.b.push_back(0.5 * values[i]);
    p.row_groups.push_back(p.b.size());
  }
  return p;
}

// Plain VI stops where one sweep changes little, far from the solution on
// the slow ring; interval iteration's midpoint is within ε.
TEST(GpuIntervalIteration, SlowChainMidpointWithinEpsilon) {
  const uint32_t n = 10;
  const double p = 0.9999;
  SolverSettings settings;  // ε = 1e-6, relative
  for (const bool rewards : {false, true}) {
    const double c = rewards ? 1.0 : 1 - p;
    const LinearSystem ring = slow_ring(n, p, c, rewards ? k_inf : 1.0);
    const std::vector<double> exact = slow_ring_values(n, p, c);
    const std::string what = rewards ? "rewards" : "probabilities";
    std::vector<double> plain(n, 0.0);
    find_solver("gpu.jacobi").linear(ring, plain, settings);
    EXPECT_GT(std::fabs(plain[0] - exact[0]), 10 * settings.epsilon * exact[0]) << what << ": the ring is not slow";

    std::vector<double> lower, upper;
    const SolveStats stats = find_solver("gpu.interval-vi").linear_bounds(ring, lower, upper, settings);
    EXPECT_TRUE(stats.converged && stats.sound) << what;
    expect_brackets(lower, upper, exact, what, 1e-13);
    for (uint32_t i = 0; i < n; ++i) {
      EXPECT_LE(std::fabs(bounds_midpoint(lower[i], upper[i]) - exact[i]), settings.epsilon * exact[i])
          << what << ", unknown " << i;
    }

    // The same ring as an MDP (probabilities: upper start 1; rewards:
    // optimistic VI).
    const MinMaxProblem mdp = slow_ring_mdp(ring, exact);
    MinMaxSolution solution;
    const SolveStats mdp_stats = find_solver("gpu.interval-vi").min_max(mdp, solution, settings);
    EXPECT_TRUE(mdp_stats.converged && mdp_stats.sound) << what << " MDP (" << mdp_stats.kernel << ")";
    expect_brackets(solution.x, solution.upper, exact, what + " MDP", 1e-13);
    for (uint32_t i = 0; i < n; ++i) {
      EXPECT_LE(std::fabs(bounds_midpoint(solution.x[i], solution.upper[i]) - exact[i]), settings.epsilon * exact[i])
          << what << " MDP, unknown " << i;
      EXPECT_EQ(solution.choice[i], 0u) << what << " MDP, unknown " << i;
    }
  }
}

// A random MDP: 1–3 choices per state that keep 50–95% of their mass among
// the unknowns (b: the target's share, or a reward), rows of 1–4 entries or,
// every `long_every` states, 40–80. With `end_components`, every other pair
// (2k, 2k+1) also gets a silent choice to its partner: thousands of
// two-state end components for the quotient to collapse.
MinMaxProblem random_mdp(uint32_t n, bool maximize, bool rewards, bool end_components, uint32_t long_every,
                         std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  MinMaxProblem p;
  p.maximize = maximize;
  p.upper_bound = rewards ? k_inf : 1.0;
  for (uint32_t s = 0; s < n; ++s) {
    if (end_components && (s / 2) % 2 == 0 && (s ^ 1u) < n) {
      p.a.columns.push_back(s ^ 1u);
      p.a.values.push_back(1.0);
      p.a.row_offsets.push_back(p.a.columns.size());
      p.b.push_back(0.0);
    }
    const uint32_t choices = 1 + static_cast<uint32_t>(rng() % 3);
    for (uint32_t c = 0; c < choices; ++c) {
      const uint32_t len = s % long_every == 0 ? 40 + static_cast<uint32_t>(rng() % 40) : 1 + rng() % 4;
      std::vector<std::pair<uint32_t, double>> row;
      for (uint32_t k = 0; k < len; ++k) {
        const uint32_t col = static_cast<uint32_t>(rng() % n);
        if (std::none_of(row.begin(), row.end(), [&](auto& e) { return e.first == col; })) {
          row.push_back({col, u(rng) + 0.05});
        }
      }
      std::sort(row.begin(), row.end());
      double total = 0;
      for (auto& e : row) total += e.second;
      const double keep = 0.5 + 0.45 * u(rng);
      for (auto& [col, v] : row) {
        p.a.columns.push_back(col);
        p.a.values.push_back(v / total * keep);
      }
      p.a.row_offsets.push_back(p.a.columns.size());
      p.b.push_back(rewards ? 0.1 + 2 * u(rng) : (1 - keep) * u(rng));
    }
    p.row_groups.push_back(p.b.size());
  }
  return p;
}

// The random MDPs the interval solvers are compared on: end components
// where the checker produces them (Pmax and Rmin).
struct MdpCase {
  bool maximize, rewards, end_components;
  std::string describe(const SolveStats& stats) const {
    return std::string(maximize ? "max" : "min") + (rewards ? " rewards" : " probabilities") +
           (end_components ? " with end components" : "") + " (" + stats.kernel + ")";
  }
};
constexpr MdpCase k_mdp_cases[] = {{true, false, true}, {false, false, false}, {true, true, false}, {false, true, true}};

// A GPU solution against its CPU twin `cpu` (values within 1e-9, the same
// scheduler) and against `bracket`'s bounds (the brackets overlap), its
// own bounds within ε.
void expect_mdp_solution_matches(const MinMaxSolution& gpu, const MinMaxSolution& cpu, const MinMaxSolution& bracket,
                                 const SolverSettings& settings, const std::string& what) {
  ASSERT_EQ(gpu.x.size(), cpu.x.size()) << what;
  ASSERT_EQ(gpu.upper.size(), cpu.x.size()) << what;
  expect_close(gpu.x, gpu.upper, settings, what);
  for (size_t s = 0; s < cpu.x.size(); ++s) {
    ASSERT_NEAR(gpu.x[s], cpu.x[s], 1e-9 * std::fabs(cpu.x[s]) + 1e-15) << what << ", unknown " << s;
    ASSERT_LE(gpu.x[s], bracket.upper[s] + 1e-14) << what << ", unknown " << s;
    ASSERT_LE(bracket.x[s], gpu.upper[s] + 1e-14) << what << ", unknown " << s;
  }
  EXPECT_EQ(gpu.choice, cpu.choice) << what;
}

// Against cpu.interval-vi: both converge and are sound, the values (lower
// bounds) agree to 1e-9, the brackets overlap, and the schedulers match
// (both from optimal_choices on the host).
TEST(GpuIntervalIteration, MdpBoundsMatchTheCpu) {
  std::mt19937_64 rng(20261125);
  for (const MdpCase& c : k_mdp_cases) {
    for (const uint32_t long_every : {1000000u, 1u}) {
      const MinMaxProblem p = random_mdp(long_every == 1 ? 3000 : 20000, c.maximize, c.rewards, c.end_components,
                                         long_every, rng);
      SolverSettings settings;
      settings.epsilon = 1e-10;
      MinMaxSolution cpu;
      const SolveStats cpu_stats = interval_value_iteration(p, cpu, settings);
      ASSERT_TRUE(cpu_stats.converged && cpu_stats.sound);
      for (const GpuLayout layout : {GpuLayout::automatic, GpuLayout::thread_per_row, GpuLayout::warp_per_row}) {
        settings.gpu_layout = layout;
        MinMaxSolution gpu;
        const SolveStats stats = find_solver("gpu.interval-vi").min_max(p, gpu, settings);
        const std::string what = c.describe(stats);
        EXPECT_EQ(stats.solver, "gpu.interval-vi");
        EXPECT_TRUE(stats.converged) << what;
        EXPECT_TRUE(stats.sound) << what;
        EXPECT_EQ(stats.kernel.find("+optimistic") != std::string::npos, c.rewards) << what;
        if (layout == GpuLayout::warp_per_row) {
          EXPECT_EQ(stats.kernel.rfind("warp-per-state", 0), 0u) << what;
        }
        if (layout == GpuLayout::thread_per_row) {
          EXPECT_EQ(stats.kernel.rfind("thread-per-state", 0), 0u) << what;
        }
        expect_mdp_solution_matches(gpu, cpu, cpu, settings, what);
      }
    }
  }
}

// gpu.optimistic-vi against its CPU twin: the upper start is a verified
// guess for probabilities too, both converge and are sound, the values agree
// to 1e-9, the brackets overlap cpu.interval-vi's, the schedulers match.
TEST(GpuOptimisticIteration, MdpBoundsMatchTheCpu) {
  const SolverEntry& solver = find_solver("gpu.optimistic-vi");
  ASSERT_NE(solver.min_max, nullptr);
  EXPECT_TRUE(solver.sound);
  std::mt19937_64 rng(20261128);
  for (const MdpCase& c : k_mdp_cases) {
    const MinMaxProblem p = random_mdp(20000, c.maximize, c.rewards, c.end_components, 1000000, rng);
    SolverSettings settings;
    settings.epsilon = 1e-10;
    MinMaxSolution cpu, interval;
    const SolveStats cpu_stats = optimistic_value_iteration(p, cpu, settings);
    ASSERT_TRUE(cpu_stats.converged && cpu_stats.sound);
    ASSERT_TRUE(interval_value_iteration(p, interval, settings).converged);
    for (const GpuLayout layout : {GpuLayout::thread_per_row, GpuLayout::warp_per_row}) {
      settings.gpu_layout = layout;
      MinMaxSolution gpu;
      const SolveStats stats = solver.min_max(p, gpu, settings);
      const std::string what = c.describe(stats);
      EXPECT_EQ(stats.solver, "gpu.optimistic-vi");
      EXPECT_TRUE(stats.converged) << what;
      EXPECT_TRUE(stats.sound) << what;
      EXPECT_NE(stats.kernel.find("+optimistic"), std::string::npos) << what;
      expect_mdp_solution_matches(gpu, cpu, interval, settings, what);
      if (!c.rewards) {
        for (size_t s = 0; s < gpu.upper.size(); ++s) {
          ASSERT_LE(gpu.upper[s], 1.0) << what << ", unknown " << s;  // capped by the a-priori bound
        }
      }
    }
  }
}

// gpu.sound-vi against cpu.sound-vi: both converge and are sound on every
// case (max rewards through the first phase), in both layouts; the values
// agree to 1e-9, the brackets overlap cpu.interval-vi's, the schedulers match.
TEST(GpuSoundIteration, MdpBoundsMatchTheCpu) {
  const SolverEntry& solver = find_solver("gpu.sound-vi");
  ASSERT_NE(solver.min_max, nullptr);
  EXPECT_TRUE(solver.sound);
  std::mt19937_64 rng(20261129);
  for (const MdpCase& c : k_mdp_cases) {
    for (const uint32_t long_every : {1000000u, 1u}) {
      const MinMaxProblem p = random_mdp(long_every == 1 ? 3000 : 20000, c.maximize, c.rewards, c.end_components,
                                         long_every, rng);
      SolverSettings settings;
      settings.epsilon = 1e-10;
      MinMaxSolution cpu, interval;
      const SolveStats cpu_stats = sound_value_iteration(p, cpu, settings);
      ASSERT_TRUE(cpu_stats.converged && cpu_stats.sound);
      ASSERT_TRUE(interval_value_iteration(p, interval, settings).converged);
      for (const GpuLayout layout : {GpuLayout::thread_per_row, GpuLayout::warp_per_row}) {
        settings.gpu_layout = layout;
        MinMaxSolution gpu;
        const SolveStats stats = solver.min_max(p, gpu, settings);
        const std::string what = c.describe(stats);
        EXPECT_EQ(stats.solver, "gpu.sound-vi");
        EXPECT_TRUE(stats.converged) << what;
        EXPECT_TRUE(stats.sound) << what;
        EXPECT_EQ(stats.kernel.find("+first-phase") != std::string::npos, c.rewards && c.maximize) << what;
        expect_mdp_solution_matches(gpu, cpu, interval, settings, what);
      }
    }
  }
}

// `solver` stopped after 3 iterations on random Pmax and Rmax problems:
// not converged; probabilities keep sound bounds around the solution (the
// a-priori bound at worst), rewards have no upper bound yet (not sound).
void expect_limited_mdp_bounds(const std::string& solver, std::mt19937_64& rng) {
  SolverSettings settings;
  settings.max_iterations = 3;
  for (const bool rewards : {false, true}) {
    const MinMaxProblem p = random_mdp(5000, true, rewards, false, 1000000, rng);
    SolverSettings precise;
    precise.epsilon = 1e-12;
    MinMaxSolution reference, solution;
    ASSERT_TRUE(interval_value_iteration(p, reference, precise).converged);
    const SolveStats stats = find_solver(solver).min_max(p, solution, settings);
    EXPECT_FALSE(stats.converged) << solver;
    EXPECT_EQ(stats.sound, !rewards) << solver;
    ASSERT_EQ(solution.upper.size(), reference.x.size());
    if (rewards) {
      for (size_t s = 0; s < reference.x.size(); ++s) {
        ASSERT_LE(solution.x[s], reference.x[s] + 1e-12) << solver << ", unknown " << s;
        ASSERT_TRUE(std::isinf(solution.upper[s])) << solver << ", unknown " << s;
      }
    } else {
      expect_brackets(solution.x, solution.upper, reference.x, solver + " MDP probabilities");
    }
  }
}

// Out of iterations before any guess: probabilities fall back to the
// a-priori bound (sound, not converged); rewards have none (not sound).
TEST(GpuOptimisticIteration, IterationLimitKeepsTheBoundsSound) {
  std::mt19937_64 rng(20261129);
  expect_limited_mdp_bounds("gpu.optimistic-vi", rng);
}

// Out of iterations (3): not converged, and the bounds x + y·[lower, upper]
// still hold the solution. Probabilities have them from the start (the
// a-priori 1); these max rewards keep at most 95% per step, so the first
// phase ends within the limit and they are sound too.
TEST(GpuSoundIteration, IterationLimitKeepsTheBoundsSound) {
  std::mt19937_64 rng(20261130);
  SolverSettings settings;
  settings.max_iterations = 3;
  for (const bool rewards : {false, true}) {
    const MinMaxProblem p = random_mdp(5000, true, rewards, false, 1000000, rng);
    SolverSettings precise;
    precise.epsilon = 1e-12;
    MinMaxSolution reference, solution;
    ASSERT_TRUE(interval_value_iteration(p, reference, precise).converged);
    const SolveStats stats = find_solver("gpu.sound-vi").min_max(p, solution, settings);
    EXPECT_FALSE(stats.converged);
    EXPECT_TRUE(stats.sound);
    EXPECT_EQ(stats.iterations, 3u);
    expect_brackets(solution.x, solution.upper, reference.x, rewards ? "max rewards" : "max probabilities");
  }
}

// Three iterations: not converged, and the bounds still hold the solution
// (or, without an upper bound yet, upper = +inf and not sound).
TEST(GpuIntervalIteration, IterationLimitKeepsTheBoundsSound) {
  SolverSettings settings;
  settings.max_iterations = 3;
  const SolverEntry& solver = find_solver("gpu.interval-vi");
  std::mt19937_64 rng(20261126);
  for (const bool rewards : {false, true}) {
    // Random rows keep at most 95% of their mass: for rewards the first
    // phase ends within the 3 iterations, and the bounds are sound.
    const LinearSystem system = random_bounded_system(5000, 7, rewards, rng);
    std::vector<double> lower, upper;
    const SolveStats stats = solver.linear_bounds(system, lower, upper, settings);
    EXPECT_EQ(stats.iterations, 3u);
    EXPECT_FALSE(stats.converged);
    EXPECT_TRUE(stats.sound);
    expect_brackets(lower, upper, gauss_seidel_reference(system), rewards ? "rewards" : "probabilities");
  }
  // The slow ring keeps 99.99% per step: no upper bound within 3 iterations.
  const LinearSystem ring = slow_ring(10, 0.9999, 1.0, k_inf);
  const std::vector<double> exact = slow_ring_values(10, 0.9999, 1.0);
  std::vector<double> lower, upper;
  const SolveStats ring_stats = solver.linear_bounds(ring, lower, upper, settings);
  EXPECT_FALSE(ring_stats.converged);
  EXPECT_FALSE(ring_stats.sound);
  ASSERT_EQ(lower.size(), 10u);
  ASSERT_EQ(upper.size(), 10u);
  for (size_t i = 0; i < 10; ++i) {
    EXPECT_LE(lower[i], exact[i]);
    EXPECT_TRUE(std::isinf(upper[i]));
  }
  // MDPs: with an a-priori bound, sound; with optimistic VI, not yet.
  expect_limited_mdp_bounds("gpu.interval-vi", rng);
}

// Whatever the output vectors held before (wrong sizes, NaN, stale
// choices), every entry is written; a start vector of the wrong size and
// empty problems are handled.
TEST(GpuIntervalIteration, OutputsAreFullyWritten) {
  const SolverEntry& solver = find_solver("gpu.interval-vi");
  std::mt19937_64 rng(20261127);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const bool rewards : {false, true}) {
    const LinearSystem system = random_bounded_system(3000, 5, rewards, rng);
    std::vector<double> lower, upper(3007, nan);
    EXPECT_TRUE(solver.linear_bounds(system, lower, upper, SolverSettings{}).converged);
    ASSERT_EQ(lower.size(), 3000u);
    ASSERT_EQ(upper.size(), 3000u);
    for (size_t i = 0; i < lower.size(); ++i) {
      ASSERT_TRUE(std::isfinite(lower[i]) && std::isfinite(upper[i])) << "unknown " << i;
    }
    const MinMaxProblem p = random_mdp(3000, !rewards, rewards, true, 1000000, rng);
    MinMaxSolution solution;
    solution.choice.assign(17, 99u);
    EXPECT_TRUE(solver.min_max(p, solution, SolverSettings{}).converged);
    ASSERT_EQ(solution.x.size(), 3000u);
    ASSERT_EQ(solution.upper.size(), 3000u);
    ASSERT_EQ(solution.choice.size(), 3000u);
    for (size_t s = 0; s < 3000; ++s) {
      ASSERT_TRUE(std::isfinite(solution.x[s]) && std::isfinite(solution.upper[s])) << "unknown " << s;
      ASSERT_LT(solution.choice[s], p.row_groups[s + 1] - p.row_groups[s]) << "unknown " << s;
    }
  }
  LinearSystem system = random_bounded_system(100, 5, false, rng);
  std::vector<double> lower(101, 0.0), upper;
  testing::expect_error("wrong start size", ErrorCode::invalid_argument,
                        [&] { solver.linear_bounds(system, lower, upper, SolverSettings{}); });
  MinMaxSolution solution;
  solution.x.assign(5, 0.0);
  testing::expect_error("wrong MDP start size", ErrorCode::invalid_argument,
                        [&] { solver.min_max(random_mdp(100, true, false, false, 1000000, rng), solution, {}); });
  const LinearSystem empty;
  lower.clear();
  EXPECT_TRUE(solver.linear_bounds(empty, lower, upper, SolverSettings{}).converged);
  EXPECT_TRUE(lower.empty() && upper.empty());
  MinMaxSolution none;
  MinMaxProblem no_states;
  no_states.maximize = true;
  EXPECT_TRUE(solver.min_max(no_states, none, SolverSettings{}).converged);
  EXPECT_TRUE(none.x.empty());
}

// gpu.sound-vi writes every output whatever they held, rejects a start
// vector of the wrong size and negative rewards, and solves no unknowns.
TEST(GpuSoundIteration, OutputsAreFullyWrittenAndBadInputRefused) {
  const SolverEntry& solver = find_solver("gpu.sound-vi");
  std::mt19937_64 rng(20261131);
  for (const bool rewards : {false, true}) {
    const MinMaxProblem p = random_mdp(3000, !rewards, rewards, true, 1000000, rng);
    MinMaxSolution solution;
    solution.choice.assign(17, 99u);
    EXPECT_TRUE(solver.min_max(p, solution, SolverSettings{}).converged);
    ASSERT_EQ(solution.x.size(), 3000u);
    ASSERT_EQ(solution.upper.size(), 3000u);
    ASSERT_EQ(solution.choice.size(), 3000u);
    for (size_t s = 0; s < 3000; ++s) {
      ASSERT_TRUE(std::isfinite(solution.x[s]) && std::isfinite(solution.upper[s])) << "unknown " << s;
      ASSERT_LT(solution.choice[s], p.row_groups[s + 1] - p.row_groups[s]) << "unknown " << s;
    }
  }
  MinMaxSolution solution;
  solution.x.assign(5, 0.0);
  testing::expect_error("wrong MDP start size", ErrorCode::invalid_argument,
                        [&] { solver.min_max(random_mdp(100, true, false, false, 1000000, rng), solution, {}); });
  MinMaxProblem negative = random_mdp(100, false, true, false, 1000000, rng);
  negative.b[3] = -1.0;
  MinMaxSolution out;
  testing::expect_error("negative rewards", ErrorCode::invalid_argument,
                        [&] { solver.min_max(negative, out, {}); });
  MinMaxSolution none;
  MinMaxProblem no_states;
  no_states.maximize = true;
  EXPECT_TRUE(solver.min_max(no_states, none, SolverSettings{}).converged);
  EXPECT_TRUE(none.x.empty());
}

}  // namespace
}  // namespace pmc
