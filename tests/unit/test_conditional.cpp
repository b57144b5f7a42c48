// Storm's conditional probabilities P[ F a || F b ]: hand-computed
// chains and MDPs, an MDP oracle that tries every scheduler of a product
// with the condition's memory, the ratio of separately computed
// probabilities on reference models, and Storm's LRA spelling of S.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "check/check.hpp"
#include "common/error.hpp"
#include "formats/model_files.hpp"
#include "support/manifest.hpp"

namespace pmc {
namespace {

const std::string k_die = std::string(PMC_TEST_DATA_DIR) + "/../../examples/die/die.tra";
const std::string k_two_dice = std::string(PMC_TEST_DATA_DIR) + "/storm/dice_pair.tra";

using Choice = std::vector<std::pair<uint32_t, double>>;  // (successor, probability or rate)

// One inner vector per state: its choices (one for a chain).
ModelPtr make_model(ModelType type, const std::vector<std::vector<Choice>>& states,
                    const std::vector<std::pair<std::string, std::vector<uint64_t>>>& labels) {
  ModelParts p;
  p.type = type;
  p.num_states = states.size();
  p.row_groups = {0};
  p.row_offsets = {0};
  for (const auto& choices : states) {
    for (Choice row : choices) {
      std::sort(row.begin(), row.end());
      for (const auto& [to, value] : row) {
        p.columns.push_back(to);
        p.values.push_back(value);
      }
      p.row_offsets.push_back(p.columns.size());
    }
    p.row_groups.push_back(p.row_offsets.size() - 1);
  }
  for (const auto& [name, members] : labels) {
    Bitset set(states.size());
    for (uint64_t s : members) set.set(s);
    p.labels.push_back(Label{name, set});
  }
  return Model::create(std::move(p));
}

CheckOptions with_epsilon(double epsilon) {
  CheckOptions o;
  o.settings.epsilon = epsilon;
  return o;
}

const CheckOptions k_tight = with_epsilon(1e-12);

std::string check_error(const Model& m, const std::string& property, ErrorCode code) {
  try {
    check(m, property, k_tight);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    return e.what();
  }
  return "(no error)";
}

// The value and certified bounds of a sound result enclose `exact` (up to
// the rounding of a model's probabilities such as 1/6), and the value is
// within ε of it (relative).
void expect_certified(const CheckResult& r, double exact, double epsilon, const std::string& what) {
  EXPECT_TRUE(r.sound) << what;
  EXPECT_LE(r.initial_lower, exact + 1e-13) << what;
  EXPECT_GE(r.initial_upper, exact - 1e-13) << what;
  EXPECT_NEAR(r.initial_value, exact, epsilon * std::max(exact, 1e-9) * 1.0001 + 1e-14) << what;
}

// 0 goes to 1 ("a") or 2; 1 and 2 reach 3 ("b") with 0.4 and 0.2, else
// the sink 4; 3 reaches 5 ("a") half the time; each loops on itself half
// the time first (an iteration, not one step, finds the values). a before b
// via 1, b before a via 2.
//   P(F b) = (0.4 + 0.2)/2 = 0.3, P(F a ∧ F b) = (0.4 + 0.2·0.5)/2 = 0.25,
//   P(F a) = (1 + 0.2·0.5)/2 = 0.55.
ModelPtr ordered_chain(ModelType type) {
  const double k = type == ModelType::ctmc ? 3.0 : 1.0;  // rates: the embedded chain is the same
  return make_model(type,
                    {{{{0, 0.5 * k}, {1, 0.25 * k}, {2, 0.25 * k}}},
                     {{{1, 0.5 * k}, {3, 0.2 * k}, {4, 0.3 * k}}},
                     {{{2, 0.5 * k}, {3, 0.1 * k}, {4, 0.4 * k}}},
                     {{{3, 0.5 * k}, {5, 0.25 * k}, {4, 0.25 * k}}},
                     {{{4, 1.0}}},
                     {{{5, 1.0}}}},
                    {{"init", {0}}, {"a", {1, 5}}, {"b", {3}}});
}

TEST(ConditionalChain, HandComputedInEveryState) {
  for (ModelType type : {ModelType::dtmc, ModelType::ctmc}) {
    const ModelPtr m = ordered_chain(type);
    const std::string kind(to_string(type));
    CheckResult r = check(*m, "P=? [ F \"a\" || F \"b\" ]", k_tight);
    expect_certified(r, 0.25 / 0.3, 1e-12, kind);
    // State 1 is in a and reaches b: 1; state 2 reaches b, then a half the
    // time; state 3 is in b; 4 and 5 never reach b: undefined.
    const double expected[] = {0.25 / 0.3, 1.0, 0.5, 0.5};
    for (int s = 0; s < 4; ++s) {
      EXPECT_NEAR(r.values[s], expected[s], 1e-11) << kind << " state " << s;
      EXPECT_LE(r.lower[s], expected[s] + 1e-15) << s;
      EXPECT_GE(r.upper[s], expected[s] - 1e-15) << s;
    }
    EXPECT_TRUE(std::isnan(r.values[4]) && std::isnan(r.values[5])) << kind;

    r = check(*m, "P=? [ F \"b\" || F \"a\" ]", k_tight);
    expect_certified(r, 0.25 / 0.55, 1e-12, kind);
    EXPECT_NEAR(r.values[1], 0.4, 1e-12);  // a holds: P(F b)
    EXPECT_NEAR(r.values[3], 1.0, 1e-12);  // b holds and reaches a
    EXPECT_NEAR(r.values[5], 0.0, 1e-12);  // a holds, b never comes
    EXPECT_TRUE(std::isnan(r.values[4]));

    // A state formula on each side, and the conditions that decide it.
    expect_certified(check(*m, "P=? [ F \"a\" & \"b\" || F \"b\" ]", k_tight), 0.0, 1e-12, kind);
    expect_certified(check(*m, "P=? [ F \"a\" | \"b\" || F \"b\" ]", k_tight), 1.0, 1e-12, kind);
    expect_certified(check(*m, "P=? [ F \"b\" || F true ]", k_tight), 0.3, 1e-12, kind);
    // With the options' ε (1e-6 relative): still within it, bounds enclosing.
    expect_certified(check(*m, "P=? [ F \"a\" || F \"b\" ]", with_epsilon(1e-6)), 0.25 / 0.3, 1e-6, kind);
    CheckOptions absolute = with_epsilon(1e-6);
    absolute.settings.relative = false;
    r = check(*m, "P=? [ F \"a\" || F \"b\" ]", absolute);
    EXPECT_LE(r.initial_upper - r.initial_lower, 2e-6) << kind;
    EXPECT_NEAR(r.initial_value, 0.25 / 0.3, 1e-6) << kind;
    // Loose: wide bounds, still on both sides of the value in every state.
    absolute.settings.epsilon = 1e-2;
    r = check(*m, "P=? [ F \"a\" || F \"b\" ]", absolute);
    for (int s = 0; s < 4; ++s) {
      EXPECT_LE(r.lower[s], expected[s] + 1e-15) << kind << " state " << s;
      EXPECT_GE(r.upper[s], expected[s] - 1e-15) << kind << " state " << s;
      EXPECT_NEAR(r.values[s], expected[s], 1e-2) << kind << " state " << s;
    }
  }
}

TEST(ConditionalChain, BoundIsDecidedInEveryDefinedState) {
  const ModelPtr m = ordered_chain(ModelType::dtmc);
  const CheckResult r = check(*m, "P>0.6 [ F \"a\" || F \"b\" ]", k_tight);
  ASSERT_TRUE(r.is_boolean);
  EXPECT_EQ(r.initial_value, 1.0);
  EXPECT_TRUE(r.satisfying.test(0) && r.satisfying.test(1));
  EXPECT_FALSE(r.satisfying.test(2) || r.satisfying.test(3) || r.satisfying.test(4));
  EXPECT_EQ(check(*m, "P<0.6 [ F \"a\" || F \"b\" ]", k_tight).initial_value, 0.0);
}

TEST(ConditionalChain, DieAndItsStormDialect) {
  const ModelPtr die = load_model({k_die}, "", {});
  const std::string even = "\"two\" | \"four\" | \"six\"";
  expect_certified(check(*die, "P=? [ F \"six\" || F " + even + " ]", k_tight), 1.0 / 3, 1e-12, "six | even");
  expect_certified(check(*die, "P=? [ F " + even + " || F \"six\" ]", k_tight), 1.0, 1e-12, "even | six");
  expect_certified(check(*die, "P=? [ F \"six\" || F \"done\" ]", k_tight), 1.0 / 6, 1e-12, "six | done");
  expect_certified(check(*die, "P=? [ F \"six\" || F \"one\" ]", k_tight), 0.0, 1e-12, "six | one");
  expect_certified(check(*die, "P=? [ F \"six\" || F " + even + " ]", with_epsilon(1e-6)), 1.0 / 3, 1e-6,
                   "six | even at 1e-6");
}

// P(F φ ∧ F ψ) = P(F φ) + P(F ψ) − P(F (φ | ψ)): the three queries users
// divide by hand, at ε = 1e-12, against pmc's conditional at 1e-12 and at
// the default 1e-6.
void expect_matches_ratio(const Model& m, const std::string& goal, const std::string& condition,
                          const std::string& what) {
  auto p = [&](const std::string& target) { return check(m, "P=? [ F " + target + " ]", k_tight).initial_value; };
  const double both = p(goal) + p(condition) - p("(" + goal + ") | (" + condition + ")");
  const double oracle = both / p(condition);
  const std::string property = "P=? [ F " + goal + " || F " + condition + " ]";
  const CheckResult tight = check(m, property, k_tight);
  EXPECT_NEAR(tight.initial_value, oracle, 1e-10 * std::max(oracle, 1e-3)) << what << " " << property;
  EXPECT_LE(tight.initial_lower, oracle + 1e-10) << what;
  EXPECT_GE(tight.initial_upper, oracle - 1e-10) << what;
  const CheckResult usual = check(m, property);
  EXPECT_TRUE(usual.sound) << what;
  EXPECT_LE(std::fabs(usual.initial_value - oracle), 1e-6 * oracle + 1e-12) << what << " " << property;
  for (double epsilon : {1e-2, 1e-4}) {
    CheckOptions loose = with_epsilon(epsilon);
    loose.settings.relative = false;
    const CheckResult r = check(m, property, loose);
    EXPECT_LE(r.initial_lower, oracle + 1e-12) << what << " " << property << " at " << epsilon;
    EXPECT_GE(r.initial_upper, oracle - 1e-12) << what << " " << property << " at " << epsilon;
    EXPECT_NEAR(r.initial_value, oracle, epsilon) << what << " " << property << " at " << epsilon;
  }
}

const testing::ManifestRow* manifest_row(const std::string& model, const std::string& instance) {
  for (const testing::ManifestRow& row : testing::manifest()) {
    if (row.model == model && row.instance == instance) return &row;
  }
  return nullptr;
}

// A label from the state valuations: `variable` ≥ `at_least`.
ModelPtr with_valuation_label(const Model& m, const std::string& name, const std::string& variable, int at_least) {
  const StateValuations& v = m.valuations();
  const auto it = std::find(v.variables.begin(), v.variables.end(), variable);
  if (it == v.variables.end()) return nullptr;  // no .sta beside the model: the caller fails
  const uint64_t column = static_cast<uint64_t>(it - v.variables.begin());
  Bitset set(m.num_states());
  for (uint64_t s = 0; s < m.num_states(); ++s) {
    if (v.value(s, column) >= at_least) set.set(s);
  }
  return m.with_label(Label{name, set});
}

TEST(ConditionalChain, CrowdsAgreesWithTheRatioOfThreeQueries) {
  if (testing::models_root().empty()) GTEST_SKIP() << testing::missing_models_message();
  const testing::ManifestRow* row = manifest_row("crowds", "T3_S5");
  ASSERT_NE(row, nullptr);
  // "observed" is observe0 > 1: the attacker saw the sender twice; given
  // that it saw it at all (observe0 ≥ 1), or the reverse.
  const ModelPtr crowds = with_valuation_label(testing::cached_model(*row), "seen", "observe0", 1);
  ASSERT_NE(crowds, nullptr) << "crowds T3_S5 needs its state valuations (crowds.sta) for the variable observe0";
  expect_matches_ratio(*crowds, "\"observed\"", "\"seen\"", "crowds");
  expect_matches_ratio(*crowds, "\"seen\"", "\"observed\"", "crowds");
  expect_matches_ratio(*crowds, "\"observed\"", "!\"seen\"", "crowds");
  const CheckResult r = check(*crowds, "P=? [ F \"observed\" || F \"seen\" ]");
  EXPECT_GT(r.initial_value, 0.1);  // far from P(F observed) = 0.053: the condition matters
}

TEST(ConditionalChain, ClusterIsIrreducible) {
  if (testing::models_root().empty()) GTEST_SKIP() << testing::missing_models_message();
  const testing::ManifestRow* row = manifest_row("cluster", "N2");
  ASSERT_NE(row, nullptr);
  const Model& cluster = testing::cached_model(*row);
  // Every state of an irreducible CTMC is reached almost surely: 1.
  expect_certified(check(cluster, "P=? [ F !\"premium\" || F !\"minimum\" ]", k_tight), 1.0, 1e-12, "cluster");
  expect_matches_ratio(cluster, "!\"premium\"", "!\"minimum\"", "cluster");
}

TEST(ConditionalChain, Errors) {
  const ModelPtr dtmc = ordered_chain(ModelType::dtmc), ctmc = ordered_chain(ModelType::ctmc);
  std::string e = check_error(*dtmc, "P=? [ F \"a\" || F false ]", ErrorCode::property);
  EXPECT_NE(e.find("column 16: the condition F false has probability 0 from the initial state 0"), std::string::npos)
      << e;
  // Undefined in the initial state only: still an error.
  const ModelPtr from_sink = make_model(ModelType::dtmc, {{{{1, 1.0}}}, {{{1, 1.0}}}, {{{2, 1.0}}}},
                                        {{"init", {0}}, {"b", {2}}});
  e = check_error(*from_sink, "P=? [ F \"b\" || F \"b\" ]", ErrorCode::property);
  EXPECT_NE(e.find("has probability 0 from the initial state 0"), std::string::npos) << e;
  e = check_error(*ctmc, "P=? [ F \"a\" || F<=2 \"b\" ]", ErrorCode::unsupported);
  EXPECT_NE(e.find("column 16: a time or step bound in a conditional probability (F<=2 \"b\") is not supported"),
            std::string::npos)
      << e;
  e = check_error(*dtmc, "P=? [ F<=3 \"a\" || F \"b\" ]", ErrorCode::unsupported);
  EXPECT_NE(e.find("column 7: a time or step bound"), std::string::npos) << e;
  e = check_error(*dtmc, "P=? [ X \"a\" || F \"b\" ]", ErrorCode::unsupported);
  EXPECT_NE(e.find("not for the goal X \"a\""), std::string::npos) << e;
  e = check_error(*dtmc, "P=? [ F \"a\" || \"a\" U \"b\" ]", ErrorCode::unsupported);
  EXPECT_NE(e.find("not for the condition \"a\" U \"b\""), std::string::npos) << e;
  e = check_error(*dtmc, "P=? [ F \"a\" || F \"c\" ]", ErrorCode::property);
  EXPECT_NE(e.find("unknown label \"c\""), std::string::npos) << e;
  e = check_error(*dtmc, "P=? [ F \"a\" || ]", ErrorCode::property);
  EXPECT_NE(e.find("after '||'"), std::string::npos) << e;
  e = check_error(*dtmc, "P=? [ F P>0.5 [ F \"a\" || F \"b\" ] ]", ErrorCode::property);
  EXPECT_NE(e.find("only allowed in the outermost operator"), std::string::npos) << e;
}

// ---- MDPs ----

// 0 chooses: A reaches 1 (a, b) or 2 (b only) evenly; B reaches 1 with 0.2,
// else the sink 3 (no b: the run does not count); C stays. Conditional
// max 1 (B), min 0.5 (A); C never meets the condition and is not counted.
// Unconditionally Pmax(F a) = 0.5 and Pmin(F a) = 0.
ModelPtr choice_mdp() {
  return make_model(ModelType::mdp,
                    {{{{1, 0.5}, {2, 0.5}}, {{1, 0.2}, {3, 0.8}}, {{0, 1.0}}},
                     {{{1, 1.0}}},
                     {{{2, 1.0}}},
                     {{{3, 1.0}}}},
                    {{"init", {0}}, {"a", {1}}, {"b", {1, 2}}});
}

TEST(ConditionalMdp, HandComputed) {
  const ModelPtr m = choice_mdp();
  expect_certified(check(*m, "Pmax=? [ F \"a\" || F \"b\" ]", k_tight), 1.0, 1e-12, "max");
  expect_certified(check(*m, "Pmin=? [ F \"a\" || F \"b\" ]", k_tight), 0.5, 1e-12, "min");
  expect_certified(check(*m, "Pmin=? [ F \"a\" || F \"b\" ]", with_epsilon(1e-6)), 0.5, 1e-6, "min at 1e-6");
  EXPECT_NEAR(check(*m, "Pmax=? [ F \"a\" ]", k_tight).initial_value, 0.5, 1e-12);
  // A bound quantifies over every scheduler: P>=p needs the minimum.
  EXPECT_EQ(check(*m, "P>=0.4 [ F \"a\" || F \"b\" ]", k_tight).initial_value, 1.0);
  EXPECT_EQ(check(*m, "P>=0.6 [ F \"a\" || F \"b\" ]", k_tight).initial_value, 0.0);
  EXPECT_EQ(check(*m, "P<=0.99 [ F \"a\" || F \"b\" ]", k_tight).initial_value, 0.0);
  // Computed in the initial states only.
  const CheckResult r = check(*m, "Pmax=? [ F \"a\" || F \"b\" ]", k_tight);
  EXPECT_TRUE(std::isnan(r.values[1]) && std::isnan(r.values[3]));
  EXPECT_TRUE(r.scheduler.empty());
}

// After a: maximise P(F b) (x: 0.3, y: 0.6) — or minimise it; after b:
// P(F a) (0.5 or 0.1). 0 chooses which comes first. Via a the ratio is 1
// whatever follows; via b it is P(F a) from 2.
TEST(ConditionalMdp, ContinuationsAfterGoalOrCondition) {
  const ModelPtr m = make_model(ModelType::mdp,
                                {{{{1, 1.0}}, {{2, 1.0}}},
                                 {{{3, 0.3}, {4, 0.7}}, {{3, 0.6}, {4, 0.4}}},
                                 {{{5, 0.5}, {4, 0.5}}, {{5, 0.1}, {4, 0.9}}},
                                 {{{3, 1.0}}},
                                 {{{4, 1.0}}},
                                 {{{5, 1.0}}}},
                                {{"init", {0}}, {"a", {1, 5}}, {"b", {2, 3}}});
  expect_certified(check(*m, "Pmax=? [ F \"a\" || F \"b\" ]", k_tight), 1.0, 1e-12, "max");
  expect_certified(check(*m, "Pmin=? [ F \"a\" || F \"b\" ]", k_tight), 0.1, 1e-12, "min");
  // The other way round: via a, b follows with 0.3 or 0.6; via b, every
  // run that meets a has met b: 1.
  expect_certified(check(*m, "Pmin=? [ F \"b\" || F \"a\" ]", k_tight), 0.3, 1e-12, "min b|a");
  expect_certified(check(*m, "Pmax=? [ F \"b\" || F \"a\" ]", k_tight), 1.0, 1e-12, "max b|a");
}

// After a (state 1) the minimum wants b unlikely, the maximum likely: A
// then y gives a∧b 0.5·0.1 and b 0.5·0.1 + 0.5 (state 2), 1/11; A then x
// gives 0.45/0.95 = 9/19; B gives 0.2 (b, then a with 0.2).
TEST(ConditionalMdp, MinimumAvoidsTheConditionAfterTheGoal) {
  const ModelPtr m = make_model(ModelType::mdp,
                                {{{{1, 0.5}, {2, 0.5}}, {{3, 1.0}}},
                                 {{{6, 0.9}, {4, 0.1}}, {{6, 0.1}, {4, 0.9}}},
                                 {{{2, 1.0}}},
                                 {{{5, 0.2}, {4, 0.8}}},
                                 {{{4, 1.0}}},
                                 {{{5, 1.0}}},
                                 {{{6, 1.0}}}},
                                {{"init", {0}}, {"a", {1, 5}}, {"b", {2, 3, 6}}});
  expect_certified(check(*m, "Pmin=? [ F \"a\" || F \"b\" ]", k_tight), 1.0 / 11, 1e-12, "min");
  expect_certified(check(*m, "Pmax=? [ F \"a\" || F \"b\" ]", k_tight), 9.0 / 19, 1e-12, "max");
}

// A minimum of 1e-4 is 1 minus the maximum of P(G !a | F b), 0.9999: its
// bounds at ε/4 are 1e-4·... too wide relative to 1e-4, so the solves run
// again at a tighter ε. A: 0 loops through 4 half the time, else reaches 1
// (a, b) with 1e-4 or 2 (b); B: 1 or the sink 3 (no b).
TEST(ConditionalMdp, MinimumNearZeroMeetsARelativeEpsilon) {
  const double p = 1e-4;
  const ModelPtr m = make_model(ModelType::mdp,
                                {{{{1, 0.5 * p}, {2, 0.5 * (1 - p)}, {4, 0.5}}, {{1, 0.5}, {3, 0.5}}},
                                 {{{1, 1.0}}},
                                 {{{2, 1.0}}},
                                 {{{3, 1.0}}},
                                 {{{0, 1.0}}}},
                                {{"init", {0}}, {"a", {1}}, {"b", {1, 2}}});
  for (double epsilon : {1e-6, 1e-9}) {
    const CheckResult r = check(*m, "Pmin=? [ F \"a\" || F \"b\" ]", with_epsilon(epsilon));
    expect_certified(r, p, epsilon, "min near 0");
    EXPECT_LE(r.initial_upper - r.initial_lower, 2 * epsilon * p) << epsilon;
  }
  expect_certified(check(*m, "Pmax=? [ F \"a\" || F \"b\" ]", with_epsilon(1e-6)), 1.0, 1e-6, "max");
}

TEST(ConditionalMdp, StartInGoalOrCondition) {
  const ModelPtr started = make_model(ModelType::mdp,
                                      {{{{1, 0.5}, {2, 0.5}}, {{1, 0.2}, {3, 0.8}}}, {{{1, 1.0}}}, {{{2, 1.0}}},
                                       {{{3, 1.0}}}},
                                      {{"init", {0}}, {"a", {1}}, {"b", {0, 1, 2}}});
  // 0 is in b: what remains is P(F a), max 0.5 (A), min 0.2 (B).
  expect_certified(check(*started, "Pmax=? [ F \"a\" || F \"b\" ]", k_tight), 0.5, 1e-12, "max from b");
  expect_certified(check(*started, "Pmin=? [ F \"a\" || F \"b\" ]", k_tight), 0.2, 1e-12, "min from b");
  // As the goal, b holds already: every run that meets a has met it.
  expect_certified(check(*started, "Pmin=? [ F \"b\" || F \"a\" ]", k_tight), 1.0, 1e-12, "b from b");
}

TEST(ConditionalMdp, TwoDice) {
  const ModelPtr m = load_model({k_two_dice}, "", {});
  // Both dice are fair whichever is thrown first: sum two given two or four.
  for (const char* opt : {"min", "max"}) {
    expect_certified(check(*m, std::string("P") + opt + "=? [ F \"two\" || F \"two\" | \"four\" ]", k_tight), 0.25,
                     1e-12, opt);
    // `done` comes surely: the conditional is the plain probability.
    EXPECT_NEAR(check(*m, std::string("P") + opt + "=? [ F \"two\" || F \"done\" ]", k_tight).initial_value,
                check(*m, std::string("P") + opt + "=? [ F \"two\" ]", k_tight).initial_value, 1e-11);
  }
}

TEST(ConditionalMdp, Errors) {
  const ModelPtr m = choice_mdp();
  std::string e = check_error(*m, "P=? [ F \"a\" || F \"b\" ]", ErrorCode::property);
  EXPECT_NE(e.find("ask for Pmin=? or Pmax=?"), std::string::npos) << e;
  e = check_error(*m, "Pmax=? [ F \"a\" || F false ]", ErrorCode::property);
  EXPECT_NE(e.find("has probability 0 under every scheduler from the initial state 0"), std::string::npos) << e;
  e = check_error(*m, "Pmax=? [ F \"a\" || F<=2 \"b\" ]", ErrorCode::unsupported);
  EXPECT_NE(e.find("time or step bound"), std::string::npos) << e;
  // One restarting problem per initial state: a bounded number of them.
  std::vector<std::vector<Choice>> line(70);
  std::vector<uint64_t> all(70);
  for (uint32_t s = 0; s < 70; ++s) {
    line[s] = {{{std::min(s + 1, 69u), 1.0}}};
    all[s] = s;
  }
  const ModelPtr every_state_initial = make_model(ModelType::mdp, line, {{"init", all}, {"b", {69}}});
  e = check_error(*every_state_initial, "Pmax=? [ F \"b\" || F \"b\" ]", ErrorCode::unsupported);
  EXPECT_NE(e.find("this MDP has 70 (at most 64 are supported)"), std::string::npos) << e;
}

// The oracle: every deterministic scheduler of the product of the MDP with
// what the run has met (nothing, a, b, both), plus, where the run has met
// neither and some scheduler can avoid a and b forever, "give up" (avoid
// them from here on: the run never counts). Each is a real scheduler of the
// MDP; its a/c ratio is computed exactly on the induced chain.
struct Oracle {
  bool defined = false;
  double min = 1.0, max = 0.0;
};

// Probability of reaching `target` from `from` in a small chain (dense
// rows), by Gaussian elimination over the states that can reach it.
double reach_probability(const std::vector<std::vector<double>>& p, const std::vector<bool>& target, size_t from) {
  const size_t n = p.size();
  std::vector<bool> can(n, false);
  for (size_t s = 0; s < n; ++s) can[s] = target[s];
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t s = 0; s < n; ++s) {
      if (can[s]) continue;
      for (size_t t = 0; t < n; ++t) {
        if (p[s][t] > 0 && can[t]) {
          can[s] = grew = true;
          break;
        }
      }
    }
  }
  if (target[from]) return 1.0;
  if (!can[from]) return 0.0;
  std::vector<size_t> unknown;
  std::vector<size_t> index(n, n);
  for (size_t s = 0; s < n; ++s) {
    if (can[s] && !target[s]) {
      index[s] = unknown.size();
      unknown.push_back(s);
    }
  }
  const size_t m = unknown.size();
  std::vector<std::vector<double>> a(m, std::vector<double>(m + 1, 0.0));  // (I − P)x = b
  for (size_t i = 0; i < m; ++i) {
    a[i][i] = 1.0;
    for (size_t t = 0; t < n; ++t) {
      if (target[t]) a[i][m] += p[unknown[i]][t];
      else if (index[t] < n) a[i][index[t]] -= p[unknown[i]][t];
    }
  }
  for (size_t c = 0; c < m; ++c) {
    size_t pivot = c;
    for (size_t r = c + 1; r < m; ++r) {
      if (std::fabs(a[r][c]) > std::fabs(a[pivot][c])) pivot = r;
    }
    std::swap(a[c], a[pivot]);
    for (size_t r = 0; r < m; ++r) {
      if (r == c || a[r][c] == 0) continue;
      const double f = a[r][c] / a[c][c];
      for (size_t k = c; k <= m; ++k) a[r][k] -= f * a[c][k];
    }
  }
  return a[index[from]][m] / a[index[from]][index[from]];
}

