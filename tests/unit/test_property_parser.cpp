// The property parser (docs/design.md §3): shapes and fields of valid
// properties, canonical printing, and the column and message of every kind of
// error.
#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"
#include "property/parser.hpp"

namespace pmc::property {
namespace {

const Operator& top(const Property& p) {
  const Operator* op = p.top_operator();
  EXPECT_NE(op, nullptr) << p.text;
  return *op;
}

// Expressions over state variables, as prefix terms: add(x,1), eq(s,7).
std::string shape(const Expression& e) {
  auto args = [&] {
    std::string out;
    for (size_t i = 0; i < e.args.size(); ++i) out += (i ? "," : "") + shape(*e.args[i]);
    return out;
  };
  switch (e.kind) {
    case ExprKind::number: return to_string(e.number);
    case ExprKind::boolean: return e.value ? "T" : "F";
    case ExprKind::variable: return e.name;
    case ExprKind::negate: return "neg(" + args() + ")";
    case ExprKind::add: return "add(" + args() + ")";
    case ExprKind::subtract: return "sub(" + args() + ")";
    case ExprKind::multiply: return "mul(" + args() + ")";
    case ExprKind::divide: return "div(" + args() + ")";
    case ExprKind::equal: return "eq(" + args() + ")";
    case ExprKind::not_equal: return "ne(" + args() + ")";
    case ExprKind::less: return "lt(" + args() + ")";
    case ExprKind::less_equal: return "le(" + args() + ")";
    case ExprKind::greater: return "gt(" + args() + ")";
    case ExprKind::greater_equal: return "ge(" + args() + ")";
    case ExprKind::call: return e.name + "(" + args() + ")";
  }
  return "?";
}

// A compact structural rendering that makes the tree shape explicit, so
// precedence tests do not depend on to_string's parenthesisation.
std::string shape(const StateFormula& f) {
  switch (f.kind) {
    case StateKind::constant: return f.value ? "T" : "F";
    case StateKind::label: return f.label;
    case StateKind::negation: return "not(" + shape(*f.left) + ")";
    case StateKind::conjunction: return "and(" + shape(*f.left) + "," + shape(*f.right) + ")";
    case StateKind::disjunction: return "or(" + shape(*f.left) + "," + shape(*f.right) + ")";
    case StateKind::implication: return "imp(" + shape(*f.left) + "," + shape(*f.right) + ")";
    case StateKind::op: return "op";
    case StateKind::expression: return "e(" + shape(*f.expression) + ")";
    case StateKind::filter:
      return "filter(" + f.filter->written + "," + shape(*f.filter->operand) +
             (f.filter->states ? "," + shape(*f.filter->states) : "") + ")";
  }
  return "?";
}

std::string shape(std::string_view text) { return shape(*parse_property(text).root); }

// ---- fields ----

TEST(PropertyParser, ProbabilityQuery) {
  Property p = parse_property("P=? [ F \"goal\" ]");
  const Operator& op = top(p);
  EXPECT_TRUE(p.is_query());
  EXPECT_EQ(op.kind, OperatorKind::probability);
  EXPECT_EQ(op.optimisation, Optimisation::none);
  EXPECT_EQ(op.comparison, Comparison::query);
  EXPECT_EQ(op.column, 1u);
  ASSERT_NE(op.path, nullptr);
  EXPECT_EQ(op.path->kind, PathKind::eventually);
  EXPECT_TRUE(op.path->bound.unbounded());
  EXPECT_EQ(op.path->left, nullptr);
  EXPECT_EQ(op.path->right->kind, StateKind::label);
  EXPECT_EQ(op.path->right->label, "goal");
  EXPECT_EQ(op.path->right->column, 9u);
  EXPECT_EQ(op.path->column, 7u);
  EXPECT_EQ(p.text, "P=? [ F \"goal\" ]");
}

TEST(PropertyParser, MinMaxAndBounds) {
  struct Case {
    const char* text;
    Optimisation opt;
    Comparison cmp;
    double threshold;
  };
  const Case cases[] = {
      {"Pmin=? [ X \"a\" ]", Optimisation::min, Comparison::query, 0.0},
      {"Pmax=? [ X \"a\" ]", Optimisation::max, Comparison::query, 0.0},
      {"P>=0.5 [ X \"a\" ]", Optimisation::none, Comparison::greater_equal, 0.5},
      {"P>0.25 [ X \"a\" ]", Optimisation::none, Comparison::greater, 0.25},
      {"P<=1 [ X \"a\" ]", Optimisation::none, Comparison::less_equal, 1.0},
      {"P<0 [ X \"a\" ]", Optimisation::none, Comparison::less, 0.0},
      {"Pmin>=0.5 [ X \"a\" ]", Optimisation::min, Comparison::greater_equal, 0.5},
      {"Pmax<0.1 [ X \"a\" ]", Optimisation::max, Comparison::less, 0.1},
      {"P>=1e-3 [ X \"a\" ]", Optimisation::none, Comparison::greater_equal, 1e-3},
      {"P>=.5 [ X \"a\" ]", Optimisation::none, Comparison::greater_equal, 0.5},
  };
  for (const Case& c : cases) {
    Property p = parse_property(c.text);
    const Operator& op = top(p);
    EXPECT_EQ(op.optimisation, c.opt) << c.text;
    EXPECT_EQ(op.comparison, c.cmp) << c.text;
    EXPECT_EQ(op.is_query(), c.cmp == Comparison::query) << c.text;
    if (c.cmp != Comparison::query) {
      EXPECT_DOUBLE_EQ(op.threshold, c.threshold) << c.text;
    }
    EXPECT_EQ(op.path->kind, PathKind::next) << c.text;
  }
}

TEST(PropertyParser, TimeBounds) {
  auto bound_of = [](const char* text) { return top(parse_property(text)).path->bound; };
  TimeBound b = bound_of("P=? [ \"a\" U<=10 \"b\" ]");
  ASSERT_TRUE(b.upper.has_value());
  EXPECT_FALSE(b.lower.has_value());
  EXPECT_EQ(b.upper->value, 10.0);
  EXPECT_TRUE(b.upper->is_integer);

  b = bound_of("P=? [ F<=2.5 \"a\" ]");
  EXPECT_EQ(b.upper->value, 2.5);
  EXPECT_FALSE(b.upper->is_integer);

  b = bound_of("P=? [ F<=2.0 \"a\" ]");
  EXPECT_FALSE(b.upper->is_integer);  // a real literal, even if integral
  b = bound_of("P=? [ F<=1E2 \"a\" ]");
  EXPECT_EQ(b.upper->value, 100.0);
  EXPECT_FALSE(b.upper->is_integer);

  b = bound_of("P=? [ F>=1.5 \"a\" ]");
  ASSERT_TRUE(b.lower.has_value());
  EXPECT_FALSE(b.upper.has_value());
  EXPECT_EQ(b.lower->value, 1.5);

  b = bound_of("P=? [ F[1,2.5] \"a\" ]");
  EXPECT_TRUE(b.is_interval());
  EXPECT_EQ(b.lower->value, 1.0);
  EXPECT_TRUE(b.lower->is_integer);
  EXPECT_EQ(b.upper->value, 2.5);

  b = bound_of("P=? [ \"a\" U[0.5,0.5] \"b\" ]");
  EXPECT_TRUE(b.is_interval());
  b = bound_of("P=? [ \"a\" U>=3 \"b\" ]");
  EXPECT_EQ(b.lower->value, 3.0);
  b = bound_of("P=? [ G<=5 \"a\" ]");
  EXPECT_EQ(b.upper->value, 5.0);
  b = bound_of("P=? [ G[1,2] \"a\" ]");
  EXPECT_TRUE(b.is_interval());
  b = bound_of("P=? [ F<=0 \"a\" ]");
  EXPECT_EQ(b.upper->value, 0.0);
  EXPECT_TRUE(b.upper->is_integer);
}

TEST(PropertyParser, UntilOperands) {
  Property p = parse_property("P=? [ !\"a\" U<=4 \"b\" ]");
  const PathFormula& path = *top(p).path;
  EXPECT_EQ(path.kind, PathKind::until);
  EXPECT_EQ(shape(*path.left), "not(a)");
  EXPECT_EQ(shape(*path.right), "b");
  EXPECT_EQ(path.bound.upper->value, 4.0);
}

TEST(PropertyParser, Rewards) {
  Property p = parse_property("R=? [ F \"a\" ]");
  EXPECT_EQ(top(p).kind, OperatorKind::reward);
  EXPECT_EQ(top(p).reward_name, "");
  EXPECT_EQ(top(p).reward.kind, RewardKind::reachability);
  EXPECT_EQ(top(p).reward.target->label, "a");

  p = parse_property("R{\"time\"}=? [ C<=5 ]");
  EXPECT_EQ(top(p).reward_name, "time");
  EXPECT_EQ(top(p).optimisation, Optimisation::none);
  EXPECT_EQ(top(p).reward.kind, RewardKind::cumulative);
  EXPECT_EQ(top(p).reward.bound.value, 5.0);
  EXPECT_TRUE(top(p).reward.bound.is_integer);

  p = parse_property("R{\"time\"}min=? [ F \"done\" ]");
  EXPECT_EQ(top(p).reward_name, "time");
  EXPECT_EQ(top(p).optimisation, Optimisation::min);

  p = parse_property("R{\"x\"}max=? [ I=3 ]");
  EXPECT_EQ(top(p).optimisation, Optimisation::max);
  EXPECT_EQ(top(p).reward.kind, RewardKind::instantaneous);
  EXPECT_EQ(top(p).reward.bound.value, 3.0);

  p = parse_property("Rmin=? [ S ]");
  EXPECT_EQ(top(p).optimisation, Optimisation::min);
  EXPECT_EQ(top(p).reward.kind, RewardKind::long_run);
  EXPECT_EQ(top(p).reward_name, "");

  p = parse_property("Rmax=? [ F \"a\" ]");
  EXPECT_EQ(top(p).optimisation, Optimisation::max);

  p = parse_property("R{\"r\"}<=5 [ C<=2.5 ]");
  EXPECT_EQ(top(p).comparison, Comparison::less_equal);
  EXPECT_EQ(top(p).threshold, 5.0);
  EXPECT_EQ(top(p).reward.bound.value, 2.5);
  EXPECT_FALSE(top(p).reward.bound.is_integer);

  p = parse_property("R>=1000 [ S ]");  // reward bounds are not limited to [0,1]
  EXPECT_EQ(top(p).threshold, 1000.0);
}

TEST(PropertyParser, SteadyState) {
  Property p = parse_property("S=? [ \"a\" ]");
  EXPECT_EQ(top(p).kind, OperatorKind::steady_state);
  EXPECT_EQ(top(p).state->label, "a");
  EXPECT_EQ(top(p).path, nullptr);

  p = parse_property("S>=0.9 [ \"a\" & !\"b\" ]");
  EXPECT_EQ(top(p).comparison, Comparison::greater_equal);
  EXPECT_EQ(top(p).threshold, 0.9);
  EXPECT_EQ(shape(*top(p).state), "and(a,not(b))");
}

// Storm's conditional probability: P[ path || condition ].
TEST(PropertyParser, ConditionalProbability) {
  Property p = parse_property("P=? [ F \"a\" || F \"b\" ]");
  const Operator& op = top(p);
  EXPECT_EQ(op.kind, OperatorKind::probability);
  ASSERT_NE(op.path, nullptr);
  ASSERT_NE(op.condition, nullptr);
  EXPECT_EQ(op.path->kind, PathKind::eventually);
  EXPECT_EQ(op.path->right->label, "a");
  EXPECT_EQ(op.condition->kind, PathKind::eventually);
  EXPECT_EQ(op.condition->right->label, "b");
  EXPECT_EQ(op.condition->column, 16u);
  EXPECT_TRUE(op.condition->bound.unbounded());

  // The goal's state formula ends at '||', as a path formula ends at ']'.
  p = parse_property("Pmax>=0.5 [ F \"a\" | \"b\" || \"c\" U<=3 \"d\" ]");
  EXPECT_EQ(shape(*top(p).path->right), "or(a,b)");
  EXPECT_EQ(top(p).condition->kind, PathKind::until);
  EXPECT_EQ(top(p).condition->left->label, "c");
  EXPECT_EQ(top(p).condition->bound.upper->value, 3.0);
  EXPECT_EQ(top(p).optimisation, Optimisation::max);
  EXPECT_EQ(collect_labels(*p.root), (std::vector<std::string>{"a", "b", "c", "d"}));

  EXPECT_EQ(parse_property("P=? [ F \"a\" ]").top_operator()->condition, nullptr);
}

// Storm's LRA is PRISM's S; only its spelling takes min/max.
TEST(PropertyParser, LongRunAverage) {
  Property p = parse_property("LRA=? [ \"minimum\" ]");
  EXPECT_EQ(top(p).kind, OperatorKind::steady_state);
  EXPECT_TRUE(top(p).written_lra);
  EXPECT_EQ(top(p).optimisation, Optimisation::none);
  EXPECT_EQ(top(p).state->label, "minimum");

  p = parse_property("LRAmax>0.5 [ \"a\" ]");
  EXPECT_EQ(top(p).optimisation, Optimisation::max);
  EXPECT_EQ(top(p).comparison, Comparison::greater);
  EXPECT_EQ(top(p).kind, OperatorKind::steady_state);
  EXPECT_EQ(top(parse_property("LRAmin=? [ \"a\" ]")).optimisation, Optimisation::min);

  EXPECT_FALSE(top(parse_property("S=? [ \"a\" ]")).written_lra);

  p = parse_property("R{\"r\"}=? [ LRA ]");
  EXPECT_EQ(top(p).reward.kind, RewardKind::long_run);
  EXPECT_TRUE(top(p).reward.written_lra);
  EXPECT_FALSE(top(parse_property("R{\"r\"}=? [ S ]")).reward.written_lra);

  // Nested, as S may be.
  p = parse_property("P=? [ F LRA>0.5 [ \"a\" ] ]");
  EXPECT_TRUE(top(p).path->right->op->written_lra);
}

// A reserved word where a state formula belongs is not a label to quote.
TEST(PropertyParser, ExpectedTime) {
  Property p = parse_property("Tmin=? [ F \"goal\" ]");
  const Operator& op = top(p);
  EXPECT_TRUE(p.is_query());
  EXPECT_EQ(op.kind, OperatorKind::time);
  EXPECT_EQ(op.optimisation, Optimisation::min);
  EXPECT_EQ(op.reward.kind, RewardKind::reachability);
  EXPECT_EQ(op.reward.target->label, "goal");
  EXPECT_TRUE(p.needs_unbounded_reachability());
  const Property bounded = parse_property("T>=2.5 [ F \"goal\" ]");  // kept: top() refers into it
  const Operator& bound = top(bounded);
  EXPECT_EQ(bound.comparison, Comparison::greater_equal);
  EXPECT_EQ(bound.threshold, 2.5);
  // T is the operator only before a comparison and '[': else a variable.
  EXPECT_EQ(shape("P=? [ F T=2 ]"), "op");
  EXPECT_EQ(shape("T<=5"), "e(le(T,5))");
  EXPECT_EQ(shape("Tmax>1 & T=2"), "and(e(gt(Tmax,1)),e(eq(T,2)))");
  EXPECT_EQ(top(parse_property("P=? [ F T<=5 ]")).path->right->kind, StateKind::expression);
  // A threshold over constants is read as far as a bound value goes: then '['
  // makes T the operator; a comparison that ends otherwise keeps T a variable.
  const Property over_constants = parse_property("T<=B*2 [ F \"goal\" ]");
  const Operator& time = top(over_constants);
  EXPECT_EQ(time.kind, OperatorKind::time);
  ASSERT_NE(time.threshold_expression, nullptr);
  EXPECT_EQ(shape(*time.threshold_expression), "mul(B,2)");
  EXPECT_EQ(top(parse_property("T>(T1 + 1)/2 [ F \"goal\" ]")).kind, OperatorKind::time);
  EXPECT_EQ(shape("T<=B*2 & \"a\""), "and(e(le(T,mul(B,2))),a)");
  EXPECT_EQ(shape("T<x"), "e(lt(T,x))");
  // A time threshold is no probability: above 1 is fine.
  EXPECT_EQ(top(parse_property("T<=7 [ F \"goal\" ]")).threshold, 7.0);
}

TEST(PropertyParser, Filters) {
  Property p = parse_property("filter(max, R=? [ F \"stable\" ], \"init\")");
  EXPECT_EQ(p.top_operator(), nullptr);
  const Filter* f = p.top_filter();
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->op, FilterOp::max);
  EXPECT_EQ(f->written, "max");
  EXPECT_EQ(f->column, 1u);
  EXPECT_EQ(f->operand_column, 13u);
  EXPECT_EQ(f->states_column, 33u);
  EXPECT_EQ(f->operand->kind, StateKind::op);
  EXPECT_EQ(f->states->label, "init");
  EXPECT_TRUE(p.is_query());
  EXPECT_TRUE(p.needs_unbounded_reachability());
  EXPECT_EQ(collect_labels(*p.root), (std::vector<std::string>{"stable", "init"}));
  // Every operator and PRISM's shorthands.
  for (std::string_view name : k_filter_op_names) {
    const bool number = name == "min" || name == "max" || name == "argmin" || name == "argmax" || name == "sum" ||
                        name == "avg" || name == "range";
    const std::string text = fmt::format("filter({}, {})", name, number ? "x + 1" : "\"a\"");
    const Property q = parse_property(text);
    EXPECT_EQ(to_string(q.top_filter()->op), name) << text;
    EXPECT_EQ(to_string(q), text);
  }
  EXPECT_EQ(parse_property("filter(+, x)").top_filter()->op, FilterOp::sum);
  EXPECT_EQ(parse_property("filter(&, \"a\")").top_filter()->op, FilterOp::forall);
  EXPECT_EQ(parse_property("filter(|, \"a\")").top_filter()->op, FilterOp::exists);
  EXPECT_EQ(parse_property("filter(first, x)").top_filter()->states, nullptr);
  // What each gives: a truth value only where a state formula needs one.
  EXPECT_FALSE(parse_property("filter(forall, \"a\")").is_query());
  EXPECT_FALSE(parse_property("filter(argmin, x)").is_query());
  EXPECT_TRUE(parse_property("filter(count, \"a\")").is_query());
  EXPECT_TRUE(parse_property("filter(first, P=? [ F \"a\" ])").is_query());
  EXPECT_FALSE(parse_property("filter(first, P>0.5 [ F \"a\" ])").is_query());
  EXPECT_FALSE(parse_property("filter(forall, P<=0.5 [ F<=3 \"a\" ])").needs_unbounded_reachability());
  EXPECT_EQ(shape("\"a\" & filter(exists, \"b\", x=1)"), "and(a,filter(exists,b,e(eq(x,1))))");
  EXPECT_EQ(shape("filter(state, P=? [ F \"a\" ], \"init\")"), "filter(state,op,init)");
  // Not reserved as a variable name where no '(' follows.
  EXPECT_EQ(shape("filter=1"), "e(eq(filter,1))");
}

TEST(PropertyParser, ReservedWordsGetNoQuotingHint) {
  for (const char* word : {"X", "F", "G", "U", "W", "C", "I", "S", "P", "R", "Pmin", "Rmax", "LRA", "LRAmin",
                           "LRAmax", "min", "max", "Smin", "Smax"}) {
    for (const std::string& text : {fmt::format("P=? [ F {} ]", word), fmt::format("{}", word),
                                    fmt::format("LRA=? [ {} ]", word)}) {
      try {
        parse_property(text);
        ADD_FAILURE() << text << " parsed";
      } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()).find("double quotes"), std::string::npos) << text << ": " << e.what();
      }
    }
  }
  for (const char* word : {"true", "false"}) EXPECT_NO_THROW(parse_property(fmt::format("P=? [ F {} ]", word)));
  // An ordinary word is a state variable: the checker looks it up (and
  // gives the quoting hint when the model has no such variable).
  EXPECT_EQ(shape("LRA=? [ minimum ]"), "op");
  EXPECT_EQ(shape(*top(parse_property("LRA=? [ minimum ]")).state), "e(minimum)");
}

