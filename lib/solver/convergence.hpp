// The convergence test every iterative solver shares, as PRISM does it:
// relative: max_i |new_i − old_i| / |new_i| < ε (absolute where new_i = 0);
// absolute: max_i |new_i − old_i| < ε.
#pragma once

#include <cmath>

#include "solver/problem.hpp"

namespace pmc {

inline double convergence_difference(double old_value, double new_value, bool relative) {
  const double diff = std::fabs(new_value - old_value);
  if (relative && new_value != 0.0) return diff / std::fabs(new_value);
  return diff;
}

// Sound solvers' stopping rule (certified bounds): bounds lower ≤ v ≤ upper are
// close enough when upper − lower ≤ 2ε·max(|lower|, 1e-9) (relative) or
// ≤ 2ε (absolute). Their midpoint is then within ε of v relative to v, or
// within 1e-9·ε absolutely for values below 1e-9 (the reference tolerance's floor, docs/design.md §7: a
// value that is exactly 0, e.g. an expected reward nothing earns, would
// otherwise need its upper bound iterated down to 0; and one as small as
// 1e-79 is the same as 0 at that precision). NaN and an infinite upper are
// never close.
inline constexpr double k_relative_floor = 1e-9;

inline bool bounds_close(double lower, double upper, double epsilon, bool relative) {
  const double scale = relative ? std::fmax(std::fabs(lower), k_relative_floor) : 1.0;
  return upper - lower <= 2.0 * epsilon * scale;
}

// Sound value iteration's first phase (cpu.interval-vi and gpu.interval-vi
// on linear systems without an a-priori bound): the bounds x_k/(1 − y_k)
// are taken once every unknown keeps at most k_max_kept_mass, where 1 − y
// is far above rounding; the cancellation in 1 − y still costs up to ~1e-13
// relative, so the extreme ratios are widened by k_ratio_margin.
inline constexpr double k_max_kept_mass = 1.0 - 1e-3;
inline constexpr double k_ratio_margin = 1e-12;
inline double widened_ratio(double ratio, double direction) {
  return ratio + direction * k_ratio_margin * std::fabs(ratio);
}

// The value a sound solver reports: the midpoint of its bounds, or the lower
// bound while the upper one is still infinite.
inline double bounds_midpoint(double lower, double upper) {
  return std::isfinite(upper) ? 0.5 * (lower + upper) : lower;
}

}  // namespace pmc
