// The scheduler pmc exports for an MDP property is optimal: the Markov chain
// it induces (one choice per state) attains the reported value (within ε),
// checked on every unbounded MDP property of the manifest up to the size
// limit, for every CPU min/max solver.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include "check/check.hpp"
#include "formats/model_files.hpp"
#include "solver/registry.hpp"
#include "support/manifest.hpp"

namespace pmc {
namespace {

using testing::ManifestRow;

struct Case {
  ManifestRow row;
  std::string solver;
};
void PrintTo(const Case& c, std::ostream* out) { *out << c.row.name() << " " << c.row.property << " " << c.solver; }

uint64_t max_transitions() { return testing::max_test_transitions(100000); }  // CI time; the `full` suite runs all

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const ManifestRow& row : testing::manifest()) {
    if (row.type != "mdp" || row.transitions > max_transitions() || row.property.find("<=") != std::string::npos) {
      continue;
    }
    for (const SolverEntry& s : solver_registry()) {
      if (s.device == DeviceKind::cpu && s.solves(ProblemKind::min_max)) out.push_back({row, s.name});
    }
  }
  return out;
}

// The DTMC the scheduler induces: each state keeps only its chosen row.
ModelPtr induced_chain(const Model& mdp, const std::vector<int64_t>& scheduler) {
  ModelParts p;
  p.type = ModelType::dtmc;
  p.num_states = mdp.num_states();
  p.row_offsets.push_back(0);
  for (uint64_t s = 0; s < mdp.num_states(); ++s) {
    const uint64_t row = mdp.row_groups()[s] + static_cast<uint64_t>(std::max<int64_t>(scheduler[s], 0));
    for (uint64_t k = mdp.row_offsets()[row]; k < mdp.row_offsets()[row + 1]; ++k) {
      p.columns.push_back(mdp.columns()[k]);
      p.values.push_back(mdp.values()[k]);
      for (size_t r = 0; r < mdp.rewards().size(); ++r) {
        if (p.rewards.size() < mdp.rewards().size()) p.rewards.resize(mdp.rewards().size());
        const RewardStructure& from = mdp.rewards()[r];
        RewardStructure& to = p.rewards[r];
        to.name = from.name;
        if (!from.transition_rewards.empty()) to.transition_rewards.push_back(from.transition_rewards[k]);
      }
    }
    p.row_offsets.push_back(p.columns.size());
  }
  for (size_t r = 0; r < mdp.rewards().size(); ++r) p.rewards[r].state_rewards = mdp.rewards()[r].state_rewards;
  p.labels = mdp.labels();
  return Model::create(std::move(p));
}

// "Pmax=? [ F x ]" → "P=? [ F x ]", "R{"s"}min=? [...]" → "R{"s"}=? [...]".
std::string dtmc_property(std::string property) {
  for (const char* op : {"max=?", "min=?"}) {
    if (auto at = property.find(op); at != std::string::npos) property.replace(at, 5, "=?");
  }
  return property;
}

class MdpScheduler : public ::testing::TestWithParam<Case> {};

TEST_P(MdpScheduler, InducedChainAttainsTheValue) {
  const Case& c = GetParam();
  ModelPtr mdp = load_model({c.row.transitions_file()}, "", {});
  CheckOptions options;
  options.solver = c.solver;
  options.settings.epsilon = 1e-10;
  const CheckResult result = check(*mdp, c.row.property, options);
  ASSERT_TRUE(result.converged);
  ASSERT_EQ(result.scheduler.size(), mdp->num_states());
  for (uint64_t s = 0; s < mdp->num_states(); ++s) {
    const int64_t choices = static_cast<int64_t>(mdp->row_groups()[s + 1] - mdp->row_groups()[s]);
    ASSERT_LT(result.scheduler[s], choices) << "state " << s;
  }
  ModelPtr chain = induced_chain(*mdp, result.scheduler);
  CheckOptions dtmc_options;
  dtmc_options.settings.epsilon = 1e-10;
  const CheckResult attained = check(*chain, dtmc_property(c.row.property), dtmc_options);
  const double v = result.initial_value;
  if (std::isinf(v)) {
    EXPECT_TRUE(std::isinf(attained.initial_value));
  } else {
    EXPECT_NEAR(attained.initial_value, v, 1e-6 * std::max(std::fabs(v), 1e-9))
        << "the scheduler's chain gives " << attained.initial_value << ", the MDP value is " << v;
  }
}

INSTANTIATE_TEST_SUITE_P(Manifest, MdpScheduler, ::testing::ValuesIn(cases()), [](const auto& info) {
  std::string name = info.param.row.model + "_" + info.param.row.instance + "_" + std::to_string(info.index) + "_" +
                     info.param.solver;
  for (char& ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
});
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(MdpScheduler);

}  // namespace
}  // namespace pmc
