// The numerical core of DTMC/CTMC checking, one concern per file:
// path_probabilities.cpp, rewards.cpp, long_run.cpp, transient.cpp.
#pragma once

#include <vector>

#include "check/context.hpp"
#include "property/ast.hpp"

namespace pmc {

inline constexpr double k_infinity = std::numeric_limits<double>::infinity();

// P[φ U ψ] etc. for every state. `left` is φ (all states for F/G/X), `right` ψ.
std::vector<double> path_probabilities(CheckContext& ctx, const property::PathFormula& path, const Bitset& left,
                                       const Bitset& right);

// R[...] for every state; `target` is ψ of F ψ (else unused).
std::vector<double> reward_values(CheckContext& ctx, const property::RewardFormula& formula,
                                  const RewardStructure& rewards, const Bitset& target);

// Long-run average of `state_values` (an indicator for S=?, reward rates for
// R[S]) from every state, via bottom SCCs (DTMC and CTMC).
std::vector<double> long_run_values(CheckContext& ctx, const std::vector<double>& state_values);

// Unbounded φ U ψ on the DTMC or the CTMC's embedded DTMC.
std::vector<double> unbounded_until(CheckContext& ctx, const Bitset& left, const Bitset& right);

// CTMC, uniformisation: P[φ U<=t ψ] (t ≥ 0).
std::vector<double> ctmc_bounded_until(CheckContext& ctx, const Bitset& left, const Bitset& right, double t);
// CTMC: from every state, Σ_k c_k·(P_unif^k·x0) restricted to `active` rows,
// with Fox–Glynn weights for time t: the probability of being in a state of
// value x0 at time t without leaving `active` (x0 is 0 outside it).
std::vector<double> ctmc_transient(CheckContext& ctx, const Bitset& active, std::vector<double> x0, double t);
// CTMC rewards: C<=t (cumulative) and I=t (instantaneous).
std::vector<double> ctmc_cumulative_reward(CheckContext& ctx, const std::vector<double>& rates, double t);
std::vector<double> ctmc_instantaneous_reward(CheckContext& ctx, const std::vector<double>& state_rewards, double t);

// What an MDP computation can give besides values: an optimal scheduler
// (choice per state, -1 = any) and sound bounds from interval iteration.
struct MdpExtras {
  std::vector<int64_t> scheduler;
  std::vector<double> lower, upper;
};

// MDPs (mdp_properties.cpp): Pmin/Pmax of path formulas, Rmin/Rmax.
std::vector<double> mdp_path_probabilities(CheckContext& ctx, const property::PathFormula& path, bool maximize,
                                           const Bitset& left, const Bitset& right, MdpExtras& extras);
std::vector<double> mdp_reward_values(CheckContext& ctx, const property::RewardFormula& formula, bool maximize,
                                      const RewardStructure& rewards, const Bitset& target, MdpExtras& extras);

}  // namespace pmc
