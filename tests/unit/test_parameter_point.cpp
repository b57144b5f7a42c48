// pCTMCs checked at a parameter point: the rows of pctmc/reference.tsv in the
// reference models ($PMC_MODELS) through check() with CheckOptions::parameters
// and through the C ABI's pmc_options_set_parameter, against PRISM's value
// within 1e-7 absolute; and each way a point can be wrong gives a clear error.
// The default run takes the models up to 20000 transitions (am_10_4, sir_100:
// about 3 s on 2 cores); sir_200 at ki=0.3 alone needs 375k uniformisation
// steps (a minute), so every row runs in the `full` suite
// (parameter_point_all, PMC_TEST_MAX_TRANSITIONS=0).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "check/check.hpp"
#include "common/error.hpp"
#include "model/parameter_point.hpp"
#include "pmc/pmc.h"
#include "support/manifest.hpp"
#include "support/pctmc.hpp"

namespace pmc {
namespace {

// Under AddressSanitizer the uniformisation runs ~40x slower: the sir rows
// whose infection rate makes q*t large (ki >= 0.05: 20k-90k steps each) are
// left to the release build, which checks every row's value; the sanitized
// run still covers every code path on the cheaper rows.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool k_sanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool k_sanitized = true;
#else
constexpr bool k_sanitized = false;
#endif
#else
constexpr bool k_sanitized = false;
#endif

bool costly_under_sanitizer(const testing::PctmcReference& r) {
  const auto ki = r.point.find("ki");
  return k_sanitized && ki != r.point.end() && ki->second >= 0.05;
}

#define REQUIRE_MODELS()                                                                 \
  if (testing::pctmc_dir().empty()) GTEST_SKIP() << testing::missing_models_message(); \
  static_assert(true)

TEST(ParameterPoint, EveryReferenceRowMatchesPrism) {
  REQUIRE_MODELS();
  const auto references = testing::pctmc_references();
  ASSERT_GE(references.size(), 19u);
  const uint64_t limit = testing::max_test_transitions(20000);
  size_t checked = 0;
  for (const testing::PctmcReference& r : references) {
    if (testing::load_pctmc(r.model)->num_entries() > limit || costly_under_sanitizer(r)) continue;
    ++checked;
    CheckOptions options;
    for (const auto& [name, v] : r.point) options.parameters[name] = v;
    const CheckResult result = check(*testing::load_pctmc(r.model), r.property, options);
    EXPECT_NEAR(result.initial_value, r.value, 1e-7) << r.model << " at " << describe_point(options.parameters);
    EXPECT_TRUE(result.sound) << r.model;  // time-bounded: exact up to Fox-Glynn's bound
    EXPECT_LE(result.initial_lower, r.value + 1e-9);
    EXPECT_GE(result.initial_upper, r.value - 1e-9);
  }
  EXPECT_GE(checked, k_sanitized ? 10u : 14u);
}

TEST(ParameterPoint, EveryReferenceRowMatchesPrismThroughTheCAbi) {
  REQUIRE_MODELS();
  std::string last_model;
  pmc_model* model = nullptr;
  size_t checked = 0;
  for (const testing::PctmcReference& r : testing::pctmc_references()) {
    // The plumbing, on am_10_4's rows and one sir_100 row: the C++ test
    // above covers every row's value.
    if (r.model != "am_10_4.drn" && !(r.model == "sir_100.drn" && r.point.at("ki") == 0.02)) continue;
    if (r.model != last_model) {
      pmc_model_free(model);
      model = nullptr;
      ASSERT_EQ(pmc_model_load((testing::pctmc_dir() + "/" + r.model).c_str(), nullptr, &model), PMC_OK) << pmc_last_error();
      last_model = r.model;
    }
    pmc_options* options = nullptr;
    ASSERT_EQ(pmc_options_create(&options), PMC_OK);
    for (const auto& [name, v] : r.point) ASSERT_EQ(pmc_options_set_parameter(options, name.c_str(), v), PMC_OK);
    pmc_result* result = nullptr;
    ASSERT_EQ(pmc_check(model, r.property.c_str(), options, &result), PMC_OK) << pmc_last_error();
    double v = 0;
    ASSERT_EQ(pmc_result_initial_value(result, &v), PMC_OK);
    EXPECT_NEAR(v, r.value, 1e-7) << r.model;
    ++checked;
    pmc_result_free(result);
    // Without the point, the same check is a clear error.
    ASSERT_EQ(pmc_options_clear_parameters(options), PMC_OK);
    result = nullptr;
    EXPECT_EQ(pmc_check(model, r.property.c_str(), options, &result), PMC_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(result, nullptr);
    EXPECT_NE(std::string(pmc_last_error()).find("pmc synth"), std::string::npos) << pmc_last_error();
    pmc_options_free(options);
  }
  pmc_model_free(model);
  EXPECT_EQ(checked, 7u);  // am_10_4's six rows and one of sir_100
}

std::string check_error(const Model& m, const ParameterPoint& point) {
  CheckOptions options;
  options.parameters = point;
  try {
    check(m, "P=? [ F<=1 \"correct\" ]", options);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument) << e.what();
    return e.what();
  }
  return "(no error)";
}

TEST(ParameterPoint, BadPointsAreClearErrors) {
  REQUIRE_MODELS();
  const ModelPtr am = testing::load_pctmc("am_10_4.drn");
  {
    const std::string missing = check_error(*am, {{"k1", 1}, {"k2", 1}});
    EXPECT_NE(missing.find("no value for k3"), std::string::npos) << missing;
    const std::string unknown = check_error(*am, {{"k1", 1}, {"k2", 1}, {"k3", 1}, {"k4", 2}});
    EXPECT_NE(unknown.find("unknown parameter 'k4' (the model's parameters are k1, k2, k3)"), std::string::npos) << unknown;
    const std::string below = check_error(*am, {{"k1", -1}, {"k2", 1}, {"k3", 1}});
    EXPECT_NE(below.find("parameter k1 = -1 is outside its range [0, inf)"), std::string::npos) << below;
    const std::string none = check_error(*am, {});
    EXPECT_NE(none.find("give a value for each parameter"), std::string::npos) << none;
  }
  // A point for a model without parameters.
  ModelParts p;
  p.type = ModelType::dtmc;
  p.num_states = 1;
  p.row_offsets = {0, 1};
  p.columns = {0};
  p.values = {1};
  const std::string plain = check_error(*Model::create(p), {{"k1", 1}});
  EXPECT_NE(plain.find("the model is a dtmc without parameters"), std::string::npos) << plain;
}

TEST(ParameterPoint, AssignmentsParse) {
  ParameterPoint point;
  parse_parameter_assignments("ki=0.02,kr=5e-2", point);
  parse_parameter_assignments("ki=0.03", point);
  EXPECT_EQ(point.at("ki"), 0.03);
  EXPECT_EQ(point.at("kr"), 0.05);
  EXPECT_EQ(describe_point(point), "ki=0.03,kr=0.05");
  for (const char* bad : {"", "ki", "=1", "ki=", "ki=abc", "ki=inf", "ki=1,"}) {
    ParameterPoint p;
    EXPECT_THROW(parse_parameter_assignments(bad, p), Error) << bad;
  }
  pmc_options* options = nullptr;
  ASSERT_EQ(pmc_options_create(&options), PMC_OK);
  EXPECT_EQ(pmc_options_set_parameter(options, nullptr, 1), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_options_set_parameter(options, "k", NAN), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_options_set_parameter(nullptr, "k", 1), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_options_clear_parameters(nullptr), PMC_ERROR_INVALID_ARGUMENT);
  pmc_options_free(options);
}

}  // namespace
}  // namespace pmc
