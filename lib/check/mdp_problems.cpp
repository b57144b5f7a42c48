#include "check/mdp_problems.hpp"

#include "solver/parallel.hpp"

namespace pmc {

MdpProblem restrict_mdp(const Model& mdp, const Bitset& unknowns, const std::vector<double>& known,
                        const std::vector<double>& extra, const std::vector<bool>& excluded, bool maximize,
                        int threads) {
  MdpProblem out;
  const uint64_t n = mdp.num_states();
  const auto& groups = mdp.row_groups();
  const auto& offsets = mdp.row_offsets();
  const auto& columns = mdp.columns();
  const auto& values = mdp.values();
  std::vector<uint32_t> states;
  out.index.assign(n, 0);
  for (uint64_t s = unknowns.find_next(0); s < n; s = unknowns.find_next(s + 1)) {
    out.index[s] = static_cast<uint32_t>(states.size());
    states.push_back(static_cast<uint32_t>(s));
  }
  const auto m = static_cast<int64_t>(states.size());
  auto kept = [&](uint64_t r) { return excluded.empty() || !excluded[r]; };

  // Pass 1: kept rows and entries per unknown state, then prefix sums, so
  // that every array is allocated once at its final size (growing them by
  // push_back cost more in page faults than the copy itself) and pass 2 can
  // fill them in parallel.
  std::vector<uint64_t> row_start(static_cast<uint64_t>(m) + 1, 0), entry_start(static_cast<uint64_t>(m) + 1, 0);
#pragma omp parallel for if (m > k_parallel_rows) num_threads(threads) schedule(static, 1024)
  for (int64_t i = 0; i < m; ++i) {
    const uint32_t s = states[i];
    uint64_t rows = 0, entries = 0;
    for (uint64_t r = groups[s]; r < groups[s + 1]; ++r) {
      if (!kept(r)) continue;
      ++rows;
      for (uint64_t k = offsets[r]; k < offsets[r + 1]; ++k) entries += unknowns.test(columns[k]) ? 1 : 0;
    }
    row_start[i + 1] = rows;
    entry_start[i + 1] = entries;
  }
  for (int64_t i = 0; i < m; ++i) {
    row_start[i + 1] += row_start[i];
    entry_start[i + 1] += entry_start[i];
  }
  const uint64_t num_rows = row_start[m], num_entries = entry_start[m];

  MinMaxProblem& p = out.problem;
  p.maximize = maximize;
  p.row_groups = std::move(row_start);
  p.b.resize(num_rows);
  p.a.row_offsets.resize(num_rows + 1);
  p.a.columns.resize(num_entries);
  p.a.values.resize(num_entries);
  out.model_row.resize(num_rows);

  // Pass 2: copy the entries between unknowns and fold those into known
  // states into b.
#pragma omp parallel for if (m > k_parallel_rows) num_threads(threads) schedule(static, 1024)
  for (int64_t i = 0; i < m; ++i) {
    const uint32_t s = states[i];
    uint64_t row = p.row_groups[i], entry = entry_start[i];
    for (uint64_t r = groups[s]; r < groups[s + 1]; ++r) {
      if (!kept(r)) continue;
      double b = extra.empty() ? 0.0 : extra[r];
      for (uint64_t k = offsets[r]; k < offsets[r + 1]; ++k) {
        const uint32_t t = columns[k];
        if (unknowns.test(t)) {
          p.a.columns[entry] = out.index[t];
          p.a.values[entry] = values[k];
          ++entry;
        } else if (!known.empty()) {
          b += values[k] * known[t];
        }
      }
      p.b[row] = b;
      out.model_row[row] = r;
      p.a.row_offsets[++row] = entry;
    }
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
