// --exact (the solver cpu.exact-pi): a property's value as a rational, from
// the model's numbers as the source defines them (model/exact_source.hpp).
// Unbounded reachability P=? [φ U ψ] / [F ψ] and expected reachability
// rewards R=? [F ψ] / T=? [F ψ] of DTMCs, CTMCs (their embedded chain)
// and MDPs (min and max). A chain's maybe states are one linear system,
// solved by rational state elimination (solver/linear/state_elimination.hpp);
// an MDP's by policy iteration, each policy's chain solved the same way and
// improved only where a choice is strictly better, from a policy under
// which every maybe state leaves the maybe states almost surely (so every
// policy met has a unique solution; docs/decisions.md "Exact results").
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "check/computations.hpp"

namespace pmc {

// Whether this build can compute exact results (GMP).
bool exact_arithmetic_available();

// The top-level query `op` exactly. `left`/`right`: φ and ψ of the
// probability's path (left all states for F), or the target of R/T's F ψ
// in `right`; `reward_index`: the reward structure (of model.rewards()),
// unused for P and T. Returns per state the double nearest the rational
// (+∞ for an infinite reward); `extras` gets the doubles just below and
// above it (the certified bounds) and an MDP's scheduler; `initial_text`
// the value in `initial_state` as "num/den" ("Infinity" for +∞, as PRISM prints it). For `op`
// with a bound (P>=0.5 [...]), `satisfying` gets the states whose rational
// meets it: compared with the rational the bound's text denotes ("0.3" is
// 3/10), or, for a bound computed from constants, with its double's exact
// value (a note says so). Throws
// Error(unsupported) for a query outside the list above or a build
// without GMP, Error(model) where the model's numbers have no exact value.
std::vector<double> exact_query_values(CheckContext& ctx, const property::Operator& op, const Bitset& left,
                                       const Bitset& right, size_t reward_index, uint64_t initial_state,
                                       ResultExtras& extras, std::string& initial_text, Bitset* satisfying = nullptr);

}  // namespace pmc
