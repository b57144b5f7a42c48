// Conditional probabilities, Storm's P[ F φ || F ψ ]: the
// probability of eventually reaching φ given that ψ is eventually reached.
#pragma once

#include <vector>

#include "check/computations.hpp"

namespace pmc {

// Throws Error(unsupported) for a conditional pmc cannot compute (a goal or
// condition other than an unbounded F, e.g. `F<=5 "b"`), naming its column.
// Call before evaluating the state formulas.
void require_conditional_shape(const property::Operator& op);

// P(F goal | F condition) of a conditional P operator, `goal` and
// `condition` being the states of φ and ψ.
//
// DTMC, CTMC (its embedded chain): in every state, P(F φ ∧ F ψ) / P(F ψ),
// NaN where P(F ψ) = 0 (undefined). The numerator is a reachability of
// φ ∪ ψ with target values (ψ\φ states: P(F φ); φ\ψ states: P(F ψ); both:
// 1), no product is built.
//
// MDP: the maximum (`maximize`) or minimum over the schedulers under which
// ψ has positive probability, by Baier, Klein, Klüppelholz & Wunderlich
// (TACAS 2014): a max reachability in a copy of the MDP where runs that
// cannot meet the condition any more restart in the initial state. Computed
// in each initial state, NaN elsewhere; no scheduler is returned (an optimal
// one needs memory).
//
// A condition with probability 0 in an initial state (MDP: under every
// scheduler) is an Error(property). Bounds: certified lower/upper bounds of
// every value computed go to `extras` when every solve certified its own
// (the bounds of the quotient follow from the operands' bounds); the solves
// run at a tighter ε, tightened again until the quotient's bounds meet the
// options' ε where doubles allow, so its midpoint is as precise as any
// other sound result.
std::vector<double> conditional_probabilities(CheckContext& ctx, const property::Operator& op, bool maximize,
                                              const Bitset& goal, const Bitset& condition, ResultExtras& extras);

}  // namespace pmc
