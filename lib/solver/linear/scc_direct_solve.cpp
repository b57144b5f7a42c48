// Small SCCs solved by state elimination, in doubles with an inductive
// certificate and, where that is too wide, in rationals (see the header).
#include "solver/linear/scc_direct_solve.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>

#ifdef PMC_HAVE_GMP
#include <gmpxx.h>
#endif

#include "solver/convergence.hpp"
#include "solver/linear/rationals.hpp"
#include "solver/linear/state_elimination.hpp"

namespace pmc {

namespace {

// Steps (entries visited) an elimination may spend per entry of the SCC
// (plus a floor) before the SCC is swept instead: a few sweeps' worth
// (a step costs several times a sweep's multiply-add), so a structure that
// fills in badly costs little. Rationals cost ~100× more
// per operation (more as the numbers grow), so they come only where doubles
// eliminated the SCC within this many operations but their certificate
// left a member open.
constexpr uint64_t k_double_work_per_entry = 4;
constexpr uint64_t k_double_work_floor = 4096;
constexpr uint64_t k_rational_work = 20000;
// All rational attempts of one solve together: ~0.5 s at most.
constexpr uint64_t k_rational_total_work = 200000;
// Right-hand sides of the double elimination: the successors' lower and
// upper bounds, and 1 (the expected time ŵ).
constexpr uint32_t k_lower = 0, k_upper = 1, k_time = 2;

// A probability row's mass b_i + Σ_j a_ij should be 1 where the model's
// row is stochastic, but the model's doubles (a CTMC's rates over the exit
// rate, 1/3) leave it a few ulps off. Iteration stops long before that
// matters; an exact solve meets it times the expected time in the SCC
// (1e-12 on cluster N=2), and would certify bounds that miss the value of
// the model as written (1). So a row whose mass is short of 1 by at most
// this much (a transition that small is not a model's) also counts that
// shortfall as reaching the top value in the upper solve, and a row above
// 1 takes its excess off the lower one. Both only widen the bounds.
constexpr double k_rounding_slack_per_entry = 16.0 * DBL_EPSILON;

// Row i's entries inside SCC c, merged per column and indexed locally, and
// the constant part b_i + Σ_{j outside} a_ij·y_j for both members of y,
// widened by the rounding slack above.
struct LocalRow {
  std::vector<std::pair<uint32_t, double>> inside;
  BoundPair constant;
};

}  // namespace

bool exact_elimination_available() {
#ifdef PMC_HAVE_GMP
  return true;
#else
  return false;
#endif
}

namespace {

LocalRow local_row(const LinearSystem& s, std::span<const uint32_t> component_of, const std::vector<uint32_t>& local_of,
                   uint32_t c, uint32_t i, const std::vector<BoundPair>& v) {
  LocalRow row{{}, {s.b[i], s.b[i]}};
  double mass = s.b[i];
  for (uint64_t e = s.a.row_offsets[i]; e < s.a.row_offsets[i + 1]; ++e) {
    const uint32_t j = s.a.columns[e];
    const double a = s.a.values[e];
    mass += a;
    if (component_of[j] == c) {
      row.inside.emplace_back(local_of[j], a);
    } else if (a != 0.0) {
      row.constant.first += a * v[j].first;
      row.constant.second += a * v[j].second;
    }
  }
  std::sort(row.inside.begin(), row.inside.end());
  size_t kept = 0;
  for (size_t p = 0; p < row.inside.size(); ++p) {
    if (kept > 0 && row.inside[kept - 1].first == row.inside[p].first) {
      row.inside[kept - 1].second += row.inside[p].second;
    } else {
      row.inside[kept++] = row.inside[p];
    }
  }
  row.inside.resize(kept);
  if (std::isfinite(s.upper_bound)) {
    const uint64_t length = s.a.row_offsets[i + 1] - s.a.row_offsets[i] + 1;
    const double tolerance = k_rounding_slack_per_entry * static_cast<double>(length);
    const double slack = 1.0 - mass;
    // The sums themselves round: twice the slack covers that.
    if (slack > 0.0 && slack <= tolerance) row.constant.second += 2.0 * slack * s.upper_bound;
    if (slack < 0.0) row.constant.first -= 2.0 * -slack * s.upper_bound;
  }
  return row;
}

// B(x)_i − x_i for the SCC's update B with constant part `constant`.
double update_minus(const LocalRow& row, double constant, const std::vector<double>& x, uint32_t local) {
  double sum = constant;
  for (const auto& [j, a] : row.inside) sum += a * x[j];
  return sum - x[local];
}

// δ ≥ 0 such that x̂ ∓ δ·ŵ is inductive (direction −1: B(l) ≥ l; +1:
// B(u) ≤ u), or a negative value when none is found. B(x̂ + d·δ·ŵ) −
// (x̂ + d·δ·ŵ) = r + d·δ·t with r = B(x̂) − x̂ and t = ŵ − A_in·ŵ ≈ 1, so
// δ = max(−d·r/t) covers the residuals; twice that plus a rounding margin,
// then the candidate itself is checked (and δ raised if rounding defeats it).
double inductive_margin(const std::vector<LocalRow>& rows, bool upper, const std::vector<double>& x,
                        const std::vector<double>& time) {
  const double d = upper ? 1.0 : -1.0;
  double needed = 0.0, largest = 0.0;
  size_t longest = 0;
  for (uint32_t k = 0; k < rows.size(); ++k) {
    const double constant = upper ? rows[k].constant.second : rows[k].constant.first;
    const double r = update_minus(rows[k], constant, x, k);
    const double t = -update_minus(rows[k], 0.0, time, k);
    if (!std::isfinite(r) || !std::isfinite(t) || t < 0.5) return -1.0;
    needed = std::max(needed, -d * r / t);
    largest = std::max(largest, std::abs(x[k]) + std::abs(constant));
    longest = std::max(longest, rows[k].inside.size());
  }
  double delta = 2.0 * needed + 4.0 * DBL_EPSILON * static_cast<double>(longest + 2) * largest;
  std::vector<double> candidate(x.size());
  for (int attempt = 0; attempt < 4; ++attempt, delta *= 16.0) {
    for (size_t k = 0; k < x.size(); ++k) candidate[k] = x[k] + d * delta * time[k];
    bool inductive = true;
    for (uint32_t k = 0; k < rows.size() && inductive; ++k) {
      const double constant = upper ? rows[k].constant.second : rows[k].constant.first;
      const double step = update_minus(rows[k], constant, candidate, k);
      inductive = upper ? step <= 0.0 : step >= 0.0;
    }
    if (inductive) return delta;
  }
  return -1.0;
}

}  // namespace

bool SccDirectSolver::all_close(std::span<const uint32_t> states, double epsilon, bool relative,
                                const std::vector<BoundPair>& v) const {
  for (const uint32_t i : states) {
    // Both finite: bounds_close would take (−∞, ∞) as close relative to ∞.
    if (!std::isfinite(v[i].first) || !std::isfinite(v[i].second)) return false;
    if (!bounds_close(v[i].first, v[i].second, epsilon, relative)) return false;
  }
  return true;
}

bool SccDirectSolver::solve(uint32_t c, std::span<const uint32_t> states, double epsilon, bool relative,
                            std::vector<BoundPair>& v) {
  if (states.size() > k_direct_max_unknowns) return false;
  for (uint32_t k = 0; k < states.size(); ++k) local_of_[states[k]] = k;
  uint64_t work = 0;
  if (!by_doubles(c, states, v, work)) return false;  // too costly: rationals would be too
  if (all_close(states, epsilon, relative, v)) {
    ++counts_.by_doubles;
    return true;
  }
  if (states.size() <= k_exact_max_unknowns && work <= k_rational_work && rational_work_ < k_rational_total_work &&
      by_rationals(c, states, v) &&
      all_close(states, epsilon, relative, v)) {
    ++counts_.by_rationals;
    return true;
  }
  return false;
}

bool SccDirectSolver::by_doubles(uint32_t c, std::span<const uint32_t> states, std::vector<BoundPair>& v,
                                 uint64_t& work) {
  const auto m = static_cast<uint32_t>(states.size());
  std::vector<LocalRow> rows;
  rows.reserve(m);
  uint64_t entries = 0;
  bool upper_finite = true;
  for (uint32_t k = 0; k < m; ++k) {
    rows.push_back(local_row(s_, component_of_, local_of_, c, states[k], v));
    entries += rows.back().inside.size() + 1;
    upper_finite = upper_finite && std::isfinite(rows.back().constant.second);
  }
  StateElimination<double> elimination(m, 3);
  for (uint32_t k = 0; k < m; ++k) {
    for (const auto& [j, a] : rows[k].inside) elimination.add(k, j, a);
    elimination.rhs(k, k_lower) = rows[k].constant.first;
    elimination.rhs(k, k_upper) = upper_finite ? rows[k].constant.second : 0.0;
    elimination.rhs(k, k_time) = 1.0;
  }
  using Outcome = StateElimination<double>::Outcome;
  const uint64_t budget = k_double_work_per_entry * entries + k_double_work_floor;
  const Outcome outcome = elimination.eliminate(budget);
  work = elimination.work();
  counts_.work += work;
  // From here on the elimination was affordable: true, whether or not the
  // certificates below hold (rationals may then be worth their cost). A
  // pivot rounded to 0 is ill-conditioning, not cost: the rationals get
  // the whole budget doubles had.
  if (outcome == Outcome::over_budget) return false;
  if (outcome == Outcome::singular_pivot) {
    work = budget;
    return true;
  }
  const std::vector<double> time = elimination.solution(k_time);
  const std::vector<double> lower = elimination.solution(k_lower);
  const double lower_margin = inductive_margin(rows, false, lower, time);
  if (lower_margin < 0.0) return true;
  for (uint32_t k = 0; k < m; ++k) {
    BoundPair& p = v[states[k]];
    p.first = std::max(p.first, lower[k] - lower_margin * time[k]);
  }
  if (upper_finite) {
    const std::vector<double> upper = elimination.solution(k_upper);
    const double upper_margin = inductive_margin(rows, true, upper, time);
    if (upper_margin < 0.0) return true;
    for (uint32_t k = 0; k < m; ++k) {
      BoundPair& p = v[states[k]];
      p.second = std::min(p.second, upper[k] + upper_margin * time[k]);
    }
  }
  return true;
}

#ifdef PMC_HAVE_GMP

bool SccDirectSolver::by_rationals(uint32_t c, std::span<const uint32_t> states, std::vector<BoundPair>& v) {
  const auto m = static_cast<uint32_t>(states.size());
  bool upper_finite = true;
  for (const uint32_t i : states) {
    if (!std::isfinite(s_.b[i])) return false;
    for (uint64_t e = s_.a.row_offsets[i]; e < s_.a.row_offsets[i + 1]; ++e) {
      const uint32_t j = s_.a.columns[e];
      if (component_of_[j] == c) continue;
      if (!std::isfinite(v[j].first)) return false;  // no rational for it
      upper_finite = upper_finite && std::isfinite(v[j].second);
    }
  }
  const uint32_t sides = upper_finite ? 2 : 1;
  StateElimination<mpq_class> elimination(m, sides);
  std::vector<std::pair<uint32_t, double>> inside;
  for (uint32_t k = 0; k < m; ++k) {
    const uint32_t i = states[k];
    mpq_class low(s_.b[i]), high(s_.b[i]), mass(s_.b[i]);
    inside.clear();
    for (uint64_t e = s_.a.row_offsets[i]; e < s_.a.row_offsets[i + 1]; ++e) {
      const uint32_t j = s_.a.columns[e];
      const double a = s_.a.values[e];
      mass += mpq_class(a);
      if (component_of_[j] == c) {
        inside.emplace_back(local_of_[j], a);
      } else if (a != 0.0) {
        const mpq_class weight(a);
        low += weight * mpq_class(v[j].first);
        if (upper_finite) high += weight * mpq_class(v[j].second);
      }
    }
    std::sort(inside.begin(), inside.end());
    for (size_t p = 0; p < inside.size();) {
      mpq_class sum(inside[p].second);
      size_t q = p + 1;
      for (; q < inside.size() && inside[q].first == inside[p].first; ++q) sum += mpq_class(inside[q].second);
      elimination.add(k, inside[p].first, sum);
      p = q;
    }
    if (std::isfinite(s_.upper_bound)) {  // the rounding slack of local_row, exactly
      const uint64_t length = s_.a.row_offsets[i + 1] - s_.a.row_offsets[i] + 1;
      const mpq_class slack = mpq_class(1) - mass, top(s_.upper_bound);
      if (slack > 0 && slack <= mpq_class(k_rounding_slack_per_entry * static_cast<double>(length))) high += slack * top;
      if (slack < 0) low += slack * top;
    }
    elimination.rhs(k, 0) = low;
    if (upper_finite) elimination.rhs(k, 1) = high;
  }
  // The same order as in doubles, each step at the cost of its numbers
  // (EliminationCost): Haddad–Monmege N=300 takes 13273 of the budget.
  const bool eliminated = elimination.eliminate(k_rational_work) == StateElimination<mpq_class>::Outcome::eliminated;
  counts_.work += elimination.work();
  rational_work_ += elimination.work();
  if (!eliminated) return false;
  const std::vector<mpq_class> lower = elimination.solution(0);
  for (uint32_t k = 0; k < m; ++k) {
    BoundPair& p = v[states[k]];
    p.first = std::max(p.first, round_down(lower[k]));
  }
  if (!upper_finite) return false;
  const std::vector<mpq_class> upper = elimination.solution(1);
  for (uint32_t k = 0; k < m; ++k) {
    BoundPair& p = v[states[k]];
    p.second = std::min(p.second, round_up(upper[k]));
  }
  return true;
}

#else

bool SccDirectSolver::by_rationals(uint32_t, std::span<const uint32_t>, std::vector<BoundPair>&) {
  return false;
}

#endif

}  // namespace pmc
