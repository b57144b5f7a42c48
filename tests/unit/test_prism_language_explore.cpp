// The PRISM-language explorer on small sources whose models are
// known by hand: PRISM's semantics of synchronisation, DTMC nondeterminism,
// CTMC rate sums and deadlocks, multi-word states, thread counts — and the
// errors exploration reports (update out of range, probabilities not
// summing to one, negative rates, --max-states, huge init...endinit).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <string>

#include "common/error.hpp"
#include "common/stopwatch.hpp"
#include "formats/model_files.hpp"
#include "formats/prism_language/guard_index.hpp"
#include "formats/prism_language/prism_model.hpp"
#include "support/temp_dir.hpp"

namespace pmc::prism_language {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

ModelParts explore_source(const std::string& source, ExploreOptions options = {}) {
  return explore(parse_program(source, "test.nm", {}), options);
}

ModelPtr build_source(const std::string& source, ExploreOptions options = {}) {
  return Model::create(explore_source(source, options), options.model);
}

// The message of the pmc::Error that exploring `source` throws.
std::string explore_error(const std::string& source, ExploreOptions options = {}) {
  try {
    explore_source(source, options);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::model) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error for:\n" << source;
  return "";
}

std::vector<std::string> action_names_of_rows(const Model& m) {
  std::vector<std::string> out;
  for (uint64_t r = 0; r < m.num_rows(); ++r) {
    out.push_back(m.entry_actions().empty() ? "" : m.action_names()[m.entry_actions()[m.row_offsets()[r]]]);
  }
  return out;
}

TEST(PrismLanguageExplore, SynchronisationIsTheProductInPrismsOrder) {
  // Module a has two enabled [go] commands, b has two: four combinations,
  // a's command varying fastest; the unlabelled command comes first.
  const ModelPtr m = build_source(R"(mdp
module a
  x : [0..3];
  [go] x=0 -> (x'=1);
  [go] x=0 -> (x'=2);
  [] x=0 -> (x'=3);
endmodule
module b
  y : [0..3];
  [go] y=0 -> (y'=1);
  [go] y=0 -> (y'=2);
endmodule
)");
  // States sorted by (x, y): (0,0)=0, (1,1)=1, (1,2)=2, (2,1)=3, (2,2)=4, (3,0)=5.
  ASSERT_EQ(m->num_states(), 6u);
  ASSERT_EQ(m->row_groups()[1], 5u);  // state 0: 1 local + 4 synchronised choices
  std::vector<uint32_t> targets;
  for (uint64_t r = 0; r < 5; ++r) targets.push_back(m->columns()[m->row_offsets()[r]]);
  EXPECT_EQ(targets, (std::vector<uint32_t>{5, 1, 3, 2, 4}));
  EXPECT_EQ(action_names_of_rows(*m)[0], "");
  EXPECT_EQ(action_names_of_rows(*m)[1], "go");
  // The other states are deadlocks with PRISM's self-loop and label.
  const Label* deadlock = m->find_label("deadlock");
  ASSERT_NE(deadlock, nullptr);
  EXPECT_EQ(deadlock->states.count(), 5u);
  EXPECT_FALSE(deadlock->states.test(0));
}

TEST(PrismLanguageExplore, ABlockedActionGivesNoTransition) {
  const ModelPtr m = build_source(R"(mdp
module a
  x : [0..1];
  [go] x=0 -> (x'=1);
endmodule
module b
  y : [0..1];
  [go] y=1 -> (y'=0);
  [] y=0 -> (y'=1);
endmodule
)");
  // (0,0) -> (0,1) by b alone; in (0,1) both take go -> (1,0); (1,0) -> (1,1); (1,1) deadlock.
  EXPECT_EQ(m->num_states(), 4u);
  EXPECT_EQ(m->num_rows(), 4u);
  EXPECT_EQ(m->columns(), (std::vector<uint32_t>{1, 2, 3, 3}));
}

TEST(PrismLanguageExplore, UpdatesReadTheOldState) {
  const ModelPtr m = build_source(R"(dtmc
module swap
  x : [0..2] init 1;
  y : [0..2] init 2;
  [] true -> (x'=y) & (y'=x);
endmodule
)");
  ASSERT_EQ(m->num_states(), 2u);
  // (1,2) -> (2,1) -> (1,2).
  EXPECT_EQ(m->columns(), (std::vector<uint32_t>{1, 0}));
  EXPECT_EQ(m->valuations().unpacked(), (std::vector<int32_t>{1, 2, 2, 1}));
}

TEST(PrismLanguageExplore, DtmcNondeterminismIsUniformAndMerged) {
  const ModelParts parts = explore_source(R"(dtmc
module m
  x : [0..2];
  [] x=0 -> 0.5 : (x'=1) + 0.5 : (x'=2);
  [] x=0 -> (x'=1);
  [] x>0 -> true;
endmodule
)");
  // Two alternatives in state 0, each 1/2: to 1 with 1/4 + 1/2, to 2 with 1/4.
  EXPECT_EQ(parts.columns, (std::vector<uint32_t>{1, 2, 1, 2}));
  EXPECT_EQ(parts.values, (std::vector<double>{0.75, 0.25, 1, 1}));
  ASSERT_FALSE(parts.warnings.empty());
  EXPECT_THAT(parts.warnings.back(), HasSubstr("nondeterministic"));
}

TEST(PrismLanguageExplore, CtmcRatesAreSummedAndRewardsWeighted) {
  const ModelParts parts = explore_source(R"(ctmc
module m
  x : [0..1];
  [a] x=0 -> 2 : (x'=1);
  [b] x=0 -> 3 : (x'=1);
  [] x=1 -> 1 : (x'=0);
endmodule
rewards "r"
  [a] true : 10;
  [b] true : 20;
endrewards
)");
  ASSERT_EQ(parts.columns, (std::vector<uint32_t>{1, 0}));
  EXPECT_EQ(parts.values, (std::vector<double>{5, 1}));
  // The merged entry earns each alternative's reward by its share of the rate.
  ASSERT_EQ(parts.rewards.size(), 1u);
  EXPECT_DOUBLE_EQ(parts.rewards[0].transition_rewards[0], (2 * 10.0 + 3 * 20.0) / 5);
  EXPECT_EQ(parts.rewards[0].transition_rewards[1], 0.0);
  EXPECT_EQ(parts.action_names[parts.entry_actions[0]], "a");  // the first alternative's
}

TEST(PrismLanguageExplore, MdpTransitionRewardsFollowTheChoiceAction) {
  const ModelParts parts = explore_source(R"(mdp
module m
  x : [0..1];
  [a] x=0 -> 0.5 : (x'=1) + 0.5 : true;
  [] x=0 -> (x'=1);
endmodule
rewards
  [a] x=0 : 4;
  [] true : 1;
  x=1 : 7;
endrewards
)");
  // State 0: choice [] then choice [a] (independent commands come first).
  EXPECT_EQ(parts.row_groups, (std::vector<uint64_t>{0, 2, 3}));
  ASSERT_EQ(parts.rewards.size(), 1u);
  EXPECT_EQ(parts.rewards[0].name, "");
  EXPECT_EQ(parts.rewards[0].transition_rewards, (std::vector<double>{1, 4, 4, 0}));
  EXPECT_EQ(parts.rewards[0].state_rewards, (std::vector<double>{0, 7}));
}

TEST(PrismLanguageExplore, StatesAreSortedAcrossSeveralWords) {
  // 3 × 31 bits: three words; states must still come in PRISM's order.
  const ModelPtr m = build_source(R"(dtmc
module m
  a : [0..2000000000] init 5;
  b : [0..2000000000];
  c : [0..2000000000] init 2000000000;
  [] a=5 -> 0.5 : (a'=0) & (c'=1) + 0.5 : (a'=3) & (b'=7);
  [] a=0 -> (a'=1999999999);
endmodule
)");
  ASSERT_EQ(m->num_states(), 4u);
  EXPECT_EQ(m->valuations().unpacked(),
            (std::vector<int32_t>{0, 0, 1, 3, 7, 2000000000, 5, 0, 2000000000, 1999999999, 0, 1}));
  const Bitset* init = m->initial_states();
  ASSERT_NE(init, nullptr);
  EXPECT_TRUE(init->test(2));
  EXPECT_EQ(init->count(), 1u);
}

TEST(PrismLanguageExplore, StatesAreSortedAcrossFourWords) {
  // Four words and the discovery id: records of five words take the
  // explorer's general sort, not the fixed-width one.
  const std::string source = R"(dtmc
module m
  a : [0..2000000000] init 5;
  b : [0..2000000000];
  c : [0..2000000000] init 2000000000;
  d : [0..2000000000] init 9;
  [] a=5 -> 0.5 : (a'=0) & (d'=1) + 0.5 : (a'=3) & (b'=7);
  [] a=0 -> (a'=1999999999) & (d'=0);
endmodule
)";
  for (unsigned threads : {1u, 3u}) {
    ExploreOptions options;
    options.threads = threads;
    const ModelPtr m = build_source(source, options);
    ASSERT_EQ(m->num_states(), 4u);
    EXPECT_EQ(m->valuations().unpacked(), (std::vector<int32_t>{0, 0, 2000000000, 1, 3, 7, 2000000000, 9, 5, 0, 2000000000,
                                                            9, 1999999999, 0, 2000000000, 0}));
    EXPECT_TRUE(m->initial_states()->test(2));
    // (a=0) -> (a=1999999999): state 0 -> state 3.
    EXPECT_EQ(m->columns()[m->row_offsets()[0]], 3u);
  }
}

TEST(PrismLanguageExplore, ThreadCountDoesNotChangeTheModel) {
  const std::string source = R"(mdp
const int N = 40;
module a
  x : [0..N];
  [] x<N -> 0.5 : (x'=x+1) + 0.5 : (x'=max(0, x-1));
  [s] true -> true;
endmodule
module b
  y : [0..N];
  [] y<N -> 0.3 : (y'=y+1) + 0.7 : (y'=0);
  [s] y=N -> (y'=0);
endmodule
)";
  ExploreOptions one, many;
  one.threads = 1;
  many.threads = 4;
  const ModelPtr a = build_source(source, one), b = build_source(source, many);
  EXPECT_EQ(a->num_states(), 41u * 41u);
  EXPECT_TRUE(a->same_as(*b));
}

// The default explorer (auto) asks for a GPU once the CPU has found more
// than 2^21 states; without one (or with one: tests/gpu checks that) the
// model is the CPU's.
TEST(PrismLanguageExplore, AutoPastTheGpuHandOverGivesTheCpusModel) {
  const std::string source = R"(dtmc
module m
  x : [0..2047];
  y : [0..1024];
  [] true -> 0.5 : (x'=mod(x+1, 2048)) + 0.5 : (y'=mod(y+1, 1025));
endmodule
)";
  ExploreOptions automatic, cpu;
  cpu.build = BuildDevice::cpu;
  const ModelPtr a = build_source(source, automatic), b = build_source(source, cpu);
  EXPECT_EQ(a->num_states(), 2048u * 1025u);
  EXPECT_GT(a->num_states(), 1u << 21);
  EXPECT_TRUE(a->same_as(*b));
}

// Guards with the same code (here `x<N & y!=1`, in three commands of two
// actions and an unlabelled one) are evaluated once per state and shared:
// the model is the one whose guards are written apart (`N>x & 1!=y`, other
// code, evaluated each time).
TEST(PrismLanguageExplore, SharedGuardsGiveTheSameModel) {
  const std::string shared = R"(mdp
const int N = 30;
module a
  x : [0..N];
  y : [0..3];
  [go] x<N & y!=1 -> 0.5 : (x'=x+1) + 0.5 : (y'=mod(y+1, 4));
  [] x<N & y!=1 -> (y'=mod(y+3, 4));
  [stop] x<N & y!=1 -> (x'=0);
  [stop] x=N -> (x'=0) & (y'=0);
  [go] y=1 -> (y'=2);
endmodule
module b
  z : [0..2];
  [go] z<2 -> (z'=z+1);
  [go] z=2 -> (z'=0);
  [stop] true -> true;
endmodule
)";
  std::string apart = shared;
  for (const char* guard : {"[] x<N & y!=1", "[stop] x<N & y!=1"}) {
    const size_t at = apart.find(guard);
    ASSERT_NE(at, std::string::npos);
    apart.replace(at, std::string(guard).size(), std::string(guard).substr(0, std::string(guard).find(']') + 1) + " N>x & 1!=y");
  }
  const ModelPtr a = build_source(shared), b = build_source(apart);
  EXPECT_EQ(a->num_states(), 369u);  // as the explorer before guards were shared (x=N with y=1 is unreachable)
  EXPECT_EQ(a->num_entries(), 1179u);
  EXPECT_TRUE(a->same_as(*b));
}

// A shared guard that fails is reported where it is first evaluated: the
// first command (in PRISM's order) that uses it, as without sharing.
TEST(PrismLanguageExplore, ASharedGuardsErrorNamesItsFirstCommand) {
  const std::string message = explore_error(R"(mdp
module a
  x : [0..2];
  [go] mod(2, x)=0 -> (x'=1);
  [stop] mod(2, x)=0 -> (x'=2);
endmodule
)");
  EXPECT_THAT(message, AllOf(HasSubstr("test.nm:4"), HasSubstr("modulo zero"))) << message;
}

// States are found from the middle outwards, numbered by value: the
// warnings name the first flagged state in PRISM's order, whatever the
// order of discovery or the thread count, across many row blocks.
TEST(PrismLanguageExplore, WarningsNameTheFirstStateInPrismsOrder) {
  const std::string source = R"(dtmc
module m
  x : [0..20000] init 10000;
  [] x>0 & x<20000 -> 0.5 : (x'=x-1) + 0.5 : (x'=x+1);
  [] x>15000 & x<20000 -> (x'=x);
endmodule
)";
  ModelPtr first;
  for (unsigned threads : {1u, 4u}) {
    SCOPED_TRACE(threads);
    ExploreOptions options;
    options.threads = threads;
    const ModelParts parts = explore_source(source, options);
    ASSERT_EQ(parts.num_states, 20001u);
    const std::string warnings = fmt::format("{}", fmt::join(parts.warnings, "\n"));
    EXPECT_THAT(warnings, HasSubstr("2 deadlock state(s) (first: state 0 (x=0))"));
    EXPECT_THAT(warnings, HasSubstr("nondeterministic in 4999 state(s) (first: state 15001 (x=15001))"));
    const ModelPtr model = Model::create(parts, options.model);
    EXPECT_TRUE(model->initial_states()->test(10000));
    EXPECT_EQ(model->find_label("deadlock")->states.count(), 2u);
    EXPECT_TRUE(model->find_label("deadlock")->states.test(20000));
    if (first) {
      EXPECT_TRUE(first->same_as(*model));
    } else {
      first = model;
    }
    ExploreOptions strict = options;
    strict.model.strict = true;
    EXPECT_THAT(explore_error(source, strict), HasSubstr("state 0 (x=0) has no outgoing transitions"));
  }
}

TEST(PrismLanguageExplore, InitEndinitGivesSeveralInitialStates) {
  const ModelPtr m = build_source(R"(dtmc
module m
  x : [0..9];
  [] true -> true;
endmodule
init x>=7 endinit
)");
  EXPECT_EQ(m->num_states(), 3u);
  EXPECT_EQ(m->initial_states()->count(), 3u);
}

// 40 variables of range 0..3 (2^80 valuations), 38 fixed by the init's
// leading equalities: only the 16 valuations of the other two are
// evaluated (the limit is 2^26), and the rest of the condition still
// decides which of them are initial.
TEST(PrismLanguageExplore, InitEndinitEnumeratesOnlyWhatItsConjunctsLeaveOpen) {
  std::string source = "dtmc\nmodule m\n";
  std::string init;
  for (int i = 0; i < 40; ++i) {
    source += fmt::format("  v{} : [0..3];\n", i);
    if (i != 7 && i != 30) init += fmt::format("v{}={} & ", i, i % 4);
  }
  source += "  [] v7<3 -> (v7'=v7+1);\nendmodule\ninit " + init + "v7+v30<=1 endinit\n";
  const auto start = std::chrono::steady_clock::now();
  const ModelParts parts = explore_source(source);
  EXPECT_LT(seconds_since(start), 5.0);
  // Initial: (v7, v30) in {(0,0), (0,1), (1,0)}; v7 then counts up to 3.
  ASSERT_EQ(parts.labels[0].name, "init");
  EXPECT_EQ(parts.labels[0].states.count(), 3u);
  // States by (v7, v30): (0,0) (0,1) (1,0) (1,1) (2,0) (2,1) (3,0) (3,1).
  EXPECT_EQ(parts.num_states, 8u);
  std::vector<uint64_t> initial;
  for (uint64_t s = 0; s < parts.num_states; ++s) {
    if (parts.labels[0].states.test(s)) initial.push_back(s);
  }
  EXPECT_EQ(initial, (std::vector<uint64_t>{0, 1, 2}));
  std::vector<int32_t> values(40);
  for (uint64_t s : initial) {
    parts.valuations.unpack(s, values);
    for (int i = 0; i < 40; ++i) {
      if (i != 7 && i != 30) {
        EXPECT_EQ(values[i], i % 4) << "v" << i;
      }
    }
    EXPECT_LE(values[7] + values[30], 1);
  }
  // Unfixed, the same variables are refused as before.
  std::string open = source;
  open.replace(open.find("init "), init.size() + 5, "init ");
  EXPECT_THAT(explore_error(open), AllOf(HasSubstr("init ... endinit"), HasSubstr("2^80")));
}

// Ranges that leave several values of each variable: every valuation
// inside them is tried, and the initial states come in state order
// whatever the thread count (72006 valuations: 4 threads share them); a
// range empty with its variable's gives no state.
TEST(PrismLanguageExplore, InitEndinitRangesLeaveSeveralValues) {
  const std::string source = R"(mdp
module m
  x : [0..9];
  y : [0..9];
  b : bool;
  z : [-6000..6000];
  [] true -> true;
endmodule
init x>=3 & y<2 & 6>x & !b & z!=0 & mod(x+y+z, 2) = 0 endinit
)";
  std::vector<std::vector<int32_t>> expected;
  for (int32_t x = 3; x <= 5; ++x) {
    for (int32_t y = 0; y <= 1; ++y) {
      for (int32_t z = -6000; z <= 6000; ++z) {
        if (z != 0 && ((x + y + z) % 2 + 2) % 2 == 0) expected.push_back({x, y, 0, z});
      }
    }
  }
  for (unsigned threads : {1u, 4u}) {
    ExploreOptions options;
    options.threads = threads;
    const ModelParts parts = explore_source(source, options);
    ASSERT_EQ(parts.num_states, expected.size());
    EXPECT_EQ(parts.labels[0].states.count(), expected.size());
    std::vector<int32_t> values(4);
    for (uint64_t s = 0; s < parts.num_states; ++s) {
      parts.valuations.unpack(s, values);
      EXPECT_EQ(values, expected[s]) << "state " << s;
    }
  }
  EXPECT_THAT(explore_error(R"(dtmc
module m
  x : [0..3];
  y : [0..3];
  [] true -> true;
endmodule
init y=1 & x>5 endinit
)"), HasSubstr("no state satisfies"));
}

TEST(PrismLanguageExplore, DeadlocksAreRejectedWhenStrict) {
  ExploreOptions strict;
  strict.model.strict = true;
  const std::string message = explore_error(R"(dtmc
module m
  x : [0..1];
  [] x=0 -> (x'=1);
endmodule
)", strict);
  EXPECT_THAT(message, AllOf(HasSubstr("(x=1)"), HasSubstr("deadlock")));
}

TEST(PrismLanguageExplore, UpdateOutOfRangeNamesLocationVariableValueAndState) {
  const std::string message = explore_error(R"(mdp
module m
  x : [0..3];
  [] x<3 -> (x'=x+2);
endmodule
)");
  EXPECT_THAT(message, AllOf(HasSubstr("test.nm:4:"), HasSubstr("x to 4"), HasSubstr("[0..3]"), HasSubstr("(x=2)")));
}

TEST(PrismLanguageExplore, BooleanStateIsNamedWithTrueAndFalse) {
  const std::string message = explore_error(R"(dtmc
module m
  b : bool;
  x : [0..1];
  [] !b -> (b'=true) & (x'=x+1);
  [] b -> (x'=x+1);
endmodule
)");
  EXPECT_THAT(message, AllOf(HasSubstr("x to 2"), HasSubstr("(b=true,x=1)")));
}

TEST(PrismLanguageExplore, ProbabilitiesMustSumToOne) {
  const std::string message = explore_error(R"(dtmc
module m
  x : [0..2];
  [] x=0 -> 0.5 : (x'=1) + 0.4 : (x'=2);
  [] x>0 -> true;
endmodule
)");
  EXPECT_THAT(message, AllOf(HasSubstr("test.nm:4:"), HasSubstr("sum to 0.9"), HasSubstr("(x=0)")));
}

TEST(PrismLanguageExplore, ProbabilitiesDependingOnTheStateAreCheckedInEachState) {
  const std::string message = explore_error(R"(mdp
module m
  x : [0..4];
  [] x<4 -> 0.5 : (x'=x+1) + 0.5-x/10 : (x'=0);
  [] x=4 -> true;
endmodule
)");
  // Fine in x=0; in x=1 the probabilities sum to 0.9.
  EXPECT_THAT(message, AllOf(HasSubstr("sum to"), HasSubstr("(x=1)")));
}

TEST(PrismLanguageExplore, NegativeRateIsAnError) {
  const std::string message = explore_error(R"(ctmc
module m
  x : [0..2];
  [] x<2 -> 1-2*x : (x'=x+1);
endmodule
)");
  EXPECT_THAT(message, AllOf(HasSubstr("test.nm:4:"), HasSubstr("negative rate -1"), HasSubstr("(x=1)")));
}

TEST(PrismLanguageExplore, MaxStatesStopsExplorationWithAClearError) {
  ExploreOptions options;
  options.max_states = 1000;
  const std::string message = explore_error(R"(dtmc
module m
  x : [0..1000000];
  [] x<1000000 -> (x'=x+1);
endmodule
)", options);
  EXPECT_THAT(message, AllOf(HasSubstr("more than 1000 reachable states"), HasSubstr("pmc_options_set_max_states"), Not(HasSubstr("ExploreOptions"))));
  options.max_states = 2000000;
  EXPECT_EQ(explore_source(R"(dtmc
module m
  x : [0..1000];
  [] x<1000 -> (x'=x+1);
endmodule
)", options).num_states, 1001u);
}

TEST(PrismLanguageExplore, HugeInitEndinitIsRefusedAtOnce) {
  const auto start = std::chrono::steady_clock::now();
  const std::string message = explore_error(R"(dtmc
module m
  a : [0..1048575];
  b : [0..1048575];
  [] true -> true;
endmodule
init a=b endinit
)");
  EXPECT_THAT(message, AllOf(HasSubstr("init ... endinit"), HasSubstr("2^40")));
  EXPECT_LT(seconds_since(start), 1.0);
}

// Round trip: a source built through load_model (constants,
// state limit), saved as .pmcb and loaded again, is the same model.
TEST(PrismLanguageExplore, BuiltModelSurvivesPmcb) {
  const std::string source = std::string(PMC_TEST_DATA_DIR) + "/../../examples/consensus/consensus.nm";
  LoadOptions options;
  options.constants = "K=2";
  options.max_states = 272;
  const ModelPtr built = load_model({source}, "", options);
  EXPECT_EQ(built->num_states(), 272u);
  testing::TempDir dir;
  for (const char* name : {"c.pmcb", "c.drn", "c.tra"}) {
    save_model(*built, dir.path(name), "");
    const ModelPtr again = load_model({dir.path(name)}, "", {});
    EXPECT_EQ(again->num_states(), built->num_states()) << name;
    EXPECT_EQ(again->num_entries(), built->num_entries()) << name;
    if (std::string(name) == "c.pmcb") {
      EXPECT_TRUE(again->same_as(*built)) << name;
    }
  }
  options.max_states = 271;
  EXPECT_THROW(load_model({source}, "", options), Error);
  options.max_states = 0;
  options.constants.clear();
  EXPECT_THROW(load_model({source}, "", options), Error);  // K undefined
}

// The guard index over a grid's commands (most guarded by `x=… & y>=…`,
// some by forms it cannot read): in every valuation of the variables, the
// candidates hold every command whose guard is true, in source order.
TEST(GuardIndex, CandidatesHoldEveryEnabledCommandInSourceOrder) {
  std::string source = "mdp\nmodule grid\n  x : [0..9] init 0;\n  y : [0..7] init 0;\n  d : [0..3] init 0;\n  b : bool init false;\n";
  for (int x = 0; x <= 9; ++x) {
    for (int d = 0; d <= 3; ++d) {
      source += fmt::format("  [go] x={} & y>={} & y<={} & d={} -> (x'={});\n", x, x % 4, x % 4 + 3, d, (x + 1) % 10);
    }
  }
  source += "  [go] b | x=3 -> (b'=!b);\n";                     // no range
  source += "  [go] x+y>12 & d=2 -> (d'=0);\n";                   // arithmetic first: no range
  source += "  [go] !b & y<2 -> (y'=y+1);\n";
  source += "  [go] x>=8 & (y=1 | y=5) -> (y'=0);\n";
  source += "endmodule\n";
  const PrismModel program = parse_program(source, "grid.nm", {});
  std::vector<const Command*> commands;
  for (const Command& c : program.modules[0].commands) commands.push_back(&c);
  const GuardIndex index(commands, program.variables);
  uint64_t evaluated = 0;
  std::vector<int32_t> values(program.variables.size());
  for (values[0] = 0; values[0] <= 9; ++values[0]) {
    for (values[1] = 0; values[1] <= 7; ++values[1]) {
      for (values[2] = 0; values[2] <= 3; ++values[2]) {
        for (values[3] = 0; values[3] <= 1; ++values[3]) {
          std::vector<const Command*> candidates;
          for (const GuardIndex::Entry& e : index.candidates(values)) candidates.push_back(e.command);
          evaluated += candidates.size();
          ASSERT_TRUE(std::is_sorted(candidates.begin(), candidates.end()));  // source order: addresses rise
          for (const Command* c : commands) {
            if (!c->guard.evaluate_bool(values)) continue;
            EXPECT_NE(std::find(candidates.begin(), candidates.end(), c), candidates.end())
                << c->guard.to_string() << " holds but is not a candidate";
          }
        }
      }
    }
  }
  // It pays: far fewer guards than the 44 per valuation without it.
  EXPECT_LT(evaluated, 640u * 44u / 4u);
}

}  // namespace
}  // namespace pmc::prism_language
