// The transposed (predecessor) graph of a model, the input of every backward
// search in graph/ (prob0/prob1 for DTMCs, the MDP precomputations later).
//
// Layout: CSR over target states. For target state t, predecessors(t) lists
// the matrix *rows* that have an entry in column t, in increasing row order.
//  - DTMC, CTMC, pCTMC: a row is a state, so the list is the predecessor
//    states themselves (row_to_state is left empty).
//  - MDP: a row is one choice of a state. Keeping rows instead of states
//    costs nothing extra (one entry per matrix entry either way, because a
//    row names each column at most once) and gives the MDP algorithms what
//    they need: prob0E/prob1A must know *which choice* of a predecessor can
//    reach t, not only that some choice can. state_of_row() maps a row back
//    to its state through row_to_state, built from the model's row_groups.
//    A state with several choices into t appears once per such choice.
//
// Every stored entry of a Model has a non-zero value (Model::create drops
// zeros), so the transposed graph is the graph of positive-probability (or
// positive-rate) transitions and no filter is needed. For a pCTMC the graph
// is structural: an entry is present if its rate is not identically zero.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "model/model.hpp"

namespace pmc::graph {

struct TransposedGraph {
  uint64_t num_states = 0;
  uint64_t num_rows = 0;
  // offsets[t] .. offsets[t+1] index `sources` for target state t; num_states+1 entries.
  std::vector<uint64_t> offsets;
  // Predecessor rows, one per matrix entry (columns are 32-bit, and so are
  // rows here: transpose() rejects a model with 2^32 or more rows).
  std::vector<uint32_t> sources;
  // Row -> owning state; empty when every row is a state (DTMC, CTMC, pCTMC).
  std::vector<uint32_t> row_to_state;

  bool rows_are_states() const { return row_to_state.empty(); }
  uint32_t state_of_row(uint32_t row) const { return rows_are_states() ? row : row_to_state[row]; }
  std::span<const uint32_t> predecessor_rows(uint64_t target) const {
    return {sources.data() + offsets[target], sources.data() + offsets[target + 1]};
  }
  uint64_t num_entries() const { return sources.size(); }
};

// O(num_states + num_rows + num_entries) time, one counting pass and one
// fill pass over the matrix; memory 8·(n+1) + 4·entries (+ 4·rows for an MDP).
// From 2^20 entries on `threads` cores (0: all), with the same result.
TransposedGraph transpose(const Model& model, int threads = 0);

// The key under which a model caches its transposed graph
// (Model::derived), shared by every user so it is built once.
inline constexpr const char* k_transposed_key = "transposed";

}  // namespace pmc::graph
