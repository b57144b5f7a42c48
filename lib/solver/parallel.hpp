// Thread count for the CPU solvers: settings.threads, or all cores.
#pragma once

#include <algorithm>
#include <cstdint>

#include "solver/problem.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace pmc {

// Below this many rows a parallel region costs more than the sweep itself
// (measured: ~13 us per iteration of a 2-state system with two threads).
inline constexpr int64_t k_parallel_rows = 8192;
// Nor is a sweep of fewer entries, whatever its rows; one of more is worth
// splitting even over few rows (herman N13: 8,192 rows of ~195 entries ran
// on one core of 16 at 7 GB/s, bench/RESULTS.md).
inline constexpr uint64_t k_parallel_entries = uint64_t{1} << 17;

// Whether a sweep over `rows` rows holding `entries` entries runs on every
// core, and the rows each thread takes at a time then: 1024, or fewer so
// that every thread gets some.
inline bool sweep_in_parallel(int64_t rows, uint64_t entries) {
  return rows > k_parallel_rows || entries > k_parallel_entries;
}
inline int64_t sweep_chunk(int64_t rows, int threads) {
  return std::clamp<int64_t>(rows / (4 * static_cast<int64_t>(std::max(threads, 1))), 1, 1024);
}

// Value iteration: parallel Jacobi sweeps need more iterations than
// sequential Gauss–Seidel (about 1.5–2x on consensus N4_K4), so they only pay
// off with enough cores. Measured on the 2-core dev VM: R{"steps"}min on
// consensus N4_K4 took 11.7 s with 2-thread Jacobi, 1.6 s with Gauss–Seidel.
inline constexpr int k_min_threads_for_jacobi_vi = 4;

inline int solver_threads(const SolverSettings& settings) {
#ifdef _OPENMP
  return settings.threads > 0 ? settings.threads : omp_get_max_threads();
#else
  (void)settings;
  return 1;
#endif
}

}  // namespace pmc
