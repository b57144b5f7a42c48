// Properties over state variables (PRISM's `P=? [ F s=7 & d=6 ]`): values
// on Knuth's die, from its .sta and from its source, each function and
// operator on hand-computed cases, and the errors (unknown variables, types,
// a model without variables, mod by zero). A source's constants and formulas
// in properties, also after a .pmcb round trip.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "check/check.hpp"
#include "check/parametric.hpp"
#include "check/state_expressions.hpp"
#include "common/error.hpp"
#include "formats/model_files.hpp"
#include "formats/pmcb.hpp"
#include "formats/prism_language/prism_model.hpp"
#include "property/parser.hpp"
#include "support/temp_dir.hpp"

namespace pmc {
namespace {

const std::string k_examples = std::string(PMC_TEST_DATA_DIR) + "/../../examples/die/";

const Model& die_explicit() {
  static const ModelPtr m = load_model({k_examples + "die.tra"}, "", {});
  return *m;
}

const Model& die_source() {
  static const ModelPtr m =
      prism_language::build_model_from_source(k_examples + "die.pm", {}, prism_language::ExploreOptions{});
  return *m;
}

CheckOptions tight() {
  CheckOptions o;
  o.settings.epsilon = 1e-12;
  return o;
}

double value(const Model& m, const std::string& property) { return check(m, property, tight()).initial_value; }

std::string error_of(const Model& m, const std::string& property, ErrorCode code = ErrorCode::property) {
  try {
    check(m, property, tight());
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    return e.what();
  }
  ADD_FAILURE() << property << " gave no error";
  return "";
}

// The states where the atom holds, from the expression of `P=? [ F atom ]`.
std::vector<uint8_t> states_of(const Model& m, const std::string& atom) {
  const property::Property p = property::parse_property("P=? [ F " + atom + " ]");
  return expression_states(m, *p.top_operator()->path->right->expression, 1);
}

TEST(StateExpressions, DieValuesMatchItsLabels) {
  // die.pm: label "six" = s=7 & d=6, "done" = s=7.
  for (const Model* m : {&die_explicit(), &die_source()}) {
    ASSERT_FALSE(m->valuations().empty());
    EXPECT_EQ(check(*m, "P=? [ F s=7 & d=6 ]", tight()).values, check(*m, "P=? [ F \"six\" ]", tight()).values);
    EXPECT_NEAR(value(*m, "P=? [ F s=7 & d=6 ]"), 1.0 / 6, 1e-12);
    EXPECT_NEAR(value(*m, "P=? [ F d=6 ]"), 1.0 / 6, 1e-12);
    EXPECT_NEAR(value(*m, "P=? [ F s=7 & d>3 ]"), 0.5, 1e-12);
    EXPECT_NEAR(value(*m, "P=? [ s<7 U d=2 | d=3 ]"), 1.0 / 3, 1e-12);
    EXPECT_NEAR(value(*m, "P=? [ F<=3 s=7 ]"), 0.75, 1e-12);
    EXPECT_NEAR(value(*m, "R{\"coin_flips\"}=? [ F s=7 ]"), 11.0 / 3, 1e-10);
    EXPECT_NEAR(value(*m, "P=? [ F \"done\" & !d=6 ]"), 5.0 / 6, 1e-12);
    // A nested operator's bound over a variable atom.
    EXPECT_NEAR(value(*m, "P=? [ F P>=1 [ F d=6 ] ]"), 1.0 / 6, 1e-12);
  }
}

TEST(StateExpressions, FunctionsAndArithmetic) {
  const Model& m = die_explicit();
  // d in 1..6 with probability 1/6 each once s=7.
  EXPECT_NEAR(value(m, "P=? [ F s=7 & mod(d,2)=0 ]"), 0.5, 1e-12);
  EXPECT_NEAR(value(m, "P=? [ F s=7 & floor(d/2)=1 ]"), 2.0 / 6, 1e-12);  // d = 2, 3
  EXPECT_NEAR(value(m, "P=? [ F s=7 & ceil(d/2)=1 ]"), 2.0 / 6, 1e-12);   // d = 1, 2
  EXPECT_NEAR(value(m, "P=? [ F s=7 & round(d/4)=1 ]"), 4.0 / 6, 1e-12);  // d = 2..5 (0.5 rounds up)
  EXPECT_NEAR(value(m, "P=? [ F pow(2,d)=64 ]"), 1.0 / 6, 1e-12);
  EXPECT_NEAR(value(m, "P=? [ F s=7 & log(d,2)<=1 ]"), 2.0 / 6, 1e-12);  // d = 1, 2
  EXPECT_NEAR(value(m, "P=? [ F min(s,d)=max(1,d) & s=7 ]"), 1.0, 1e-12);
  EXPECT_NEAR(value(m, "P=? [ F s=7 & d*2-1>=2*d-1 & -d<=-5 ]"), 2.0 / 6, 1e-12);  // d = 5, 6
  EXPECT_NEAR(value(m, "P=? [ F s=7 & d/4=1.5 ]"), 1.0 / 6, 1e-12);              // '/' is real
  EXPECT_NEAR(value(m, "P=? [ F s=7 & d!=6 & (d=5)=(s=7) ]"), 1.0 / 6, 1e-12);
  EXPECT_NEAR(value(m, "P=? [ F 1+1=2 & d=6 ]"), 1.0 / 6, 1e-12);
  // mod keeps PRISM's sign rule: non-negative for a positive divisor
  // (mod(-5,4) = 3, where C++'s and Java's remainder give -1).
  const std::vector<uint8_t> holds = states_of(m, "mod(d-7,4)=3");
  const StateValuations& v = m.valuations();
  for (uint64_t s = 0; s < m.num_states(); ++s) {
    const int32_t d = v.value(s, 1);
    EXPECT_EQ(holds[s], d == 2 || d == 6 ? 1 : 0) << "state " << s << " d=" << d;
  }
}

TEST(StateExpressions, BooleanVariables) {
  testing::TempDir dir;
  const std::string path = dir.path("flags.pm");
  std::ofstream(path) << "dtmc\nmodule m\n  x : [0..3] init 0;\n  b : bool init false;\n"
                         "  [] x<3 -> 0.5 : (x'=x+1) & (b'=!b) + 0.5 : (x'=3);\n  [] x=3 -> true;\nendmodule\n";
  const ModelPtr m = load_model({path}, "", {});
  // States (x,b): (0,F) (1,T) (2,F) (3,F) (3,T); reach b with x<3 from (0,F): only via (1,T).
  EXPECT_NEAR(value(*m, "P=? [ F b & x<3 ]"), 0.5, 1e-12);
  EXPECT_NEAR(value(*m, "P=? [ F b=true & x=1 ]"), 0.5, 1e-12);
  EXPECT_NEAR(value(*m, "P=? [ F !b & x=2 ]"), 0.25, 1e-12);
  EXPECT_NEAR(value(*m, "P=? [ F b!=false & x=3 ]"), 0.375, 1e-12);  // from (1,T) directly or through (2,F)
  std::string e = error_of(*m, "P=? [ F b+1=2 ]");
  EXPECT_NE(e.find("column 9: '+' takes numbers, but 'b' is a boolean"), std::string::npos) << e;
  e = error_of(*m, "P=? [ F b<x ]");
  EXPECT_NE(e.find("'<' takes numbers, but 'b' is a boolean"), std::string::npos) << e;
  e = error_of(*m, "P=? [ F b=1 ]");
  EXPECT_NE(e.find("'=' compares two booleans or two numbers, but 'b' is a boolean and '1' an integer"),
            std::string::npos)
      << e;
  e = error_of(*m, "P=? [ F floor(b)=0 ]");
  EXPECT_NE(e.find("floor takes numbers, but 'b' is a boolean"), std::string::npos) << e;
  e = error_of(*m, "P=? [ F -b ]");
  EXPECT_NE(e.find("'-' takes numbers"), std::string::npos) << e;
}

TEST(StateExpressions, Errors) {
  const Model& m = die_explicit();
  std::string e = error_of(m, "P=? [ F q=1 ]");
  EXPECT_NE(e.find("column 9: unknown variable 'q' (the model's variables: s, d); labels are written in double "
                   "quotes, as \"q\""),
            std::string::npos)
      << e;
  e = error_of(m, "P=? [ F s ]");
  EXPECT_NE(e.find("column 9: 's' is an integer, not a condition (compare it, as s=1)"), std::string::npos) << e;
  e = error_of(m, "P=? [ F d/2 ]");
  EXPECT_NE(e.find("'d/2' is a number, not a condition"), std::string::npos) << e;
  e = error_of(m, "P=? [ F mod(d,2.5)=0 ]");
  EXPECT_NE(e.find("mod takes integers, but '2.5' is a number"), std::string::npos) << e;
  // Undefined in some state: the first one, with its valuation.
  e = error_of(m, "P=? [ F mod(s,d)=0 ]");
  EXPECT_NE(e.find("column 9: 'mod(s,d)' is undefined in state 0 (s=0,d=0): mod by zero"), std::string::npos) << e;
  e = error_of(m, "P=? [ F s=7 & pow(d,s-8)>0 ]");
  EXPECT_NE(e.find("column 15: 'pow(d,s - 8)' is undefined in state 0 (s=0,d=0): a negative exponent of an integer "
                   "power"),
            std::string::npos)
      << e;

  // A model without state valuations (a .tra without its .sta).
  ModelParts p;
  p.num_states = 2;
  p.row_offsets = {0, 1, 2};
  p.columns = {1, 1};
  p.values = {1, 1};
  const ModelPtr bare = Model::create(std::move(p));
  e = error_of(*bare, "LRA=? [ minimum ]");
  EXPECT_NE(e.find("column 9: 'minimum' is no label and the model has no state variables to look it up in"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("labels are written in double quotes, as \"minimum\""), std::string::npos) << e;
  // Expressions without variables need none.
  EXPECT_EQ(check(*bare, "P=? [ F 2>1 ]", tight()).values, (std::vector<double>{1, 1}));
}

// x counts up to N, with probability p each step, else jumps to N:
// states x=0..3; P(reach x=1) = 1/2, P(reach x=2) = 1/4, P(reach x=N) = 1.
constexpr const char* k_counter_source =
    "dtmc\n"
    "const int N = 3;\n"
    "const double p = 0.5;\n"
    "const double two = 2;\n"
    "const bool go = true;\n"
    "formula at_end = x=N;\n"
    "formula near = x>=N-1 & !at_end;\n"
    "formula twice = 2*x;\n"
    "formula tokens = (x=1 ? 1 : 0) + (x=2 ? 1 : 0);\n"
    "formula ratio = x/two;\n"
    "formula odd_step = mod(x, x-1)=1;\n"
    "module m\n"
    "  x : [0..N] init 0;\n"
    "  [] x<N & go -> p : (x'=x+1) + 1-p : (x'=N);\n"
    "  [] x=N -> true;\n"
    "endmodule\n"
    "label \"near\" = near;\n";

TEST(StateExpressions, SourceConstantsAndFormulas) {
  testing::TempDir dir;
  const std::string source = dir.path("counter.pm");
  std::ofstream(source) << k_counter_source;
  const ModelPtr built = load_model({source}, "", {});
  EXPECT_EQ(built->definitions().constants,
            (std::vector<std::pair<std::string, std::string>>{{"N", "3"}, {"p", "0.5"}, {"two", "2.0"}, {"go", "true"}}));
  ASSERT_EQ(built->definitions().formulas.size(), 6u);
  EXPECT_EQ(built->definitions().formulas[0], (std::pair<std::string, std::string>{"at_end", "x = N"}));

  // The same model through .pmcb keeps them.
  const std::string pmcb = dir.path("counter.pmcb");
  write_pmcb(*built, pmcb);
  const ModelPtr reread = load_model({pmcb}, "", {});
  EXPECT_EQ(reread->definitions(), built->definitions());

  for (const Model* m : {built.get(), reread.get()}) {
    EXPECT_NEAR(value(*m, "P=? [ F x=N ]"), 1.0, 1e-12);
    EXPECT_NEAR(value(*m, "P=? [ F x=N-1 ]"), 0.25, 1e-12);
    EXPECT_NEAR(value(*m, "P=? [ F x=N & go ]"), 1.0, 1e-12);
    EXPECT_NEAR(value(*m, "P=? [ F x*p=1 ]"), 0.25, 1e-12);
    EXPECT_NEAR(value(*m, "P=? [ F at_end ]"), 1.0, 1e-12);
    // A formula that names another formula, and one with PRISM's `? :`.
    EXPECT_EQ(check(*m, "P=? [ F near ]", tight()).values, check(*m, "P=? [ F \"near\" ]", tight()).values);
    EXPECT_NEAR(value(*m, "P=? [ F near ]"), 0.25, 1e-12);
    EXPECT_NEAR(value(*m, "P=? [ F !near & x>0 & x<N ]"), 0.5, 1e-12);
    EXPECT_NEAR(value(*m, "P=? [ F twice=4 ]"), 0.25, 1e-12);
    EXPECT_NEAR(value(*m, "P=? [ F tokens=1 & !at_end ]"), 0.5, 1e-12);
    EXPECT_NEAR(value(*m, "P=? [ F ratio=0.5 ]"), 0.5, 1e-12);  // a double formula: 1/2.0

    std::string e = error_of(*m, "P=? [ F near+1=2 ]");
    EXPECT_NE(e.find("column 9: '+' takes numbers, but 'near' is a boolean"), std::string::npos) << e;
    e = error_of(*m, "P=? [ F at_end=N ]");
    EXPECT_NE(e.find("'=' compares two booleans or two numbers"), std::string::npos) << e;
    e = error_of(*m, "P=? [ F q=1 ]");
    EXPECT_NE(e.find("column 9: unknown name 'q' (the model's variables: x; its source's constants and formulas: "
                     "N=3, p=0.5, two=2.0, go=true, at_end, near, twice, tokens, ratio, odd_step); labels are "
                     "written in double quotes, as \"q\""),
              std::string::npos)
        << e;
    // Undefined in some state: named by the formula, with the state.
    e = error_of(*m, "P=? [ F odd_step ]");
    EXPECT_NE(e.find("column 9: 'odd_step' is undefined in state 1 (x=1)"), std::string::npos) << e;
  }
}

TEST(StateExpressions, ConstantsBeyondPrismLiteralsSurviveThePmcb) {
  // fuzz_prism_language: a constant computed in 64 bits is no literal the
  // PRISM lexer takes back; the .pmcb of its model must still load.
  testing::TempDir dir;
  const std::string source = dir.path("big.pm");
  std::ofstream(source) << "dtmc\nconst int big = 2147483647 * 4;\nconst int low = -2147483647 - 1;\n"
                           "formula small = x < big & x > low;\n"
                           "module m\n  x : [0..3] init 0;\n  [] x<3 -> (x'=x+1);\n  [] x=3 -> true;\nendmodule\n";
  const ModelPtr built = load_model({source}, "", {});
  EXPECT_EQ(built->definitions().constants,
            (std::vector<std::pair<std::string, std::string>>{{"big", "8589934588"}, {"low", "-2147483648"}}));
  const std::string pmcb = dir.path("big.pmcb");
  write_pmcb(*built, pmcb);
  const ModelPtr reread = load_model({pmcb}, "", {});
  for (const Model* m : {built.get(), reread.get()}) {
    EXPECT_NEAR(value(*m, "P=? [ F x*2147483647 < big ]"), 1.0, 1e-12);
    EXPECT_NEAR(value(*m, "P=? [ G small ]"), 1.0, 1e-12);
  }
}

TEST(StateExpressions, DefinitionsThatDoNotBindAreErrors) {
  // As a .pmcb not written by pmc could carry them.
  auto model_with = [](SourceDefinitions definitions) {
    ModelParts p;
    p.num_states = 2;
    p.row_offsets = {0, 1, 2};
    p.columns = {1, 1};
    p.values = {1, 1};
    p.valuations = StateValuations{{"x"}, {0}, {0, 1}};
    p.definitions = std::move(definitions);
    return Model::create(std::move(p));
  };
  const ModelPtr cyclic = model_with({{{"K", "two"}}, {{"a", "b & x=1"}, {"b", "a"}}});
  std::string e = error_of(*cyclic, "P=? [ F a ]");
  EXPECT_NE(e.find("column 9: formula 'a' of the model's source cannot be used"), std::string::npos) << e;
  EXPECT_NE(e.find("is defined in terms of itself"), std::string::npos) << e;
  e = error_of(*cyclic, "P=? [ F x=K ]");
  EXPECT_NE(e.find("column 11: constant 'K' has the value 'two', which is no number, true or false"),
            std::string::npos)
      << e;
  EXPECT_NEAR(value(*cyclic, "P=? [ F x=1 ]"), 1.0, 1e-12);  // the rest of the model is usable

  const ModelPtr garbled = model_with({{}, {{"c", "x +"}}});
  e = error_of(*garbled, "P=? [ F c=1 ]");
  EXPECT_NE(e.find("column 9: formula 'c' of the model's source cannot be used"), std::string::npos) << e;

  // A .pmcb carrying a definition that does not parse is refused when read.
  testing::TempDir dir;
  const std::string pmcb = dir.path("garbled.pmcb");
  write_pmcb(*garbled, pmcb);
  try {
    load_model({pmcb}, "", {});
    ADD_FAILURE() << "a .pmcb with a garbled formula loaded";
  } catch (const Error& error) {
    e = error.what();
    EXPECT_EQ(error.code(), ErrorCode::parse) << e;
    EXPECT_NE(e.find("garbled.pmcb: formula 'c' of the model's source cannot be used"), std::string::npos) << e;
  }
}

TEST(StateExpressions, ParametricPropertiesTakeThemToo) {
  // 0 →(k1) 1 →(k2) 2, variable x = state index.
  ModelParts p;
  p.type = ModelType::pctmc;
  p.num_states = 3;
  p.row_offsets = {0, 1, 2, 2};
  p.columns = {1, 2};
  p.values = {0, 0};
  p.parameters = {Parameter{"k1", 0.1, 2}, Parameter{"k2", 0.1, 2}};
  p.coefficients = {1, 0, 0, 1};
  Bitset goal(3);
  goal.set(2);
  p.labels = {Label{"goal", goal}};
  p.valuations = StateValuations{{"x"}, {0}, {0, 1, 2}};
  const ModelPtr m = Model::create(std::move(p));
  const ParametricQuery by_label = parametric_query(*m, "P=? [ x<2 U<=1 \"goal\" ]");
  const ParametricQuery by_variable = parametric_query(*m, "P=? [ x<2 U<=1 x=2 ]");
  EXPECT_EQ(by_variable.problem.x0, by_label.problem.x0);
  ASSERT_EQ(by_variable.problem.phases.size(), by_label.problem.phases.size());
  EXPECT_EQ(by_variable.problem.phases[0].active, by_label.problem.phases[0].active);
  EXPECT_EQ(by_variable.problem.x0, (std::vector<double>{0, 0, 1}));
}

}  // namespace
}  // namespace pmc
