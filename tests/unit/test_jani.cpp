// JANI input (formats/jani): the hand-written models of tests/data/jani give
// the same models, file for file, as their PRISM-language twins; their
// properties, translated, give the twins' values and the values worked out
// by hand; .jani.gz loads; and every kind of bad input fails with its code
// and a message naming the file and the place in the JSON.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "check/check.hpp"
#include "common/error.hpp"
#include "formats/jani/jani.hpp"
#include "formats/model_files.hpp"
#include "support/expect_error.hpp"
#include "support/explicit_files.hpp"
#include "support/temp_dir.hpp"

namespace pmc {
namespace {

using ::testing::HasSubstr;
using testing::expect_error;
using testing::read_file;
using testing::TempDir;

const std::string k_data = std::string(PMC_TEST_DATA_DIR) + "/jani/";
const std::string k_examples = std::string(PMC_TEST_DATA_DIR) + "/../../examples/";

ModelPtr load(const std::string& path, const std::string& constants = "") {
  LoadOptions options;
  options.constants = constants;
  return load_model({path}, "", options);
}

// A small DTMC: x counts to 2 by fair coins; "done" once it has. The
// bad-input cases below and a few others each change one thing in it.
constexpr const char* k_base = R"({
  "jani-version": 1, "name": "m", "type": "dtmc",
  "variables": [{"name": "done", "type": "bool", "transient": true, "initial-value": false}],
  "automata": [{
    "name": "main",
    "variables": [{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 2},
                   "initial-value": 0}],
    "locations": [{"name": "l", "transient-values": [{"ref": "done", "value": {"op": "=", "left": "x", "right": 2}}]}],
    "initial-locations": ["l"],
    "edges": [
      {"location": "l", "guard": {"exp": {"op": "<", "left": "x", "right": 2}},
       "destinations": [{"location": "l", "probability": {"exp": 0.5},
                         "assignments": [{"ref": "x", "value": {"op": "+", "left": "x", "right": 1}}]},
                        {"location": "l", "probability": {"exp": 0.5}}]},
      {"location": "l", "guard": {"exp": {"op": "=", "left": "x", "right": 2}}, "destinations": [{"location": "l"}]}
    ]}],
  "system": {"elements": [{"automaton": "main"}]}
})";

// `text` with `from` replaced by `to` (which must occur once).
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  EXPECT_EQ(text.find(from, at + 1), std::string::npos) << from << " occurs twice";
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}
std::string edited(const std::string& from, const std::string& to) { return replaced(k_base, from, to); }

