#include "graph/scc.hpp"

#include <algorithm>

#include "common/error.hpp"

namespace pmc::graph {
namespace {

constexpr uint32_t k_unvisited = std::numeric_limits<uint32_t>::max();

// One suspended call of the recursive Tarjan: the state being explored, the
// row it is walking and the next entry to look at. Without a row mask all
// of a state's rows are consecutive, so its out-edges are one contiguous
// range of entries and `row` stays unused.
struct Frame {
  uint32_t state;
  uint64_t row;
  uint64_t entry;
};

// kRowMask is a template parameter so the common unmasked search (topological
// value iteration, BSCCs) walks each state's entries as one flat range with
// no per-row test in its inner loop.
template <bool kRowMask>
SccDecomposition tarjan(const RowGraph& graph, const Bitset* subset, const Bitset* rows) {
  const uint64_t n = graph.num_states();
  const std::span<const uint64_t> groups = graph.row_groups;
  const std::span<const uint64_t> row_offsets = graph.row_offsets;
  const std::span<const uint32_t> columns = graph.columns;
  auto included = [&](uint64_t s) { return subset == nullptr || subset->test(s); };

  SccDecomposition out;
  out.component_of.assign(n, SccDecomposition::k_no_component);
  out.offsets.push_back(0);
  out.states.reserve(subset ? subset->count() : n);

  // DFS discovery index and lowlink per state. A state is on Tarjan's stack
  // exactly when it has been discovered and not yet given a component, so
  // no separate on-stack flag is needed.
  std::vector<uint32_t> index(n, k_unvisited);
  std::vector<uint32_t> lowlink(n, 0);
  std::vector<uint32_t> stack;
  std::vector<Frame> frames;
  uint32_t next_index = 0;

  auto discover = [&](uint32_t s) {
    index[s] = lowlink[s] = next_index++;
    stack.push_back(s);
    frames.push_back({s, groups[s], row_offsets[groups[s]]});
  };
  // The next successor of frame.state (through a row of the mask), if any.
  auto next_successor = [&](Frame& frame, uint32_t& successor) {
    if constexpr (!kRowMask) {
      if (frame.entry >= row_offsets[groups[frame.state + 1]]) return false;
      successor = columns[frame.entry++];
      return true;
    } else {
      const uint64_t end_row = groups[frame.state + 1];
      while (frame.row < end_row) {
        if (rows->test(frame.row) && frame.entry < row_offsets[frame.row + 1]) {
          successor = columns[frame.entry++];
          return true;
        }
        ++frame.row;
        frame.entry = row_offsets[frame.row];  // row_offsets has rows+1 entries
      }
      return false;
    }
  };

  for (uint64_t root = 0; root < n; ++root) {
    if (index[root] != k_unvisited || !included(root)) continue;
    discover(static_cast<uint32_t>(root));
    while (!frames.empty()) {
      Frame& frame = frames.back();
      const uint32_t v = frame.state;
      uint32_t w = 0;
      if (next_successor(frame, w)) {
        if (!included(w)) continue;
        if (index[w] == k_unvisited) {
          discover(w);  // invalidates `frame`; the loop re-reads frames.back()
        } else if (out.component_of[w] == SccDecomposition::k_no_component) {
          lowlink[v] = std::min(lowlink[v], index[w]);
        }
        continue;
      }
      // All of v's edges are done: v roots a component iff nothing below it
      // reached a state discovered earlier that is still open.
      if (lowlink[v] == index[v]) {
        const auto id = static_cast<uint32_t>(out.num_components());
        uint32_t x;
        do {
          x = stack.back();
          stack.pop_back();
          out.component_of[x] = id;
          out.states.push_back(x);
        } while (x != v);
        out.offsets.push_back(out.states.size());
      }
      frames.pop_back();
      // The return to the caller: propagate the lowlink as the recursive
      // version does after its recursive call.
      if (!frames.empty()) {
        const uint32_t parent = frames.back().state;
        lowlink[parent] = std::min(lowlink[parent], lowlink[v]);
      }
    }
  }
  return out;
}

}  // namespace

SccDecomposition strongly_connected_components(const RowGraph& graph, const Bitset* states, const Bitset* rows) {
  if ((states != nullptr && states->size() != graph.num_states()) ||
      (rows != nullptr && rows->size() != graph.num_rows())) {
    fail(ErrorCode::invalid_argument, "SCC decomposition: masks of {} states / {} rows for a graph of {} states / {} rows",
         states ? states->size() : graph.num_states(), rows ? rows->size() : graph.num_rows(), graph.num_states(),
         graph.num_rows());
  }
  return rows == nullptr ? tarjan<false>(graph, states, nullptr) : tarjan<true>(graph, states, rows);
}

void order_members_by_state(SccDecomposition& sccs, uint64_t min_members) {
  // A counting sort by component: states visited in ascending order land
  // in their component's block in ascending order.
  std::vector<uint64_t> next(sccs.offsets.begin(), sccs.offsets.empty() ? sccs.offsets.begin() : sccs.offsets.end() - 1);
  for (uint64_t s = 0; s < sccs.component_of.size(); ++s) {
    const uint32_t c = sccs.component_of[s];
    if (c == SccDecomposition::k_no_component || sccs.offsets[c + 1] - sccs.offsets[c] < min_members) continue;
    sccs.states[next[c]++] = static_cast<uint32_t>(s);
  }
}

SccDecomposition strongly_connected_components(const Model& model) {
  return strongly_connected_components(row_graph(model));
}

SccDecomposition strongly_connected_components(const Model& model, const Bitset& subset) {
  if (subset.size() != model.num_states()) {
    fail(ErrorCode::invalid_argument, "SCC decomposition: the state subset has {} states, the model has {}",
         subset.size(), model.num_states());
  }
  return strongly_connected_components(row_graph(model), &subset);
}

}  // namespace pmc::graph
