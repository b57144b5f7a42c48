// The graph of a MinMaxProblem: unknown s -> unknown j when some row (choice)
// of s has an entry in column j. Its SCCs order topological value iteration
// (Berger 2014 §2.7: solve an SCC after every SCC it can reach) and are the
// building block of the end-component search (problem_end_components.hpp).
//
// graph/scc.hpp does the same for a Model; a problem's columns index
// unknowns, and the end-component search must switch single choices off,
// hence this second, mask-aware Tarjan.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "solver/problem.hpp"

namespace pmc {

struct ProblemSccs {
  static constexpr uint32_t k_no_component = std::numeric_limits<uint32_t>::max();

  // Component per unknown (k_no_component for unknowns outside the subset).
  std::vector<uint32_t> component_of;
  // Components as CSR in Tarjan's emission order, which is reverse
  // topological: every edge between two components goes to the one with the
  // smaller index, so solving in index order solves successors first.
  std::vector<uint64_t> offsets{0};
  std::vector<uint32_t> states;

  uint64_t num_components() const { return offsets.size() - 1; }
  std::span<const uint32_t> component(uint64_t c) const {
    return {states.data() + offsets[c], states.data() + offsets[c + 1]};
  }
};

// SCCs of the problem graph. `states` (one flag per unknown) restricts the
// search to the subgraph induced by the flagged unknowns; `choices` (one flag
// per row) keeps only the edges of flagged rows. Either may be empty: all.
// Iterative (explicit DFS stack): problems have millions of unknowns and a
// recursive DFS overflows the thread stack on a long path. O(n + m).
ProblemSccs problem_sccs(const MinMaxProblem& problem, const std::vector<uint8_t>& states = {},
                         const std::vector<uint8_t>& choices = {});

// Owner unknown of every row (the inverse of row_groups).
std::vector<uint32_t> row_owners(const MinMaxProblem& problem);

}  // namespace pmc