std::string write(const TempDir& dir, const std::string& name, const std::string& text) {
  const std::string path = dir.path(name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// A JANI property, its twin's PRISM text, and the value by hand (none: the
// twin's is the only reference).
struct PropertyCase {
  std::string name;
  std::string twin;
  std::optional<double> by_hand;
};

struct Twin {
  std::string jani, prism, constants;
  uint64_t states, choices, transitions, initial;
  std::vector<PropertyCase> properties;
};

std::vector<Twin> twins() {
  return {
      {"die.jani", k_examples + "die/die.pm", "", 13, 13, 20, 1,
       {{"six", "P=? [ F \"six\" ]", 1.0 / 6}, {"flips", "R{\"coin_flips\"}=? [ F \"done\" ]", 11.0 / 3}}},
      // Values: examples/consensus/consensus.props.
      {"consensus.jani", k_examples + "consensus/consensus.nm", "K=2", 272, 400, 492, 1,
       {{"disagree", "Pmax=? [ F \"finished\" & !\"agree\" ]", 13.0 / 120},
        {"all_ones", "Pmin=? [ F \"finished\" & \"all_coins_equal_1\" ]", 49.0 / 128},
        {"steps_max", "R{\"steps\"}max=? [ F \"finished\" ]", 75},
        {"steps_min", "R{\"steps\"}min=? [ F \"finished\" ]", 48},
        {"finished_within_T", "Pmax=? [ F<=20 \"finished\" ]", std::nullopt},
        {"terminates", "filter(forall, Pmin>=1 [ F \"finished\" ], \"init\")", 1}}},
      {"relay.jani", k_data + "relay.nm", "", 11, 14, 17, 3,
       {{"best_delivery", "filter(max, Pmax=? [ F \"two\" ], \"init\")", 0.64},
        {"worst_delivery", "filter(max, Pmin=? [ F \"two\" ], \"init\")", 0},
        {"cost_max", "filter(max, R{\"cost\"}max=? [ F \"done\" ], \"init\")", 5},
        {"cost_min", "filter(min, R{\"cost\"}min=? [ F \"done\" ], \"init\")", 0},
        {"cost_avg", "filter(avg, R{\"cost\"}min=? [ F \"done\" ], \"init\")", 2.5}}},
      {"queue.jani", k_data + "queue.sm", "", 8, 8, 13, 1,
       {{"job_by_1", "P=? [ F<=1 \"waiting\" ]", 1 - std::exp(-2.0)},
        {"full_by_2", "P=? [ F<=2 \"full\" ]", std::nullopt},
        {"busy_long_run", "S=? [ \"working\" ]", 129.0 / 349},
        {"jobs_long_run", "R{\"jobs\"}=? [ S ]", 561.0 / 349},
        {"served_by_2", "R{\"served\"}=? [ C<=2 ]", std::nullopt},
        {"jobs_at_1", "R{\"jobs\"}=? [ I=1 ]", std::nullopt}}},
  };
}

class JaniTwin : public ::testing::TestWithParam<Twin> {};

TEST_P(JaniTwin, IsItsPrismTwinFileForFile) {
  const Twin& t = GetParam();
  const ModelPtr jani = load(k_data + t.jani, t.constants);
  const ModelPtr prism = load(t.prism, t.constants);
  EXPECT_EQ(jani->num_states(), t.states);
  EXPECT_EQ(jani->num_rows(), t.choices);
  EXPECT_EQ(jani->num_entries(), t.transitions);
  ASSERT_NE(jani->initial_states(), nullptr);
  EXPECT_EQ(jani->initial_states()->count(), t.initial);
  TempDir dir;
  save_model(*jani, dir.path("jani.tra"), "");
  save_model(*prism, dir.path("prism.tra"), "");
  testing::expect_same_prism_files(dir.path("jani.tra"), dir.path("prism.tra"));
}

TEST_P(JaniTwin, PropertiesGiveTheTwinsAndTheHandValues) {
  const Twin& t = GetParam();
  const ModelPtr jani = load(k_data + t.jani, t.constants);
  const ModelPtr prism = load(t.prism, t.constants);
  const std::vector<jani::Property> properties = jani::read_properties(k_data + t.jani).properties;
  ASSERT_EQ(properties.size(), t.properties.size());
  for (size_t i = 0; i < properties.size(); ++i) {
    const jani::Property& p = properties[i];
    const PropertyCase& expected = t.properties[i];
    SCOPED_TRACE(p.name + ": " + p.text);
    EXPECT_EQ(p.name, expected.name);
    EXPECT_EQ(p.error, "");
    const CheckResult from_jani = check(*jani, p.text);
    const CheckResult from_twin = check(*prism, expected.twin);
    const CheckResult::Reported a = from_jani.reported_initial(), b = from_twin.reported_initial();
    EXPECT_EQ(a.value, b.value) << "twin: " << expected.twin;
    EXPECT_EQ(from_jani.is_boolean, from_twin.is_boolean);
    if (!expected.by_hand) continue;
    const double hand = *expected.by_hand;
    if (a.certified) {
      // The certified bounds hold the exact value (up to rounding).
      const double slack = 1e-12 * std::max(1.0, std::abs(hand));
      EXPECT_LE(a.lower, hand + slack);
      EXPECT_GE(a.upper, hand - slack);
    }
    EXPECT_NEAR(a.value, hand, 1e-6 * std::max(1.0, std::abs(hand)));
  }
}

INSTANTIATE_TEST_SUITE_P(Models, JaniTwin, ::testing::ValuesIn(twins()),
                         [](const ::testing::TestParamInfo<Twin>& info) {
                           return info.param.jani.substr(0, info.param.jani.find('.'));
                         });

// The relay's send edge is in two vectors: its choices carry their result
// actions, and the receiver's local x was renamed apart from the sender's.
TEST(Jani, ChoicesCarryTheVectorsResults) {
  const ModelPtr m = load(k_data + "relay.jani");
  std::vector<std::string> actions;
  for (uint64_t row = 0; row < m->num_rows(); ++row) {
    actions.push_back(m->entry_actions().empty() ? "" : m->action_names()[m->entry_actions()[m->row_offsets()[row]]]);
  }
  // State 10 is (x=2, ready, receiver_x=0): transfer, then drop.
  const uint64_t first = m->row_groups()[10];
  ASSERT_EQ(m->row_groups()[11] - first, 2u);
  EXPECT_EQ(actions[first], "transfer");
  EXPECT_EQ(actions[first + 1], "drop");
  EXPECT_EQ(std::count(actions.begin(), actions.end(), "transfer"), 3);
  EXPECT_EQ(std::count(actions.begin(), actions.end(), "drop"), 3);
  EXPECT_EQ(m->valuations().variables, (std::vector<std::string>{"x", "location", "receiver_x"}));
}

TEST(Jani, DeclaredConstantsAndWarnings) {
  const std::vector<ModelConstant> constants = declared_model_constants({k_data + "consensus.jani"}, "");
  std::vector<std::string> open;
  for (const ModelConstant& c : constants) {
    if (!c.defined) open.push_back(c.name);
  }
  EXPECT_EQ(open, std::vector<std::string>{"K"});
  EXPECT_EQ(constants.size(), 9u);
  // An unbounded integer is built in 32 bits, with a warning naming its place.
  TempDir dir;
  const std::string path =
      write(dir, "unbounded.jani",
            replaced(k_base, R"({"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 2})", R"("int")"));
  const ModelPtr m = load(path);
  EXPECT_EQ(m->num_states(), 3u);
  ASSERT_EQ(m->warnings().size(), 1u);
  EXPECT_THAT(m->warnings()[0], HasSubstr(path + ": automata[0] \"main\": the unbounded integer 'x' is stored in 32 bits"));
}

TEST(Jani, GzippedLoads) {
  TempDir dir;
  const std::string text = read_file(k_data + "relay.jani");
  const std::string gz = dir.path("relay.jani.gz");
  gzFile out = gzopen(gz.c_str(), "wb");
  ASSERT_NE(out, nullptr);
  ASSERT_EQ(gzwrite(out, text.data(), static_cast<unsigned>(text.size())), static_cast<int>(text.size()));
  ASSERT_EQ(gzclose(out), Z_OK);
  EXPECT_TRUE(jani::is_jani_path(gz));
  const ModelPtr plain = load(k_data + "relay.jani");
  const ModelPtr compressed = load(gz);
  EXPECT_TRUE(compressed->same_as(*plain));
  EXPECT_EQ(jani::read_properties(gz).properties.size(), 5u);
}

// --- Bad input -----------------------------------------------------------

struct BadCase {
  std::string name;
  std::string text;
  ErrorCode code;
  std::vector<std::string> message;  // each in the message
};

std::vector<BadCase> bad_cases() {
  const std::string edge0 = "automata[0] \"main\", edges[0]";
  const std::string edge1 = "automata[0] \"main\", edges[1]";
  const std::string guard0 = R"({"exp": {"op": "<", "left": "x", "right": 2}})";
  const std::string guard1 = R"({"exp": {"op": "=", "left": "x", "right": 2}})";
  const std::string update = R"("assignments": [{"ref": "x", "value": {"op": "+", "left": "x", "right": 1}}])";
  const std::string second = R"({"location": "l", "probability": {"exp": 0.5}})";
  const std::string x_type = R"({"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 2})";
  const std::string system = R"("system": {"elements": [{"automaton": "main"}]})";
  return {
      {"not_json", R"({"type": "dtmc", )", ErrorCode::parse, {"not valid JSON", "column 18"}},
      {"not_an_object", "[1, 2]", ErrorCode::parse, {"a JANI model is a JSON object, not an array"}},
      {"no_type", edited(R"("type": "dtmc",)", ""), ErrorCode::parse, {"\"type\": \"type\" is missing"}},
      {"pta", edited(R"("type": "dtmc")", R"("type": "pta")"), ErrorCode::unsupported,
       {"\"type\": model type 'pta' is not supported (pmc builds dtmc, ctmc and mdp)"}},
      {"arrays_feature", edited(R"("type": "dtmc",)", R"("type": "dtmc", "features": ["arrays"],)"),
       ErrorCode::unsupported, {"\"features\": the JANI extension 'arrays' is not supported"}},
      {"unknown_identifier", edited(guard1, R"({"exp": {"op": "=", "left": "y", "right": 2}})"), ErrorCode::parse,
       {edge1 + ", guard: unknown identifier 'y'"}},
      {"unknown_variable", edited(R"([{"ref": "x", "value": {"op": "+")", R"([{"ref": "z", "value": {"op": "+")"),
       ErrorCode::parse, {edge0 + ", destinations[0], assignments[0]: assignment to unknown variable 'z'"}},
      // Exploration: in state x=2 the first edge (now always enabled) sets x to 3.
      {"update_out_of_range", edited(guard0, R"({"exp": true})"), ErrorCode::model,
       {edge0 + ", destinations[0], assignments[0]: in state (x=2), the update sets x to 3, outside its range [0..2]"}},
      {"probabilities", edited(second, R"({"location": "l", "probability": {"exp": 0.4}})"), ErrorCode::model,
       {edge0 + ": in state (x=0), the command's probabilities sum to 0.9, not 1"}},
      {"vector_length",
       edited(system, R"("actions": [{"name": "a"}],
                         "system": {"elements": [{"automaton": "main"}],
                                    "syncs": [{"synchronise": ["a", "a"], "result": "a"}]})"),
       ErrorCode::parse, {"system, syncs[0]: \"synchronise\" has 2 entries, but the composition has 1"}},
      {"unknown_automaton", edited(system, R"("system": {"elements": [{"automaton": "nobody"}]})"), ErrorCode::parse,
       {"system, elements[0]: no automaton is named 'nobody'"}},
      {"unknown_location", edited(R"({"location": "l", "guard": )" + guard1, R"({"location": "nowhere", "guard": )" + guard1),
       ErrorCode::parse, {edge1 + ": 'nowhere' is no location of 'main'"}},
      {"level_not_an_integer", edited(R"([{"ref": "x", "value")", R"([{"ref": "x", "index": 0.5, "value")"),
       ErrorCode::parse, {edge0 + ", destinations[0], assignments[0]: \"index\" must be an integer (the level)"}},
      {"assigned_twice_at_one_level", edited(update, R"("assignments": [{"ref": "x", "value": 1}, {"ref": "x", "value": 2}])"),
       ErrorCode::parse, {edge0 + ", destinations[0], assignments[1]: variable 'x' is assigned twice at level 0"}},
      {"transient_at_a_level", edited(update, R"("assignments": [{"ref": "done", "index": 1, "value": true}])"),
       ErrorCode::unsupported,
       {edge0 + ", destinations[0], assignments[0]: an assignment to transient variable 'done' at level 1"}},
      {"level_reads_a_global",
       replaced(edited(R"("variables": [{"name": "done")",
                       R"("variables": [{"name": "g", "type": "bool", "initial-value": false}, {"name": "done")"),
                update,
                R"("assignments": [{"ref": "x", "value": {"op": "+", "left": "x", "right": 1}},
                                   {"ref": "x", "index": 1, "value": {"op": "ite", "if": "g", "then": 1, "else": 0}}])"),
       ErrorCode::unsupported,
       {edge0 + ", destinations[0], assignments[1]: an assignment at level 1 reads global variable 'g'"}},
      {"transients_differ",
       replaced(replaced(edited(R"("variables": [{"name": "done")",
                                R"("variables": [{"name": "r", "type": "real", "transient": true, "initial-value": 0},
                                                 {"name": "done")"),
                         update,
                         R"("assignments": [{"ref": "x", "value": {"op": "+", "left": "x", "right": 1}},
                                            {"ref": "r", "value": 1}])"),
                second,
                R"({"location": "l", "probability": {"exp": 0.5}, "assignments": [{"ref": "r", "value": 2}]})"),
       ErrorCode::unsupported,
       {edge0 + ", destinations[1]: its transient assignments differ from the edge's first destination's"}},
      {"recursive_function",
       replaced(edited(R"("type": "dtmc",)", R"("type": "dtmc",
                         "functions": [{"name": "f", "type": "int", "parameters": [{"name": "a", "type": "int"}],
                                        "body": {"op": "call", "function": "f", "args": ["a"]}}],)"),
                guard1,
                R"({"exp": {"op": "=", "left": {"op": "call", "function": "f", "args": ["x"]}, "right": 2}})"),
       ErrorCode::parse, {edge1 + ", guard: calls of 'f' nest deeper than", "may not recurse"}},
      {"rate_on_mdp",
       replaced(edited(R"("type": "dtmc")", R"("type": "mdp")"), R"({"location": "l", "guard": )" + guard1,
                R"({"location": "l", "rate": {"exp": 2}, "guard": )" + guard1),
       ErrorCode::parse, {edge1 + ", rate: an edge of a", "has a rate (only a ctmc's edges have rates)"}},
      {"real_state_variable",
       edited(R"("initial-value": 0}],)", R"("initial-value": 0}, {"name": "v", "type": "real", "initial-value": 0}],)"),
       ErrorCode::unsupported, {"automata[0] \"main\": real-valued state variables are not supported"}},
  };
}

