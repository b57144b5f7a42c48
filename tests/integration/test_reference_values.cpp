// Every property of manifest.tsv (DTMC, CTMC, MDP), checked with every CPU
// solver that solves one of its problems, agrees with PRISM's reference
// value within DESIGN §7's tolerance: |v − ref| ≤ tol·max(|ref|, 1e-9) with
// tol = 1e-6, or 1e-5 for time-bounded CTMC properties.
//
// A solver joins by registering (solver_registry()); PMC_TEST_MAX_TRANSITIONS
// bounds the instances as in test_reference_models.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "check/check.hpp"
#include "formats/model_files.hpp"
#include "solver/registry.hpp"
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

constexpr uint64_t k_default_mdp_limit = 200000;
// Power iteration on the uniformised chain mixes slowly on large CTMCs
// (tandem C255: 554 s against Jacobi's 2.4 s on CI's 2 cores): the default
// suite runs cpu.power up to this size, the full suite everywhere.
constexpr uint64_t k_default_power_limit = 50000;

uint64_t max_transitions() { return testing::max_test_transitions(); }

bool full_suite() {
  const char* env = std::getenv("PMC_TEST_MAX_TRANSITIONS");
  return env && std::string(env) == "0";
}

bool time_bounded(const std::string& property) {
  return property.find("<=") != std::string::npos || property.find("F[") != std::string::npos ||
         property.find("U[") != std::string::npos || property.find(">=") != std::string::npos ||
         property.find("I=") != std::string::npos;
}

// The problems a property of the manifest poses, from its text.
bool needs(const std::string& property, ProblemKind kind) {
  const bool bounded = time_bounded(property);
  const bool steady = property.rfind("S=?", 0) == 0 || property.find("[ S ]") != std::string::npos;
  // A steady-state property always solves stationary distributions; whether
  // it also solves a linear system depends on the model having transient
  // states, so only the stationary solvers are asserted for it.
  switch (kind) {
    case ProblemKind::bounded_steps: return bounded;
    case ProblemKind::stationary: return steady;
    case ProblemKind::linear_system: return !bounded && !steady;
    case ProblemKind::min_max: return false;
    case ProblemKind::min_max_steps: return false;
    case ProblemKind::param_bounds: return false;  // pCTMCs: tests/unit/test_synthesis.cpp
  }
  return false;
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const ManifestRow& row : testing::manifest()) {
    if (row.transitions > max_transitions()) continue;
    // MDPs at ε = 1e-10 with three solvers are the slowest part of the
    // suite: the default (CI, 2 cores) stops them at 200k transitions; the
    // `full` suite (PMC_TEST_MAX_TRANSITIONS=0) runs them all.
    if (row.type == "mdp" && !full_suite() && row.transitions > k_default_mdp_limit) continue;
    for (const SolverEntry& solver : solver_registry()) {
      if (solver.device != DeviceKind::cpu) continue;
      if (solver.name == "cpu.power" && !full_suite() && row.transitions > k_default_power_limit) continue;
      if (row.type == "mdp") {
        if (solver.solves(time_bounded(row.property) ? ProblemKind::min_max_steps : ProblemKind::min_max)) {
          out.push_back({row, solver.name});
        }
        continue;
      }
      bool applies = false;
      for (ProblemKind kind : {ProblemKind::linear_system, ProblemKind::stationary, ProblemKind::bounded_steps}) {
        applies = applies || (needs(row.property, kind) && solver.solves(kind));
      }
      if (applies) out.push_back({row, solver.name});
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

class ReferenceValue : public ::testing::TestWithParam<Case> {};

TEST_P(ReferenceValue, AgreesWithPrism) {
  const Case& c = GetParam();
  const Model& model = cached_model(c.row);
  CheckOptions options;
  options.solver = c.solver;
  // The references were computed with ε = 1e-12; 1e-10 makes the iterative
  // solvers' own error far smaller than the 1e-6 we assert.
  options.settings.epsilon = 1e-10;
  const CheckResult result = check(model, c.row.property, options);
  ASSERT_TRUE(result.converged) << result.notes.back();
  const double ref = c.row.reference_value;
  if (std::isinf(ref)) {
    EXPECT_EQ(result.initial_value, ref);
  } else {
    const double tol = (c.row.type == "ctmc" && time_bounded(c.row.property)) ? 1e-5 : 1e-6;
    EXPECT_LE(std::fabs(result.initial_value - ref), tol * std::max(std::fabs(ref), 1e-9))
        << "value " << result.initial_value << " reference " << ref << " solver " << result.solver_names();
    // Sound interval iteration: its bounds must contain the reference (which
    // PRISM computed to 1e-12, hence the small slack).
    if (!result.lower.empty()) {
      const double slack = 1e-9 * std::max(std::fabs(ref), 1e-9);
      EXPECT_LE(result.initial_lower, ref + slack) << "lower bound above the reference";
      EXPECT_GE(result.initial_upper, ref - slack) << "upper bound below the reference";
    }
  }
  // The requested solver did the work, unless graph algorithms alone
  // decided every state (e.g. P=? [ F "elected" ] = 1).
  if (!result.solvers.empty()) {
    EXPECT_NE(std::find(result.solvers.begin(), result.solvers.end(), c.solver), result.solvers.end())
        << "asked for " << c.solver << ", used " << result.solver_names();
  }
}

INSTANTIATE_TEST_SUITE_P(Manifest, ReferenceValue, ::testing::ValuesIn(cases()), case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ReferenceValue);

TEST(ReferenceValues, Available) {
  if (testing::models_root().empty()) GTEST_SKIP() << testing::missing_models_message();
  EXPECT_FALSE(cases().empty());
}

}  // namespace
}  // namespace pmc
