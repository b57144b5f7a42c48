// Expression trees of the PRISM-language front end (private to
// formats/prism_language/). The parser builds them with identifiers; the
// checker binds identifiers (constants and formulas folded in, variables by
// index), types every node, and compile_expression turns the result into
// the flat form Expression evaluates.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/prism_language/program.hpp"

namespace pmc::prism_language {

enum class NodeKind : uint8_t {
  boolean,      // int_value 0/1
  integer,      // int_value
  real,         // real_value
  identifier,   // name (parser only: the checker replaces it)
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
  ValueType type = ValueType::boolean;  // set by the checker
  uint32_t line = 0, column = 0;        // where the node starts
  uint32_t depth = 1;                   // of the tree below (parser's nesting limit)
  int64_t int_value = 1;
  double real_value = 0;
  uint32_t variable = 0;
  std::string name;
  std::vector<Node> children;
};

// PRISM's spelling of a function node kind ("min", ...), for messages.
const char* function_name(NodeKind kind);
bool is_function(NodeKind kind);
// A binary operator's spelling ("+", "<=>").
const char* operator_text(NodeKind kind);

// The source text of a (checked or unchecked) tree, parenthesised as
// PRISM's precedence needs.
std::string node_to_string(const Node& node);

// Compiles a checked tree (no identifiers, every node typed) into an
// Expression located at `location`. Subtrees without variables are folded
// to literals (unless evaluating them fails: the error then belongs to the
// states that reach them).
Expression compile_expression(const Node& checked, const SourceLocation& location);

}  // namespace pmc::prism_language
