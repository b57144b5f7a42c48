#include "graph/transpose.hpp"

#include "common/error.hpp"
#include "graph/row_graph.hpp"

namespace pmc::graph {

TransposedGraph transpose(const Model& model) {
  const uint64_t n = model.num_states();
  const uint64_t rows = model.num_rows();
  const std::vector<uint64_t>& row_offsets = model.row_offsets();
  const std::vector<uint32_t>& columns = model.columns();
  if (rows > k_max_states) {
    fail(ErrorCode::unsupported, "the transposed graph stores 32-bit row indices; this model has {} rows", rows);
  }

  TransposedGraph g;
  g.num_states = n;
  g.num_rows = rows;

  // Counting sort by target, with the offsets array shifted by one slot so
  // it doubles as the fill cursor: after the prefix sum offsets[t+1] is the
  // start of t's list, each fill advances it, and when all entries are placed
  // it has become the end of t's list = the start of t+1's. That saves a
  // separate n-sized cursor array on multi-million-state models.
  g.offsets.assign(n + 2, 0);
  for (uint32_t target : columns) ++g.offsets[static_cast<uint64_t>(target) + 2];
  for (uint64_t t = 2; t < n + 2; ++t) g.offsets[t] += g.offsets[t - 1];
  g.sources.resize(columns.size());
  // Rows are visited in increasing order, so each predecessor list comes out
  // sorted, which keeps results deterministic and memory access forward-only.
  for (uint64_t r = 0; r < rows; ++r) {
    for (uint64_t e = row_offsets[r]; e < row_offsets[r + 1]; ++e) {
      g.sources[g.offsets[static_cast<uint64_t>(columns[e]) + 1]++] = static_cast<uint32_t>(r);
    }
  }
  g.offsets.pop_back();

  if (model.type() == ModelType::mdp) g.row_to_state = row_owners(row_graph(model));
  return g;
}

}  // namespace pmc::graph
