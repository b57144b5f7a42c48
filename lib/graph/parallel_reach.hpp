// Breadth-first search over a CSR graph on all cores: the whole-graph
// searches that decide whether a chain is irreducible (bscc.cpp), where a
// serial queue over millions of states was most of a steady-state check's
// precomputation (kanban t=5: 1.2 s of 2.5 s on a 16-core host, GPU solve).
#pragma once

#include <cstdint>

#include "common/bitset.hpp"

namespace pmc::graph {

// The nodes reachable from `start` (itself included) along row → targets[k]
// for k in [offsets[row], offsets[row + 1]), over `n` nodes whose rows are
// the nodes themselves (a chain's matrix, or its transposed graph).
// Level-synchronous: each level's frontier is split over `threads` (0: all
// cores) once it is large, the found set marked by atomic word updates;
// the result does not depend on the thread count.
Bitset reachable_from(uint64_t n, const uint64_t* offsets, const uint32_t* targets, uint32_t start, int threads);

// 0 → the number of cores (OpenMP's), else `threads`.
int graph_threads(int threads);

}  // namespace pmc::graph