// PRISM's atomic propositions: expressions over state variables, with
// PRISM's precedence (arithmetic, then comparisons, then ! & | =>).
TEST(PropertyParser, ExpressionsOverStateVariables) {
  const std::pair<const char*, const char*> cases[] = {
      {"s=7 & d=6", "and(e(eq(s,7)),e(eq(d,6)))"},
      {"!x=1", "not(e(eq(x,1)))"},
      {"b", "e(b)"},
      {"!b | c", "or(not(e(b)),e(c))"},
      {"x+1>=y*2", "e(ge(add(x,1),mul(y,2)))"},
      {"x-y-z=0", "e(eq(sub(sub(x,y),z),0))"},
      {"x-(y-z)=0", "e(eq(sub(x,sub(y,z)),0))"},
      {"x/2/3<1", "e(lt(div(div(x,2),3),1))"},
      {"-x<=-1.5", "e(le(neg(x),neg(1.5)))"},
      {"--x>0", "e(gt(neg(neg(x)),0))"},
      {"(x+1)*2!=4", "e(ne(mul(add(x,1),2),4))"},
      {"((x+1))=2", "e(eq(add(x,1),2))"},
      {"(x=1)=(y=1)", "e(eq(eq(x,1),eq(y,1)))"},
      {"(x=1)", "e(eq(x,1))"},
      {"(\"a\" | x>2) & b", "and(or(a,e(gt(x,2))),e(b))"},
      {"true=b", "e(eq(T,b))"},
      {"min(x,y,3)<2", "e(lt(min(x,y,3),2))"},
      {"max(x,1)>floor(y/2)", "e(gt(max(x,1),floor(div(y,2))))"},
      {"mod(x,2)=0 => pow(2,x)>log(8,2)", "imp(e(eq(mod(x,2),0)),e(gt(pow(2,x),log(8,2))))"},
      {"round(x)=ceil(x)", "e(eq(round(x),ceil(x)))"},
      {"3<x", "e(lt(3,x))"},
  };
  for (const auto& [input, expected] : cases) EXPECT_EQ(shape(input), expected) << input;
  // Inside operators, and as the operands of U, F and S.
  Property p = parse_property("P=? [ x<3 U<=5 s=7 & d=6 ]");
  EXPECT_EQ(shape(*top(p).path->left), "e(lt(x,3))");
  EXPECT_EQ(shape(*top(p).path->right), "and(e(eq(s,7)),e(eq(d,6)))");
  EXPECT_EQ(top(p).path->bound.upper->value, 5.0);
  p = parse_property("S=? [ q>=K ]");
  EXPECT_EQ(shape(*top(p).state), "e(ge(q,K))");
  p = parse_property("R{\"r\"}=? [ F pc1=3 ]");
  EXPECT_EQ(shape(*top(p).reward.target), "e(eq(pc1,3))");
  // Columns: the atom's and each sub-expression's first character.
  p = parse_property("P=? [ F d+1=7 ]");
  const StateFormula& atom = *top(p).path->right;
  EXPECT_EQ(atom.column, 9u);
  EXPECT_EQ(atom.expression->args[1]->column, 13u);
  EXPECT_EQ(to_string(*atom.expression), "d + 1=7");
}

