// The parametric-bounds solvers (DESIGN §4: cpu.param-bounds and
// gpu.param-bounds), registered in registry.cpp.
#pragma once

#include <vector>

#include "solver/param_problem.hpp"

namespace pmc {

// Bounds for every box, out[r] for boxes[r]. SolveStats::iterations is the
// largest number of uniformisation steps of one region. Throws
// Error(invalid_argument) for a malformed problem or box, Error(cancelled).
SolveStats param_bounds_cpu(const ParamBoundsProblem& problem, const std::vector<ParamBox>& boxes,
                            std::vector<ParamBounds>& out, const SolverSettings& settings);

// The GPU solver (cuda/param_bounds.cu; a stub without CUDA).
SolveStats param_bounds_gpu(const ParamBoundsProblem& problem, const std::vector<ParamBox>& boxes,
                            std::vector<ParamBounds>& out, const SolverSettings& settings);

// Each box's uniformisation rate q (adaptive Fox–Glynn): how many steps it needs.
std::vector<double> param_region_rates(const ParamBoundsProblem& problem, const std::vector<ParamBox>& boxes);

}  // namespace pmc
