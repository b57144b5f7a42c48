// Strongly connected components of a state graph (Tarjan 1972), the basis
// of BSCC detection (steady state), of the maximal end-component search and
// of topological value iteration's order (Berger 2014 §2.7: solve an SCC
// after every SCC it can reach, each as a smaller instance).
//
// The graph (row_graph.hpp) has an edge s -> t when some row of s (for an
// MDP: some choice) has an entry in column t; for a Model every stored entry
// is non-zero, so these are exactly the positive-probability (positive-rate)
// transitions.
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

// The components in the order Tarjan emits them: reverse topological,
// i.e. every edge between two components goes from a component to one with
// a smaller index. Each lists its states in the order they left Tarjan's
// stack.
struct SccDecomposition : StateSets {
  // component_of[s] for a state outside the searched subset.
  static constexpr uint32_t k_no_component = std::numeric_limits<uint32_t>::max();

  // Component index per state (num_states entries).
  std::vector<uint32_t> component_of;

  uint64_t num_components() const { return count(); }
  std::span<const uint32_t> component(uint64_t c) const { return members(c); }
};

// Iterative (explicit DFS stack): models have millions of states and a
// recursive DFS overflows the thread stack on a long path. O(n + m) time; at
// most 40 bytes of work space per state (discovery index, lowlink, Tarjan
// stack, DFS frame) besides the output.
//
// `states` (one bit per state) restricts the search to the subgraph induced
// by the set states: edges to other states are ignored and those states get
// k_no_component. `rows` (one bit per row) keeps only the edges of the set
// rows, as the end-component search needs when it switches choices off.
// Either may be null: no restriction. A mask of the wrong size throws
// pmc::Error(invalid_argument).
SccDecomposition strongly_connected_components(const RowGraph& graph, const Bitset* states = nullptr,
                                               const Bitset* rows = nullptr);

// Lists the states of each component of at least `min_members` states in
// ascending state order instead of Tarjan's (the components keep their
// order; smaller ones keep Tarjan's order of their states). For sweeps over
// a large component: state order reads the matrix rows and the iterate in
// memory order, Tarjan's order jumps. O(n).
void order_members_by_state(SccDecomposition& sccs, uint64_t min_members = 0);

// All states of the model.
SccDecomposition strongly_connected_components(const Model& model);

// Only the states in `subset` (subset.size() == num_states, else
// pmc::Error(invalid_argument)).
SccDecomposition strongly_connected_components(const Model& model, const Bitset& subset);

}  // namespace pmc::graph
