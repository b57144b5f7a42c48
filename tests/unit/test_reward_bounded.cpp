// Reward bounds (F^{rew{"r"}~b} φ, F{"r"}~b φ, ψ U^{rew{"r"}~b} φ): their
// syntax, epoch unfolding on small chains and MDPs whose values are worked
// out by hand, agreement with unbounded reachability on the explicit
// product of random models with their epochs, and the errors for models
// and properties the algorithm does not take.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "check/check.hpp"
#include "common/error.hpp"
#include "property/parser.hpp"

namespace pmc {
namespace {

using property::Comparison;
using property::parse_property;

// One step: successor, probability, transition reward.
struct Step {
  uint32_t to;
  double probability;
  double reward = 0;
};
using Choice = std::vector<Step>;

// One inner vector per state: its choices (one for a chain). Reward
// structure "r": `state_rewards` (may be empty) and the steps' rewards.
ModelPtr make_model(ModelType type, const std::vector<std::vector<Choice>>& states,
                    const std::vector<std::pair<std::string, std::vector<uint64_t>>>& labels,
                    std::vector<double> state_rewards = {}) {
  ModelParts p;
  p.type = type;
  p.num_states = states.size();
  p.row_groups = {0};
  p.row_offsets = {0};
  RewardStructure r{"r", std::move(state_rewards), {}};
  for (const auto& choices : states) {
    for (Choice row : choices) {
      std::sort(row.begin(), row.end(), [](const Step& a, const Step& b) { return a.to < b.to; });
      for (const Step& step : row) {
        p.columns.push_back(step.to);
        p.values.push_back(step.probability);
        r.transition_rewards.push_back(step.reward);
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
  p.rewards = {std::move(r)};
  return Model::create(std::move(p));
}

CheckOptions tight(const std::string& solver = "auto") {
  CheckOptions o;
  o.solver = solver;
  o.settings.epsilon = 1e-10;
  return o;
}

std::string check_error(const Model& m, const std::string& property, ErrorCode code) {
  try {
    check(m, property, tight());
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    return e.what();
  }
  return "(no error)";
}

// The result is certified, its bounds enclose `exact` in state `s`, and its
// value is within ε of it.
void expect_value(const CheckResult& r, uint64_t s, double exact, const std::string& what) {
  ASSERT_TRUE(r.sound) << what;
  EXPECT_LE(r.lower[s], exact + 1e-13) << what;
  EXPECT_GE(r.upper[s], exact - 1e-13) << what;
  EXPECT_NEAR(r.values[s], exact, 1e-9) << what;
}

// ---- syntax ----

TEST(RewardBoundSyntax, StormsSpellings) {
  struct Case {
    const char* text;
    const char* name;
    Comparison comparison;
    double bound;
    bool short_form;
  };
  for (const Case& c : {
           Case{"P=? [ F^{rew{\"time\"}<=200} \"a\" ]", "time", Comparison::less_equal, 200, false},
           Case{"P=? [ F{\"time\"}<5 \"a\" ]", "time", Comparison::less, 5, true},
           Case{"Pmax=? [ F^{rew{\"u\"}>=3} \"a\" ]", "u", Comparison::greater_equal, 3, false},
           Case{"P=? [ F ^ { rew { \"u\" } > 3 } \"a\" ]", "u", Comparison::greater, 3, false},
           Case{"P=? [ F{rew{\"u\"}<=2.5} \"a\" ]", "u", Comparison::less_equal, 2.5, false},
           Case{"P=? [ F^{rew<=4} \"a\" ]", "", Comparison::less_equal, 4, false},
           Case{"P=? [ \"b\" U^{rew{\"u\"}<=4} \"a\" ]", "u", Comparison::less_equal, 4, false},
           Case{"P=? [ \"b\" U{\"u\"}>=4 \"a\" ]", "u", Comparison::greater_equal, 4, true},
       }) {
    const property::Property p = parse_property(c.text);
    const property::PathFormula& path = *p.top_operator()->path;
    ASSERT_TRUE(path.reward_bound.has_value()) << c.text;
    EXPECT_TRUE(path.bound.unbounded()) << c.text;
    EXPECT_EQ(path.reward_bound->reward_name, c.name) << c.text;
    EXPECT_EQ(path.reward_bound->comparison, c.comparison) << c.text;
    EXPECT_EQ(path.reward_bound->bound.value, c.bound) << c.text;
    EXPECT_EQ(path.reward_bound->written_short, c.short_form) << c.text;
    // Printed as written, and read back to the same tree.
    const std::string printed = to_string(p);
    const property::Property again = parse_property(printed);
    EXPECT_EQ(to_string(again), printed) << c.text;
    const property::RewardBound& read = *again.top_operator()->path->reward_bound;
    EXPECT_EQ(read.reward_name, c.name) << c.text;
    EXPECT_EQ(read.comparison, c.comparison) << c.text;
    EXPECT_EQ(read.bound, path.reward_bound->bound) << c.text;
    EXPECT_EQ(read.written_short, c.short_form) << c.text;
    EXPECT_TRUE(p.needs_unbounded_reachability()) << c.text;
  }
  EXPECT_EQ(to_string(parse_property("P=? [ F^{rew{\"time\"}<=deadline} \"a\" ]")),
            "P=? [ F^{rew{\"time\"}<=deadline} \"a\" ]");
  EXPECT_EQ(to_string(parse_property("P=? [ F{\"r\"}<=B-1 \"a\" ]")), "P=? [ F{\"r\"}<=(B - 1) \"a\" ]");
  EXPECT_EQ(to_string(parse_property("P=? [ F^{rew<=4} \"a\" ]")), "P=? [ F^{rew<=4} \"a\" ]");
  // The firewire property: the bound ends where the state formula starts.
  const property::Property firewire =
      parse_property("Pmin=? [ F^{rew{\"time\"}<=deadline} ((s1=8) & (s2=7)) | ((s1=7) & (s2=8))]");
  EXPECT_EQ(firewire.top_operator()->path->right->kind, property::StateKind::disjunction);
}

TEST(RewardBoundSyntax, StepsAndTimeAreTheTimeBound) {
  EXPECT_EQ(to_string(parse_property("P=? [ F^{steps<=5} \"a\" ]")), "P=? [ F<=5 \"a\" ]");
  EXPECT_EQ(to_string(parse_property("P=? [ F^{time>=1.5} \"a\" ]")), "P=? [ F>=1.5 \"a\" ]");
  EXPECT_EQ(to_string(parse_property("P=? [ \"b\" U^{[1,3]} \"a\" ]")), "P=? [ \"b\" U[1,3] \"a\" ]");
  EXPECT_EQ(to_string(parse_property("P=? [ F^{time=2} \"a\" ]")), "P=? [ F[2,2] \"a\" ]");
}

// The error's code and the start of its first line.
void expect_parse_error(const std::string& text, ErrorCode code, const std::string& message) {
  try {
    parse_property(text);
    ADD_FAILURE() << "no error for " << text;
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << text << ": " << e.what();
    const std::string first = std::string(e.what()).substr(0, std::string(e.what()).find('\n'));
    EXPECT_EQ(first.substr(0, message.size()), message) << text;
  }
}

TEST(RewardBoundSyntax, ConstructsNotSupportedAreNamed) {
  expect_parse_error("P=? [ F^{rew{\"a\"}<=5, rew{\"b\"}<=3} \"x\" ]", ErrorCode::unsupported,
                     "column 23: a second bound on one path formula (multi-dimensional bounds");
  expect_parse_error("P=? [ F{\"a\"}<=5, {\"b\"}<=3 \"x\" ]", ErrorCode::unsupported,
                     "column 18: a second bound on one path formula");
  expect_parse_error("P=? [ F^{steps<=5, rew{\"b\"}<=3} \"x\" ]", ErrorCode::unsupported,
                     "column 20: a second bound on one path formula");
  expect_parse_error("P=? [ F^{rew{\"a\"}[1,5]} \"x\" ]", ErrorCode::unsupported,
                     "column 10: a reward interval (rew[a,b] or rew=b; a reward bound is <, <=, > or >= one value) is "
                     "not supported");
  expect_parse_error("P=? [ G^{rew{\"a\"}<=5} \"x\" ]", ErrorCode::unsupported,
                     "column 8: a reward bound on G (reward bounds are for F and U) is not supported");
  // Other tools' constructs pmc does not check: named, not a parse error.
  expect_parse_error("multi(Pmax=? [ F \"a\" ], Pmax=? [ F \"b\" ])", ErrorCode::unsupported,
                     "column 1: multi(...) (multi-objective queries) is not supported");
  expect_parse_error("P=? [ G F \"a\" ]", ErrorCode::unsupported, "column 9: 'F' where a state formula stands: LTL");
  expect_parse_error("P=? [ F G \"a\" ]", ErrorCode::unsupported, "column 9: 'G' where a state formula stands: LTL");
  expect_parse_error("P=? [ X X \"a\" ]", ErrorCode::unsupported, "column 9: 'X' where a state formula stands: LTL");
  expect_parse_error("P=? [ F^{rew{\"a\"}<=5} F \"x\" ]", ErrorCode::unsupported,
                     "column 23: 'F' where a state formula stands: LTL");
}

TEST(RewardBoundSyntax, MalformedBoundsSayWhatWasExpected) {
  expect_parse_error("P=? [ F^ \"a\" ]", ErrorCode::property,
                     "column 10: expected '{' after '^' (bounds as in F^{rew{\"r\"}<=5}) but found \"a\"");
  expect_parse_error("P=? [ F^{rew{\"r\"}} \"a\" ]", ErrorCode::property,
                     "column 18: expected '<=', '<', '>=', '>', '=' or '['");
  expect_parse_error("P=? [ F{\"r\"}<=-1 \"a\" ]", ErrorCode::property,
                     "column 15: expected a non-negative reward bound but found '-'");
  expect_parse_error("P=? [ F^{rew{\"r\"}<=5 \"a\" ]", ErrorCode::property,
                     "column 22: expected ',' or '}' closing the bounds but found \"a\"");
  expect_parse_error("P=? [ F^{rew{r}<=5} \"a\" ]", ErrorCode::property,
                     "column 14: expected a reward structure name in double quotes but found 'r'");
  expect_parse_error("P=? [ F{\"r\"} \"a\" ]", ErrorCode::property, "column 14: expected '<=', '<', '>=', '>'");
  expect_parse_error("P=? [ X^{rew{\"r\"}<=5} \"a\" ]", ErrorCode::property, "column 8: 'X' takes no time bound");
  expect_parse_error("R=? [ F{\"r\"}<=5 \"a\" ]", ErrorCode::property,
                     "column 8: a reward operator takes an unbounded 'F'");
  expect_parse_error("P=? [ F^{steps<5} \"a\" ]", ErrorCode::property,
                     "column 10: strict time bound is not supported; use '<=', '>=' or '[t1,t2]'");
}

// ---- epoch unfolding by hand ----

// 0 →(½, 0) 0, 0 →(½, 0) 1; 1 →(½, reward 1) 2 = "g", 1 →(¼, reward 2) 0,
// 1 →(¼, 0) 3 (sink). The steps without reward loop (0 on itself, 0 → 1 → 0
// is not: it earns 2), so every epoch iterates. From 0 and 1 alike (0 reaches
// 1 for free), with v the probability of "g" within reward e:
//   v_e = ½·[e ≥ 1] + ¼·v_{e−2}:  v_0 = 0, v_1 = v_2 = ½, v_3 = v_4 = 5/8, v_5 = 21/32;
// unbounded 2/3. Reaching "g" after k returns (probability ½·¼^k) earns 1 + 2k, so
// P(reward ≥ N) = (2/3)·¼^ceil((N−1)/2): N = 1: 2/3, N = 2, 3: 1/6, N = 4: 1/24.
ModelPtr looping_chain() {
  return make_model(ModelType::dtmc,
                    {{{{0, 0.5}, {1, 0.5}}},
                     {{{2, 0.5, 1}, {0, 0.25, 2}, {3, 0.25}}},
                     {{{2, 1.0}}},
                     {{{3, 1.0}}}},
                    {{"init", {0}}, {"g", {2}}, {"b", {1}}});
}

TEST(RewardBoundedChain, UpperBoundsByHand) {
  const ModelPtr m = looping_chain();
  const double v[] = {0, 0.5, 0.5, 0.625, 0.625, 21.0 / 32};
  for (int e = 0; e <= 5; ++e) {
    const std::string property = "P=? [ F^{rew{\"r\"}<=" + std::to_string(e) + "} \"g\" ]";
    const CheckResult r = check(*m, property, tight());
    expect_value(r, 0, v[e], property);
    expect_value(r, 1, v[e], property);
    expect_value(r, 2, 1.0, property);  // the target itself, with nothing earned
    expect_value(r, 3, 0.0, property);
    EXPECT_TRUE(r.scheduler.empty());
  }
  // Strict and real bounds round to the integer bound they mean; no
  // reward is below 0.
  expect_value(check(*m, "P=? [ F{\"r\"}<3 \"g\" ]", tight()), 0, 0.5, "<3");
  expect_value(check(*m, "P=? [ F{\"r\"}<=3.9 \"g\" ]", tight()), 0, 0.625, "<=3.9");
  expect_value(check(*m, "P=? [ F{\"r\"}<3.5 \"g\" ]", tight()), 0, 0.625, "<3.5");
  const CheckResult none = check(*m, "P=? [ F{\"r\"}<0 \"g\" ]", tight());
  EXPECT_EQ(none.values, std::vector<double>(4, 0.0));
  // Unknown rewards: the default structure is the first.
  expect_value(check(*m, "P=? [ F^{rew<=3} \"g\" ]", tight()), 0, 0.625, "rew<=3");
}

TEST(RewardBoundedChain, LowerBoundsByHand) {
  const ModelPtr m = looping_chain();
  const double w[] = {2.0 / 3, 2.0 / 3, 1.0 / 6, 1.0 / 6, 1.0 / 24};
  for (int n = 0; n <= 4; ++n) {
    const std::string property = "P=? [ F^{rew{\"r\"}>=" + std::to_string(n) + "} \"g\" ]";
    const CheckResult r = check(*m, property, tight());
    expect_value(r, 0, w[n], property);
    // From "g" itself nothing more is earned: only the bound 0 holds there.
    expect_value(r, 2, n == 0 ? 1.0 : 0.0, property);
  }
  expect_value(check(*m, "P=? [ F{\"r\"}>2 \"g\" ]", tight()), 0, 1.0 / 6, ">2");
  expect_value(check(*m, "P=? [ F{\"r\"}>0.5 \"g\" ]", tight()), 0, 2.0 / 3, ">0.5");
  expect_value(check(*m, "P=? [ F{\"r\"}>=3.5 \"g\" ]", tight()), 0, 1.0 / 24, ">=3.5");
}

// Each solve runs at ε/(2·epochs): over 200 epochs whose problems iterate
// (0 and 1 call each other without reward) and whose values keep changing,
// the bounds still meet ε (relative, the default) around the exact value.
// 0 →(0.95, 0) 1, 0 →(0.05, 1) "g"; 1 →(½, 0) 0, 1 →(0.49, 1) 4 →(1, 0) 0,
// 1 →(0.01, 0) sink:
//   v_e(0) = 0.95·v_e(1) + 0.05·[e ≥ 1],  v_e(1) = ½·v_e(0) + 0.49·v_{e−1}(0),
// so v_e(0) = (0.4655·v_{e−1}(0) + 0.05·[e ≥ 1]) / 0.525.
TEST(RewardBoundedChain, TwoHundredEpochsMeetEpsilon) {
  const ModelPtr chain = make_model(ModelType::dtmc,
                                    {{{{1, 0.95}, {2, 0.05, 1}}},
                                     {{{0, 0.5}, {4, 0.49, 1}, {3, 0.01}}},
                                     {{{2, 1.0}}},
                                     {{{3, 1.0}}},
                                     {{{0, 1.0}}}},
                                    {{"init", {0}}, {"g", {2}}});
  std::vector<double> v{0.0};
  for (int e = 1; e <= 200; ++e) v.push_back((0.4655 * v[e - 1] + 0.05) / 0.525);
  CheckOptions options;  // ε = 1e-6
  const CheckResult r = check(*chain, "P=? [ F^{rew{\"r\"}<=200} \"g\" ]", options);
  ASSERT_TRUE(r.sound);
  EXPECT_LE(r.initial_lower, v[200] + 1e-13);
  EXPECT_GE(r.initial_upper, v[200] - 1e-13);
  EXPECT_GT(r.initial_upper - r.initial_lower, 0.0);  // the epochs did iterate
  EXPECT_LE(r.initial_upper - r.initial_lower, 2e-6 * r.initial_lower);
  // Epoch 0 is 0 (no exit is free), epoch 1 reads exact values (one solve),
  // every later one two.
  const std::string note = "reward bound: 201 epochs of 3 unknowns (399 solves, rewards up to 1)";
  EXPECT_NE(std::find(r.notes.begin(), r.notes.end(), note), r.notes.end());
}

// The same chain under a lower bound: "g" must come after N rewards. Then
// "g" itself (no more reward) is a trap, the unbounded u = P(F "g") is
// solved first, and with w the probability from 0:
//   w_1 = (0.4655·u + 0.05) / 0.525,  w_e = (0.4655 / 0.525)·w_{e−1},
//   u = 0.05 / 0.0595.
// After 150 epochs w is about 1e-8: relative widths must not become absolute.
TEST(RewardBoundedChain, LowerBoundOverManyEpochsMeetsEpsilon) {
  const ModelPtr chain = make_model(ModelType::dtmc,
                                    {{{{1, 0.95}, {2, 0.05, 1}}},
                                     {{{0, 0.5}, {4, 0.49, 1}, {3, 0.01}}},
                                     {{{2, 1.0}}},
                                     {{{3, 1.0}}},
                                     {{{0, 1.0}}}},
                                    {{"init", {0}}, {"g", {2}}});
  const double u = 0.05 / 0.0595;
  double w = (0.4655 * u + 0.05) / 0.525;
  for (int e = 2; e <= 150; ++e) w *= 0.4655 / 0.525;
  CheckOptions options;  // ε = 1e-6, relative
  const CheckResult r = check(*chain, "P=? [ F^{rew{\"r\"}>=150} \"g\" ]", options);
  ASSERT_TRUE(r.sound);
  EXPECT_LE(r.initial_lower, w * (1 + 1e-12));
  EXPECT_GE(r.initial_upper, w * (1 - 1e-12));
  EXPECT_GT(r.initial_upper - r.initial_lower, 0.0);
  EXPECT_LE(r.initial_upper - r.initial_lower, 2e-6 * r.initial_lower) << r.initial_lower;
  EXPECT_NEAR(w, 1.38e-8, 0.01e-8);
}

TEST(RewardBoundedChain, UntilStopsOutsideItsLeftSide) {
  // "b" U ... from 1: a return to 0 leaves "b", so only the first try counts.
  const ModelPtr m = looping_chain();
  const CheckResult r = check(*m, "P=? [ \"b\" U^{rew{\"r\"}<=3} \"g\" ]", tight());
  expect_value(r, 1, 0.5, "U<=3 from 1");
  expect_value(r, 0, 0.0, "U<=3 from 0");
  expect_value(r, 2, 1.0, "U<=3 from g");
  const CheckResult lower = check(*m, "P=? [ \"b\" U{\"r\"}>=1 \"g\" ]", tight());
  expect_value(lower, 1, 0.5, "U>=1 from 1");
}

TEST(RewardBoundedChain, StateRewardsCountWhenTheStateIsLeft) {
  // The chain's transition rewards moved to states where they are the
  // same on every step: 1 earns 1 on each of its steps, so returning
  // costs 1 and reaching "g" costs 1: v_e = ½·[e ≥ 1] + ¼·v_{e−1}.
  const ModelPtr m = make_model(ModelType::dtmc,
                                {{{{0, 0.5}, {1, 0.5}}},
                                 {{{2, 0.5}, {0, 0.25}, {3, 0.25}}},
                                 {{{2, 1.0}}},
                                 {{{3, 1.0}}}},
                                {{"init", {0}}, {"g", {2}}}, {0, 1, 5, 0});
  const double v[] = {0, 0.5, 0.625, 0.65625};
  for (int e = 0; e <= 3; ++e) {
    const std::string property = "P=? [ F{\"r\"}<=" + std::to_string(e) + " \"g\" ]";
    expect_value(check(*m, property, tight()), 0, v[e], property);
  }
  // The target's own state reward is never earned on the way to it.
  expect_value(check(*m, "P=? [ F{\"r\"}<=1 \"g\" ]", tight()), 2, 1.0, "from g");
}

TEST(RewardBoundedChain, ThresholdsAndNesting) {
  const ModelPtr m = looping_chain();
  const CheckResult r = check(*m, "P>=0.6 [ F^{rew{\"r\"}<=3} \"g\" ]", tight());
  ASSERT_TRUE(r.is_boolean);
  EXPECT_EQ(r.values, (std::vector<double>{1, 1, 1, 0}));
  EXPECT_NEAR(r.initial_operator_value, 0.625, 1e-9);
  EXPECT_TRUE(r.sound);
  // Nested: the states from which "g" is likely within reward 3, reached.
  const CheckResult nested = check(*m, "P=? [ F P>0.6 [ F{\"r\"}<=3 \"g\" ] ]", tight());
  EXPECT_NEAR(nested.initial_value, 1.0, 1e-9);
}

TEST(RewardBoundedChain, EverySolverThatSolvesItsEpochs) {
  const ModelPtr m = looping_chain();
  for (const std::string solver : {"cpu.jacobi", "cpu.gauss-seidel", "cpu.bicgstab", "cpu.interval-vi"}) {
    const CheckResult r = check(*m, "P=? [ F^{rew{\"r\"}<=5} \"g\" ]", tight(solver));
    EXPECT_NEAR(r.initial_value, 21.0 / 32, 1e-8) << solver;
    EXPECT_EQ(r.solver_names(), solver);
  }
  // An unsound solver gives values without bounds, and says so.
  CheckOptions unsound = tight();
  unsound.settings.sound = false;
  const CheckResult r = check(*m, "P=? [ F^{rew{\"r\"}<=5} \"g\" ]", unsound);
  EXPECT_NEAR(r.initial_value, 21.0 / 32, 1e-8);
  EXPECT_FALSE(r.sound);
}

// 0: a → "g" earning 3; b → 1 earning 1. 1: a → ½ "g", ½ back to 0, earning
// nothing; `stay`: a self-loop earning nothing (an end component).
//   Pmax: v_e(1) = ½ + ½·v_e(0), v_e(0) = max([e ≥ 3], v_{e−1}(1)):
//   v(0) = 0, ½, ¾, 1 for e = 0..3.
// Without `stay`, Pmin: v_e(0) = min([e ≥ 3], v_{e−1}(1)): 0, 0, 0, ½, ¾, 7/8.
ModelPtr choice_mdp(bool stay) {
  std::vector<Choice> one{{{2, 0.5}, {0, 0.5}}};
  if (stay) one.push_back({{1, 1.0}});
  return make_model(ModelType::mdp, {{{{2, 1.0, 3}}, {{1, 1.0, 1}}}, one, {{{2, 1.0}}}},
                    {{"init", {0}}, {"g", {2}}});
}

TEST(RewardBoundedMdp, UpperBoundsByHand) {
  const ModelPtr with_stay = choice_mdp(true);
  const double max[] = {0, 0.5, 0.75, 1};
  for (int e = 0; e <= 3; ++e) {
    const std::string property = "Pmax=? [ F^{rew{\"r\"}<=" + std::to_string(e) + "} \"g\" ]";
    expect_value(check(*with_stay, property, tight()), 0, max[e], property);
  }
  // With `stay` the minimum is 0: staying in 1 forever never reaches "g".
  expect_value(check(*with_stay, "Pmin=? [ F^{rew{\"r\"}<=5} \"g\" ]", tight()), 0, 0.0, "Pmin with stay");
  const ModelPtr without = choice_mdp(false);
  const double min[] = {0, 0, 0, 0.5, 0.75, 0.875};
  for (int e = 0; e <= 5; ++e) {
    const std::string property = "Pmin=? [ F^{rew{\"r\"}<=" + std::to_string(e) + "} \"g\" ]";
    expect_value(check(*without, property, tight()), 0, min[e], property);
  }
  // P>=p holds when the minimum does.
  const CheckResult r = check(*without, "P>=0.7 [ F{\"r\"}<=4 \"g\" ]", tight());
  EXPECT_EQ(r.values[0], 1.0);
  EXPECT_EQ(check(*without, "P>=0.7 [ F{\"r\"}<=3 \"g\" ]", tight()).values[0], 0.0);
  EXPECT_NE(check_error(*without, "P=? [ F{\"r\"}<=3 \"g\" ]", ErrorCode::property).find("Pmin=? or Pmax=?"),
            std::string::npos);
}

// Without `stay`, once "g" is reached nothing more is earned (its loop is a
// trap of the epochs): w_e(1) = ½·w_e(0),
//   Pmin: w_e(0) = min(a: [e ≤ 3], b: [e ≤ 1] or w_{e−1}(1)): 1, ½, ¼, 0 for e = 1..4;
//   Pmax: 1, 1, 1, ½, ¼ for e = 1..5.
TEST(RewardBoundedMdp, LowerBoundsByHand) {
  const ModelPtr m = choice_mdp(false);
  const double min[] = {1, 1, 0.5, 0.25, 0};
  const double max[] = {1, 1, 1, 1, 0.5, 0.25};
  for (int n = 0; n <= 5; ++n) {
    const std::string bound = "F^{rew{\"r\"}>=" + std::to_string(n) + "} \"g\" ]";
    if (n <= 4) expect_value(check(*m, "Pmin=? [ " + bound, tight()), 0, min[n], "Pmin " + bound);
    expect_value(check(*m, "Pmax=? [ " + bound, tight()), 0, max[n], "Pmax " + bound);
  }
  // With `stay` the maximum may loop in 1 before going on: the same values.
  const ModelPtr with_stay = choice_mdp(true);
  expect_value(check(*with_stay, "Pmax=? [ F^{rew{\"r\"}>=5} \"g\" ]", tight()), 0, 0.25, "Pmax with stay");
}

bool has_note(const CheckResult& r, const std::string& text) {
  return std::any_of(r.notes.begin(), r.notes.end(), [&](const std::string& n) { return n.find(text) != n.npos; });
}

TEST(RewardBoundedMdp, EverySolverThatSolvesItsEpochs) {
  const ModelPtr mdp = choice_mdp(true);
  for (const std::string solver : {"cpu.vi", "cpu.topo-vi", "cpu.interval-vi", "cpu.topo-interval-vi"}) {
    const CheckResult r = check(*mdp, "Pmax=? [ F^{rew{\"r\"}<=2} \"g\" ]", tight(solver));
    EXPECT_NEAR(r.initial_value, 0.75, 1e-8) << solver;
    EXPECT_EQ(r.solver_names(), solver);
  }
  // Without `stay` no zero-reward step returns (1 → 0 is the only one):
  // two exact Bellman steps solve each epoch, unless a solver that solves
  // no step-bounded problem is named.
  const ModelPtr acyclic = choice_mdp(false);
  const CheckResult steps = check(*acyclic, "Pmin=? [ F^{rew{\"r\"}<=4} \"g\" ]", tight());
  expect_value(steps, 0, 0.75, "exact steps");
  EXPECT_TRUE(has_note(steps, "(5 solves of 2 exact steps, rewards up to 3)")) << steps.notes.front();
  EXPECT_FALSE(has_note(steps, "stationary after"));
  const CheckResult named = check(*acyclic, "Pmin=? [ F^{rew{\"r\"}<=4} \"g\" ]", tight("cpu.interval-vi"));
  expect_value(named, 0, 0.75, "cpu.interval-vi");
  EXPECT_EQ(named.solver_names(), "cpu.interval-vi");
  EXPECT_FALSE(has_note(named, "exact steps"));
}

// ---- against the explicit product of a model and its epochs ----

// A random model (one choice per state for a DTMC) with rewards 0..2 on
// steps and 0..1 on states, so that zero-reward cycles and end components
// occur.
struct RandomModel {
  std::vector<std::vector<Choice>> states;
  std::vector<double> state_rewards;
  std::vector<uint64_t> left, right;
};

RandomModel random_model(std::mt19937& rng, bool mdp) {
  RandomModel m;
  const uint32_t n = 4 + rng() % 5;
  for (uint32_t s = 0; s < n; ++s) {
    const uint32_t choices = mdp ? 1 + rng() % 3 : 1;
    std::vector<Choice> row;
    for (uint32_t c = 0; c < choices; ++c) {
      std::vector<uint32_t> targets;
      const uint32_t k = 1 + rng() % 3;
      for (uint32_t i = 0; i < k; ++i) {
        const uint32_t t = rng() % n;
        if (std::find(targets.begin(), targets.end(), t) == targets.end()) targets.push_back(t);
      }
      Choice choice;
      for (uint32_t t : targets) {
        choice.push_back({t, 1.0 / static_cast<double>(targets.size()), static_cast<double>(rng() % 3)});
      }
      row.push_back(choice);
    }
    m.states.push_back(row);
    m.state_rewards.push_back(static_cast<double>(rng() % 4 == 0));
    if (rng() % 4 == 0) m.right.push_back(s);
    if (rng() % 5 != 0) m.left.push_back(s);
  }
  return m;
}

// The product of `m` with the epochs of `<=limit` (upper) or `>=limit`:
// state (s, e) is s·(limit + 1) + e; two more states, the goal and the
// sink. Epoch e is the reward still allowed (upper) or still needed,
// floored at 0 (lower). Its reachability of "goal" is the bound's value.
ModelPtr product(const RandomModel& m, bool mdp, bool upper, uint32_t limit) {
  const auto n = static_cast<uint32_t>(m.states.size());
  const uint32_t width = limit + 1, goal = n * width, sink = goal + 1;
  auto in = [](const std::vector<uint64_t>& set, uint32_t s) { return std::find(set.begin(), set.end(), s) != set.end(); };
  std::vector<std::vector<Choice>> states(sink + 1);
  for (uint32_t s = 0; s < n; ++s) {
    for (uint32_t e = 0; e <= limit; ++e) {
      auto& choices = states[s * width + e];
      const bool target = in(m.right, s) && (upper || e == 0);
      if (target || !in(m.left, s)) {
        choices.push_back({{target ? goal : sink, 1.0}});
        continue;
      }
      for (const Choice& c : m.states[s]) {
        Choice step;
        for (const Step& st : c) {
          const auto earned = static_cast<int64_t>(st.reward + m.state_rewards[s]);
          const int64_t next = static_cast<int64_t>(e) - earned;
          uint32_t to = sink;
          if (!upper) to = st.to * width + static_cast<uint32_t>(std::max<int64_t>(next, 0));
          if (upper && next >= 0) to = st.to * width + static_cast<uint32_t>(next);
          auto same = std::find_if(step.begin(), step.end(), [&](const Step& x) { return x.to == to; });
          if (same != step.end()) {
            same->probability += st.probability;
          } else {
            step.push_back({to, st.probability});
          }
        }
        choices.push_back(step);
      }
    }
  }
  states[goal] = {{{goal, 1.0}}};
  states[sink] = {{{sink, 1.0}}};
  return make_model(mdp ? ModelType::mdp : ModelType::dtmc, states, {{"goal", {goal}}});
}

TEST(RewardBoundedRandom, AgreesWithTheProductsReachability) {
  std::mt19937 rng(20180414);
  int compared = 0;
  for (int round = 0; round < 60; ++round) {
    const bool mdp = round % 2 == 1;
    const RandomModel m = random_model(rng, mdp);
    std::vector<uint64_t> init{0};
    ModelPtr model = make_model(mdp ? ModelType::mdp : ModelType::dtmc, m.states,
                                {{"init", init}, {"L", m.left}, {"R", m.right}}, m.state_rewards);
    for (const bool upper : {true, false}) {
      const uint32_t limit = rng() % 5 + (upper ? 0 : 1);
      const ModelPtr unfolded = product(m, mdp, upper, limit);
      for (const char* opt : mdp ? std::vector<const char*>{"max", "min"} : std::vector<const char*>{""}) {
        const std::string bound = std::string(upper ? "<=" : ">=") + std::to_string(limit);
        const std::string property = std::string("P") + opt + "=? [ \"L\" U^{rew{\"r\"}" + bound + "} \"R\" ]";
        const CheckResult r = check(*model, property, tight());
        const CheckResult reference = check(*unfolded, std::string("P") + opt + "=? [ F \"goal\" ]", tight());
        ASSERT_TRUE(r.sound) << property;
        for (uint32_t s = 0; s < m.states.size(); ++s) {
          const uint64_t at = s * (limit + 1) + limit;
          const std::string what = property + " round " + std::to_string(round) + " state " + std::to_string(s);
          EXPECT_NEAR(r.values[s], reference.values[at], 1e-8) << what;
          // Both are certified: their intervals meet.
          EXPECT_LE(r.lower[s], reference.upper[at] + 1e-12) << what;
          EXPECT_GE(r.upper[s], reference.lower[at] - 1e-12) << what;
          EXPECT_LE(r.upper[s] - r.lower[s], 2e-10 * std::max(r.lower[s], 1e-9) + 1e-15) << what;
          ++compared;
        }
      }
    }
  }
  EXPECT_GT(compared, 500);
}

// ---- what the algorithm does not take ----

TEST(RewardBoundedErrors, RewardsMustBeNonNegativeIntegers) {
  const ModelPtr half_state = make_model(ModelType::dtmc, {{{{1, 1.0}}}, {{{1, 1.0}}}}, {{"g", {1}}}, {0.5, 0});
  EXPECT_EQ(check_error(*half_state, "P=? [ F{\"r\"}<=3 \"g\" ]", ErrorCode::unsupported),
            "column 8: reward bound over \"r\": the reward of state 0 is 0.5; epoch unfolding needs non-negative "
            "integer rewards");
  const ModelPtr half_step = make_model(ModelType::dtmc, {{{{1, 1.0, 0.5}}}, {{{1, 1.0}}}}, {{"g", {1}}});
  EXPECT_EQ(check_error(*half_step, "P=? [ F^{rew{\"r\"}<=3} \"g\" ]", ErrorCode::unsupported),
            "column 8: reward bound over \"r\": the reward of the transition from state 0 to state 1 is 0.5; epoch "
            "unfolding needs non-negative integer rewards");
  const ModelPtr negative = make_model(ModelType::mdp, {{{{1, 1.0}}, {{1, 1.0, -1}}}, {{{1, 1.0}}}}, {{"g", {1}}});
  EXPECT_EQ(check_error(*negative, "Pmax=? [ F^{rew{\"r\"}>=1} \"g\" ]", ErrorCode::unsupported),
            "column 11: reward bound over \"r\": the reward of the transition from state 0 (choice 1) to state 1 is "
            "-1; epoch unfolding needs non-negative integer rewards");
  // Where no epoch reads a reward, it may be anything.
  const ModelPtr unread = make_model(ModelType::dtmc, {{{{1, 1.0, 1}}}, {{{1, 1.0, 0.5}}}}, {{"g", {1}}});
  EXPECT_EQ(check(*unread, "P=? [ F{\"r\"}<=1 \"g\" ]", tight()).values[0], 1.0);
}

TEST(RewardBoundedErrors, PropertiesThatDoNotFitTheModel) {
  const ModelPtr m = looping_chain();
  EXPECT_EQ(check_error(*m, "P=? [ F{\"time\"}<=3 \"g\" ]", ErrorCode::property),
            "column 8: unknown reward structure \"time\" (the model has \"r\")");
  EXPECT_NE(check_error(*m, "P=? [ F{\"r\"}<=(1-2) \"g\" ]", ErrorCode::property)
                .find("column 16: reward bound 1 - 2 = -1 must be a non-negative number"),
            std::string::npos);
  EXPECT_NE(check_error(*m, "P=? [ F{\"r\"}<=1e10 \"g\" ]", ErrorCode::unsupported)
                .find("column 8: reward bound 10000000000.0 needs 10000000000 epochs; pmc unfolds at most 2147483648"),
            std::string::npos);
  CheckOptions few = tight();
  few.settings.max_iterations = 100;
  try {
    check(*m, "P=? [ F{\"r\"}<=100 \"g\" ]", few);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).find(
                  "column 8: reward bound 100 needs 101 epochs, more than the iteration limit 100 (raise it with "),
              0u)
        << e.what();
  }
  EXPECT_NO_THROW(check(*m, "P=? [ F{\"r\"}<=99 \"g\" ]", few));
  ModelParts ctmc;
  ctmc.type = ModelType::ctmc;
  ctmc.num_states = 2;
  ctmc.row_offsets = {0, 1, 1};
  ctmc.columns = {1};
  ctmc.values = {2.0};
  Bitset g(2);
  g.set(1);
  ctmc.labels = {Label{"g", g}};
  ctmc.rewards = {RewardStructure{"r", {1.0, 0.0}, {}}};
  const ModelPtr c = Model::create(std::move(ctmc));
  EXPECT_EQ(check_error(*c, "P=? [ F^{rew{\"r\"}<=3} \"g\" ]", ErrorCode::unsupported),
            "column 8: reward bounds (^{rew{\"r\"}<=3}) on a CTMC are not supported; pmc checks them on DTMCs and "
            "MDPs");
  EXPECT_NE(check_error(*m, "P=? [ F{\"r\"}<=3 \"g\" || F \"b\" ]", ErrorCode::unsupported)
                .find("a reward bound in a conditional probability"),
            std::string::npos);
}

}  // namespace
}  // namespace pmc
