// The C ABI of parameter synthesis: pmc_synthesis_request's setters and
// pmc_synthesize reject bad arguments with a clear status and message, and
// a good call gives regions that partition the space with consistent
// classes and bounds.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "solver/device/devices.hpp"
#include "pmc/pmc.h"
#include "support/manifest.hpp"

namespace {

std::string model_path(const char* name) {
  const std::string root = pmc::testing::models_root();
  if (root.empty()) return "";
  const std::string path = root + "/pctmc/" + name;
  return std::ifstream(path) ? path : "";
}

std::string last_error() { return pmc_last_error(); }

struct RequestFree {
  void operator()(pmc_synthesis_request* request) const { pmc_synthesis_request_free(request); }
};
using RequestPtr = std::unique_ptr<pmc_synthesis_request, RequestFree>;

// A request with ranges for `names` (may be empty), the mode, threshold
// (NULL: none) and epsilon; the status of the first call that fails, so a
// test sees a setter's refusal just as pmc_synthesize's. `mode` is an int
// so that BadArguments can pass a value outside the enum, as a C caller
// may: holding 7 in a pmc_synth_mode variable is undefined in C++ (clang's
// UBSan flags the load), a converted prvalue is not.
pmc_status make_request(const char* property, const std::vector<const char*>& names, const double* lo,
                        const double* hi, int mode, const char* threshold, double epsilon, RequestPtr& out) {
  pmc_synthesis_request* request = nullptr;
  if (pmc_status s = pmc_synthesis_request_create(property, &request); s != PMC_OK) return s;
  out.reset(request);
  for (size_t i = 0; i < names.size(); ++i) {
    if (pmc_status s = pmc_synthesis_request_set_parameter_range(request, names[i], lo[i], hi[i]); s != PMC_OK) {
      return s;
    }
  }
  if (pmc_status s = pmc_synthesis_request_set_mode(request, static_cast<pmc_synth_mode>(mode)); s != PMC_OK) return s;
  if (threshold != nullptr) {
    if (pmc_status s = pmc_synthesis_request_set_threshold(request, threshold); s != PMC_OK) return s;
  }
  return pmc_synthesis_request_set_epsilon(request, epsilon);
}

// pmc_synthesize with a request made by make_request.
pmc_status synthesize(const pmc_model* model, const char* property, const std::vector<const char*>& names,
                      const double* lo, const double* hi, int mode, const char* threshold, double epsilon,
                      const pmc_options* options, pmc_synth_result** out_result) {
  RequestPtr request;
  if (pmc_status s = make_request(property, names, lo, hi, mode, threshold, epsilon, request); s != PMC_OK) return s;
  return pmc_synthesize(model, request.get(), options, out_result);
}

class SynthApi : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string path = model_path("am_10_4.drn");
    if (path.empty()) GTEST_SKIP() << pmc::testing::missing_models_message();
    ASSERT_EQ(pmc_model_load(path.c_str(), nullptr, &model_), PMC_OK) << last_error();
  }
  void TearDown() override { pmc_model_free(model_); }

  pmc_status run(const std::vector<const char*>& names, const std::vector<double>& lo, const std::vector<double>& hi,
                 int mode, const char* threshold, const char* property = k_property) {
    pmc_synth_result* r = nullptr;
    const pmc_status s = synthesize(model_, property, names, lo.data(), hi.data(), mode, threshold, 0.2, nullptr, &r);
    if (s != PMC_OK) { EXPECT_EQ(r, nullptr); }
    pmc_synth_result_free(r);
    return s;
  }

  static constexpr const char* k_property = "P=? [ F[10,10] \"correct\" ]";
  pmc_model* model_ = nullptr;
  const std::vector<const char*> names_{"k1", "k2", "k3"};
};

