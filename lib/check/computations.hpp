// The numerical core of DTMC/CTMC checking, one concern per file:
// path_probabilities.cpp, rewards.cpp, long_run.cpp, transient.cpp.
#pragma once

#include <vector>

#include "check/context.hpp"
#include "property/ast.hpp"

namespace pmc {

inline constexpr double k_infinity = std::numeric_limits<double>::infinity();

// What a computation can give besides values: an optimal scheduler (MDPs:
// choice per state, -1 = any) and the certified bounds of a sound solve
// (empty when the values came from exact steps or were not certified).
struct ResultExtras {
  std::vector<int64_t> scheduler;
  std::vector<double> lower, upper;
};

// P[φ U ψ] etc. for every state. `left` is φ (all states for F/G/X), `right` ψ.
std::vector<double> path_probabilities(CheckContext& ctx, const property::PathFormula& path, const Bitset& left,
                                       const Bitset& right, ResultExtras& extras);

// R[...] for every state; `target` is ψ of F ψ (else unused).
std::vector<double> reward_values(CheckContext& ctx, const property::RewardFormula& formula,
                                  const RewardStructure& rewards, const Bitset& target, ResultExtras& extras);

// Long-run average of `state_values` (an indicator for S=?, reward rates for
// R[S]) from every state, via bottom SCCs (DTMC and CTMC); certified
// bounds into `extras` when every BSCC was solved exactly.
std::vector<double> long_run_values(CheckContext& ctx, const std::vector<double>& state_values, ResultExtras& extras);

// The optimal (`maximize`: maximal) long-run average reward of an MDP from
// every state, `row_rewards` earned per choice (an indicator of a state
// set's rows for LRA=? [ φ ]): through its maximal end components' gains
// (mdp_long_run.cpp); certified bounds into `extras` when the solves give
// them.
std::vector<double> mdp_long_run_values(CheckContext& ctx, const std::vector<double>& row_rewards, bool maximize,
                                        ResultExtras& extras);

// Unbounded φ U ψ on the DTMC or the CTMC's embedded DTMC; bounds into
// `extras` when the solve certified them.
std::vector<double> unbounded_until(CheckContext& ctx, const Bitset& left, const Bitset& right, ResultExtras& extras);

// Values of known states plus a solve's (values, lower, upper) over the
// unknowns `maybe` (unknown i of state s is index[s]), into values and, when
// the solve gave bounds, extras.lower/upper (known states: lower = upper).
void scatter_solution(const Bitset& maybe, const std::vector<uint32_t>& index, const std::vector<double>& x,
                      const std::vector<double>& lower, const std::vector<double>& upper, std::vector<double>& values,
                      ResultExtras& extras);

// DTMC: `steps` steps of x ← P·x + b from x0, with only the rows of
// `active` states in P (masked_matrix: the other states take b's value,
// 0 where b is empty). Bounded until and the DTMC's step-bounded rewards.
std::vector<double> dtmc_steps(CheckContext& ctx, const Bitset& active, std::vector<double> b,
                               std::vector<double> x0, uint64_t steps);

// P[G ψ] from P[F ¬ψ] (G ψ = ¬F ¬ψ, with the same bound), in place:
// values become 1 − v (clamped at 0 against rounding), and certified bounds
// in `extras` swap and complement the same way.
void complement_probabilities(std::vector<double>& values, ResultExtras& extras);

// CTMC, uniformisation: P[φ U<=t ψ] (t ≥ 0).
std::vector<double> ctmc_bounded_until(CheckContext& ctx, const Bitset& left, const Bitset& right, double t);
// CTMC: from every state, Σ_k c_k·(P_unif^k·x0) restricted to `active` rows,
// with Fox–Glynn weights for time t: the probability of being in a state of
// value x0 at time t without leaving `active` (x0 is 0 outside it).
std::vector<double> ctmc_transient(CheckContext& ctx, const Bitset& active, std::vector<double> x0, double t);
// CTMC rewards: C<=t (cumulative) and I=t (instantaneous).
std::vector<double> ctmc_cumulative_reward(CheckContext& ctx, const std::vector<double>& rates, double t);
std::vector<double> ctmc_instantaneous_reward(CheckContext& ctx, const std::vector<double>& state_rewards, double t);

// MDPs (mdp_properties.cpp): Pmin/Pmax of path formulas, Rmin/Rmax.
std::vector<double> mdp_path_probabilities(CheckContext& ctx, const property::PathFormula& path, bool maximize,
                                           const Bitset& left, const Bitset& right, ResultExtras& extras);
std::vector<double> mdp_reward_values(CheckContext& ctx, const property::RewardFormula& formula, bool maximize,
                                      const RewardStructure& rewards, const Bitset& target, ResultExtras& extras);

}  // namespace pmc
