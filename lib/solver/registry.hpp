// The solver registry (docs/design.md §4): every solver, CPU or GPU, by its stable,
// user-visible name, with the problems it solves. The only place that
// connects lib/check/ (problems) with solvers; registry.cpp lists them all.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "solver/param/param_problem.hpp"
#include "solver/problem.hpp"

namespace pmc {

enum class ProblemKind { linear_system, stationary, bounded_steps, min_max, min_max_steps, param_bounds, reachability };
std::string_view to_string(ProblemKind kind);

enum class DeviceKind { cpu, gpu };

using LinearSolve = SolveStats (*)(const LinearSystem&, std::vector<double>& x, const SolverSettings&);
// Sound solvers of linear systems: `lower` holds the lower start on entry
// (empty: zeros), `upper` is empty on entry (the upper start is
// system.upper_bound when finite, else one the solver finds); both are
// filled with certified bounds (stats.sound).
using LinearBoundsSolve = SolveStats (*)(const LinearSystem&, std::vector<double>& lower, std::vector<double>& upper,
                                         const SolverSettings&);
using StationarySolve = SolveStats (*)(const StationarySystem&, std::vector<double>& x, const SolverSettings&);
// Certified bounds on one bottom SCC's long-run average (LongRunProblem):
// the certified form of a stationary solve, offered by the solvers that
// solve stationary systems (ProblemKind::stationary).
using LongRunSolve = SolveStats (*)(const LongRunProblem&, LongRunBounds& bounds, const SolverSettings&);
using StepSolve = SolveStats (*)(const StepProblem&, std::vector<double>& result, const SolverSettings&);
// solution.x holds the start vector on entry (the lower start for interval
// iteration, whose upper start is problem.upper_bound when finite);
// solution.upper is empty on entry and filled only by solvers that give bounds.
using MinMaxSolve = SolveStats (*)(const MinMaxProblem&, MinMaxSolution& solution, const SolverSettings&);
using ReachabilitySolve = SolveStats (*)(const ReachabilityProblem&, ReachabilitySolution&, const SolverSettings&);
// Bounds over many parameter regions of a pCTMC at once (param_solvers.hpp).
using ParamBoundsSolve = SolveStats (*)(const ParamBoundsProblem&, const std::vector<ParamBox>& boxes,
                                        std::vector<ParamBounds>& out, const SolverSettings&);

struct SolverEntry {
  std::string name;     // e.g. "cpu.jacobi"; never changes
  DeviceKind device;
  std::string summary;  // one line for `pmc solvers`
  LinearSolve linear = nullptr;
  StationarySolve stationary = nullptr;
  // A stationary solver's certified long-run bounds (sound settings).
  LongRunSolve long_run = nullptr;
  StepSolve steps = nullptr;
  MinMaxSolve min_max = nullptr;
  // Exactly MinMaxProblem::steps Jacobi-style iterations (bounded MDP properties).
  MinMaxSolve min_max_steps = nullptr;
  ParamBoundsSolve param_bounds = nullptr;
  // Sound solvers of linear systems (interval iteration) fill this instead
  // of `linear`.
  LinearBoundsSolve linear_bounds = nullptr;
  // DTMC/CTMC reachability on the whole chain, precomputation included
  // (device-resident: the checker skips its host precomputation).
  ReachabilitySolve reachability = nullptr;
  // Certifies every answer of its unbounded problems with lower/upper bounds
  // (`auto` picks these unless the options say unsound).
  bool sound = false;

