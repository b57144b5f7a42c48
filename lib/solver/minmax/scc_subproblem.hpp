// Pieces of a MinMaxProblem cut along its SCCs (Berger 2014 §2.7, §3.3): the
// unit that topological value iteration solves at a time, on the CPU
// (cpu.topo-vi, one SCC) or on the device (gpu.topo-vi, a block of SCCs).
#pragma once

#include <cstdint>
#include <vector>

#include "solver/problem.hpp"
#include "graph/scc.hpp"

namespace pmc {

// The exact value of unknown s when every successor other than s itself is
// solved (x holds their values): a single-unknown SCC needs no iteration.
double solve_single_unknown(const MinMaxProblem& problem, uint32_t s, const std::vector<double>& x);

// SCCs first..last (in the decomposition's order) as a problem of their own:
// their rows, with entries into SCCs outside the range folded into b using
// x (those SCCs must be solved already, i.e. come earlier in the order), and
// their unknowns renumbered in the order of sccs.states (local unknown i is
// sccs.states[sccs.offsets[first] + i]). local_of is scratch of size
// num_unknowns. `sub` is overwritten.
void extract_components(const MinMaxProblem& problem, const graph::SccDecomposition& sccs, uint64_t first, uint64_t last,
                        const std::vector<double>& x, std::vector<uint32_t>& local_of, MinMaxProblem& sub);

}  // namespace pmc
