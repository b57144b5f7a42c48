// The shared expression layer on its own (lib/expression): grammar, binder
// over declarations, compiler and evaluator, without a PRISM model around
// them. The PRISM-language tests cover it through whole sources.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "common/error.hpp"
#include "expression/binder.hpp"
#include "expression/compiler.hpp"
#include "expression/exact_evaluator.hpp"
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
  return compile_expression(binder.bind(parse(text), context), SourceLocation{k_file, 1, 1, nullptr});
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

// A constant N = 4.
Declarations constant_n_is_4() {
  Declarations d;
  ConstantDeclaration n;
  n.name = "N";
  n.value = parse("4");
  d.constants.push_back(n);
  return d;
}

TEST(Expression, ConstantsAndFormulasFromDeclarations) {
  Declarations d = constant_n_is_4();
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

using Ranges = std::vector<std::tuple<uint32_t, int64_t, int64_t>>;

Ranges ranges_of(const std::string& text, const Declarations& declarations = {}) {
  Ranges out;
  const Expression e = compile(text, declarations);
  for (const VariableRange& r : e.necessary_ranges()) out.emplace_back(r.variable, r.lower, r.upper);
  return out;
}


// The leading conjuncts' ranges, merged per variable, up to a conjunct
// that could throw; none for forms that are not a variable against a literal.
TEST(Expression, NecessaryRangesOfGuards) {
  constexpr int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(ranges_of("x=3"), (Ranges{{0, 3, 3}}));
  EXPECT_EQ(ranges_of("x>=2 & x<=5 & b"), (Ranges{{0, 2, 5}, {1, 1, 1}}));
  EXPECT_EQ(ranges_of("4>x & !b"), (Ranges{{0, lo, 3}, {1, 0, 0}}));
  EXPECT_EQ(ranges_of("x>7"), (Ranges{{0, 8, hi}}));
  EXPECT_EQ(ranges_of("x>1 & (b | x=9) & x<4"), (Ranges{{0, 2, 3}}));  // a disjunction constrains nothing
  EXPECT_EQ(ranges_of("x+1>2 & x=1"), Ranges{});                    // integer arithmetic may overflow first
  EXPECT_EQ(ranges_of("x/2>1 & x=1"), (Ranges{{0, 1, 1}}));           // real division cannot throw
  EXPECT_EQ(ranges_of("x=N & b=true", constant_n_is_4()), (Ranges{{0, 4, 4}, {1, 1, 1}}));  // constants folded first
  EXPECT_EQ(ranges_of("x>2.5"), Ranges{});  // compared as reals
  EXPECT_EQ(ranges_of("b | x=1"), Ranges{});
  EXPECT_TRUE(compile("x*2").necessary_ranges().empty());
}

// Guards that are exactly ranges, single variables and a variable plus a
// constant are evaluated without the interpreter: the same values.
TEST(Expression, FastFormsAgreeWithTheInterpreter) {
  for (int32_t x = -3; x <= 12; ++x) {
    for (int32_t b = 0; b <= 1; ++b) {
      const std::vector<int32_t> state = {x, b};
      EXPECT_EQ(compile("x>=2 & x<=5 & b").evaluate_bool(state), x >= 2 && x <= 5 && b == 1) << x << " " << b;
      EXPECT_EQ(compile("x=3 & x=4").evaluate_bool(state), false);
      EXPECT_EQ(compile("!b & 4>x").evaluate_bool(state), b == 0 && x < 4);
      EXPECT_EQ(compile("x").evaluate_int(state), x);
      EXPECT_EQ(compile("x+7").evaluate_int(state), x + 7);
      EXPECT_EQ(compile("x-7").evaluate_int(state), x - 7);
      EXPECT_DOUBLE_EQ(compile("x-7").evaluate_real(state), x - 7.0);
      EXPECT_EQ(compile("b").evaluate_bool(state), b == 1);
    }
  }
  // Overflow is still caught where the fast form could not hold it.
  EXPECT_THROW(compile("x+9223372036854775807").evaluate_int(std::vector<int32_t>{1, 0}), Error);
}


// Guards over x, y, z (ints, columns 0-2) and b (bool, column 3).
Expression compile_xyzb(const std::string& text) {
  Binder binder({}, k_file);
  binder.declare_variable("x", 0, ValueType::integer);
  binder.declare_variable("y", 1, ValueType::integer);
  binder.declare_variable("z", 2, ValueType::integer);
  binder.declare_variable("b", 3, ValueType::boolean);
  BindContext context;
  return compile_expression(binder.bind(parse(text), context), SourceLocation{k_file, 1, 1, nullptr});
}

// The CPU runs fused code (a variable against a constant or a variable in
// one instruction) and, for guards that open with ranges, only the
// conjuncts the ranges leave. Every form against plain C++ over a grid of
// states, jumps into and around would-be fused triples included.
TEST(Expression, FusedCodeAndRemainingConjunctsAgreeWithCpp) {
  const Expression ranges_then_rest = compile_xyzb("x=3 & y<z & b & z!=1");
  const Expression disjunction = compile_xyzb("x!=y | x>=2 & z<=y");
  const Expression conditional = compile_xyzb("(b ? x : y) < 3");
  const Expression nested = compile_xyzb("x>1 & (y=z | !(z>x)) & y>=0");
  const Expression mixed = compile_xyzb("x<=y+1 & (x=2 ? y>z : z>=y) & x<4");
  for (int32_t x = -1; x <= 4; ++x) {
    for (int32_t y = -1; y <= 4; ++y) {
      for (int32_t z = -1; z <= 4; ++z) {
        for (int32_t b = 0; b <= 1; ++b) {
          const std::vector<int32_t> s = {x, y, z, b};
          EXPECT_EQ(ranges_then_rest.evaluate_bool(s), x == 3 && y < z && b == 1 && z != 1);
          EXPECT_EQ(disjunction.evaluate_bool(s), x != y || (x >= 2 && z <= y));
          EXPECT_EQ(conditional.evaluate_bool(s), (b != 0 ? x : y) < 3);
          EXPECT_EQ(nested.evaluate_bool(s), x > 1 && (y == z || !(z > x)) && y >= 0);
          EXPECT_EQ(mixed.evaluate_bool(s), x <= y + 1 && (x == 2 ? y > z : z >= y) && x < 4);
        }
      }
    }
  }
  // The ranges come from conjuncts on either side of `y<z` (it cannot
  // throw): x and b; `y<z` and `z!=1` are left to the code.
  ASSERT_EQ(ranges_then_rest.necessary_ranges().size(), 2u);
}

// A conjunct that may throw stops the ranges: in a state where it is
// reached, the error is raised, as PRISM's left-to-right evaluation does;
// where an earlier range fails, the guard is false without an error.
TEST(Expression, RemainingConjunctsKeepPrismsErrors) {
  const Expression guard = compile_xyzb("x=1 & (y<=0 | y*2147483647*2147483647*2147483647>0) & z=2");
  ASSERT_EQ(guard.necessary_ranges().size(), 1u);  // x only: z=2 comes after a conjunct that may throw
  EXPECT_FALSE(guard.evaluate_bool(std::vector<int32_t>{0, 1, 2, 0}));
  EXPECT_THROW(guard.evaluate_bool(std::vector<int32_t>{1, 1, 2, 0}), Error);
  EXPECT_THROW(guard.evaluate_bool(std::vector<int32_t>{1, 1, 3, 0}), Error);
  EXPECT_TRUE(guard.evaluate_bool(std::vector<int32_t>{1, 0, 2, 0}));
  EXPECT_FALSE(guard.evaluate_bool(std::vector<int32_t>{1, 0, 3, 0}));
}

}  // namespace
}  // namespace pmc::expression

