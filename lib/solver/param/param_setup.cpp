#include "solver/param/param_setup.hpp"

#include <algorithm>
#include <cmath>

#include "common/error.hpp"
#include "solver/fox_glynn.hpp"

namespace pmc {

void region_rate_bounds(const ParamBoundsProblem& problem, const ParamBox& box, double* bottom, double* top) {
  const uint32_t num_params = problem.num_parameters;
  const uint64_t entries = problem.num_entries();
  for (uint64_t e = 0; e < entries; ++e) {
    double lo = problem.constants[e], hi = lo;
    const double* a = problem.coefficients.data() + e * num_params;
    for (uint32_t k = 0; k < num_params; ++k) {
      const double at_lower = a[k] * box.lower[k], at_upper = a[k] * box.upper[k];
      lo += std::min(at_lower, at_upper);
      hi += std::max(at_lower, at_upper);
    }
    // Validation guarantees rates >= 0 over the parameter space; rounding
    // must not make a zero rate slightly negative.
    bottom[e] = std::max(lo, 0.0);
    top[e] = std::max(hi, 0.0);
  }
}

double region_uniformisation_rate(const ParamBoundsProblem& problem, const ParamBox& box) {
  const uint32_t num_params = problem.num_parameters;
  double largest = 0;
  for (uint64_t s = 0; s < problem.num_states; ++s) {
    double exit = 0;
    for (uint64_t e = problem.row_offsets[s]; e < problem.row_offsets[s + 1]; ++e) {
      double hi = problem.constants[e];
      const double* a = problem.coefficients.data() + e * num_params;
      for (uint32_t k = 0; k < num_params; ++k) hi += std::max(a[k] * box.lower[k], a[k] * box.upper[k]);
      exit += std::max(hi, 0.0);
    }
    largest = std::max(largest, exit);
  }
  return largest > 0 ? 1.02 * largest : 1.0;
}

std::vector<PhasePlan> plan_phases(const ParamBoundsProblem& problem, double q) {
  std::vector<PhasePlan> plans;
  double largest_start = 0;
  for (double v : problem.x0) largest_start = std::max(largest_start, std::fabs(v));
  for (const ParamPhase& phase : problem.phases) {
    PhasePlan plan;
    if (phase.time == 0) {
      plan.coefficients = {phase.cumulative ? 0.0 : 1.0};
      plans.push_back(std::move(plan));
      continue;
    }
    const FoxGlynnWeights w = fox_glynn(q * phase.time, problem.fox_glynn_epsilon);
    plan.steps = w.right;
    plan.coefficients.assign(w.right + 1, 0.0);
    // Normalised weights differ from the Poisson probabilities by at most
    // the truncated mass err in total, so Σ_k w_k·v_k is within err of the
    // exact sum for v in [0,1].
    const double err = std::max(w.truncation_error, problem.fox_glynn_epsilon);
    if (!phase.cumulative) {
      for (uint64_t k = w.left; k <= w.right; ++k) plan.coefficients[k] = w.weight(k);
      plan.widen = err;
    } else {
      // E[∫_0^t r(X_u) du] = (1/q)·Σ_k Pr[N > k]·P^k·r (as transient.cpp).
      // Each coefficient is off by at most 2·err/q, and the tail beyond R
      // holds at most λ·Pr[N ≥ R]/q ≤ 2·err·t, times the largest reward.
      double below = 0;
      for (uint64_t k = 0; k <= w.right; ++k) {
        below += w.weight(k);
        plan.coefficients[k] = std::max(0.0, 1.0 - below) / q;
      }
      plan.widen = largest_start * err * (2.0 * static_cast<double>(w.right + 1) / q + 2.0 * phase.time);
    }
    plans.push_back(std::move(plan));
  }
  return plans;
}

void check_param_problem(const ParamBoundsProblem& p, const std::vector<ParamBox>& boxes) {
  const uint64_t n = p.num_states;
  if (p.row_offsets.size() != n + 1 || p.row_offsets.back() != p.columns.size() ||
      p.constants.size() != p.columns.size() || p.coefficients.size() != p.columns.size() * p.num_parameters ||
      p.x0.size() != n || p.phases.empty()) {
    fail(ErrorCode::invalid_argument, "malformed parametric bounds problem");
  }
  for (const ParamPhase& phase : p.phases) {
    if (phase.active.size() != n || !(phase.time >= 0) || !std::isfinite(phase.time)) {
      fail(ErrorCode::invalid_argument, "malformed phase of a parametric bounds problem");
    }
  }
  for (uint64_t s : p.keep_states) {
    if (s >= n) fail(ErrorCode::invalid_argument, "state {} out of range ({} states)", s, n);
  }
  for (const ParamBox& box : boxes) {
    if (box.lower.size() != p.num_parameters || box.upper.size() != p.num_parameters) {
      fail(ErrorCode::invalid_argument, "a region needs bounds for {} parameters, got {}", p.num_parameters,
           box.lower.size());
    }
    for (uint32_t k = 0; k < p.num_parameters; ++k) {
      if (!std::isfinite(box.lower[k]) || !std::isfinite(box.upper[k]) || box.lower[k] > box.upper[k]) {
        fail(ErrorCode::invalid_argument, "region bounds [{}, {}] of parameter {} are not a finite interval",
             box.lower[k], box.upper[k], k);
      }
    }
  }
}

}  // namespace pmc
