// Expression trees, as the grammar (grammar.hpp) builds them with
// identifiers; the binder (binder.hpp) binds identifiers (constants and
// formulas folded in, variables by index) and types every node, and the
// compiler (compiler.hpp) turns the result into the flat form Expression
// evaluates.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "expression/expression.hpp"

namespace pmc::expression {

struct Position {
  uint32_t line = 0, column = 0;
};

enum class NodeKind : uint8_t {
  boolean,      // int_value 0/1
  integer,      // int_value
  real,         // real_value
  identifier,   // name (grammar only: the binder replaces it)
  variable,     // variable (index), name kept for messages
  negate,       // unary minus
  logical_not,
  multiply,
  divide,
  add,
  subtract,
  less,
  less_equal,
  greater,
  greater_equal,
  equal,
  not_equal,
  logical_and,
  logical_or,
  implies,
  iff,
  conditional,  // c ? a : b
  function_min,  // n-ary
  function_max,  // n-ary
  function_floor,
  function_ceil,
  function_round,
  function_pow,
  function_mod,
  function_log,
};

struct Node {
  NodeKind kind = NodeKind::boolean;
  ValueType type = ValueType::boolean;  // set by the binder
  uint32_t line = 0, column = 0;        // where the node starts
  uint32_t depth = 1;                   // of the tree below (the grammar's depth limit)
  int64_t int_value = 1;
  double real_value = 0;
  // A real literal's exact value as text: the decimal as written ("0.7",
  // "1e-3") or a rational ("7/10") for a constant folded from an
  // expression; empty where none is known. Only --exact reads it
  // (exact_evaluator.hpp): real_value is the nearest double.
  std::string exact;
  uint32_t variable = 0;
  std::string name;
  std::vector<Node> children;
};

// A copy of `n` whose children are map(c) for each child c, in order: how
// the passes that rebuild a tree from the leaves up (binding, constant
// folding) copy a node without first copying its whole subtree.
template <typename Map>
Node with_mapped_children(const Node& n, Map map) {
  Node out;
  out.kind = n.kind;
  out.type = n.type;
  out.line = n.line;
  out.column = n.column;
  out.depth = n.depth;
  out.int_value = n.int_value;
  out.real_value = n.real_value;
  out.exact = n.exact;
  out.variable = n.variable;
  out.name = n.name;
  out.children.reserve(n.children.size());
  for (const Node& c : n.children) out.children.push_back(map(c));
  return out;
}

// One of PRISM's built-in functions, as both languages (model sources and
// properties) call them: one table, so the two cannot disagree on which
// names are functions or how many arguments they take.
struct BuiltinFunction {
  std::string_view name;
  NodeKind kind;
  size_t arguments;  // 0: variadic (min and max)
};
// The built-in function called `name`, or nullptr when there is none.
const BuiltinFunction* find_function(std::string_view name);

// PRISM's spelling of a function node kind ("min", ...), for messages.
const char* function_name(NodeKind kind);
bool is_function(NodeKind kind);
// A binary operator's spelling ("+", "<=>").
const char* operator_text(NodeKind kind);

// A double as PRISM would write it (always with a point or an exponent).
std::string real_literal_text(double value);

// The source text of a (checked or unchecked) tree, parenthesised as
// PRISM's precedence needs.
std::string node_to_string(const Node& node);

}  // namespace pmc::expression
