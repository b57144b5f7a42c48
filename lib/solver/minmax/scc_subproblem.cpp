#include "solver/minmax/scc_subproblem.hpp"

#include <algorithm>
#include <limits>
#include <span>

namespace pmc {

// A single unknown s with successors solved: each row is c_r + a_rs·x_s with
// c_r = b_r + Σ_{j≠s} a_rj·x_j, so its fixed point is c_r / (1 − a_rs), and
// the optimum over rows of those is the least fixed point of
// x_s = opt_r (c_r + a_rs·x_s) (for max, the row attaining it is a fixed
// point and every other row stays below; min likewise). Without a self-loop
// this is one Bellman update. A row that is a pure self-loop (a_rs = 1)
// has no finite fixed point unless c_r = 0, and then it adds nothing to the
// least one: it is skipped, and a state with only such rows keeps its
// value, as plain VI would (precomputation leaves no such state).
double solve_single_unknown(const MinMaxProblem& p, uint32_t s, const std::vector<double>& x) {
  const double none = p.maximize ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  double best = none;
  for (uint64_t r = p.row_groups[s]; r < p.row_groups[s + 1]; ++r) {
    double c = p.b[r], self = 0.0;
    for (uint64_t e = p.a.row_offsets[r]; e < p.a.row_offsets[r + 1]; ++e) {
      if (p.a.columns[e] == s) {
        self += p.a.values[e];
      } else {
        c += p.a.values[e] * x[p.a.columns[e]];
      }
    }
    if (1.0 - self <= 0.0) {
      if (c != 0.0 && p.maximize) return std::numeric_limits<double>::infinity();
      continue;
    }
    const double v = self == 0.0 ? c : c / (1.0 - self);
    best = p.maximize ? std::max(best, v) : std::min(best, v);
  }
  return best == none ? x[s] : best;
}

// Why a copy (Berger 2014 §2.7: "a possibly much smaller instance"): the
// sweeps then stream the matrix instead of jumping through it (measured on a
// 10^6-state MDP with one giant SCC: sweeping the original rows in Tarjan's
// order cost 0.5 s per sweep, 25× a sweep in index order), and Tarjan's
// order, which lists a state's DFS successors before it, lets Gauss–Seidel
// use this sweep's successor values: half the sweeps of index order there.
// It is also what a device solver transfers per block.
void extract_components(const MinMaxProblem& p, const graph::SccDecomposition& sccs, uint64_t first, uint64_t last,
                        const std::vector<double>& x, std::vector<uint32_t>& local_of, MinMaxProblem& sub) {
  const std::span<const uint32_t> states(sccs.states.data() + sccs.offsets[first],
                                         sccs.states.data() + sccs.offsets[last + 1]);
  for (uint64_t i = 0; i < states.size(); ++i) local_of[states[i]] = static_cast<uint32_t>(i);
  auto inside = [&](uint32_t j) {
    const uint32_t c = sccs.component_of[j];
    return c != graph::SccDecomposition::k_no_component && c >= first && c <= last;
  };
  sub.maximize = p.maximize;
  sub.steps = 0;
  sub.upper_bound = p.upper_bound;
  sub.row_groups.assign(1, 0);
  sub.a.row_offsets.assign(1, 0);
  sub.a.columns.clear();
  sub.a.values.clear();
  sub.b.clear();
  for (uint32_t s : states) {
    for (uint64_t r = p.row_groups[s]; r < p.row_groups[s + 1]; ++r) {
      double b = p.b[r];
      for (uint64_t e = p.a.row_offsets[r]; e < p.a.row_offsets[r + 1]; ++e) {
        const uint32_t j = p.a.columns[e];
        if (inside(j)) {
          sub.a.columns.push_back(local_of[j]);
          sub.a.values.push_back(p.a.values[e]);
        } else {
          b += p.a.values[e] * x[j];
        }
      }
      sub.b.push_back(b);
      sub.a.row_offsets.push_back(sub.a.columns.size());
    }
    sub.row_groups.push_back(sub.b.size());
  }
}

}  // namespace pmc
