#include "graph/scc_chains.hpp"

#include <algorithm>

namespace pmc::graph {

std::vector<uint32_t> nontrivial_chain_lengths(const RowGraph& graph, const SccDecomposition& sccs) {
  std::vector<uint32_t> length(sccs.num_components(), 0);
  for (uint64_t c = 0; c < sccs.num_components(); ++c) {
    uint32_t below = 0;
    for (const uint32_t s : sccs.component(c)) {
      for (uint64_t r = graph.row_groups[s]; r < graph.row_groups[s + 1]; ++r) {
        for (const uint32_t t : graph.successors(r)) {
          const uint32_t d = sccs.component_of[t];
          // Tarjan's order: every other SCC reached is solved first (d < c).
          if (d != c && d != SccDecomposition::k_no_component) below = std::max(below, length[d]);
        }
      }
    }
    length[c] = below + (sccs.component(c).size() > 1 ? 1 : 0);
  }
  return length;
}

}  // namespace pmc::graph
