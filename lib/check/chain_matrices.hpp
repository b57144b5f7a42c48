// The matrices the checker derives from a DTMC or CTMC, and the problem
// builders that restrict them to the states a solve needs.
#pragma once

#include <cstdint>
#include <vector>

#include "common/bitset.hpp"
#include "model/model.hpp"
#include "solver/problem.hpp"

namespace pmc {

// A borrowed CSR matrix with one row per state.
struct CsrView {
  const uint64_t* offsets;
  const uint32_t* columns;
  const double* values;
  uint64_t rows;
};

// Transition probabilities: the DTMC itself, or a CTMC's embedded DTMC
// (P(s,t) = R(s,t)/E(s); a state without transitions gets a self-loop).
// The embedded matrix is built once per model and cached on it.
CsrView probability_matrix(const Model& model);

// A CTMC's exit rates E(s) = Σ_{t≠s} R(s,t) (self-loops change nothing in
// continuous time). Cached on the model.
const std::vector<double>& exit_rates(const Model& model);

// x = A·x + b over the states in `unknowns`: A is P restricted to them, and
// b(s) = Σ_{t ∉ unknowns} P(s,t)·known(t) + extra(s) (extra may be empty).
// index[s] is the unknown number of state s (unused for other states).
LinearSystem restrict_linear(const CsrView& p, const Bitset& unknowns, const std::vector<double>& known,
                             const std::vector<double>& extra, std::vector<uint32_t>& index);

// P with only the rows of `active` states (other rows empty): one step of a
// bounded iteration where inactive states keep the value b gives them.
SparseMatrix masked_matrix(const CsrView& p, const Bitset& active);

// The uniformised DTMC of a CTMC, P = I + Q/q, masked like masked_matrix.
SparseMatrix uniformised_matrix(const Model& ctmc, double q, const Bitset& active);

// The uniformisation rate PRISM uses: 1.02 × the largest exit rate (1 when
// every state is absorbing).
double uniformisation_rate(const Model& ctmc);

// Expected reward earned per step from each state (DTMC: r(s) + Σ P(s,t)·ι(s,t))
// or per time unit (CTMC: r(s) + Σ_{t≠s} R(s,t)·ι(s,t)).
std::vector<double> reward_rates(const Model& model, const RewardStructure& rewards);

// Of a CTMC, the reward earned per visit of the embedded DTMC:
// r(s)/E(s) + Σ_t P(s,t)·ι(s,t).
std::vector<double> embedded_rewards(const Model& ctmc, const RewardStructure& rewards);

}  // namespace pmc