TEST(Jani, BadInputNamesTheFileAndThePlace) {
  TempDir dir;
  // The base model itself is fine.
  EXPECT_EQ(load(write(dir, "base.jani", k_base))->num_states(), 3u);
  for (const BadCase& c : bad_cases()) {
    SCOPED_TRACE(c.name);
    const std::string path = write(dir, c.name + ".jani", c.text);
    const std::string message = expect_error(c.name, c.code, [&] { load(path); });
    EXPECT_THAT(message, HasSubstr(path + ": ")) << "the message names the file";
    for (const std::string& part : c.message) EXPECT_THAT(message, HasSubstr(part));
  }
}

TEST(Jani, AMissingConstantSaysHowToSetIt) {
  TempDir dir;
  const std::string path =
      write(dir, "open.jani",
            replaced(edited(R"("type": "dtmc",)", R"("type": "dtmc", "constants": [{"name": "N", "type": "int"}],)"),
                     R"("upper-bound": 2})", R"("upper-bound": "N"})"));
  // Through the library the way to set it is the C ABI's (the shell says --const: tests/cli/test_jani.py).
  const std::string message = expect_error("missing constant", ErrorCode::parse, [&] { load(path); });
  EXPECT_THAT(message, HasSubstr(path + ": undefined constant N (int): set it with "));
  EXPECT_THAT(message, HasSubstr("\"N=...\""));
  // Given, it builds.
  EXPECT_EQ(load(path, "N=2")->num_states(), 3u);
}

