// Qualitative precomputation for DTMCs and CTMCs (Baier & Katoen, Principles
// of Model Checking, §10.1.1; PRISM's Prob0/Prob1): the states whose
// probability of reaching psi through phi-states, P(phi U psi), is exactly 0
// or exactly 1. They are fixed before any numerical solve, which then only
// runs on the states in between; this also makes the linear system
// non-singular. A CTMC's embedded DTMC has the same graph (rate > 0 iff
// probability > 0), so the same functions serve both.
//
// The answers depend only on which transitions are present, never on their
// values, so they are exact.
#pragma once

#include "common/bitset.hpp"
#include "graph/transpose.hpp"
#include "model/model.hpp"

namespace pmc::graph {

struct Prob01 {
  Bitset prob0;  // P(phi U psi) = 0
  Bitset prob1;  // P(phi U psi) = 1
};

// The overloads taking a TransposedGraph let a caller that checks several
// properties build the graph once; they require a graph of a DTMC/CTMC
// (rows_are_states()) and sets of graph.num_states bits, and throw
// pmc::Error(invalid_argument) otherwise. The Model overloads accept dtmc and
// ctmc models (pmc::Error(unsupported) for mdp and pctmc) and transpose it.

// States that cannot reach psi through phi-states: the complement of the
// backward search from psi that expands only phi-states.
Bitset prob0(const TransposedGraph& transposed, const Bitset& phi, const Bitset& psi);
Bitset prob0(const Model& model, const Bitset& phi, const Bitset& psi);

// States that reach psi with probability 1. A state of phi\psi fails that
// exactly when, staying in phi\psi, it can reach a prob0 state with positive
// probability (in a finite chain, a path that never leaves phi\psi and never
// reaches a prob0 state reaches psi almost surely); prob1 is the complement
// of the backward search from prob0 through phi\psi. `prob0_states` must be
// prob0(transposed, phi, psi).
Bitset prob1(const TransposedGraph& transposed, const Bitset& phi, const Bitset& psi, const Bitset& prob0_states);
Bitset prob1(const TransposedGraph& transposed, const Bitset& phi, const Bitset& psi);
Bitset prob1(const Model& model, const Bitset& phi, const Bitset& psi);

// Both sets, with prob0 computed once.
Prob01 prob01(const TransposedGraph& transposed, const Bitset& phi, const Bitset& psi);
Prob01 prob01(const Model& model, const Bitset& phi, const Bitset& psi);

}  // namespace pmc::graph
