// Parametric bounds (cpu.param-bounds) and parameter synthesis on the
// pCTMCs of $PMC_MODELS/pctmc (Češka et al. 2017): the bounds of a
// region contain PRISM's value at every reference point in it, shrink to
// nothing with the region, equal pmc's own CTMC checker at a point; and
// synthesis never classifies a region against a value inside it.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <random>
#include <sstream>

#include "check/check.hpp"
#include "check/parametric.hpp"
#include "common/error.hpp"
#include "formats/model_files.hpp"
#include "solver/param/param_solvers.hpp"
#include "support/manifest.hpp"
#include "support/pctmc.hpp"
#include "synth/synthesis.hpp"

namespace pmc {
namespace {

using testing::box_around;
using testing::instantiate;
using testing::pctmc_dir;
using testing::point_of;
using Reference = testing::PctmcReference;

ModelPtr load(const std::string& name) { return testing::load_pctmc(name); }
std::vector<Reference> references() { return testing::pctmc_references(); }

#define REQUIRE_MODELS()                                                        \
  if (pctmc_dir().empty()) GTEST_SKIP() << testing::missing_models_message(); \
  static_assert(true)

std::vector<ParamBounds> bounds(const ParametricQuery& q, const std::vector<ParamBox>& boxes) {
  std::vector<ParamBounds> out;
  param_bounds_cpu(q.problem, boxes, out, SolverSettings{});
  return out;
}

uint64_t initial(const Model& m) { return m.initial_states()->find_next(0); }

TEST(ParamBounds, ContainReferenceValues) {
  REQUIRE_MODELS();
  // Points cheap enough for a unit test (the uniformisation steps grow
  // with the rates): all but the largest-rate ones.
  int checked = 0;
  for (const auto& model_name : {"am_10_4.drn", "sir_100.drn"}) {
    const ModelPtr m = load(model_name);
    std::vector<ParamBox> boxes;
    std::vector<double> refs;
    std::string property;
    for (const Reference& r : references()) {
      if (r.model != model_name) continue;
      double largest = 0;
      for (auto& [name, v] : r.point) largest = std::max(largest, v);
      if ((r.model == "am_10_4.drn" && largest > 60) || (r.model == "sir_100.drn" && largest > 0.1)) continue;
      property = r.property;
      boxes.push_back(box_around(point_of(*m, r.point), 0.01));
      refs.push_back(r.value);
    }
    ParametricQuery q = parametric_query(*m, property);
    q.problem.keep_states = {initial(*m)};
    const auto out = bounds(q, boxes);
    for (size_t i = 0; i < boxes.size(); ++i) {
      SCOPED_TRACE(::testing::Message() << model_name << " reference " << refs[i]);
      EXPECT_LE(out[i].lower[0], refs[i] + 1e-7);
      EXPECT_GE(out[i].upper[0], refs[i] - 1e-7);
      EXPECT_LT(out[i].lower[0], out[i].upper[0]);
      ++checked;
    }
  }
  EXPECT_GE(checked, 8);
}

TEST(ParamBounds, WidthShrinksWithTheRegion) {
  REQUIRE_MODELS();
  const ModelPtr m = load("sir_100.drn");
  ParametricQuery q = parametric_query(*m, R"(P=? [ "infected" U[100,120] "extinct" ])");
  q.problem.keep_states = {initial(*m)};
  const std::vector<double> p{0.02, 0.05};
  const auto out = bounds(q, {box_around(p, 0.1), box_around(p, 0.01), box_around(p, 0.001), box_around(p, 0.0001)});
  double previous = 2;
  for (const ParamBounds& b : out) {
    const double width = b.upper[0] - b.lower[0];
    EXPECT_LT(width, previous / 4) << "width " << width;
    EXPECT_LE(b.lower[0], 0.28365627485567524 + 1e-7);
    EXPECT_GE(b.upper[0], 0.28365627485567524 - 1e-7);
    previous = width;
  }
  EXPECT_LT(previous, 1e-3);
}

// At a point the bounds collapse onto the value; compare every state with
// pmc's CTMC checker on the instantiated model.
void expect_point_matches_checker(const ModelPtr& m, const std::string& property, const std::vector<double>& p) {
  ParametricQuery q = parametric_query(*m, property);
  ParamBox point{p, p};
  const auto out = bounds(q, {point});
  CheckOptions options;
  options.settings.epsilon = 1e-10;
  const CheckResult expected = check(*instantiate(*m, p), property, options);
  ASSERT_EQ(out[0].lower.size(), m->num_states());
  double worst = 0;
  for (uint64_t s = 0; s < m->num_states(); ++s) {
    worst = std::max({worst, std::fabs(out[0].lower[s] - expected.values[s]),
                      std::fabs(out[0].upper[s] - expected.values[s])});
  }
  EXPECT_LT(worst, 1e-9) << property;
}

TEST(ParamBounds, PointEqualsCtmcChecker) {
  REQUIRE_MODELS();
  expect_point_matches_checker(load("am_10_4.drn"), R"(P=? [ F[100,100] "correct" ])", {1, 1, 1});
  expect_point_matches_checker(load("am_10_4.drn"), R"(P=? [ !"wrong" U<=2.5 "correct" ])", {3, 30, 60});
  expect_point_matches_checker(load("sir_100.drn"), R"(P=? [ "infected" U[100,120] "extinct" ])", {0.02, 0.05});
  expect_point_matches_checker(load("sir_100.drn"), R"(P=? [ F<=50 "extinct" ])", {0.0123, 0.0456});
}

TEST(ParamBounds, CumulativeReward) {
  REQUIRE_MODELS();
  const ModelPtr m = testing::sir_with_infected_reward();
  const std::string property = R"(R{"infected"}=? [ C<=30 ])";
  expect_point_matches_checker(m, property, {0.02, 0.05});
  // A region's bounds contain the values at its corners.
  ParametricQuery q = parametric_query(*m, property);
  q.problem.keep_states = {initial(*m)};
  const ParamBox box{{0.018, 0.045}, {0.022, 0.055}};
  const auto out = bounds(q, {box});
  for (double ki : {0.018, 0.022}) {
    for (double kr : {0.045, 0.055}) {
      const double v = check(*instantiate(*m, {ki, kr}), property).initial_value;
      EXPECT_LE(out[0].lower[0], v + 1e-9);
      EXPECT_GE(out[0].upper[0], v - 1e-9);
    }
  }
}

TEST(ParamBounds, Unsupported) {
  REQUIRE_MODELS();
  const ModelPtr m = load("am_10_4.drn");
  EXPECT_THROW(parametric_query(*m, R"(P=? [ F "correct" ])"), Error);
  EXPECT_THROW(parametric_query(*m, R"(S=? [ "correct" ])"), Error);
  EXPECT_THROW(parametric_query(*m, R"(P=? [ F<=1 P>0.5 [ F<=1 "correct" ] ])"), Error);
  EXPECT_THROW(parametric_query(*m, R"(P=? [ F<=1 "nolabel" ])"), Error);
  EXPECT_THROW(parametric_query(*instantiate(*m, {1, 1, 1}), R"(P=? [ F<=1 "correct" ])"), Error);
}

// Exact values of random points of `space`, from pmc's CTMC checker.
struct Sample {
  std::vector<double> p;
  double value;
};
std::vector<Sample> samples(const ModelPtr& m, const std::string& property, const std::vector<ParamRange>& space,
                            int count) {
  std::mt19937 rng(12345);
  std::vector<Sample> out;
  for (int i = 0; i < count; ++i) {
    std::vector<double> p;
    for (const ParamRange& r : space) p.push_back(std::uniform_real_distribution<double>(r.lower, r.upper)(rng));
    out.push_back({p, check(*instantiate(*m, p), property).initial_value});
  }
  return out;
}

bool inside(const SynthRegion& r, const std::vector<double>& p) {
  for (size_t k = 0; k < p.size(); ++k) {
    if (p[k] < r.lower[k] || p[k] > r.upper[k]) return false;
  }
  return true;
}

TEST(Synthesis, ThresholdNeverMisclassifies) {
  REQUIRE_MODELS();
  const ModelPtr m = load("am_10_4.drn");
  const std::string property = R"(P=? [ F[10,10] "correct" ])";
  const std::vector<ParamRange> space{{"k1", 1, 5}, {"k2", 1, 5}, {"k3", 1, 5}};
  SynthesisOptions options;
  options.comparison = property::Comparison::greater_equal;
  options.threshold = 0.9;
  options.epsilon = 0.1;
  const SynthesisResult result = synthesize(*m, property, space, options);
  EXPECT_TRUE(result.converged);
  EXPECT_LE(result.undecided_fraction, 0.1);
  int counts[4] = {0, 0, 0, 0};
  double volume = 0;
  for (const SynthRegion& r : result.regions) {
    ++counts[static_cast<int>(r.region_class)];
    double v = 1;
    for (size_t k = 0; k < 3; ++k) v *= (r.upper[k] - r.lower[k]) / 4;
    volume += v;
  }
  EXPECT_NEAR(volume, 1.0, 1e-12);  // a partition of the space
  EXPECT_GT(counts[0], 0);
  EXPECT_GT(counts[1], 0);
  for (const Sample& s : samples(m, property, space, 40)) {
    for (const SynthRegion& r : result.regions) {
      if (!inside(r, s.p)) continue;
      EXPECT_LE(r.value_lower, s.value + 1e-9);
      EXPECT_GE(r.value_upper, s.value - 1e-9);
      if (r.region_class == RegionClass::satisfied) { EXPECT_GE(s.value, 0.9); }
      if (r.region_class == RegionClass::violated) { EXPECT_LT(s.value, 0.9); }
    }
  }
}

TEST(Synthesis, ThresholdAgainstReferencePoints) {
  REQUIRE_MODELS();
  // PRISM's value at (1,1,1) is 0.99825: regions around it must not be false.
  const ModelPtr m = load("am_10_4.drn");
  SynthesisOptions options;
  options.epsilon = 0.2;
  options.max_regions = 40;  // refinement near the threshold is slow; a few levels suffice
  const SynthesisResult result = synthesize(*m, R"(P>=0.9983 [ F[100,100] "correct" ])",
                                            {{"k1", 1, 1.2}, {"k2", 1, 1.2}, {"k3", 1, 1.2}}, options);
  EXPECT_GT(result.regions.size(), 1u);
  for (const SynthRegion& r : result.regions) {
    EXPECT_LE(r.value_lower, 1.0);
    if (inside(r, {1, 1, 1})) { EXPECT_NE(r.region_class, RegionClass::satisfied); }
  }
}

TEST(Synthesis, MaxContainsTheBestValue) {
  REQUIRE_MODELS();
  const ModelPtr m = load("am_10_4.drn");
  const std::string property = R"(P=? [ F[10,10] "correct" ])";
  const std::vector<ParamRange> space{{"k1", 1, 5}, {"k2", 1, 5}, {"k3", 1, 1}};
  SynthesisOptions options;
  options.mode = SynthMode::maximum;
  options.epsilon = 0.02;
  const SynthesisResult result = synthesize(*m, property, space, options);
  EXPECT_TRUE(result.converged);
  EXPECT_LE(result.optimum_upper - result.optimum_lower, 0.02 + 1e-12);
  for (const Sample& s : samples(m, property, space, 30)) {
    EXPECT_LE(s.value, result.optimum_upper + 1e-9);
    for (const SynthRegion& r : result.regions) {
      if (inside(r, s.p) && r.region_class == RegionClass::optimum) { EXPECT_GE(s.value, result.optimum_upper - 0.02 - 1e-9); }
    }
  }
  ASSERT_EQ(result.optimum_point.size(), 3u);
  const double at_best = check(*instantiate(*m, result.optimum_point), property).initial_value;
  EXPECT_LE(at_best, result.optimum_upper + 1e-9);
}

TEST(Synthesis, MinAndMaxAgainstSirReference) {
  REQUIRE_MODELS();
  // Reference points (0.02, 0.05) → 0.28366 and (0.0123, 0.0456) → 0.31675.
  const ModelPtr m = load("sir_100.drn");
  const std::string property = R"(P=? [ "infected" U[100,120] "extinct" ])";
  const std::vector<ParamRange> space{{"ki", 0.0123, 0.02}, {"kr", 0.0456, 0.05}};
  SynthesisOptions options;
  options.mode = SynthMode::maximum;
  options.epsilon = 0.05;
  const SynthesisResult max = synthesize(*m, property, space, options);
  EXPECT_GE(max.optimum_upper, 0.3167506775667268 - 1e-7);
  options.mode = SynthMode::minimum;
  const SynthesisResult min = synthesize(*m, property, space, options);
  EXPECT_LE(min.optimum_lower, 0.28365627485567524 + 1e-7);
  EXPECT_LE(min.optimum_upper, max.optimum_lower + 1e-12 + 0.2);
}

TEST(Synthesis, BadArguments) {
  REQUIRE_MODELS();
  const ModelPtr m = load("am_10_4.drn");
  const std::string property = R"(P>=0.9 [ F[10,10] "correct" ])";
  SynthesisOptions options;
  auto code = [&](const std::vector<ParamRange>& space, const SynthesisOptions& o, std::string text) {
    try {
      synthesize(*m, text, space, o);
    } catch (const Error& e) {
      return e.code();
    }
    return ErrorCode::internal;
  };
  const std::vector<ParamRange> good{{"k1", 1, 2}, {"k2", 1, 2}, {"k3", 1, 2}};
  EXPECT_EQ(code({{"k1", 1, 2}, {"k2", 1, 2}, {"kx", 1, 2}}, options, property), ErrorCode::invalid_argument);
  EXPECT_EQ(code({{"k1", 1, 2}, {"k2", 1, 2}}, options, property), ErrorCode::invalid_argument);  // k3 missing
  EXPECT_EQ(code({{"k1", 2, 1}, {"k2", 1, 2}, {"k3", 1, 2}}, options, property), ErrorCode::invalid_argument);
  EXPECT_EQ(code({{"k1", -1, 2}, {"k2", 1, 2}, {"k3", 1, 2}}, options, property), ErrorCode::invalid_argument);
  EXPECT_EQ(code(good, options, R"(P=? [ F[10,10] "correct" ])"), ErrorCode::invalid_argument);  // no threshold
  EXPECT_EQ(code(good, options, R"(P>=0.9 [ F "correct" ])"), ErrorCode::unsupported);
  SynthesisOptions bad_eps;
  bad_eps.epsilon = 0;
  EXPECT_EQ(code(good, bad_eps, property), ErrorCode::invalid_argument);
}

TEST(Synthesis, Cancelled) {
  REQUIRE_MODELS();
  const ModelPtr m = load("am_10_4.drn");
  std::atomic<bool> cancel{true};
  SynthesisOptions options;
  options.settings.cancel = &cancel;
  try {
    synthesize(*m, R"(P>=0.9 [ F[10,10] "correct" ])", {{"k1", 1, 2}, {"k2", 1, 2}, {"k3", 1, 2}}, options);
    FAIL() << "not cancelled";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::cancelled);
  }
}

}  // namespace
}  // namespace pmc
