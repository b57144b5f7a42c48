#include "graph/reachability.hpp"

#include "common/error.hpp"

namespace pmc::graph {

Bitset backward_reachable(const TransposedGraph& graph, const Bitset& from, const Bitset& through,
                          const Bitset* rows) {
  const uint64_t n = graph.num_states;
  if (from.size() != n || through.size() != n) {
    fail(ErrorCode::invalid_argument, "backward reachability: state sets have {} and {} states, the graph has {}",
         from.size(), through.size(), n);
  }
  if (rows != nullptr && rows->size() != graph.num_rows) {
    fail(ErrorCode::invalid_argument, "backward reachability: the row set has {} rows, the graph has {}",
         rows->size(), graph.num_rows);
  }
  if (rows == nullptr) return backward_search(graph, from, [&](uint32_t, uint32_t pred) { return through.test(pred); });
  return backward_search(graph, from,
                         [&](uint32_t row, uint32_t pred) { return through.test(pred) && rows->test(row); });
}

Bitset forward_reachable(const RowGraph& graph, const Bitset& from, const Bitset& through, const Bitset* rows) {
  const uint64_t n = graph.num_states();
  if (from.size() != n || through.size() != n) {
    fail(ErrorCode::invalid_argument, "forward reachability: state sets have {} and {} states, the graph has {}",
         from.size(), through.size(), n);
  }
  if (rows != nullptr && rows->size() != graph.num_rows()) {
    fail(ErrorCode::invalid_argument, "forward reachability: the row set has {} rows, the graph has {}",
         rows->size(), graph.num_rows());
  }
  Bitset found = from;
  std::vector<uint32_t> queue;  // FIFO with a moving head, as in backward_search
  bits::for_each_set(from, [&](uint64_t s) { queue.push_back(static_cast<uint32_t>(s)); });
  for (size_t head = 0; head < queue.size(); ++head) {
    const uint32_t s = queue[head];
    for (uint64_t r = graph.row_groups[s]; r < graph.row_groups[s + 1]; ++r) {
      if (rows != nullptr && !rows->test(r)) continue;
      for (uint32_t t : graph.successors(r)) {
        if (found.test(t) || !through.test(t)) continue;
        found.set(t);
        queue.push_back(t);
      }
    }
  }
  return found;
}

}  // namespace pmc::graph
