// Regions of the parameter space during refinement: a box, its bounds, and
// bisection (every free dimension halved: 2^d children, as PRISM-PSY).
#pragma once

#include <cstdint>
#include <vector>

#include "solver/param/param_problem.hpp"

namespace pmc::synth {

struct Node {
  ParamBox box;
  double lo = 0, hi = 0;  // bounds of the property over the box (initial state)
  double volume = 0;      // relative to the whole space (1 for the root)
};

// Volume of `box` relative to `space` over the dimensions where the space
// has positive width (fixed parameters do not count).
double relative_volume(const ParamBox& box, const ParamBox& space);

// The 2^d halves of `box` along the dimensions where `space` is not a point.
std::vector<ParamBox> bisect(const ParamBox& box, const ParamBox& space);

// The centre of a box, as a point box.
ParamBox centre(const ParamBox& box);

}  // namespace pmc::synth
