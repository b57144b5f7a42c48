// The C ABI of properties files (pmc_properties_*): a file's properties
// with their names and texts ready for pmc_check, and garbage (a missing
// file, bad syntax, an undefined constant, NULL arguments) refused with a
// status and a message naming the file and line.
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <string>

#include "pmc/pmc.h"
#include "support/temp_dir.hpp"

namespace {

const std::string k_examples = std::string(PMC_TEST_DATA_DIR) + "/../../examples";

std::string last_error() { return pmc_last_error(); }

struct PropertiesFree {
  void operator()(pmc_properties* properties) const { pmc_properties_free(properties); }
};
using PropertiesPtr = std::unique_ptr<pmc_properties, PropertiesFree>;

uint64_t count_of(const pmc_properties* properties) {
  uint64_t count = 0;
  EXPECT_EQ(pmc_properties_count(properties, &count), PMC_OK) << last_error();
  return count;
}

std::string name_of(const pmc_properties* properties, uint64_t index) {
  const char* name = nullptr;
  EXPECT_EQ(pmc_properties_name(properties, index, &name), PMC_OK) << last_error();
  return name != nullptr ? name : "(null)";
}

std::string text_of(const pmc_properties* properties, uint64_t index) {
  const char* text = nullptr;
  EXPECT_EQ(pmc_properties_text(properties, index, &text), PMC_OK) << last_error();
  return text != nullptr ? text : "(null)";
}

TEST(PropertiesApi, ReadsTheExampleFile) {
  pmc_properties* raw = nullptr;
  ASSERT_EQ(pmc_properties_read((k_examples + "/consensus/consensus.props").c_str(), nullptr, &raw), PMC_OK)
      << last_error();
  PropertiesPtr properties(raw);
  ASSERT_EQ(count_of(raw), 5u);
  EXPECT_EQ(name_of(raw, 0), "disagree");
  EXPECT_EQ(text_of(raw, 0), "Pmax=? [ F \"finished\" & !\"agree\" ]");
  EXPECT_EQ(name_of(raw, 4), "");
  EXPECT_EQ(text_of(raw, 4), "Pmax=? [ F<=20 \"finished\" ]");  // const T = 20 substituted
  uint64_t line = 0;
  ASSERT_EQ(pmc_properties_line(raw, 0, &line), PMC_OK);
  EXPECT_EQ(line, 7u);
}

TEST(PropertiesApi, TextsGoStraightToCheck) {
  pmc_properties* raw = nullptr;
  ASSERT_EQ(pmc_properties_parse("const int N;\n\"six\": P=? [ F \"six\" ]\nP=? [ F<=N \"done\" ]\n", "die.props",
                                 "N=3,K=2", &raw),
            PMC_OK)
      << last_error();
  PropertiesPtr properties(raw);
  ASSERT_EQ(count_of(raw), 2u);
  EXPECT_EQ(text_of(raw, 1), "P=? [ F<=3 \"done\" ]");
  pmc_model* model = nullptr;
  ASSERT_EQ(pmc_model_load((k_examples + "/die/die.tra").c_str(), nullptr, &model), PMC_OK) << last_error();
  const char* text = nullptr;
  ASSERT_EQ(pmc_properties_text(raw, 0, &text), PMC_OK);
  pmc_result* result = nullptr;
  ASSERT_EQ(pmc_check(model, text, nullptr, &result), PMC_OK) << last_error();
  double value = 0;
  EXPECT_EQ(pmc_result_initial_value(result, &value), PMC_OK);
  EXPECT_NEAR(value, 1.0 / 6, 1e-6);
  pmc_result_free(result);
  pmc_model_free(model);
}

// pmc_options_set_constants: the values of constants a property names.
TEST(PropertiesApi, OptionsGiveThePropertiesConstants) {
  pmc_model* model = nullptr;
  ASSERT_EQ(pmc_model_load((k_examples + "/die/die.tra").c_str(), nullptr, &model), PMC_OK) << last_error();
  pmc_options* options = nullptr;
  ASSERT_EQ(pmc_options_create(&options), PMC_OK);
  const char* property = "P>=p [ F<=T \"done\" ]";
  pmc_result* result = nullptr;
  EXPECT_EQ(pmc_check(model, property, options, &result), PMC_ERROR_PROPERTY);
  EXPECT_NE(last_error().find("column 11: time bound T reads 'T', which is no constant"), std::string::npos)
      << last_error();
  ASSERT_EQ(pmc_options_set_constants(options, "T=3, p=0.5"), PMC_OK) << last_error();
  ASSERT_EQ(pmc_check(model, property, options, &result), PMC_OK) << last_error();
  double value = 0;
  EXPECT_EQ(pmc_result_initial_value(result, &value), PMC_OK);
  EXPECT_EQ(value, 1.0);  // P(F<=3 "done") = 0.75 >= 0.5
  pmc_result_free(result);
  // A double is no step bound of a DTMC, as in PRISM.
  ASSERT_EQ(pmc_options_set_constants(options, "T=3.0,p=0.5"), PMC_OK);
  EXPECT_EQ(pmc_check(model, property, options, &result), PMC_ERROR_PROPERTY);
  EXPECT_NE(last_error().find("time bound T = 3 is a double"), std::string::npos) << last_error();
  // Malformed text changes nothing.
  for (const char* bad : {"T", "T=1,T=2", "T=x+1", "T=1:1:3"}) {
    EXPECT_EQ(pmc_options_set_constants(options, bad), PMC_ERROR_INVALID_ARGUMENT) << bad;
  }
  EXPECT_EQ(pmc_check(model, property, options, &result), PMC_ERROR_PROPERTY);
  ASSERT_EQ(pmc_options_set_constants(options, nullptr), PMC_OK);  // cleared
  EXPECT_EQ(pmc_check(model, property, options, &result), PMC_ERROR_PROPERTY);
  EXPECT_EQ(pmc_options_set_constants(nullptr, "T=1"), PMC_ERROR_INVALID_ARGUMENT);
  pmc_options_free(options);
  pmc_model_free(model);
}

TEST(PropertiesApi, GarbageIsRefusedWithFileAndLine) {
  const struct {
    const char* text;
    pmc_status status;
    const char* message;
  } cases[] = {
      {"const int T;\nP=? [ F<=T \"done\" ]\n", PMC_ERROR_PARSE,
       "bad.props:2: column 10: constant 'T' (int, bad.props:1) has no value"},
      {"P=? [ F \"done\" ]\nP=? [ F \"done ]\n", PMC_ERROR_PARSE, "bad.props:2: unterminated string"},
      {"/* open\nP=? [ F \"a\" ]\n", PMC_ERROR_PARSE, "bad.props:1: unterminated comment"},
      {"const int x = 1/2;\nP=? [ F \"a\" ]\n", PMC_ERROR_PARSE, "bad.props:1:15: type error"},
      {"formula f = ;\n", PMC_ERROR_PARSE, "bad.props:1: formula f has no body"},
      {"\"a\": P=? [ F \"a\" ]\n\"a\": P=? [ F \"b\" ]\n", PMC_ERROR_PARSE, "bad.props:2: two properties are named"},
      {"// nothing here\n", PMC_ERROR_PARSE, "bad.props: no property"},
      {"\x01\x02\xff\n\"", PMC_ERROR_PARSE, "bad.props:2: unterminated string"},
  };
  for (const auto& c : cases) {
    pmc_properties* raw = reinterpret_cast<pmc_properties*>(0x1);  // untouched on failure
    EXPECT_EQ(pmc_properties_parse(c.text, "bad.props", nullptr, &raw), c.status) << c.text;
    EXPECT_NE(last_error().find(c.message), std::string::npos) << c.text << " gave: " << last_error();
    EXPECT_EQ(raw, reinterpret_cast<pmc_properties*>(0x1));
  }
  // The same through a file: its path names it.
  pmc::testing::TempDir dir;
  const std::string path = dir.path("bad.props");
  std::ofstream(path) << "P=? [ F \"a\" ]\nconst int N;\nP=? [ F<=N \"a\" ]\n";
  pmc_properties* raw = nullptr;
  EXPECT_EQ(pmc_properties_read(path.c_str(), nullptr, &raw), PMC_ERROR_PARSE);
  EXPECT_NE(last_error().find(path + ":3: column 10: constant 'N' (int, " + path + ":2) has no value"), std::string::npos)
      << last_error();
  EXPECT_EQ(pmc_properties_read(path.c_str(), "N=4", &raw), PMC_OK) << last_error();
  PropertiesPtr owned(raw);
  EXPECT_EQ(text_of(raw, 1), "P=? [ F<=4 \"a\" ]");
  // Unnamed text is "<text>" in messages.
  pmc_properties* other = nullptr;
  EXPECT_EQ(pmc_properties_parse("", nullptr, nullptr, &other), PMC_ERROR_PARSE);
  EXPECT_NE(last_error().find("<text>: no property"), std::string::npos) << last_error();
}

TEST(PropertiesApi, MissingFileAndBadConstants) {
  pmc_properties* raw = nullptr;
  EXPECT_EQ(pmc_properties_read("/nonexistent/missing.props", nullptr, &raw), PMC_ERROR_IO);
  EXPECT_NE(last_error().find("/nonexistent/missing.props: cannot open the properties file"), std::string::npos)
      << last_error();
  for (const char* constants : {"N", "N=", "=1", "N=1,N=2", "N=x+1"}) {
    EXPECT_EQ(pmc_properties_parse("P=? [ F \"a\" ]", nullptr, constants, &raw), PMC_ERROR_INVALID_ARGUMENT)
        << constants;
    EXPECT_NE(last_error().find("constants: "), std::string::npos) << last_error();
  }
  EXPECT_EQ(raw, nullptr);
}

TEST(PropertiesApi, NullArgumentsAndIndicesOutOfRange) {
  pmc_properties* raw = nullptr;
  EXPECT_EQ(pmc_properties_read(nullptr, nullptr, &raw), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("path is NULL"), std::string::npos) << last_error();
  EXPECT_EQ(pmc_properties_read("x.props", nullptr, nullptr), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("out_properties is NULL"), std::string::npos) << last_error();
  EXPECT_EQ(pmc_properties_parse(nullptr, nullptr, nullptr, &raw), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("text is NULL"), std::string::npos) << last_error();
  EXPECT_EQ(pmc_properties_parse("P=? [ F \"a\" ]", nullptr, nullptr, nullptr), PMC_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(pmc_properties_parse("P=? [ F \"a\" ]", nullptr, nullptr, &raw), PMC_OK) << last_error();
  PropertiesPtr properties(raw);
  uint64_t count = 0, line = 0;
  const char* text = "untouched";
  EXPECT_EQ(pmc_properties_count(nullptr, &count), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_properties_count(raw, nullptr), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_properties_name(nullptr, 0, &text), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_properties_name(raw, 0, nullptr), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_properties_text(raw, 1, &text), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("property index 1 out of range (1 properties)"), std::string::npos) << last_error();
  EXPECT_EQ(pmc_properties_line(raw, 7, &line), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pmc_properties_line(raw, 0, nullptr), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(text, "untouched");
  pmc_properties_free(nullptr);
}

// A JANI model's properties through the same calls: named as in the file,
// in PRISM syntax, checked on the model pmc_model_build_prism builds from
// the same file; one pmc cannot translate answers its reason from
// pmc_properties_text, the others stay usable.
TEST(PropertiesApi, ReadsAJaniModelsProperties) {
  const std::string path = std::string(PMC_TEST_DATA_DIR) + "/jani/consensus.jani";
  pmc_properties* raw = nullptr;
  ASSERT_EQ(pmc_properties_read(path.c_str(), nullptr, &raw), PMC_OK) << last_error();
  PropertiesPtr properties(raw);
  ASSERT_EQ(count_of(raw), 6u);
  EXPECT_EQ(name_of(raw, 0), "disagree");
  EXPECT_EQ(text_of(raw, 0), "Pmax=? [ F \"finished\" & !\"agree\" ]");
  uint64_t line = 7;
  EXPECT_EQ(pmc_properties_line(raw, 0, &line), PMC_OK);
  EXPECT_EQ(line, 0u);

  pmc_model* model = nullptr;
  ASSERT_EQ(pmc_model_build_prism(path.c_str(), "K=2", nullptr, &model), PMC_OK) << last_error();
  pmc_result* result = nullptr;
  ASSERT_EQ(pmc_check(model, text_of(raw, 0).c_str(), nullptr, &result), PMC_OK) << last_error();
  double value = 0;
  EXPECT_EQ(pmc_result_initial_value(result, &value), PMC_OK);
  EXPECT_NEAR(value, 0.108333, 1e-5);  // consensus.props' disagree on the PRISM source, K=2
  pmc_result_free(result);
  pmc_model_free(model);

  pmc::testing::TempDir dir;
  const std::string bad = dir.path("bounded.jani");
  std::ofstream(bad) << R"({"jani-version": 1, "name": "m", "type": "dtmc",
    "variables": [{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 1},
                   "initial-value": 0}],
    "automata": [{"name": "a", "locations": [{"name": "l"}], "initial-locations": ["l"],
                  "edges": [{"location": "l", "destinations": [{"location": "l"}]}]}],
    "system": {"elements": [{"automaton": "a"}]},
    "properties": [
      {"name": "bounded", "expression": {"op": "filter", "fun": "values", "states": {"op": "initial"},
        "values": {"op": "Pmin", "exp": {"op": "U", "left": true, "right": {"op": "=", "left": "x", "right": 1},
          "reward-bounds": [{"exp": "x", "accumulate": ["steps"], "bounds": {"lower": 1, "upper": 3}}]}}}},
      {"name": "plain", "expression": {"op": "filter", "fun": "values", "states": {"op": "initial"},
        "values": {"op": "Pmin", "exp": {"op": "U", "left": true, "right": {"op": "=", "left": "x", "right": 1}}}}}]})";
  raw = nullptr;
  ASSERT_EQ(pmc_properties_read(bad.c_str(), nullptr, &raw), PMC_OK) << last_error();
  properties.reset(raw);
  ASSERT_EQ(count_of(raw), 2u);
  EXPECT_EQ(name_of(raw, 0), "bounded");
  const char* text = nullptr;
  EXPECT_EQ(pmc_properties_text(raw, 0, &text), PMC_ERROR_UNSUPPORTED);
  EXPECT_NE(last_error().find("properties[0] \"bounded\": a reward bound must have one side"),
            std::string::npos) << last_error();
  EXPECT_EQ(text_of(raw, 1), "P=? [ true U x = 1 ]");