TEST_F(SynthApi, ThresholdRegions) {
  const double lo[] = {1, 1, 1}, hi[] = {3, 3, 3};
  pmc_synth_result* r = nullptr;
  ASSERT_EQ(synthesize(model_, k_property, names_, lo, hi, PMC_SYNTH_THRESHOLD, ">=0.9", 0.2, nullptr, &r), PMC_OK)
      << last_error();
  uint64_t params = 0, regions = 0;
  ASSERT_EQ(pmc_synth_result_num_parameters(r, &params), PMC_OK);
  EXPECT_EQ(params, 3u);
  const char* name = nullptr;
  ASSERT_EQ(pmc_synth_result_parameter_name(r, 1, &name), PMC_OK);
  EXPECT_STREQ(name, "k2");
  EXPECT_EQ(pmc_synth_result_parameter_name(r, 3, &name), PMC_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(pmc_synth_result_num_regions(r, &regions), PMC_OK);
  ASSERT_GT(regions, 1u);
  double volume = 0;
  for (uint64_t i = 0; i < regions; ++i) {
    double l[3], u[3], vl = 0, vu = 0;
    pmc_region_class c;
    ASSERT_EQ(pmc_synth_result_region(r, i, l, u, 3, &c, &vl, &vu), PMC_OK) << last_error();
    EXPECT_LE(vl, vu);
    if (c == PMC_REGION_TRUE) { EXPECT_GE(vl, 0.9); }
    if (c == PMC_REGION_FALSE) { EXPECT_LT(vu, 0.9); }
    EXPECT_NE(c, PMC_REGION_OPTIMUM);
    volume += (u[0] - l[0]) * (u[1] - l[1]) * (u[2] - l[2]) / 8;
  }
  EXPECT_NEAR(volume, 1.0, 1e-12);
  double l[3], u[3];
  EXPECT_EQ(pmc_synth_result_region(r, 0, l, u, 2, nullptr, nullptr, nullptr), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_synth_result_region(r, regions, l, u, 3, nullptr, nullptr, nullptr), PMC_ERROR_INVALID_ARGUMENT);
  double fraction = 1, olo, ohi;
  EXPECT_EQ(pmc_synth_result_undecided_fraction(r, &fraction), PMC_OK);
  EXPECT_LE(fraction, 0.2);
  EXPECT_EQ(pmc_synth_result_optimum(r, &olo, &ohi), PMC_ERROR_UNSUPPORTED);
  int converged = 0;
  EXPECT_EQ(pmc_synth_result_converged(r, &converged), PMC_OK);
  EXPECT_EQ(converged, 1);
  uint64_t analysed = 0;
  double seconds = -1;
  const char* solver = nullptr;
  EXPECT_EQ(pmc_synth_result_stats(r, &analysed, &seconds, &solver), PMC_OK);
  EXPECT_GE(analysed, regions);
  // auto: the GPU solver where a GPU is usable.
  EXPECT_STREQ(solver, pmc::discover_devices().devices.empty() ? "cpu.param-bounds" : "gpu.param-bounds");
  pmc_synth_result_free(r);
}

TEST_F(SynthApi, MaxOptimum) {
  const double lo[] = {1, 1, 1}, hi[] = {3, 3, 1};
  pmc_synth_result* r = nullptr;
  ASSERT_EQ(synthesize(model_, k_property, names_, lo, hi, PMC_SYNTH_MAX, nullptr, 0.05, nullptr, &r), PMC_OK)
      << last_error();
  double olo = 0, ohi = 0;
  ASSERT_EQ(pmc_synth_result_optimum(r, &olo, &ohi), PMC_OK);
  EXPECT_LE(olo, ohi);
  EXPECT_LE(ohi - olo, 0.05 + 1e-12);
  pmc_synth_result_free(r);
}

TEST_F(SynthApi, BadArguments) {
  const std::vector<double> lo{1, 1, 1}, hi{2, 2, 2};
  EXPECT_EQ(run({"k1", "k2", "nope"}, lo, hi, PMC_SYNTH_THRESHOLD, ">=0.9"), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("unknown parameter"), std::string::npos) << last_error();
  EXPECT_EQ(run(names_, {1, 3, 1}, hi, PMC_SYNTH_THRESHOLD, ">=0.9"), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("lower bound 3 is above upper bound 2"), std::string::npos) << last_error();
  EXPECT_EQ(run(names_, {1, 1, -5}, hi, PMC_SYNTH_THRESHOLD, ">=0.9"), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("negative"), std::string::npos) << last_error();
  EXPECT_EQ(run(names_, {1, 1, NAN}, hi, PMC_SYNTH_THRESHOLD, ">=0.9"), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(run({"k1", "k2"}, {1, 1}, {2, 2}, PMC_SYNTH_THRESHOLD, ">=0.9"), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("no range for parameter k3"), std::string::npos) << last_error();
  // Setting k1 twice replaces its range: k2 has none.
  EXPECT_EQ(run({"k1", "k1", "k3"}, lo, hi, PMC_SYNTH_THRESHOLD, ">=0.9"), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("no range for parameter k2"), std::string::npos) << last_error();
  EXPECT_EQ(run(names_, lo, hi, PMC_SYNTH_THRESHOLD, "=0.9"), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("bad threshold"), std::string::npos) << last_error();
  EXPECT_EQ(run(names_, lo, hi, PMC_SYNTH_THRESHOLD, ">=abc"), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(run(names_, lo, hi, PMC_SYNTH_THRESHOLD, nullptr), PMC_ERROR_INVALID_ARGUMENT);  // no threshold anywhere
  EXPECT_EQ(run(names_, lo, hi, PMC_SYNTH_MAX, ">=0.9"), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(run(names_, lo, hi, 7, nullptr), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(run(names_, lo, hi, PMC_SYNTH_MAX, nullptr, "P=? [ F \"correct\" ]"), PMC_ERROR_UNSUPPORTED);
  EXPECT_NE(last_error().find("upper time bound"), std::string::npos) << last_error();
  EXPECT_EQ(run(names_, lo, hi, PMC_SYNTH_MAX, nullptr, "S=? [ \"correct\" ]"), PMC_ERROR_UNSUPPORTED);
  EXPECT_EQ(run(names_, lo, hi, PMC_SYNTH_MAX, nullptr, "P=? [ F<=1 \"nope\" ]"), PMC_ERROR_PROPERTY);
  EXPECT_EQ(run(names_, lo, hi, PMC_SYNTH_MAX, nullptr, "P=? [ F<=1 "), PMC_ERROR_PROPERTY);  // syntax errors give the column
  EXPECT_EQ(run(names_, lo, hi, PMC_SYNTH_THRESHOLD, ">=0.9"), PMC_OK) << last_error();
  pmc_synth_result* r = nullptr;
  RequestPtr request;
  ASSERT_EQ(make_request(k_property, names_, lo.data(), hi.data(), PMC_SYNTH_MAX, nullptr, 0, request), PMC_OK);
  EXPECT_EQ(pmc_synthesize(nullptr, request.get(), nullptr, &r), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("model is NULL"), std::string::npos) << last_error();
  EXPECT_EQ(pmc_synthesize(model_, nullptr, nullptr, &r), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("request is NULL"), std::string::npos) << last_error();
  EXPECT_EQ(pmc_synthesize(model_, request.get(), nullptr, nullptr), PMC_ERROR_INVALID_ARGUMENT);
  pmc_synthesis_request* made = nullptr;
  EXPECT_EQ(pmc_synthesis_request_create(nullptr, &made), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("property is NULL"), std::string::npos) << last_error();
  EXPECT_EQ(pmc_synthesis_request_create(k_property, nullptr), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(made, nullptr);
  EXPECT_EQ(pmc_synthesis_request_set_mode(nullptr, PMC_SYNTH_MIN), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_synthesis_request_set_threshold(nullptr, ">=0.5"), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_synthesis_request_set_epsilon(nullptr, 0.1), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_synthesis_request_set_epsilon(request.get(), NAN), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("epsilon is NaN"), std::string::npos) << last_error();
  EXPECT_EQ(pmc_synthesis_request_set_parameter_range(nullptr, "k1", 1, 2), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_synthesis_request_set_parameter_range(request.get(), nullptr, 1, 2), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("name is NULL"), std::string::npos) << last_error();
  EXPECT_EQ(pmc_synthesis_request_clear_parameter_ranges(nullptr), PMC_ERROR_INVALID_ARGUMENT);
  pmc_synthesis_request_free(nullptr);
  EXPECT_EQ(r, nullptr);
  EXPECT_EQ(pmc_synth_result_num_regions(nullptr, nullptr), PMC_ERROR_INVALID_ARGUMENT);
  pmc_synth_result_free(nullptr);
}

TEST(SynthApiModels, NonParametricModel) {
  // A 2-state CTMC: synthesis needs a pCTMC.
  const uint64_t offsets[] = {0, 1, 1};
  const uint64_t columns[] = {1};
  const double values[] = {2.0};
  pmc_model* model = nullptr;
  ASSERT_EQ(pmc_model_build_csr(PMC_MODEL_CTMC, 2, 2, nullptr, offsets, columns, values, nullptr, &model), PMC_OK)
      << last_error();
  const uint64_t goal[] = {1};
  ASSERT_EQ(pmc_model_add_label(model, "goal", goal, 1), PMC_OK) << last_error();
  const double lo[] = {1}, hi[] = {2};
  pmc_synth_result* r = nullptr;
  EXPECT_EQ(synthesize(model, "P=? [ F<=1 \"goal\" ]", {"k"}, lo, hi, PMC_SYNTH_MAX, nullptr, 0, nullptr, &r),
            PMC_ERROR_UNSUPPORTED);
  EXPECT_NE(last_error().find("parametric"), std::string::npos) << last_error();
  pmc_model_free(model);
}

TEST(SynthApiModels, BuiltParametricModel) {
  // 0 --(k)--> 1: P[F<=1 goal] = 1 - exp(-k), increasing in k.
  const uint64_t offsets[] = {0, 1, 1};
  const uint64_t columns[] = {1};
  const double constants[] = {0.0};
  const double coefficients[] = {1.0};
  const char* names[] = {"k"};
  const double plo[] = {0}, phi[] = {10};
  pmc_model* model = nullptr;
  ASSERT_EQ(pmc_model_build_parametric_csr(2, offsets, columns, constants, 1, names, coefficients, plo, phi, nullptr, &model),
            PMC_OK)
      << last_error();
  const uint64_t goal[] = {1}, init[] = {0};
  ASSERT_EQ(pmc_model_add_label(model, "goal", goal, 1), PMC_OK) << last_error();
  ASSERT_EQ(pmc_model_add_label(model, "init", init, 1), PMC_OK) << last_error();
  const double lo[] = {1}, hi[] = {3};
  pmc_synth_result* r = nullptr;
  ASSERT_EQ(synthesize(model, "P=? [ F<=1 \"goal\" ]", {"k"}, lo, hi, PMC_SYNTH_MAX, nullptr, 0.001, nullptr, &r),
            PMC_OK)
      << last_error();
  double olo = 0, ohi = 0;
  ASSERT_EQ(pmc_synth_result_optimum(r, &olo, &ohi), PMC_OK);
  EXPECT_LE(olo, 1 - std::exp(-3.0) + 1e-9);
  EXPECT_GE(ohi, 1 - std::exp(-3.0) - 1e-9);
  pmc_synth_result_free(r);
  // Without ranges the model's declared range [0, 10] is used: a request
  // whose ranges were cleared, used for two calls.
  RequestPtr request;
  ASSERT_EQ(make_request("P>=0.5 [ F<=1 \"goal\" ]", {"k"}, lo, hi, PMC_SYNTH_THRESHOLD, nullptr, 0.01, request),
            PMC_OK);
  ASSERT_EQ(pmc_synthesis_request_clear_parameter_ranges(request.get()), PMC_OK);
  ASSERT_EQ(pmc_synthesize(model, request.get(), nullptr, &r), PMC_OK) << last_error();
  uint64_t first_regions = 0;
  ASSERT_EQ(pmc_synth_result_num_regions(r, &first_regions), PMC_OK);
  pmc_synth_result_free(r);
  ASSERT_EQ(pmc_synthesize(model, request.get(), nullptr, &r), PMC_OK) << last_error();
  uint64_t regions = 0;
  ASSERT_EQ(pmc_synth_result_num_regions(r, &regions), PMC_OK);
  EXPECT_EQ(regions, first_regions);
  for (uint64_t i = 0; i < regions; ++i) {
    double l, u;
    pmc_region_class c;
    ASSERT_EQ(pmc_synth_result_region(r, i, &l, &u, 1, &c, nullptr, nullptr), PMC_OK);
    // 1 - exp(-k) >= 0.5 exactly when k >= ln 2.
    if (c == PMC_REGION_TRUE) { EXPECT_GE(l, std::log(2.0) - 1e-9); }
    if (c == PMC_REGION_FALSE) { EXPECT_LE(u, std::log(2.0) + 1e-9); }
  }
  pmc_synth_result_free(r);
  pmc_model_free(model);
}

}  // namespace
