// The property AST (docs/design.md §3): the PRISM subset pmc checks, as parsed by
// parse_property (property/parser.hpp). Nodes are immutable once built and
// shared through shared_ptr<const ...>, so a Property is cheap to copy and
// safe to read from several threads.
//
// The parser bounds the height of every tree by k_max_depth, so the
// recursive walks here (to_string, collect_labels, the destructors) cannot
// exhaust the stack whatever the input was.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pmc::property {

// Deepest formula the parser accepts; every node (!, &, a nested P[...]
// and its path formula) counts one level.
// 200 levels keep the recursive descent far inside the stack even under
// AddressSanitizer (1000 overflowed it there); real properties nest a few levels.
inline constexpr int k_max_depth = 200;

struct StateFormula;
struct PathFormula;
struct Operator;
struct Filter;
using StatePtr = std::shared_ptr<const StateFormula>;
using PathPtr = std::shared_ptr<const PathFormula>;
using OperatorPtr = std::shared_ptr<const Operator>;
using FilterPtr = std::shared_ptr<const Filter>;

struct Expression;
using ExprPtr = std::shared_ptr<const Expression>;

// A numeric literal as written. `is_integer` says it was written with digits
// only (no '.', no exponent): a DTMC/MDP step bound must be one, so the
// checker rejects `F<=2.5` (and `F<=2.0`, as PRISM's type checker does)
// there while a CTMC accepts any non-negative time.
//
// A bound or threshold may also be an expression over constants, as PRISM
// allows (`F<=T`, `C<=T/2`, `U[T1,T2]`): then `expression` holds it, and
// `value` and `is_integer` mean nothing until bind_definitions
// (property/definitions.hpp) evaluates it — an int-typed result counts as
// written with digits only. The checker binds every property first.
struct Number {
  double value = 0.0;
  bool is_integer = false;
  ExprPtr expression;  // null: a literal
  bool is_literal() const { return expression == nullptr; }
  // Literals by value and type, expressions by their text.
  friend bool operator==(const Number& a, const Number& b);
};

// `query` is `=?`: compute the value. The others compare it with a
// threshold and make the operator a boolean state formula (and compare
// a path's reward with its bound, RewardBound).
enum class Comparison : uint8_t { query, less, less_equal, greater, greater_equal };

// The time/step bound of F, G and U. Neither set: unbounded. Only `upper`:
// `<=t`. Only `lower`: `>=t`. Both: the interval `[t1,t2]` (t1 <= t2).
struct TimeBound {
  std::optional<Number> lower;
  std::optional<Number> upper;
  bool unbounded() const { return !lower && !upper; }
  bool is_interval() const { return lower.has_value() && upper.has_value(); }
  friend bool operator==(const TimeBound&, const TimeBound&) = default;
};

// A bound on the reward accumulated along a path (Storm's
// `F^{rew{"r"}<=b} φ`, also written `F{"r"}<=b φ`; `U` alike): the path must
// reach φ with the reward of structure `reward_name` collected so far
// compared by `comparison` (<, <=, > or >=) with `bound`.
// check/reward_bounded.hpp says how it is computed.
struct RewardBound {
  std::string reward_name;  // empty: the model's first structure (Storm's bare `rew`)
  Comparison comparison = Comparison::less_equal;
  Number bound;
  bool written_short = false;  // spelled `{"r"}<=b` rather than `^{rew{"r"}<=b}`
  size_t column = 0;           // 1-based column of its '^' or '{'
  friend bool operator==(const RewardBound&, const RewardBound&) = default;
};

enum class PathKind : uint8_t {
  next,        // X φ
  until,       // φ U ψ, with an optional bound
  eventually,  // F ψ  (true U ψ)
  globally,    // G ψ  (!F !ψ)
};

struct PathFormula {
  PathKind kind = PathKind::eventually;
  TimeBound bound;  // always unbounded for next, and beside a reward bound
  std::optional<RewardBound> reward_bound;  // eventually and until only
  StatePtr left;    // until only: φ of φ U ψ; null otherwise
  StatePtr right;   // the operand of X, F, G; ψ of φ U ψ
  size_t column = 0;  // 1-based column of the path formula's first character
};

// What an R operator accumulates (PRISM manual, "Reward-based properties").
enum class RewardKind : uint8_t {
  reachability,   // F ψ: reward until ψ is reached
  cumulative,     // C<=k: reward up to step/time k
  instantaneous,  // I=k: reward at step/time k
  long_run,       // S (PRISM) or LRA (Storm): long-run average reward
};

