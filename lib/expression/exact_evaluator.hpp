// Exact rational evaluation of checked expression trees, for --exact: a
// model's probabilities, rates and rewards as the source defines them
// (0.7 is 7/10, 1/3 is one third), not the nearest doubles. The tree is
// the one compile_expression kept (Expression::Representation::tree), so
// it is bound and typed; constants are literals that carry their exact
// value (Node::exact). Only in builds with GMP (PMC_HAVE_GMP).
#pragma once

#ifdef PMC_HAVE_GMP
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include <gmpxx.h>

#include "expression/expression.hpp"
#include "expression/syntax_tree.hpp"

namespace pmc::expression {

// The rational a literal's text denotes: an integer ("3", "-2"), a
// decimal with an optional exponent ("0.7", "1.5e-3", ".5") or a fraction
// ("7/10"). Throws Error(model) naming the text for anything else
// (PRISM's "Infinity", NaN) and for exponents beyond ±10000.
mpq_class rational_from_text(std::string_view text);

// "7/10", or "3" for an integer: canonical (lowest terms, positive
// denominator), as PRISM and Storm print exact results.
std::string rational_text(const mpq_class& q);

// The value of a checked tree in `state` (the variables' values, as for
// Expression), booleans as 0/1, with PRISM's semantics in exact
// arithmetic. Throws Error(model), naming the node's text, where the value
// is not a rational (log, pow with a non-integer exponent, a real literal
// without an exact value) or is undefined (division or modulo by zero).
mpq_class evaluate_exact(const Node& checked, std::span<const int32_t> state);

// The same for a compiled expression, through the tree it was compiled
// from; errors name the expression's source location.
mpq_class evaluate_exact(const Expression& e, std::span<const int32_t> state);

}  // namespace pmc::expression
#endif
