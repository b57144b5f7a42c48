// Model::create: normalisation (sorting rows, dropping zeros, deadlock
// self-loops) keeps every per-entry array aligned, and validation rejects
// each kind of broken model with a message naming the state.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "common/error.hpp"
#include "formats/pmcb.hpp"
#include "model/model.hpp"
#include "support/temp_dir.hpp"

namespace pmc {
namespace {

ModelParts small_mdp() {
  // State 0: choice 0 -> {1: 1}, choice 1 -> {0: 0.5, 1: 0.5}; state 1: -> {1: 1}.
  ModelParts p;
  p.type = ModelType::mdp;
  p.num_states = 2;
  p.row_groups = {0, 2, 3};
  p.row_offsets = {0, 1, 3, 4};
  p.columns = {1, 0, 1, 1};
  p.values = {1, 0.5, 0.5, 1};
  return p;
}

std::string create_error(ModelParts parts, ModelOptions options = {}) {
  try {
    Model::create(std::move(parts), options);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::model) << e.what();
    return e.what();
  }
  return "(no error)";
}

TEST(ModelBuild, SortsRowsAndKeepsRewardsAndActionsAligned) {
  ModelParts p;
  p.type = ModelType::dtmc;
  p.num_states = 3;
  p.row_offsets = {0, 3, 4, 5};
  p.columns = {2, 0, 1, 1, 2};
  p.values = {0.25, 0.0, 0.75, 1, 1};
  p.action_names = {"", "a", "b"};
  p.entry_actions = {1, 2, 2, 0, 0};
  p.rewards.push_back(RewardStructure{"r", {}, {7, 8, 9, 0, 0}});
  ModelPtr m = Model::create(std::move(p));
  EXPECT_EQ(m->columns(), (std::vector<uint32_t>{1, 2, 1, 2}));
  EXPECT_EQ(m->values(), (std::vector<double>{0.75, 0.25, 1, 1}));
  EXPECT_EQ(m->entry_actions(), (std::vector<uint32_t>{2, 1, 0, 0}));
  EXPECT_EQ(m->rewards()[0].transition_rewards, (std::vector<double>{9, 7, 0, 0}));
  ASSERT_EQ(m->warnings().size(), 1u);
  EXPECT_NE(m->warnings()[0].find("dropped 1 transition"), std::string::npos);
}

TEST(ModelBuild, DeadlockSelfLoopInMdpAndDtmc) {
  ModelParts p = small_mdp();
  p.num_states = 3;
  p.row_groups = {0, 2, 3, 3};  // state 2 has no choice
  ModelPtr m = Model::create(p);
  EXPECT_EQ(m->num_rows(), 4u);
  EXPECT_EQ(m->row_groups(), (std::vector<uint64_t>{0, 2, 3, 4}));
  EXPECT_EQ(m->columns().back(), 2u);
  EXPECT_NE(create_error(p, ModelOptions{.strict = true}).find("state 2"), std::string::npos);
}

TEST(ModelBuild, CtmcStatesWithoutTransitionsAreAbsorbing) {
  ModelParts p;
  p.type = ModelType::ctmc;
  p.num_states = 2;
  p.row_offsets = {0, 1, 1};
  p.columns = {1};
  p.values = {3.5};
  ModelPtr m = Model::create(p, ModelOptions{.strict = true});
  EXPECT_EQ(m->num_entries(), 1u);
  EXPECT_TRUE(m->warnings().empty());
}

TEST(ModelBuild, RejectsBrokenModels) {
  {
    ModelParts p = small_mdp();
    p.row_offsets = {0, 1, 1, 2};
    p.columns = {1, 1};
    p.values = {1, 1};
    EXPECT_NE(create_error(p).find("state 0, choice 1: the choice has no transitions"), std::string::npos);
  }
  {
    ModelParts p = small_mdp();
    p.values[1] = 0.6;
    EXPECT_NE(create_error(p).find("state 0, choice 1"), std::string::npos) << create_error(p);
  }
  {
    ModelParts p = small_mdp();
    p.row_groups = {0, 3, 2};
    EXPECT_NE(create_error(p), "(no error)");
  }
  {
    ModelParts p = small_mdp();
    p.columns[3] = 1u << 30;
    EXPECT_NE(create_error(p).find("but the model has 2 states"), std::string::npos) << create_error(p);
  }
  {
    ModelParts p = small_mdp();
    p.values[0] = std::numeric_limits<double>::quiet_NaN();
    EXPECT_NE(create_error(p).find("state 0"), std::string::npos) << create_error(p);
  }
  {
    ModelParts p = small_mdp();
    p.rewards.push_back(RewardStructure{"r", {1.0}, {}});  // one state reward for two states
    EXPECT_NE(create_error(p).find("\"r\""), std::string::npos) << create_error(p);
  }
  {
    ModelParts p = small_mdp();
    p.labels.push_back(Label{"a", Bitset(2)});
    p.labels.push_back(Label{"a", Bitset(2)});
    EXPECT_NE(create_error(p).find("\"a\""), std::string::npos) << create_error(p);
  }
  {
    ModelParts p = small_mdp();
    p.labels.push_back(Label{"wrong size", Bitset(5)});
    EXPECT_NE(create_error(p), "(no error)");
  }
  {
    ModelParts p = small_mdp();
    p.entry_actions = {0, 1};  // wrong length
    EXPECT_NE(create_error(p), "(no error)");
  }
  {
    ModelParts p;
    p.type = ModelType::pctmc;
    p.num_states = 1;
    p.row_offsets = {0, 1};
    p.columns = {0};
    p.values = {1};
    p.parameters = {Parameter{"k", 0, 1}};
    p.coefficients = {};  // one coefficient per entry needed
    EXPECT_NE(create_error(p), "(no error)");
  }
}

TEST(ModelBuild, CopiesWithLabelsAndRewardsLeaveTheOriginalAlone) {
  ModelPtr m = Model::create(small_mdp());
  Bitset init(2);
  init.set(0);
  ModelPtr labelled = m->with_label(Label{"init", init});
  EXPECT_EQ(m->labels().size(), 0u);
  ASSERT_NE(labelled->initial_states(), nullptr);
  EXPECT_TRUE(labelled->initial_states()->test(0));
  EXPECT_FALSE(labelled->same_as(*m));
  ModelPtr rewarded = labelled->with_rewards(RewardStructure{"time", {1, 2}, {}});
  EXPECT_EQ(rewarded->find_rewards("time"), rewarded->find_rewards(""));
  EXPECT_EQ(rewarded->find_rewards("other"), nullptr);
  EXPECT_THROW(rewarded->with_rewards(RewardStructure{"time", {1, 2}, {}}), Error);
}

// Names are bytes as the model files held them, not necessarily UTF-8 (a
// PRISM .tra with a Latin-1 action): .pmcb must keep them (fuzzing the
// readers found that it did not, proto3 refusing non-UTF-8 strings).
TEST(ModelBuild, NamesThatAreNotUtf8SurviveThePmcbRoundTrip) {
  testing::TempDir dir;
  ModelParts p = small_mdp();
  p.action_names = {"", "st\xd0p"};
  p.entry_actions = {1, 0, 0, 1};
  Bitset states(2);
  states.set(1);
  p.labels.push_back(Label{"caf\xe9", states});
  p.rewards.push_back(RewardStructure{"r\xff", {1, 2}, {}});
  p.valuations = StateValuations{{"v\x80"}, {0}, {3, 4}};
  ModelParts pctmc;
  pctmc.type = ModelType::pctmc;
  pctmc.num_states = 1;
  pctmc.row_offsets = {0, 1};
  pctmc.columns = {0};
  pctmc.values = {1};
  pctmc.parameters = {Parameter{"k\xc3", 0, 1}};
  pctmc.coefficients = {2};
  for (const ModelParts* parts : {&p, &pctmc}) {
    ModelPtr m = Model::create(*parts);
    const std::string path = dir.path("names.pmcb");
    write_pmcb(*m, path);
    EXPECT_TRUE(Model::create(read_pmcb(path))->same_as(*m)) << to_string(m->type());
  }
}

// The checks scan large models on every core (normalize.cpp): the error
// reported is still the first in state order, as the serial scan gave.
ModelParts long_chain(uint64_t n) {
  ModelParts p;
  p.type = ModelType::dtmc;
  p.num_states = n;
  for (uint64_t s = 0; s < n; ++s) {
    p.row_offsets.push_back(s);
    p.columns.push_back(static_cast<uint32_t>(std::min(s + 1, n - 1)));
    p.values.push_back(1.0);
  }
  p.row_offsets.push_back(n);
  return p;
}

TEST(ModelBuild, ErrorsInLargeModelsNameTheFirstBadState) {
  const uint64_t n = 300000;
  ModelParts p = long_chain(n);
  p.values[250000] = 1.5;
  p.values[150001] = -1;
  p.values[150000] = 0.5;  // sums to 0.5: the first bad row
  EXPECT_NE(create_error(p).find("state 150000: probabilities sum to 0.5"), std::string::npos) << create_error(p);
  p = long_chain(n);
  p.columns[200000] = static_cast<uint32_t>(n);
  p.columns[100000] = static_cast<uint32_t>(n + 7);
  EXPECT_NE(create_error(p).find("state 100000: transition to state 300007"), std::string::npos) << create_error(p);
  p = long_chain(n);
  p.rewards.push_back(RewardStructure{"r", std::vector<double>(n, 1.0), {}});
  p.rewards[0].state_rewards[123456] = std::numeric_limits<double>::infinity();
  p.rewards[0].state_rewards[200000] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(create_error(p).find("state 123456 has reward inf"), std::string::npos) << create_error(p);
  p = long_chain(n);
  p.row_offsets[70000] = p.row_offsets[70001] + 1;
  EXPECT_NE(create_error(p).find("row offsets decrease at index 70001"), std::string::npos) << create_error(p);
  EXPECT_TRUE(Model::create(long_chain(n))->num_states() == n);
}

// Valuations are packed (model/state_valuations.hpp): each field spans the
// variable's least to greatest value, negative values, 32-bit extremes and
// one-valued variables included, and reads back exactly.
TEST(StateValuations, PackedValuesReadBackAsGiven) {
  const std::vector<int32_t> values{-5, 0, 7, INT32_MIN, 1, 1, 7, INT32_MAX, 3, 0, 7, -1};
  const StateValuations v({"a", "b", "c", "d"}, {0, 1, 0, 0}, values);
  ASSERT_TRUE(v.consistent());
  EXPECT_EQ(v.num_states(), 3u);
  EXPECT_EQ(v.unpacked(), values);
  EXPECT_EQ(v.value(1, 3), INT32_MAX);
  EXPECT_EQ(v.value(2, 2), 7);  // c takes one value: no bits
  // The 32-bit span of d needs a word of its own beside a, b and c.
  EXPECT_LT(v.bytes(), values.size() * sizeof(int32_t) + 200);
}

TEST(StateValuations, EqualByValueHoweverPacked) {
  // x in [0..3] packed from the values, and from a declared range [0..15]
  // (the explorer's layout: 4 bits at the top of the word).
  const StateValuations from_values({"x"}, {0}, std::vector<int32_t>{0, 3, 1});
  const StateValuations declared({"x"}, {0}, {{0, 60, 0xf, 0}}, 1, {0ull << 60, 3ull << 60, 1ull << 60});
  ASSERT_TRUE(declared.consistent());
  EXPECT_EQ(declared.unpacked(), (std::vector<int32_t>{0, 3, 1}));
  EXPECT_TRUE(from_values == declared);
  const StateValuations other({"x"}, {0}, std::vector<int32_t>{0, 3, 2});
  EXPECT_FALSE(from_values == other);
  EXPECT_FALSE(from_values == StateValuations({"y"}, {0}, std::vector<int32_t>{0, 3, 1}));
}

TEST(StateValuations, AValuationForEachStateIsRequired) {
  ModelParts p = small_mdp();
  p.valuations = StateValuations({"x"}, {0}, std::vector<int32_t>{1, 2, 3});
  EXPECT_NE(create_error(p).find("values for 3 states, but the model has 2"), std::string::npos) << create_error(p);
  p.valuations = StateValuations({"x"}, {0}, {{5, 0, 1, 0}}, 1, {0, 1});  // word 5 of 1
  EXPECT_NE(create_error(p).find("do not match"), std::string::npos) << create_error(p);
}

}  // namespace
}  // namespace pmc
