// `auto`'s cost model (solver/device/cost_model.hpp) and the promise that
// follows from it: below the crossover a check never touches CUDA — no
// device discovery, so no context and no ~0.2 s start-up (issue 19). This
// program must not discover devices itself: the first test checks that
// nothing asked for discovery before it.
#include <gtest/gtest.h>

#include <string>

#include "check/check.hpp"
#include "cuda/devices.hpp"
#include "formats/model_files.hpp"
#include "solver/device/cost_model.hpp"
#include "solver/registry.hpp"
#include "support/manifest.hpp"

namespace pmc {
namespace {

const std::string k_die = std::string(PMC_TEST_DATA_DIR) + "/../../examples/die/die.tra";

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
  EXPECT_FALSE(predict_without_gpu(small, false).gpu_considered);
  // Once CUDA is up the GPU's floor is only its launches.
  WorkEstimate medium{.entries = 2000000, .rows = 200000, .iterations = k_expected_iterations};
  EXPECT_TRUE(predict_without_gpu(medium, false).gpu_considered);
  const CostPrediction cold = predict(medium, false), warm = predict(medium, true);
  EXPECT_NEAR(cold.gpu_seconds - warm.gpu_seconds, k_gpu_startup_seconds, 1e-12);
  EXPECT_LT(warm.gpu_seconds, warm.cpu_seconds);
  WorkEstimate resident = medium;
  resident.resident = true;
  EXPECT_LT(predict(resident, true).gpu_seconds, warm.gpu_seconds);
  // Known iterations: 10 steps of a 2M-entry problem on all cores stay below start-up.
  WorkEstimate steps{.entries = 2000000, .rows = 200000, .iterations = 10, .iterations_known = true,
                     .multithreaded_cpu = true};
  EXPECT_FALSE(predict_without_gpu(steps, false).gpu_considered);
  EXPECT_NE(predict_without_gpu(steps, false).summary.find("10 iterations"), std::string::npos);
}

TEST(AutoChoice, ReasonStatesThePrediction) {
  std::string reason;
  const SolverEntry& s = choose_solver(ProblemKind::linear_system, "auto", 1000, 100, SolverSettings{}, reason);
  EXPECT_EQ(s.name, "cpu.interval-vi");
  EXPECT_NE(reason.find("predicted CPU"), std::string::npos) << reason;
  EXPECT_NE(reason.find("1000 non-zeros"), std::string::npos) << reason;
  EXPECT_FALSE(device_discovery_requested());
}

}  // namespace
}  // namespace pmc
