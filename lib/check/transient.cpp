// Time-bounded CTMC computations by uniformisation (Fox–Glynn weights):
// with P = I + Q/q and N ~ Poisson(q·t), the state distribution at time t is
// Σ_k Pr[N = k]·P^k, so every time-bounded quantity is a weighted sum of
// matrix powers applied to a vector — one StepProblem for cpu.steps/gpu.steps.
#include <algorithm>
#include <cmath>

#include "check/chain_matrices.hpp"
#include "check/computations.hpp"
#include "common/error.hpp"
#include "graph/bitset_ops.hpp"
#include "graph/dtmc_precomputation.hpp"
#include "solver/fox_glynn.hpp"

namespace pmc {

namespace {

namespace bits = graph::bits;

// Fox–Glynn's truncation error is absolute, while results can be as small
// as 1e-7 and must agree within 1e-5 relative (DESIGN §7): truncate far
// below the solver's ε (the extra terms cost a few iterations).
double fox_glynn_epsilon(const CheckContext& ctx) {
  return std::clamp(ctx.options().settings.epsilon * 1e-6, 1e-300, 1e-8);
}

FoxGlynnWeights weights_for(CheckContext& ctx, double q, double t) {
  FoxGlynnWeights w = fox_glynn(q * t, fox_glynn_epsilon(ctx));
  ctx.add_note(fmt::format("uniformisation: q = {:.6g}, q*t = {:.6g}, Fox-Glynn window [{}, {}]", q, q * t, w.left,
                           w.right));
  return w;
}

// The weights are Fox–Glynn's, renormalised over their window [L, R]: each
// differs from the exact Poisson probability by at most the truncated mass
// δ in total, so a weighted sum of vectors bounded by m is off by at most
// 2·δ·m (δ moved within the window plus δ left outside it).
double max_magnitude(const std::vector<double>& v) {
  double m = 0.0;
  for (double x : v) m = std::max(m, std::fabs(x));
  return m;
}

}  // namespace

std::vector<double> ctmc_transient(CheckContext& ctx, const Bitset& active, std::vector<double> x0, double t) {
  if (t == 0) return x0;
  const double q = uniformisation_rate(ctx.model());
  const FoxGlynnWeights w = weights_for(ctx, q, t);
  ctx.add_absolute_error(2.0 * w.truncation_error * max_magnitude(x0));
  StepProblem problem;
  problem.a = ctx.timed(CheckContext::Phase::build, [&] { return uniformised_matrix(ctx.model(), q, active); });
  problem.x0 = std::move(x0);
  problem.steps = w.right;
  problem.coefficients.assign(w.right + 1, 0.0);
  for (uint64_t k = w.left; k <= w.right; ++k) problem.coefficients[k] = w.weight(k);
  std::vector<double> result;
  ctx.solve_steps(problem, result);
  return result;
}

std::vector<double> ctmc_bounded_until(CheckContext& ctx, const Bitset& left, const Bitset& right, double t) {
  std::vector<double> target(right.size(), 0.0);
  bits::for_each_set(right, [&](uint64_t s) { target[s] = 1.0; });
  if (t == 0) return target;
  // ψ states hold 1 (row empty, b = 1); states that cannot reach ψ through φ
  // hold 0; the rest move by the uniformised chain.
  const Bitset no =
      ctx.timed(CheckContext::Phase::precompute, [&] { return graph::prob0(ctx.transposed(), left, right); });
  const Bitset active = bits::difference(bits::difference(left, right), no);
  const double q = uniformisation_rate(ctx.model());
  const FoxGlynnWeights w = weights_for(ctx, q, t);
  ctx.add_absolute_error(2.0 * w.truncation_error);  // probabilities: m = 1
  StepProblem problem;
  problem.a = ctx.timed(CheckContext::Phase::build, [&] { return uniformised_matrix(ctx.model(), q, active); });
  problem.b = target;
  problem.x0 = target;
  problem.steps = w.right;
  problem.coefficients.assign(w.right + 1, 0.0);
  for (uint64_t k = w.left; k <= w.right; ++k) problem.coefficients[k] = w.weight(k);
  std::vector<double> result;
  ctx.solve_steps(problem, result);
  // The weights sum to 1 over the window, but rounding can push a certain
  // event a hair above 1.
  for (double& v : result) v = std::min(v, 1.0);
  return result;
}

std::vector<double> ctmc_cumulative_reward(CheckContext& ctx, const std::vector<double>& rates, double t) {
  if (t == 0) return std::vector<double>(rates.size(), 0.0);
  // E[∫_0^t r(X_u) du] = (1/q)·Σ_k Pr[N > k]·P^k·r.
  const double q = uniformisation_rate(ctx.model());
  const FoxGlynnWeights w = weights_for(ctx, q, t);
  // Each of the R + 1 coefficients is off by at most 2δ/q, and the terms
  // past R add at most E[(N − R)⁺]/q ≤ (q·t + 1)·δ/q (N's tail beyond R
  // holds at most δ of its mass): times max |r|.
  ctx.add_absolute_error(max_magnitude(rates) * w.truncation_error * (2.0 * (w.right + 1) + q * t + 1) / q);
  StepProblem problem;
  problem.a = ctx.timed(CheckContext::Phase::build,
                        [&] { return uniformised_matrix(ctx.model(), q, bits::full(rates.size())); });
  problem.x0 = rates;
  problem.steps = w.right;
  problem.coefficients.resize(w.right + 1);
  double below = 0.0;  // Pr[N <= k]
  for (uint64_t k = 0; k <= w.right; ++k) {
    below += w.weight(k);
    problem.coefficients[k] = std::max(0.0, 1.0 - below) / q;
  }
  std::vector<double> result;
  ctx.solve_steps(problem, result);
  return result;
}

std::vector<double> ctmc_instantaneous_reward(CheckContext& ctx, const std::vector<double>& state_rewards, double t) {
  return ctmc_transient(ctx, bits::full(state_rewards.size()), state_rewards, t);
}

}  // namespace pmc