  bool solves(ProblemKind kind) const;
};

const std::vector<SolverEntry>& solver_registry();

// Throws Error(invalid_argument) naming the known solvers.
const SolverEntry& find_solver(std::string_view name);

// "auto", "cpu" and "gpu" choose per problem; anything else names a solver.
bool is_automatic_choice(std::string_view requested);
// Throws Error(invalid_argument) unless `requested` is an automatic choice,
// a registered name or k_exact_solver.
void validate_solver_choice(std::string_view requested);

// The exact solver (check/exact_check.hpp): not a registry entry, since it
// solves no numerical problem of the registry's kinds but a whole query in
// rationals; naming it as the solver is the same as asking for exact results.
inline constexpr std::string_view k_exact_solver = "cpu.exact-pi";
inline constexpr std::string_view k_exact_solver_summary =
    "exact rationals (GMP) of unbounded reachability and reachability rewards: state elimination, policy iteration "
    "for MDPs (also --exact)";

// The smallest convergence threshold accepted: ~4.5 units in the last place
// of 1. Below it double arithmetic cannot bring successive iterates (or a
// sound solver's bounds) that close, and a solve would only run into its
// iteration limit (1e-300 ran 1 000 000 iterations to "not converged").
inline constexpr double k_min_epsilon = 1e-15;
// Throws invalid_argument unless k_min_epsilon <= epsilon < 1.
void validate_epsilon(double epsilon);

// What `auto` knows of a problem beyond its size (solver/device/cost_model.hpp).
struct ChoiceHint {
  uint64_t iterations = 0;  // exactly this many (bounded steps); 0: unknown
  bool resident = false;    // the GPU already holds the matrix
  bool min_max = false;     // a reachability problem of an MDP: the MDP prior applies
};

// Where `auto` starts a problem on the CPU while CUDA starts, the GPU solver
// to hand it over to once the GPU is up (solver/device/handover.hpp).
struct Handover {
  const SolverEntry* gpu = nullptr;  // null: the CPU's solve runs alone
  double speedup = 0;                // predicted CPU / GPU time per iteration
  double upload_seconds = 0;         // predicted seconds to move the problem to the GPU
  double start_after = 0;            // seconds of CPU solve before it starts CUDA (if nothing did)
};

// The solver for one problem of `entries` non-zeros and `rows` rows.
// With settings.sound (the default) "auto", "cpu" and "gpu" choose a sound
// solver for linear systems and min/max problems (stationary
// distributions have none); unsound, the fastest one.
//  - "auto" (or empty): from the cost model (solver/device/cost_model.hpp):
//    the CPU's solver when its predicted time is below what the GPU needs
//    at least (start-up included until CUDA is up) — decided without
//    touching CUDA —, else the GPU's when a GPU is usable, the problem fits
//    its memory (settings.gpu_memory_limit, else the free memory; an MDP
//    that does not fit goes to gpu.topo-vi's blocks) and its predicted
//    time is lower. Parametric bounds go to the GPU whenever there is one
//    (their work is regions × states).
//  - "cpu" / "gpu": the CPU's / the GPU's solver for the kind (GPU: where
//    one exists, else the CPU's, saying so).
//  - a name: that solver when it solves `kind`, else the "auto" choice, so
//    one --solver can serve a property made of several problems (the result
//    reports every solver used). The checker fails a property whose
//    problems the named solver solves none of.
// `reason` says why (with the prediction, for "auto").
//
// `handover`, when given, may receive a GPU solver: CUDA is not up yet,
// the program allows background starts, the GPU would iterate at least
// k_handover_min_speedup times faster once up, and the problem is bounded
// steps (whose predictions are upper bounds) or one the CPU is predicted
// to win with the start-up counted — "auto" then returns the CPU's solver
// and the caller runs it through solve_handing_over. Linear systems,
// min/max problems and their bounded-step forms only.
const SolverEntry& choose_solver(ProblemKind kind, std::string_view requested, uint64_t entries, uint64_t rows,
                                 const SolverSettings& settings, std::string& reason, const ChoiceHint& hint = {},
                                 Handover* handover = nullptr);

// Runs `solver` on a linear system whichever way it solves one: x holds
// the start on entry and the solution on exit (a sound solver's: the
// midpoint of its bounds, which go to `lower`/`upper` when given; they are
// left empty for an unsound solver).
SolveStats run_linear(const SolverEntry& solver, const LinearSystem& system, std::vector<double>& x,
                      const SolverSettings& settings, std::vector<double>* lower = nullptr,
                      std::vector<double>* upper = nullptr);

// Whether `name` (a registered solver) solves a problem of `kind`.
bool solver_solves(std::string_view name, ProblemKind kind);

}  // namespace pmc
