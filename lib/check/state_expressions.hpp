// Atomic propositions over a model's state variables, PRISM's `s=7 & d=6`
// (property::Expression): typed against the model's state valuations (its
// .sta file or PRISM-language source) and evaluated in every state.
#pragma once

#include <cstdint>
#include <vector>

#include "model/model.hpp"
#include "property/ast.hpp"

namespace pmc {

// One byte per state: 1 where the boolean `expression` holds. Types follow
// PRISM: int and bool variables, int or double literals, `/` and log give
// doubles, floor/ceil/round give ints, mod takes ints; `=`/`!=` compare two
// booleans or two numbers, `<`... two numbers. Throws pmc::Error (property)
// whose message starts with "column N: " for an unknown variable (naming the
// model's variables, or saying it has none), a type error, or mod by zero /
// a negative integer power in some state (naming the state).
// `threads`: 0 for OpenMP's default. Thread-safe.
std::vector<uint8_t> expression_states(const Model& model, const property::Expression& expression, int threads);

// The values of `expression` in every state, whatever its type (a filter's
// operand may be a number: filter(max, x)); a boolean's as 1 or 0. The
// same errors as expression_states but that a number is no error.
struct ExpressionValues {
  std::vector<double> values;
  bool is_boolean = false;
};
ExpressionValues expression_values(const Model& model, const property::Expression& expression, int threads);

}  // namespace pmc
