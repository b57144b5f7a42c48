// Reward-bounded reachability, P[ψ U^{rew{"r"} ~ b} φ] (F: ψ = true) of a
// DTMC and Pmin/Pmax of an MDP, by epoch unfolding (Hartmanns, Junges,
// Katoen & Quatmann, "Multi-cost bounded reachability in MDP", TACAS 2018,
// §4, with one cost dimension).
//
// Rewards must be non-negative integers; a step earns the state reward of
// the state it leaves plus its transition (action) reward, PRISM's
// convention. Rounded to integers, the bounds are `<=K` (a strict `<b` is
// `<=ceil(b)-1`) and `>=N` (`>b` is `>=floor(b)+1`).
//
// Upper bound `<=K`: epoch e ∈ 0..K is the reward still allowed. v_e(s) is
// 1 on φ, 0 outside ψ, and otherwise the (optimal) expectation of one step:
// a step earning c moves to v_{e-c} (0 when e-c < 0). Steps without reward
// stay in epoch e, so each epoch is an ordinary reachability problem over
// the ψ∖φ states (check/epoch_problem.hpp) whose constants come from the
// lower epochs; the answer is v_K.
//
// Lower bound `>=N`: epoch e is the reward still needed. Once it is reached
// (e ≤ 0) what remains is ψ U φ unbounded, solved once; for e ∈ 1..N,
// w_e(s) is 0 outside ψ and otherwise the one-step expectation, φ states
// included (φ counts only once the reward is earned). The answer is w_N.
//
// Only the last largest-reward + 1 epochs are kept. Every epoch is solved by
// the solver the options choose, so the result is certified like the rest
// of pmc: the epoch's problem is monotone in its constants, so solving it
// on the lower bounds of the lower epochs gives a lower bound (the solve's
// own), on their upper bounds an upper bound (two solves where they
// differ). Widths add up over the epochs, relative to the values, so each
// solve runs at ε/(2·epochs) (a lower bound's unbounded values at ε/2, its
// epochs' solves at ε/(4·epochs)). Where no zero-reward step can return (the
// epochs' matrix is acyclic, and shallow), a few exact Bellman steps solve
// an epoch instead (step-bounded, exact like F<=k). An MDP gets no
// scheduler: an optimal one depends on the reward collected so far.
#pragma once

#include <vector>

#include "check/computations.hpp"

namespace pmc {

// `path` has a reward bound (bound by bind_definitions); `left` is ψ (every
// state for F), `right` φ; `maximize` only for MDPs. Throws
// Error(unsupported) on a CTMC and for rewards that are no non-negative
// integers.
std::vector<double> reward_bounded_probabilities(CheckContext& ctx, const property::PathFormula& path,
                                                 const RewardStructure& rewards, bool maximize, const Bitset& left,
                                                 const Bitset& right, ResultExtras& extras);

}  // namespace pmc