Oracle brute_force(const std::vector<std::vector<Choice>>& mdp, const std::vector<bool>& in_a,
                   const std::vector<bool>& in_b) {
  const size_t n = mdp.size();
  // Some scheduler avoids a ∪ b forever: the greatest set of neither-states
  // with a choice that stays inside.
  std::vector<bool> avoid(n);
  for (size_t s = 0; s < n; ++s) avoid[s] = !in_a[s] && !in_b[s];
  for (bool shrank = true; shrank;) {
    shrank = false;
    for (size_t s = 0; s < n; ++s) {
      if (!avoid[s]) continue;
      const bool stays = std::any_of(mdp[s].begin(), mdp[s].end(), [&](const Choice& c) {
        return std::all_of(c.begin(), c.end(), [&](const auto& e) { return avoid[e.first]; });
      });
      if (!stays) {
        avoid[s] = false;
        shrank = true;
      }
    }
  }
  auto mode_of = [&](size_t s, int mode) { return mode | (in_a[s] ? 1 : 0) | (in_b[s] ? 2 : 0); };
  // Product states s·4 + mode, and one "given up" state at the end.
  const size_t given_up = 4 * n;
  std::vector<size_t> points;   // product states with a decision
  std::vector<size_t> options;  // their option counts (choices, + give up)
  for (size_t s = 0; s < n; ++s) {
    for (int mode = 0; mode < 3; ++mode) {
      const size_t count = mdp[s].size() + (mode == 0 && avoid[s] ? 1 : 0);
      if (count > 1) {
        points.push_back(4 * s + static_cast<size_t>(mode));
        options.push_back(count);
      }
    }
  }
  Oracle oracle;
  std::vector<size_t> pick(points.size(), 0);
  const size_t start = 4 * 0 + static_cast<size_t>(mode_of(0, 0));
  for (;;) {
    std::vector<std::vector<double>> p(given_up + 1, std::vector<double>(given_up + 1, 0.0));
    p[given_up][given_up] = 1.0;
    for (size_t s = 0; s < n; ++s) {
      for (int mode = 0; mode < 4; ++mode) {
        const size_t from = 4 * s + static_cast<size_t>(mode);
        size_t option = 0;
        const auto it = std::find(points.begin(), points.end(), from);
        if (it != points.end()) option = pick[static_cast<size_t>(it - points.begin())];
        if (option == mdp[s].size()) {
          p[from][given_up] = 1.0;
          continue;
        }
        for (const auto& [t, prob] : mdp[s][option]) p[from][4 * t + static_cast<size_t>(mode_of(t, mode))] += prob;
      }
    }
    std::vector<bool> both(given_up + 1, false), condition(given_up + 1, false);
    for (size_t s = 0; s < n; ++s) {
      both[4 * s + 3] = true;
      condition[4 * s + 2] = condition[4 * s + 3] = true;
    }
    const double c = reach_probability(p, condition, start);
    if (c > 1e-12) {
      const double ratio = reach_probability(p, both, start) / c;
      oracle.defined = true;
      oracle.min = std::min(oracle.min, ratio);
      oracle.max = std::max(oracle.max, ratio);
    }
    size_t i = 0;
    while (i < pick.size() && ++pick[i] == options[i]) pick[i++] = 0;
    if (i == pick.size()) break;
  }
  return oracle;
}

