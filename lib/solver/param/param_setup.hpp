// Per-region numerics shared by cpu.param-bounds and gpu.param-bounds
// (shared numerics live once): the rate bounds r⊥/r⊤ of every
// transition over a region, the region's uniformisation rate, and each
// phase's Fox–Glynn window and coefficients. Free of fmt (cuda/ includes it).
#pragma once

#include <cstdint>
#include <vector>

#include "solver/param/param_problem.hpp"

namespace pmc {

// r⊥[e] = min and r⊤[e] = max of entry e's affine rate over the box (at a
// corner: per parameter, the end its coefficient's sign picks). Seed §3.3.
void region_rate_bounds(const ParamBoundsProblem& problem, const ParamBox& box, double* bottom, double* top);

// Adaptive uniformisation (seed §2.2 (2)): q = 1.02 × the largest Σ_e r⊤[e]
// of a row over this region alone (1 when every rate is 0). Σ r⊤ bounds the
// exit rate for every rate choice the ⋄ operator may make, so P⋄ stays a
// convex combination. 1.02 as PRISM (and pmc's ordinary CTMC checker).
double region_uniformisation_rate(const ParamBoundsProblem& problem, const ParamBox& box);

// One phase's uniformisation plan for rate q.
struct PhasePlan {
  uint64_t steps = 0;                 // Fox–Glynn's right end R (0 when time = 0)
  std::vector<double> coefficients;   // c_k for k = 0..steps
  // Added to the upper and subtracted from the lower bound: the truncated
  // Poisson mass (times the largest start value and t for rewards).
  double widen = 0;
};

// Throws Error(invalid_argument) when q·time is beyond Fox–Glynn's range.
std::vector<PhasePlan> plan_phases(const ParamBoundsProblem& problem, double q);

// Validates the problem and the boxes (sizes, finite, lower ≤ upper);
// throws Error(invalid_argument).
void check_param_problem(const ParamBoundsProblem& problem, const std::vector<ParamBox>& boxes);

}  // namespace pmc
