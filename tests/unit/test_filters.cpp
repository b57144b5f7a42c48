// PRISM's filters and Storm's expected-time operator T on tiny hand-made
// models whose values are worked out by hand in the comments.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "check/check.hpp"
#include "common/error.hpp"

namespace pmc {
namespace {

Label label(const std::string& name, uint64_t n, std::initializer_list<uint64_t> states) {
  Bitset set(n);
  for (uint64_t s : states) set.set(s);
  return Label{name, set};
}

// One integer variable x, the state's index.
StateValuations index_variable(uint64_t n) {
  std::vector<int32_t> values;
  for (uint64_t s = 0; s < n; ++s) values.push_back(static_cast<int32_t>(s));
  return StateValuations({"x"}, {0}, values);
}

// 0 → 1 and 2 with ½ each; 1 → 3; 2 → 2 and 3 with ½ each; 3 absorbing.
// Expected steps to "goal" = {3}: e3 = 0, e1 = 1, e2 = 1 + ½e2 = 2,
// e0 = 1 + ½·1 + ½·2 = 2.5. P[X "goal"]: 0, 1, ½, 1.
ModelPtr chain() {
  ModelParts p;
  p.type = ModelType::dtmc;
  p.num_states = 4;
  p.row_offsets = {0, 2, 3, 5, 6};
  p.columns = {1, 2, 3, 2, 3, 3};
  p.values = {0.5, 0.5, 1.0, 0.5, 0.5, 1.0};
  p.labels = {label("init", 4, {0}), label("goal", 4, {3}), label("a", 4, {1, 2})};
  p.valuations = index_variable(4);
  return Model::create(std::move(p));
}

// 0 →(2) 1, 0 →(1) 2; 1 →(5) 1 (a self-loop: no time), 1 →(4) 2; 2
// absorbing. Expected time to "done" = {2}: t1 = 1/4,
// t0 = 1/3 + ⅔·¼ = ½.
ModelPtr timed_chain() {
  ModelParts p;
  p.type = ModelType::ctmc;
  p.num_states = 3;
  p.row_offsets = {0, 2, 4, 4};
  p.columns = {1, 2, 1, 2};
  p.values = {2.0, 1.0, 5.0, 4.0};
  p.labels = {label("init", 3, {0}), label("done", 3, {2})};
  return Model::create(std::move(p));
}

// State 0: choice 0 → 1; choice 1 → 2 and 3 with ½ each (and, with
// `loop`, choice 2 → 0). 1 → 1 and 3 with ½ each (2 steps to 3); 2 → 3;
// 3 absorbing. Steps to "goal" = {3}: choice 0 takes 1 + 2 = 3, choice 1
// takes 1 + ½·1 = 1.5. With the loop a scheduler may never arrive.
ModelPtr choices(bool loop) {
  ModelParts p;
  p.type = ModelType::mdp;
  p.num_states = 4;
  if (loop) {
    p.row_groups = {0, 3, 4, 5, 6};
    p.row_offsets = {0, 1, 3, 4, 6, 7, 8};
    p.columns = {1, 2, 3, 0, 1, 3, 3, 3};
    p.values = {1.0, 0.5, 0.5, 1.0, 0.5, 0.5, 1.0, 1.0};
  } else {
    p.row_groups = {0, 2, 3, 4, 5};
    p.row_offsets = {0, 1, 3, 5, 6, 7};
    p.columns = {1, 2, 3, 1, 3, 3, 3};
    p.values = {1.0, 0.5, 0.5, 0.5, 0.5, 1.0, 1.0};
  }
  p.labels = {label("init", 4, {0}), label("goal", 4, {3})};
  return Model::create(std::move(p));
}

CheckOptions tight() {
  CheckOptions o;
  o.settings.epsilon = 1e-10;
  return o;
}

CheckResult run(const Model& m, const std::string& property) { return check(m, property, tight()); }

// The result's value in the first initial state, with its certified bounds
// around `expected`.
void expect_value(const CheckResult& r, double expected, double tolerance = 1e-8) {
  EXPECT_NEAR(r.initial_value, expected, tolerance) << r.property;
  ASSERT_TRUE(r.sound) << r.property;
  EXPECT_LE(r.initial_lower, expected + 1e-12) << r.property;
  EXPECT_GE(r.initial_upper, expected - 1e-12) << r.property;
}

std::string error_of(const Model& m, const std::string& property, ErrorCode code = ErrorCode::property) {
  try {
    check(m, property, tight());
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << property << ": " << e.what();
    return e.what();
  }
  ADD_FAILURE() << "accepted " << property;
  return "";
}

// ---- T ----

TEST(ExpectedTime, DtmcCountsSteps) {
  const ModelPtr m = chain();
  const CheckResult r = run(*m, "T=? [ F \"goal\" ]");
  expect_value(r, 2.5);
  EXPECT_NEAR(r.values[1], 1.0, 1e-8);
  EXPECT_NEAR(r.values[2], 2.0, 1e-8);
  EXPECT_EQ(r.values[3], 0.0);
  // Unreachable with probability 1 from 0: infinite, as R[F].
  EXPECT_TRUE(std::isinf(run(*m, "T=? [ F \"a\" & x=1 ]").initial_value));
}

TEST(ExpectedTime, CtmcCountsTimeNotSelfLoops) {
  const ModelPtr m = timed_chain();
  const CheckResult r = run(*m, "T=? [ F \"done\" ]");
  expect_value(r, 0.5);
  EXPECT_NEAR(r.values[1], 0.25, 1e-8);
}

TEST(ExpectedTime, MdpMinAndMax) {
  const ModelPtr m = choices(false);
  const CheckResult min = run(*m, "Tmin=? [ F \"goal\" ]");
  expect_value(min, 1.5);
  EXPECT_EQ(min.scheduler.at(0), 1);
  const CheckResult max = run(*m, "Tmax=? [ F \"goal\" ]");
  expect_value(max, 3.0);
  EXPECT_EQ(max.scheduler.at(0), 0);
  // A scheduler that loops forever never arrives: Tmax is infinite.
  const ModelPtr looping = choices(true);
  expect_value(run(*looping, "Tmin=? [ F \"goal\" ]"), 1.5);
  EXPECT_TRUE(std::isinf(run(*looping, "Tmax=? [ F \"goal\" ]").initial_value));
  EXPECT_NE(error_of(*m, "T=? [ F \"goal\" ]").find("ask for Tmin=? or Tmax=?"), std::string::npos);
}

TEST(ExpectedTime, Bounds) {
  const ModelPtr m = chain();
  CheckResult r = run(*m, "T<=3 [ F \"goal\" ]");
  EXPECT_TRUE(r.is_boolean);
  EXPECT_EQ(r.initial_value, 1.0);
  EXPECT_NEAR(r.initial_operator_value, 2.5, 1e-8);
  r = run(*m, "T<1.5 [ F \"goal\" ]");
  EXPECT_EQ(r.initial_value, 0.0);
  EXPECT_TRUE(r.satisfying.test(1));
  EXPECT_FALSE(r.satisfying.test(2));
  // Nested, as a state formula: states that reach the goal within 1.5
  // expected steps are 1 and 3; from 0, X reaches one w.p. ½.
  expect_value(run(*m, "P=? [ X T<=1.5 [ F \"goal\" ] ]"), 0.5);
}

// ---- filters over numbers ----

TEST(Filters, MinMaxSumAvg) {
  const ModelPtr m = chain();
  // T: 2.5, 1, 2, 0.
  expect_value(run(*m, "filter(min, T=? [ F \"goal\" ])"), 0.0);
  expect_value(run(*m, "filter(min, T=? [ F \"goal\" ], \"a\")"), 1.0);
  expect_value(run(*m, "filter(max, T=? [ F \"goal\" ])"), 2.5);
  expect_value(run(*m, "filter(max, T=? [ F \"goal\" ], \"a\")"), 2.0);
  expect_value(run(*m, "filter(sum, T=? [ F \"goal\" ])"), 5.5);
  expect_value(run(*m, "filter(+, T=? [ F \"goal\" ])"), 5.5);
  expect_value(run(*m, "filter(avg, T=? [ F \"goal\" ])"), 1.375);
  expect_value(run(*m, "filter(avg, T=? [ F \"goal\" ], x>=1)"), 1.0);
  // Over state variables: x = 0..3.
  expect_value(run(*m, "filter(max, x)"), 3.0);
  expect_value(run(*m, "filter(sum, x, \"a\")"), 3.0);
  expect_value(run(*m, "filter(avg, x*x)"), 3.5);
}

TEST(Filters, TheValueIsTheSameInEveryState) {
  const ModelPtr m = chain();
  const CheckResult r = run(*m, "filter(sum, T=? [ F \"goal\" ], \"a\")");
  ASSERT_EQ(r.values.size(), 4u);
  for (double v : r.values) EXPECT_NEAR(v, 3.0, 1e-8);
  ASSERT_TRUE(r.filter.has_value());
  EXPECT_EQ(r.filter->op, "sum");
  EXPECT_EQ(r.filter->states, "\"a\"");
  EXPECT_EQ(r.filter->num_states, 2u);
  EXPECT_FALSE(r.filter->bounds_rule.empty());
  EXPECT_FALSE(r.is_boolean);
}

TEST(Filters, CertifiedBoundsComeFromTheStates) {
  const ModelPtr m = chain();
  CheckOptions loose;
  loose.settings.epsilon = 1e-3;
  const CheckResult each = check(*m, "T=? [ F \"goal\" ]", loose);
  const CheckResult sum = check(*m, "filter(sum, T=? [ F \"goal\" ])", loose);
  ASSERT_TRUE(each.sound && sum.sound);
  double lower = 0, upper = 0;
  for (uint64_t s = 0; s < 4; ++s) {
    lower += each.lower[s];
    upper += each.upper[s];
  }
  EXPECT_DOUBLE_EQ(sum.initial_lower, lower);
  EXPECT_DOUBLE_EQ(sum.initial_upper, upper);
  const CheckResult max = check(*m, "filter(max, T=? [ F \"goal\" ])", loose);
  EXPECT_DOUBLE_EQ(max.initial_lower, each.lower[0]);
  EXPECT_DOUBLE_EQ(max.initial_upper, each.upper[0]);
  EXPECT_LE(max.initial_lower, 2.5);
  EXPECT_GE(max.initial_upper, 2.5);
  // With an unsound solver nothing is certified.
  CheckOptions unsound = loose;
  unsound.solver = "cpu.gauss-seidel";
  const CheckResult plain = check(*m, "filter(sum, T=? [ F \"goal\" ])", unsound);
  EXPECT_FALSE(plain.sound);
  EXPECT_TRUE(plain.filter->bounds_rule.empty());
  EXPECT_NEAR(plain.initial_value, 5.5, 1e-2);
}

TEST(Filters, FirstStateAndRange) {
  const ModelPtr m = chain();
  expect_value(run(*m, "filter(first, T=? [ F \"goal\" ], \"a\")"), 1.0);  // state 1
  expect_value(run(*m, "filter(first, T=? [ F \"goal\" ])"), 2.5);         // state 0
  expect_value(run(*m, "filter(state, T=? [ F \"goal\" ], x=2)"), 2.0);
  const CheckResult r = run(*m, "filter(range, T=? [ F \"goal\" ], \"a\")");
  ASSERT_TRUE(r.filter.has_value());
  EXPECT_NEAR(r.filter->low, 1.0, 1e-8);
  EXPECT_NEAR(r.filter->high, 2.0, 1e-8);
  EXPECT_LE(r.filter->low_lower, 1.0);
  EXPECT_GE(r.filter->low_upper, 1.0);
  EXPECT_LE(r.filter->high_lower, 2.0);
  EXPECT_GE(r.filter->high_upper, 2.0);
  // range keeps the operand's values per state.
  EXPECT_NEAR(r.values[0], 2.5, 1e-8);
  EXPECT_NE(error_of(*m, "filter(state, T=? [ F \"goal\" ], \"a\")").find("exactly one state, but '\"a\"' holds in 2"),
            std::string::npos);
}

// ---- filters over truth values ----

TEST(Filters, CountForallExists) {
  const ModelPtr m = chain();
  expect_value(run(*m, "filter(count, \"a\")"), 2.0, 0);
  // P[X "goal"] = 0, 1, ½, 1: at least ½ in 1, 2, 3.
  expect_value(run(*m, "filter(count, P>=0.5 [ X \"goal\" ])"), 3.0, 0);
  CheckResult r = run(*m, "filter(forall, P>=0.5 [ X \"goal\" ])");
  EXPECT_TRUE(r.is_boolean);
  EXPECT_EQ(r.initial_value, 0.0);
  EXPECT_EQ(r.filter->satisfied, 3u);
  r = run(*m, "filter(forall, P>=0.5 [ X \"goal\" ], \"a\")");
  EXPECT_EQ(r.initial_value, 1.0);
  EXPECT_EQ(r.satisfying.count(), 4u);  // the same truth value in every state
  EXPECT_EQ(run(*m, "filter(exists, P>=0.9 [ X \"goal\" ])").initial_value, 1.0);
  EXPECT_EQ(run(*m, "filter(exists, P>=0.9 [ X \"goal\" ], x=0 | x=2)").initial_value, 0.0);
  EXPECT_EQ(run(*m, "filter(&, x<4)").initial_value, 1.0);
  EXPECT_EQ(run(*m, "filter(|, x>3)").initial_value, 0.0);
  r = run(*m, "filter(first, \"goal\", x>=2)");  // state 2
  EXPECT_TRUE(r.is_boolean);
  EXPECT_EQ(r.initial_value, 0.0);
}

TEST(Filters, ArgminArgmaxNameTheStates) {
  const ModelPtr m = chain();
  CheckResult r = run(*m, "filter(argmin, T=? [ F \"goal\" ])");
  EXPECT_TRUE(r.is_boolean);
  EXPECT_EQ(r.filter->listed, (std::vector<uint64_t>{3}));
  EXPECT_EQ(r.initial_value, 0.0);  // the initial state is not among them
  // P[X "goal"] is exactly 1 in states 1 and 3: both are named.
  r = run(*m, "filter(argmax, P=? [ X \"goal\" ])");
  EXPECT_EQ(r.filter->listed, (std::vector<uint64_t>{1, 3}));
  EXPECT_TRUE(r.satisfying.test(1) && r.satisfying.test(3) && !r.satisfying.test(2));
  EXPECT_NEAR(r.filter->high, 1.0, 0);
  r = run(*m, "filter(argmax, T=? [ F \"goal\" ], \"a\")");
  EXPECT_EQ(r.filter->listed, (std::vector<uint64_t>{2}));
  ASSERT_EQ(r.filter->listed_values.size(), 1u);
  EXPECT_NEAR(r.filter->listed_values[0], 2.0, 1e-8);
  EXPECT_EQ(run(*m, "filter(argmax, x)").filter->listed, (std::vector<uint64_t>{3}));
}

TEST(Filters, PrintListsStatesAndKeepsTheValues) {
  const ModelPtr m = chain();
  CheckResult r = run(*m, "filter(print, P=? [ X \"goal\" ])");
  EXPECT_EQ(r.filter->listed, (std::vector<uint64_t>{1, 2, 3}));  // the non-zero values
  EXPECT_EQ(r.initial_value, 0.0);                                 // P[X "goal"] in state 0
  EXPECT_NEAR(r.values[2], 0.5, 0);
  r = run(*m, "filter(printall, P=? [ X \"goal\" ], x<=2)");
  EXPECT_EQ(r.filter->listed, (std::vector<uint64_t>{0, 1, 2}));
  EXPECT_EQ(r.filter->listed_values, (std::vector<double>{0.0, 1.0, 0.5}));
  r = run(*m, "filter(print, \"a\")");
  EXPECT_TRUE(r.is_boolean);
  EXPECT_EQ(r.filter->listed, (std::vector<uint64_t>{1, 2}));
}

TEST(Filters, Nested) {
  const ModelPtr m = chain();
  // Two states attain P[X "goal"]'s maximum.
  expect_value(run(*m, "filter(count, filter(argmax, P=? [ X \"goal\" ]))"), 2.0, 0);
  expect_value(run(*m, "filter(max, filter(sum, T=? [ F \"goal\" ]))"), 5.5);
  // A truth value as a state formula: exists "goal" holds everywhere.
  expect_value(run(*m, "P=? [ F filter(exists, \"goal\") ]"), 1.0);
  expect_value(run(*m, "P=? [ X filter(argmin, T=? [ F \"goal\" ]) ]"), 0.0);
  EXPECT_EQ(run(*m, "\"a\" | filter(forall, x>=0)").initial_value, 1.0);
}

TEST(Filters, OnCtmcsAndMdps) {
  const ModelPtr ctmc = timed_chain();
  expect_value(run(*ctmc, "filter(max, T=? [ F \"done\" ])"), 0.5);
  expect_value(run(*ctmc, "filter(sum, T=? [ F \"done\" ], \"init\")"), 0.5);
  const ModelPtr mdp = choices(false);
  expect_value(run(*mdp, "filter(max, Tmin=? [ F \"goal\" ])"), 2.0);  // state 1: 2 steps
  expect_value(run(*mdp, "filter(min, Tmax=? [ F \"goal\" ], !\"goal\")"), 1.0);  // state 2
}

TEST(Filters, Errors) {
  const ModelPtr m = chain();
  std::string e = error_of(*m, "filter(max, T=? [ F \"goal\" ], \"nolabel\")");
  EXPECT_NE(e.find("column 31: unknown label \"nolabel\""), std::string::npos) << e;
  e = error_of(*m, "filter(max, x, x>7)");
  EXPECT_NE(e.find("column 16: the filter's states 'x>7' hold in no state"), std::string::npos) << e;
  // The checker types what the parser could not: x is a number here.
  e = error_of(*m, "filter(forall, x)");
  EXPECT_NE(e.find("filter(forall, ...) needs a truth value"), std::string::npos) << e;
  e = error_of(*m, "filter(sum, x=1)");  // the parser already knows a comparison
  EXPECT_NE(e.find("filter(sum, ...) needs a number"), std::string::npos) << e;
  e = error_of(*m, "filter(max, y)");
  EXPECT_NE(e.find("unknown variable 'y'"), std::string::npos) << e;
  e = error_of(*m, "\"a\" & filter(first, x)");
  EXPECT_NE(e.find("gives a number here, but a truth value is needed"), std::string::npos) << e;
}

}  // namespace
}  // namespace pmc