TEST(ConditionalMdp, AgreesWithEverySchedulerOfTheProduct) {
  std::mt19937 random(24);
  auto uniform = [&](double low, double high) { return low + (high - low) * (random() % 10000) / 10000.0; };
  int compared = 0, undefined = 0, fractional = 0;
  for (int round = 0; round < 300; ++round) {
    // States 0..3 move at random (two of them choose), 4 and 5 are
    // absorbing; a and b label random states other than 0.
    const size_t n = 6, moving = 4;
    std::vector<std::vector<Choice>> mdp(n);
    size_t decisions = 0;
    for (size_t s = 0; s < n; ++s) {
      if (s >= moving) {
        mdp[s].push_back({{static_cast<uint32_t>(s), 1.0}});
        continue;
      }
      const size_t choices = decisions < 2 && random() % 2 ? 2 : 1;
      decisions += choices - 1;
      for (size_t c = 0; c < choices; ++c) {
        Choice row;
        const size_t successors = 1 + random() % 3;
        double left = 1.0;
        for (size_t k = 0; k < successors; ++k) {
          const uint32_t t = static_cast<uint32_t>(random() % n);
          const double p = k + 1 == successors ? left : left * uniform(0.2, 0.8);
          left -= p;
          auto same = std::find_if(row.begin(), row.end(), [&](const auto& e) { return e.first == t; });
          if (same != row.end()) {
            same->second += p;
          } else {
            row.emplace_back(t, p);
          }
        }
        mdp[s].push_back(row);
      }
    }
    std::vector<bool> in_a(n), in_b(n);
    std::vector<uint64_t> a_states, b_states;
    for (size_t s = 1; s < n; ++s) {
      in_a[s] = random() % 3 == 0;
      in_b[s] = random() % 3 == 0;
      if (in_a[s]) a_states.push_back(s);
      if (in_b[s]) b_states.push_back(s);
    }
    const ModelPtr m = make_model(ModelType::mdp, mdp, {{"init", {0}}, {"a", a_states}, {"b", b_states}});
    const Oracle oracle = brute_force(mdp, in_a, in_b);
    const std::string round_name = "round " + std::to_string(round);
    if (!oracle.defined) {
      const std::string e = check_error(*m, "Pmax=? [ F \"a\" || F \"b\" ]", ErrorCode::property);
      EXPECT_NE(e.find("has probability 0 under every scheduler"), std::string::npos) << round_name << ": " << e;
      ++undefined;
      continue;
    }
    const CheckResult max = check(*m, "Pmax=? [ F \"a\" || F \"b\" ]", k_tight);
    const CheckResult min = check(*m, "Pmin=? [ F \"a\" || F \"b\" ]", k_tight);
    EXPECT_NEAR(max.initial_value, oracle.max, 1e-9) << round_name;
    EXPECT_NEAR(min.initial_value, oracle.min, 1e-9) << round_name;
    EXPECT_TRUE(max.sound && min.sound) << round_name;
    EXPECT_LE(max.initial_lower, oracle.max + 1e-9) << round_name;
    EXPECT_GE(max.initial_upper, oracle.max - 1e-9) << round_name;
    EXPECT_LE(min.initial_lower, oracle.min + 1e-9) << round_name;
    EXPECT_GE(min.initial_upper, oracle.min - 1e-9) << round_name;
    // Loose ε: the bounds still enclose the value, and the midpoint is within ε.
    CheckOptions loose = with_epsilon(1e-3);
    loose.settings.relative = false;
    for (const auto& [property, exact] : {std::pair{"Pmax=? [ F \"a\" || F \"b\" ]", oracle.max},
                                          std::pair{"Pmin=? [ F \"a\" || F \"b\" ]", oracle.min}}) {
      const CheckResult r = check(*m, property, loose);
      EXPECT_LE(r.initial_lower, exact + 1e-12) << round_name << " " << property;
      EXPECT_GE(r.initial_upper, exact - 1e-12) << round_name << " " << property;
      EXPECT_NEAR(r.initial_value, exact, 1e-3) << round_name << " " << property;
    }
    ++compared;
    for (double v : {oracle.min, oracle.max}) fractional += v > 1e-6 && v < 1 - 1e-6 ? 1 : 0;
  }
  // Enough of them away from 0 and 1 to test the arithmetic, not only the graphs.
  EXPECT_GT(compared, 150) << undefined;
  EXPECT_GT(fractional, 60) << compared;
  EXPECT_GT(undefined, 0);
}

