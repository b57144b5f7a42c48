#include "graph/row_graph.hpp"

#include <algorithm>

namespace pmc::graph {

std::vector<uint32_t> row_owners(const RowGraph& graph) {
  std::vector<uint32_t> owner(graph.num_rows());
  for (uint64_t s = 0; s < graph.num_states(); ++s) {
    std::fill(owner.begin() + static_cast<int64_t>(graph.row_groups[s]),
              owner.begin() + static_cast<int64_t>(graph.row_groups[s + 1]), static_cast<uint32_t>(s));
  }
  return owner;
}

}  // namespace pmc::graph