TEST(PropertyParser, NestedOperators) {
  Property p = parse_property("P=? [ F P>0.5 [ G \"a\" ] ]");
  const StateFormula& inner = *top(p).path->right;
  ASSERT_EQ(inner.kind, StateKind::op);
  EXPECT_EQ(inner.op->comparison, Comparison::greater);
  EXPECT_EQ(inner.op->path->kind, PathKind::globally);
  EXPECT_EQ(inner.op->column, 9u);

  p = parse_property("\"a\" & P>0.5 [ X \"b\" ]");
  EXPECT_EQ(p.top_operator(), nullptr);
  EXPECT_FALSE(p.is_query());
  EXPECT_EQ(shape(*p.root), "and(a,op)");

  p = parse_property("P>=0.9 [ \"a\" U S<0.5 [ \"b\" ] ]");
  EXPECT_FALSE(p.is_query());
  EXPECT_EQ(top(p).path->right->op->kind, OperatorKind::steady_state);

  p = parse_property("!R{\"r\"}<=5 [ F \"a\" ]");
  EXPECT_EQ(shape(*p.root), "not(op)");
  EXPECT_EQ(p.root->left->op->reward_name, "r");
}

// ---- precedence ----

TEST(PropertyParser, TemporalOperandExtendsAsFarAsPossible) {
  Property p = parse_property("P=? [ F \"a\" & !\"b\" ]");
  EXPECT_EQ(shape(*top(p).path->right), "and(a,not(b))");
  p = parse_property("P=? [ \"a\" U \"b\" | \"c\" ]");
  EXPECT_EQ(shape(*top(p).path->left), "a");
  EXPECT_EQ(shape(*top(p).path->right), "or(b,c)");
  p = parse_property("P=? [ \"a\" | \"b\" U \"c\" => \"d\" ]");
  EXPECT_EQ(shape(*top(p).path->left), "or(a,b)");
  EXPECT_EQ(shape(*top(p).path->right), "imp(c,d)");
  p = parse_property("P=? [ X \"a\" | \"b\" ]");
  EXPECT_EQ(shape(*top(p).path->right), "or(a,b)");
  p = parse_property("P=? [ G<=3 \"a\" => \"b\" ]");
  EXPECT_EQ(shape(*top(p).path->right), "imp(a,b)");
}

