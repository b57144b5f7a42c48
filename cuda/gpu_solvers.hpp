// The GPU solvers, registered in lib/solver/registry.cpp. Built from the
// .cu files with CUDA; without CUDA, gpu_solvers_stub.cpp makes every one
// throw Error(no_device) saying pmc was built without CUDA support.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "solver/problem.hpp"

namespace pmc {

SolveStats gpu_jacobi_linear(const LinearSystem& system, std::vector<double>& x, const SolverSettings& settings);
SolveStats gpu_segscan_jacobi_linear(const LinearSystem& system, std::vector<double>& x, const SolverSettings& settings);
SolveStats gpu_bicgstab_linear(const LinearSystem& system, std::vector<double>& x, const SolverSettings& settings);
SolveStats gpu_steps(const StepProblem& problem, std::vector<double>& result, const SolverSettings& settings);
// Minimize problems get their zero-reward end components collapsed first
// (as cpu.vi); the _without_collapse variant is for callers that did it.
SolveStats gpu_value_iteration(const MinMaxProblem& problem, MinMaxSolution& solution, const SolverSettings& settings);
SolveStats gpu_value_iteration_without_collapse(const MinMaxProblem& problem, MinMaxSolution& solution,
                                                const SolverSettings& settings);
SolveStats gpu_value_iteration_steps(const MinMaxProblem& problem, MinMaxSolution& solution,
                                     const SolverSettings& settings);
// gpu.interval-vi (cuda/interval_iteration.cu): sound interval iteration
// with the lower and upper vectors updated in one pass over the matrix and
// the stopping test (bounds_close) reduced on the device. Same contracts as
// cpu.interval-vi (interval_linear, interval_value_iteration).
SolveStats gpu_interval_linear(const LinearSystem& system, std::vector<double>& lower, std::vector<double>& upper,
                               const SolverSettings& settings);
SolveStats gpu_interval_value_iteration(const MinMaxProblem& problem, MinMaxSolution& solution,
                                        const SolverSettings& settings);
// gpu.interval-vi on a chain or MDP resident on the GPU
// (lib/solver/device/resident_reachability.cpp over cuda/resident_reachability.cu
// and cuda/resident_mdp.cu): the first call uploads the probability matrix
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
// Its device half: uploads a chain or MDP (`groups` null for a chain) to
// the settings' device (an opaque cuda::ResidentChain; the copies' seconds
// in upload_seconds), and solves on one. stats.seconds of the latter
// excludes the upload.
std::shared_ptr<void> gpu_upload_chain(const SolverSettings& settings, uint64_t states, const uint64_t* groups,
                                       const uint64_t* offsets, const uint32_t* columns, const double* values,
                                       double& upload_seconds);
SolveStats gpu_reachability_on_chain(const void* chain, const ReachabilityProblem& problem,
                                     ReachabilitySolution& solution, const SolverSettings& settings);

// Host code (lib/solver/minmax/gpu_topological_value_iteration.cpp) over
// gpu_value_iteration: SCC blocks that fit settings.gpu_memory_limit (or the
// device's free memory), a CPU fallback for an SCC that does not.
SolveStats gpu_topological_value_iteration(const MinMaxProblem& problem, MinMaxSolution& solution,
                                           const SolverSettings& settings);

// gpu.jacobi and gpu.vi over several GPUs (cuda/partitioned_solve.cu): the
// rows split over `devices` (indices among the usable GPUs), slices
// exchanged after every iteration. gpu_jacobi_linear and gpu_value_iteration
// come here when solver/device/device_selection.hpp plans more than one GPU; tests
// and benchmarks call these directly to pick the exchange or to run several
// slices on one GPU (the copy exchange allows a device to repeat).
SolveStats gpu_jacobi_partitioned(const LinearSystem& system, std::vector<double>& x, const SolverSettings& settings,
                                  const std::vector<int>& devices, GpuExchange exchange);
// bounded: exactly problem.steps iterations (gpu_value_iteration_steps).
// No end-component collapse: gpu_value_iteration does it before calling.
SolveStats gpu_value_iteration_partitioned(const MinMaxProblem& problem, MinMaxSolution& solution,
                                           const SolverSettings& settings, const std::vector<int>& devices,
                                           GpuExchange exchange, bool bounded);

}  // namespace pmc
