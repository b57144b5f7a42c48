// Model generators through the C ABI (pmc_generator_*, pmc_expansion_*,
// pmc_model_explore): the die, a gambler's ruin, a small MDP and a CTMC
// written as callbacks give the same models, file for file, as their
// PRISM-language sources; the state orders, state bytes, limits and every
// error a frontend can make.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "pmc/pmc.h"
#include "support/explicit_files.hpp"
#include "support/temp_dir.hpp"

namespace {

using pmc::testing::read_file;

const std::string k_data = PMC_TEST_DATA_DIR;
const std::string k_die_source = k_data + "/../../examples/die/die.pm";

std::string last_error() { return pmc_last_error(); }

// Owning handles, so a failed assertion leaks nothing (the ASan run).
struct ModelHandle {
  pmc_model* model = nullptr;
  ~ModelHandle() { pmc_model_free(model); }
};
struct GeneratorHandle {
  pmc_generator* generator = nullptr;
  ~GeneratorHandle() { pmc_generator_free(generator); }
};
struct OptionsHandle {
  pmc_options* options = nullptr;
  OptionsHandle() { pmc_options_create(&options); }
  ~OptionsHandle() { pmc_options_free(options); }
};

double check(const pmc_model* model, const char* property) {
  pmc_result* result = nullptr;
  EXPECT_EQ(pmc_check(model, property, nullptr, &result), PMC_OK) << property << ": " << last_error();
  double value = NAN;
  if (result != nullptr) pmc_result_initial_value(result, &value);
  pmc_result_free(result);
  return value;
}

// Both models saved as PRISM explicit files (.tra with its .lab, .srew,
// .trew siblings) are byte for byte the same.
void expect_same_files(const pmc_model* generated, const pmc_model* source) {
  pmc::testing::TempDir dir;
  ASSERT_EQ(pmc_model_save(generated, dir.path("generated.tra").c_str(), nullptr), PMC_OK) << last_error();
  ASSERT_EQ(pmc_model_save(source, dir.path("source.tra").c_str(), nullptr), PMC_OK) << last_error();
  pmc::testing::expect_same_prism_files(dir.path("generated.tra"), dir.path("source.tra"));
}

// --- The die (examples/die/die.pm): state [s, d], one byte each. ---------

struct DieIds {
  uint64_t done = 0, faces[7] = {}, coin_flips = 0;
};

int expand_die(const void* state, uint64_t size, pmc_expansion* e, void* user_data) {
  const auto* ids = static_cast<const DieIds*>(user_data);
  if (size != 2) return 1;
  const auto* v = static_cast<const uint8_t*>(state);
  const uint8_t s = v[0], d = v[1];
  auto go = [&](uint8_t s2, uint8_t d2) {
    const uint8_t target[2] = {s2, d2};
    pmc_expansion_add_transition(e, 0.5, target, 2);
  };
  if (s < 3) {
    go(static_cast<uint8_t>(2 * s + 1), d);
    go(static_cast<uint8_t>(2 * s + 2), d);
  } else if (s == 3) {
    go(1, d);
    go(7, 1);
  } else if (s == 6) {
    go(2, d);
    go(7, 6);
  } else if (s == 4 || s == 5) {
    go(7, static_cast<uint8_t>(2 * s - 6));
    go(7, static_cast<uint8_t>(2 * s - 5));
  } else {
    pmc_expansion_add_transition(e, 1.0, state, 2);
  }
  if (s == 7) {
    pmc_expansion_set_label(e, ids->done);
    pmc_expansion_set_label(e, ids->faces[d]);
  } else {
    pmc_expansion_set_state_reward(e, ids->coin_flips, 1.0);
  }
  return 0;
}

struct Die {
  DieIds ids;
  GeneratorHandle g;
  explicit Die(pmc_state_order order = PMC_STATE_ORDER_BYTES) {
    EXPECT_EQ(pmc_generator_create(PMC_MODEL_DTMC, 2, expand_die, &ids, &g.generator), PMC_OK) << last_error();
    EXPECT_EQ(pmc_generator_set_fixed_size(g.generator, 1), PMC_OK);
    EXPECT_EQ(pmc_generator_set_order(g.generator, order), PMC_OK);
    const uint8_t initial[2] = {0, 0};
    EXPECT_EQ(pmc_generator_add_initial_state(g.generator, initial, 2), PMC_OK);
    EXPECT_EQ(pmc_generator_add_label(g.generator, "done", &ids.done), PMC_OK);
    const char* names[] = {"one", "two", "three", "four", "five", "six"};
    for (int f = 1; f <= 6; ++f) EXPECT_EQ(pmc_generator_add_label(g.generator, names[f - 1], &ids.faces[f]), PMC_OK);
    EXPECT_EQ(pmc_generator_add_rewards(g.generator, "coin_flips", &ids.coin_flips), PMC_OK);
  }
};

TEST(Generator, TheDieIsItsSourceFileForFile) {
  Die die;
  ModelHandle generated, source;
  ASSERT_EQ(pmc_model_explore(die.g.generator, nullptr, &generated.model), PMC_OK) << last_error();
  ASSERT_EQ(pmc_model_build_prism(k_die_source.c_str(), nullptr, nullptr, &source.model), PMC_OK) << last_error();
  uint64_t states = 0, transitions = 0;
  pmc_model_num_states(generated.model, &states);
  pmc_model_num_transitions(generated.model, &transitions);
  EXPECT_EQ(states, 13u);
  EXPECT_EQ(transitions, 20u);
  expect_same_files(generated.model, source.model);
  EXPECT_NEAR(check(generated.model, "P=? [ F \"six\" ]"), 1.0 / 6, 1e-6 / 6);  // certified to ε = 1e-6
  EXPECT_EQ(check(generated.model, "P=? [ F \"six\" ]"), check(source.model, "P=? [ F \"six\" ]"));
  EXPECT_NEAR(check(generated.model, "R{\"coin_flips\"}=? [ F \"done\" ]"), 11.0 / 3, 1e-6);
}

TEST(Generator, StateBytesMapBothWays) {
  for (pmc_state_order order : {PMC_STATE_ORDER_BYTES, PMC_STATE_ORDER_BFS}) {
    Die die(order);
    ModelHandle model;
    ASSERT_EQ(pmc_model_explore(die.g.generator, nullptr, &model.model), PMC_OK) << last_error();
    uint64_t states = 0;
    pmc_model_num_states(model.model, &states);
    std::vector<std::vector<uint8_t>> seen;
    for (uint64_t s = 0; s < states; ++s) {
      uint8_t bytes[4] = {};
      uint64_t size = 0;
      ASSERT_EQ(pmc_model_state_bytes(model.model, s, bytes, sizeof bytes, &size), PMC_OK) << last_error();
      ASSERT_EQ(size, 2u);
      uint64_t found = 99;
      ASSERT_EQ(pmc_model_find_state(model.model, bytes, size, &found), PMC_OK) << last_error();
      EXPECT_EQ(found, s);
      seen.emplace_back(bytes, bytes + 2);
    }
    if (order == PMC_STATE_ORDER_BYTES) {
      EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
    } else {
      // A one-threaded breadth-first search: the root, its children, theirs...
      const std::vector<std::vector<uint8_t>> first = {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}, {6, 0}, {7, 1}};
      EXPECT_EQ(std::vector<std::vector<uint8_t>>(seen.begin(), seen.begin() + 8), first);
    }
    // Its size only, and bytes that are no state.
    uint64_t size = 0;
    EXPECT_EQ(pmc_model_state_bytes(model.model, 0, nullptr, 0, &size), PMC_OK);
    EXPECT_EQ(size, 2u);
    EXPECT_EQ(pmc_model_state_bytes(model.model, states, nullptr, 0, &size), PMC_ERROR_INVALID_ARGUMENT);
    const uint8_t nowhere[2] = {9, 9};
    uint64_t found = 0;
    EXPECT_EQ(pmc_model_find_state(model.model, nowhere, 2, &found), PMC_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(last_error().find("0x0909"), std::string::npos) << last_error();
  }
  // A model from a file has no state bytes.
  ModelHandle source;
  ASSERT_EQ(pmc_model_build_prism(k_die_source.c_str(), nullptr, nullptr, &source.model), PMC_OK);
  uint64_t size = 0;
  EXPECT_EQ(pmc_model_state_bytes(source.model, 0, nullptr, 0, &size), PMC_ERROR_UNSUPPORTED);
}

// --- Gambler's ruin (tests/data/generator/gambler.pm): state [x]. --------

struct Ids {
  uint64_t a = 0, b = 0, rewards = 0;
};

int expand_gambler(const void* state, uint64_t, pmc_expansion* e, void* user_data) {
  const auto* ids = static_cast<const Ids*>(user_data);
  const uint8_t x = *static_cast<const uint8_t*>(state);
  if (x > 0 && x < 10) {
    const uint8_t up = static_cast<uint8_t>(x + 1), down = static_cast<uint8_t>(x - 1);
    pmc_expansion_add_choice(e, "bet");
    pmc_expansion_add_transition(e, 0.4, &up, 1);
    pmc_expansion_add_transition(e, 0.6, &down, 1);
    pmc_expansion_set_state_reward(e, ids->rewards, 1.0);
  } else {
    pmc_expansion_add_transition(e, 1.0, &x, 1);
    pmc_expansion_set_label(e, ids->b);
    if (x == 10) pmc_expansion_set_label(e, ids->a);
  }
  return 0;
}

TEST(Generator, GamblersRuinIsItsSourceFileForFile) {
  Ids ids;
  GeneratorHandle g;
  ASSERT_EQ(pmc_generator_create(PMC_MODEL_DTMC, 1, expand_gambler, &ids, &g.generator), PMC_OK);
  const uint8_t five = 5;
  pmc_generator_add_initial_state(g.generator, &five, 1);
  pmc_generator_add_label(g.generator, "win", &ids.a);
  pmc_generator_add_label(g.generator, "done", &ids.b);
  pmc_generator_add_rewards(g.generator, "rounds", &ids.rewards);
  ModelHandle generated, source;
  ASSERT_EQ(pmc_model_explore(g.generator, nullptr, &generated.model), PMC_OK) << last_error();
  ASSERT_EQ(pmc_model_build_prism((k_data + "/generator/gambler.pm").c_str(), nullptr, nullptr, &source.model), PMC_OK)
      << last_error();
  expect_same_files(generated.model, source.model);
  const double win = (1 - std::pow(1.5, 5)) / (1 - std::pow(1.5, 10));
  EXPECT_NEAR(check(generated.model, "P=? [ F \"win\" ]"), win, 1e-6 * win);
  EXPECT_EQ(check(generated.model, "R{\"rounds\"}=? [ F \"done\" ]"), check(source.model, "R{\"rounds\"}=? [ F \"done\" ]"));
}

// --- The walk MDP (tests/data/generator/walk.nm): state [c]. -------------

int expand_walk(const void* state, uint64_t, pmc_expansion* e, void* user_data) {
  const auto* ids = static_cast<const Ids*>(user_data);
  const uint8_t c = *static_cast<const uint8_t*>(state);
  const uint8_t zero = 0;
  if (c < 4) {
    const uint8_t next = static_cast<uint8_t>(c + 1);
    pmc_expansion_add_choice(e, "east");
    pmc_expansion_add_transition(e, 0.9, &next, 1);
    pmc_expansion_add_transition(e, 0.1, &c, 1);
    pmc_expansion_set_choice_reward(e, ids->rewards, 1.0);
  }
  if (c < 3) {
    const uint8_t jump = static_cast<uint8_t>(c + 2);
    pmc_expansion_add_choice(e, "jump");
    pmc_expansion_add_transition(e, 0.5, &jump, 1);
    pmc_expansion_add_transition(e, 0.5, &zero, 1);
    pmc_expansion_set_choice_reward(e, ids->rewards, 1.0);
  }
  if (c == 4) {
    pmc_expansion_add_choice(e, "stay");
    pmc_expansion_add_transition(e, 1.0, &c, 1);
    pmc_expansion_set_label(e, ids->a);
  }
  return 0;
}

TEST(Generator, AnMdpIsItsSourceFileForFile) {
  Ids ids;
  GeneratorHandle g;
  ASSERT_EQ(pmc_generator_create(PMC_MODEL_MDP, 1, expand_walk, &ids, &g.generator), PMC_OK);
  const uint8_t zero = 0;
  pmc_generator_add_initial_state(g.generator, &zero, 1);
  pmc_generator_add_label(g.generator, "goal", &ids.a);
  pmc_generator_add_rewards(g.generator, "moves", &ids.rewards);
  ModelHandle generated, source;
  ASSERT_EQ(pmc_model_explore(g.generator, nullptr, &generated.model), PMC_OK) << last_error();
  ASSERT_EQ(pmc_model_build_prism((k_data + "/generator/walk.nm").c_str(), nullptr, nullptr, &source.model), PMC_OK)
      << last_error();
  uint64_t choices = 0;
  pmc_model_num_choices(generated.model, &choices);
  EXPECT_EQ(choices, 8u);
  expect_same_files(generated.model, source.model);
  EXPECT_EQ(check(generated.model, "Pmax=? [ F \"goal\" ]"), check(source.model, "Pmax=? [ F \"goal\" ]"));
  EXPECT_EQ(check(generated.model, "Rmin=? [ F \"goal\" ]"), check(source.model, "Rmin=? [ F \"goal\" ]"));
}

// --- A CTMC: an M/M/1 queue of capacity 4, arrivals 2, service 3. --------

int expand_queue(const void* state, uint64_t, pmc_expansion* e, void* user_data) {
  const auto* ids = static_cast<const Ids*>(user_data);
  const uint8_t k = *static_cast<const uint8_t*>(state);
  if (k < 4) {
    const uint8_t more = static_cast<uint8_t>(k + 1);
    pmc_expansion_add_transition(e, 2.0, &more, 1);
  } else {
    pmc_expansion_set_label(e, ids->a);
  }
  if (k > 0) {
    const uint8_t fewer = static_cast<uint8_t>(k - 1);
    pmc_expansion_add_transition(e, 3.0, &fewer, 1);
  }
  return 0;
}

TEST(Generator, ACtmcHasItsStationaryDistribution) {
  Ids ids;
  GeneratorHandle g;
  ASSERT_EQ(pmc_generator_create(PMC_MODEL_CTMC, 1, expand_queue, &ids, &g.generator), PMC_OK);
  const uint8_t empty = 0;
  pmc_generator_add_initial_state(g.generator, &empty, 1);
  pmc_generator_add_label(g.generator, "full", &ids.a);
  ModelHandle model;
  ASSERT_EQ(pmc_model_explore(g.generator, nullptr, &model.model), PMC_OK) << last_error();
  pmc_model_kind kind = PMC_MODEL_DTMC;
  pmc_model_type(model.model, &kind);
  EXPECT_EQ(kind, PMC_MODEL_CTMC);
  double norm = 0;
  for (int k = 0; k <= 4; ++k) norm += std::pow(2.0 / 3, k);
  EXPECT_NEAR(check(model.model, "S=? [ \"full\" ]"), std::pow(2.0 / 3, 4) / norm, 1e-6);
}

// --- States of varying size: the words over {a, b} up to length 3. -------

int expand_words(const void* state, uint64_t size, pmc_expansion* e, void*) {
  if (size == 3) {
    pmc_expansion_add_transition(e, 1.0, nullptr, 0);  // back to the empty word
    return 0;
  }
  std::vector<uint8_t> next(static_cast<const uint8_t*>(state), static_cast<const uint8_t*>(state) + size);
  next.push_back('b');
  pmc_expansion_add_transition(e, 0.5, next.data(), next.size());
  next.back() = 'a';
  pmc_expansion_add_transition(e, 0.5, next.data(), next.size());
  return 0;
}

TEST(Generator, StatesOfVaryingSizeAreOrderedAsMemcmp) {
  GeneratorHandle g;
  ASSERT_EQ(pmc_generator_create(PMC_MODEL_DTMC, 3, expand_words, nullptr, &g.generator), PMC_OK);
  ASSERT_EQ(pmc_generator_add_initial_state(g.generator, nullptr, 0), PMC_OK);
  ModelHandle model;
  ASSERT_EQ(pmc_model_explore(g.generator, nullptr, &model.model), PMC_OK) << last_error();
  uint64_t states = 0;
  pmc_model_num_states(model.model, &states);
  ASSERT_EQ(states, 15u);  // 1 + 2 + 4 + 8
  std::vector<std::string> words;
  for (uint64_t s = 0; s < states; ++s) {
    char bytes[3] = {};
    uint64_t size = 0;
    ASSERT_EQ(pmc_model_state_bytes(model.model, s, bytes, 3, &size), PMC_OK);
    words.emplace_back(bytes, size);
  }
  EXPECT_EQ(words[0], "");
  EXPECT_EQ(words[1], "a");
  EXPECT_EQ(words[2], "aa");
  EXPECT_EQ(words[3], "aaa");
  EXPECT_EQ(words[4], "aab");
  EXPECT_TRUE(std::is_sorted(words.begin(), words.end()));
  uint64_t transitions = 0;
  pmc_model_num_transitions(model.model, &transitions);
  EXPECT_EQ(transitions, 7u * 2 + 8);
}

// --- Threads: a thread-safe torus walk on 1, 2 and 8 threads. ------------

constexpr int k_side = 150;

int expand_torus(const void* state, uint64_t, pmc_expansion* e, void*) {
  uint16_t xy[2];
  std::memcpy(xy, state, sizeof xy);
  const int x = xy[0], y = xy[1];
  const int steps[4][2] = {{1, 0}, {k_side - 1, 0}, {0, 1}, {0, k_side - 1}};
  const double p[4] = {0.4, 0.1, 0.3, 0.2};
  for (int i = 0; i < 4; ++i) {
    const uint16_t next[2] = {static_cast<uint16_t>((x + steps[i][0]) % k_side),
                              static_cast<uint16_t>((y + steps[i][1]) % k_side)};
    pmc_expansion_add_transition(e, p[i], next, sizeof next);
  }
  return 0;
}

std::string torus_files(unsigned threads, pmc_state_order order) {
  GeneratorHandle g;
  EXPECT_EQ(pmc_generator_create(PMC_MODEL_DTMC, 4, expand_torus, nullptr, &g.generator), PMC_OK);
  pmc_generator_set_thread_safe(g.generator, 1);
  pmc_generator_set_order(g.generator, order);
  const uint16_t origin[2] = {0, 0};
  pmc_generator_add_initial_state(g.generator, origin, sizeof origin);
  OptionsHandle options;
  pmc_options_set_threads(options.options, threads);
  ModelHandle model;
  EXPECT_EQ(pmc_model_explore(g.generator, options.options, &model.model), PMC_OK) << last_error();
  uint64_t states = 0;
  pmc_model_num_states(model.model, &states);
  EXPECT_EQ(states, uint64_t{k_side} * k_side);
  pmc::testing::TempDir dir;
  EXPECT_EQ(pmc_model_save(model.model, dir.path("torus.tra").c_str(), nullptr), PMC_OK);
  return read_file(dir.path("torus.tra")) + read_file(dir.path("torus.lab"));
}

TEST(Generator, ThreadsGiveTheSameModel) {
  for (pmc_state_order order : {PMC_STATE_ORDER_BYTES, PMC_STATE_ORDER_BFS}) {
    const std::string one = torus_files(1, order);
    EXPECT_EQ(torus_files(2, order), one);
    EXPECT_EQ(torus_files(8, order), one);
  }
}

// --- Errors. ---------------------------------------------------------------

struct Scenario {
  int what = 0;
  int calls = 0;
};

int expand_badly(const void* state, uint64_t size, pmc_expansion* e, void* user_data) {
  auto* scenario = static_cast<Scenario*>(user_data);
  ++scenario->calls;
  const uint8_t next = static_cast<uint8_t>(*static_cast<const uint8_t*>(state) + 1);
  const uint8_t long_state[3] = {1, 2, 3};
  switch (scenario->what) {
    case 0:  // the callback fails with a message (and no pmc_status)
      pmc_expansion_fail(e, "the frontend could not evaluate `x/0`");
      return -1;
    case 1:  // the frontend's own interrupt: that code
      return PMC_ERROR_CANCELLED;
    case 9:  // 1, as many C callbacks say "failed": a model error, not an invalid argument
      return 1;
    case 2:  // probabilities summing to 0.9
      pmc_expansion_add_transition(e, 0.5, &next, 1);
      pmc_expansion_add_transition(e, 0.4, state, size);
      return 0;
    case 3:  // a target longer than declared, the status ignored
      pmc_expansion_add_transition(e, 1.0, long_state, 3);
      return 0;
    case 4:  // a negative probability
      pmc_expansion_add_transition(e, -0.5, &next, 1);
      return 0;
    case 5:  // an undeclared label
      pmc_expansion_add_transition(e, 1.0, state, size);
      pmc_expansion_set_label(e, 7);
      return 0;
    case 6:  // a reward before any transition
      pmc_expansion_set_transition_reward(e, 0, 1.0);
      return 0;
    case 7:  // a deadlock in the second state
      if (*static_cast<const uint8_t*>(state) == 0) pmc_expansion_add_transition(e, 1.0, &next, 1);
      return 0;
    case 10:  // a transition of value 0 reaches nothing: one state, a self-loop
      pmc_expansion_add_transition(e, 0.0, &next, 1);
      pmc_expansion_add_transition(e, 1.0, state, size);
      return 0;
    case 8:  // an endless chain, for the state limit and cancellation
      pmc_expansion_add_transition(e, 1.0, &next, 1);
      return 0;
    default: return 0;
  }
}

pmc_status explore_scenario(int what, const pmc_options* options, std::string& message, int max_size = 1) {
  Scenario scenario{what};
  GeneratorHandle g;
  EXPECT_EQ(pmc_generator_create(PMC_MODEL_DTMC, static_cast<uint64_t>(max_size), expand_badly, &scenario, &g.generator), PMC_OK);
  uint64_t ignored = 0;
  pmc_generator_add_rewards(g.generator, "r", &ignored);
  const uint8_t zero = 0;
  pmc_generator_add_initial_state(g.generator, &zero, 1);
  ModelHandle model;
  const pmc_status status = pmc_model_explore(g.generator, options, &model.model);
  message = last_error();
  if (status != PMC_OK) EXPECT_EQ(model.model, nullptr);
  return status;
}

TEST(Generator, CallbackErrorsStopTheExplorationNamingTheState) {
  std::string message;
  EXPECT_EQ(explore_scenario(0, nullptr, message), PMC_ERROR_MODEL);
  EXPECT_NE(message.find("the frontend could not evaluate `x/0`"), std::string::npos) << message;
  EXPECT_NE(message.find("state 0x00"), std::string::npos) << message;
  EXPECT_EQ(explore_scenario(1, nullptr, message), PMC_ERROR_CANCELLED);
  EXPECT_NE(message.find("the callback returned 11"), std::string::npos) << message;
  EXPECT_EQ(explore_scenario(9, nullptr, message), PMC_ERROR_MODEL);
  EXPECT_NE(message.find("the callback returned 1"), std::string::npos) << message;
  EXPECT_EQ(explore_scenario(2, nullptr, message), PMC_ERROR_MODEL);
  EXPECT_NE(message.find("sum to 0.9"), std::string::npos) << message;
  EXPECT_EQ(explore_scenario(3, nullptr, message), PMC_ERROR_MODEL);
  EXPECT_NE(message.find("the target has 3 bytes, but the generator's states have at most 1"), std::string::npos)
      << message;
  EXPECT_EQ(explore_scenario(4, nullptr, message), PMC_ERROR_MODEL);
  EXPECT_NE(message.find("probability -0.5"), std::string::npos) << message;
  EXPECT_EQ(explore_scenario(5, nullptr, message), PMC_ERROR_MODEL);
  EXPECT_NE(message.find("label 7 was not declared"), std::string::npos) << message;
  EXPECT_EQ(explore_scenario(6, nullptr, message), PMC_ERROR_MODEL);
  EXPECT_NE(message.find("no transition has been added yet"), std::string::npos) << message;
}

TEST(Generator, TransitionsOfValueZeroReachNothing) {
  for (pmc_state_order order : {PMC_STATE_ORDER_BYTES, PMC_STATE_ORDER_BFS}) {
    Scenario scenario{10};
    GeneratorHandle g;
    ASSERT_EQ(pmc_generator_create(PMC_MODEL_DTMC, 1, expand_badly, &scenario, &g.generator), PMC_OK);
    pmc_generator_set_order(g.generator, order);
    const uint8_t zero = 0;
    pmc_generator_add_initial_state(g.generator, &zero, 1);
    ModelHandle model;
    ASSERT_EQ(pmc_model_explore(g.generator, nullptr, &model.model), PMC_OK) << last_error();
    uint64_t states = 0, transitions = 0;
    pmc_model_num_states(model.model, &states);
    pmc_model_num_transitions(model.model, &transitions);
    EXPECT_EQ(states, 1u);
    EXPECT_EQ(transitions, 1u);
    EXPECT_EQ(scenario.calls, 1);
  }
}

TEST(Generator, DeadlocksAsPrismOrRejectedWhenStrict) {
  std::string message;
  OptionsHandle strict;
  pmc_options_set_strict(strict.options, 1);
  EXPECT_EQ(explore_scenario(7, strict.options, message), PMC_ERROR_MODEL);
  EXPECT_NE(message.find("state 1 (0x01) has no outgoing transitions"), std::string::npos) << message;

  Scenario scenario{7};
  GeneratorHandle g;
  ASSERT_EQ(pmc_generator_create(PMC_MODEL_DTMC, 1, expand_badly, &scenario, &g.generator), PMC_OK);
  const uint8_t zero = 0;
  pmc_generator_add_initial_state(g.generator, &zero, 1);
  ModelHandle model;
  ASSERT_EQ(pmc_model_explore(g.generator, nullptr, &model.model), PMC_OK) << last_error();
  EXPECT_EQ(scenario.calls, 2);
  uint64_t warnings = 0, deadlocked = 0;
  pmc_model_num_warnings(model.model, &warnings);
  ASSERT_EQ(warnings, 1u);
  const char* warning = nullptr;
  pmc_model_warning(model.model, 0, &warning);
  EXPECT_NE(std::string(warning).find("1 deadlock state(s) (first: state 1, 0x01)"), std::string::npos) << warning;
  uint64_t state = 0;
  pmc_model_label_states(model.model, "deadlock", &state, 1, &deadlocked);
  EXPECT_EQ(deadlocked, 1u);
  EXPECT_EQ(state, 1u);
}

TEST(Generator, LimitsAndCancellation) {
  std::string message;
  OptionsHandle limited;
  pmc_options_set_max_states(limited.options, 100);
  EXPECT_EQ(explore_scenario(8, limited.options, message, 1), PMC_ERROR_MODEL);
  EXPECT_NE(message.find("more than 100 reachable states"), std::string::npos) << message;
  // 256 states: the chain wraps around, and is a model.
  EXPECT_EQ(explore_scenario(8, nullptr, message, 1), PMC_OK) << message;

  OptionsHandle small;
  pmc_options_set_memory_limit(small.options, 1 << 12);
  EXPECT_EQ(explore_scenario(8, small.options, message), PMC_ERROR_OUT_OF_MEMORY);
  EXPECT_NE(message.find("model generator"), std::string::npos) << message;

  OptionsHandle cancelled;
  pmc_options_request_cancel(cancelled.options);
  EXPECT_EQ(explore_scenario(8, cancelled.options, message), PMC_ERROR_CANCELLED);
}

TEST(Generator, BadArgumentsAreRefusedWhereGiven) {
  pmc_generator* g = nullptr;
  EXPECT_EQ(pmc_generator_create(PMC_MODEL_DTMC, 0, expand_die, nullptr, &g), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_generator_create(PMC_MODEL_DTMC, 5000, expand_die, nullptr, &g), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_generator_create(PMC_MODEL_DTMC, 2, nullptr, nullptr, &g), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_generator_create(PMC_MODEL_PCTMC, 2, expand_die, nullptr, &g), PMC_ERROR_UNSUPPORTED);
  EXPECT_EQ(pmc_generator_create(static_cast<pmc_model_kind>(42), 2, expand_die, nullptr, &g), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_generator_create(PMC_MODEL_DTMC, 2, expand_die, nullptr, nullptr), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(g, nullptr);

  GeneratorHandle h;
  ASSERT_EQ(pmc_generator_create(PMC_MODEL_MDP, 2, expand_die, nullptr, &h.generator), PMC_OK);
  const uint8_t three[3] = {1, 2, 3};
  EXPECT_EQ(pmc_generator_add_initial_state(h.generator, three, 3), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("3 bytes"), std::string::npos) << last_error();
  EXPECT_EQ(pmc_generator_add_initial_state(h.generator, nullptr, 1), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_generator_add_initial_state(h.generator, three, 1), PMC_OK);
  EXPECT_EQ(pmc_generator_set_fixed_size(h.generator, 1), PMC_ERROR_INVALID_ARGUMENT);  // the 1-byte state
  EXPECT_EQ(pmc_generator_set_order(h.generator, static_cast<pmc_state_order>(7)), PMC_ERROR_INVALID_ARGUMENT);
  uint64_t index = 0;
  EXPECT_EQ(pmc_generator_add_label(h.generator, "init", &index), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_generator_add_label(h.generator, "deadlock", &index), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_generator_add_label(h.generator, "", &index), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_generator_add_label(h.generator, "a\"b", &index), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_generator_add_label(h.generator, nullptr, &index), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_generator_add_label(h.generator, "ok", &index), PMC_OK);
  EXPECT_EQ(index, 0u);
  EXPECT_EQ(pmc_generator_add_label(h.generator, "ok", nullptr), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_generator_add_rewards(h.generator, "", &index), PMC_OK);
  EXPECT_EQ(pmc_generator_add_rewards(h.generator, "", &index), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_generator_set_thread_safe(nullptr, 1), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_expansion_add_choice(nullptr, "a"), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_expansion_add_transition(nullptr, 1.0, three, 1), PMC_ERROR_INVALID_ARGUMENT);

  pmc_model* model = nullptr;
  EXPECT_EQ(pmc_model_explore(nullptr, nullptr, &model), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_model_explore(h.generator, nullptr, nullptr), PMC_ERROR_INVALID_ARGUMENT);
  GeneratorHandle none;
  ASSERT_EQ(pmc_generator_create(PMC_MODEL_DTMC, 2, expand_die, nullptr, &none.generator), PMC_OK);
  EXPECT_EQ(pmc_model_explore(none.generator, nullptr, &model), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("no initial state"), std::string::npos) << last_error();
  EXPECT_EQ(model, nullptr);
  pmc_generator_free(nullptr);
}

}  // namespace
