// PRISM's expression grammar (PRISM manual, "Expressions"; precedence as
// PRISM's PrismParser.jj): literals, identifiers, the operators from `? :`
// (loosest) to unary minus, and the built-in functions. It only builds
// syntax (syntax_tree.hpp); names, types and values are the binder's.
#pragma once

#include "expression/syntax_tree.hpp"
#include "expression/token_cursor.hpp"

namespace pmc::expression {

// Parses one expression from the cursor's current token and leaves the
// cursor after it. Throws pmc::Error (parse) at the first syntax error,
// naming file:line:column, what was expected and found, and for trees
// nested too deeply for the recursive passes that follow.
Node parse_expression(TokenCursor& cursor);

}  // namespace pmc::expression
