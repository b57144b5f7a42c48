// Thread count for the CPU solvers: settings.threads, or all cores.
#pragma once

#include <cstdint>

#include "solver/problem.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace pmc {

// Below this many rows a parallel region costs more than the sweep itself
// (measured: ~13 us per iteration of a 2-state system with two threads).
inline constexpr int64_t k_parallel_rows = 8192;

inline int solver_threads(const SolverSettings& settings) {
#ifdef _OPENMP
  return settings.threads > 0 ? settings.threads : omp_get_max_threads();
#else
  (void)settings;
  return 1;
#endif
}

}  // namespace pmc
