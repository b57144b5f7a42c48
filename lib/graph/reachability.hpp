// Reachability, backward over a transposed graph and forward over a
// RowGraph: the searches every qualitative precomputation (prob0/prob1, the
// MDP variants) and every "which choice leads there" walk is built from.
// All are breadth-first with an explicit queue, O(n + entries), no
// recursion; a state enters the queue at most once.
#pragma once

#include <cstdint>
#include <vector>

#include "common/bitset.hpp"
#include "graph/bitset_ops.hpp"
#include "graph/row_graph.hpp"
#include "graph/transpose.hpp"

namespace pmc::graph {

// The states that can reach a state of `from` along a path whose other
// states all lie in `through`: `from` itself, plus every state of `through`
// with a positive-probability edge (for an MDP: in some choice; with `rows`,
// in some choice set in `rows`) into the set found so far. Throws
// pmc::Error(invalid_argument) if a set's size is not graph.num_states (or
// rows->size() not graph.num_rows).
Bitset backward_reachable(const TransposedGraph& graph, const Bitset& from, const Bitset& through,
                          const Bitset* rows = nullptr);

// The states reachable from a state of `from` along a path whose states
// after the first all lie in `through`: `from` itself, plus every state of
// `through` that a row (with `rows`: a row set in it) of a state found so
// far has an entry in. Same size checks as backward_reachable.
Bitset forward_reachable(const RowGraph& graph, const Bitset& from, const Bitset& through,
                         const Bitset* rows = nullptr);

// The backward search with the rule for joining left to the caller: from
// the states of `from`, a state s not yet found joins through predecessor
// row r (a row of s with an entry into a state already found) when
// join(r, s) returns true; the caller records what it needs there (the
// choice through which s was reached, say). Found states are expanded in
// the order they were found, each one's predecessor rows in increasing
// order, so which row a state joins through is deterministic. Returns the
// states found, `from` included.
template <typename Join>
Bitset backward_search(const TransposedGraph& graph, const Bitset& from, Join&& join) {
  Bitset found = from;
  // Each state is pushed once (it is marked when pushed), so a vector with
  // a moving head is a FIFO queue that never needs more than n slots; it
  // grows only as far as the search actually goes.
  std::vector<uint32_t> queue;
  bits::for_each_set(from, [&](uint64_t s) { queue.push_back(static_cast<uint32_t>(s)); });
  for (size_t head = 0; head < queue.size(); ++head) {
    for (uint32_t row : graph.predecessor_rows(queue[head])) {
      const uint32_t pred = graph.state_of_row(row);
      if (found.test(pred) || !join(row, pred)) continue;
      found.set(pred);
      queue.push_back(pred);
    }
  }
  return found;
}

}  // namespace pmc::graph
