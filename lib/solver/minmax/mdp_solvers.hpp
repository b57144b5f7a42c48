// The CPU solvers of MinMaxProblems (MDP min/max reachability and expected
// rewards), registered in registry.cpp as cpu.vi, cpu.topo-vi and
// cpu.interval-vi. All take solution.x as the start (lower) vector (empty:
// zeros) and fill solution.x and solution.choice (the optimal row per
// unknown, 0-based within its group); interval iteration also fills
// solution.upper. Convergence: max over unknowns of convergence_difference
// below settings.epsilon (relative or absolute as settings.relative), as
// PRISM and Berger 2014 §3.5 do.
//
// Minimize problems may contain zero-reward end components (expected
// rewards); the three unbounded solvers collapse them first
// (end_component_quotient.hpp), otherwise iteration from 0 would stay at 0
// inside them. For maximize only interval iteration needs the quotient:
// iteration from below converges to the least fixed point regardless.
// A start vector of the wrong size throws Error(invalid_argument).
#pragma once

#include "solver/problem.hpp"

namespace pmc {

// "cpu.vi": value iteration (Berger 2014 §2.6, Algorithm 2). Gauss–Seidel
// sweeps in place (sequential; each update sees this sweep's earlier
// updates, so it converges in fewer sweeps) unless the problem has more
// than k_parallel_rows unknowns and more than one thread is available; then
// Jacobi sweeps (every state reads the previous iterate) on all cores.
// stats.kernel says which ("gauss-seidel" or "jacobi").
SolveStats value_iteration(const MinMaxProblem& problem, MinMaxSolution& solution, const SolverSettings& settings);

// "cpu.vi" for bounded properties: exactly problem.steps Jacobi iterations
// x ← B(x) from solution.x. solution.choice is the choice of the last
// iteration, i.e. the optimal first step with problem.steps steps to go.
SolveStats value_iteration_steps(const MinMaxProblem& problem, MinMaxSolution& solution,
                                 const SolverSettings& settings);

// "cpu.topo-vi": topological value iteration (Berger 2014 §2.7, §3.3): the
// SCCs of the problem graph solved one at a time, successors first, each
// until it meets the convergence test; a single unknown is solved exactly.
// SCCs are grouped into blocks by scc_memory_blocks.hpp (unlimited budget here; the
// block is the GPU's unit of transfer).
SolveStats topological_value_iteration(const MinMaxProblem& problem, MinMaxSolution& solution,
                                       const SolverSettings& settings);

// "cpu.interval-vi": sound interval iteration (Haddad & Monmege 2014; Baier
// et al., CAV 2017) on the end-component quotient. Stops when, for every
// unknown, bounds_close (solver/convergence.hpp): upper − lower ≤ 2ε·|lower|
// (relative, floored at 1e-9) or ≤ 2ε (absolute).
// solution.x = lower bounds, solution.upper = upper bounds. Upper start:
// solution.upper if given, else problem.upper_bound if finite, else one
// found by optimistic value iteration (Hartmanns & Kaminski, CAV 2020).
SolveStats interval_value_iteration(const MinMaxProblem& problem, MinMaxSolution& solution,
                                    const SolverSettings& settings);

// "cpu.optimistic-vi": optimistic value iteration (Hartmanns & Kaminski, CAV 2020) on
// the end-component quotient: value iteration on the lower bounds until
// their change is small, then a guessed upper bound, kept only once one
// sweep shows it inductive (B(u) ≤ u), then interval sweeps until the
// bounds meet as for cpu.interval-vi — also where the problem has an
// a-priori bound (probabilities: 1), which cpu.interval-vi starts from.
// Where no guess holds within the attempts, interval iteration from the
// a-priori bound; without one, not sound (stats.sound false). Same contract
// as cpu.interval-vi.
SolveStats optimistic_value_iteration(const MinMaxProblem& problem, MinMaxSolution& solution,
                                      const SolverSettings& settings);

// "cpu.sound-vi" (sound_value_iteration.cpp): sound value iteration
// (Quatmann & Katoen, CAV 2018) on the end-component quotient: the k-step
// values x_k and the mass y_k still among the unknowns in one sweep, the
// bounds x_k + y_k·[lower, upper] from scalar bounds on all values. Same
// contract as cpu.interval-vi, except that a given solution.upper is not
// used (the sweeps start from x = 0, y = 1); b must be non-negative
// (invalid_argument).
SolveStats sound_value_iteration(const MinMaxProblem& problem, MinMaxSolution& solution,
                                 const SolverSettings& settings);

// "cpu.topo-interval-vi" (topological_interval_iteration.cpp): interval
// iteration SCC by SCC in dependency order, with a precision schedule that
// keeps the final gaps within bounds_close at ε; the sound default for MDPs
// on the CPU. Same contract as cpu.interval-vi.
SolveStats topological_interval_iteration(const MinMaxProblem& problem, MinMaxSolution& solution,
                                          const SolverSettings& settings);

}  // namespace pmc
