// PRISM's filters, filter(op, φ, states) (docs/design.md §3): φ's values in
// every state reduced over the filter's states. The checker computes φ and
// the states; this file applies the operator.
#pragma once

#include <vector>

#include "check/check.hpp"
#include "common/bitset.hpp"
#include "property/ast.hpp"

namespace pmc {

// A state formula's values in every state, as a filter takes them.
struct StateValues {
  bool boolean = false;
  std::vector<double> values;  // the number, or 1/0 for a truth value
  // Certified bounds per state (lower ≤ exact ≤ upper); empty when the
  // check certified nothing. Truth values and expressions are exact:
  // their bounds, when present, equal the values.
  std::vector<double> lower, upper;
};

// What a filter gives: its values in every state (`values.boolean` for
// forall, exists, argmin, argmax and the pass-through of a truth value),
// and what a result reports of it.
struct FilterValue {
  StateValues values;
  FilterSummary summary;
};

// Applies `filter` to `operand` over `states` (the states its third
// argument holds in; every state when left out). `tolerance`: without
// certified bounds, how far from the extreme a value may be and still
// count for argmin/argmax (PRISM's "close" values). Throws Error(property)
// naming the filter's column when `states` is empty, when `state` meets
// other than exactly one state, or when φ has the wrong kind of value.
FilterValue apply_filter(const property::Filter& filter, const StateValues& operand, const Bitset& states,
                         double tolerance);

}  // namespace pmc