TEST(PropertyParser, BooleanPrecedence) {
  EXPECT_EQ(shape("\"a\" | \"b\" & \"c\""), "or(a,and(b,c))");
  EXPECT_EQ(shape("\"a\" & \"b\" | \"c\""), "or(and(a,b),c)");
  EXPECT_EQ(shape("!\"a\" & \"b\""), "and(not(a),b)");
  EXPECT_EQ(shape("!(\"a\" & \"b\")"), "not(and(a,b))");
  EXPECT_EQ(shape("!!\"a\""), "not(not(a))");
  EXPECT_EQ(shape("\"a\" & \"b\" & \"c\""), "and(and(a,b),c)");
  EXPECT_EQ(shape("\"a\" | \"b\" | \"c\""), "or(or(a,b),c)");
  EXPECT_EQ(shape("\"a\" => \"b\" => \"c\""), "imp(a,imp(b,c))");
  EXPECT_EQ(shape("\"a\" | \"b\" => \"c\" | \"d\""), "imp(or(a,b),or(c,d))");
  EXPECT_EQ(shape("\"a\" & (\"b\" | \"c\")"), "and(a,or(b,c))");
  EXPECT_EQ(shape("true & false"), "and(T,F)");
  EXPECT_EQ(shape("\"init\" => !\"deadlock\""), "imp(init,not(deadlock))");
}

// ---- canonical printing ----

TEST(PropertyParser, ToStringIsCanonicalAndRoundTrips) {
  const std::pair<const char*, const char*> cases[] = {
      {"P=?[F\"a\"]", "P=? [ F \"a\" ]"},
      {"  P = ? [ F <= 5 \"a\" ]  \n", "P=? [ F<=5 \"a\" ]"},
      {"Pmin=?[\"a\"U\"b\"]", "Pmin=? [ \"a\" U \"b\" ]"},
      {"Pmax=? [X !\"a\"]", "Pmax=? [ X !\"a\" ]"},
      {"P>=0.5[G\"a\"]", "P>=0.5 [ G \"a\" ]"},
      {"Pmax<.1 [ F \"a\" ]", "Pmax<0.1 [ F \"a\" ]"},
      {"P>=1e-3 [ F \"a\" ]", "P>=0.001 [ F \"a\" ]"},
      {"P=? [ \"a\" U<=10 \"b\" ]", "P=? [ \"a\" U<=10 \"b\" ]"},
      {"P=? [ F<=2.5 \"a\" ]", "P=? [ F<=2.5 \"a\" ]"},
      {"P=? [ F<=5. \"a\" ]", "P=? [ F<=5.0 \"a\" ]"},
      {"P=? [ F<=1e-10 \"a\" ]", "P=? [ F<=1e-10 \"a\" ]"},
      {"P=? [ F>=1.5 \"a\" ]", "P=? [ F>=1.5 \"a\" ]"},
      {"P=? [ F [ 1 , 2.5 ] \"a\" ]", "P=? [ F[1,2.5] \"a\" ]"},
      {"P=? [ \"a\" U[0.5,1] \"b\" ]", "P=? [ \"a\" U[0.5,1] \"b\" ]"},
      {"P=? [ \"a\" U>=3 \"b\" ]", "P=? [ \"a\" U>=3 \"b\" ]"},
      {"P=? [ G[1,2] \"a\" ]", "P=? [ G[1,2] \"a\" ]"},
      {"P=? [ F \"a\" & !\"b\" ]", "P=? [ F \"a\" & !\"b\" ]"},
      {"P=? [ \"a\" U (\"b\" | \"c\") ]", "P=? [ \"a\" U \"b\" | \"c\" ]"},
      {"R{\"x\"}=?[F \"a\"]", "R{\"x\"}=? [ F \"a\" ]"},
      {"R { \"time\" } min = ? [ C <= 5 ]", "R{\"time\"}min=? [ C<=5 ]"},
      {"R{\"x\"}max=? [ I=3 ]", "R{\"x\"}max=? [ I=3 ]"},
      {"Rmin=?[S]", "Rmin=? [ S ]"},
      {"Rmax=? [ F \"a\" ]", "Rmax=? [ F \"a\" ]"},
      {"R=? [ C<=0.5 ]", "R=? [ C<=0.5 ]"},
      {"R{\"r\"}<=5 [ I=2.5 ]", "R{\"r\"}<=5 [ I=2.5 ]"},
      {"S=?[\"a\"]", "S=? [ \"a\" ]"},
      {"S>=0.9 [ \"a\" | \"b\" ]", "S>=0.9 [ \"a\" | \"b\" ]"},
      {"P=? [ F P>0.5 [ G \"a\" ] ]", "P=? [ F P>0.5 [ G \"a\" ] ]"},
      {"(\"a\" & \"b\") & \"c\"", "\"a\" & \"b\" & \"c\""},
      {"\"a\" & (\"b\" & \"c\")", "\"a\" & (\"b\" & \"c\")"},
      {"\"a\" | (\"b\" | \"c\")", "\"a\" | (\"b\" | \"c\")"},
      {"(\"a\" => \"b\") => \"c\"", "(\"a\" => \"b\") => \"c\""},
      {"\"a\" => (\"b\" => \"c\")", "\"a\" => \"b\" => \"c\""},
      {"!(\"a\" | \"b\") & \"c\"", "!(\"a\" | \"b\") & \"c\""},
      {"(!\"a\")", "!\"a\""},
      {"(((\"a\")))", "\"a\""},
      {"\"a\" & (\"b\" | \"c\") => \"d\"", "\"a\" & (\"b\" | \"c\") => \"d\""},
      {"!!true", "!!true"},
      {"P=? [ true U \"init\" ]", "P=? [ true U \"init\" ]"},
      {"P>0.5 [ F \"a\" ] & S<0.5 [ \"b\" ]", "P>0.5 [ F \"a\" ] & S<0.5 [ \"b\" ]"},
      {"P=? [ F \"my label-1\" ]", "P=? [ F \"my label-1\" ]"},
      {"P=?[F\"a\"||F\"b\"]", "P=? [ F \"a\" || F \"b\" ]"},
      {"Pmin=? [ F \"a\" | \"b\" || G \"c\" ]", "Pmin=? [ F \"a\" | \"b\" || G \"c\" ]"},
      {"P>=0.5 [ \"a\" U<=3 \"b\" || F[1,2] \"c\" => \"d\" ]", "P>=0.5 [ \"a\" U<=3 \"b\" || F[1,2] \"c\" => \"d\" ]"},
      {"P=? [ F P>0.5 [ F \"a\" ] || F \"b\" ]", "P=? [ F P>0.5 [ F \"a\" ] || F \"b\" ]"},
      {"LRA=?[\"a\"]", "LRA=? [ \"a\" ]"},
      {"LRAmax=? [ \"a\" & \"b\" ]", "LRAmax=? [ \"a\" & \"b\" ]"},
      {"LRAmin<=0.5 [ \"a\" ]", "LRAmin<=0.5 [ \"a\" ]"},
      {"R{\"r\"}=? [ LRA ]", "R{\"r\"}=? [ LRA ]"},
      {"Rmax=?[LRA]", "Rmax=? [ LRA ]"},
      // Expressions over state variables.
      {"P=?[F s=7&d=6]", "P=? [ F s=7 & d=6 ]"},
      {"P=? [ F (x + 1) * 2 >= y ]", "P=? [ F (x + 1)*2>=y ]"},
      {"P=? [ F x - (y - z) = 0 ]", "P=? [ F x - (y - z)=0 ]"},
      {"P=? [ F x - -1 = 0 ]", "P=? [ F x - -1=0 ]"},
      {"P=? [ F -(x+1) < 2 ]", "P=? [ F -(x + 1)<2 ]"},
      {"P=? [ F x/(y*z) > 1.5 ]", "P=? [ F x/(y*z)>1.5 ]"},
      {"(x=1)=(y!=2)", "(x=1)=(y!=2)"},
      {"!(x=1)", "!x=1"},
      {"!(x=1 & b)", "!(x=1 & b)"},
      {"(true)=b", "true=b"},
      {"( min ( x , 2 ) ) < 1", "min(x,2)<1"},
      {"S=? [ b ]", "S=? [ b ]"},
      {"P=? [ x<=2 U x=3 ]", "P=? [ x<=2 U x=3 ]"},
      // Bounds and thresholds over constants (PRISM's F<=T, C<=B, P>=p).
      {"P=? [ F<=T \"a\" ]", "P=? [ F<=T \"a\" ]"},
      {"P=? [ F<=T/2 \"a\" ]", "P=? [ F<=(T/2) \"a\" ]"},
      {"P=? [ F<=(2) \"a\" ]", "P=? [ F<=2 \"a\" ]"},
      {"P=? [ F<=2*3 \"a\" ]", "P=? [ F<=(2*3) \"a\" ]"},
      {"P=? [ \"a\" U[T1,T2] \"b\" ]", "P=? [ \"a\" U[T1,T2] \"b\" ]"},
      {"P=? [ \"a\" U[T1 + 1, 2*T2] \"b\" ]", "P=? [ \"a\" U[(T1 + 1),(2*T2)] \"b\" ]"},
      {"P=? [ !\"down\" U<=(T*3600) \"fail\" ]", "P=? [ !\"down\" U<=(T*3600) \"fail\" ]"},
      {"P=? [ F[t,t] !\"minimum\" ]", "P=? [ F[t,t] !\"minimum\" ]"},
      {"P=? [ \"a\" U>=t \"b\" ]", "P=? [ \"a\" U>=t \"b\" ]"},
      {"P=? [ F<=T sc=c & sm=c ]", "P=? [ F<=T sc=c & sm=c ]"},
      {"P=? [ F<=T (x=1) ]", "P=? [ F<=T x=1 ]"},
      {"P=? [ F<=max(T,2) \"a\" ]", "P=? [ F<=max(T,2) \"a\" ]"},
      {"R{\"r\"}=? [ C<=B ]", "R{\"r\"}=? [ C<=B ]"},
      {"R=? [ I=B ]", "R=? [ I=B ]"},
      {"Rmax=? [ C<=(T*3600) ]", "Rmax=? [ C<=(T*3600) ]"},
      {"P>=p [ F \"a\" ]", "P>=p [ F \"a\" ]"},
      {"R<e [ S ]", "R<e [ S ]"},
      {"S>=1-p [ \"a\" ]", "S>=(1 - p) [ \"a\" ]"},
      {"P=? [ F P>p [ G<=k \"a\" ] ]", "P=? [ F P>p [ G<=k \"a\" ] ]"},
      // T's threshold over constants, and T as a constant's name.
      {"T<=B*2 [ F \"goal\" ]", "T<=(B*2) [ F \"goal\" ]"},
      {"Tmax>=max(B,2) [ F \"goal\" ]", "Tmax>=max(B,2) [ F \"goal\" ]"},
      {"T<(T*2) [ F \"goal\" ]", "T<(T*2) [ F \"goal\" ]"},
      {"P=? [ F<=T*2 \"a\" ]", "P=? [ F<=(T*2) \"a\" ]"},
      {"filter(max, P=? [ F<=T \"a\" ], \"init\")", "filter(max, P=? [ F<=T \"a\" ], \"init\")"},
      {"filter(forall, P>=p [ F \"a\" ])", "filter(forall, P>=p [ F \"a\" ])"},
      // Storm's expected time.
      {"T=?[F\"a\"]", "T=? [ F \"a\" ]"},
      {"Tmin=? [ F \"a\" & x>1 ]", "Tmin=? [ F \"a\" & x>1 ]"},
      {"Tmax<=2.5 [ F \"a\" ]", "Tmax<=2.5 [ F \"a\" ]"},
      {"P=? [ F T<3 [ F \"a\" ] ]", "P=? [ F T<3 [ F \"a\" ] ]"},
      // PRISM's filters.
      {"filter(max,R=?[F \"stable\"],\"init\")", "filter(max, R=? [ F \"stable\" ], \"init\")"},
      {"filter( forall , P>=1 [ F \"a\" ] )", "filter(forall, P>=1 [ F \"a\" ])"},
      {"filter(+, P=? [ F \"a\" ], x>1 & \"b\")", "filter(+, P=? [ F \"a\" ], x>1 & \"b\")"},
      {"filter(&, \"a\" | \"b\")", "filter(&, \"a\" | \"b\")"},
      {"filter(|, \"a\" => \"b\", !\"c\")", "filter(|, \"a\" => \"b\", !\"c\")"},
      {"filter(sum, x + 1)", "filter(sum, x + 1)"},
      {"filter(count, filter(argmax, Tmin=? [ F \"a\" ]))", "filter(count, filter(argmax, Tmin=? [ F \"a\" ]))"},
      {"P=? [ F filter(exists, \"a\") ]", "P=? [ F filter(exists, \"a\") ]"},
      {"!filter(forall, \"a\") & \"b\"", "!filter(forall, \"a\") & \"b\""},
      {"filter(print, P=? [ F \"a\" ], (\"b\"))", "filter(print, P=? [ F \"a\" ], \"b\")"},
  };
  for (const auto& [input, canonical] : cases) {
    Property p = parse_property(input);
    EXPECT_EQ(to_string(p), canonical) << input;
    Property again = parse_property(to_string(p));
    EXPECT_EQ(to_string(again), canonical) << input;
    EXPECT_EQ(shape(*again.root), shape(*p.root)) << input;
  }
}

