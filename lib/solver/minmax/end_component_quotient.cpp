#include "solver/minmax/end_component_quotient.hpp"

#include <algorithm>
#include <limits>

#include "common/error.hpp"
#include "common/stopwatch.hpp"
#include "graph/bitset_ops.hpp"
#include "graph/end_components.hpp"
#include "common/cancellation.hpp"
#include "solver/minmax/problem_row_graph.hpp"

namespace pmc {
namespace {

constexpr uint32_t k_no_mec = graph::MecDecomposition::k_no_mec;

}  // namespace

graph::MecDecomposition silent_end_components(const MinMaxProblem& p) {
  // Only silent rows can be internal choices (see header); every unknown
  // may take part.
  Bitset silent(p.a.num_rows());
  for (uint64_t r = 0; r < p.a.num_rows(); ++r) {
    if (row_is_silent(p, r)) silent.set(r);
  }
  return graph::maximal_end_components(row_graph(p), graph::bits::full(p.num_unknowns()), &silent);
}

EndComponentQuotient collapse_end_components(const MinMaxProblem& p, const graph::MecDecomposition& ecs) {
  const uint64_t n = p.num_unknowns();
  // state_of[s] before s is given a quotient unknown.
  constexpr uint32_t k_unassigned = std::numeric_limits<uint32_t>::max();
  EndComponentQuotient q;
  q.state_of.assign(n, k_unassigned);
  uint32_t next = 0;
  std::vector<uint32_t> representative;  // quotient unknown -> an original unknown (its first member)
  for (uint64_t s = 0; s < n; ++s) {
    if (q.state_of[s] != k_unassigned) continue;
    if (ecs.mec_of[s] == k_no_mec) {
      q.state_of[s] = next++;
    } else {
      for (uint32_t member : ecs.mec(ecs.mec_of[s])) q.state_of[member] = next;
      ++next;
    }
    representative.push_back(static_cast<uint32_t>(s));
  }

  MinMaxProblem& out = q.problem;
  out.maximize = p.maximize;
  out.steps = p.steps;
  out.upper_bound = p.upper_bound;
  out.row_groups.assign(1, 0);
  out.a.row_offsets.assign(1, 0);
  auto add_row = [&](uint64_t r) {
    q.row_origin.push_back(r);
    if (r != EndComponentQuotient::k_no_row) {
      for (uint64_t e = p.a.row_offsets[r]; e < p.a.row_offsets[r + 1]; ++e) {
        out.a.columns.push_back(q.state_of[p.a.columns[e]]);
        out.a.values.push_back(p.a.values[e]);
      }
    }
    out.b.push_back(r == EndComponentQuotient::k_no_row ? 0.0 : p.b[r]);
    out.a.row_offsets.push_back(out.a.columns.size());
  };
  for (uint32_t rep : representative) {
    const uint32_t c = ecs.mec_of[rep];
    if (c == k_no_mec) {
      for (uint64_t r = p.row_groups[rep]; r < p.row_groups[rep + 1]; ++r) add_row(r);
    } else {
      const uint64_t first = out.b.size();
      for (uint32_t s : ecs.mec(c)) {
        for (uint64_t r = p.row_groups[s]; r < p.row_groups[s + 1]; ++r) {
          if (!ecs.choices.test(r)) add_row(r);
        }
      }
      if (out.b.size() == first) add_row(EndComponentQuotient::k_no_row);
    }
    out.row_groups.push_back(out.b.size());
  }
  return q;
}

std::vector<double> restrict_values(const std::vector<uint32_t>& state_of, uint64_t count,
                                    const std::vector<double>& values, bool take_max) {
  std::vector<double> out(count);
  std::vector<uint8_t> seen(count, 0);
  for (uint64_t s = 0; s < values.size(); ++s) {
    double& v = out[state_of[s]];
    if (!seen[state_of[s]]) {
      v = values[s];
      seen[state_of[s]] = 1;
    } else {
      v = take_max ? std::max(v, values[s]) : std::min(v, values[s]);
    }
  }
  return out;
}

std::vector<double> expand_values(const std::vector<uint32_t>& state_of, const std::vector<double>& quotient_values) {
  std::vector<double> out(state_of.size());
  for (uint64_t s = 0; s < out.size(); ++s) out[s] = quotient_values[state_of[s]];
  return out;
}

std::vector<double> restrict_values(const EndComponentQuotient& q, const std::vector<double>& values, bool take_max) {
  return restrict_values(q.state_of, q.problem.num_unknowns(), values, take_max);
}

std::vector<double> expand_values(const EndComponentQuotient& q, const std::vector<double>& quotient_values) {
  return expand_values(q.state_of, quotient_values);
}

std::vector<uint32_t> expand_choices(const MinMaxProblem& p, const graph::MecDecomposition& ecs, const EndComponentQuotient& q,
                                     const std::vector<uint32_t>& quotient_choice) {
  const uint64_t n = p.num_unknowns();
  const std::vector<uint32_t> owner = graph::row_owners(row_graph(p));
  std::vector<uint32_t> choice(n, 0);
  std::vector<uint8_t> assigned(n, 0);
  std::vector<uint32_t> queue;
  for (uint64_t s = 0; s < n; ++s) {
    const uint32_t qs = q.state_of[s];
    const uint64_t qrow = q.problem.row_groups[qs] + (quotient_choice.empty() ? 0 : quotient_choice[qs]);
    if (ecs.mec_of[s] == k_no_mec) {
      choice[s] = static_cast<uint32_t>(q.row_origin[qrow] - p.row_groups[s]);
      assigned[s] = 1;
    } else if (q.row_origin[qrow] != EndComponentQuotient::k_no_row && owner[q.row_origin[qrow]] == s) {
      choice[s] = static_cast<uint32_t>(q.row_origin[qrow] - p.row_groups[s]);
      assigned[s] = 1;
      queue.push_back(static_cast<uint32_t>(s));
    }
  }
  // Predecessor rows over internal choices only (they stay inside their
  // component, so the BFS below never crosses components).
  std::vector<uint64_t> pred_offsets(n + 1, 0);
  for (uint64_t r = 0; r < p.a.num_rows(); ++r) {
    if (!ecs.choices.test(r)) continue;
    for (uint64_t e = p.a.row_offsets[r]; e < p.a.row_offsets[r + 1]; ++e) ++pred_offsets[p.a.columns[e] + 1];
  }
  for (uint64_t s = 0; s < n; ++s) pred_offsets[s + 1] += pred_offsets[s];
  std::vector<uint64_t> preds(pred_offsets.back());
  {
    std::vector<uint64_t> cursor(pred_offsets.begin(), pred_offsets.end() - 1);
    for (uint64_t r = 0; r < p.a.num_rows(); ++r) {
      if (!ecs.choices.test(r)) continue;
      for (uint64_t e = p.a.row_offsets[r]; e < p.a.row_offsets[r + 1]; ++e) preds[cursor[p.a.columns[e]]++] = r;
    }
  }
  for (uint64_t head = 0; head < queue.size(); ++head) {
    const uint32_t t = queue[head];
    for (uint64_t i = pred_offsets[t]; i < pred_offsets[t + 1]; ++i) {
      const uint32_t s = owner[preds[i]];
      if (assigned[s]) continue;
      choice[s] = static_cast<uint32_t>(preds[i] - p.row_groups[s]);
      assigned[s] = 1;
      queue.push_back(s);
    }
  }
  // Components without an exit: any internal choice (they never leave).
  for (uint64_t s = 0; s < n; ++s) {
    if (assigned[s]) continue;
    for (uint64_t r = p.row_groups[s]; r < p.row_groups[s + 1]; ++r) {
      if (ecs.choices.test(r)) {
        choice[s] = static_cast<uint32_t>(r - p.row_groups[s]);
        break;
      }
    }
  }
  return choice;
}

namespace {

// Start vectors, where given, must have one value per unknown.
void require_start_vectors_fit(const MinMaxProblem& p, const MinMaxSolution& solution) {
  for (const std::vector<double>* v : {&solution.x, &solution.upper}) {
    if (!v->empty() && v->size() != p.num_unknowns()) {
      fail(ErrorCode::invalid_argument, "start vector has {} values, the problem has {} unknowns", v->size(),
           p.num_unknowns());
    }
  }
}

}  // namespace

EndComponentsCollapsed::EndComponentsCollapsed(const MinMaxProblem& problem)
    : problem_(problem), ecs_(std::make_shared<const graph::MecDecomposition>(silent_end_components(problem))) {
  if (ecs_->count() > 0) quotient_ = collapse_end_components(problem, *ecs_);
}

SolveStats EndComponentsCollapsed::solve(MinMaxSolution& solution, const SolverSettings& settings,
                                         const MinMaxSolveFn& solve) const {
  const Stopwatch clock;
  require_start_vectors_fit(problem_, solution);
  if (!quotient_) {
    SolveStats stats = solve(problem_, solution, settings);
    stats.seconds = clock.seconds();
    return stats;
  }
  const EndComponentQuotient& q = *quotient_;
  MinMaxSolution inner;
  if (!solution.x.empty()) inner.x = restrict_values(q, solution.x, false);
  if (!solution.upper.empty()) inner.upper = restrict_values(q, solution.upper, true);
  SolveStats stats = solve(q.problem, inner, settings);
  solution.x = expand_values(q, inner.x);
  if (!inner.upper.empty()) solution.upper = expand_values(q, inner.upper);
  solution.choice = expand_choices(problem_, *ecs_, q, inner.choice);
  stats.seconds = clock.seconds();
  return stats;
}

SolveStats solve_with_end_components_collapsed(const MinMaxProblem& p, MinMaxSolution& solution,
                                               const SolverSettings& settings, MinMaxSolveFn solve) {
  const Stopwatch clock;
  require_start_vectors_fit(p, solution);  // before the search, which can take a while
  const EndComponentsCollapsed collapsed(p);
  throw_if_cancelled(settings.cancel);  // the search can take a while on a large problem
  SolveStats stats = collapsed.solve(solution, settings, solve);
  stats.seconds = clock.seconds();
  return stats;
}

SolveStats solve_from_below_with_end_components_collapsed(const MinMaxProblem& p, MinMaxSolution& solution,
                                                          const SolverSettings& settings, MinMaxSolveFn solve) {
  if (!p.maximize) return solve_with_end_components_collapsed(p, solution, settings, solve);
  const Stopwatch clock;
  SolveStats stats = solve(p, solution, settings);
  stats.seconds = clock.seconds();
  return stats;
}

}  // namespace pmc
