// The shared expression layer on its own (lib/expression): grammar, binder
// over declarations, compiler and evaluator, without a PRISM model around
// them. The PRISM-language tests cover it through whole sources.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/error.hpp"
#include "expression/binder.hpp"
#include "expression/compiler.hpp"
#include "expression/grammar.hpp"
#include "expression/lexer.hpp"
#include "expression/token_cursor.hpp"

namespace pmc::expression {
namespace {

const std::string k_file = "test";

Node parse(const std::string& text) {
  TokenCursor cursor(tokenize(text, k_file), k_file);
  Node n = parse_expression(cursor);
  if (cursor.peek().kind != TokenKind::end) cursor.error(cursor.peek(), "the end");
  return n;
}

// `text` bound against `declarations` and variables x (int, column 0) and
// b (bool, column 1), compiled.
Expression compile(const std::string& text, const Declarations& declarations = {}) {
  Binder binder(declarations, k_file);
  binder.declare_variable("x", 0, ValueType::integer);
  binder.declare_variable("b", 1, ValueType::boolean);
  BindContext context;
  return compile_expression(binder.bind(parse(text), context), SourceLocation{k_file, 1, 1});
}

std::string error_of(const std::string& text) {
  try {
    compile(text);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Expression, PrecedenceAsPrism) {
  EXPECT_EQ(node_to_string(parse("1+2*3")), "1 + 2 * 3");
  EXPECT_EQ(node_to_string(parse("(1+2)*3")), "(1 + 2) * 3");
  EXPECT_EQ(node_to_string(parse("a => b => c")), "a => b => c");
  EXPECT_EQ(compile("1+2*3").evaluate_int({}), 7);
  EXPECT_EQ(compile("(1+2)*3").evaluate_int({}), 9);
  EXPECT_TRUE(compile("true | false & false").evaluate_bool({}));
  EXPECT_EQ(compile("true ? 1 : 2").evaluate_int({}), 1);
}

TEST(Expression, VariablesAndFunctions) {
  const std::vector<int32_t> state = {5, 1};
  EXPECT_EQ(compile("x*2").evaluate_int(state), 10);
  EXPECT_TRUE(compile("b & x=5").evaluate_bool(state));
  EXPECT_FALSE(compile("x").is_constant());
  EXPECT_TRUE(compile("min(3, 1, 2)").is_constant());
  EXPECT_EQ(compile("mod(-7, 3)").evaluate_int({}), 2);  // PRISM's non-negative mod
  EXPECT_EQ(compile("pow(2, 10)").evaluate_int({}), 1024);
  EXPECT_DOUBLE_EQ(compile("x/2").evaluate_real(state), 2.5);  // `/` is real division
  EXPECT_EQ(compile("floor(x/2)").evaluate_int(state), 2);
}

TEST(Expression, ConstantsAndFormulasFromDeclarations) {
  Declarations d;
  ConstantDeclaration n;
  n.name = "N";
  n.value = parse("4");
  d.constants.push_back(n);
  FormulaDeclaration f;
  f.name = "full";
  f.value = parse("x=N");
  d.formulas.push_back(f);
  EXPECT_TRUE(compile("full", d).evaluate_bool(std::vector<int32_t>{4, 0}));
  EXPECT_FALSE(compile("full", d).evaluate_bool(std::vector<int32_t>{3, 0}));
  EXPECT_EQ(compile("N*N", d).evaluate_int({}), 16);
}

TEST(Expression, ErrorsNamePositions) {
  EXPECT_NE(error_of("x +").find("test:1:4: expected an expression, found end of file"), std::string::npos)
      << error_of("x +");
  EXPECT_NE(error_of("y").find("test:1:1"), std::string::npos) << error_of("y");
  EXPECT_NE(error_of("sqrt(2)").find("unknown function 'sqrt'"), std::string::npos) << error_of("sqrt(2)");
}

}  // namespace
}  // namespace pmc::expression
