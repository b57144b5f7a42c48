// Time-bounded CTMC computations by uniformisation (Fox–Glynn weights):
// with P = I + Q/q and N ~ Poisson(q·t), the state distribution at time t is
// Σ_k Pr[N = k]·P^k, so every time-bounded quantity is a weighted sum of
// matrix powers applied to a vector — one StepProblem for cpu.steps/gpu.steps.
#include <algorithm>
#include <cmath>

#include "check/chain_matrices.hpp"
#include "common/caller_language.hpp"
#include "check/computations.hpp"
#include "common/error.hpp"
#include "graph/bitset_ops.hpp"
#include "graph/dtmc_precomputation.hpp"
#include "solver/fox_glynn.hpp"

namespace pmc {

namespace {

namespace bits = graph::bits;

// Fox–Glynn's truncation error is absolute, while results can be as small
// as 1e-7 and must agree with the reference within 1e-5 relative: truncate far
// below the solver's ε (the extra terms cost a few iterations).
double fox_glynn_epsilon(const CheckContext& ctx) {
  return std::clamp(ctx.options().settings.epsilon * 1e-6, 1e-300, 1e-8);
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

// What is summed: Σ_k Pr[N = k]·v_k (transient distributions, bounded
// until) or (1/q)·Σ_k Pr[N > k]·v_k (cumulative rewards).
enum class Weights { poisson, tail };

// Fills problem.steps and its coefficients (problem.a, b, x0 set), solves
// and returns Σ_k c_k·v_k; `magnitude` bounds |v_k| (the error bound's m).
//
// With q·t huge (F<=1e12 on a stiff chain), neither the steps (about
// q·t) nor the Fox–Glynn window (about 10·sqrt(q·t) weights) may be
// attempted blindly. When the window starts beyond what may be iterated
// (max_iterations) or its weights beyond what may be stored
// (k_fox_glynn_max_lambda), the steps run first without weights, up to
// L = poisson_lower_bound(q·t) where P[N < L] <= ε/2: an iterate stationary
// at j < L is the answer, up to the mass before j, which the error bound
// counts; otherwise the property is refused with what it would need.
std::vector<double> solve_uniformised(CheckContext& ctx, StepProblem& problem, double q, double t, Weights kind,
                                      double magnitude) {
  const double lambda = q * t;
  const double epsilon = fox_glynn_epsilon(ctx);
  const uint64_t limit = ctx.options().settings.max_iterations;
  const uint64_t before_window = poisson_lower_bound(lambda, epsilon);
  std::vector<double> result;
  if (lambda > k_fox_glynn_max_lambda || before_window >= limit) {
    ctx.add_note(fmt::format(
        "uniformisation: q = {:.6g}, q*t = {:.6g}: the Poisson weights start after step {}, beyond the iteration "
        "limit or storage; stepping until the iterate is stationary",
        q, lambda, before_window));
    problem.steps = before_window;
    if (kind == Weights::tail) {
      // c_k = Pr[N > k]/q is 1/q up to ε/2 before L; the last one stands for
      // Σ_{k>=L} Pr[N > k] ≈ E[(N − L)⁺] = λ − L (+ at most L·ε/2).
      problem.coefficient_before = 1.0 / q;
      problem.coefficients_first = before_window;
      // (λ − L)/q, written so that q·t = ∞ (t near DBL_MAX) stays finite
      // (found by fuzzing: ∞·0 made the cumulative reward NaN).
      problem.coefficients = {t - static_cast<double>(before_window) / q};
      // (L + 1)·ε/2 per coefficient sum, twice (before L and the tail).
      ctx.add_absolute_error(magnitude * epsilon * (static_cast<double>(before_window) + 1.0) / q);
    } else {
      // Unweighted: the result is v_j, standing for Σ_k Pr[N = k]·v_k with
      // v_k = v_j for k >= j; off by at most P[N < j]·2m <= ε·m.
      ctx.add_absolute_error(2.0 * epsilon * magnitude);
    }
    const bool converged = ctx.converged();
    ctx.solve_steps(problem, result);
    if (converged && !ctx.converged()) {
      fail(ErrorCode::unsupported,
           "uniformisation with q*t = {:.6g} (q = {:.6g}, t = {:.6g}) needs about {:.6g} steps and Poisson weights "
           "from step {} on; the iterate was not stationary within the iteration limit ({} steps): raise it with "
           "{} or use a smaller time bound",
           lambda, q, t, lambda, before_window, limit, setting_name(Setting::max_iterations));
    }
    return result;
  }
  const FoxGlynnWeights w = fox_glynn(lambda, epsilon);
  ctx.add_note(fmt::format("uniformisation: q = {:.6g}, q*t = {:.6g}, Fox-Glynn window [{}, {}]", q, lambda, w.left,
                           w.right));
  problem.steps = w.right;
  problem.coefficients_first = w.left;
  if (kind == Weights::poisson) {
    ctx.add_absolute_error(2.0 * w.truncation_error * magnitude);
    problem.coefficients = w.weights;
  } else {
    // Each of the R + 1 coefficients is off by at most 2δ/q, and the terms
    // past R add at most E[(N − R)⁺]/q ≤ (q·t + 1)·δ/q (N's tail beyond R
    // holds at most δ of its mass): times max |r|.
    ctx.add_absolute_error(magnitude * w.truncation_error * (2.0 * (w.right + 1) + lambda + 1) / q);
    problem.coefficient_before = 1.0 / q;  // Pr[N > k] = 1 − 0 before the window
    problem.coefficients.resize(w.right - w.left + 1);
    double below = 0.0;  // Pr[N <= k]
    for (uint64_t k = w.left; k <= w.right; ++k) {
      below += w.weight(k);
      problem.coefficients[k - w.left] = std::max(0.0, 1.0 - below) / q;
    }
  }
  ctx.solve_steps(problem, result);
  return result;
}

}  // namespace

std::vector<double> ctmc_transient(CheckContext& ctx, const Bitset& active, std::vector<double> x0, double t) {
  if (t == 0) return x0;
  const double q = uniformisation_rate(ctx.model());
  const double magnitude = max_magnitude(x0);
  ctx.require_problem_memory(Computation::uniformisation, active, q * t);
  StepProblem problem;
  problem.a = ctx.timed(CheckContext::Phase::build, [&] { return uniformised_matrix(ctx.model(), q, active); });
  problem.x0 = std::move(x0);
  return solve_uniformised(ctx, problem, q, t, Weights::poisson, magnitude);
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
  ctx.require_problem_memory(Computation::uniformisation, active, q * t);
  StepProblem problem;
  problem.a = ctx.timed(CheckContext::Phase::build, [&] { return uniformised_matrix(ctx.model(), q, active); });
  problem.b = target;
  problem.x0 = target;
  std::vector<double> result = solve_uniformised(ctx, problem, q, t, Weights::poisson, 1.0);  // probabilities: m = 1
  // The weights sum to 1 over the window, but rounding can push a certain
  // event a hair above 1.
  for (double& v : result) v = std::min(v, 1.0);
  return result;
}

std::vector<double> ctmc_cumulative_reward(CheckContext& ctx, const std::vector<double>& rates, double t) {
  if (t == 0) return std::vector<double>(rates.size(), 0.0);
  // E[∫_0^t r(X_u) du] = (1/q)·Σ_k Pr[N > k]·P^k·r.
  const double q = uniformisation_rate(ctx.model());
  ctx.require_problem_memory(Computation::uniformisation, whole_model(ctx.model()), q * t);
  StepProblem problem;
  problem.a = ctx.timed(CheckContext::Phase::build,
                        [&] { return uniformised_matrix(ctx.model(), q, bits::full(rates.size())); });
  problem.x0 = rates;
  return solve_uniformised(ctx, problem, q, t, Weights::tail, max_magnitude(rates));
}

std::vector<double> ctmc_instantaneous_reward(CheckContext& ctx, const std::vector<double>& state_rewards, double t) {
  return ctmc_transient(ctx, bits::full(state_rewards.size()), state_rewards, t);
}

}  // namespace pmc
