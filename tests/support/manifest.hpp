// The reference models ($PMC_MODELS; docs/design.md §7): where they are and
// what manifest.tsv says about each instance and property.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/model.hpp"

namespace pmc::testing {

struct ManifestRow {
  std::string model, instance, type;
  uint64_t states = 0, transitions = 0;
  std::optional<uint64_t> choices;  // MDPs only
  std::vector<std::string> files;   // in <model>/<instance>/
  std::string property;
  double reference_value = 0;       // may be +inf
  std::string reference_method;
  double prism_seconds = 0;   // PRISM's -ex solve time (0 when not given)
  uint64_t prism_iterations = 0;
  // `--const` text for the instance's model.{pm,sm,nm} ("N=16,MAX=2"; empty
  // when the source defines every constant).
  std::string constants;

  std::string directory() const;    // absolute
  std::string name() const { return model + "/" + instance; }
  // The .tra (or .tra.gz) among `files`.
  std::string transitions_file() const;
};

// $PMC_MODELS, else the build's default (the team's models folder,
// ../shared/models beside the source tree); empty when that folder has no
// manifest.tsv.
std::string models_root();

// All rows of manifest.tsv (empty when models_root() is empty). Throws on a
// malformed manifest.
const std::vector<ManifestRow>& manifest();

// One row per instance (the first of its properties), at most
// `max_transitions` transitions.
std::vector<ManifestRow> manifest_instances(uint64_t max_transitions);

// Message for GTEST_SKIP when the models are missing. It starts with
// k_missing_models_prefix, by which run_tests() counts such skips.
std::string missing_models_message();
inline constexpr const char* k_missing_models_prefix = "reference models not found";

// RUN_ALL_TESTS() with the skip rule for tests that need the reference
// models, for every test program's main(): a test that skipped because the
// models are missing makes the program exit 77, which meson reports as
// SKIP (never as a pass), after every other test ran; a failure still
// exits 1. With $PMC_TEST_NEEDS_MODELS set (tests/meson.build sets it on
// the programs that test nothing else) and the models missing, it exits 77
// at once.
int run_tests();

// The largest instance a test run covers: $PMC_TEST_MAX_TRANSITIONS, else
// `default_limit` (CI's budget); 0 means every instance (the `full` suite).
uint64_t max_test_transitions(uint64_t default_limit = 1000000);

// The model of `row`, loaded once and kept until another instance is asked
// for (parameterised tests visit a model's properties one after another).
const Model& cached_model(const ManifestRow& row);

}  // namespace pmc::testing
