// Qualitative precomputation for MDPs (Berger 2014 §2.5–2.6; Baier & Katoen,
// Principles of Model Checking, §10.6.1; PRISM's Prob0A/Prob0E/Prob1A/Prob1E):
// the states whose maximal or minimal probability of phi U psi, over all
// schedulers, is exactly 0 or exactly 1. Value iteration then runs only on the
// remaining "maybe" states; fixing the 0 states is also what makes the max
// fixed point unique (Berger 2014 §2.6: the iteration is the least fixed
// point, and end components outside the target would otherwise admit others).
//
// Conventions shared by every function here:
//  - A state of psi has probability 1; a state in neither phi nor psi has
//    probability 0 whatever the scheduler does (the path has left phi).
//  - `transposed` must be transpose(model). Its rows are the model's rows
//    (choices), so the searches know which choice of a predecessor leads into
//    a set, not only that some choice does.
//  - The model must be an MDP or a DTMC (a DTMC is an MDP with one choice per
//    state, and every function then agrees with dtmc_precomputation.hpp);
//    other types throw pmc::Error(unsupported). Sets must have num_states
//    bits and the graph must match the model, else pmc::Error(invalid_argument).
//  - Answers depend only on which entries are present, never on their values,
//    so they are exact. No recursion anywhere: explicit queues and counters.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "common/bitset.hpp"
#include "graph/dtmc_precomputation.hpp"  // Prob01
#include "graph/transpose.hpp"
#include "model/model.hpp"

namespace pmc::graph {

// Pmax(phi U psi) = 0: no scheduler reaches psi. The complement of the
// backward search from psi that expands phi-states through ANY choice.
// O(n + entries).
Bitset prob0a(const Model& model, const TransposedGraph& transposed, const Bitset& phi, const Bitset& psi);

// Pmin(phi U psi) = 0: some scheduler avoids psi surely. The complement of
// the least fixed point A = psi ∪ {s ∈ phi\psi : EVERY choice of s has a
// successor in A} (PRISM's explicit prob0 with min=true), computed in
// O(n + rows + entries) with one counter per state (choices not yet known to
// hit A) instead of PRISM's O(iterations × entries) sweeps.
Bitset prob0e(const Model& model, const TransposedGraph& transposed, const Bitset& phi, const Bitset& psi);

// Pmin(phi U psi) = 1: every scheduler reaches psi almost surely. The
// complement of the states that can reach a prob0e state (or start in one)
// through phi\psi-states under some choice: a scheduler that steers there with
// positive probability and then avoids psi keeps Pmin below 1; conversely,
// from a state that cannot, every step stays among states where every
// scheduler has a bounded-below chance of reaching psi within n steps.
// O(n + entries) on top of prob0e. `prob0e_states` must be
// prob0e(model, transposed, phi, psi).
Bitset prob1a(const Model& model, const TransposedGraph& transposed, const Bitset& phi, const Bitset& psi,
              const Bitset& prob0e_states);
Bitset prob1a(const Model& model, const TransposedGraph& transposed, const Bitset& phi, const Bitset& psi);

// Pmax(phi U psi) = 1: some scheduler reaches psi almost surely. The nested
// fixed point of de Alfaro (PRISM's prob1E): the greatest U such that every
// state of U reaches psi through phi-states using only choices whose
// successors all lie in U. Each outer round is one backward search from psi
// over the choices still valid for U, and a state leaving U invalidates the
// choices into it once, so the cost is O(rounds × (n + entries)); rounds is
// usually 2–3 and at most n + 1.
Bitset prob1e(const Model& model, const TransposedGraph& transposed, const Bitset& phi, const Bitset& psi);

// For Pmax = 1 the rounds of prob1e leave more than a set: a scheduler that
// attains it. Staying inside the set is not enough (Berger 2014 §2.5, Fig. 5:
// a choice that loops inside the set has "value 1" in the fixed point but
// never reaches psi), so each state takes a choice that stays in the set AND
// has a successor one step closer to psi, by breadth-first distance over such
// choices. Under these choices every state of the set has a positive-
// probability path to psi along strictly decreasing distance and cannot
// leave the set, hence reaches psi almost surely.
//
// Returns one entry per state: the chosen row (a global row index, between
// row_groups[s] and row_groups[s+1]) for each state of prob1e_states \ psi,
// and k_no_choice for psi-states (any choice will do) and states outside
// the set. Among equally distant choices the first discovered is taken, so
// the result is deterministic. `prob1e_states` must be prob1e(model,
// transposed, phi, psi); a state of it that has no such choice means it was
// not, and throws pmc::Error(invalid_argument). O(n + rows + entries).
inline constexpr uint64_t k_no_choice = std::numeric_limits<uint64_t>::max();
std::vector<uint64_t> progressing_choices(const Model& model, const TransposedGraph& transposed, const Bitset& phi,
                                          const Bitset& psi, const Bitset& prob1e_states);

// The partition the value iteration of Berger 2014 §2.6 starts from:
// {prob0a, prob1e} for Pmax and {prob0e, prob1a} for Pmin (prob0e computed once).
Prob01 prob01_max(const Model& model, const TransposedGraph& transposed, const Bitset& phi, const Bitset& psi);
Prob01 prob01_min(const Model& model, const TransposedGraph& transposed, const Bitset& phi, const Bitset& psi);

}  // namespace pmc::graph
