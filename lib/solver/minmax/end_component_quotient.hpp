// End components among the unknowns of a MinMaxProblem, and the quotient
// that collapses each into one unknown (de Alfaro 1997; Haddad & Monmege
// 2014 and Baier et al., CAV 2017, for interval iteration).
//
// Why: in an end component a scheduler can keep a run among the unknowns
// forever while earning nothing. Then the Bellman operator has many fixed
// points: for maximize, iteration from above (interval iteration's upper
// bound) stays at its start (state 0 with a self-loop choice: u = max(u, ½)
// keeps u = 1); for minimize expected rewards with zero-reward cycles,
// iteration from below stays at 0. In the quotient every such component is
// one unknown whose choices are the choices leaving it, and the fixed point
// is unique.
//
// A choice is *internal* to a set C of unknowns when it earns nothing
// (b_r = 0), keeps all its mass among the unknowns (Σ_j a_rj = 1: mass that
// leaves goes to the target or to a zero state, which is progress a
// scheduler may want) and all its entries lie in C. An end component is a C
// strongly connected through internal choices with at least one internal
// choice per state; the maximal ones are graph/end_components.hpp's search
// with only the silent rows allowed.
//
// For minimize this collapses exactly the zero-reward end components of an
// expected-reward problem (where staying forever costs ∞, so an optimal
// scheduler moves freely inside at no cost and leaves by the cheapest
// exit). Probability problems of the checker have none for minimize: an end
// component among the unknowns would make P_min = 0 there, and
// precomputation puts such states among the known zeros.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "solver/problem.hpp"

// Declared, not included: cuda/ sources include this header and nvcc builds
// them as C++17, which the graph headers (C++20) do not compile under.
namespace pmc::graph {
struct MecDecomposition;
}  // namespace pmc::graph

namespace pmc {

// Σ_j a_rj ≥ 1 − k_leak_tolerance counts as "no mass leaves": the checker's
// rows are restrictions of stochastic rows, whose sums carry rounding of a
// few ulps per entry.
inline constexpr double k_leak_tolerance = 1e-10;

// Row r earns nothing and keeps all its mass among the unknowns: the only
// kind of choice a run can take forever without progress.
inline bool row_is_silent(const MinMaxProblem& p, uint64_t r) {
  if (p.b[r] != 0.0 || p.a.row_offsets[r] == p.a.row_offsets[r + 1]) return false;
  double sum = 0.0;
  for (uint64_t e = p.a.row_offsets[r]; e < p.a.row_offsets[r + 1]; ++e) sum += p.a.values[e];
  return sum >= 1.0 - k_leak_tolerance;
}

// Maximal end components over internal choices, as defined above: mec_of
// per unknown, and `choices` holds exactly the internal rows.
graph::MecDecomposition silent_end_components(const MinMaxProblem& problem);

// The problem with every end component collapsed into one unknown.
struct EndComponentQuotient {
  static constexpr uint64_t k_no_row = std::numeric_limits<uint64_t>::max();
  MinMaxProblem problem;
  std::vector<uint32_t> state_of;    // original unknown -> quotient unknown
  std::vector<uint64_t> row_origin;  // quotient row -> original row (k_no_row: see below)
};

// A collapsed unknown's choices are the non-internal choices of all its
// members (b and a kept, columns mapped; a row may then name a column twice,
// and every consumer sums entries). A component with no such choice never
// leaves and never earns: it gets one empty choice (value 0, the least fixed
// point; for rewards the checker has already made such states infinite).
EndComponentQuotient collapse_end_components(const MinMaxProblem& problem, const graph::MecDecomposition& ecs);

// A vector over the unknowns mapped onto a quotient's `count` unknowns
// through `state_of` (every quotient unknown must have a member): each
// takes the maximum of its members' values (`take_max`) or the minimum;
// and back, each unknown taking its quotient unknown's value. The end
// component quotient below and lumping (lumping.hpp) both map through these.
std::vector<double> restrict_values(const std::vector<uint32_t>& state_of, uint64_t count,
                                    const std::vector<double>& values, bool take_max);
std::vector<double> expand_values(const std::vector<uint32_t>& state_of, const std::vector<double>& quotient_values);

// Quotient vector from a vector over the unknowns: a collapsed unknown takes
// the minimum (`take_max` false: keeps a lower start a lower bound) or the
// maximum (an upper start stays an upper bound) of its members.
std::vector<double> restrict_values(const EndComponentQuotient& q, const std::vector<double>& values, bool take_max);

// Values over the unknowns from quotient values: members share their value.
std::vector<double> expand_values(const EndComponentQuotient& q, const std::vector<double>& quotient_values);

// Choices over the unknowns: a member that owns the collapsed unknown's
// chosen exit takes it; every other member takes an internal choice one step
// closer to that member (backward BFS inside the component), so the induced
// chain reaches the exit with probability 1 and earns nothing on the way.
std::vector<uint32_t> expand_choices(const MinMaxProblem& problem, const graph::MecDecomposition& ecs,
                                     const EndComponentQuotient& q, const std::vector<uint32_t>& quotient_choice);

// Runs `solve` on the quotient when `problem` has end components (mapping
// solution.x as a lower and solution.upper as an upper start, expanding x,
// upper and choice back), else on `problem` itself. stats.seconds covers
// the search and the mapping too (whatever `solve` put there is replaced).
using MinMaxSolveFn = std::function<SolveStats(const MinMaxProblem&, MinMaxSolution&, const SolverSettings&)>;
SolveStats solve_with_end_components_collapsed(const MinMaxProblem& problem, MinMaxSolution& solution,
                                               const SolverSettings& settings, MinMaxSolveFn solve);

// The search and the collapse of solve_with_end_components_collapsed done
// once, for a problem solved in several calls (lumping's budgeted attempts,
// lumping.hpp). Holds a reference to `problem`, which must outlive it.
class EndComponentsCollapsed {
 public:
  explicit EndComponentsCollapsed(const MinMaxProblem& problem);
  const MinMaxProblem& problem() const { return problem_; }
  // As solve_with_end_components_collapsed, on the components found here.
  SolveStats solve(MinMaxSolution& solution, const SolverSettings& settings, const MinMaxSolveFn& solve) const;

 private:
  const MinMaxProblem& problem_;
  std::shared_ptr<const graph::MecDecomposition> ecs_;  // shared_ptr: the type is only declared here
  std::optional<EndComponentQuotient> quotient_;  // none: no end components
};

// The same for solvers that only iterate from below (value iteration): for
// maximize, end components do no harm (iteration from below converges to
// the least fixed point), so the search is skipped and `solve` runs on
// `problem` itself; stats.seconds is set either way.
SolveStats solve_from_below_with_end_components_collapsed(const MinMaxProblem& problem, MinMaxSolution& solution,
                                                          const SolverSettings& settings, MinMaxSolveFn solve);

}  // namespace pmc
