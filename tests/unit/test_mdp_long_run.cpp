// Long-run averages of MDPs (LRAmin/LRAmax, Rmin/Rmax [ S ]): hand-computed
// values on a model with every kind of end component, and on random MDPs
// the optimum over every deterministic memoryless scheduler (which suffice
// for long-run averages of finite MDPs), each scheduler's induced chain
// checked by the DTMC's own long-run computation. Certified bounds must
// hold the exact value.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "check/check.hpp"
#include "common/error.hpp"

namespace pmc {
namespace {

using Row = std::vector<std::pair<uint32_t, double>>;  // (successor, probability)

struct Spec {
  std::vector<std::vector<Row>> states;  // each state's choices
  std::vector<double> state_rewards;
  std::vector<uint64_t> label;  // the states of label "a"
};

ModelPtr build(ModelType type, const Spec& spec) {
  ModelParts p;
  p.type = type;
  p.num_states = spec.states.size();
  p.row_groups = {0};
  p.row_offsets = {0};
  for (const auto& choices : spec.states) {
    for (Row row : choices) {
      std::sort(row.begin(), row.end());
      for (const auto& [to, value] : row) {
        p.columns.push_back(to);
        p.values.push_back(value);
      }
      p.row_offsets.push_back(p.columns.size());
    }
    p.row_groups.push_back(p.row_offsets.size() - 1);
  }
  Bitset a(spec.states.size());
  for (const uint64_t s : spec.label) a.set(s);
  p.labels.push_back(Label{"init", Bitset(spec.states.size())});
  p.labels[0].states.set(0);
  p.labels.push_back(Label{"a", a});
  p.rewards.push_back(RewardStructure{"r", spec.state_rewards, {}});
  return Model::create(std::move(p));
}

CheckOptions tight() {
  CheckOptions o;
  o.settings.epsilon = 1e-9;
  return o;
}

void expect_certified(const CheckResult& r, double exact, const std::string& what) {
  ASSERT_TRUE(r.sound) << what;
  EXPECT_LE(r.initial_lower, exact + 1e-12) << what;
  EXPECT_GE(r.initial_upper, exact - 1e-12) << what;
  EXPECT_NEAR(r.initial_value, exact, 1e-8) << what;
}

// From state 0, one choice into each of: a self-loop (reward 2), a cycle of
// period 2 (rewards 0, 3), an end component with a choice (stay at reward 1
// or alternate with reward 3) and a probabilistic one (1/3 of the time at
// reward 1).
Spec kinds_of_end_components() {
  Spec s;
  s.states = {
      {{{1, 1.0}}, {{2, 1.0}}, {{4, 1.0}}, {{6, 1.0}}},
      {{{1, 1.0}}},
      {{{3, 1.0}}},
      {{{2, 1.0}}},
      {{{4, 1.0}}, {{5, 1.0}}},
      {{{4, 1.0}}},
      {{{6, 0.5}, {7, 0.5}}},
      {{{6, 1.0}}},
  };
  s.state_rewards = {0, 2, 0, 3, 1, 3, 0, 1};
  s.label = {1, 3, 5, 7};
  return s;
}

TEST(MdpLongRun, EveryKindOfEndComponent) {
  const ModelPtr m = build(ModelType::mdp, kinds_of_end_components());
  expect_certified(check(*m, "R{\"r\"}max=? [ S ]", tight()), 2.0, "Rmax");
  expect_certified(check(*m, "R{\"r\"}min=? [ LRA ]", tight()), 1.0 / 3, "Rmin");
  expect_certified(check(*m, "LRAmax=? [ \"a\" ]", tight()), 1.0, "LRAmax");
  expect_certified(check(*m, "LRAmin=? [ \"a\" ]", tight()), 0.0, "LRAmin");
  // Per state: the end component {4, 5} alone.
  const CheckResult from4 = check(*m, "R{\"r\"}max=? [ S ]", tight());
  EXPECT_NEAR(from4.values[4], 2.0, 1e-8);
  EXPECT_NEAR(from4.values[6], 1.0 / 3, 1e-8);
  EXPECT_NEAR(check(*m, "R{\"r\"}min=? [ S ]", tight()).values[5], 1.0, 1e-8);
  // A bound asks about every scheduler.
  EXPECT_EQ(check(*m, "LRA>=0.3 [ \"a\" ]", tight()).initial_value, 0.0);
  EXPECT_EQ(check(*m, "LRA<=1 [ \"a\" ]", tight()).initial_value, 1.0);
}

// Negative rewards: every value shifts with them.
TEST(MdpLongRun, NegativeRewardsShiftTheValues) {
  Spec spec = kinds_of_end_components();
  for (double& r : spec.state_rewards) r -= 5;
  const ModelPtr m = build(ModelType::mdp, spec);
  expect_certified(check(*m, "R{\"r\"}max=? [ S ]", tight()), 2.0 - 5, "Rmax");
  expect_certified(check(*m, "R{\"r\"}min=? [ S ]", tight()), 1.0 / 3 - 5, "Rmin");
}

TEST(MdpLongRun, NeedsMinOrMax) {
  const ModelPtr m = build(ModelType::mdp, kinds_of_end_components());
  try {
    check(*m, "S=? [ \"a\" ]");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::property);
    EXPECT_NE(std::string(e.what()).find("an MDP has no single long-run average: ask for LRAmin=? or LRAmax=?"),
              std::string::npos)
        << e.what();
  }
}

// A random MDP of `n` states (n ≥ 6), each with 1–3 choices of 1–3
// successors: the first third transient (choices only lead to later
// states), the rest two closed groups, inside which the choices form end
// components of their own. So schedulers choose both where to end up and
// what to do there.
Spec random_spec(std::mt19937& rng, uint32_t n) {
  Spec s;
  const uint32_t transient = n / 3, split = transient + (n - transient) / 2;
  std::uniform_int_distribution<uint32_t> count(1, 3), reward(0, 4);
  std::uniform_real_distribution<double> weight(0.1, 1.0);
  for (uint32_t i = 0; i < n; ++i) {
    // Where i's choices may lead.
    const uint32_t low = i < transient ? i + 1 : (i < split ? transient : split);
    const uint32_t high = i < transient ? n - 1 : (i < split ? split - 1 : n - 1);
    std::uniform_int_distribution<uint32_t> state(low, high);
    std::vector<Row> choices;
    const uint32_t k = count(rng);
    for (uint32_t c = 0; c < k; ++c) {
      Row row;
      const uint32_t successors = count(rng);
      double total = 0;
      for (uint32_t j = 0; j < successors; ++j) {
        const uint32_t to = state(rng);
        if (std::any_of(row.begin(), row.end(), [&](const auto& e) { return e.first == to; })) continue;
        row.push_back({to, weight(rng)});
        total += row.back().second;
      }
      for (auto& e : row) e.second /= total;
      choices.push_back(row);
    }
    s.states.push_back(choices);
    s.state_rewards.push_back(reward(rng));
    if (i % 2 == 1) s.label.push_back(i);
  }
  return s;
}

// The chain a deterministic memoryless scheduler induces.
Spec induced(const Spec& mdp, const std::vector<uint32_t>& choice) {
  Spec chain = mdp;
  for (size_t i = 0; i < chain.states.size(); ++i) chain.states[i] = {mdp.states[i][choice[i]]};
  return chain;
}

TEST(MdpLongRun, OptimumOverEverySchedulerOnRandomMdps) {
  std::mt19937 rng(20261130);
  for (int round = 0; round < 6; ++round) {
    const Spec spec = random_spec(rng, 10);
    const ModelPtr mdp = build(ModelType::mdp, spec);
    for (const char* property : {"R{\"r\"}max=? [ S ]", "R{\"r\"}min=? [ S ]", "LRAmax=? [ \"a\" ]",
                                 "LRAmin=? [ \"a\" ]"}) {
      const bool maximize = std::string(property).find("max") != std::string::npos;
      const bool reward = property[0] == 'R';
      // Every scheduler's values, state by state.
      std::vector<uint32_t> choice(spec.states.size(), 0);
      std::vector<double> best(spec.states.size(), maximize ? -1.0 : 1e9);
      while (true) {
        const ModelPtr chain = build(ModelType::dtmc, induced(spec, choice));
        const CheckResult r = check(*chain, reward ? "R{\"r\"}=? [ S ]" : "S=? [ \"a\" ]", tight());
        for (size_t s = 0; s < best.size(); ++s) {
          best[s] = maximize ? std::max(best[s], r.values[s]) : std::min(best[s], r.values[s]);
        }
        size_t i = 0;
        while (i < choice.size() && ++choice[i] == spec.states[i].size()) choice[i++] = 0;
        if (i == choice.size()) break;
      }
      const CheckResult r = check(*mdp, property, tight());
      ASSERT_TRUE(r.sound) << property;
      for (size_t s = 0; s < best.size(); ++s) {
        EXPECT_LE(r.lower[s], best[s] + 1e-7) << property << " round " << round << " state " << s;
        EXPECT_GE(r.upper[s], best[s] - 1e-7) << property << " round " << round << " state " << s;
        EXPECT_NEAR(r.values[s], best[s], 1e-7) << property << " round " << round << " state " << s;
      }
      // At the defaults (ε = 1e-6, relative): certified bounds around the
      // optimum, within 2ε of it.
      const CheckResult d = check(*mdp, property);
      ASSERT_TRUE(d.sound) << property;
      for (size_t s = 0; s < best.size(); ++s) {
        const double slack = 1e-9 + 2e-6 * std::max(1e-6, std::abs(best[s]));
        EXPECT_LE(d.lower[s], best[s] + 1e-9) << property << " defaults, round " << round << " state " << s;
        EXPECT_GE(d.upper[s], best[s] - 1e-9) << property << " defaults, round " << round << " state " << s;
        EXPECT_NEAR(d.values[s], best[s], slack) << property << " defaults, round " << round << " state " << s;
      }
    }
  }
}

// One choice per state: the MDP's long-run average is the chain's.
TEST(MdpLongRun, OneChoiceIsTheChainsValue) {
  std::mt19937 rng(7);
  Spec spec = random_spec(rng, 60);
  for (auto& choices : spec.states) choices.resize(1);
  const ModelPtr mdp = build(ModelType::mdp, spec);
  const ModelPtr chain = build(ModelType::dtmc, spec);
  const CheckResult expected = check(*chain, "R{\"r\"}=? [ S ]", tight());
  for (const char* property : {"R{\"r\"}max=? [ S ]", "R{\"r\"}min=? [ S ]"}) {
    const CheckResult r = check(*mdp, property, tight());
    ASSERT_TRUE(r.sound) << property;
    for (size_t s = 0; s < spec.states.size(); ++s) EXPECT_NEAR(r.values[s], expected.values[s], 1e-7) << s;
  }
}

}  // namespace
}  // namespace pmc
