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

}  // namespace pmc
