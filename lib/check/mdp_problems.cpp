#include "check/mdp_problems.hpp"

namespace pmc {

MdpProblem restrict_mdp(const Model& mdp, const Bitset& unknowns, const std::vector<double>& known,
                        const std::vector<double>& extra, const std::vector<bool>& excluded, bool maximize) {
  MdpProblem out;
  const uint64_t n = mdp.num_states();
  out.index.assign(n, 0);
  uint32_t next = 0;
  for (uint64_t s = unknowns.find_next(0); s < n; s = unknowns.find_next(s + 1)) out.index[s] = next++;
  MinMaxProblem& p = out.problem;
  p.maximize = maximize;
  p.row_groups.reserve(next + 1);
  const auto& groups = mdp.row_groups();
  const auto& offsets = mdp.row_offsets();
  for (uint64_t s = unknowns.find_next(0); s < n; s = unknowns.find_next(s + 1)) {
    for (uint64_t r = groups[s]; r < groups[s + 1]; ++r) {
      if (!excluded.empty() && excluded[r]) continue;
      double b = extra.empty() ? 0.0 : extra[r];
      for (uint64_t k = offsets[r]; k < offsets[r + 1]; ++k) {
        const uint32_t t = mdp.columns()[k];
        if (unknowns.test(t)) {
          p.a.columns.push_back(out.index[t]);
          p.a.values.push_back(mdp.values()[k]);
        } else if (!known.empty()) {
          b += mdp.values()[k] * known[t];
        }
      }
      p.b.push_back(b);
      p.a.row_offsets.push_back(p.a.columns.size());
      out.model_row.push_back(r);
    }
    p.row_groups.push_back(p.b.size());
  }
  return out;
}

std::vector<double> choice_rewards(const Model& mdp, const RewardStructure& rewards) {
  std::vector<double> out(mdp.num_rows(), 0.0);
  const auto& groups = mdp.row_groups();
  const auto& offsets = mdp.row_offsets();
  for (uint64_t s = 0; s < mdp.num_states(); ++s) {
    for (uint64_t r = groups[s]; r < groups[s + 1]; ++r) {
      double value = rewards.state_rewards.empty() ? 0.0 : rewards.state_rewards[s];
      if (!rewards.transition_rewards.empty()) {
        for (uint64_t k = offsets[r]; k < offsets[r + 1]; ++k) value += mdp.values()[k] * rewards.transition_rewards[k];
      }
      out[r] = value;
    }
  }
  return out;
}

}  // namespace pmc
