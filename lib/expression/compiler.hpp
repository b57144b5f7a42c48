// Checked expression trees → the postfix code Expression runs (code.hpp).
#pragma once

#include "expression/expression.hpp"
#include "expression/syntax_tree.hpp"

namespace pmc::expression {

// Compiles a checked tree (no identifiers, every node typed) into an
// Expression located at `location`. Subtrees without variables are folded
// to literals (unless evaluating them fails: the error then belongs to the
// states that reach them).
Expression compile_expression(const Node& checked, const SourceLocation& location);

}  // namespace pmc::expression
