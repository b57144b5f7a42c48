// How deep the SCC graph is below each SCC: the precision schedule of the
// topological interval solvers (an SCC with k non-trivial SCCs on its
// longest chain downwards stops at k/K of the final precision, so that each
// SCC's gap can still shrink below what its successors pass on).
#pragma once

#include <cstdint>
#include <vector>

#include "graph/row_graph.hpp"
#include "graph/scc.hpp"

namespace pmc::graph {

// Per SCC of `sccs` (a decomposition of `graph`, in Tarjan's reverse
// topological order): the number of non-trivial SCCs (more than one state)
// on the longest path of the SCC graph from it downwards, itself included.
// States outside the decomposition (k_no_component) are ignored.
std::vector<uint32_t> nontrivial_chain_lengths(const RowGraph& graph, const SccDecomposition& sccs);

}  // namespace pmc::graph
