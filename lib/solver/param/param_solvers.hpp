// The parametric-bounds solvers (cpu.param-bounds and
// gpu.param-bounds), registered in registry.cpp.
#pragma once

#include <vector>

#include "solver/param/param_problem.hpp"

namespace pmc {

// Bounds for every box, out[r] for boxes[r]. SolveStats::iterations is the
// largest number of uniformisation steps of one region. Throws
// Error(invalid_argument) for a malformed problem or box, Error(cancelled).
SolveStats param_bounds_cpu(const ParamBoundsProblem& problem, const std::vector<ParamBox>& boxes,
                            std::vector<ParamBounds>& out, const SolverSettings& settings);

// How gpu.param-bounds runs a phase's steps: one kernel launch per step;
// fused (a cooperative launch per 256 steps with grid barriers, sums kept in
// registers; needs a region to fit the device's resident threads); or block
// (one thread block per region, its vectors in shared memory, 256 steps per
// launch with block barriers; needs a region's 32 B per state to fit a
// block's shared memory). automatic: block for models of at most 1024
// states, else fused where it fits, else per step. All give the same results; the choice is for the
// benchmark and the tests, which run each.
enum class ParamGpuLoop { automatic, per_step, fused, block };

// The GPU solver, param_bounds_gpu, is declared with the other GPU solvers
// in solver/gpu/gpu_solvers.hpp.

// Each box's uniformisation rate q (adaptive Fox–Glynn): how many steps it needs.
std::vector<double> param_region_rates(const ParamBoundsProblem& problem, const std::vector<ParamBox>& boxes);

}  // namespace pmc
