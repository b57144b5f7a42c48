// The CPU solvers (one algorithm per file), registered in registry.cpp.
#pragma once

#include <vector>

#include "solver/problem.hpp"

namespace pmc {

SolveStats jacobi_linear(const LinearSystem& system, std::vector<double>& x, const SolverSettings& settings);
SolveStats jacobi_stationary(const StationarySystem& system, std::vector<double>& x, const SolverSettings& settings);

SolveStats gauss_seidel_linear(const LinearSystem& system, std::vector<double>& x, const SolverSettings& settings);
SolveStats gauss_seidel_stationary(const StationarySystem& system, std::vector<double>& x,
                                   const SolverSettings& settings);

SolveStats power_linear(const LinearSystem& system, std::vector<double>& x, const SolverSettings& settings);
SolveStats power_stationary(const StationarySystem& system, std::vector<double>& x, const SolverSettings& settings);

SolveStats bicgstab_linear(const LinearSystem& system, std::vector<double>& x, const SolverSettings& settings);

SolveStats steps_cpu(const StepProblem& problem, std::vector<double>& result, const SolverSettings& settings);

}  // namespace pmc