struct RewardFormula {
  RewardKind kind = RewardKind::reachability;
  Number bound;     // cumulative and instantaneous only
  StatePtr target;  // reachability only
  size_t column = 0;
  bool written_lra = false;  // long_run only: spelled LRA (Storm) rather than S; printed as written
};

// `time` is Storm's T: the expected time to reach ψ of `F ψ` (kept in
// `reward`), as R[F ψ] of a reward of 1 per time unit (CTMCs) or per step
// (DTMCs, MDPs).
enum class OperatorKind : uint8_t { probability, reward, steady_state, time };
enum class Optimisation : uint8_t { none, min, max };

struct Operator {
  OperatorKind kind = OperatorKind::probability;
  Optimisation optimisation = Optimisation::none;
  std::string reward_name;  // reward only; empty selects the default structure
  Comparison comparison = Comparison::query;
  double threshold = 0.0;   // unused for a query; in [0,1] for P and S
  // Set when the threshold was written as an expression over constants
  // (`P>=p`, `R<e`): `threshold` is meaningless until bind_definitions
  // evaluates it (as for Number::expression).
  ExprPtr threshold_expression;
  // The threshold as written when it is a number literal ("0.3"): --exact
  // compares with the rational it denotes, not with its double. Empty for
  // a query and for a threshold computed from constants.
  std::string threshold_text;
  PathPtr path;             // probability: the path formula
  // probability only: ψ of Storm's conditional P[ path || condition ], the
  // probability of `path` given that `condition` holds; null otherwise.
  // The parser allows it only in the outermost operator.
  PathPtr condition;
  RewardFormula reward;     // reward: what is accumulated; time: always `F ψ`
  StatePtr state;           // steady_state: the state formula inside S[...]
  // steady_state: spelled LRA/LRAmin/LRAmax (Storm's long-run average, the
  // same value as S) rather than S; printed as written. Only that spelling
  // takes min/max.
  bool written_lra = false;
  size_t column = 0;        // column of the 'P', 'R', 'S', 'LRA' or 'T'

  bool is_query() const { return comparison == Comparison::query; }
  // Whether `value` satisfies the bound; false for a query.
  bool holds(double value) const;
};

// An expression over the model's state variables, PRISM's atomic
// propositions: `s=7`, `x1+x2>=2`, `min(a,b)<N`... (PRISM manual, "Expressions").
// Types (bool, int, double) are known only against a model's variables, so
// the checker types and evaluates it (check/state_expressions.hpp).
enum class ExprKind : uint8_t {
  number,    // a literal (is_integer: written with digits only)
  boolean,   // true / false
  variable,  // a state variable, by name
  negate,    // -e
  add, subtract, multiply, divide,
  equal, not_equal, less, less_equal, greater, greater_equal,
  call,      // min, max, floor, ceil, round, pow, mod, log (PRISM's functions)
};

struct Expression {
  ExprKind kind = ExprKind::number;
  Number number;              // number only
  bool value = false;         // boolean only
  std::string name;           // variable: its name; call: the function's
  std::vector<ExprPtr> args;  // negate: 1; binary: 2 (left, right); call: its arguments
  int height = 1;             // 1 for a leaf; bounded by k_max_depth like state formulas
  size_t column = 0;          // 1-based column where the expression starts
};

enum class StateKind : uint8_t {
  constant,     // true / false
  label,        // "name"
  expression,   // a boolean expression over state variables (in expression), e.g. s=7 or a bool variable
  negation,     // !φ            (operand in left)
  conjunction,  // φ & ψ
  disjunction,  // φ | ψ
  implication,  // φ => ψ
  op,           // P~p[...], R~r[...], S~p[...], T~t[...]  (in op)
  filter,       // filter(op, φ, states)  (in filter)
};

struct StateFormula {
  StateKind kind = StateKind::constant;
  bool value = false;   // constant only
  std::string label;    // label only, without quotes
  StatePtr left;        // negation operand, or left operand of a binary node
  StatePtr right;       // right operand of a binary node
  OperatorPtr op;       // op only
  FilterPtr filter;     // filter only
  ExprPtr expression;   // expression only
  int height = 1;       // 1 for a leaf; bounded by k_max_depth
  size_t column = 0;    // 1-based column where the formula starts
};

// PRISM's filter(op, φ, states) (PRISM manual, "Filters"): φ in every
// state, reduced over the states where `states` holds.
enum class FilterOp : uint8_t {
  min, max,          // the least/greatest value of a numeric φ
  argmin, argmax,    // the states attaining it (a state set)
  count,             // how many states satisfy a boolean φ
  sum, avg,          // of a numeric φ
  first,             // φ in the lowest-numbered state
  range,             // [least, greatest] of a numeric φ
  forall, exists,    // whether a boolean φ holds in every / some state
  print, printall,   // list φ's non-zero (print) or all (printall) values; the value stays φ's
  state,             // φ in the one state of `states` (an error unless exactly one)
};

