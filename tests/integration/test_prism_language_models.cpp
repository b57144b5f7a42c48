// Every instance of the reference models' manifest.tsv ($PMC_MODELS) rebuilt
// from its PRISM-language source (`model.{pm,sm,nm}` with the manifest's
// `constants`) has exactly the manifest's states/transitions/choices, is the
// model PRISM exported — state for state, since the explorer numbers states as
// PRISM's explicit engine does — and reproduces the reference values.
//
// PMC_TEST_MAX_TRANSITIONS bounds the instances as in
// test_reference_models.cpp (default 1M: CI; 0 in the `full` suite).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

#include "check/check.hpp"
#include "common/stopwatch.hpp"
#include "formats/prism_language/prism_model.hpp"
#include "support/manifest.hpp"

namespace pmc::testing {
void PrintTo(const ManifestRow& row, std::ostream* out) { *out << row.name() << " " << row.property; }
}  // namespace pmc::testing

namespace pmc {
namespace {

using testing::ManifestRow;

// MDP properties above this size are left to the `full` suite, as in
// test_reference_values.cpp: the built model is compared entry by entry
// with the exported one, so its values are those already checked there.
constexpr uint64_t k_default_mdp_value_limit = 200000;

bool full_suite() {
  const char* env = std::getenv("PMC_TEST_MAX_TRANSITIONS");
  return env && std::string(env) == "0";
}

std::string source_of(const ManifestRow& row) {
  for (const char* ext : {"pm", "sm", "nm", "prism"}) {
    const std::string path = row.directory() + "/model." + ext;
    if (std::filesystem::exists(path)) return path;
  }
  return {};
}

// Built once per instance and kept while its properties are checked.
const Model& built_model(const ManifestRow& row) {
  static std::string built_name;
  static ModelPtr built;
  if (built_name != row.name()) {
    built.reset();
    const std::string source = source_of(row);
    if (source.empty()) throw std::runtime_error("no model.{pm,sm,nm} in " + row.directory());
    const auto start = std::chrono::steady_clock::now();
    built = prism_language::build_model_from_source(source, prism_language::parse_constant_assignments(row.constants),
                                                    prism_language::ExploreOptions{});
    const double seconds = seconds_since(start);
    std::cout << "[ built    ] " << row.name() << ": " << built->num_states() << " states, " << built->num_entries()
              << " transitions in " << seconds << " s ("
              << static_cast<double>(built->num_states()) / std::max(seconds, 1e-9) << " states/s)\n";
    built_name = row.name();
  }
  return *built;
}

std::string instance_name(const ::testing::TestParamInfo<ManifestRow>& info) {
  std::string name = info.param.model + "_" + info.param.instance;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

std::string_view entry_action(const Model& m, uint64_t entry) {
  if (m.entry_actions().empty()) return "";
  return m.action_names()[m.entry_actions()[entry]];
}

class SourceInstance : public ::testing::TestWithParam<ManifestRow> {};

TEST_P(SourceInstance, BuildsThePrismModel) {
  const ManifestRow& row = GetParam();
  const Model& built = built_model(row);
  EXPECT_EQ(to_string(built.type()), row.type);
  EXPECT_EQ(built.num_states(), row.states);
  EXPECT_EQ(built.num_entries(), row.transitions);
  if (row.choices) {
    EXPECT_EQ(built.num_rows(), *row.choices);
  }

  const Model& exported = testing::cached_model(row);
  ASSERT_EQ(built.num_states(), exported.num_states());
  ASSERT_EQ(built.num_entries(), exported.num_entries());
  ASSERT_EQ(built.row_groups(), exported.row_groups()) << "choices per state differ";
  ASSERT_EQ(built.row_offsets(), exported.row_offsets()) << "transitions per row differ";
  for (uint64_t row_index = 0; row_index < built.num_rows(); ++row_index) {
    for (uint64_t e = built.row_offsets()[row_index]; e < built.row_offsets()[row_index + 1]; ++e) {
      ASSERT_EQ(built.columns()[e], exported.columns()[e]) << built.describe_row(row_index);
      const double a = built.values()[e], b = exported.values()[e];
      // PRISM writes 17 significant digits, so the exported values are the
      // doubles PRISM computed; the products of weights may round differently.
      ASSERT_LE(std::fabs(a - b), 1e-12 * std::fabs(b)) << built.describe_row(row_index) << " to " << built.columns()[e];
      ASSERT_EQ(entry_action(built, e), entry_action(exported, e)) << built.describe_row(row_index);
    }
  }

  // Every exported label (PRISM writes "init", "deadlock" and the source's
  // labels) is built with the same states.
  for (const Label& label : exported.labels()) {
    const Label* mine = built.find_label(label.name);
    ASSERT_NE(mine, nullptr) << "label \"" << label.name << "\" not built";
    EXPECT_TRUE(mine->states == label.states) << "label \"" << label.name << "\": " << mine->states.count()
                                              << " states built, " << label.states.count() << " exported";
  }
  // Reward structures: the exported ones are those with items (PRISM writes
  // one .srew/.trew pair per structure); zero vectors are left empty by
  // Model::create on both sides.
  for (const RewardStructure& rewards : exported.rewards()) {
    const RewardStructure* mine = built.find_rewards(rewards.name);
    ASSERT_NE(mine, nullptr) << "reward structure \"" << rewards.name << "\" not built";
    ASSERT_EQ(mine->state_rewards.size(), rewards.state_rewards.size()) << "\"" << rewards.name << "\"";
    for (size_t s = 0; s < rewards.state_rewards.size(); ++s) {
      ASSERT_LE(std::fabs(mine->state_rewards[s] - rewards.state_rewards[s]), 1e-12 * std::fabs(rewards.state_rewards[s]))
          << "\"" << rewards.name << "\" state " << s;
    }
    ASSERT_EQ(mine->transition_rewards.size(), rewards.transition_rewards.size()) << "\"" << rewards.name << "\"";
    for (size_t e = 0; e < rewards.transition_rewards.size(); ++e) {
      ASSERT_LE(std::fabs(mine->transition_rewards[e] - rewards.transition_rewards[e]),
                1e-12 * std::fabs(rewards.transition_rewards[e]))
          << "\"" << rewards.name << "\" entry " << e;
    }
  }
  // `.sta` is exported for the small instances only.
  if (!exported.valuations().empty()) {
    EXPECT_EQ(built.valuations().variables, exported.valuations().variables);
    EXPECT_EQ(built.valuations().is_bool, exported.valuations().is_bool);
    EXPECT_TRUE(built.valuations() == exported.valuations()) << "state valuations differ";
  }
}

std::vector<ManifestRow> instances() { return testing::manifest_instances(testing::max_test_transitions()); }

INSTANTIATE_TEST_SUITE_P(Manifest, SourceInstance, ::testing::ValuesIn(instances()), instance_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(SourceInstance);

bool time_bounded(const std::string& property) {
  return property.find("<=") != std::string::npos || property.find("F[") != std::string::npos ||
         property.find("U[") != std::string::npos || property.find(">=") != std::string::npos ||
         property.find("I=") != std::string::npos;
}

std::vector<ManifestRow> value_rows() {
  std::vector<ManifestRow> out;
  const uint64_t limit = testing::max_test_transitions();
  for (const ManifestRow& row : testing::manifest()) {
    if (limit != 0 && row.transitions > limit) continue;
    if (row.type == "mdp" && !full_suite() && row.transitions > k_default_mdp_value_limit) continue;
    out.push_back(row);
  }
  return out;
}

std::string value_name(const ::testing::TestParamInfo<ManifestRow>& info) {
  return instance_name(info) + "_" + std::to_string(info.index);
}

class SourceValue : public ::testing::TestWithParam<ManifestRow> {};

// The tolerance of test_reference_values.cpp (docs/design.md §7): 1e-6
// relative, 1e-5 for time-bounded CTMC properties (Fox–Glynn).
TEST_P(SourceValue, ReproducesTheReference) {
  const ManifestRow& row = GetParam();
  const CheckResult result = check(built_model(row), row.property, CheckOptions{});
  ASSERT_TRUE(result.converged) << result.notes.back();
  const double ref = row.reference_value;
  if (std::isinf(ref)) {
    EXPECT_EQ(result.initial_value, ref);
    return;
  }
  const double tol = (row.type == "ctmc" && time_bounded(row.property)) ? 1e-5 : 1e-6;
  EXPECT_LE(std::fabs(result.initial_value - ref), tol * std::max(std::fabs(ref), 1e-9))
      << "value " << result.initial_value << " reference " << ref << " solver " << result.solver_names();
}

INSTANTIATE_TEST_SUITE_P(Manifest, SourceValue, ::testing::ValuesIn(value_rows()), value_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(SourceValue);

}  // namespace
}  // namespace pmc
