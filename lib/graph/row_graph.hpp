// The graph every algorithm in graph/ walks: states, each owning a
// consecutive range of rows (the choices of an MDP state; one row per state
// for a chain), each row a range of entries naming successor states. It is a
// view over CSR arrays owned elsewhere, so the same SCC, end-component and
// reachability code runs on a Model (row_graph(model)) and on a solver's
// MinMaxProblem (rows over its unknowns) without copying either.
//
// Edges are the stored entries; nothing looks at values. A Model stores no
// zero entries, so there an edge is a positive-probability transition.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "model/model.hpp"

namespace pmc::graph {

struct RowGraph {
  std::span<const uint64_t> row_groups;   // num_states + 1: state s owns rows [row_groups[s], row_groups[s+1])
  std::span<const uint64_t> row_offsets;  // num_rows + 1: row r owns entries [row_offsets[r], row_offsets[r+1])
  std::span<const uint32_t> columns;      // per entry: the successor state

  uint64_t num_states() const { return row_groups.empty() ? 0 : row_groups.size() - 1; }
  uint64_t num_rows() const { return row_offsets.empty() ? 0 : row_offsets.size() - 1; }
  std::span<const uint32_t> successors(uint64_t row) const {
    return columns.subspan(row_offsets[row], row_offsets[row + 1] - row_offsets[row]);
  }
};

inline RowGraph row_graph(const Model& model) {
  return {model.row_groups(), model.row_offsets(), model.columns()};
}

// The state owning each row (the inverse of row_groups), num_rows entries.
std::vector<uint32_t> row_owners(const RowGraph& graph);

}  // namespace pmc::graph
