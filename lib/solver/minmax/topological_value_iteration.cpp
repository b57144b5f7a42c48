// cpu.topo-vi: topological value iteration (Berger 2014 §2.7, §3.3). The
// values of an SCC depend only on the SCC itself and on SCCs it can reach,
// so solving SCCs successors-first lets each one converge once, on its own,
// instead of re-propagating every change through the whole problem.
//
// Precision per SCC: each SCC is iterated until the same test as cpu.vi
// (max convergence_difference < ε, relative or absolute) holds on its own
// unknowns. The Bellman operator is non-expansive in the max norm, so an
// error in already solved successors is passed on at most unamplified; an
// SCC adds its own stopping error on top. Like plain VI's test this is a
// heuristic, not a bound (for guaranteed bounds use cpu.interval-vi).
#include <cmath>
#include <limits>

#include "graph/scc.hpp"
#include "solver/iteration.hpp"
#include "solver/minmax/bellman.hpp"
#include "solver/minmax/end_component_quotient.hpp"
#include "solver/minmax/mdp_solvers.hpp"
#include "solver/minmax/problem_row_graph.hpp"
#include "solver/minmax/scc_memory_blocks.hpp"
#include "solver/progress.hpp"
#include "solver/minmax/scc_subproblem.hpp"

namespace pmc {

namespace {

SolveStats topo_core(const MinMaxProblem& p, MinMaxSolution& solution, const SolverSettings& settings) {
  const uint64_t n = p.num_unknowns();
  std::vector<double> x = start_vector(solution.x, n, "cpu.topo-vi");
  const int threads = solver_threads(settings);
  const graph::SccDecomposition sccs = graph::strongly_connected_components(row_graph(p));
  // Unlimited budget: one block. The loop is kept block-shaped because the
  // block is what a device solver transfers (Berger 2014 §3.3).
  const std::vector<uint64_t> bytes = all_scc_bytes(p, sccs);
  const std::vector<SccBlock> blocks = group_sccs(bytes, 0);

  SolveStats stats;
  stats.kernel = "gauss-seidel";
  stats.bytes_per_iteration = bellman_bytes(p);
  stats.converged = true;
  std::vector<uint32_t> local_of(n);
  MinMaxProblem sub;
  std::vector<double> local;
  // Reports count sweeps over all SCCs (the limit applies per SCC).
  IterationDriver loop(settings, stats, "cpu.topo-vi");
  for (const SccBlock& block : blocks) {
    for (uint64_t c = block.first_scc; c <= block.last_scc; ++c) {
      const std::span<const uint32_t> states = sccs.component(c);
      if (states.size() == 1) {
        // Thousands of single-state SCCs per millisecond: the reporter's
        // stride keeps this poll cheap.
        loop.poll();
        x[states[0]] = solve_single_unknown(p, states[0], x);
        stats.iterations = std::max<uint64_t>(stats.iterations, 1);
        continue;
      }
      extract_components(p, sccs, c, c, x, local_of, sub);
      local.resize(states.size());
      for (uint64_t i = 0; i < states.size(); ++i) local[i] = x[states[i]];
      // As in cpu.vi: Gauss–Seidel unless the SCC is large and cores are many.
      BellmanSweeper sweeper(jacobi_sweeps_pay_off(states.size(), threads), settings.relative, threads);
      if (sweeper.jacobi()) stats.kernel = "gauss-seidel+jacobi";
      uint64_t sweeps = 0;
      const bool converged = loop.until_converged(sweeps, [&] { return sweeper.sweep(sub, local); });
      for (uint64_t i = 0; i < states.size(); ++i) x[states[i]] = local[i];
      stats.iterations = std::max(stats.iterations, sweeps);
      stats.converged = stats.converged && converged;
    }
  }
  loop.record_loop_seconds();
  store_values(p, std::move(x), settings.epsilon, solution);
  return stats;
}

}  // namespace

// stats.iterations: the most sweeps any one SCC needed (settings.max_iterations
// limits each SCC); converged: every SCC met the test.
SolveStats topological_value_iteration(const MinMaxProblem& p, MinMaxSolution& solution,
                                       const SolverSettings& settings) {
  return solve_from_below_with_end_components_collapsed(p, solution, settings, topo_core);
}

}  // namespace pmc
