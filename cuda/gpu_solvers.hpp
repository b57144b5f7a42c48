// The GPU solvers, registered in lib/solver/registry.cpp. Built from the
// .cu files with CUDA; without CUDA, gpu_solvers_stub.cpp makes every one
// throw Error(no_device) saying pmc was built without CUDA support.
#pragma once

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