// Random chains with cycles: P(F a ∧ F b) = P(F a) + P(F b) − P(F (a | b)),
// each by exact elimination; pmc's bounds enclose the quotient at loose ε
// too, where the bounds of its operands are far from exact.
TEST(ConditionalChain, RandomChainsAgreeWithExactElimination) {
  std::mt19937 random(7);
  int compared = 0;
  for (int round = 0; round < 60; ++round) {
    const size_t n = 8;
    std::vector<std::vector<Choice>> chain(n);
    std::vector<std::vector<double>> dense(n, std::vector<double>(n, 0.0));
    for (size_t s = 0; s < n; ++s) {
      Choice row;
      double left = 1.0;
      const size_t successors = s + 1 == n ? 1 : 2 + random() % 2;
      for (size_t k = 0; k < successors; ++k) {
        const uint32_t t = s + 1 == n ? static_cast<uint32_t>(s) : static_cast<uint32_t>(random() % n);
        const double p = k + 1 == successors ? left : left * (0.2 + 0.6 * (random() % 1000) / 1000.0);
        left -= p;
        dense[s][t] += p;
      }
      for (size_t t = 0; t < n; ++t) {
        if (dense[s][t] > 0) row.emplace_back(static_cast<uint32_t>(t), dense[s][t]);
      }
      chain[s] = {row};
    }
    std::vector<bool> in_a(n), in_b(n), in_either(n);
    std::vector<uint64_t> a_states, b_states;
    for (size_t s = 1; s < n; ++s) {
      in_a[s] = random() % 4 == 0;
      in_b[s] = random() % 4 == 0;
      in_either[s] = in_a[s] || in_b[s];
      if (in_a[s]) a_states.push_back(s);
      if (in_b[s]) b_states.push_back(s);
    }
    const double pb = reach_probability(dense, in_b, 0);
    if (pb < 1e-9) continue;
    const double exact =
        (reach_probability(dense, in_a, 0) + pb - reach_probability(dense, in_either, 0)) / pb;
    const ModelPtr m = make_model(ModelType::dtmc, chain, {{"init", {0}}, {"a", a_states}, {"b", b_states}});
    const std::string property = "P=? [ F \"a\" || F \"b\" ]", name = "round " + std::to_string(round);
    expect_certified(check(*m, property, k_tight), exact, 1e-10, name);
    for (double epsilon : {1e-1, 1e-2, 1e-4}) {
      for (bool relative : {false, true}) {
        CheckOptions loose = with_epsilon(epsilon);
        loose.settings.relative = relative;
        const CheckResult r = check(*m, property, loose);
        EXPECT_LE(r.initial_lower, exact + 1e-12) << name << " at " << epsilon;
        EXPECT_GE(r.initial_upper, exact - 1e-12) << name << " at " << epsilon;
        EXPECT_NEAR(r.initial_value, exact, epsilon * (relative ? exact : 1.0) + 1e-12) << name << " at " << epsilon;
      }
    }
    ++compared;
  }
  EXPECT_GT(compared, 30);
}

