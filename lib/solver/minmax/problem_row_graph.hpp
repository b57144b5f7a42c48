// A MinMaxProblem seen as a graph (graph/row_graph.hpp): unknown s -> unknown
// j when some row (choice) of s has an entry in column j. Its SCCs order
// topological value iteration and its end components are collapsed before
// value and interval iteration; both come from graph/ through this view.
#pragma once

#include "graph/row_graph.hpp"
#include "solver/problem.hpp"

namespace pmc {

inline graph::RowGraph row_graph(const MinMaxProblem& problem) {
  return {problem.row_groups, problem.a.row_offsets, problem.a.columns};
}

}  // namespace pmc
