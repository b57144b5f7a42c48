// Storm's explicit DRN format: DTMC, CTMC and MDP with double or
// rational values, and CTMCs whose rates are affine in parameters
// (@value_type: parametric), read as pCTMCs.
#pragma once

#include <string>

#include "model/model.hpp"

namespace pmc {

ModelParts read_drn(const std::string& path, const ModelOptions& options);
// Rewards must be per state or per choice (DRN has no per-transition rewards).
void write_drn(const Model& model, const std::string& path);

}  // namespace pmc
