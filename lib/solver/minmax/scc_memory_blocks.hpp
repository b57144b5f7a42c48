// Topological value iteration's schedule (Berger 2014 §3.3): the SCCs of a
// problem in dependency order (successors first) grouped into blocks that
// fit a memory budget; cpu.topo-vi and gpu.topo-vi solve one block at a time. The thesis decomposes only when the model does not fit the GPU,
// then "re-joins" SCCs by maximum fit: starting from the next SCC to solve,
// it adds the next SCC in line while the device memory permits. Every
// prerequisite of a block is then solved already or inside the block. An SCC
// too large on its own falls back to the CPU (`fits = false`).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "graph/scc.hpp"
#include "solver/problem.hpp"

namespace pmc {

// Bytes one SCC needs on the device while it is solved:
//   per unknown: row group offset, x, next x, difference (8 B each) and the
//                choice (4 B);
//   per row:     row offset and b (8 B each);
//   per entry:   column (4 B) and value (8 B), plus 8 B for the value of an
//                already solved successor when the entry leaves the SCC (an
//                upper bound: several entries may share one successor, and a
//                solver may instead fold those into b).
uint64_t scc_bytes(const MinMaxProblem& problem, const graph::SccDecomposition& sccs, uint64_t component);

// scc_bytes for every component, in the decomposition's order.
std::vector<uint64_t> all_scc_bytes(const MinMaxProblem& problem, const graph::SccDecomposition& sccs);

struct SccBlock {
  uint64_t first_scc = 0;  // index of the first SCC, in dependency order
  uint64_t last_scc = 0;   // inclusive
  uint64_t bytes = 0;      // sum of the SCCs' bytes
  bool fits = true;        // false: one SCC larger than the budget (run it on the CPU)
};

// Max-fit grouping of consecutive SCCs, `bytes[i]` being SCC i's need in
// dependency order. budget 0: unlimited (one block, when there are SCCs).
// Blocks cover every SCC exactly once, in order.
std::vector<SccBlock> group_sccs(std::span<const uint64_t> bytes, uint64_t budget);

}  // namespace pmc