TEST(PropertyParser, BoundsOverConstantsAreKeptAsExpressions) {
  Property p = parse_property("P>=p [ \"a\" U[T1,T/2] \"b\" ]");
  const Operator& op = top(p);
  ASSERT_NE(op.threshold_expression, nullptr);
  EXPECT_EQ(shape(*op.threshold_expression), "p");
  const TimeBound& bound = op.path->bound;
  EXPECT_FALSE(bound.lower->is_literal());
  EXPECT_EQ(shape(*bound.lower->expression), "T1");
  EXPECT_EQ(shape(*bound.upper->expression), "div(T,2)");
  EXPECT_EQ(bound.upper->expression->column, 17u);
  // Numbers stay literals, checked where they are written.
  p = parse_property("R{\"r\"}=? [ C<=(5) ]");
  EXPECT_TRUE(top(p).reward.bound.is_literal());
  EXPECT_EQ(top(p).reward.bound.value, 5.0);
  EXPECT_TRUE(top(p).reward.bound.is_integer);
  p = parse_property("R=? [ I=B ]");
  EXPECT_EQ(shape(*top(p).reward.bound.expression), "B");
  // Equal when written alike.
  EXPECT_EQ(*parse_property("P=? [ F<=T \"a\" ]").top_operator()->path->bound.upper,
            *parse_property("P=? [ F<=(T) \"a\" ]").top_operator()->path->bound.upper);
  EXPECT_FALSE(*parse_property("P=? [ F<=T \"a\" ]").top_operator()->path->bound.upper ==
               *parse_property("P=? [ F<=10 \"a\" ]").top_operator()->path->bound.upper);
  EXPECT_FALSE(parse_property("P=? [ F<=T \"a\" ]").needs_unbounded_reachability());
}

TEST(PropertyParser, PrintingPieces) {
  EXPECT_EQ(to_string(Number{5.0, true, nullptr}), "5");
  EXPECT_EQ(to_string(Number{5.0, false, nullptr}), "5.0");
  EXPECT_EQ(to_string(Number{1e20, false, nullptr}), "1e+20");
  EXPECT_EQ(to_string(TimeBound{}), "");
  EXPECT_EQ(to_string(Comparison::greater_equal), ">=");
  EXPECT_EQ(to_string(*top(parse_property("P=? [ F<=3 \"a\" ]")).path), "F<=3 \"a\"");
}

// ---- helpers for the checker ----

TEST(PropertyParser, CollectLabels) {
  Property p = parse_property("P=? [ \"a\" & !\"b\" U P>0.5 [ F \"c\" | \"a\" ] ] ");
  EXPECT_EQ(collect_labels(*p.root), (std::vector<std::string>{"a", "b", "c"}));
  p = parse_property("R{\"r\"}=? [ F \"goal\" ] ");
  EXPECT_EQ(collect_labels(*p.root), (std::vector<std::string>{"goal"}));
  p = parse_property("S=? [ \"x\" ] ");
  EXPECT_EQ(collect_labels(*p.root), (std::vector<std::string>{"x"}));
  p = parse_property("R=? [ S ] ");
  EXPECT_TRUE(collect_labels(*p.root).empty());
}

