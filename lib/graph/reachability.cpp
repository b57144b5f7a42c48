#include "graph/reachability.hpp"

#include <vector>

#include "common/error.hpp"
#include "graph/bitset_ops.hpp"

namespace pmc::graph {

Bitset backward_reachable(const TransposedGraph& graph, const Bitset& from, const Bitset& through) {
  const uint64_t n = graph.num_states;
  if (from.size() != n || through.size() != n) {
    fail(ErrorCode::invalid_argument, "backward reachability: state sets have {} and {} states, the graph has {}",
         from.size(), through.size(), n);
  }
  Bitset reached = from;
  // Each state enters the queue at most once (it is marked when pushed), so a
  // vector with a moving head is a FIFO queue that never needs more than n
  // slots; it grows only as far as the search actually goes.
  std::vector<uint32_t> queue;
  bits::for_each_set(from, [&](uint64_t s) { queue.push_back(static_cast<uint32_t>(s)); });
  for (size_t head = 0; head < queue.size(); ++head) {
    for (uint32_t row : graph.predecessor_rows(queue[head])) {
      const uint32_t pred = graph.state_of_row(row);
      if (reached.test(pred) || !through.test(pred)) continue;
      reached.set(pred);
      queue.push_back(pred);
    }
  }
  return reached;
}

}  // namespace pmc::graph
