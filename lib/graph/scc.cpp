#include "graph/scc.hpp"

#include <algorithm>

#include "common/error.hpp"

namespace pmc::graph {
namespace {

constexpr uint32_t k_unvisited = std::numeric_limits<uint32_t>::max();

// One suspended call of the recursive Tarjan: the state being explored and
// the next of its out-edges to look at.
struct Frame {
  uint32_t state;
  uint64_t next_edge;
};

SccDecomposition tarjan(const Model& model, const Bitset* subset) {
  const uint64_t n = model.num_states();
  const std::vector<uint64_t>& groups = model.row_groups();
  const std::vector<uint64_t>& row_offsets = model.row_offsets();
  const std::vector<uint32_t>& columns = model.columns();
  // A state's rows are consecutive, so all its out-edges (over every choice
  // of an MDP) are one contiguous range of entries.
  auto edges_begin = [&](uint64_t s) { return row_offsets[groups[s]]; };
  auto edges_end = [&](uint64_t s) { return row_offsets[groups[s + 1]]; };
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
    frames.push_back({s, edges_begin(s)});
  };

  for (uint64_t root = 0; root < n; ++root) {
    if (index[root] != k_unvisited || !included(root)) continue;
    discover(static_cast<uint32_t>(root));
    while (!frames.empty()) {
      Frame& frame = frames.back();
      const uint32_t v = frame.state;
      if (frame.next_edge < edges_end(v)) {
        const uint32_t w = columns[frame.next_edge++];
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
        uint32_t w;
        do {
          w = stack.back();
          stack.pop_back();
          out.component_of[w] = id;
          out.states.push_back(w);
        } while (w != v);
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

SccDecomposition strongly_connected_components(const Model& model) { return tarjan(model, nullptr); }

SccDecomposition strongly_connected_components(const Model& model, const Bitset& subset) {
  if (subset.size() != model.num_states()) {
    fail(ErrorCode::invalid_argument, "SCC decomposition: the state subset has {} states, the model has {}",
         subset.size(), model.num_states());
  }
  return tarjan(model, &subset);
}

}  // namespace pmc::graph
