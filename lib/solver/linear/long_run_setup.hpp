// What the CPU's and the GPU's long-run bounds share (long_run_bounds.cpp,
// lib/solver/gpu/long_run.cpp): the problem's checks, the sweep's scales,
// the bracket's rounding margin (cuda/long_run_kernels.cu repeats that rule,
// since cuda/ may not include lib/solver) and how often it is computed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "solver/problem.hpp"

namespace pmc {

// Each difference and product of a row of `terms` entries is rounded once
// (relative error u = 2⁻⁵³), and the recursive sum of the terms + 1 values
// adds at most γ_terms of their magnitudes: |Δ̂ − Δ| ≤ (terms + 3)·u·M(1 +
// O(u)), M = |f| + Σ|r·(v_t − v_s)|. The margin takes twice that, with
// |Δ̂| added to M to cover the rounding of Δ̂ ± margin itself.
inline constexpr double long_run_margin(uint64_t terms, double magnitude) {
  return static_cast<double>(terms + 4) * 0x1p-52 * magnitude;
}

// Whether the bracket is as narrow as the rounding of its terms lets it get
// (`margin`: the widest margin of its last computation): within 8 margins,
// where more sweeps would only move it by its own rounding. The solvers
// stop there, converged only if bounds_close holds.
inline bool long_run_at_rounding(const LongRunBounds& bounds, double margin) {
  return bounds.upper - bounds.lower <= 8 * margin;
}

// The note of a solve stopped by long_run_at_rounding short of the
// precision asked for (a relative precision on an average far below the
// largest reward, whose terms cancel to it).
std::string long_run_rounding_note(const char* solver, const LongRunBounds& bounds);

// A bracket every 8th sweep: on the CPU it costs about a sweep itself, on
// the GPU a read-back.
inline constexpr uint64_t k_long_run_check_every = 8;

// Throws Error(invalid_argument) naming `solver` and the first problem: a
// reward per state, finite; rates finite and >= 0, to another state of the
// problem (no self loops); a distribution of one finite value >= 0 per
// state with a positive total.
void require_valid_long_run(const LongRunProblem& problem, const char* solver);

// Σ π̃ of the problem's distribution, summed in order.
double long_run_mass(const LongRunProblem& problem);

// ω/E_s for each state s (E_s = Σ_t r_st; 0 for a state without rates, a
// bottom SCC of its own).
std::vector<double> long_run_scales(const LongRunProblem& problem, double relaxation, int threads);

}  // namespace pmc