TEST(PropertyParser, OperatorHolds) {
  auto op = [](const char* text) { return top(parse_property(text)); };
  EXPECT_TRUE(op("P>=0.5 [ F \"a\" ]").holds(0.5));
  EXPECT_FALSE(op("P>0.5 [ F \"a\" ]").holds(0.5));
  EXPECT_TRUE(op("P<=0.5 [ F \"a\" ]").holds(0.5));
  EXPECT_FALSE(op("P<0.5 [ F \"a\" ]").holds(0.5));
  EXPECT_FALSE(op("P=? [ F \"a\" ]").holds(0.5));
}

TEST(PropertyParser, DeepButWithinLimits) {
  std::string text(k_max_depth - 1, '(');
  text += "\"a\"";
  text += std::string(k_max_depth - 1, ')');
  EXPECT_EQ(parse_property(text).root->label, "a");

  std::string negations(k_max_depth - 1, '!');
  Property p = parse_property(negations + "\"a\"");
  EXPECT_EQ(p.root->height, k_max_depth);
  EXPECT_EQ(to_string(p), negations + "\"a\"");

  std::string chain = "\"a\"";
  for (int i = 1; i < k_max_depth; ++i) chain += " & \"a\"";
  EXPECT_EQ(parse_property(chain).root->height, k_max_depth);
}

// ---- errors ----

// The property language's expressions are not PRISM's model-source
// expressions (lib/expression's grammar): these differences are the
// property language's own and must survive any sharing of the grammar.
TEST(PropertyParser, ExpressionsDifferFromModelSources) {
  const std::pair<const char*, const char*> accepted[] = {
      // Literals are doubles, exact up to 2^53; model sources stop at 2^31 - 1.
      {"x=3000000000", "e(eq(x,3000000000))"},
      // A trailing point ends a number; in model sources '.' alone is no token.
      {"x=1.", "e(eq(x,1.0))"},
      // PRISM's model keywords are not reserved in properties.
      {"module=1", "e(eq(module,1))"},
  };
  for (const auto& [input, expected] : accepted) EXPECT_EQ(shape(input), expected) << input;
  // Whole messages, where model sources would accept the text or word the
  // error otherwise.
  const std::pair<const char*, const char*> refused[] = {
      // No `? :`: a property's boolean layer ends the expression before '?'.
      {"x=1 ? 2 : 3", "column 5: expected '&', '|', '=>' or end of input but found '?'\n"
                      "  x=1 ? 2 : 3\n"
                      "      ^"},
      // min and max take two or more arguments (one in model sources).
      {"min(x)<1", "column 1: min takes two or more arguments but is given 1\n"
                   "  min(x)<1\n"
                   "  ^"},
      // Comparisons do not chain (model sources read them left to right).
      {"x<y=z", "column 4: comparisons do not chain: '=' follows a comparison (write a=b & b=c, or parenthesise "
                "one side)\n"
                "  x<y=z\n"
                "     ^"},
      // Tokens are read one ahead as the parse goes, so the first error in
      // reading order wins over a character model sources' lexer would
      // refuse before parsing.
      {"P>2 [ F a ] $", "column 3: probability bound must be in [0,1] but found 2\n"
                        "  P>2 [ F a ] $\n"
                        "    ^"},
      // `func(name, ...)` is model sources' spelling of a call only.
      {"func(min,x,1)<2", "column 5: expected '&', '|', '=>' or end of input but found '('\n"
                          "  func(min,x,1)<2\n"
                          "      ^"},
  };
  for (const auto& [input, message] : refused) {
    try {
      parse_property(input);
      ADD_FAILURE() << "accepted " << input;
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()), message) << input;
    }
  }
}

struct BadCase {
  std::string text;
  size_t column;
  std::string fragment;
};

void PrintTo(const BadCase& c, std::ostream* os) { *os << quote_for_message(c.text, 60); }

class PropertyParserError : public ::testing::TestWithParam<BadCase> {};

TEST_P(PropertyParserError, ReportsColumnAndMessage) {
  const BadCase& c = GetParam();
  try {
    parse_property(c.text);
    FAIL() << "accepted " << c.text;
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::property);
    std::string message = e.what();
    EXPECT_EQ(message.rfind(fmt::format("column {}: ", c.column), 0), 0u) << message;
    EXPECT_NE(message.find(c.fragment), std::string::npos) << message;
  }
}

std::string repeated(std::string_view piece, int count) {
  std::string out;
  for (int i = 0; i < count; ++i) out += piece;
  return out;
}