// A ctmc edge written as the sum R of its rates with destinations r_i / R
// (as tools write a PRISM command) has the weights r_i, bit for bit its
// PRISM twin's (R·(0.1/R) would be 0.1 plus an ulp); a destination of any
// other form keeps rate × probability.
TEST(Jani, RatesOverTheirSumAreThePrismRates) {
  TempDir dir;
  const std::string jani = write(dir, "split.jani", R"({"jani-version": 1, "name": "c", "type": "ctmc",
  "automata": [{"name": "main",
    "variables": [{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 2},
                   "initial-value": 0}],
    "locations": [{"name": "l"}], "initial-locations": ["l"],
    "edges": [
      {"location": "l", "guard": {"exp": {"op": "=", "left": "x", "right": 0}},
       "rate": {"exp": {"op": "+", "left": 0.1, "right": 0.7}},
       "destinations": [
         {"location": "l", "probability": {"exp": {"op": "/", "left": 0.1, "right": {"op": "+", "left": 0.1, "right": 0.7}}},
          "assignments": [{"ref": "x", "value": 1}]},
         {"location": "l", "probability": {"exp": {"op": "/", "left": 0.7, "right": {"op": "+", "left": 0.1, "right": 0.7}}},
          "assignments": [{"ref": "x", "value": 2}]}]},
      {"location": "l", "guard": {"exp": {"op": ">", "left": "x", "right": 0}}, "rate": {"exp": 3},
       "destinations": [{"location": "l", "probability": {"exp": 0.5}, "assignments": [{"ref": "x", "value": 0}]},
                        {"location": "l", "probability": {"exp": 0.5}}]}]}],
  "system": {"elements": [{"automaton": "main"}]}})");
  const std::string prism = write(dir, "split.sm", R"(ctmc
module main
  x : [0..2] init 0;
  [] x=0 -> 0.1 : (x'=1) + 0.7 : (x'=2);
  [] x>0 -> 1.5 : (x'=0) + 1.5 : true;
endmodule
)");
  const ModelPtr from_jani = load(jani), twin = load(prism);
  EXPECT_EQ(from_jani->values(), twin->values());
  EXPECT_EQ(from_jani->values()[0], 0.1);
  EXPECT_EQ(from_jani->columns(), twin->columns());
}

