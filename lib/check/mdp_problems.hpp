// Building the Bellman problems of an MDP restricted to its "maybe" states.
#pragma once

#include <vector>

#include "common/bitset.hpp"
#include "model/model.hpp"
#include "solver/problem.hpp"

namespace pmc {

// Unknowns are the states of `unknowns`; every choice of such a state is a
// row, except those `excluded` marks (indexed by model row; may be empty).
// b_r = Σ_{t ∉ unknowns} P(r,t)·known(t) + extra(r) (known/extra may be
// empty). index[s] is the unknown number of state s; model_row[r] is the
// model row of problem row r (one flat array, not a vector per unknown:
// millions of small allocations showed in profiles).
struct MdpProblem {
  MinMaxProblem problem;
  std::vector<uint32_t> index;
  std::vector<uint64_t> model_row;
  // The model row of unknown u's choice `choice` (0-based among kept rows).
  uint64_t row_of(uint32_t u, uint32_t choice) const { return model_row[problem.row_groups[u] + choice]; }
};

MdpProblem restrict_mdp(const Model& mdp, const Bitset& unknowns, const std::vector<double>& known,
                        const std::vector<double>& extra, const std::vector<bool>& excluded, bool maximize,
                        int threads);

// Expected reward of each choice: r(s) + Σ_t P(r,t)·ι(r,t).
std::vector<double> choice_rewards(const Model& mdp, const RewardStructure& rewards);

}  // namespace pmc