#ifdef PMC_HAVE_GMP
namespace pmc::expression {
namespace {

// --exact's evaluation: literals as written, constants folded exactly,
// PRISM's functions in rationals, and clear errors where a value has no
// rational.
TEST(ExactEvaluation, LiteralsAsWritten) {
  EXPECT_EQ(rational_text(rational_from_text("0.7")), "7/10");
  EXPECT_EQ(rational_text(rational_from_text("1.5e-3")), "3/2000");
  EXPECT_EQ(rational_text(rational_from_text(".5")), "1/2");
  EXPECT_EQ(rational_text(rational_from_text("-2.50E+2")), "-250");
  EXPECT_EQ(rational_text(rational_from_text("6/8")), "3/4");
  EXPECT_EQ(rational_text(rational_from_text("12")), "12");
  for (const char* garbage : {"", "inf", "nan", "1e", "1.2.3", "0x10", "1/0", "e5", "1e99999", "--1", "1 ", "/"}) {
    SCOPED_TRACE(garbage);
    try {
      rational_from_text(garbage);
      ADD_FAILURE() << "accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::model);
      EXPECT_NE(std::string(e.what()).find("no exact rational value"), std::string::npos) << e.what();
    }
  }
}

TEST(ExactEvaluation, ArithmeticAndFunctionsAsPrism) {
  const std::vector<int32_t> state{3, 1};  // x = 3, b = true
  auto exact = [&](const std::string& text) { return rational_text(evaluate_exact(compile(text), state)); };
  EXPECT_EQ(exact("0.1 + 0.2"), "3/10");  // not 0.30000000000000004
  EXPECT_EQ(exact("1/3 + x/3"), "4/3");
  EXPECT_EQ(exact("b ? 0.25 : 0.5"), "1/4");
  EXPECT_EQ(exact("min(0.3, x/10, 1)"), "3/10");
  EXPECT_EQ(exact("max(0.3, x/10 + 0.01)"), "31/100");
  EXPECT_EQ(exact("pow(0.5, x)"), "1/8");
  EXPECT_EQ(exact("pow(2.0, -x)"), "1/8");  // (an int pow with a negative exponent is an error, as PRISM)
  EXPECT_EQ(exact("mod(-7, x)"), "2");  // PRISM's mod: non-negative
  EXPECT_EQ(exact("floor(-x/2)"), "-2");
  EXPECT_EQ(exact("ceil(x/2)"), "2");
  EXPECT_EQ(exact("round(-2.5)"), "-2");  // Java's Math.round: floor(x + 1/2)
  EXPECT_EQ(exact("x > 2.5 & !(x = 4)"), "1");
  // A constant folded from an expression keeps its exact value.
  Declarations d;
  ConstantDeclaration third;
  third.name = "third";
  third.type = ValueType::real;
  third.value = parse("1/3");
  d.constants.push_back(third);
  EXPECT_EQ(rational_text(evaluate_exact(compile("3*third", d), state)), "1");
  EXPECT_NE(compile("3*third", d).evaluate_real(state), 0);  // the doubles' path is unchanged
}

TEST(ExactEvaluation, ValuesWithoutARationalAreClearErrors) {
  const std::vector<int32_t> state{0, 0};
  for (const auto& [text, why] : std::vector<std::pair<std::string, std::string>>{
           {"log(8, 2)", "a logarithm"},
           {"1/x", "division by zero"},
           {"pow(2, 0.5)", "the exponent is not an integer"},
           {"pow(0.0, -1)", "zero to a negative power"},
           {"mod(3, x)", "modulo zero"}}) {
    SCOPED_TRACE(text);
    try {
      evaluate_exact(compile(text), state);
      ADD_FAILURE() << "evaluated";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::model);
      const std::string what = e.what();
      EXPECT_NE(what.find("no exact rational value: " + why), std::string::npos) << what;
      EXPECT_EQ(what.rfind("test:1:1: ", 0), 0u) << what;  // the expression's location first
    }
  }
}

}  // namespace
}  // namespace pmc::expression
#endif
