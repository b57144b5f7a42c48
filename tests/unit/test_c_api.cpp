// The C ABI's model part: every function rejects bad arguments with
// PMC_ERROR_INVALID_ARGUMENT and a message naming the argument, out-
// parameters stay untouched on failure, and good calls give the right data.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "pmc/pmc.h"
#include "solver/device/devices.hpp"
#include "support/temp_dir.hpp"

namespace {

const std::string k_die = std::string(PMC_TEST_DATA_DIR) + "/../../examples/die/die.tra";
const std::string k_die_source = std::string(PMC_TEST_DATA_DIR) + "/../../examples/die/die.pm";
const std::string k_consensus = std::string(PMC_TEST_DATA_DIR) + "/../../examples/consensus/consensus.nm";

std::string last_error() { return pmc_last_error(); }

// A 3-state DTMC: 0 -> {1: 0.5, 2: 0.5}, 1 and 2 absorbing.
pmc_model* build_small_dtmc() {
  const uint64_t offsets[] = {0, 2, 3, 4};
  const uint64_t columns[] = {2, 1, 1, 2};  // row 0 unsorted on purpose
  const double values[] = {0.5, 0.5, 1.0, 1.0};
  pmc_model* model = nullptr;
  EXPECT_EQ(pmc_model_build_csr(PMC_MODEL_DTMC, 3, 3, nullptr, offsets, columns, values, nullptr, &model), PMC_OK)
      << last_error();
  return model;
}

TEST(CApi, VersionAndStatusStrings) {
  EXPECT_EQ(std::string(pmc_version()), std::to_string(PMC_VERSION_MAJOR) + "." + std::to_string(PMC_VERSION_MINOR) +
                                            "." + std::to_string(PMC_VERSION_PATCH));
  EXPECT_EQ(std::string(pmc_version()), PMC_VERSION_STRING);
  EXPECT_EQ(pmc_version_number(), PMC_VERSION_NUMBER);
  EXPECT_EQ(PMC_VERSION_NUMBER, PMC_VERSION_MAJOR * 10000 + PMC_VERSION_MINOR * 100 + PMC_VERSION_PATCH);
  EXPECT_EQ(std::string(pmc_status_string(PMC_OK)), "ok");
  EXPECT_EQ(std::string(pmc_status_string(PMC_ERROR_PARSE)), "parse error");
  EXPECT_NE(std::string(pmc_status_string(static_cast<pmc_status>(999))), "");
}

TEST(CApi, NullArgumentsAreRejectedAndNamed) {
  pmc_model* model = nullptr;
  EXPECT_EQ(pmc_model_load(nullptr, nullptr, &model), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("path"), std::string::npos) << last_error();
  EXPECT_EQ(pmc_model_load(k_die.c_str(), nullptr, nullptr), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("out_model"), std::string::npos) << last_error();
  uint64_t count = 7;
  EXPECT_EQ(pmc_model_num_states(nullptr, &count), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(count, 7u);
  EXPECT_EQ(pmc_model_num_transitions(nullptr, &count), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_model_num_choices(nullptr, &count), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_model_save(nullptr, "x.pmcb", nullptr), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_options_set_strict(nullptr, 1), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_options_create(nullptr), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_model_load_files(nullptr, 1, nullptr, nullptr, &model), PMC_ERROR_INVALID_ARGUMENT);
  const char* paths[] = {nullptr};
  EXPECT_EQ(pmc_model_load_files(paths, 1, nullptr, nullptr, &model), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_model_load_files(paths, 0, nullptr, nullptr, &model), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(model, nullptr);
  pmc_model_free(nullptr);
  pmc_options_free(nullptr);
}

TEST(CApi, BadFormatNameAndBadOptionValues) {
  pmc_model* model = nullptr;
  EXPECT_EQ(pmc_model_load(k_die.c_str(), "prism-xyz", &model), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("prism-xyz"), std::string::npos) << last_error();
  pmc_options* options = nullptr;
  ASSERT_EQ(pmc_options_create(&options), PMC_OK);
  EXPECT_EQ(pmc_options_set_row_sum_tolerance(options, -1.0), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_options_set_row_sum_tolerance(options, NAN), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_options_set_row_sum_tolerance(options, 0.5), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_options_set_row_sum_tolerance(options, 1e-6), PMC_OK);
  pmc_options_free(options);
}

TEST(CApi, LoadsTheExampleAndAnswersQueries) {
  pmc_model* model = nullptr;
  ASSERT_EQ(pmc_model_load(k_die.c_str(), nullptr, &model), PMC_OK) << last_error();
  pmc_model_kind kind = PMC_MODEL_MDP;
  uint64_t states = 0, transitions = 0, choices = 0, labels = 0, rewards = 0, params = 9;
  EXPECT_EQ(pmc_model_type(model, &kind), PMC_OK);
  EXPECT_EQ(kind, PMC_MODEL_DTMC);
  EXPECT_EQ(pmc_model_num_states(model, &states), PMC_OK);
  EXPECT_EQ(states, 13u);
  EXPECT_EQ(pmc_model_num_transitions(model, &transitions), PMC_OK);
  EXPECT_EQ(transitions, 20u);
  EXPECT_EQ(pmc_model_num_choices(model, &choices), PMC_OK);
  EXPECT_EQ(choices, 13u);
  EXPECT_EQ(pmc_model_num_labels(model, &labels), PMC_OK);
  EXPECT_EQ(labels, 9u);
  EXPECT_EQ(pmc_model_num_rewards(model, &rewards), PMC_OK);
  EXPECT_EQ(rewards, 1u);
  EXPECT_EQ(pmc_model_num_parameters(model, &params), PMC_OK);
  EXPECT_EQ(params, 0u);

  const char* name = nullptr;
  EXPECT_EQ(pmc_model_label_name(model, 2, &name), PMC_OK);
  EXPECT_STREQ(name, "done");
  EXPECT_EQ(pmc_model_label_name(model, 9, &name), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_model_reward_name(model, 0, &name), PMC_OK);
  EXPECT_STREQ(name, "coin_flips");

  uint64_t count = 0;
  uint64_t some[2] = {99, 99};
  EXPECT_EQ(pmc_model_label_states(model, "done", some, 2, &count), PMC_OK);
  EXPECT_EQ(count, 6u);
  EXPECT_EQ(some[0], 7u);
  EXPECT_EQ(some[1], 8u);
  EXPECT_EQ(pmc_model_label_states(model, "done", nullptr, 0, &count), PMC_OK);
  EXPECT_EQ(pmc_model_label_states(model, "nope", nullptr, 0, &count), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("nope"), std::string::npos);
  EXPECT_EQ(pmc_model_label_states(model, "done", nullptr, 3, &count), PMC_ERROR_INVALID_ARGUMENT);
  pmc_model_free(model);
}

TEST(CApi, BuildsFromArraysAndValidates) {
  pmc_model* model = build_small_dtmc();
  ASSERT_NE(model, nullptr);
  const uint64_t init[] = {0};
  EXPECT_EQ(pmc_model_add_label(model, "init", init, 1), PMC_OK);
  const uint64_t bad_state[] = {3};
  EXPECT_EQ(pmc_model_add_label(model, "bad", bad_state, 1), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("3"), std::string::npos) << last_error();
  // A name taken, empty or unwritable is the caller's argument, not a
  // fault of the model.
  EXPECT_EQ(pmc_model_add_label(model, "init", init, 1), PMC_ERROR_INVALID_ARGUMENT) << "duplicate name accepted";
  EXPECT_NE(last_error().find("\"init\""), std::string::npos) << last_error();
  EXPECT_EQ(pmc_model_add_label(model, "", init, 1), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("empty"), std::string::npos) << last_error();
  EXPECT_EQ(pmc_model_add_label(model, "a\"b", init, 1), PMC_ERROR_INVALID_ARGUMENT);
  const double state_rewards[] = {1, 0, 0};
  EXPECT_EQ(pmc_model_add_rewards(model, "r", state_rewards, nullptr, nullptr), PMC_OK) << last_error();
  EXPECT_EQ(pmc_model_add_rewards(model, "", nullptr, nullptr, nullptr), PMC_ERROR_INVALID_ARGUMENT)
      << "a reward structure without rewards";
  const double nan_rewards[] = {NAN, 0, 0};
  EXPECT_EQ(pmc_model_add_rewards(model, "nan", nan_rewards, nullptr, nullptr), PMC_ERROR_INVALID_ARGUMENT);
  uint64_t rewards = 0;
  EXPECT_EQ(pmc_model_num_rewards(model, &rewards), PMC_OK);
  EXPECT_EQ(rewards, 1u) << "a rejected reward structure was kept";
  pmc_model_free(model);

  // Bad CSR: a row that sums to 0.9, a column out of range, a NULL array.
  const uint64_t offsets[] = {0, 2, 3};
  const uint64_t columns[] = {0, 1, 1};
  const double short_row[] = {0.5, 0.4, 1.0};
  pmc_model* out = nullptr;
  EXPECT_EQ(pmc_model_build_csr(PMC_MODEL_DTMC, 2, 2, nullptr, offsets, columns, short_row, nullptr, &out), PMC_ERROR_MODEL);
  EXPECT_NE(last_error().find("state 0"), std::string::npos) << last_error();
  const uint64_t far_columns[] = {0, 5, 1};
  const double good[] = {0.5, 0.5, 1.0};
  EXPECT_EQ(pmc_model_build_csr(PMC_MODEL_DTMC, 2, 2, nullptr, offsets, far_columns, good, nullptr, &out), PMC_ERROR_MODEL);
  EXPECT_NE(last_error().find("5"), std::string::npos) << last_error();
  EXPECT_EQ(pmc_model_build_csr(PMC_MODEL_DTMC, 2, 2, nullptr, offsets, nullptr, good, nullptr, &out),
            PMC_ERROR_INVALID_ARGUMENT);
  const uint64_t three_rows[] = {0, 2, 3, 3};  // a DTMC has one row per state, not three for two
  EXPECT_EQ(pmc_model_build_csr(PMC_MODEL_DTMC, 2, 3, nullptr, three_rows, columns, good, nullptr, &out),
            PMC_ERROR_MODEL);
  EXPECT_EQ(pmc_model_build_csr(static_cast<pmc_model_kind>(42), 2, 2, nullptr, offsets, columns, good, nullptr, &out),
            PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_model_build_csr(PMC_MODEL_PCTMC, 2, 2, nullptr, offsets, columns, good, nullptr, &out),
            PMC_ERROR_INVALID_ARGUMENT);
  // Offsets that decrease, or point past the arrays, must not be followed.
  const uint64_t wild_offsets[] = {0, 1000000000000ull, 3};
  EXPECT_NE(pmc_model_build_csr(PMC_MODEL_DTMC, 2, 2, nullptr, wild_offsets, columns, good, nullptr, &out), PMC_OK);
  EXPECT_EQ(out, nullptr);
}

TEST(CApi, DeadlocksGetASelfLoopUnlessStrict) {
  const uint64_t offsets[] = {0, 1, 1};
  const uint64_t columns[] = {1};
  const double values[] = {1.0};
  pmc_model* model = nullptr;
  ASSERT_EQ(pmc_model_build_csr(PMC_MODEL_DTMC, 2, 2, nullptr, offsets, columns, values, nullptr, &model), PMC_OK);
  uint64_t warnings = 0, transitions = 0;
  EXPECT_EQ(pmc_model_num_warnings(model, &warnings), PMC_OK);
  EXPECT_EQ(warnings, 1u);
  const char* warning = nullptr;
  EXPECT_EQ(pmc_model_warning(model, 0, &warning), PMC_OK);
  EXPECT_NE(std::string(warning).find("self-loop"), std::string::npos) << warning;
  EXPECT_EQ(pmc_model_num_transitions(model, &transitions), PMC_OK);
  EXPECT_EQ(transitions, 2u);
  pmc_model_free(model);

  pmc_options* strict = nullptr;
  ASSERT_EQ(pmc_options_create(&strict), PMC_OK);
  ASSERT_EQ(pmc_options_set_strict(strict, 1), PMC_OK);
  model = nullptr;
  EXPECT_EQ(pmc_model_build_csr(PMC_MODEL_DTMC, 2, 2, nullptr, offsets, columns, values, strict, &model), PMC_ERROR_MODEL);
  EXPECT_NE(last_error().find("strict"), std::string::npos) << last_error();
  EXPECT_EQ(model, nullptr);
  pmc_options_free(strict);
}

TEST(CApi, BuildsAParametricCtmc) {
  const uint64_t offsets[] = {0, 1, 2};
  const uint64_t columns[] = {1, 0};
  const double constants[] = {0.0, 2.0};
  const double coefficients[] = {1.0, 0.0, 0.0, 0.5};  // rate0 = k1, rate1 = 2 + 0.5 k2
  const char* names[] = {"k1", "k2"};
  const double lower[] = {0.1, 0.0}, upper[] = {10.0, 1.0};
  pmc_model* model = nullptr;
  ASSERT_EQ(pmc_model_build_parametric_csr(2, offsets, columns, constants, 2, names, coefficients, lower, upper,
                                           nullptr, &model),
            PMC_OK)
      << last_error();
  uint64_t params = 0;
  const char* name = nullptr;
  EXPECT_EQ(pmc_model_num_parameters(model, &params), PMC_OK);
  EXPECT_EQ(params, 2u);
  EXPECT_EQ(pmc_model_parameter_name(model, 1, &name), PMC_OK);
  EXPECT_STREQ(name, "k2");
  pmc_model_free(model);

  const double negative_coefficients[] = {-1.0, 0.0, 0.0, 0.5};  // rate0 = -k1 < 0
  model = nullptr;
  EXPECT_EQ(pmc_model_build_parametric_csr(2, offsets, columns, constants, 2, names, negative_coefficients, lower,
                                           upper, nullptr, &model),
            PMC_ERROR_MODEL);
  EXPECT_NE(last_error().find("negative"), std::string::npos) << last_error();
  const double inverted_upper[] = {0.01, 1.0};
  EXPECT_EQ(pmc_model_build_parametric_csr(2, offsets, columns, constants, 2, names, coefficients, lower,
                                           inverted_upper, nullptr, &model),
            PMC_ERROR_MODEL);
  const char* same_names[] = {"k", "k"};
  EXPECT_EQ(pmc_model_build_parametric_csr(2, offsets, columns, constants, 2, same_names, coefficients, lower, upper,
                                           nullptr, &model),
            PMC_ERROR_MODEL);
  EXPECT_EQ(model, nullptr);
}

TEST(CApi, SavesAndReloads) {
  pmc::testing::TempDir dir;
  pmc_model* model = nullptr;
  ASSERT_EQ(pmc_model_load(k_die.c_str(), nullptr, &model), PMC_OK);
  for (const char* name : {"die.pmcb", "die.drn", "die2.tra", "die3.tra.gz"}) {
    const std::string path = dir.path(name);
    ASSERT_EQ(pmc_model_save(model, path.c_str(), nullptr), PMC_OK) << name << ": " << last_error();
    pmc_model* again = nullptr;
    ASSERT_EQ(pmc_model_load(path.c_str(), nullptr, &again), PMC_OK) << name << ": " << last_error();
    uint64_t states = 0, labels = 0;
    EXPECT_EQ(pmc_model_num_states(again, &states), PMC_OK);
    EXPECT_EQ(states, 13u) << name;
    EXPECT_EQ(pmc_model_num_labels(again, &labels), PMC_OK);
    // DRN declares labels only on the states that carry them, so the empty
    // "deadlock" label does not survive it.
    EXPECT_EQ(labels, std::string(name).ends_with(".drn") ? 8u : 9u) << name;
    pmc_model_free(again);
  }
  EXPECT_EQ(pmc_model_save(model, "/nonexistent-dir/x.pmcb", nullptr), PMC_ERROR_IO);
  EXPECT_NE(last_error().find("/nonexistent-dir/x.pmcb"), std::string::npos) << last_error();
  EXPECT_EQ(pmc_model_save(model, dir.path("x.unknown").c_str(), nullptr), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_FALSE(std::filesystem::exists(dir.path("x.unknown")));
  pmc_model_free(model);
}

// PRISM-language sources: pmc_model_build_prism with constants,
// pmc_model_load by extension, and the errors reaching pmc_last_error.
TEST(CApiPrismLanguage, BuildsSourcesWithConstants) {
  pmc_model* model = nullptr;
  ASSERT_EQ(pmc_model_build_prism(k_consensus.c_str(), "K=2", nullptr, &model), PMC_OK) << last_error();
  uint64_t states = 0, choices = 0, transitions = 0;
  pmc_model_kind type = PMC_MODEL_DTMC;
  EXPECT_EQ(pmc_model_type(model, &type), PMC_OK);
  EXPECT_EQ(type, PMC_MODEL_MDP);
  EXPECT_EQ(pmc_model_num_states(model, &states), PMC_OK);
  EXPECT_EQ(pmc_model_num_choices(model, &choices), PMC_OK);
  EXPECT_EQ(pmc_model_num_transitions(model, &transitions), PMC_OK);
  EXPECT_EQ(states, 272u);  // manifest.tsv, consensus N2_K2
  EXPECT_EQ(choices, 400u);
  EXPECT_EQ(transitions, 492u);
  pmc_model_free(model);

  // A source defining every constant: NULL or "" constants, and pmc_model_load.
  for (const char* constants : {static_cast<const char*>(nullptr), ""}) {
    model = nullptr;
    ASSERT_EQ(pmc_model_build_prism(k_die_source.c_str(), constants, nullptr, &model), PMC_OK) << last_error();
    EXPECT_EQ(pmc_model_num_states(model, &states), PMC_OK);
    EXPECT_EQ(states, 13u);
    pmc_model_free(model);
  }
  model = nullptr;
  ASSERT_EQ(pmc_model_load(k_die_source.c_str(), nullptr, &model), PMC_OK) << last_error();
  pmc_model* from_tra = nullptr;
  ASSERT_EQ(pmc_model_load(k_die.c_str(), nullptr, &from_tra), PMC_OK) << last_error();
  EXPECT_EQ(pmc_model_num_states(model, &states), PMC_OK);
  EXPECT_EQ(states, 13u);
  EXPECT_EQ(pmc_model_num_transitions(model, &transitions), PMC_OK);
  uint64_t tra_transitions = 0;
  EXPECT_EQ(pmc_model_num_transitions(from_tra, &tra_transitions), PMC_OK);
  EXPECT_EQ(transitions, tra_transitions);
  pmc_model_free(model);
  pmc_model_free(from_tra);
  model = nullptr;
  ASSERT_EQ(pmc_model_load(k_die_source.c_str(), "prism-language", &model), PMC_OK) << last_error();
  pmc_model_free(model);
}

// pmc_options_set_exact: the rational through pmc_result_exact, owned by
// the result; a result checked without it has none; a property --exact
// does not compute is PMC_ERROR_UNSUPPORTED.
TEST(CApiPrismLanguage, ExactResultsAreRationals) {
  pmc_model* model = nullptr;
  ASSERT_EQ(pmc_model_build_prism(k_die_source.c_str(), nullptr, nullptr, &model), PMC_OK) << last_error();
  pmc_options* options = nullptr;
  ASSERT_EQ(pmc_options_create(&options), PMC_OK);
  EXPECT_EQ(pmc_options_set_exact(nullptr, 1), PMC_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(pmc_options_set_exact(options, 1), PMC_OK);
  pmc_result* result = nullptr;
  ASSERT_EQ(pmc_check(model, "P=? [ F \"six\" ]", options, &result), PMC_OK) << last_error();
  const char* text = nullptr;
  ASSERT_EQ(pmc_result_exact(result, &text), PMC_OK) << last_error();
  EXPECT_STREQ(text, "1/6");
  EXPECT_EQ(pmc_result_exact(result, nullptr), PMC_ERROR_INVALID_ARGUMENT);
  double value = 0;
  EXPECT_EQ(pmc_result_initial_value(result, &value), PMC_OK);
  EXPECT_EQ(value, 1.0 / 6.0);
  pmc_result_free(result);

  result = nullptr;
  ASSERT_EQ(pmc_check(model, "P=? [ F \"six\" ]", nullptr, &result), PMC_OK) << last_error();
  EXPECT_EQ(pmc_result_exact(result, &text), PMC_ERROR_UNSUPPORTED);
  EXPECT_NE(last_error().find("pmc_options_set_exact"), std::string::npos) << last_error();
  pmc_result_free(result);

  result = nullptr;
  EXPECT_EQ(pmc_check(model, "P=? [ F<=3 \"six\" ]", options, &result), PMC_ERROR_UNSUPPORTED);
  EXPECT_NE(last_error().find("pmc_options_set_exact(options, 1) computes"), std::string::npos) << last_error();
  EXPECT_EQ(result, nullptr);
  pmc_options_free(options);
  pmc_model_free(model);
}

TEST(CApiPrismLanguage, ErrorsReachLastError) {
  pmc_model* model = nullptr;
  EXPECT_EQ(pmc_model_build_prism(nullptr, "K=2", nullptr, &model), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("path"), std::string::npos) << last_error();
  EXPECT_EQ(pmc_model_build_prism(k_consensus.c_str(), "K=2", nullptr, nullptr), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("out_model"), std::string::npos) << last_error();

  // Undefined constant: listed with how to set it; also through pmc_model_load.
  EXPECT_EQ(pmc_model_build_prism(k_consensus.c_str(), nullptr, nullptr, &model), PMC_ERROR_PARSE);
  EXPECT_NE(last_error().find("consensus.nm"), std::string::npos) << last_error();
  // In the caller's language: the C ABI's call, no command-line flag.
  EXPECT_NE(last_error().find("pmc_model_build_prism(path, \"K=...\""), std::string::npos) << last_error();
  EXPECT_EQ(last_error().find("--const"), std::string::npos) << last_error();
  EXPECT_EQ(pmc_model_load(k_consensus.c_str(), nullptr, &model), PMC_ERROR_PARSE);
  EXPECT_NE(last_error().find("undefined constant"), std::string::npos) << last_error();
  // Malformed, unknown or wrongly typed constants.
  EXPECT_EQ(pmc_model_build_prism(k_consensus.c_str(), "K", nullptr, &model), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_model_build_prism(k_consensus.c_str(), "K=2,Q=1", nullptr, &model), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("Q"), std::string::npos) << last_error();
  EXPECT_EQ(pmc_model_build_prism(k_consensus.c_str(), "K=0.5", nullptr, &model), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_model_build_prism("/nonexistent/x.nm", nullptr, nullptr, &model), PMC_ERROR_IO);
  EXPECT_NE(last_error().find("/nonexistent/x.nm"), std::string::npos) << last_error();

  // A syntax error: file:line:column.
  pmc::testing::TempDir dir;
  const std::string bad = dir.path("bad.pm");
  {
    std::FILE* f = std::fopen(bad.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("dtmc\nmodule m\n  x : [0..1] init 0;\n  [] x=0 -> (x'=1) (x'=0);\nendmodule\n", f);
    std::fclose(f);
  }
  EXPECT_EQ(pmc_model_build_prism(bad.c_str(), nullptr, nullptr, &model), PMC_ERROR_PARSE);
  EXPECT_NE(last_error().find("bad.pm:4:"), std::string::npos) << last_error();

  // The state limit, set through the options; ignored when loading other formats.
  pmc_options* options = nullptr;
  ASSERT_EQ(pmc_options_create(&options), PMC_OK);
  EXPECT_EQ(pmc_options_set_max_states(nullptr, 10), PMC_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(pmc_options_set_max_states(options, 100), PMC_OK);
  EXPECT_EQ(pmc_model_build_prism(k_consensus.c_str(), "K=2", options, &model), PMC_ERROR_MODEL);
  EXPECT_NE(last_error().find("100"), std::string::npos) << last_error();
  // Named as the C caller sets it: no command-line flag, no C++ internals.
  EXPECT_NE(last_error().find("pmc_options_set_max_states"), std::string::npos) << last_error();
  EXPECT_EQ(last_error().find("--max-states"), std::string::npos) << last_error();
  EXPECT_EQ(last_error().find("ExploreOptions"), std::string::npos) << last_error();
  EXPECT_EQ(model, nullptr) << "out_model must stay untouched on failure";
  const char* die_path = k_die.c_str();
  ASSERT_EQ(pmc_model_load_files(&die_path, 1, nullptr, options, &model), PMC_OK) << last_error();
  pmc_model_free(model);
  model = nullptr;
  ASSERT_EQ(pmc_options_set_max_states(options, 272), PMC_OK);
  ASSERT_EQ(pmc_model_build_prism(k_consensus.c_str(), "K=2", options, &model), PMC_OK) << last_error();
  pmc_model_free(model);
  pmc_options_free(options);
}

// Which explorer builds a source: "auto", "cpu" or "gpu", anything else
// refused; "gpu" on a machine without one is PMC_ERROR_NO_DEVICE naming the
// setting, and "cpu" builds the same model as the default.
TEST(CApiPrismLanguage, BuildSelectsTheExplorer) {
  pmc_options* options = nullptr;
  ASSERT_EQ(pmc_options_create(&options), PMC_OK);
  EXPECT_EQ(pmc_options_set_build(nullptr, "cpu"), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_options_set_build(options, nullptr), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_options_set_build(options, "tpu"), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("'tpu'"), std::string::npos) << last_error();
  EXPECT_NE(last_error().find("\"gpu\""), std::string::npos) << last_error();
  pmc_model* by_default = nullptr;
  pmc_model* on_cpu = nullptr;
  ASSERT_EQ(pmc_model_build_prism(k_consensus.c_str(), "K=2", nullptr, &by_default), PMC_OK) << last_error();
  ASSERT_EQ(pmc_options_set_build(options, "cpu"), PMC_OK);
  ASSERT_EQ(pmc_model_build_prism(k_consensus.c_str(), "K=2", options, &on_cpu), PMC_OK) << last_error();
  for (auto count : {pmc_model_num_states, pmc_model_num_choices, pmc_model_num_transitions}) {
    uint64_t a = 0, b = 1;
    ASSERT_EQ(count(by_default, &a), PMC_OK);
    ASSERT_EQ(count(on_cpu, &b), PMC_OK);
    EXPECT_EQ(a, b);
  }
  pmc_model_free(by_default);
  pmc_model_free(on_cpu);
  ASSERT_EQ(pmc_options_set_build(options, "gpu"), PMC_OK);
  if (!pmc::known_gpu_absence().empty()) {
    pmc_model* model = nullptr;
    EXPECT_EQ(pmc_model_build_prism(k_consensus.c_str(), "K=2", options, &model), PMC_ERROR_NO_DEVICE);
    EXPECT_NE(last_error().find("pmc_options_set_build(options, \"gpu\") needs a GPU"), std::string::npos)
        << last_error();
    EXPECT_EQ(model, nullptr);
  }
  ASSERT_EQ(pmc_options_set_build(options, "auto"), PMC_OK);
  pmc_options_free(options);
}

TEST(CApiPrismLanguage, MessagesSpeakTheCallersLanguage) {
  EXPECT_EQ(pmc_set_caller_language(nullptr), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_set_caller_language("cobol"), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("cobol"), std::string::npos) << last_error();
  pmc_model* model = nullptr;
  const std::pair<const char*, const char*> expected[] = {
      {"python", "constants=\"K=...\""}, {"rust", "Model::build_prism"}, {"java", "Model.buildPrism"},
      {"command-line", "--const K=..."},  {"c", "pmc_model_build_prism"}};
  for (const auto& [language, words] : expected) {
    ASSERT_EQ(pmc_set_caller_language(language), PMC_OK);
    EXPECT_EQ(pmc_model_build_prism(k_consensus.c_str(), nullptr, nullptr, &model), PMC_ERROR_PARSE);
    EXPECT_NE(last_error().find(words), std::string::npos) << language << ": " << last_error();
  }
}

TEST(CApi, EpsilonBelowDoublePrecisionAndAnEmptySolverAreRefused) {
  pmc_options* options = nullptr;
  ASSERT_EQ(pmc_options_create(&options), PMC_OK);
  EXPECT_EQ(pmc_options_set_epsilon(options, 1e-300), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("double precision"), std::string::npos) << last_error();
  EXPECT_EQ(pmc_options_set_epsilon(options, 0.5e-15), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_options_set_epsilon(options, 1e-15), PMC_OK);
  EXPECT_EQ(pmc_options_set_solver(options, ""), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("empty"), std::string::npos) << last_error();
  pmc_options_free(options);
}

TEST(CApi, LastErrorIsPerThread) {
  pmc_model* model = nullptr;
  EXPECT_EQ(pmc_model_load("/no/such/model.tra", nullptr, &model), PMC_ERROR_IO);
  const std::string here = last_error();
  std::string there;
  std::thread other([&] {
    there = pmc_last_error();
    pmc_model* m = nullptr;
    pmc_model_load("/other/thread.drn", nullptr, &m);
  });
  other.join();
  EXPECT_EQ(there, "");
  EXPECT_EQ(last_error(), here);
}

TEST(CApi, DevicesAnswerHonestly) {
  uint64_t count = 99;
  pmc_status status = pmc_device_count(&count);
  if (status == PMC_OK) {
    ASSERT_GT(count, 0u);
    const char* name = nullptr;
    uint64_t free_bytes = 0, total_bytes = 0;
    int major = 0, minor = 0;
    EXPECT_EQ(pmc_device_name(0, &name), PMC_OK);
    EXPECT_GT(std::string(name).size(), 0u);
    EXPECT_EQ(pmc_device_memory(0, &free_bytes, &total_bytes), PMC_OK);
    EXPECT_GT(total_bytes, 0u);
    EXPECT_LE(free_bytes, total_bytes);
    EXPECT_EQ(pmc_device_compute_capability(0, &major, &minor), PMC_OK);
    EXPECT_GE(major, 3);
  } else {
    EXPECT_EQ(status, PMC_ERROR_NO_DEVICE);
    EXPECT_EQ(count, 0u);
    EXPECT_GT(last_error().size(), 0u);
  }
  const char* name = nullptr;
  EXPECT_NE(pmc_device_name(count, &name), PMC_OK);
  EXPECT_NE(pmc_device_name(count, nullptr), PMC_OK);
}

TEST(CApi, DeviceListsAreCheckedHereAndInTheSolve) {
  pmc_options* options = nullptr;
  ASSERT_EQ(pmc_options_create(&options), PMC_OK);
  const uint64_t twice[] = {1, 0, 1};
  EXPECT_EQ(pmc_options_set_devices(options, twice, 3), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("device 1 is listed twice"), std::string::npos) << last_error();
  const uint64_t absurd[] = {0, 5000};
  EXPECT_EQ(pmc_options_set_devices(options, absurd, 2), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("5000"), std::string::npos) << last_error();
  EXPECT_EQ(pmc_options_set_devices(options, nullptr, 2), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_options_set_devices(options, twice, 2000), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_options_set_devices(nullptr, twice, 1), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_options_set_devices(options, nullptr, 0), PMC_OK);
  EXPECT_EQ(pmc_options_set_all_devices(options, 1), PMC_OK);
  EXPECT_EQ(pmc_options_set_all_devices(nullptr, 1), PMC_ERROR_INVALID_ARGUMENT);

  // A listed GPU that is not there fails the check with a message naming it
  // (no GPU at all: PMC_ERROR_NO_DEVICE; fewer than 1001: INVALID_ARGUMENT).
  pmc_model* model = nullptr;
  ASSERT_EQ(pmc_model_load(k_die.c_str(), nullptr, &model), PMC_OK);
  const uint64_t far[] = {0, 1000};
  ASSERT_EQ(pmc_options_set_devices(options, far, 2), PMC_OK);
  ASSERT_EQ(pmc_options_set_solver(options, "gpu.jacobi"), PMC_OK);
  pmc_result* result = nullptr;
  const pmc_status status = pmc_check(model, "P=? [ F \"six\" ]", options, &result);
  const std::string message = last_error();
  uint64_t gpus = 0;
  if (pmc_device_count(&gpus) == PMC_OK) {
    EXPECT_EQ(status, PMC_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(message.find("GPU 1000 does not exist"), std::string::npos) << message;
  } else {
    EXPECT_EQ(status, PMC_ERROR_NO_DEVICE);
  }
  EXPECT_EQ(result, nullptr);
  pmc_model_free(model);
  pmc_options_free(options);
}

}  // namespace

namespace {

TEST(CApiCheck, ChecksAndReportsEverything) {
  pmc_model* model = nullptr;
  ASSERT_EQ(pmc_model_load(k_die.c_str(), nullptr, &model), PMC_OK);
  pmc_options* options = nullptr;
  ASSERT_EQ(pmc_options_create(&options), PMC_OK);
  ASSERT_EQ(pmc_options_set_solver(options, "cpu.jacobi"), PMC_OK);
  ASSERT_EQ(pmc_options_set_epsilon(options, 1e-12), PMC_OK);
  pmc_result* result = nullptr;
  ASSERT_EQ(pmc_check(model, "P=? [ F \"six\" ]", options, &result), PMC_OK) << last_error();
  double value = 0, lo = 0, hi = 0, seconds = -1;
  uint64_t n_init = 0, iterations = 0, count = 0;
  int converged = 0, boolean = 1;
  const char* solver = nullptr;
  EXPECT_EQ(pmc_result_initial_value(result, &value), PMC_OK);
  EXPECT_NEAR(value, 1.0 / 6, 1e-10);
  EXPECT_EQ(pmc_result_initial_range(result, &lo, &hi, &n_init), PMC_OK);
  EXPECT_EQ(n_init, 1u);
  EXPECT_EQ(lo, value);
  EXPECT_EQ(pmc_result_iterations(result, &iterations), PMC_OK);
  EXPECT_GT(iterations, 0u);
  EXPECT_EQ(pmc_result_converged(result, &converged), PMC_OK);
  EXPECT_EQ(converged, 1);
  EXPECT_EQ(pmc_result_is_boolean(result, &boolean), PMC_OK);
  EXPECT_EQ(boolean, 0);
  EXPECT_EQ(pmc_result_solver(result, &solver), PMC_OK);
  EXPECT_STREQ(solver, "cpu.jacobi");
  EXPECT_EQ(pmc_result_seconds(result, &seconds), PMC_OK);
  EXPECT_GE(seconds, 0);
  std::vector<double> values(13);
  EXPECT_EQ(pmc_result_values(result, values.data(), values.size(), &count), PMC_OK);
  EXPECT_EQ(count, 13u);
  EXPECT_EQ(values[12], 1.0);  // "six" itself
  EXPECT_EQ(values[7], 0.0);   // "one"
  EXPECT_EQ(pmc_result_values(result, nullptr, 0, &count), PMC_OK);
  EXPECT_EQ(pmc_result_values(result, nullptr, 5, &count), PMC_ERROR_INVALID_ARGUMENT);
  // A DTMC property has no scheduler and Jacobi gives no bounds: clear errors.
  int64_t choices[13];
  EXPECT_EQ(pmc_result_scheduler(result, choices, 13, &count), PMC_ERROR_UNSUPPORTED);
  EXPECT_NE(last_error().find("no scheduler"), std::string::npos) << last_error();
  EXPECT_EQ(pmc_result_bounds(result, &lo, &hi), PMC_ERROR_UNSUPPORTED);
  EXPECT_EQ(pmc_result_bounds(result, nullptr, &hi), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_result_scheduler(nullptr, choices, 13, &count), PMC_ERROR_INVALID_ARGUMENT);
  int sound = 1;
  EXPECT_EQ(pmc_result_sound(result, &sound), PMC_OK);
  EXPECT_EQ(sound, 0);  // a named unsound solver
  std::vector<double> lower(13), upper(13);
  EXPECT_EQ(pmc_result_bound_values(result, lower.data(), upper.data(), 13, &count), PMC_ERROR_UNSUPPORTED);
  EXPECT_NE(last_error().find("not certified"), std::string::npos) << last_error();
  pmc_result_free(result);

  // The default: sound, with bounds in every state.
  ASSERT_EQ(pmc_options_set_solver(options, "auto"), PMC_OK);
  ASSERT_EQ(pmc_options_set_epsilon(options, 1e-6), PMC_OK);
  ASSERT_EQ(pmc_check(model, "P=? [ F \"six\" ]", options, &result), PMC_OK) << last_error();
  EXPECT_EQ(pmc_result_sound(result, &sound), PMC_OK);
  EXPECT_EQ(sound, 1);
  EXPECT_EQ(pmc_result_bounds(result, &lo, &hi), PMC_OK);
  EXPECT_LE(lo, 1.0 / 6);
  EXPECT_GE(hi, 1.0 / 6);
  EXPECT_EQ(pmc_result_bound_values(result, lower.data(), upper.data(), 13, &count), PMC_OK);
  EXPECT_EQ(count, 13u);
  EXPECT_EQ(lower[0], lo);
  EXPECT_EQ(upper[0], hi);
  EXPECT_EQ(pmc_result_bound_values(result, nullptr, nullptr, 0, &count), PMC_OK);  // size query
  EXPECT_EQ(pmc_result_bound_values(result, nullptr, upper.data(), 13, &count), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_result_bound_values(result, lower.data(), nullptr, 13, &count), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_result_bound_values(result, lower.data(), upper.data(), 13, nullptr), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_result_sound(result, nullptr), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_result_sound(nullptr, &sound), PMC_ERROR_INVALID_ARGUMENT);
  // Unsound by option: auto takes Gauss-Seidel and says so.
  pmc_result_free(result);
  ASSERT_EQ(pmc_options_set_sound(options, 0), PMC_OK);
  ASSERT_EQ(pmc_check(model, "P=? [ F \"six\" ]", options, &result), PMC_OK) << last_error();
  EXPECT_EQ(pmc_result_sound(result, &sound), PMC_OK);
  EXPECT_EQ(sound, 0);
  EXPECT_EQ(pmc_options_set_sound(nullptr, 1), PMC_ERROR_INVALID_ARGUMENT);
  pmc_result_free(result);
  pmc_options_free(options);
  pmc_model_free(model);
}

// A filter's value is the same in every state; T is an expected time.
TEST(CApiCheck, FiltersAndExpectedTime) {
  pmc_model* model = nullptr;
  ASSERT_EQ(pmc_model_load(k_die.c_str(), nullptr, &model), PMC_OK);
  pmc_result* result = nullptr;
  // P[F "six"] is 1/6 from s=0, 0 from s=1, 1/3 from s=2, 0 from s=3.
  ASSERT_EQ(pmc_check(model, "filter(sum, P=? [ F \"six\" ], s<4)", nullptr, &result), PMC_OK) << last_error();
  std::vector<double> values(13), lower(13), upper(13);
  uint64_t count = 0;
  EXPECT_EQ(pmc_result_values(result, values.data(), values.size(), &count), PMC_OK);
  for (double v : values) EXPECT_NEAR(v, 0.5, 1e-6);
  double lo = 0, hi = 0;
  EXPECT_EQ(pmc_result_bounds(result, &lo, &hi), PMC_OK);
  EXPECT_LE(lo, 0.5);
  EXPECT_GE(hi, 0.5);
  pmc_result_free(result);
  ASSERT_EQ(pmc_check(model, "filter(forall, P>=0.1 [ F \"six\" ], s=2 | s=6)", nullptr, &result), PMC_OK);
  int boolean = 0;
  double value = 0;
  EXPECT_EQ(pmc_result_is_boolean(result, &boolean), PMC_OK);
  EXPECT_EQ(boolean, 1);
  EXPECT_EQ(pmc_result_initial_value(result, &value), PMC_OK);
  EXPECT_EQ(value, 1.0);
  pmc_result_free(result);
  // Eleven thirds coin flips to throw the die.
  ASSERT_EQ(pmc_check(model, "T=? [ F \"done\" ]", nullptr, &result), PMC_OK) << last_error();
  EXPECT_EQ(pmc_result_bounds(result, &lo, &hi), PMC_OK);
  EXPECT_LE(lo, 11.0 / 3);
  EXPECT_GE(hi, 11.0 / 3);
  pmc_result_free(result);
  EXPECT_EQ(pmc_check(model, "filter(avg, \"six\")", nullptr, &result), PMC_ERROR_PROPERTY);
  EXPECT_NE(last_error().find("filter(avg, ...) needs a number"), std::string::npos) << last_error();
  pmc_model_free(model);
}

// Seconds by phase, and freeing a model's device copies.
TEST(CApiCheck, PhaseSecondsAddUpToTheTotal) {
  pmc_model* model = nullptr;
  ASSERT_EQ(pmc_model_load(k_die.c_str(), nullptr, &model), PMC_OK);
  pmc_result* result = nullptr;
  ASSERT_EQ(pmc_check(model, "R{\"coin_flips\"}=? [ F \"done\" ]", nullptr, &result), PMC_OK) << last_error();
  const pmc_phase phases[] = {PMC_PHASE_LOAD,     PMC_PHASE_GPU_STARTUP, PMC_PHASE_PRECOMPUTE, PMC_PHASE_BUILD,
                              PMC_PHASE_TRANSFER, PMC_PHASE_SOLVE,       PMC_PHASE_OTHER};
  double sum = 0;
  for (const pmc_phase phase : phases) {
    double seconds = -1;
    ASSERT_EQ(pmc_result_phase_seconds(result, phase, &seconds), PMC_OK) << phase << ": " << last_error();
    EXPECT_GE(seconds, 0.0) << phase;
    sum += seconds;
  }
  double load = -1, total = -1, whole = -1;
  EXPECT_EQ(pmc_result_phase_seconds(result, PMC_PHASE_LOAD, &load), PMC_OK);
  EXPECT_EQ(load, 0.0) << "pmc_check does not load the model";
  EXPECT_EQ(pmc_result_phase_seconds(result, PMC_PHASE_TOTAL, &total), PMC_OK);
  EXPECT_EQ(total, sum);  // summed in the same order as PhaseTimings::total()
  EXPECT_EQ(pmc_result_seconds(result, &whole), PMC_OK);
  EXPECT_NEAR(total, whole, 1e-9 + 1e-9 * whole);

  // Values outside the enum, NULL arguments: refused, the output untouched.
  double untouched = 42;
  for (const int bad : {8, -1, 1000}) {
    EXPECT_EQ(pmc_result_phase_seconds(result, static_cast<pmc_phase>(bad), &untouched), PMC_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(last_error().find("unknown phase " + std::to_string(bad)), std::string::npos) << last_error();
  }
  EXPECT_EQ(pmc_result_phase_seconds(nullptr, PMC_PHASE_SOLVE, &untouched), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("result"), std::string::npos) << last_error();
  EXPECT_EQ(pmc_result_phase_seconds(result, PMC_PHASE_SOLVE, nullptr), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("out_seconds"), std::string::npos) << last_error();
  EXPECT_EQ(untouched, 42.0);
  pmc_result_free(result);
  pmc_model_free(model);
}

TEST(CApiCheck, ReleaseDeviceCopies) {
  EXPECT_EQ(pmc_model_release_device(nullptr), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("model"), std::string::npos) << last_error();
  pmc_model* model = nullptr;
  ASSERT_EQ(pmc_model_load(k_die.c_str(), nullptr, &model), PMC_OK);
  EXPECT_EQ(pmc_model_release_device(model), PMC_OK) << "nothing to release is fine";
  // Beside checks on other threads (documented thread-safe), and the model
  // is still checked correctly afterwards.
  std::atomic<bool> failed{false};
  std::vector<std::thread> checkers;
  for (int t = 0; t < 2; ++t) {
    checkers.emplace_back([&] {
      for (int i = 0; i < 20; ++i) {
        pmc_result* r = nullptr;
        double value = 0;
        if (pmc_check(model, "P=? [ F \"six\" ]", nullptr, &r) != PMC_OK ||
            pmc_result_initial_value(r, &value) != PMC_OK || std::abs(value - 1.0 / 6) > 1e-5) {
          failed = true;
        }
        pmc_result_free(r);
      }
    });
  }
  for (int i = 0; i < 50; ++i) EXPECT_EQ(pmc_model_release_device(model), PMC_OK);
  for (std::thread& t : checkers) t.join();
  EXPECT_FALSE(failed);
  EXPECT_EQ(pmc_model_release_device(model), PMC_OK);
  pmc_model_free(model);
}

TEST(CApiCheck, ErrorsAndNonConvergence) {
  pmc_model* model = nullptr;
  ASSERT_EQ(pmc_model_load(k_die.c_str(), nullptr, &model), PMC_OK);
  pmc_result* result = nullptr;
  EXPECT_EQ(pmc_check(model, "P=? [ F \"seven\" ]", nullptr, &result), PMC_ERROR_PROPERTY);
  EXPECT_NE(last_error().find("column 9"), std::string::npos) << last_error();
  EXPECT_EQ(result, nullptr);
  EXPECT_EQ(pmc_check(model, "P=? [ F", nullptr, &result), PMC_ERROR_PROPERTY);
  EXPECT_EQ(pmc_check(model, nullptr, nullptr, &result), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_check(nullptr, "P=? [ F \"six\" ]", nullptr, &result), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_check(model, "P=? [ F \"six\" ]", nullptr, nullptr), PMC_ERROR_INVALID_ARGUMENT);

  pmc_options* options = nullptr;
  ASSERT_EQ(pmc_options_create(&options), PMC_OK);
  EXPECT_EQ(pmc_options_set_solver(options, "cpu.magic"), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("cpu.jacobi"), std::string::npos) << "the message lists the known solvers";
  EXPECT_EQ(pmc_options_set_solver(options, nullptr), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_options_set_epsilon(options, 0.0), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_options_set_epsilon(options, NAN), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_options_set_max_iterations(options, 0), PMC_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(pmc_options_set_solver(options, "cpu.jacobi"), PMC_OK);
  ASSERT_EQ(pmc_options_set_max_iterations(options, 2), PMC_OK);
  EXPECT_EQ(pmc_check(model, "P=? [ F \"six\" ]", options, &result), PMC_ERROR_NOT_CONVERGED);
  ASSERT_NE(result, nullptr) << "the unconverged result is still handed over";
  int converged = 1;
  EXPECT_EQ(pmc_result_converged(result, &converged), PMC_OK);
  EXPECT_EQ(converged, 0);
  pmc_result_free(result);

  uint64_t solvers = 0;
  EXPECT_EQ(pmc_solver_count(&solvers), PMC_OK);
  EXPECT_GE(solvers, 5u);
  const char* name = nullptr;
  EXPECT_EQ(pmc_solver_name(0, &name), PMC_OK);
  EXPECT_EQ(pmc_solver_name(solvers, &name), PMC_ERROR_INVALID_ARGUMENT);
  pmc_options_free(options);
  pmc_model_free(model);
}

}  // namespace

namespace {

// A random walk on 0..n-1 from the middle, absorbed at both ends; "goal"
// is the right end. P=? [ F "goal" ] = (n/2)/(n-1); the power method needs
// millions of sweeps to 1e-15, so a check with it runs until cancelled.
pmc_model* build_random_walk(uint64_t n) {
  std::vector<uint64_t> offsets = {0}, columns;
  std::vector<double> values;
  for (uint64_t i = 0; i < n; ++i) {
    if (i == 0 || i + 1 == n) {
      columns.push_back(i);
      values.push_back(1.0);
    } else {
      columns.insert(columns.end(), {i - 1, i + 1});
      values.insert(values.end(), {0.5, 0.5});
    }
    offsets.push_back(columns.size());
  }
  pmc_model* model = nullptr;
  EXPECT_EQ(pmc_model_build_csr(PMC_MODEL_DTMC, n, n, nullptr, offsets.data(), columns.data(), values.data(), nullptr,
                                &model),
            PMC_OK)
      << last_error();
  const uint64_t init = n / 2, goal = n - 1;
  EXPECT_EQ(pmc_model_add_label(model, "init", &init, 1), PMC_OK);
  EXPECT_EQ(pmc_model_add_label(model, "goal", &goal, 1), PMC_OK);
  return model;
}

struct ProgressLog {
  std::atomic<int> calls{0};
  std::string solver;
  uint64_t last_iteration = 0;
  double last_residual = 0;
  bool increasing = true;
  pmc_options* cancel_after_three = nullptr;  // set: the callback itself cancels
};

void on_progress(const char* solver, uint64_t iteration, double residual, double seconds, void* user_data) {
  auto* log = static_cast<ProgressLog*>(user_data);
  log->solver = solver;
  log->increasing = log->increasing && iteration > log->last_iteration && seconds > 0;
  log->last_iteration = iteration;
  log->last_residual = residual;
  if (++log->calls >= 3 && log->cancel_after_three) pmc_options_request_cancel(log->cancel_after_three);
}

TEST(CApiCancel, CancelFromAnotherThreadLeavesTheModelUsable) {
  pmc_model* model = build_random_walk(2001);
  pmc_options* options = nullptr;
  ASSERT_EQ(pmc_options_create(&options), PMC_OK);
  ASSERT_EQ(pmc_options_set_solver(options, "cpu.power"), PMC_OK);
  ASSERT_EQ(pmc_options_set_epsilon(options, 1e-15), PMC_OK);
  ASSERT_EQ(pmc_options_set_max_iterations(options, uint64_t{1} << 60), PMC_OK);
  ProgressLog log;
  ASSERT_EQ(pmc_options_set_progress(options, on_progress, &log), PMC_OK);

  pmc_status status = PMC_OK;
  std::string error;
  pmc_result* result = nullptr;
  std::thread checker([&] {
    status = pmc_check(model, "P=? [ F \"goal\" ]", options, &result);
    error = pmc_last_error();
  });
  // Cancel once the solve is well under way (progress seen), or after 60 s.
  for (int i = 0; i < 6000 && log.calls.load() < 2; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_GE(log.calls.load(), 2) << "no progress reported within 60 s";
  EXPECT_EQ(pmc_options_request_cancel(options), PMC_OK);
  checker.join();
  EXPECT_EQ(status, PMC_ERROR_CANCELLED);
  EXPECT_EQ(error, "cancelled");
  EXPECT_EQ(result, nullptr);
  EXPECT_EQ(log.solver, "cpu.power");
  EXPECT_TRUE(log.increasing);
  EXPECT_GT(log.last_residual, 0.0);

  // The flag stays set: the next check is cancelled at once.
  EXPECT_EQ(pmc_check(model, "P=? [ F \"goal\" ]", options, &result), PMC_ERROR_CANCELLED);
  EXPECT_EQ(result, nullptr);
  // Reset, and the same model checks normally (its cached graph data intact).
  EXPECT_EQ(pmc_options_reset_cancel(options), PMC_OK);
  ASSERT_EQ(pmc_options_set_progress(options, nullptr, nullptr), PMC_OK);
  // cpu.power solves no bounded steps: named, it is an error, not a substitute.
  EXPECT_EQ(pmc_check(model, "P=? [ F<=1000 \"goal\" ]", options, &result), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(pmc_last_error()).find("does not solve"), std::string::npos) << last_error();
  ASSERT_EQ(pmc_options_set_solver(options, "auto"), PMC_OK);
  // Reaching the goal 1000 states away within 1000 steps needs 1000 steps up: 2^-1000 exactly, and cheap to
  // compute (the unbounded walk converges far too slowly for a unit test).
  ASSERT_EQ(pmc_check(model, "P=? [ F<=1000 \"goal\" ]", options, &result), PMC_OK) << last_error();
  double value = 0;
  EXPECT_EQ(pmc_result_initial_value(result, &value), PMC_OK);
  EXPECT_DOUBLE_EQ(value, std::ldexp(1.0, -1000));
  pmc_result_free(result);
  pmc_options_free(options);
  pmc_model_free(model);
}

TEST(CApiCancel, TheProgressCallbackMayCancel) {
  pmc_model* model = build_random_walk(2001);
  pmc_options* options = nullptr;
  ASSERT_EQ(pmc_options_create(&options), PMC_OK);
  ASSERT_EQ(pmc_options_set_solver(options, "cpu.jacobi"), PMC_OK);
  ASSERT_EQ(pmc_options_set_epsilon(options, 1e-15), PMC_OK);
  ASSERT_EQ(pmc_options_set_max_iterations(options, uint64_t{1} << 60), PMC_OK);
  ProgressLog log;
  log.cancel_after_three = options;
  ASSERT_EQ(pmc_options_set_progress(options, on_progress, &log), PMC_OK);
  pmc_result* result = nullptr;
  EXPECT_EQ(pmc_check(model, "P=? [ F \"goal\" ]", options, &result), PMC_ERROR_CANCELLED);
  EXPECT_EQ(log.calls.load(), 3);
  EXPECT_EQ(log.solver, "cpu.jacobi");
  pmc_options_free(options);
  pmc_model_free(model);
}

TEST(CApiCancel, BadArguments) {
  EXPECT_EQ(pmc_options_request_cancel(nullptr), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_options_reset_cancel(nullptr), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_options_set_progress(nullptr, on_progress, nullptr), PMC_ERROR_INVALID_ARGUMENT);
  // A fresh handle is not cancelled; a cancelled one that is reset checks.
  pmc_model* model = nullptr;
  ASSERT_EQ(pmc_model_load(k_die.c_str(), nullptr, &model), PMC_OK);
  pmc_options* options = nullptr;
  ASSERT_EQ(pmc_options_create(&options), PMC_OK);
  pmc_result* result = nullptr;
  ASSERT_EQ(pmc_options_request_cancel(options), PMC_OK);
  EXPECT_EQ(pmc_check(model, "P=? [ F \"six\" ]", options, &result), PMC_ERROR_CANCELLED);
  ASSERT_EQ(pmc_options_reset_cancel(options), PMC_OK);
  ASSERT_EQ(pmc_check(model, "P=? [ F \"six\" ]", options, &result), PMC_OK) << last_error();
  pmc_result_free(result);
  pmc_options_free(options);
  pmc_model_free(model);
}

}  // namespace
