// Probabilities of path formulas in DTMCs and CTMCs (X, U, U<=k, F, G
// and their time-bounded CTMC forms). Unbounded operators of a CTMC use
// its embedded DTMC; time bounds use uniformisation (transient.cpp).
#include <algorithm>
#include <cmath>
#include <utility>

#include "check/chain_matrices.hpp"
#include "check/computations.hpp"
#include "common/error.hpp"
#include "graph/bitset_ops.hpp"
#include "graph/dtmc_precomputation.hpp"

namespace pmc {

namespace {

using property::PathFormula;
using property::PathKind;
using property::TimeBound;
namespace bits = graph::bits;
using Phase = CheckContext::Phase;

std::vector<double> indicator(const Bitset& set) {
  std::vector<double> v(set.size(), 0.0);
  bits::for_each_set(set, [&](uint64_t s) { v[s] = 1.0; });
  return v;
}

std::vector<double> next_probabilities(const Model& model, const Bitset& target) {
  const CsrView p = probability_matrix(model);
  std::vector<double> values(p.rows, 0.0);
  for (uint64_t s = 0; s < p.rows; ++s) {
    for (uint64_t k = p.offsets[s]; k < p.offsets[s + 1]; ++k) {
      if (target.test(p.columns[k])) values[s] += p.values[k];
    }
  }
  return values;
}

// DTMC: P[φ U<=k ψ] by k steps of x ← P·x on the states that can still
// reach ψ through φ; ψ states keep 1, the rest 0.
std::vector<double> dtmc_bounded_until(CheckContext& ctx, const Bitset& left, const Bitset& right, uint64_t k) {
  const Bitset no = ctx.timed(Phase::precompute, [&] { return graph::prob0(ctx.transposed(), left, right); });
  const Bitset active = bits::difference(bits::difference(left, right), no);
  std::vector<double> x0 = indicator(right);
  std::vector<double> b = x0;
  return dtmc_steps(ctx, active, std::move(b), std::move(x0), k);
}

// DTMC: k steps of x ← P·x staying in φ (x = 0 outside φ): the second phase
// of a lower time bound.
std::vector<double> dtmc_stay_in(CheckContext& ctx, const Bitset& left, std::vector<double> x0, uint64_t k) {
  for (uint64_t s = 0; s < x0.size(); ++s) {
    if (!left.test(s)) x0[s] = 0;
  }
  return dtmc_steps(ctx, left, {}, std::move(x0), k);
}

uint64_t step_bound(const property::Number& n, const PathFormula& path) {
  if (!n.is_integer) {
    fail(ErrorCode::property, "column {}: a DTMC has discrete time: the bound {} must be an integer number of steps",
         path.column, property::to_string(n));
  }
  return static_cast<uint64_t>(n.value);
}

// The unbounded part of a lower-bounded until (F>=k, U>=t): its values go
// through further steps, which would need the steps run on both bounds to
// stay certified; pmc does not do that yet.
std::vector<double> unbounded_until_then_steps(CheckContext& ctx, const Bitset& left, const Bitset& right) {
  ResultExtras bounds;
  std::vector<double> values = unbounded_until(ctx, left, right, bounds);
  ctx.mark_unsound("the bounds of the unbounded part of a lower time bound are not carried through its steps");
  return values;
}

// φ U^I ψ for the bound I of `path` (F: φ = true).
std::vector<double> until(CheckContext& ctx, const PathFormula& path, const Bitset& left, const Bitset& right,
                          ResultExtras& extras) {
  const TimeBound& bound = path.bound;
  const bool ctmc = ctx.model().type() == ModelType::ctmc;
  if (bound.unbounded()) return unbounded_until(ctx, left, right, extras);
  if (!ctmc) {
    if (!bound.lower) return dtmc_bounded_until(ctx, left, right, step_bound(*bound.upper, path));
    const uint64_t lower = step_bound(*bound.lower, path);
    std::vector<double> later =
        bound.upper ? dtmc_bounded_until(ctx, left, right, step_bound(*bound.upper, path) - lower)
                    : unbounded_until_then_steps(ctx, left, right);
    return dtmc_stay_in(ctx, left, std::move(later), lower);
  }
  if (!bound.lower) return ctmc_bounded_until(ctx, left, right, bound.upper->value);
  // [t1, t2] (or >= t1): first the probability of φ U<=t2−t1 ψ, then the
  // chance of reaching a state with that value at t1 without leaving φ.
  const double t1 = bound.lower->value;
  std::vector<double> later = bound.upper ? ctmc_bounded_until(ctx, left, right, bound.upper->value - t1)
                                          : unbounded_until_then_steps(ctx, left, right);
  for (uint64_t s = 0; s < later.size(); ++s) {
    if (!left.test(s)) later[s] = 0;
  }
  return ctmc_transient(ctx, left, std::move(later), t1);
}

}  // namespace

void scatter_solution(const Bitset& maybe, const std::vector<uint32_t>& index, const std::vector<double>& x,
                      const std::vector<double>& lower, const std::vector<double>& upper, std::vector<double>& values,
                      ResultExtras& extras) {
  const bool bounds = !upper.empty();
  if (bounds) {
    extras.lower = values;
    extras.upper = values;
  }
  bits::for_each_set(maybe, [&](uint64_t s) {
    values[s] = x[index[s]];
    if (bounds) {
      extras.lower[s] = lower[index[s]];
      extras.upper[s] = upper[index[s]];
    }
  });
}

std::vector<double> dtmc_steps(CheckContext& ctx, const Bitset& active, std::vector<double> b,
                               std::vector<double> x0, uint64_t steps) {
  ctx.require_problem_memory(Computation::bounded_steps, active);
  StepProblem problem;
  problem.a = ctx.timed(Phase::build, [&] { return masked_matrix(probability_matrix(ctx.model()), active); });
  problem.b = std::move(b);
  problem.x0 = std::move(x0);
  problem.steps = steps;
  std::vector<double> result;
  ctx.solve_steps(problem, result);
  return result;
}

void complement_probabilities(std::vector<double>& values, ResultExtras& extras) {
  for (double& v : values) v = std::max(0.0, 1.0 - v);
  if (!extras.lower.empty()) {
    std::swap(extras.lower, extras.upper);
    for (double& v : extras.lower) v = std::max(0.0, 1.0 - v);
    for (double& v : extras.upper) v = std::max(0.0, 1.0 - v);
  }
}

std::vector<double> unbounded_until(CheckContext& ctx, const Bitset& left, const Bitset& right, ResultExtras& extras) {
  ReachabilitySolution resident;
  if (ctx.solve_reachability(left, right, resident)) {  // the whole check on a GPU
    extras.lower = std::move(resident.lower);
    extras.upper = std::move(resident.upper);
    return std::move(resident.values);
  }
  const graph::Prob01 p01 = ctx.timed(Phase::precompute, [&] { return graph::prob01(ctx.transposed(), left, right); });
  const Bitset maybe = bits::complement(bits::set_union(p01.prob0, p01.prob1));
  std::vector<double> values = indicator(p01.prob1);
  if (maybe.count() == 0) return values;
  ctx.require_problem_memory(Computation::reachability, maybe);
  std::vector<uint32_t> index;
  LinearSystem system = ctx.timed(
      Phase::build, [&] { return restrict_linear(probability_matrix(ctx.model()), maybe, values, {}, index); });
  system.upper_bound = 1.0;
  std::vector<double> x(system.b.size(), 0.0), lower, upper;
  ctx.solve_linear(system, x, &lower, &upper);
  scatter_solution(maybe, index, x, lower, upper, values, extras);
  return values;
}

std::vector<double> path_probabilities(CheckContext& ctx, const PathFormula& path, const Bitset& left,
                                       const Bitset& right, ResultExtras& extras) {
  switch (path.kind) {
    case PathKind::next:
      return next_probabilities(ctx.model(), right);
    case PathKind::until:
    case PathKind::eventually:
      return until(ctx, path, left, right, extras);
    case PathKind::globally: {
      std::vector<double> values = until(ctx, path, bits::full(right.size()), bits::complement(right), extras);
      complement_probabilities(values, extras);
      return values;
    }
  }
  fail(ErrorCode::internal, "unknown path formula");
}

}  // namespace pmc
