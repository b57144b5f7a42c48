// Storm's explicit dialect (issue 21): the die and two-dice examples with
// their known values (each face 1/6; two dice: a sum of two 1/36, of seven
// 1/6 whatever the scheduler; 11/3 expected flips per die), the dialect told
// apart from PRISM's by the first line, and round trips through pmc's writer.
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

TEST(StormExplicit, TwoDiceHasItsKnownValues) {
  // The reward file two_dice.flip.state.rew names the structure "flip".
  ModelPtr m = load_model({k_data + "two_dice.tra"}, "", {});
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
  ModelPtr listed = load_model({k_data + "two_dice.tra", k_data + "two_dice.lab", k_data + "two_dice.flip.state.rew"}, "", {});
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
  expect_round_trip(*load_model({k_data + "two_dice.tra"}, "", {}), "two.tra");

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

}  // namespace
}  // namespace pmc
