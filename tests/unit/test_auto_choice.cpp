// `auto`'s cost model (solver/device/cost_model.hpp) and the promise that
// follows from it: below the crossover a check never touches CUDA — no
// device discovery, so no context and no ~0.2 s start-up. This
// program must not discover devices itself: the first test checks that
// nothing asked for discovery before it.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "check/check.hpp"
#include "common/stopwatch.hpp"
#include "solver/device/devices.hpp"
#include "formats/model_files.hpp"
#include "common/cancellation.hpp"
#include "solver/device/cost_model.hpp"
#include "solver/device/handover.hpp"
#include "solver/registry.hpp"
#include "support/manifest.hpp"

namespace pmc {
namespace {

const std::string k_die = std::string(PMC_TEST_DATA_DIR) + "/../../examples/die/die.tra";

// The cost model runs only where a GPU may be there: this program pretends
// one may be, so that it tests the model on machines without one too
// (those choices never reach CUDA, or find no device).
const bool k_gpu_may_be_there = [] {
  const std::string none;
  detail::override_known_gpu_absence(&none);
  return true;
}();

TEST(AutoChoice, SmallChecksNeverDiscoverDevices) {
  ASSERT_FALSE(device_discovery_requested()) << "something discovered devices before the test";
  const ModelPtr die = load_model({k_die}, "", {});
  for (const char* property : {"P=? [ F \"six\" ]", "P=? [ F<=10 \"done\" ]", "R=? [ F \"done\" ]",
                               "S=? [ \"six\" ]", "P>=0.1 [ X \"one\" ]"}) {
    const CheckResult r = check(*die, property);
    EXPECT_FALSE(device_discovery_requested()) << property << ": " << r.solver_reason;
    if (!r.solvers.empty()) {
      EXPECT_NE(r.solver_reason.find("predicted CPU"), std::string::npos) << property << ": " << r.solver_reason;
    }
  }
  // Small manifest models of every type, their first property each.
  if (testing::models_root().empty()) GTEST_SKIP() << testing::missing_models_message();
  int checked = 0;
  for (const testing::ManifestRow& row : testing::manifest_instances(20000)) {
    const CheckResult r = check(testing::cached_model(row), row.property);
    EXPECT_FALSE(device_discovery_requested()) << row.name() << " " << row.property << ": " << r.solver_reason;
    ++checked;
  }
  EXPECT_GT(checked, 3);
}

TEST(AutoChoice, PredictionsFavourTheCpuForSmallWorkAndTheGpuForLarge) {
  WorkEstimate small{.entries = 5000, .rows = 1000, .iterations = k_expected_iterations};
  EXPECT_FALSE(predict_without_gpu(small, k_gpu_startup_seconds).gpu_considered);
  // Once CUDA is up the GPU's floor is only its launches.
  WorkEstimate medium{.entries = 2000000, .rows = 200000, .iterations = k_expected_iterations};
  EXPECT_TRUE(predict_without_gpu(medium, k_gpu_startup_seconds).gpu_considered);
  const CostPrediction cold = predict(medium, k_gpu_startup_seconds), warm = predict(medium, 0);
  EXPECT_NEAR(cold.gpu_seconds - warm.gpu_seconds, k_gpu_startup_seconds, 1e-12);
  // Half the start-up paid by a background start: half of it still counts.
  EXPECT_NEAR(predict(medium, k_gpu_startup_seconds / 2).gpu_seconds - warm.gpu_seconds, k_gpu_startup_seconds / 2,
              1e-12);
  EXPECT_LT(warm.gpu_seconds, warm.cpu_seconds);
  WorkEstimate resident = medium;
  resident.resident = true;
  EXPECT_LT(predict(resident, 0).gpu_seconds, warm.gpu_seconds);
  // Known iterations: 10 steps of a 2M-entry problem on all cores stay below start-up.
  WorkEstimate steps{.entries = 2000000, .rows = 200000, .iterations = 10, .iterations_known = true,
                     .multithreaded_cpu = true};
  EXPECT_FALSE(predict_without_gpu(steps, k_gpu_startup_seconds).gpu_considered);
  EXPECT_NE(predict_without_gpu(steps, k_gpu_startup_seconds).summary.find("10 iterations"), std::string::npos);
  // All cores pay a parallel region per iteration: 10 000 steps of a small
  // but parallel problem cost more than their entries alone.
  WorkEstimate many{.entries = 100000, .rows = 20000, .iterations = 10000, .iterations_known = true,
                    .multithreaded_cpu = true};
  EXPECT_NEAR(predict(many, 0).cpu_seconds,
              10000 * (100000 * k_cpu_seconds_per_entry_parallel + k_cpu_seconds_per_parallel_iteration), 1e-12);
  // Without a background start the whole start-up is still to be paid.
  EXPECT_EQ(gpu_startup_remaining(), k_gpu_startup_seconds);
}

TEST(AutoChoice, HandOverOnlyWhereTheGpuRedoesTheWorkAndMoreInTime) {
  // The GPU 10x faster per iteration, 1 ms of upload: after 0.2 s of CPU
  // it redoes that and as much again in 41 ms.
  EXPECT_TRUE(worth_handing_over(10, 0.001, 0.2));
  EXPECT_FALSE(worth_handing_over(10, 0.5, 0.2));    // the upload alone outlasts the CPU's time so far
  EXPECT_FALSE(worth_handing_over(1.8, 0.0, 10.0));  // not fast enough to catch up
  EXPECT_FALSE(worth_handing_over(k_handover_min_speedup, 0.0, 10.0));
  const WorkEstimate tiny{.entries = 1000, .rows = 100, .iterations = 1000};
  EXPECT_LT(gpu_speedup_per_iteration(tiny), k_handover_min_speedup);  // launches dominate
  const WorkEstimate large{.entries = 5000000, .rows = 1000000, .iterations = 1000};
  EXPECT_GT(gpu_speedup_per_iteration(large), 10);
}

TEST(AutoChoice, ReasonStatesThePrediction) {
  std::string reason;
  const SolverEntry& s = choose_solver(ProblemKind::linear_system, "auto", 1000, 100, SolverSettings{}, reason);
  EXPECT_EQ(s.name, "cpu.topo-interval-vi");
  EXPECT_NE(reason.find("predicted CPU"), std::string::npos) << reason;
  EXPECT_NE(reason.find("1000 non-zeros"), std::string::npos) << reason;
  EXPECT_FALSE(device_discovery_requested());
}

// solve_handing_over with stand-ins for the two solvers and for CUDA's
// start-up: the CPU's solve polls its cancel flag like every solver loop.
struct FakeSolvers {
  SolverEntry cpu{"cpu.fake", DeviceKind::cpu, "", nullptr};
  SolverEntry gpu{"gpu.fake", DeviceKind::gpu, "", nullptr};
  double cpu_seconds = 0;  // how long the CPU's solve takes
  int gpu_runs = 0, cpu_runs = 0;
  ErrorCode gpu_error{};  // 0: the GPU's solve succeeds
  SolveWith solve() {
    return [this](const SolverEntry& s, const SolverSettings& settings) {
      SolveStats stats;
      stats.solver = s.name;
      if (&s == &gpu) {
        ++gpu_runs;
        if (gpu_error != ErrorCode{}) throw Error(gpu_error, "no GPU after all");
        return stats;
      }
      ++cpu_runs;
      const auto start = std::chrono::steady_clock::now();
      while (seconds_since(start) < cpu_seconds) {
        throw_if_cancelled(settings.cancel);
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      return stats;
    };
  }
};

// CUDA up `after` seconds from now.
GpuReady ready_after(double after) {
  const auto start = std::chrono::steady_clock::now();
  return [=](double wait) {
    const double left = after - seconds_since(start);
    if (left > wait) {
      std::this_thread::sleep_for(std::chrono::duration<double>(wait));
      return false;
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(std::max(left, 0.0)));
    return true;
  };
}

TEST(HandOver, ALongCpuSolveMovesToTheGpuOnceItIsUp) {
  FakeSolvers f;
  f.cpu_seconds = 30;
  const Handover handover{&f.gpu, 20, 0.001};
  const auto start = std::chrono::steady_clock::now();
  const SolveStats stats = solve_handing_over(f.cpu, handover, SolverSettings{}, f.solve(), ready_after(0.05));
  EXPECT_LT(seconds_since(start), 5);
  EXPECT_EQ(stats.solver, "gpu.fake");
  EXPECT_EQ(f.gpu_runs, 1);
  ASSERT_EQ(stats.notes.size(), 1u);
  EXPECT_NE(stats.notes[0].find("handed over to gpu.fake"), std::string::npos) << stats.notes[0];
}

TEST(HandOver, ACpuSolveThatEndsFirstKeepsItsResult) {
  FakeSolvers f;
  f.cpu_seconds = 0.01;
  const SolveStats stats = solve_handing_over(f.cpu, {&f.gpu, 20, 0.001}, SolverSettings{}, f.solve(), ready_after(5));
  EXPECT_EQ(stats.solver, "cpu.fake");
  EXPECT_EQ(f.gpu_runs, 0);
}

TEST(HandOver, NoHandOverWhereTheGpuCannotCatchUpOrThereIsNone) {
  FakeSolvers f;
  f.cpu_seconds = 0.2;
  EXPECT_EQ(solve_handing_over(f.cpu, {&f.gpu, 1.5, 0.0}, SolverSettings{}, f.solve(), ready_after(0)).solver,
            "cpu.fake");
  EXPECT_EQ(solve_handing_over(f.cpu, {}, SolverSettings{}, f.solve(), ready_after(0)).solver, "cpu.fake");
  const GpuReady never = [](double wait) {
    std::this_thread::sleep_for(std::chrono::duration<double>(wait));
    return false;
  };
  EXPECT_EQ(solve_handing_over(f.cpu, {&f.gpu, 20, 0.0}, SolverSettings{}, f.solve(), never).solver, "cpu.fake");
  EXPECT_EQ(f.gpu_runs, 0);
}

TEST(HandOver, TheUsersCancelStillCancels) {
  FakeSolvers f;
  f.cpu_seconds = 30;
  std::atomic<bool> cancel{false};
  SolverSettings settings;
  settings.cancel = &cancel;
  std::thread user([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    cancel = true;
  });
  try {
    solve_handing_over(f.cpu, {&f.gpu, 20, 0.001}, settings, f.solve(), ready_after(10));
    ADD_FAILURE() << "not cancelled";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::cancelled);
  }
  user.join();
  EXPECT_EQ(f.gpu_runs, 0);
}

TEST(HandOver, AGpuThatFailsAfterTheHandOverLeavesTheProblemToTheCpu) {
  FakeSolvers f;
  f.cpu_seconds = 0.3;
  f.gpu_error = ErrorCode::no_device;
  const SolveStats stats = solve_handing_over(f.cpu, {&f.gpu, 20, 0.001}, SolverSettings{}, f.solve(), ready_after(0.05));
  EXPECT_EQ(stats.solver, "cpu.fake");
  EXPECT_EQ(f.gpu_runs, 1);
  EXPECT_EQ(f.cpu_runs, 2);
  ASSERT_FALSE(stats.notes.empty());
  EXPECT_NE(stats.notes.back().find("solved on the CPU again"), std::string::npos);
}

TEST(AutoChoice, NoGpuForCertainIsSaidPlainly) {
  const std::string absent = "no NVIDIA driver on this machine";
  detail::override_known_gpu_absence(&absent);
  std::string reason;
  // Large enough that the cost model would consider the GPU.
  const SolverEntry& s = choose_solver(ProblemKind::linear_system, "auto", 50000000, 5000000, SolverSettings{}, reason);
  EXPECT_EQ(s.name.rfind("cpu.", 0), 0u) << s.name;
  EXPECT_NE(reason.find("no GPU: no NVIDIA driver on this machine"), std::string::npos) << reason;
  EXPECT_EQ(reason.find("start"), std::string::npos) << reason;
  // A whole check reports no GPU start-up.
  const CheckResult r = check(*load_model({k_die}, "", {}), "P=? [ F \"six\" ]");
  EXPECT_EQ(r.timings.gpu_startup, 0.0);
  EXPECT_NE(r.solver_reason.find("no GPU"), std::string::npos) << r.solver_reason;
  const std::string none;
  detail::override_known_gpu_absence(&none);
}

}  // namespace
}  // namespace pmc
