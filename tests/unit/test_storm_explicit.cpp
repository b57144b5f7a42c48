// Storm's explicit dialect: the die and two-dice examples with
// their known values (each face 1/6; two dice: a sum of two 1/36, of seven
// 1/6 whatever the scheduler; 11/3 expected flips per die), the dialect told
// apart from PRISM's by the first line, and round trips through pmc's writer.
// Storm's own files with 0-probability transitions that carry rewards,
// and Storm's DRN exit rates rounded to 6 digits.
// The malformed cases are in tests/data/bad/ (test_bad_inputs.cpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "check/check.hpp"
#include "common/error.hpp"
#include "formats/model_files.hpp"
#include "formats/storm_explicit.hpp"
#include "support/temp_dir.hpp"

namespace pmc {
namespace {

const std::string k_data = std::string(PMC_TEST_DATA_DIR) + "/storm/";
const std::string k_examples = std::string(PMC_TEST_DATA_DIR) + "/../../examples/";

double value(const Model& m, const std::string& property) { return check(m, property).initial_value; }

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(StormExplicit, DieHasItsKnownValues) {
  ModelPtr m = load_model({k_data + "die.tra"}, "", {});
  EXPECT_EQ(m->type(), ModelType::dtmc);
  EXPECT_EQ(m->num_states(), 13u);
  EXPECT_EQ(m->num_entries(), 20u);
  ASSERT_EQ(m->rewards().size(), 1u);
  EXPECT_EQ(m->rewards()[0].name, "");  // die.state.rew: Storm's single, unnamed structure
  for (const char* face : {"one", "two", "three", "four", "five", "six"}) {
    EXPECT_NEAR(value(*m, std::string("P=? [ F \"") + face + "\" ]"), 1.0 / 6, 1e-6) << face;
  }
  EXPECT_NEAR(value(*m, "R=? [ F \"done\" ]"), 11.0 / 3, 1e-5);
  EXPECT_EQ(m->find_label("deadlock")->states.count(), 0u);  // declared, on no state
}

TEST(StormExplicit, DicePairHasItsKnownValues) {
  // tests/reference/dice_pair.nm as pmc convert --to storm-explicit wrote it;
  // the reward file dice_pair.flip.state.rew names the structure "flip".
  ModelPtr m = load_model({k_data + "dice_pair.tra"}, "", {});
  EXPECT_EQ(m->type(), ModelType::mdp);
  EXPECT_EQ(m->num_states(), 169u);
  EXPECT_EQ(m->num_rows(), 218u);
  ASSERT_EQ(m->rewards().size(), 1u);
  EXPECT_EQ(m->rewards()[0].name, "flip");
  EXPECT_NEAR(value(*m, "Pmin=? [ F \"two\" ]"), 1.0 / 36, 1e-6);
  EXPECT_NEAR(value(*m, "Pmax=? [ F \"two\" ]"), 1.0 / 36, 1e-6);
  EXPECT_NEAR(value(*m, "Pmin=? [ F \"seven\" ]"), 1.0 / 6, 1e-6);
  EXPECT_NEAR(value(*m, "Pmax=? [ F \"seven\" ]"), 1.0 / 6, 1e-6);
  EXPECT_NEAR(value(*m, "Rmin=? [ F \"done\" ]"), 22.0 / 3, 1e-5);
  EXPECT_NEAR(value(*m, "R{\"flip\"}max=? [ F \"done\" ]"), 22.0 / 3, 1e-5);
  // Listed one by one, the reward file keeps its name.
  ModelPtr listed =
      load_model({k_data + "dice_pair.tra", k_data + "dice_pair.lab", k_data + "dice_pair.flip.state.rew"}, "", {});
  EXPECT_TRUE(listed->same_as(*m));
}

TEST(StormExplicit, TheFirstLineTellsTheDialects) {
  EXPECT_TRUE(is_storm_explicit_transitions(k_data + "die.tra"));
  EXPECT_FALSE(is_storm_explicit_transitions(k_examples + "die/die.tra"));
  // Forced, each dialect's reader reads its own files only.
  EXPECT_NO_THROW(load_model({k_data + "die.tra"}, "storm-explicit", {}));
  EXPECT_THROW(load_model({k_data + "die.tra"}, "prism", {}), Error);
  EXPECT_THROW(load_model({k_examples + "die/die.tra"}, "storm-explicit", {}), Error);
}

// PRISM's die and Storm's die are the same chain: labels, rewards, values.
TEST(StormExplicit, PrismAndStormDieAgree) {
  ModelPtr prism = load_model({k_examples + "die/die.tra", k_examples + "die/die.lab", k_examples + "die/die.srew"}, "", {});
  ModelPtr storm = load_model({k_data + "die.tra"}, "", {});
  EXPECT_EQ(prism->columns(), storm->columns());
  EXPECT_EQ(prism->values(), storm->values());
  EXPECT_EQ(prism->rewards()[0].state_rewards, storm->rewards()[0].state_rewards);
  for (const Label& l : prism->labels()) EXPECT_EQ(storm->find_label(l.name)->states, l.states) << l.name;
}

void expect_round_trip(const Model& original, const std::string& file) {
  testing::TempDir dir;
  const std::string path = dir.path(file);
  save_model(original, path, "storm-explicit");
  const std::string first_line = read_text(path);
  if (!path.ends_with(".gz")) EXPECT_EQ(first_line.substr(0, first_line.find('\n')), to_string(original.type()));
  ModelPtr back = load_model({path}, "", {});  // told apart by content
  EXPECT_TRUE(back->same_as(original)) << file;
}

TEST(StormExplicit, WrittenByPmcReadsBackEqual) {
  // PRISM's die without its .sta (Storm's dialect has no state valuations).
  ModelPtr die = load_model({k_examples + "die/die.tra", k_examples + "die/die.lab", k_examples + "die/die.srew"}, "", {});
  expect_round_trip(*die, "die.tra");      // the named structure goes to die.coin_flips.state.rew
  expect_round_trip(*die, "die.tra.gz");   // gzip, siblings .gz too
  expect_round_trip(*load_model({k_data + "dice_pair.tra"}, "", {}), "two.tra");

  // A CTMC with state and transition rewards, two structures, one unnamed.
  ModelParts p;
  p.type = ModelType::ctmc;
  p.num_states = 3;
  p.row_offsets = {0, 2, 3, 4};
  p.columns = {1, 2, 0, 0};
  p.values = {1.5, 0.25, 3, 1e-7};
  p.labels = {{"init", Bitset(3)}, {"up", Bitset(3)}};
  p.labels[0].states.set(0);
  p.labels[1].states.set(1);
  p.labels[1].states.set(2);
  p.rewards = {{"", {1, 0, 2.5}, {}}, {"time", {}, {0.5, 0, 0, 7}}};
  expect_round_trip(*Model::create(p), "chain.tra");

  // An MDP with transition rewards per choice.
  ModelParts q;
  q.type = ModelType::mdp;
  q.num_states = 2;
  q.row_groups = {0, 2, 3};
  q.row_offsets = {0, 1, 3, 4};
  q.columns = {1, 0, 1, 1};
  q.values = {1, 0.5, 0.5, 1};
  q.labels = {{"init", Bitset(2)}};
  q.labels[0].states.set(0);
  q.rewards = {{"cost", {}, {2, 0, 1, 0}}};
  expect_round_trip(*Model::create(q), "mdp.tra");
}

TEST(StormExplicit, ParametricModelsAreNotWritten) {
  ModelParts p;
  p.type = ModelType::pctmc;
  p.num_states = 2;
  p.row_offsets = {0, 1, 2};
  p.columns = {1, 0};
  p.values = {0, 1};
  p.parameters = {{"k", 0, 10}};
  p.coefficients = {1, 0};
  testing::TempDir dir;
  try {
    save_model(*Model::create(p), dir.path("p.tra"), "storm-explicit");
    FAIL() << "wrote a pCTMC";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::unsupported);
  }
}

// A Storm-dialect .tra may write a transition with probability 0
// and its .trans.rew give it a reward (Storm's own test files do). pmc drops
// both (docs/decisions.md): a transition never taken earns nothing.
// tests/data/storm/zero_transition.* (written by hand for pmc: 7 states, the
// line `5 2 0`, state and transition rewards, a state nothing reaches, the
// type line in mixed case). The expected rewards x_s = r_s + sum_t p_st (r_st
// + x_t), x_3 = 0, solved in exact fractions: R=? [F "target"] = 1325/64
// from state 0, with or without a reward on the zero transition.
TEST(StormExplicit, ZeroProbabilityTransitionWithARewardLoads) {
  const double expected = 1325.0 / 64;
  CheckOptions precise;  // the default 1e-6 relative convergence is too loose for 1e-9
  precise.settings.epsilon = 1e-12;
  auto reward = [&](const Model& model) { return check(model, "R=? [ F \"target\" ]", precise).initial_value; };
  ModelPtr m = load_model({k_data + "zero_transition.tra"}, "", {});
  EXPECT_EQ(m->num_states(), 7u);
  EXPECT_EQ(m->num_entries(), 13u);  // the file's 14 entries less the zero one
  ASSERT_EQ(m->rewards().size(), 1u);
  EXPECT_NEAR(reward(*m), expected, 1e-9);
  ASSERT_EQ(m->warnings().size(), 1u);
  EXPECT_EQ(m->warnings()[0], "dropped 1 transition(s) whose value is 0");

  // The same with reward 1000 on the zero transition: the value stays, and
  // the warning says the reward went with the transition.
  ModelPtr rewarded = load_model({k_data + "zero_transition.tra", k_data + "zero_transition.lab",
                                  k_data + "zero_transition.state.rew",
                                  k_data + "zero_transition_zero_rewarded.trans.rew"},
                                 "", {});
  EXPECT_NEAR(reward(*rewarded), expected, 1e-9);
  ASSERT_EQ(rewarded->warnings().size(), 1u);
  EXPECT_NE(rewarded->warnings()[0].find("with the transition rewards of 1 of them"), std::string::npos)
      << rewarded->warnings()[0];
}

// The same in PRISM's dialect, whose .trew reader rejected the reward with
// "state 0 has no transition to state 0" before: from state 0,
// 1/2 to each target with rewards 2 and 4, R = 3; the reward 7 on the
// written 0-probability self-loop counts for nothing.
TEST(StormExplicit, PrismTransitionRewardOnAZeroProbabilityTransition) {
  testing::TempDir dir;
  auto write = [&](const std::string& name, const std::string& text) { std::ofstream(dir.path(name)) << text; };
  write("z.tra", "3 5\n0 0 0\n0 1 0.5\n0 2 0.5\n1 1 1\n2 2 1\n");
  write("z.lab", "0=\"init\" 1=\"target\"\n0: 0\n1: 1\n2: 1\n");
  write("z.trew", "3 3\n0 0 7\n0 1 2\n0 2 4\n");
  ModelPtr m = load_model({dir.path("z.tra")}, "", {});
  EXPECT_EQ(m->num_entries(), 4u);
  EXPECT_NEAR(value(*m, "R=? [ F \"target\" ]"), 3.0, 1e-12);
}

// Storm writes a CTMC's exit rates with 6 significant digits; the
// file's sums (1.0000049, 123456.4, 0.0012345649) written as 1, 123456 and
// 0.00123456 are right, so no warning, while an exit rate 1% off is.
TEST(StormDrn, ExitRatesRoundedToSixDigitsDoNotWarn) {
  ModelPtr rounded = load_model({k_data + "ctmc_rounded_exit_rates.drn"}, "", {});
  EXPECT_TRUE(rounded->warnings().empty()) << rounded->warnings().front();
  // Out of state 0: rate 0.5000049 to "done" of 1.0000049 in all.
  EXPECT_NEAR(value(*rounded, "P=? [ X \"done\" ]"), 0.5000049 / 1.0000049, 1e-12);

  ModelPtr wrong = load_model({k_data + "ctmc_wrong_exit_rate.drn"}, "", {});
  ASSERT_EQ(wrong->warnings().size(), 1u);
  EXPECT_NE(wrong->warnings()[0].find("ctmc_wrong_exit_rate.drn: state 1: exit rate 124691 differs from the sum of its "
                                      "rates (123456.4)"),
            std::string::npos)
      << wrong->warnings()[0];
  EXPECT_TRUE(wrong->same_as(*rounded));  // pmc uses the rates either way
}

}  // namespace
}  // namespace pmc
