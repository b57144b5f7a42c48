// A parametric CTMC at one parameter point: the CTMC whose rates
// are c + Σ_k a_k·p_k with every p_k given. `pmc check --param`, the shell's
// `set param`, pmc_options_set_parameter and the bindings all come here, so
// they accept and reject the same points with the same messages.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "model/model.hpp"

namespace pmc {

// Parameter name → value, as the user gave them.
using ParameterPoint = std::map<std::string, double, std::less<>>;

// The CTMC of `model` (a pCTMC) at `point`: labels, rewards and actions kept,
// parameters and coefficients dropped. Throws Error(invalid_argument) when
// the model has no parameters, a parameter is missing or unknown, or a value
// is not finite or lies outside the parameter's declared range; Error(model)
// when a rate comes out negative.
ModelPtr instantiate_parameters(const Model& model, const ParameterPoint& point);

// "ki=0.02,kr=0.05" (the point's names in order), for notes and messages.
std::string describe_point(const ParameterPoint& point);

// Parses "K=V" or "K1=V1,K2=V2" into `point` (later values replace earlier
// ones). Throws Error(invalid_argument) naming the bad item.
void parse_parameter_assignments(std::string_view text, ParameterPoint& point);

}  // namespace pmc
