#include "check/chain_matrices.hpp"

#include <algorithm>

#include "common/error.hpp"

namespace pmc {

namespace {

struct EmbeddedDtmc {
  std::vector<uint64_t> offsets;
  std::vector<uint32_t> columns;
  std::vector<double> values;
};

EmbeddedDtmc build_embedded(const Model& m) {
  EmbeddedDtmc e;
  const uint64_t n = m.num_states();
  e.offsets.reserve(n + 1);
  e.offsets.push_back(0);
  e.columns.reserve(m.num_entries() + n);
  e.values.reserve(m.num_entries() + n);
  const auto& off = m.row_offsets();
  for (uint64_t s = 0; s < n; ++s) {
    double total = 0;
    for (uint64_t k = off[s]; k < off[s + 1]; ++k) total += m.values()[k];
    if (total == 0) {
      e.columns.push_back(static_cast<uint32_t>(s));
      e.values.push_back(1.0);
    } else {
      for (uint64_t k = off[s]; k < off[s + 1]; ++k) {
        e.columns.push_back(m.columns()[k]);
        e.values.push_back(m.values()[k] / total);
      }
    }
    e.offsets.push_back(e.columns.size());
  }
  return e;
}

}  // namespace

CsrView probability_matrix(const Model& model) {
  if (model.type() == ModelType::dtmc) {
    return {model.row_offsets().data(), model.columns().data(), model.values().data(), model.num_states()};
  }
  if (model.type() != ModelType::ctmc) fail(ErrorCode::internal, "probability_matrix of a {}", to_string(model.type()));
  const auto& e = model.derived<EmbeddedDtmc>("embedded-dtmc", [&] { return build_embedded(model); });
  return {e.offsets.data(), e.columns.data(), e.values.data(), model.num_states()};
}

const std::vector<double>& exit_rates(const Model& model) {
  return model.derived<std::vector<double>>("exit-rates", [&] {
    std::vector<double> rates(model.num_states(), 0.0);
    const auto& off = model.row_offsets();
    for (uint64_t s = 0; s < model.num_states(); ++s) {
      for (uint64_t k = off[s]; k < off[s + 1]; ++k) {
        if (model.columns()[k] != s) rates[s] += model.values()[k];
      }
    }
    return rates;
  });
}

LinearSystem restrict_linear(const CsrView& p, const Bitset& unknowns, const std::vector<double>& known,
                             const std::vector<double>& extra, std::vector<uint32_t>& index) {
  LinearSystem system;
  index.assign(p.rows, 0);
  uint32_t next = 0;
  uint64_t entries = 0;  // of the unknowns' rows: at least the system's
  for (uint64_t s = unknowns.find_next(0); s < p.rows; s = unknowns.find_next(s + 1)) {
    index[s] = next++;
    entries += p.offsets[s + 1] - p.offsets[s];
  }
  system.b.reserve(next);
  system.a.row_offsets.reserve(next + 1);
  // Reserved once: growing by doubling held up to twice the
  // matrix while copying, beyond what the memory estimate counts.
  system.a.columns.reserve(entries);
  system.a.values.reserve(entries);
  for (uint64_t s = unknowns.find_next(0); s < p.rows; s = unknowns.find_next(s + 1)) {
    double b = extra.empty() ? 0.0 : extra[s];
    for (uint64_t k = p.offsets[s]; k < p.offsets[s + 1]; ++k) {
      const uint32_t t = p.columns[k];
      if (unknowns.test(t)) {
        system.a.columns.push_back(index[t]);
        system.a.values.push_back(p.values[k]);
      } else if (!known.empty()) {
        b += p.values[k] * known[t];
      }
    }
    system.b.push_back(b);
    system.a.row_offsets.push_back(system.a.columns.size());
  }
  return system;
}

SparseMatrix masked_matrix(const CsrView& p, const Bitset& active) {
  SparseMatrix a;
  a.row_offsets.reserve(p.rows + 1);
  uint64_t entries = 0;
  const uint64_t rows = std::min<uint64_t>(p.rows, active.size());
  for (uint64_t s = active.find_next(0); s < rows; s = active.find_next(s + 1)) entries += p.offsets[s + 1] - p.offsets[s];
  a.columns.reserve(entries);
  a.values.reserve(entries);
  for (uint64_t s = 0; s < p.rows; ++s) {
    if (active.test(s)) {
      a.columns.insert(a.columns.end(), p.columns + p.offsets[s], p.columns + p.offsets[s + 1]);
      a.values.insert(a.values.end(), p.values + p.offsets[s], p.values + p.offsets[s + 1]);
    }
    a.row_offsets.push_back(a.columns.size());
  }
  return a;
}

double uniformisation_rate(const Model& ctmc) {
  const auto& rates = exit_rates(ctmc);
  const double max_rate = rates.empty() ? 0.0 : *std::max_element(rates.begin(), rates.end());
  return max_rate > 0 ? 1.02 * max_rate : 1.0;
}

SparseMatrix uniformised_matrix(const Model& ctmc, double q, const Bitset& active) {
  SparseMatrix a;
  const uint64_t n = ctmc.num_states();
  const auto& off = ctmc.row_offsets();
  const auto& rates = exit_rates(ctmc);
  a.row_offsets.reserve(n + 1);
  uint64_t entries = 0;  // the active rows' entries and a diagonal each
  const uint64_t rows = std::min<uint64_t>(n, active.size());
  for (uint64_t s = active.find_next(0); s < rows; s = active.find_next(s + 1)) entries += off[s + 1] - off[s] + 1;
  a.columns.reserve(entries);
  a.values.reserve(entries);
  for (uint64_t s = 0; s < n; ++s) {
    if (active.test(s)) {
      bool diagonal_done = false;
      auto add_diagonal = [&] {
        a.columns.push_back(static_cast<uint32_t>(s));
        a.values.push_back(1.0 - rates[s] / q);
        diagonal_done = true;
      };
      for (uint64_t k = off[s]; k < off[s + 1]; ++k) {
        const uint32_t t = ctmc.columns()[k];
        if (t == s) continue;
        if (t > s && !diagonal_done) add_diagonal();
        a.columns.push_back(t);
        a.values.push_back(ctmc.values()[k] / q);
      }
      if (!diagonal_done) add_diagonal();
    }
    a.row_offsets.push_back(a.columns.size());
  }
  return a;
}

std::vector<double> reward_rates(const Model& model, const RewardStructure& rewards) {
  const uint64_t n = model.num_states();
  std::vector<double> rates(n, 0.0);
  if (!rewards.state_rewards.empty()) rates = rewards.state_rewards;
  if (!rewards.transition_rewards.empty()) {
    const auto& off = model.row_offsets();
    const bool ctmc = model.type() == ModelType::ctmc;
    for (uint64_t s = 0; s < n; ++s) {
      for (uint64_t k = off[s]; k < off[s + 1]; ++k) {
        if (ctmc && model.columns()[k] == s) continue;
        rates[s] += model.values()[k] * rewards.transition_rewards[k];
      }
    }
  }
  return rates;
}

std::vector<double> embedded_rewards(const Model& ctmc, const RewardStructure& rewards) {
  const uint64_t n = ctmc.num_states();
  std::vector<double> out(n, 0.0);
  const auto& off = ctmc.row_offsets();
  for (uint64_t s = 0; s < n; ++s) {
    double total = 0;
    for (uint64_t k = off[s]; k < off[s + 1]; ++k) total += ctmc.values()[k];
    // Self-loops are part of the embedded DTMC (probability R(s,s)/total), so
    // the sojourn per embedded step is 1/total: the expected time in s over
    // all its self-loop visits is still 1/E(s).
    if (!rewards.state_rewards.empty() && total > 0) out[s] = rewards.state_rewards[s] / total;
    if (!rewards.transition_rewards.empty() && total > 0) {
      for (uint64_t k = off[s]; k < off[s + 1]; ++k) {
        if (ctmc.columns()[k] != s) out[s] += ctmc.values()[k] / total * rewards.transition_rewards[k];
      }
    }
  }
  return out;
}

}  // namespace pmc