  // An open constant only the properties read takes its value from the
  // call's constants, as a properties file's does; without one the read fails.
  const std::string open = dir.path("open.jani");
  std::ofstream(open) << R"({"jani-version": 1, "name": "m", "type": "dtmc",
    "constants": [{"name": "T", "type": "int"}],
    "variables": [{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 1},
                   "initial-value": 0}],
    "automata": [{"name": "a", "locations": [{"name": "l"}], "initial-locations": ["l"],
                  "edges": [{"location": "l", "destinations": [{"location": "l", "assignments": [{"ref": "x", "value": 1}]}]}]}],
    "system": {"elements": [{"automaton": "a"}]},
    "properties": [{"name": "soon", "expression": {"op": "filter", "fun": "values", "states": {"op": "initial"},
        "values": {"op": "Pmin", "exp": {"op": "F", "exp": {"op": "=", "left": "x", "right": 1},
          "step-bounds": {"upper": "T"}}}}}]})";
  raw = nullptr;
  ASSERT_EQ(pmc_properties_read(open.c_str(), "T=4", &raw), PMC_OK) << last_error();
  properties.reset(raw);
  EXPECT_EQ(text_of(raw, 0), "P=? [ F<=4 x=1 ]");  // canonical form, as a properties file's substituted text
  raw = nullptr;
  EXPECT_EQ(pmc_properties_read(open.c_str(), nullptr, &raw), PMC_ERROR_PARSE);
  EXPECT_NE(last_error().find("property \"soon\""), std::string::npos) << last_error();
  EXPECT_NE(last_error().find("'T'"), std::string::npos) << last_error();
  // The model builds without it.
  pmc_model* built = nullptr;
  ASSERT_EQ(pmc_model_build_prism(open.c_str(), nullptr, nullptr, &built), PMC_OK) << last_error();
  pmc_model_free(built);
}

}  // namespace