// Assignment levels ("index"): a level reads what the lower ones assigned,
// and a variable assigned at several levels keeps its highest — here
// x := x + 1 (0), y := x (1), x := x + 1 (2), which is PRISM's
// (x' = x + 2) & (y' = x + 1). A destination of one level is any level.
TEST(Jani, AssignmentLevelsReadTheLowerLevels) {
  TempDir dir;
  const std::string jani = write(dir, "levels.jani", R"({"jani-version": 1, "name": "levels", "type": "dtmc",
  "automata": [{"name": "main",
    "variables": [{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 4},
                   "initial-value": 0},
                  {"name": "y", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 4},
                   "initial-value": 0}],
    "locations": [{"name": "l"}], "initial-locations": ["l"],
    "edges": [
      {"location": "l", "guard": {"exp": {"op": "<", "left": "x", "right": 2}},
       "destinations": [{"location": "l", "probability": {"exp": 0.5},
                         "assignments": [{"ref": "x", "index": 2, "value": {"op": "+", "left": "x", "right": 1}},
                                         {"ref": "y", "index": 1, "value": "x"},
                                         {"ref": "x", "value": {"op": "+", "left": "x", "right": 1}}]},
                        {"location": "l", "probability": {"exp": 0.5},
                         "assignments": [{"ref": "y", "index": 3, "value": 4}]}]},
      {"location": "l", "guard": {"exp": {"op": "≥", "left": "x", "right": 2}}, "destinations": [{"location": "l"}]}]}],
  "system": {"elements": [{"automaton": "main"}]}})");
  const std::string prism = write(dir, "levels.pm", R"(dtmc
module main
  x : [0..4] init 0;
  y : [0..4] init 0;
  [] x<2 -> 0.5 : (x'=x+2) & (y'=x+1) + 0.5 : (y'=4);
  [] x>=2 -> true;
endmodule
)");
  const ModelPtr from_jani = load(jani), twin = load(prism);
  EXPECT_EQ(from_jani->num_states(), 3u);
  save_model(*from_jani, dir.path("jani.tra"), "");
  save_model(*twin, dir.path("prism.tra"), "");
  testing::expect_same_prism_files(dir.path("jani.tra"), dir.path("prism.tra"));
}

