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

// cpu.gauss-seidel and cpu.jacobi on one bottom SCC's long-run average
// (long_run_bounds.cpp): certified bounds from the bias sweeps, in place by
// blocks on all cores (Gauss–Seidel) or from the previous iterate (Jacobi).
// Stops when bounds_close holds or at the iteration limit; `bounds` are
// certified either way (stats.sound).
SolveStats gauss_seidel_long_run(const LongRunProblem& problem, LongRunBounds& bounds, const SolverSettings& settings);
SolveStats jacobi_long_run(const LongRunProblem& problem, LongRunBounds& bounds, const SolverSettings& settings);

SolveStats power_linear(const LinearSystem& system, std::vector<double>& x, const SolverSettings& settings);
SolveStats power_stationary(const StationarySystem& system, std::vector<double>& x, const SolverSettings& settings);

SolveStats bicgstab_linear(const LinearSystem& system, std::vector<double>& x, const SolverSettings& settings);

// "cpu.interval-vi" on a linear system (interval_linear.cpp): sound
// interval iteration, lower and upper bounds in one Gauss–Seidel sweep.
// Upper start: system.upper_bound when finite, else the bound that sound
// value iteration's sweeps give (Quatmann & Katoen, CAV 2018). Stops when
// bounds_close holds in every unknown (stats.converged) or at the
// iteration limit; `lower`/`upper` are certified either way (stats.sound).
SolveStats interval_linear(const LinearSystem& system, std::vector<double>& lower, std::vector<double>& upper,
                           const SolverSettings& settings);

// "cpu.topo-interval-vi" on a linear system (topological_interval_linear.cpp):
// the same bounds and stopping rule as interval_linear, SCC by SCC in
// dependency order; an SCC of one unknown is solved in one update.
SolveStats topological_interval_linear(const LinearSystem& system, std::vector<double>& lower,
                                       std::vector<double>& upper, const SolverSettings& settings);

SolveStats steps_cpu(const StepProblem& problem, std::vector<double>& result, const SolverSettings& settings);

}  // namespace pmc
