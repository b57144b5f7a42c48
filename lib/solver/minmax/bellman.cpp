#include "solver/minmax/bellman.hpp"

#include <cmath>

#include "common/error.hpp"
#include "solver/minmax/end_component_quotient.hpp"
#include "solver/minmax/problem_row_graph.hpp"

namespace pmc {

std::vector<uint32_t> optimal_choices(const MinMaxProblem& p, const std::vector<double>& x, double tolerance) {
  const uint64_t n = p.num_unknowns();
  const uint64_t rows = p.a.num_rows();
  std::vector<uint32_t> choice(n, 0);
  std::vector<double> best(n);
  for (uint64_t s = 0; s < n; ++s) best[s] = state_value(p, s, x.data(), &choice[s]);
  auto near_optimal = [&](uint64_t s, uint64_t r) {
    const double slack = tolerance * std::max(1.0, std::fabs(best[s]));
    const double v = choice_value(p, r, x.data());
    return p.maximize ? v >= best[s] - slack : v <= best[s] + slack;
  };

  // Phase 1: states whose arg-opt chain reaches a non-silent row keep it.
  std::vector<uint8_t> progress(n, 0);
  std::vector<uint32_t> queue;
  for (uint64_t s = 0; s < n; ++s) {
    const uint64_t r = p.row_groups[s] + choice[s];
    if (p.row_groups[s] == p.row_groups[s + 1] || !row_is_silent(p, r)) {
      progress[s] = 1;
      queue.push_back(static_cast<uint32_t>(s));
    }
  }
  // Usually every arg-opt row makes progress itself: no graph needed.
  if (queue.size() == n) return choice;

  // Predecessor rows of every unknown (one per entry).
  const std::vector<uint32_t> owner = graph::row_owners(row_graph(p));
  std::vector<uint64_t> pred_offsets(n + 1, 0);
  for (uint64_t e = 0; e < p.a.num_entries(); ++e) ++pred_offsets[p.a.columns[e] + 1];
  for (uint64_t s = 0; s < n; ++s) pred_offsets[s + 1] += pred_offsets[s];
  std::vector<uint64_t> preds(p.a.num_entries());
  {
    std::vector<uint64_t> cursor(pred_offsets.begin(), pred_offsets.end() - 1);
    for (uint64_t r = 0; r < rows; ++r) {
      for (uint64_t e = p.a.row_offsets[r]; e < p.a.row_offsets[r + 1]; ++e) preds[cursor[p.a.columns[e]]++] = r;
    }
  }

  for (uint64_t head = 0; head < queue.size(); ++head) {
    const uint32_t t = queue[head];
    for (uint64_t i = pred_offsets[t]; i < pred_offsets[t + 1]; ++i) {
      const uint64_t r = preds[i];
      const uint32_t s = owner[r];
      if (!progress[s] && r == p.row_groups[s] + choice[s]) {
        progress[s] = 1;
        queue.push_back(s);
      }
    }
  }
  if (queue.size() == n) return choice;

  // Phase 2: the trapped states. Seeds: a near-optimal non-silent row; then
  // near-optimal rows into states that already make progress (the BFS
  // restarts at the queue head so phase-1 states are targets too).
  for (uint64_t s = 0; s < n; ++s) {
    if (progress[s]) continue;
    for (uint64_t r = p.row_groups[s]; r < p.row_groups[s + 1]; ++r) {
      if (!row_is_silent(p, r) && near_optimal(s, r)) {
        choice[s] = static_cast<uint32_t>(r - p.row_groups[s]);
        progress[s] = 1;
        queue.push_back(static_cast<uint32_t>(s));
        break;
      }
    }
  }
  for (uint64_t head = 0; head < queue.size(); ++head) {
    const uint32_t t = queue[head];
    for (uint64_t i = pred_offsets[t]; i < pred_offsets[t + 1]; ++i) {
      const uint64_t r = preds[i];
      const uint32_t s = owner[r];
      if (!progress[s] && near_optimal(s, r)) {
        choice[s] = static_cast<uint32_t>(r - p.row_groups[s]);
        progress[s] = 1;
        queue.push_back(s);
      }
    }
  }
  // States still trapped have no near-optimal way out: their value is the
  // start value of a component that never earns anything; arg-opt stays.
  return choice;
}

std::vector<double> start_vector(const std::vector<double>& given, uint64_t n, const char* what) {
  if (given.empty()) return std::vector<double>(n, 0.0);
  if (given.size() != n) {
    fail(ErrorCode::invalid_argument, "{}: start vector has {} values, the problem has {} unknowns", what,
         given.size(), n);
  }
  return given;
}

}  // namespace pmc