std::string long_chain(std::string_view op, int operands) {
  std::string out = "\"a\"";
  for (int i = 1; i < operands; ++i) out += fmt::format(" {} \"a\"", op);
  return out;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, PropertyParserError,
    ::testing::Values(
        BadCase{"P=? [ F ]", 9, "expected a state formula but found ']'"},
        BadCase{"P=?[F \"a\"", 10, "expected ']' but found end of input"},
        BadCase{"P=? [ \"a\" U ]", 13, "expected a state formula but found ']'"},
        BadCase{"R{\"x\"=? [F \"a\"]", 6, "expected '}' but found '='"},
        BadCase{"P=? [ F<=-1 \"a\" ]", 10, "expected a non-negative time bound but found '-'"},
        BadCase{"P>=1.5 [F \"a\"]", 4, "probability bound must be in [0,1] but found 1.5"},
        BadCase{"S=? [ X \"a\" ]", 7, "expected a state formula but found path operator 'X'"},
        BadCase{"", 1, "expected a state formula but found end of input"},
        BadCase{"   ", 4, "expected a state formula but found end of input"},
        BadCase{"P=? [ F \"a\" ] x", 15, "expected '&', '|', '=>' or end of input but found 'x'"},
        BadCase{"P=? [ F \"a\" ] ]", 15, "but found ']'"},
        BadCase{"P [ F \"a\" ]", 3, "expected '=?' or a bound"},
        BadCase{"P= [F \"a\"]", 4, "expected '?' after '=' but found '['"},
        BadCase{"P=0.5 [F \"a\"]", 3, "expected '?' after '=' but found number 0.5"},
        BadCase{"P=? F \"a\"", 5, "expected '[' but found path operator 'F'"},
        BadCase{"P=? [ \"a\" ]", 11, "expected 'U'"},
        BadCase{"P=? [ F \"a ]", 9, "unterminated name"},
        BadCase{"P=? [ F \"a\n\" ]", 11, "unterminated name"},
        BadCase{"P=? [ F \"\" ]", 9, "empty name"},
        BadCase{"P=? [ F a ]]", 12, "expected '&', '|', '=>' or end of input but found ']'"},
        BadCase{"P=? [ F<5 \"a\" ]", 8, "strict time bound '<'"},
        BadCase{"P=? [ F>5 \"a\" ]", 8, "strict time bound '>'"},
        BadCase{"P=? [ F[2,1] \"a\" ]", 9, "empty time interval: start 2 exceeds end 1"},
        BadCase{"P=? [ F[1 \"a\" ]", 11, "expected ',' but found \"a\""},
        BadCase{"P=? [ F[1,2 \"a\" ]", 13, "expected ']' closing the time interval"},
        BadCase{"P=? [ X<=1 \"a\" ]", 8, "'X' takes no time bound"},
        BadCase{"P=? [ F<= \"a\" ]", 11, "expected a non-negative time bound but found \"a\""},
        BadCase{"R=? [ F<=5 \"a\" ]", 8, "a reward operator takes an unbounded 'F'"},
        BadCase{"R=? [ C \"a\" ]", 9, "expected '<=' after 'C' but found \"a\""},
        BadCase{"R=? [ I<=5 ]", 8, "expected '=' after 'I'"},
        BadCase{"R=? [ X \"a\" ]", 7, "expected a reward formula"},
        BadCase{"R=? [ C<=-1 ]", 10, "expected a non-negative time bound but found '-'"},
        BadCase{"R{x}=? [ S ]", 3, "expected a reward structure name in double quotes but found 'x'"},
        BadCase{"Rmin{\"x\"}=? [ S ]", 5, "expected '=?' or a bound"},
        BadCase{"R{\"x\"}=? [ S", 13, "expected ']' but found end of input"},
        BadCase{"P>=-0.5 [ F \"a\" ]", 4, "expected a probability bound in [0,1] but found '-'"},
        BadCase{"R<=-1 [ S ]", 4, "expected a non-negative reward bound but found '-'"},
        BadCase{"S>=2 [ \"a\" ]", 4, "probability bound must be in [0,1] but found 2"},
        BadCase{"P>=[ F \"a\" ]", 4, "expected a probability bound in [0,1] but found '['"},
        BadCase{"P=? [ F<=F \"a\" ]", 10, "expected a non-negative time bound but found path operator 'F'"},
        BadCase{"P=? [ F<=true \"a\" ]", 10, "expected a non-negative time bound but found 'true'"},
        BadCase{"P=? [ F<=(T \"a\" ]", 13, "expected ')' but found \"a\""},
        BadCase{"P>=p+ [ F \"a\" ]", 7, "expected an expression (a number, a variable or '(') but found '['"},
        BadCase{"R=? [ C<=B* ]", 13, "expected an expression"},
        BadCase{"P=? [ F[T,] \"a\" ]", 11, "expected a non-negative interval end but found ']'"},
        BadCase{"P=? [ F P=? [ F \"a\" ] ]", 10, "'=?' is only allowed in the outermost operator"},
        BadCase{"\"a\" & P=? [ F \"b\" ]", 8, "'=?' is only allowed in the outermost operator"},
        BadCase{"P=? [ F \"a\" @ ]", 13, "unexpected character '@'"},
        BadCase{"P=? [ F \"a\" ];", 14, "unexpected character ';'"},
        BadCase{"P=? [ F<=1e \"a\" ]", 11, "malformed number"},
        BadCase{"P=? [ F<=1e400 \"a\" ]", 10, "out of range"},
        BadCase{"P=? [ F<=99999999999999999999 \"a\" ]", 10, "too large"},
        BadCase{"(\"a\"", 5, "expected ')' but found end of input"},
        BadCase{"\"a\" &", 6, "expected a state formula but found end of input"},
        BadCase{"!", 2, "expected a state formula but found end of input"},
        BadCase{"\"a\" <=> \"b\"", 5, "but found '<='"},
        BadCase{"Smin=? [ \"a\" ]", 1, "found 'Smin'"},
        BadCase{"p=? [ F \"a\" ]", 1, "found 'p' (the operators are P, Pmin"},
        BadCase{"Q [ F \"a\" ]", 1, "found 'Q' (the operators are"},
        BadCase{"r{\"x\"}=? [ S ]", 1, "found 'r' (the operators are"},
        // Expressions over state variables.
        BadCase{"P=? [ F x= ]", 12, "expected an expression (a number, a variable or '(') but found ']'"},
        BadCase{"P=? [ F x+ ]", 12, "expected an expression"},
        BadCase{"P=? [ F x=1=2 ]", 12, "comparisons do not chain: '=' follows a comparison"},
        BadCase{"P=? [ F x<1<=2 ]", 12, "comparisons do not chain: '<=' follows a comparison"},
        BadCase{"P=? [ F x=F ]", 11, "expected an expression but found keyword 'F'"},
        BadCase{"P=? [ F x=P=? [ F \"a\" ] ]", 11, "found keyword 'P' (operators such as P, R and S cannot stand"},
        BadCase{"P=? [ F x=\"a\" ]", 11, "expected an expression (a number, a variable or '(') but found \"a\""},
        BadCase{"P=? [ F min(x)<1 ]", 9, "min takes two or more arguments but is given 1"},
        BadCase{"P=? [ F floor(x,2)<1 ]", 9, "floor takes 1 argument but is given 2"},
        BadCase{"P=? [ F pow(2)<1 ]", 9, "pow takes 2 arguments but is given 1"},
        BadCase{"P=? [ F max(x,1 ]", 17, "expected ',' or ')' but found ']'"},
        BadCase{"P=? [ F (x+1 ]", 14, "expected ')' but found ']'"},
        BadCase{"P=? [ F (x+1)=(2 ]", 18, "expected ')' but found ']'"},
        BadCase{"P=? [ F x+1 ]]", 14, "but found ']'"},
        BadCase{"x # 1", 3, "unexpected character '#'"},
        BadCase{"(x + @", 6, "unexpected character '@'"},
        // The state formula's level counts too: the 200th '-' is the 201st level.
        BadCase{std::string(100000, '-') + "x=1", k_max_depth, "nested too deeply"},
        BadCase{"x=" + std::string(100000, '(') + "1", 2 + k_max_depth, "nested too deeply"},
        BadCase{"x" + repeated("+1", 1000) + "=0", 2 * k_max_depth, "nested too deeply"},
        // Filters.
        BadCase{"filter(maxi, P=? [ F \"a\" ])", 8,
                "unknown filter operator 'maxi': the operators are min, max, argmin, argmax, count, sum, avg, first, "
                "range, forall, exists, print, printall, state"},
        BadCase{"filter(max)", 11, "expected ',' and the formula filter(max, ...) applies to but found ')'"},
        BadCase{"filter(max, )", 13, "expected the formula filter(max, ...) applies to but found ')'"},
        BadCase{"filter(, \"a\")", 8, "expected a filter operator (min, max, argmin"},
        BadCase{"filter(max, P=? [ F \"a\" ], )", 28, "expected the filter's states"},
        BadCase{"filter(max, P=? [ F \"a\" ]", 26, "expected ',' or ')' closing the filter but found end of input"},
        BadCase{"filter(max, P=? [ F \"a\" ], \"b\", \"c\")", 31, "expected ')' closing the filter but found ','"},
        BadCase{"filter(sum, \"a\")", 13, "filter(sum, ...) needs a number in each state"},
        BadCase{"filter(min, P>0.5 [ F \"a\" ])", 13, "but 'P>0.5 [ F \"a\" ]' is a truth value"},
        BadCase{"filter(argmax, x=1)", 16, "filter(argmax, ...) needs a number"},
        BadCase{"filter(forall, P=? [ F \"a\" ])", 16, "filter(forall, ...) needs a truth value in each state"},
        BadCase{"filter(count, filter(sum, x))", 15, "filter(count, ...) needs a truth value"},
        BadCase{"filter(max, x, P=? [ F \"a\" ])", 16, "the states of a filter are a state formula"},
        BadCase{"filter(max, x, filter(sum, x))", 16, "the states of a filter are a state formula"},
        BadCase{"P=? [ F filter(max, P=? [ F \"a\" ]) ]", 9,
                "filter(max, ...) gives a number, but a truth value is needed here"},
        BadCase{"\"a\" & filter(count, \"b\")", 7, "filter(count, ...) gives a number"},
        BadCase{"filter(max, filter(range, x))", 13, "filter(range, ...) gives an interval"},
        BadCase{"filter(max, P=? [ F P=? [ F \"a\" ] ])", 22, "'=?' is only allowed in the outermost operator or as the "
                "operand of a filter"},
        BadCase{"filter(first, \"a\" & P=? [ F \"b\" ])", 22, "'=?' is only allowed"},
        BadCase{"filter(max, P=? [ F \"a\" || F \"b\" ])", 25, "a conditional probability ('||') is only allowed"},
        // Storm's expected time.
        BadCase{"T=? [ G \"a\" ]", 7, "expected 'F' (T is the expected time to reach a state formula"},
        BadCase{"T=? [ \"a\" U \"b\" ]", 7, "expected 'F' (T is the expected time"},
        BadCase{"T=? [ C<=5 ]", 7, "expected 'F'"},
        BadCase{"T=? [ F<=5 \"a\" ]", 8, "T takes an unbounded 'F'"},
        BadCase{"T=? [ F ]", 9, "expected a state formula but found ']'"},
        BadCase{"T [ F \"a\" ]", 3, "expected '=?' or a bound"},
        BadCase{"T<=-1 [ F \"a\" ]", 4, "expected a non-negative time bound but found '-'"},
        BadCase{"T<=-B [ F \"a\" ]", 4, "expected a non-negative time bound but found '-'"},
        BadCase{"T<=B* [ F \"a\" ]", 7, "expected an expression (a number, a variable or '(') but found '['"},
        BadCase{"T<=(B [ F \"a\" ]", 7, "expected ')' but found '['"},
        BadCase{"T<=max(B,2 [ F \"a\" ]", 12, "expected ',' or ')' but found '['"},
        BadCase{"T<=((((((( [", 12, "expected an expression"},
        BadCase{"P=? [ F T=? [ F \"a\" ] ]", 10, "'=?' is only allowed"},
        BadCase{"t=? [ F \"a\" ]", 1, "LRAmax, T, Tmin and Tmax)"},
        // Storm's additions: LRA and conditional probabilities.
        BadCase{"LRA", 4, "expected '=?' or a bound"},
        BadCase{"LRA=?", 6, "expected '[' but found end of input"},
        BadCase{"LRA=? \"a\"", 7, "expected '[' but found \"a\""},
        BadCase{"LRA=? [ ]", 9, "expected a state formula but found ']'"},
        BadCase{"R=? [ LRA \"a\" ]", 11, "expected ']' but found \"a\""},
        BadCase{"P=? [ F \"a\" || ]", 16,
                "expected a condition (a path formula such as F \"b\") after '||' but found ']'"},
        BadCase{"P=? [ F \"a\" ||", 15, "expected a condition"},
        BadCase{"P=? [ F \"a\" || F ]", 18, "expected a state formula but found ']'"},
        BadCase{"P=? [ F \"a\" || \"b\" ]", 20, "expected 'U'"},
        BadCase{"P=? [ F \"a\" || F \"b\" || F \"c\" ]", 22, "a P operator takes one condition ('||')"},
        BadCase{"P=? [ F P>0.5 [ F \"a\" || F \"b\" ] ]", 23,
                "a conditional probability ('||') is only allowed in the outermost operator"},
        BadCase{"\"c\" & P>0.5 [ F \"a\" || F \"b\" ]", 21, "only allowed in the outermost operator"},
        BadCase{"R=? [ F \"a\" || F \"b\" ]", 13, "only a P operator takes a condition ('||')"},
        BadCase{"S=? [ \"a\" || \"b\" ]", 11, "only a P operator takes a condition"},
        BadCase{"\"a\" || \"b\"", 5, "'||' separates a path formula from its condition inside P[...]"},
        BadCase{"P=? [ F \"a\" | | \"b\" ]", 15, "expected a state formula but found '|'"},
        BadCase{"P=? [ F C ]", 9, "expected a state formula but found keyword 'C'"},
        BadCase{"Smin=? [ \"a\" ]", 1, "S takes no min or max"},
        BadCase{std::string(100000, '('), k_max_depth + 1, "nested too deeply"},
        BadCase{std::string(100000, '!') + "\"a\"", k_max_depth + 1, "nested too deeply"},
        BadCase{std::string(k_max_depth, '!') + "\"a\"", k_max_depth + 1, "nested too deeply"},
        BadCase{repeated("P>0.5 [ F ", 50000), 1 + 10 * k_max_depth, "nested too deeply"},
        // A left-deep chain of n operands is n levels deep: the 1000th '&'
        // (at byte 4 + 6·999) is one too many.
        BadCase{long_chain("&", 100000), 6 * k_max_depth - 1, "nested too deeply"},
        BadCase{long_chain("|", 2000), 6 * k_max_depth - 1, "nested too deeply"},
        BadCase{long_chain("=>", 100000), 5 + 7 * (k_max_depth - 1), "nested too deeply"}));

