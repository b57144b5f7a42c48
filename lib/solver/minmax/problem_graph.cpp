#include "solver/minmax/problem_graph.hpp"

#include <algorithm>

#include "common/error.hpp"

namespace pmc {
namespace {

constexpr uint32_t k_unvisited = std::numeric_limits<uint32_t>::max();

// One suspended call of the recursive Tarjan: the unknown being explored and
// the next entry to look at (inside row `row`, skipping masked-out rows).
struct Frame {
  uint32_t state;
  uint64_t row;
  uint64_t entry;
};

}  // namespace

ProblemSccs problem_sccs(const MinMaxProblem& p, const std::vector<uint8_t>& states,
                         const std::vector<uint8_t>& choices) {
  const uint64_t n = p.num_unknowns();
  if ((!states.empty() && states.size() != n) || (!choices.empty() && choices.size() != p.a.num_rows())) {
    fail(ErrorCode::invalid_argument, "problem SCCs: masks of {} states / {} choices for {} unknowns / {} rows",
         states.size(), choices.size(), n, p.a.num_rows());
  }
  const auto& groups = p.row_groups;
  const auto& offsets = p.a.row_offsets;
  const auto& columns = p.a.columns;
  auto included = [&](uint64_t s) { return states.empty() || states[s] != 0; };
  auto enabled = [&](uint64_t r) { return choices.empty() || choices[r] != 0; };

  ProblemSccs out;
  out.component_of.assign(n, ProblemSccs::k_no_component);
  // A state is on Tarjan's stack exactly when it is discovered and has no
  // component yet, so no separate on-stack flag is needed.
  std::vector<uint32_t> index(n, k_unvisited);
  std::vector<uint32_t> lowlink(n, 0);
  std::vector<uint32_t> stack;
  std::vector<Frame> frames;
  uint32_t next_index = 0;

  auto discover = [&](uint32_t s) {
    index[s] = lowlink[s] = next_index++;
    stack.push_back(s);
    frames.push_back({s, groups[s], offsets[groups[s]]});
  };

  for (uint64_t root = 0; root < n; ++root) {
    if (index[root] != k_unvisited || !included(root)) continue;
    discover(static_cast<uint32_t>(root));
    while (!frames.empty()) {
      Frame& f = frames.back();
      const uint32_t v = f.state;
      const uint64_t row_end = groups[v + 1];
      // Advance to the next entry of an enabled row.
      while (f.row < row_end && (!enabled(f.row) || f.entry >= offsets[f.row + 1])) {
        ++f.row;
        if (f.row < row_end) f.entry = offsets[f.row];
      }
      if (f.row < row_end) {
        const uint32_t w = columns[f.entry++];
        if (!included(w)) continue;
        if (index[w] == k_unvisited) {
          discover(w);  // invalidates `f`; the loop re-reads frames.back()
        } else if (out.component_of[w] == ProblemSccs::k_no_component) {
          lowlink[v] = std::min(lowlink[v], index[w]);
        }
        continue;
      }
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
      if (!frames.empty()) {
        const uint32_t parent = frames.back().state;
        lowlink[parent] = std::min(lowlink[parent], lowlink[v]);
      }
    }
  }
  return out;
}

std::vector<uint32_t> row_owners(const MinMaxProblem& p) {
  std::vector<uint32_t> owner(p.a.num_rows());
  for (uint64_t s = 0; s < p.num_unknowns(); ++s) {
    std::fill(owner.begin() + static_cast<int64_t>(p.row_groups[s]),
              owner.begin() + static_cast<int64_t>(p.row_groups[s + 1]), static_cast<uint32_t>(s));
  }
  return owner;
}

}  // namespace pmc