// An open constant only the properties read (QVBS majority's T) is theirs:
// the model builds without it, a value given for it is not the model's
// business, and the properties list it as their own open constant.
TEST(Jani, AConstantOnlyThePropertiesReadIsTheirs) {
  TempDir dir;
  const std::string path = write(
      dir, "bound.jani",
      replaced(edited(R"("type": "dtmc",)", R"("type": "dtmc", "constants": [{"name": "T", "type": "int"}],)"),
               R"("system": {"elements": [{"automaton": "main"}]})",
               R"("system": {"elements": [{"automaton": "main"}]},
  "properties": [{"name": "soon", "expression": {"op": "filter", "fun": "values", "states": {"op": "initial"},
    "values": {"op": "Pmin", "exp": {"op": "F", "exp": "done", "step-bounds": {"upper": "T"}}}}}])"));
  EXPECT_TRUE(declared_model_constants({path}, "").empty());
  EXPECT_EQ(load(path)->num_states(), 3u);
  EXPECT_EQ(load(path, "T=3")->num_states(), 3u);
  const jani::Properties read = jani::read_properties(path);
  ASSERT_EQ(read.constants.size(), 1u);
  EXPECT_EQ(read.constants[0].name, "T");
  EXPECT_EQ(read.constants[0].type, expression::ValueType::integer);
  EXPECT_FALSE(read.constants[0].defined);
  ASSERT_EQ(read.properties.size(), 1u);
  EXPECT_EQ(read.properties[0].text, "P=? [ F<=T \"done\" ]");
  // A constant the model reads stays the model's, even when a property reads it too.
  const std::string model_reads = write(
      dir, "model_reads.jani",
      replaced(replaced(edited(R"("type": "dtmc",)", R"("type": "dtmc", "constants": [{"name": "N", "type": "int"}],)"),
                        R"("upper-bound": 2})", R"("upper-bound": "N"})"),
               R"("system": {"elements": [{"automaton": "main"}]})",
               R"("system": {"elements": [{"automaton": "main"}]},
  "properties": [{"name": "soon", "expression": {"op": "filter", "fun": "values", "states": {"op": "initial"},
    "values": {"op": "Pmin", "exp": {"op": "F", "exp": "done", "step-bounds": {"upper": "N"}}}}}])"));
  EXPECT_TRUE(jani::read_properties(model_reads).constants.empty());
  expect_error("the model's constant", ErrorCode::parse, [&] { load(model_reads); });
}

// An automaton's "restrict-initial" restricts its local variables' initial
// values as the model's restricts the globals'.
TEST(Jani, AnAutomatonsRestrictInitialRestricts) {
  TempDir dir;
  const std::string free_x = replaced(k_base, R"(,
                   "initial-value": 0}],)", "}],");
  EXPECT_EQ(load(write(dir, "free.jani", free_x))->initial_states()->count(), 3u);  // x = 0, 1, 2
  const std::string restricted = replaced(free_x, R"("initial-locations": ["l"],)", R"("initial-locations": ["l"],
    "restrict-initial": {"exp": {"op": "≥", "left": "x", "right": 1}},)");
  EXPECT_EQ(load(write(dir, "restricted.jani", restricted))->initial_states()->count(), 2u);  // x = 1, 2
  const std::string path = write(dir, "unknown.jani", replaced(restricted, R"("≥", "left": "x")",
                                                               R"("≥", "left": "y")"));
  EXPECT_THAT(expect_error("unknown", ErrorCode::parse, [&] { load(path); }),
              HasSubstr(path + ": automata[0] \"main\", restrict-initial: unknown identifier 'y'"));
}

