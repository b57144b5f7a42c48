// Constants, formulas and labels of properties (property/definitions.hpp,
// property/file_definitions.hpp): a properties file's constants evaluated
// with lib/expression (over earlier constants, the model's, values given
// with --const), and bounds written as expressions evaluated and checked
// with the column and the value in every message.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/error.hpp"
#include "expression/constant_assignments.hpp"
#include "property/definitions.hpp"
#include "property/file_definitions.hpp"
#include "property/parser.hpp"
#include "property/properties_file.hpp"

namespace pmc::property {
namespace {

using expression::ValueType;

Definitions definitions_of(const std::string& file_text, const std::string& given,
                           const std::vector<ConstantValue>& outer = {}) {
  return file_definitions(parse_properties(file_text, "p.props"), expression::parse_constant_assignments(given), outer);
}

ConstantValue constant(const std::string& name, ValueType type, std::optional<double> value) {
  ConstantValue c;
  c.name = name;
  c.type = type;
  c.value = value;
  c.origin = "p.props:1";
  return c;
}

const ConstantValue& find(const Definitions& d, const std::string& name) {
  const ConstantValue* c = d.find_constant(name);
  EXPECT_NE(c, nullptr) << name;
  return *c;
}

template <typename F>
std::string error_of(F&& f, ErrorCode* code = nullptr) {
  try {
    f();
  } catch (const Error& e) {
    if (code != nullptr) *code = e.code();
    return e.what();
  }
  return "";
}

const char* const k_file =
    "const int N;\nconst double T;\nconst double T2 = T/2;\nconst int K = M + N;\nconst bool b = K > 3 & !false;\n"
    "P=? [ F \"a\" ]\n";

TEST(FileDefinitions, ConstantsAreEvaluatedWithTheirTypes) {
  const PropertiesFile file = parse_properties(k_file, "p.props");
  EXPECT_EQ(file.undefined_constants(), "N (int), T (double)");
  const Definitions d = definitions_of(k_file, "N=3,T=5", {constant("M", ValueType::integer, 2)});
  ASSERT_EQ(d.constants.size(), 5u);
  EXPECT_EQ(find(d, "N").type, ValueType::integer);
  EXPECT_EQ(find(d, "N").value, 3.0);
  EXPECT_EQ(find(d, "T").type, ValueType::real);
  EXPECT_EQ(find(d, "T").value, 5.0);
  EXPECT_EQ(find(d, "T2").value, 2.5);  // PRISM's division is real
  EXPECT_EQ(find(d, "K").type, ValueType::integer);
  EXPECT_EQ(find(d, "K").value, 5.0);
  EXPECT_EQ(find(d, "b").type, ValueType::boolean);
  EXPECT_EQ(find(d, "b").value, 1.0);
  EXPECT_EQ(describe_constants(d.constants), "N=3, T=5.0, T2=2.5, K=5, b=true");
  EXPECT_EQ(find(d, "T").origin, "p.props:2, given with --const");
}

TEST(FileDefinitions, ConstantsWithoutValuesStayOpenForTheirProperties) {
  const Definitions d = definitions_of(k_file, "N=3", {constant("M", ValueType::integer, 2)});
  EXPECT_FALSE(find(d, "T").value.has_value());
  EXPECT_EQ(find(d, "T").needs, "");
  EXPECT_FALSE(find(d, "T2").value.has_value());
  EXPECT_EQ(find(d, "T2").needs, "T");
  EXPECT_EQ(find(d, "K").value, 5.0);
  // Only a property that reads one fails, naming it and how to give it.
  const Property p = parse_property("P=? [ F<=T2 \"a\" ]");
  EXPECT_NE(error_of([&] { bind_definitions(p, d, {}, false); })
                .find("column 10: constant 'T2' (double, p.props:3) has no value because constant 'T' has none: "
                      "give T with --const T=..."),
            std::string::npos);
  EXPECT_NE(error_of([&] { bind_definitions(parse_property("P=? [ F x<T ]"), d, {}, false); })
                .find("column 11: constant 'T' (double, p.props:2) has no value: give it with --const T=..."),
            std::string::npos);
  EXPECT_NO_THROW(bind_definitions(parse_property("P=? [ F<=K \"a\" ]"), d, {}, true));
}

TEST(FileDefinitions, GivenValuesAreCheckedAgainstTheDeclarations) {
  const std::vector<ConstantValue> outer{constant("M", ValueType::integer, 2)};
  ErrorCode code = ErrorCode::internal;
  std::string e = error_of([&] { definitions_of(k_file, "N=0.5,T=1", outer); }, &code);
  EXPECT_EQ(code, ErrorCode::invalid_argument);
  EXPECT_NE(e.find("constant N=0.5 given: N is an int constant (declared at p.props:1:11)"), std::string::npos) << e;
  e = error_of([&] { definitions_of(k_file, "N=1,T=yes", outer); }, &code);
  EXPECT_NE(e.find("T is a double constant"), std::string::npos) << e;
  e = error_of([&] { definitions_of(k_file, "N=1,T=1,T2=3", outer); }, &code);
  EXPECT_EQ(code, ErrorCode::invalid_argument);
  EXPECT_NE(e.find("p.props:3: constant T2=3 given: constant 'T2' is already defined in the properties file"),
            std::string::npos)
      << e;
  // A file constant may not repeat a model constant's name.
  e = error_of([&] { definitions_of(k_file, "N=1,T=1", {constant("T2", ValueType::real, 1)}); }, &code);
  EXPECT_EQ(code, ErrorCode::parse);
  EXPECT_NE(e.find("p.props:3: constant 'T2' is a constant of p.props:1 too"), std::string::npos) << e;
  // Names the file does not declare are the caller's to judge (the model's).
  EXPECT_NO_THROW(definitions_of(k_file, "N=1,T=1,Q=7", outer));
  // Without the model's M, K reads no constant.
  e = error_of([&] { definitions_of(k_file, "N=1,T=1"); }, &code);
  EXPECT_NE(e.find("p.props:4:15: the value of constant 'K' reads 'M', which is no constant"), std::string::npos) << e;
}

TEST(FileDefinitions, LiteralConstantsAreTypedByHowTheyAreWritten) {
  const auto values = literal_constants(expression::parse_constant_assignments("a=3,b=3.0,c=1e-3,d=true"), "x");
  ASSERT_EQ(values.size(), 4u);
  EXPECT_EQ(values[0].type, ValueType::integer);
  EXPECT_EQ(values[1].type, ValueType::real);
  EXPECT_EQ(values[2].value, 1e-3);
  EXPECT_EQ(values[3].type, ValueType::boolean);
  ErrorCode code = ErrorCode::internal;
  const std::string e = error_of([] { literal_constants(expression::parse_constant_assignments("a=x+1"), "x"); }, &code);
  EXPECT_EQ(code, ErrorCode::invalid_argument);
  EXPECT_NE(e.find("constants: 'a=x+1': the value must be a number, true or false"), std::string::npos) << e;
}

Definitions bound_constants() {
  Definitions d;
  d.constants = {constant("T", ValueType::integer, 10), constant("T2", ValueType::real, 2.5),
                 constant("p", ValueType::real, 0.25), constant("B", ValueType::integer, 4),
                 constant("b", ValueType::boolean, 1), constant("D", ValueType::real, std::nullopt)};
  return d;
}

const Operator& top(const Property& p) { return *p.top_operator(); }
const Operator& top_of_operand(const Property& p) { return *p.top_filter()->operand->op; }

TEST(BindDefinitions, BoundsAndThresholdsBecomeNumbers) {
  const Definitions d = bound_constants();
  auto bind = [&](const char* text, bool discrete = false, const SourceDefinitions& model = {}) {
    return bind_definitions(parse_property(text), d, model, discrete);
  };
  Property p = bind("P=? [ F<=T \"a\" ]", true);
  ASSERT_TRUE(top(p).path->bound.upper);
  EXPECT_TRUE(top(p).path->bound.upper->is_literal());
  EXPECT_EQ(top(p).path->bound.upper->value, 10.0);
  EXPECT_TRUE(top(p).path->bound.upper->is_integer);
  EXPECT_EQ(to_string(p), "P=? [ F<=10 \"a\" ]");
  p = bind("P=? [ \"a\" U[T2,T] \"b\" ]");
  EXPECT_EQ(to_string(top(p).path->bound), "[2.5,10]");
  p = bind("P>=p [ F<=T/2 \"a\" ]");
  EXPECT_EQ(top(p).threshold, 0.25);
  EXPECT_EQ(top(p).threshold_expression, nullptr);
  EXPECT_EQ(to_string(top(p).path->bound), "<=5.0");  // T/2 is a double
  EXPECT_EQ(to_string(bind("R{\"r\"}=? [ C<=B ]", true)), "R{\"r\"}=? [ C<=4 ]");
  EXPECT_EQ(to_string(bind("R=? [ I=B*T2 ]")), "R=? [ I=10.0 ]");
  EXPECT_EQ(top(bind("R<B*2 [ F \"a\" ]")).threshold, 8.0);
  EXPECT_EQ(top(bind("S>=1-p [ \"a\" ]")).threshold, 0.75);
  EXPECT_EQ(to_string(bind("P=? [ F<=max(T,B+20) \"a\" ]", true)), "P=? [ F<=24 \"a\" ]");
  // Nested operators and conditions too.
  EXPECT_EQ(to_string(bind("P=? [ F P>p [ G<=B \"a\" ] || F<=T \"b\" ]", true)),
            "P=? [ F P>0.25 [ G<=4 \"a\" ] || F<=10 \"b\" ]");
  // The model's constants, as a source's definitions keep them.
  SourceDefinitions model;
  model.constants = {{"K", "3"}, {"r", "0.5"}};
  EXPECT_EQ(to_string(bind("P=? [ F<=K*2 \"a\" ]", true, model)), "P=? [ F<=6 \"a\" ]");
  EXPECT_EQ(top(bind("P<r [ F \"a\" ]", false, model)).threshold, 0.5);
  // Names in state expressions: the constants' values (the model's are the checker's).
  EXPECT_EQ(to_string(bind("P=? [ F x=T & y<T2 & b ]")), "P=? [ F x=10 & y<2.5 & true ]");
  EXPECT_EQ(to_string(bind("P=? [ F x=K ]", false, model)), "P=? [ F x=K ]");
  // Negative values print as the parser reads them back.
  Definitions negative;
  negative.constants = {constant("n", ValueType::integer, -2), constant("r", ValueType::real, -0.5)};
  const Property p2 = substitute_definitions(parse_property("P=? [ F x=n & y>r ]"), negative);
  EXPECT_EQ(to_string(p2), "P=? [ F x=-2 & y>-0.5 ]");
  EXPECT_EQ(to_string(parse_property(to_string(p2))), to_string(p2));
}

TEST(BindDefinitions, BadValuesNameTheColumnAndTheValue) {
  const Definitions d = bound_constants();
  const std::pair<const char*, const char*> cases[] = {
      {"P=? [ F<=T2 \"a\" ]", "column 10: time bound T2 = 2.5 is a double, but discrete-time models"},
      {"P=? [ F<=T/2 \"a\" ]", "column 10: time bound T/2 = 5 is a double"},
      {"R=? [ C<=T2 ]", "column 10: reward bound C<= T2 = 2.5 is a double"},
      {"P=? [ F<=(T - 20) \"a\" ]", "column 11: time bound T - 20 = -10 must be a non-negative number"},
      {"P=? [ F>=(1-T2*2) \"a\" ]", "time bound 1 - T2*2 = -4 must be a non-negative number"},
      {"R=? [ I=B-5 ]", "column 9: instant I= B - 5 = -1 must be a non-negative number"},
      {"P>=p*8 [ F \"a\" ]", "column 4: probability bound p*8 = 2 must be in [0,1]"},
      {"S<(-p) [ \"a\" ]", "probability bound -p = -0.25 must be in [0,1]"},
      {"R>=(-B) [ S ]", "column 5: reward bound -B = -4 must be a non-negative number"},
      {"P=? [ F[T,B] \"a\" ]", "empty time interval [T,B] = [10,4]: its start exceeds its end"},
      {"P=? [ F<=Q \"a\" ]", "column 10: time bound Q reads 'Q', which is no constant (the constants known here: T, "
                              "T2, p, B, b, D); declare it in the properties file"},
      {"P=? [ F<=D \"a\" ]", "column 10: constant 'D' (double, p.props:1) has no value: give it with --const D=..."},
      {"P=? [ F<=b \"a\" ]", "column 10: time bound b is a bool, not a number"},
      {"P=? [ F<=max(T,b) \"a\" ]", "column 10: type error"},
      {"P=? [ F<=T/0 \"a\" ]", "must be a non-negative number"},
      {"P=? [ F<=mod(T,0) \"a\" ]", "column 10:"},
  };
  for (const auto& c : cases) {
    const std::string e = error_of([&] { bind_definitions(parse_property(c.first), d, {}, true); });
    EXPECT_NE(e.find(c.second), std::string::npos) << c.first << " gave: " << e;
  }
  // A constant's name in a bound without definitions: the same message.
  EXPECT_NE(error_of([] { bind_definitions(parse_property("P=? [ F<=T \"a\" ]"), {}, {}, false); })
                .find("time bound T reads 'T', which is no constant (the constants known here: none)"),
            std::string::npos);
}

TEST(BindDefinitions, ExpectedTimeThresholdsAreTimes) {
  const Definitions d = bound_constants();
  auto bind = [&](const char* text) { return bind_definitions(parse_property(text), d, {}, true); };
  // Above 1 is fine: a time, not a probability.
  EXPECT_EQ(top(bind("T<=B*2 [ F \"a\" ]")).threshold, 8.0);
  EXPECT_EQ(to_string(bind("Tmax>T2 [ F \"a\" ]")), "Tmax>2.5 [ F \"a\" ]");
  EXPECT_EQ(top(bind("T<(T*2) [ F \"a\" ]")).threshold, 20.0);  // the constant T inside the operator T
  const std::string negative = error_of([&] { bind("T>=B-5 [ F \"a\" ]"); });
  EXPECT_NE(negative.find("column 4: time bound B - 5 = -1 must be a non-negative number"), std::string::npos)
      << negative;
  EXPECT_NE(error_of([&] { bind("T<=T2/0 [ F \"a\" ]"); }).find("time bound T2/0 = inf must be a non-negative number"),
            std::string::npos);
  EXPECT_NE(error_of([&] { bind("T<=b [ F \"a\" ]"); }).find("is a bool"), std::string::npos);
}

TEST(BindDefinitions, FiltersOperandsAndStatesBindLikeAnyFormula) {
  Definitions d = bound_constants();
  d.formulas.emplace_back("near", parse_property("x<B").root);
  d.labels.emplace_back("start", parse_property("x=0").root);
  const Property p = bind_definitions(
      parse_property("filter(max, P=? [ F<=T near ], \"start\" & y>T2)"), d, {}, true);
  EXPECT_EQ(to_string(p), "filter(max, P=? [ F<=10 x<4 ], x=0 & y>2.5)");
  EXPECT_EQ(p.top_filter()->operand->kind, StateKind::op);
  EXPECT_EQ(top_of_operand(p).path->bound.upper->value, 10.0);
  // Thresholds inside a filter are evaluated and checked too.
  EXPECT_EQ(to_string(bind_definitions(parse_property("filter(forall, P>=p [ F \"a\" ])"), d, {}, true)),
            "filter(forall, P>=0.25 [ F \"a\" ])");
  EXPECT_NE(error_of([&] { bind_definitions(parse_property("filter(count, P>=p*8 [ F \"a\" ])"), d, {}, true); })
                .find("probability bound p*8 = 2 must be in [0,1]"),
            std::string::npos);
  EXPECT_NE(error_of([&] { bind_definitions(parse_property("filter(sum, R=? [ C<=D ])"), d, {}, true); })
                .find("constant 'D' (double, p.props:1) has no value"),
            std::string::npos);
}

TEST(BindDefinitions, FormulasAndLabelsAreSharedAndBounded) {
  // f0 = "a", f_i = f_{i-1} & f_{i-1}: bound once each, but as a tree 2^i
  // nodes, which the checker would walk: refused past a million.
  Definitions d;
  d.formulas.emplace_back("f0", parse_property("\"a\"").root);
  for (int i = 1; i <= 30; ++i) {
    d.formulas.emplace_back("f" + std::to_string(i), parse_property(fmt::format("f{} & f{}", i - 1, i - 1)).root);
  }
  EXPECT_EQ(to_string(substitute_definitions(parse_property("P=? [ F f2 ]"), d)),
            "P=? [ F \"a\" & \"a\" & (\"a\" & \"a\") ]");
  EXPECT_NE(error_of([&] { substitute_definitions(parse_property("P=? [ F f30 ]"), d); }).find("more than 1048576 nodes"),
            std::string::npos);
  // g_i = !g_{i-1}: each level one deeper, refused past k_max_depth.
  Definitions chain;
  chain.formulas.emplace_back("g0", parse_property("x=1").root);
  for (int i = 1; i <= k_max_depth + 5; ++i) {
    chain.formulas.emplace_back("g" + std::to_string(i), parse_property(fmt::format("!g{}", i - 1)).root);
  }
  EXPECT_NE(error_of([&] { substitute_definitions(parse_property(fmt::format("g{}", k_max_depth + 5)), chain); })
                .find("nested too deeply"),
            std::string::npos);
  // A formula sees only those before it: a later one's name is left alone.
  Definitions order;
  order.formulas.emplace_back("p", parse_property("q").root);
  order.formulas.emplace_back("q", parse_property("x=2").root);
  EXPECT_EQ(to_string(substitute_definitions(parse_property("p | q"), order)), "q | x=2");
  // Labels the file defines replace the label; others stay the model's.
  Definitions labels;
  labels.labels.emplace_back("goal", parse_property("x=3 & \"done\"").root);
  EXPECT_EQ(to_string(substitute_definitions(parse_property("P=? [ F \"goal\" | \"other\" ]"), labels)),
            "P=? [ F x=3 & \"done\" | \"other\" ]");
}

}  // namespace
}  // namespace pmc::property
