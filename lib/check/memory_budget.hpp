// What a check will hold in host memory, estimated before it is
// allocated, so that a property too big for the memory limit
// (SolverSettings::memory_limit; 0 = the machine's) fails with
// Error(out_of_memory) at once, naming what it needs, instead of after
// minutes of building or by the kernel's OOM killer.
//
// Three checks, each before what it counts is allocated:
//  - per operator (CheckContext::require_operator_memory): when a P/R/S
//    operator's computation starts, what it holds whatever the
//    precomputation decides — the model, the derived data its kind builds
//    (transposed graph, embedded DTMC, BSCCs), the uniformisation weights
//    and the result vectors;
//  - per problem (CheckContext::require_problem_memory): once the unknowns
//    are known, before the equation system or iteration matrix is built
//    from them — the same plus that problem, of the exact size of the
//    unknowns' rows, and the requested solver's vectors;
//  - per solve (estimate_solve): the problem as built and the solver as
//    chosen (a GPU solver: its host-side staging).
// One function, estimate_computation(), gives all three for each kind of
// computation; it counts the large arrays (vectors of n doubles, CSR
// matrices at 8 B per row + 12 B per entry) and is meant to be within about
// 2× of the real peak, above rather than below. README's "Memory limit"
// lists the terms. Notation: n states, m entries of the model's matrix.
#pragma once

#include <cstdint>
#include <string>

#include "common/bitset.hpp"
#include "model/model.hpp"
#include "property/ast.hpp"
#include "solver/registry.hpp"

namespace pmc {

// A computation's peak, by part.
struct MemoryEstimate {
  uint64_t model = 0;    // the model's own arrays (model_bytes)
  uint64_t derived = 0;  // data derived from the model and cached on it: transposed graph, embedded DTMC, BSCCs
  uint64_t problem = 0;  // the equation system or iteration matrix, its right-hand side, index maps, iterates
  uint64_t solver = 0;   // the solver's working vectors, uniformisation weights
  uint64_t results = 0;  // values, certified bounds, scheduler, state sets

  uint64_t total() const;
  // "model 1.2 MiB + derived data 0.4 MiB + ..." (the parts that are not 0).
  std::string describe() const;
};

// The kinds of computation a property is made of (lib/check/*.cpp).
//  reachability: unbounded φ U ψ (and F, G) of a DTMC/CTMC, expected
//    reachability rewards, long-run values' transient part: transposed
//    graph + (CTMC) embedded DTMC; a linear system over the maybe states,
//    its b, index map and x, lower, upper; the solver's vectors.
//  bounded_steps: DTMC U<=k, C<=k, I=k: transposed graph; the matrix's
//    active rows, b, x0 and the result; the stepping vectors.
//  uniformisation: CTMC time bounds: transposed graph and exit rates; the
//    uniformised active rows (one more entry per row), b, x0, result; the
//    stepping vectors and Fox–Glynn's weights (~110·sqrt(q·t) doubles).
//  long_run: S and R[S]: BSCCs and their search; one BSCC's stationary
//    system (its rows transposed) or the transient states' linear system.
//  mdp_reachability: Pmin/Pmax unbounded, Rmin/Rmax [F]: transposed graph
//    with its row map; the restricted MDP (row groups, choices, b, each
//    choice's model row), an end-component quotient (one more copy),
//    per-choice rewards; the solver's vectors; values, bounds, scheduler.
//  mdp_bounded_steps: Pmin/Pmax U<=k, Rmin/Rmax C<=k, I=k: the same without
//    the quotient.
enum class Computation { reachability, bounded_steps, uniformisation, long_run, mdp_reachability, mdp_bounded_steps };

// "the linear system", "the uniformised chain", ... (for messages).
std::string_view problem_name(Computation kind);

// The computation `op` (the top of a P/R/S operator) makes on `model`.
Computation computation_of(const Model& model, const property::Operator& op);

// The unknowns of a problem: how many, their rows (an MDP's choices; the
// states otherwise) and the entries of those rows in the matrix the problem
// restricts (for a CTMC one more per row: the embedded DTMC's self-loop or
// the uniformised diagonal).
struct ProblemShape {
  uint64_t unknowns = 0, rows = 0, entries = 0;
};
ProblemShape shape_of(const Model& model, const Bitset& unknowns);
// Every state unknown: the largest problem the model allows.
ProblemShape whole_model(const Model& model);

// The estimate of a computation of `kind` on `model` whose problem has
// `shape` (a shape of 0 unknowns: the part that does not depend on the
// precomputation). `solver` is the requested solver ("auto", "cpu", "gpu"
// or a name: its working vectors; `settings` for a GPU solver's layout).
// `lambda` (uniformisation only) is q·t, the Poisson mean that sizes the
// weights.
MemoryEstimate estimate_computation(Computation kind, const Model& model, const ProblemShape& shape,
                                    std::string_view solver, const SolverSettings& settings, double lambda = 0);

// Before `op`'s computation: estimate_computation of its kind with no
// problem yet (for CTMC time bounds, λ from the model's uniformisation
// rate, which this computes and caches).
MemoryEstimate estimate_operator(const Model& model, const property::Operator& op, std::string_view solver,
                                 const SolverSettings& settings);

// Host bytes `solver` allocates beyond its problem and the caller's
// vectors, for a problem of `kind` with `unknowns` unknowns, `rows` rows
// and `entries` entries.
uint64_t solver_working_bytes(const SolverEntry& solver, ProblemKind kind, uint64_t unknowns, uint64_t rows,
                              uint64_t entries, const SolverSettings& settings);

// Before one solve: the model, its derived data (estimated as above), the
// problem as built (`problem_bytes`), the solver's working bytes and the
// results.
MemoryEstimate estimate_solve(const Model& model, const SolverEntry& solver, ProblemKind kind, uint64_t unknowns,
                              uint64_t rows, uint64_t entries, uint64_t problem_bytes, const SolverSettings& settings);

// Bytes a built problem holds (its vectors' capacities).
uint64_t problem_bytes(const LinearSystem& system);
uint64_t problem_bytes(const StationarySystem& system);
uint64_t problem_bytes(const LongRunProblem& problem);
uint64_t problem_bytes(const StepProblem& problem);
uint64_t problem_bytes(const MinMaxProblem& problem);

// Throws Error(out_of_memory) when `estimate` exceeds settings.memory_limit
// (0: the machine's memory); `what` names the computation.
void require_estimate(const MemoryEstimate& estimate, const SolverSettings& settings, std::string_view what);

}  // namespace pmc