// A property pmc cannot translate carries its error; the file's others
// translate and check.
TEST(Jani, AnUntranslatablePropertyFailsAlone) {
  TempDir dir;
  const std::string path = write(dir, "props.jani", edited(R"("system": {)", R"("properties": [
      {"name": "reach", "expression": {"op": "filter", "fun": "values", "states": {"op": "initial"},
                                       "values": {"op": "Pmin", "exp": {"op": "F", "exp": "done"}}}},
      {"name": "bounded", "expression": {"op": "filter", "fun": "values", "states": {"op": "initial"},
          "values": {"op": "Pmin", "exp": {"op": "F", "exp": "done",
              "reward-bounds": [{"exp": "x", "accumulate": ["steps"], "bounds": {"lower": 1, "upper": 3}}]}}}},
      {"name": "steps", "expression": {"op": "filter", "fun": "values", "states": {"op": "initial"},
          "values": {"op": "Emax", "exp": 1, "accumulate": ["steps"], "reach": "done"}}}],
    "system": {)"));
  const std::vector<jani::Property> properties = jani::read_properties(path).properties;
  ASSERT_EQ(properties.size(), 3u);
  EXPECT_EQ(properties[0].name, "reach");
  EXPECT_EQ(properties[0].error, "");
  EXPECT_EQ(properties[1].name, "bounded");
  EXPECT_EQ(properties[1].error_code, ErrorCode::unsupported);
  EXPECT_THAT(properties[1].error, HasSubstr(path + ": properties[1] \"bounded\": a reward bound must have one side, "
                                                    "a lower or an upper bound"));
  EXPECT_EQ(properties[2].error, "");
  const ModelPtr m = load(path);
  EXPECT_EQ(check(*m, properties[0].text).initial_value, 1.0);
  // Expected steps to x=2 by fair coins: 2 + 2 = 4 (each increment takes 2 on average).
  EXPECT_NEAR(check(*m, properties[2].text).initial_value, 4.0, 1e-6);
}

// A one-sided reward bound is Storm's `^{rew{"r"}<=B}`, which pmc checks
// by epoch unfolding: the die shows a six within 3 coin flips only by the
// shortest path to it, 1/8.
TEST(Jani, AOneSidedRewardBoundIsStorms) {
  TempDir dir;
  std::ifstream in(k_data + "die.jani", std::ios::binary);
  const std::string die((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string path = write(dir, "die.jani", replaced(die, R"("properties": [)", R"("properties": [
    {"name": "six_within_3", "expression": {"op": "filter", "fun": "values", "states": {"op": "initial"},
      "values": {"op": "Pmax", "exp": {"op": "F", "exp": "six", "reward-bounds": [
        {"exp": "coin_flips", "accumulate": ["steps"], "bounds": {"upper": 3}}]}}}},)"));
  const std::vector<jani::Property> properties = jani::read_properties(path).properties;
  ASSERT_FALSE(properties.empty());
  EXPECT_EQ(properties[0].error, "");
  EXPECT_EQ(properties[0].text, "P=? [ F^{rew{\"coin_flips\"}<=3} \"six\" ]");
  EXPECT_NEAR(check(*load(path), properties[0].text).initial_value, 0.125, 1e-9);
}

// A ctmc's reward earned on edges only is the same accumulated per step or
// over time (PRISM's transition rewards: QVBS's cluster "repairs" writes
// steps); one with state values (a rate) accumulated per step is refused.
TEST(Jani, ACtmcsEdgeRewardAccumulatesPerStep) {
  TempDir dir;
  const std::string base = R"({"jani-version": 1, "name": "c", "type": "ctmc",
    "variables": [{"name": "r", "type": "real", "transient": true, "initial-value": 0},
                  {"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 1},
                   "initial-value": 0}],
    "automata": [{"name": "a", "locations": [{"name": "l"LOCATION_VALUES}], "initial-locations": ["l"],
      "edges": [{"location": "l", "rate": {"exp": 2}, "guard": {"exp": {"op": "=", "left": "x", "right": 0}},
                 "destinations": [{"location": "l", "assignments": [{"ref": "x", "value": 1}, {"ref": "r", "value": 1}]}]},
                {"location": "l", "rate": {"exp": 3}, "guard": {"exp": {"op": "=", "left": "x", "right": 1}},
                 "destinations": [{"location": "l", "assignments": [{"ref": "x", "value": 0}]}]}]}],
    "system": {"elements": [{"automaton": "a"}]},
    "properties": [{"name": "flips", "expression": {"op": "filter", "fun": "values", "states": {"op": "initial"},
      "values": {"op": "Emax", "exp": "r", "accumulate": ["steps"], "time-instant": 1}}}]})";
  const std::string edges_only = write(dir, "edges.jani", replaced(base, "LOCATION_VALUES", ""));
  const std::vector<jani::Property> ok = jani::read_properties(edges_only).properties;
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_EQ(ok[0].error, "");
  EXPECT_EQ(ok[0].text, "R{\"r\"}=? [ C<=1 ]");
  const std::string rated =
      write(dir, "rated.jani", replaced(base, "LOCATION_VALUES", R"(, "transient-values": [{"ref": "r", "value": 1}])"));
  const std::vector<jani::Property> refused = jani::read_properties(rated).properties;
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(refused[0].error_code, ErrorCode::unsupported);
  EXPECT_THAT(refused[0].error, HasSubstr("a ctmc's reward with state values accumulated without \"time\""));
}

// "exit" accumulation (state-exit-rewards) in discrete time: a state's
// reward as it is left, once a step, which is PRISM's state reward (QVBS
// writes PRISM's state rewards so: consensus, herman, oscillators). A ctmc
// accumulates over time only.
TEST(Jani, ExitRewardsAreStateRewardsInDiscreteTime) {
  TempDir dir;
  const std::string text = replaced(
      replaced(edited(R"("system": {)", R"("properties": [
          {"name": "exit", "expression": {"op": "filter", "fun": "values", "states": {"op": "initial"},
              "values": {"op": "Emin", "exp": "r", "accumulate": ["exit"], "reach": "done"}}}],
        "system": {)"),
               R"("variables": [{"name": "done")",
               R"("features": ["state-exit-rewards"],
        "variables": [{"name": "r", "type": "real", "transient": true, "initial-value": 0}, {"name": "done")"),
      R"("transient-values": [)", R"("transient-values": [{"ref": "r", "value": 1}, )");
  const std::string path = write(dir, "exit.jani", text);
  const std::vector<jani::Property> properties = jani::read_properties(path).properties;
  ASSERT_EQ(properties.size(), 1u);
  ASSERT_EQ(properties[0].error, "");
  EXPECT_EQ(properties[0].text, "R{\"r\"}=? [ F \"done\" ]");
  // Two fair coins to count to 2: 4 steps expected, a reward of 1 each.
  EXPECT_NEAR(check(*load(path), properties[0].text).initial_value, 4.0, 1e-6);
  // In a ctmc, exit rewards are no rate rewards: refused.
  const std::string ctmc = write(dir, "exit_ctmc.jani", replaced(text, R"("type": "dtmc")", R"("type": "ctmc")"));
  const std::vector<jani::Property> refused = jani::read_properties(ctmc).properties;
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(refused[0].error_code, ErrorCode::unsupported);
  EXPECT_THAT(refused[0].error, HasSubstr(ctmc + ": properties[0] \"exit\": a ctmc's reward with state values "
                                                 "accumulated without \"time\""));
}

}  // namespace
}  // namespace pmc
