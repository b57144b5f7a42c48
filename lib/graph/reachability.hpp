// Backward reachability over a transposed graph: the one search that every
// qualitative precomputation (prob0/prob1 here, the MDP variants later) is
// built from.
#pragma once

#include "common/bitset.hpp"
#include "graph/transpose.hpp"

namespace pmc::graph {

// The states that can reach a state of `from` along a path whose other
// states all lie in `through`: `from` itself, plus every state of `through`
// with a positive-probability edge (for an MDP: in some choice) into the set
// found so far. Breadth-first with an explicit queue, O(n + entries), no
// recursion. Throws pmc::Error(invalid_argument) if a set's size is not
// graph.num_states.
Bitset backward_reachable(const TransposedGraph& graph, const Bitset& from, const Bitset& through);

}  // namespace pmc::graph