TEST(PropertyParser, ErrorShowsCaret) {
  try {
    parse_property("P=?[F \"a\"");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "column 10: expected ']' but found end of input\n"
              "  P=?[F \"a\"\n"
              "           ^");
  }
  // Long input: a window around the column, with the caret still aligned.
  std::string text = "P=? [ F " + long_chain("&", 30) + " @ ]";
  try {
    parse_property(text);
    FAIL();
  } catch (const Error& e) {
    std::string message = e.what();
    size_t first = message.find('\n') + 1;
    size_t second = message.find('\n', first) + 1;
    std::string line = message.substr(first, second - first - 1);
    std::string caret = message.substr(second);
    EXPECT_EQ(line.substr(0, 5), "  ...");
    ASSERT_EQ(caret.back(), '^');
    EXPECT_EQ(line[caret.size() - 1], '@');
  }
}

TEST(PropertyParser, NeedsUnboundedReachability) {
  for (const char* text : {"P=? [ F \"a\" ]", "Pmax=? [ \"a\" U \"b\" ]", "P=? [ G \"a\" ]", "R=? [ F \"a\" ]",
                           "S=? [ P>0.5 [ F \"a\" ] ]", "P=? [ F<=10 P>0.5 [ F \"a\" ] ]",
                           "P=? [ F \"a\" || F \"b\" ]", "R>1 [ C<=5 ] & P>0.1 [ F \"a\" ]"}) {
    EXPECT_TRUE(parse_property(text).needs_unbounded_reachability()) << text;
  }
  for (const char* text : {"P=? [ F<=10 \"a\" ]", "P=? [ \"a\" U[1,2] \"b\" ]", "P=? [ X \"a\" ]",
                           "R=? [ C<=5 ]", "R=? [ I=3 ]", "P>=0.5 [ G<=4 \"a\" ]", "\"a\" & !\"b\"",
                           "R{\"r\"}=? [ S ]", "S=? [ \"a\" ]"}) {
    EXPECT_FALSE(parse_property(text).needs_unbounded_reachability()) << text;
  }
}

// Constructs of PRISM's and Storm's property languages pmc does not check
// are named as such (code `unsupported`), not reported as syntax errors.
TEST(PropertyParser, UnsupportedConstructsAreNamed) {
  const BadCase cases[] = {
      {"multi(P>=0.5 [ F \"a\" ], P>=0.2 [ F \"b\" ])", 1, "multi(...) (multi-objective queries) is not supported"},
      {"quantile(R=? [ F \"a\" ], 0.5)", 1, "quantile(...)"},
      {"P=? [ F \"a\" ] {\"init\"}", 15, "a state restriction after the property (Storm's {\"init\"}"},
      {"P=? [ F \"a\" ]{\"init\"}", 14, "Storm's {\"init\"}"},
      {"R=? [ C ]", 7, "C without a bound (the total reward"},
      {"R{\"r\"}=? [ C ]", 12, "C without a bound"},
      {"P=? [ G F \"a\" ]", 9, "LTL"},
      {"P=? [ F G \"a\" ]", 9, "LTL"},
      {"P=? [ X X \"a\" ]", 9, "LTL"},
      {"P=? [ !(F \"a\") ]", 9, "LTL"},
      {"P=? [ (F \"a\") & (F \"b\") ]", 8, "LTL"},
      {"P=? [ F \"a\" U \"b\" ]", 13, "'U' after a path formula: LTL"},
      {"P=? [ \"a\" U \"b\" U \"c\" ]", 17, "LTL"},
      {"P=? [ \"a\" W \"b\" ]", 11, "weak until (W) is not supported"},
      {"P=? [ \"a\" R \"b\" ]", 11, "release (R) is not supported"},
      {"A [ F \"a\" ]", 1, "CTL's path quantifiers"},
      {"E [ F \"a\" ]", 1, "CTL's path quantifiers"},
      {"filter(print, \"a\") & \"b\"", 1, "filter(print, ...) inside another formula"},
      {"filter(count, filter(printall, \"a\"))", 15, "filter(printall, ...) inside another formula"},
      {"filter(max, P=? [ F \"a\" ]) > 0.5", 28, "comparing a filter's value"},
      {"1 - filter(max, P=? [ F \"a\" ])", 5, "a filter inside an expression"},
      {"x = filter(max, x)", 5, "a filter inside an expression"},
      {"P=? [ F \"a\" ] + 1", 15, "arithmetic over an operator's value"},
      {"P=? [ F \"a\" ] > 0.5", 15, "comparing an operator's value"},
  };
  for (const BadCase& c : cases) {
    try {
      parse_property(c.text);
      ADD_FAILURE() << "accepted " << c.text;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::unsupported) << c.text << ": " << e.what();
      const std::string message = e.what();
      EXPECT_EQ(message.rfind(fmt::format("column {}: ", c.column), 0), 0u) << message;
      EXPECT_NE(message.find(c.fragment), std::string::npos) << message;
    }
  }
  // A path formula inside S, or alone, is a mistake, not LTL.
  for (const char* text : {"S=? [ X \"a\" ]", "F \"a\""}) {
    try {
      parse_property(text);
      ADD_FAILURE() << "accepted " << text;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::property) << text << ": " << e.what();
    }
  }
  // Nested operators inside a path formula are still fine.
  EXPECT_NO_THROW(parse_property("P>0.1 [ F P>0.5 [ X \"a\" ] ]"));
  EXPECT_NO_THROW(parse_property("P=? [ F S>0.5 [ \"a\" ] ]"));
}

}  // namespace
}  // namespace pmc::property
