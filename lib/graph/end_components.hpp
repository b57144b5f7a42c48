// Maximal end components (MECs) of an MDP (de Alfaro 1997; Baier & Katoen,
// Principles of Model Checking, §10.6.3): a set of states C with, for each
// state, a non-empty set of its choices whose successors all lie in C, such
// that C is strongly connected using those choices. A scheduler can keep a run
// inside an end component forever and visit all of it; conversely almost every
// run eventually stays in one. That is why they matter here: Pmin(phi U psi)
// = 0 wherever an end component inside phi\psi can be reached and stayed in,
// Pmax value iteration is unique only after the MECs outside psi are fixed to
// 0 or collapsed, and interval iteration and long-run MDP properties work on
// the MEC quotient.
//
// The MECs of a subset: the end components using only states of the subset
// (a choice with a successor outside it is never part of one). The search
// runs on any RowGraph (row_graph.hpp), so a solver can ask for the end
// components of its own problem, over the choices it allows.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "common/bitset.hpp"
#include "graph/row_graph.hpp"
#include "graph/state_sets.hpp"
#include "model/model.hpp"

namespace pmc::graph {

// The MECs, numbered by their smallest state, each listing its states in
// increasing order.
struct MecDecomposition : StateSets {
  // mec_of[s] for a state in no MEC.
  static constexpr uint32_t k_no_mec = std::numeric_limits<uint32_t>::max();

  // MEC index per state (num_states entries), k_no_mec outside every MEC.
  std::vector<uint32_t> mec_of;
  // Over the graph's rows: row r is set iff its state lies in a MEC and all of
  // r's successors lie in that same MEC (the choices a scheduler may use to
  // stay inside). Every state of a MEC has at least one such row; rows of
  // states outside every MEC are clear.
  Bitset choices;

  std::span<const uint32_t> mec(uint64_t i) const { return members(i); }
  // The states of MEC i as a set over all num_states states.
  Bitset mec_states(uint64_t i) const { return members_as_bitset(i, mec_of.size()); }
  // The union of all MECs.
  Bitset states_in_mecs() const { return union_as_bitset(mec_of.size()); }
};

// The standard refinement: decompose into SCCs using the choices still
// allowed, drop every choice that leaves its state's SCC, drop states left
// without a choice, and repeat on each SCC that lost something until none
// does. Only SCCs that changed are decomposed again, with an iterative
// Tarjan (explicit stack; a recursive one overflows on million-state paths)
// over the allowed choices only. It is its own Tarjan rather than
// graph/scc.hpp's because it re-decomposes a block in place, stamping
// states instead of re-allocating per-state arrays for each of many small
// rounds. O(n + rows + entries) per round, each round touching only the
// changed SCCs; at most rows rounds in the worst case, usually a handful.
//
// `rows` (one bit per row; null: all) is the set of choices allowed at the
// start: the others are never part of an end component, as if absent.
// subset.size() must be num_states and rows->size() num_rows, else
// pmc::Error(invalid_argument).
MecDecomposition maximal_end_components(const RowGraph& graph, const Bitset& subset, const Bitset* rows = nullptr);

// MDP and DTMC models (for a DTMC the MECs are its bottom SCCs within the
// subset); other types throw pmc::Error(unsupported). subset.size() must be
// num_states, else pmc::Error(invalid_argument).
MecDecomposition maximal_end_components(const Model& model, const Bitset& subset);
MecDecomposition maximal_end_components(const Model& model);

}  // namespace pmc::graph