struct Filter {
  FilterOp op = FilterOp::first;
  // The operator as written: its name, or PRISM's shorthands "+" (sum),
  // "&" (forall) and "|" (exists); printed as written.
  std::string written;
  StatePtr operand;  // φ: a state formula, a query operator (P=? [...]) or a filter
  StatePtr states;   // null: every state (PRISM's default `true`)
  size_t column = 0; // column of 'filter'
  size_t operand_column = 0;
  size_t states_column = 0;  // 0 when `states` is left out
};

// Every filter operator by its name, in PRISM's order (for messages).
inline constexpr std::string_view k_filter_op_names[] = {"min",   "max",    "argmin", "argmax", "count",
                                                         "sum",   "avg",    "first",  "range",  "forall",
                                                         "exists", "print", "printall", "state"};
// The operator `name` (or shorthand "+", "&", "|") denotes, if any.
std::optional<FilterOp> filter_op_from_name(std::string_view name);
std::string_view to_string(FilterOp op);

// What a state formula evaluates to in each state: a truth value, a number,
// or (an expression over state variables whose type only the model's
// variables decide, such as `x` or `f(x)`) either.
enum class ValueKind : uint8_t { boolean, number, unknown };
ValueKind value_kind(const StateFormula& formula);
ValueKind value_kind(const Expression& expression);
// Which operand a filter needs: a number (min, max, argmin, argmax, sum,
// avg, range), a truth value (count, forall, exists), or either.
ValueKind operand_kind_needed(FilterOp op);
// What a filter gives, given what its operand is.
ValueKind filter_result_kind(FilterOp op, ValueKind operand);

// A parsed property: a state formula, whose root may be an operator with
// `=?` (the only place a query is allowed, as in PRISM).
struct Property {
  StatePtr root;
  std::string text;  // the text it was parsed from

  // The root operator, or nullptr when the root is e.g. `"a" & P>0.5[...]`
  // or a filter.
  const Operator* top_operator() const;
  // The root filter, or nullptr.
  const Filter* top_filter() const;
  // True when the property asks for a number (P=?, R=?, S=?), false when it
  // is a boolean state formula.
  bool is_query() const;
  // Whether checking it solves unbounded reachability: F, U or G without
  // a bound, or R[F] — in any operator, nested ones included. Step- and
  // time-bounded operators (and X) alone need none; nor do the long-run
  // operators S and R[S] alone, whose stationary distributions are solved
  // apart (their reachability of the BSCCs is sized per model).
  bool needs_unbounded_reachability() const;
};

// Canonical PRISM syntax, e.g. `Pmax=? [ "a" U<=5 "b" ]`, `R{"time"}min=? [ F "done" ]`;
// Storm's additions as Storm writes them: `P=? [ F "a" || F "b" ]`, `LRA=? [ "a" ]`,
// `R=? [ LRA ]`.
// Parentheses are added exactly where the tree differs from the default
// precedence and associativity, so parse_property(to_string(p)) rebuilds
// the same tree.
std::string to_string(const StateFormula& formula);
std::string to_string(const Expression& expression);  // PRISM's spelling: `s=7`, `x + 1`, `min(a,b)`
std::string to_string(const PathFormula& formula);
std::string to_string(const RewardFormula& formula);
std::string to_string(const Operator& op);
std::string to_string(const Filter& filter);  // `filter(max, R=? [ F "stable" ], "init")`
std::string to_string(const Property& property);
std::string to_string(const TimeBound& bound);  // "", "<=5", ">=1.5", "[1,2]"
std::string to_string(const RewardBound& bound);  // `^{rew{"r"}<=5}`, `^{rew<=B}`, or as written `{"r"}<5`
// "5" or "5.0", "0.001", "1e-10"; an expression as `T` or a call, else in
// parentheses (`(T/2)`), so that it cannot run into the formula after it.
std::string to_string(const Number& number);
std::string_view to_string(Comparison comparison);  // "=?", "<", "<=", ">", ">="

// Every distinct label the formula mentions, in order of first appearance
// (nested operators included), so the checker can report unknown ones.
std::vector<std::string> collect_labels(const StateFormula& formula);

// PRISM's functions an expression may call (lib/expression's table): the
// number of arguments `name` takes (0: variadic, min and max, which the
// property language requires to have two or more while model sources
// accept one), or -1 when it is no function.
int function_arity(std::string_view name);

}  // namespace pmc::property