// ---- Storm's LRA ----

TEST(LongRunAverage, LraIsS) {
  const ModelPtr die = load_model({k_die}, "", {});
  const CheckResult lra = check(*die, "LRA=? [ \"six\" ]", k_tight);
  EXPECT_EQ(lra.property, "LRA=? [ \"six\" ]");
  EXPECT_NEAR(lra.initial_value, 1.0 / 6, 1e-12);
  EXPECT_EQ(lra.values, check(*die, "S=? [ \"six\" ]", k_tight).values);
  EXPECT_EQ(check(*die, "LRAmax=? [ \"six\" ]", k_tight).values, lra.values);  // a chain has one "scheduler"
  EXPECT_EQ(check(*die, "R=? [ LRA ]", k_tight).values, check(*die, "R=? [ S ]", k_tight).values);

  // An MDP's: the pair of dice ends in one of 36 absorbing outcomes, one of
  // them "two", whatever the scheduler; the flips are transient.
  const ModelPtr dice = load_model({k_two_dice}, "", {});
  for (const char* property : {"LRAmax=? [ \"two\" ]", "LRAmin=? [ \"two\" ]"}) {
    const CheckResult r = check(*dice, property, k_tight);
    ASSERT_TRUE(r.sound) << property;
    EXPECT_LE(r.initial_lower, 1.0 / 36 + 1e-15) << property;
    EXPECT_GE(r.initial_upper, 1.0 / 36 - 1e-15) << property;
  }
  std::string e = check_error(*dice, "LRA=? [ \"two\" ]", ErrorCode::property);
  EXPECT_NE(e.find("an MDP has no single long-run average: ask for LRAmin=? or LRAmax=?"), std::string::npos) << e;
  e = check_error(*die, "LRA=? [ minimum ]", ErrorCode::property);
  EXPECT_NE(e.find("labels are written in double quotes, as \"minimum\""), std::string::npos) << e;
  e = check_error(*die, "LRA=? [ F \"six\" ]", ErrorCode::property);
  EXPECT_NE(e.find("found path operator 'F'"), std::string::npos) << e;
  EXPECT_EQ(e.find("double quotes"), std::string::npos) << e;
}

// The manifest's S=? and R=?[ S ] references, spelled LRA.
TEST(LongRunAverage, ManifestReferences) {
  if (testing::models_root().empty()) GTEST_SKIP() << testing::missing_models_message();
  int checked = 0;
  for (const testing::ManifestRow& row : testing::manifest()) {
    if (row.transitions > 60000) continue;
    std::string lra = row.property;
    if (lra.rfind("S=?", 0) == 0) {
      lra = "LRA" + lra.substr(1);
    } else if (const size_t at = lra.find("[ S ]"); at != std::string::npos) {
      lra.replace(at, 5, "[ LRA ]");
    } else {
      continue;
    }
    const Model& m = testing::cached_model(row);
    const CheckResult r = check(m, lra, k_tight);
    EXPECT_NEAR(r.initial_value, row.reference_value, 1e-8 * std::fabs(row.reference_value))
        << row.name() << " " << lra;
    EXPECT_EQ(r.initial_value, check(m, row.property, k_tight).initial_value) << row.name() << " " << lra;
    ++checked;
  }
  EXPECT_GE(checked, 3);  // cluster N2 and N16, tandem C15, kanban T1
}

}  // namespace
}  // namespace pmc
