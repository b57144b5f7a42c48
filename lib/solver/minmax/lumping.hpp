// Lumping a MinMaxProblem: unknowns that are bisimilar *for the problem*
// become one unknown (Larsen & Skou's probabilistic bisimulation, computed
// by signature refinement as Derisavi's and Storm's sparse engines do, on
// the problem rather than the model).
//
// Why: symmetric models (N identical processes, as consensus, csma, leader
// election) have many unknowns with the same value, and the hard ones need
// thousands of sweeps (consensus N=6 K=2 R{"steps"}min: SCCs whose values
// follow a shared counter's random walk, ~4500 sweeps over 1.1M unknowns).
// The quotient has the same least fixed point, lifted, and a fraction of
// the unknowns; Storm's portfolio answers that property by bisimulation.
//
// Two unknowns s, t are equivalent when, for the partition P, they have the
// same *set* of lifted rows: a row r lifts to (b_r, Σ_{c∈C} a_rc for each
// block C of P). The coarsest such P is found by refinement from one block:
// each round splits every block whose members' signatures differ. Only the
// unknowns with a successor that changed block are re-signed (a block keeps
// its id for its largest part, so few unknowns move), which keeps the late
// rounds cheap.
//
// Exactness. A block's sums are taken in one canonical order (entries sorted
// by block and value), so identical multisets give identical doubles.
// Signatures are compared by 64-bit hashes during refinement; the final
// partition is then verified exactly (every member's lifted rows equal its
// block representative's, bit for bit), and lumping is abandoned when it is
// not. Equal lifted rows mean equal Bellman updates, so the quotient's
// fixed points are exactly the original's that are constant on blocks, and
// its least fixed point lifts to the original's: bounds computed on the
// quotient are bounds of the original, up to the rounding of the sums.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "solver/minmax/end_component_quotient.hpp"
#include "solver/problem.hpp"

namespace pmc {

struct Lumping {
  MinMaxProblem problem;             // the quotient: one unknown per block
  std::vector<uint32_t> block_of;    // original unknown -> quotient unknown
  uint64_t rounds = 0;               // refinement rounds
};

// Problems smaller than this are never lumped: their solve is cheap.
inline constexpr uint64_t k_lumping_min_unknowns = 1u << 16;

// When lumping is tried: a solve first runs with a budget of k · unknowns
// unknown updates (k sweeps' worth). If it does not finish, refinement may
// compute signatures worth as many updates as the solve has done so far,
// one signature counted as k_lumping_updates_per_signature updates; if it
// is not stable by then, the solve continues with twice the budget, then
// refinement, and so on. So a solve that finishes within its first budget
// never pays for lumping, and one that does pays for refinement at most
// about as much as it has swept. The ratio is the 16-core host's: there the
// sweeps run on every core, while refinement groups each round's
// signatures on one (on 2 cores a signature costs ~4 updates). Measured
// (QVBS, ~1M unknowns): refinement took 2.5–6 signatures per unknown where
// it succeeded (consensus, csma, eajs); wlan's rewards finish in 50–110
// sweeps' worth (Gauss–Seidel on 2 cores, Jacobi on 16), consensus's
// properties need thousands.
inline constexpr uint64_t k_lumping_budget_sweeps = 200;
inline constexpr uint64_t k_lumping_updates_per_signature = 16;

// Refinement gives up once the blocks exceed this fraction of the unknowns
// (blocks only ever split): a quotient that large saves less than the
// refinement costs. The quotients above keep 0.2–11% of the unknowns;
// wlan's and zeroconf's refinements pass an eighth after hundreds and
// tens of rounds.
inline constexpr double k_lumping_max_fraction = 1.0 / 8;

// And past this many signatures per unknown: where refinement succeeded it
// took 2.5–6 (above); firewire's (false, deadline 800, ~212K unknowns)
// passed an eighth only after 130 rounds and 88 per unknown, which cost it
// more than its whole solve on 16 cores.
inline constexpr uint64_t k_lumping_max_signatures_per_unknown = 16;

// The quotient of `p` by its coarsest bisimulation, or false when it would
// keep more than k_lumping_max_fraction of the unknowns, when the exact
// check fails, or for a step-bounded problem (p.steps > 0). `threads` ≤ 0
// means all cores. Cancellation is polled between rounds.
bool lump(const MinMaxProblem& p, int threads, const std::atomic<bool>* cancel, Lumping& out);

// A solve that stops once it has done `budget` unknown updates (0: no
// limit), setting `finished` false and leaving sound partial bounds in the
// solution (x lower, upper upper; +inf where it found none).
using BudgetedMinMaxSolveFn = std::function<SolveStats(const MinMaxProblem&, MinMaxSolution&, const SolverSettings&,
                                                       uint64_t budget, bool& finished)>;

// Solves p, through its quotient when the solve proves expensive (the
// schedule above; each solve starts from the bounds the one before left).
// After lumping, each unknown takes its block's bounds and the choices are
// the original problem's optimal ones for the lifted lower values. Lumping
// is not tried when settings.lumping is off or p is small or step-bounded.
// The stats' kernel says "+lumped N→M unknowns in R rounds" or "+not
// lumpable"; stats.seconds covers all of it.
SolveStats solve_lumped(const MinMaxProblem& p, MinMaxSolution& solution, const SolverSettings& settings,
                        const BudgetedMinMaxSolveFn& solve);

}  // namespace pmc
