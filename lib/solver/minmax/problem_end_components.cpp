#include "solver/minmax/problem_end_components.hpp"

#include <algorithm>
#include <chrono>

#include "common/error.hpp"
#include "solver/cancellation.hpp"
#include "solver/minmax/problem_graph.hpp"

namespace pmc {

EndComponents find_end_components(const MinMaxProblem& p) {
  const uint64_t n = p.num_unknowns();
  const uint64_t rows = p.a.num_rows();
  const auto& groups = p.row_groups;
  const auto& offsets = p.a.row_offsets;
  const auto& columns = p.a.columns;

  // Candidate internal choices: earn nothing and lose no mass (see header).
  std::vector<uint8_t> enabled(rows, 0);
  for (uint64_t r = 0; r < rows; ++r) enabled[r] = row_is_silent(p, r);
  std::vector<uint8_t> candidate(n, 0);
  for (uint64_t s = 0; s < n; ++s) {
    for (uint64_t r = groups[s]; r < groups[s + 1] && !candidate[s]; ++r) candidate[s] = enabled[r];
  }

  // Refinement: a choice with an entry outside its state's SCC cannot stay
  // in any end component; a state left without choices is in none. Repeat
  // until stable; then every remaining SCC is a maximal end component.
  ProblemSccs sccs;
  bool changed = true;
  while (changed) {
    changed = false;
    sccs = problem_sccs(p, candidate, enabled);
    for (uint64_t s = 0; s < n; ++s) {
      if (!candidate[s]) continue;
      bool any = false;
      for (uint64_t r = groups[s]; r < groups[s + 1]; ++r) {
        if (!enabled[r]) continue;
        for (uint64_t e = offsets[r]; e < offsets[r + 1]; ++e) {
          const uint32_t t = columns[e];
          if (!candidate[t] || sccs.component_of[t] != sccs.component_of[s]) {
            enabled[r] = 0;
            changed = true;
            break;
          }
        }
        any = any || enabled[r];
      }
      if (!any) {
        candidate[s] = 0;
        changed = true;
      }
    }
  }

  EndComponents out;
  out.ec_of.assign(n, EndComponents::k_none);
  std::vector<uint32_t> renumber(sccs.num_components(), EndComponents::k_none);
  for (uint64_t s = 0; s < n; ++s) {
    if (!candidate[s]) continue;
    uint32_t& id = renumber[sccs.component_of[s]];
    if (id == EndComponents::k_none) id = static_cast<uint32_t>(out.count++);
    out.ec_of[s] = id;
  }
  // A row still enabled belongs to a candidate state and stays in its SCC.
  out.internal = std::move(enabled);
  return out;
}

EndComponentQuotient collapse_end_components(const MinMaxProblem& p, const EndComponents& ecs) {
  const uint64_t n = p.num_unknowns();
  // Members of each component, as CSR.
  std::vector<uint64_t> member_offsets(ecs.count + 1, 0);
  for (uint64_t s = 0; s < n; ++s) {
    if (ecs.ec_of[s] != EndComponents::k_none) ++member_offsets[ecs.ec_of[s] + 1];
  }
  for (uint64_t c = 0; c < ecs.count; ++c) member_offsets[c + 1] += member_offsets[c];
  std::vector<uint32_t> members(member_offsets.back());
  {
    std::vector<uint64_t> cursor(member_offsets.begin(), member_offsets.end() - 1);
    for (uint64_t s = 0; s < n; ++s) {
      if (ecs.ec_of[s] != EndComponents::k_none) members[cursor[ecs.ec_of[s]]++] = static_cast<uint32_t>(s);
    }
  }

  EndComponentQuotient q;
  q.state_of.assign(n, EndComponents::k_none);
  uint32_t next = 0;
  std::vector<uint32_t> representative;  // quotient unknown -> an original unknown (its first member)
  for (uint64_t s = 0; s < n; ++s) {
    if (q.state_of[s] != EndComponents::k_none) continue;
    if (ecs.ec_of[s] == EndComponents::k_none) {
      q.state_of[s] = next++;
    } else {
      const uint32_t c = ecs.ec_of[s];
      for (uint64_t i = member_offsets[c]; i < member_offsets[c + 1]; ++i) q.state_of[members[i]] = next;
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
    const uint32_t c = ecs.ec_of[rep];
    if (c == EndComponents::k_none) {
      for (uint64_t r = p.row_groups[rep]; r < p.row_groups[rep + 1]; ++r) add_row(r);
    } else {
      const uint64_t first = out.b.size();
      for (uint64_t i = member_offsets[c]; i < member_offsets[c + 1]; ++i) {
        const uint32_t s = members[i];
        for (uint64_t r = p.row_groups[s]; r < p.row_groups[s + 1]; ++r) {
          if (!ecs.internal[r]) add_row(r);
        }
      }
      if (out.b.size() == first) add_row(EndComponentQuotient::k_no_row);
    }
    out.row_groups.push_back(out.b.size());
  }
  return q;
}

std::vector<double> restrict_values(const EndComponentQuotient& q, const std::vector<double>& values, bool take_max) {
  std::vector<double> out(q.problem.num_unknowns());
  std::vector<uint8_t> seen(out.size(), 0);
  for (uint64_t s = 0; s < values.size(); ++s) {
    double& v = out[q.state_of[s]];
    if (!seen[q.state_of[s]]) {
      v = values[s];
      seen[q.state_of[s]] = 1;
    } else {
      v = take_max ? std::max(v, values[s]) : std::min(v, values[s]);
    }
  }
  return out;
}

std::vector<double> expand_values(const EndComponentQuotient& q, const std::vector<double>& quotient_values) {
  std::vector<double> out(q.state_of.size());
  for (uint64_t s = 0; s < out.size(); ++s) out[s] = quotient_values[q.state_of[s]];
  return out;
}

std::vector<uint32_t> expand_choices(const MinMaxProblem& p, const EndComponents& ecs, const EndComponentQuotient& q,
                                     const std::vector<uint32_t>& quotient_choice) {
  const uint64_t n = p.num_unknowns();
  const std::vector<uint32_t> owner = row_owners(p);
  std::vector<uint32_t> choice(n, 0);
  std::vector<uint8_t> assigned(n, 0);
  std::vector<uint32_t> queue;
  for (uint64_t s = 0; s < n; ++s) {
    const uint32_t qs = q.state_of[s];
    const uint64_t qrow = q.problem.row_groups[qs] + (quotient_choice.empty() ? 0 : quotient_choice[qs]);
    if (ecs.ec_of[s] == EndComponents::k_none) {
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
    if (!ecs.internal[r]) continue;
    for (uint64_t e = p.a.row_offsets[r]; e < p.a.row_offsets[r + 1]; ++e) ++pred_offsets[p.a.columns[e] + 1];
  }
  for (uint64_t s = 0; s < n; ++s) pred_offsets[s + 1] += pred_offsets[s];
  std::vector<uint64_t> preds(pred_offsets.back());
  {
    std::vector<uint64_t> cursor(pred_offsets.begin(), pred_offsets.end() - 1);
    for (uint64_t r = 0; r < p.a.num_rows(); ++r) {
      if (!ecs.internal[r]) continue;
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
      if (ecs.internal[r]) {
        choice[s] = static_cast<uint32_t>(r - p.row_groups[s]);
        break;
      }
    }
  }
  return choice;
}

SolveStats solve_with_end_components_collapsed(const MinMaxProblem& p, MinMaxSolution& solution,
                                               const SolverSettings& settings, MinMaxSolveFn solve) {
  const auto start = std::chrono::steady_clock::now();
  for (const std::vector<double>* v : {&solution.x, &solution.upper}) {
    if (!v->empty() && v->size() != p.num_unknowns()) {
      fail(ErrorCode::invalid_argument, "start vector has {} values, the problem has {} unknowns", v->size(),
           p.num_unknowns());
    }
  }
  const EndComponents ecs = find_end_components(p);
  throw_if_cancelled(settings.cancel);  // the search can take a while on a large problem
  if (ecs.count == 0) {
    SolveStats stats = solve(p, solution, settings);
    stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return stats;
  }
  const EndComponentQuotient q = collapse_end_components(p, ecs);
  MinMaxSolution inner;
  if (!solution.x.empty()) inner.x = restrict_values(q, solution.x, false);
  if (!solution.upper.empty()) inner.upper = restrict_values(q, solution.upper, true);
  SolveStats stats = solve(q.problem, inner, settings);
  solution.x = expand_values(q, inner.x);
  if (!inner.upper.empty()) solution.upper = expand_values(q, inner.upper);
  solution.choice = expand_choices(p, ecs, q, inner.choice);
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return stats;
}

}  // namespace pmc
