// Launchers of gpu.jacobi's certified long-run bounds (long_run_kernels.cu;
// host half lib/solver/gpu/long_run.cpp): the damped Jacobi sweep on the
// bias equations of one bottom SCC and the bracket [min Δ_v, max Δ_v] of
// an iterate (solver/problem.hpp's LongRunProblem says why it bounds the
// long-run average). Each enqueues its work on `stream`.
#pragma once

#include <cstdint>

#include "cuda/device_csr.hpp"
#include "cuda/device_runtime.hpp"
#include "cuda/interval_kernels.hpp"

namespace pmc::cuda {

// One sweep from v into w, shifted so that the sweep of v_0's own value is
// the origin (a constant shift commutes with the sweep):
//   w_s = keep·v_s + scale_s·(f_s − estimate + Σ_t r_st·v_t) − v_0,
// keep = 1 − ω, scale_s = ω/E_s.
struct BiasSweep {
  uint64_t n;
  CsrView rates;
  const double* reward;
  const double* scale;
  double estimate;
  double keep;
  const double* v;
  double* w;
};
void launch_bias_sweep(const BiasSweep& u, bool warp_per_row, StreamHandle stream);

// check->lowest/highest (ordered_bits) take min_s and max_s of
// Δ_v(s) ∓ its rounding margin, check->widest the widest margin; `open` is
// left alone. weighted_s = π̃_s·Δ_v(s) (`distribution` is π̃; the host
// half sums them for the sweep's estimate of the average).
struct BiasBracket {
  uint64_t n;
  CsrView rates;
  const double* reward;
  const double* v;
  const double* distribution;
  double* weighted;
  IntervalCheck* check;
};
void launch_bias_bracket(const BiasBracket& u, bool warp_per_row, StreamHandle stream);

}  // namespace pmc::cuda
