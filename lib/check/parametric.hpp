// pCTMC properties → the parametric-bounds problem (docs/design.md §3–4; Češka et
// al. 2017, PRISM-PSY §2.1): the unnested time-bounded fragment
//   P [ φ U I ψ ], P [ F I ψ ] with I = <=t or [t1,t2],   R [ C<=t ]
// where φ, ψ are boolean combinations of labels. The property may be a
// query (P=?) or carry a bound (P>=0.9), which threshold synthesis can use.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "model/model.hpp"
#include "property/ast.hpp"
#include "solver/param/param_problem.hpp"

namespace pmc {

struct ParametricQuery {
  ParamBoundsProblem problem;
  std::string property;  // canonical text
  bool reward = false;   // R[C<=t]: values are expected rewards, not probabilities
  // The property's own bound (P>=0.9 [...]), if it has one.
  std::optional<property::Comparison> comparison;
  double threshold = 0;
};

// Throws Error(unsupported) when `model` is not a pCTMC or the property is
// outside the fragment (naming what is supported), Error(property) for an
// unknown label or reward structure, Error(parse) for bad syntax.
ParametricQuery parametric_query(const Model& model, std::string_view property_text);

}  // namespace pmc
