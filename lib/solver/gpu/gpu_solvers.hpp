// The GPU solvers, registered in lib/solver/registry.cpp. The entry points
// that need the device are listed once in gpu_solver_list.inc: built from
// cuda/ with CUDA; without CUDA, without_cuda.cpp makes every one throw
// Error(no_device) saying pmc was built without CUDA support.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "solver/param/param_solvers.hpp"
#include "solver/problem.hpp"

namespace pmc {

#define PMC_GPU_SOLVER(result, function, solver_name, parameters) result function parameters;
#include "solver/gpu/gpu_solver_list.inc"
#undef PMC_GPU_SOLVER

// Host code over the entry points above, built with and without CUDA
// (without it, the first device query fails with Error(no_device)).

// gpu.interval-vi on a chain or MDP resident on the GPU
// (resident_reachability.cpp over gpu_upload_chain and
// gpu_reachability_on_chain): the first call uploads the probability matrix
// and builds its transposed graph on the device, cached on problem.model
// (device_chain_key) until the model is freed or its device copies
// released; prob0/prob1 (MDPs: Prob0A/1E for max, Prob0E/1A for min) run
// there as frontier searches and interval iteration on the whole matrix,
// masked by them. An MDP's Pmax with end components among the maybe states
// comes back with solution.solved false and only the status decided.
// Throws Error(out_of_memory) when the copy does not fit
// settings.gpu_memory_limit (or the device's free memory), before allocating.
SolveStats gpu_resident_reachability(const ReachabilityProblem& problem, ReachabilitySolution& solution,
                                     const SolverSettings& settings);

// gpu.topo-vi (topological_value_iteration.cpp) over gpu_value_iteration:
// SCC blocks that fit settings.gpu_memory_limit (or the device's free
// memory), a CPU fallback for an SCC that does not.
SolveStats gpu_topological_value_iteration(const MinMaxProblem& problem, MinMaxSolution& solution,
                                           const SolverSettings& settings);

}  // namespace pmc
