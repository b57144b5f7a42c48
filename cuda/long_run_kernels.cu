// long_run_kernels.hpp's kernels: a thread or a warp per state, as the
// other row updates (launch.hpp's crossover).
#include "cuda/check.cuh"
#include "cuda/interval_kernels.cuh"
#include "cuda/launch_per_item.cuh"
#include "cuda/long_run_kernels.hpp"
#include "cuda/reduce.cuh"

namespace pmc::cuda {

namespace {

// The rounding margin of a computed Δ(s): solver/linear/long_run_margin.hpp's
// rule (twice (terms + 3)·u of the magnitudes), which cuda/ may not include.
__device__ inline double bracket_margin(uint64_t terms, double magnitude) {
  return static_cast<double>(terms + 4) * 0x1p-52 * magnitude;
}

__device__ inline double finish_sweep(const BiasSweep& u, uint64_t s, double sum) {
  return u.keep * u.v[s] + u.scale[s] * (u.reward[s] - u.estimate + sum) - u.v[0];
}

__global__ void bias_sweep_thread(BiasSweep u) {
  const uint64_t s = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (s >= u.n) return;
  double sum = 0.0;
  for (uint64_t k = u.rates.offsets[s]; k < u.rates.offsets[s + 1]; ++k) sum += u.rates.values[k] * u.v[u.rates.columns[k]];
  u.w[s] = finish_sweep(u, s, sum);
}

__global__ void bias_sweep_warp(BiasSweep u) {
  const uint64_t s = (blockIdx.x * uint64_t{k_block_threads} + threadIdx.x) / k_warp;
  const unsigned lane = threadIdx.x % k_warp;
  if (s >= u.n) return;  // the whole warp
  double sum = 0.0;
  for (uint64_t k = u.rates.offsets[s] + lane; k < u.rates.offsets[s + 1]; k += k_warp) {
    sum += u.rates.values[k] * u.v[u.rates.columns[k]];
  }
  warp_sum(sum);
  if (lane == 0) u.w[s] = finish_sweep(u, s, sum);
}

// {Σ_t r_st·(v_t − v_s), Σ_t |r_st·(v_t − v_s)|} over every lanes-th entry of s.
__device__ inline double2 bracket_terms(const BiasBracket& u, uint64_t s, unsigned lane, unsigned lanes) {
  const double own = u.v[s];
  double2 sum = make_double2(0.0, 0.0);
  for (uint64_t k = u.rates.offsets[s] + lane; k < u.rates.offsets[s + 1]; k += lanes) {
    const double term = u.rates.values[k] * (u.v[u.rates.columns[k]] - own);
    sum.x += term;
    sum.y += fabs(term);
  }
  return sum;
}

__device__ inline CheckPartial bracket_part(const BiasBracket& u, uint64_t s, double2 terms) {
  const double f = u.reward[s];
  const double delta = f + terms.x;
  const double margin = bracket_margin(u.rates.offsets[s + 1] - u.rates.offsets[s], fabs(f) + terms.y + fabs(delta));
  CheckPartial part = no_check();
  part.lowest = delta - margin;
  part.highest = delta + margin;
  part.widest = margin;
  u.weighted[s] = u.distribution[s] * delta;
  return part;
}

__global__ void bias_bracket_thread(BiasBracket u) {
  const uint64_t s = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  CheckPartial part = no_check();
  if (s < u.n) part = bracket_part(u, s, bracket_terms(u, s, 0, 1));
  reduce_check(part, u.check);  // every thread of the block
}

__global__ void bias_bracket_warp(BiasBracket u) {
  const uint64_t s = (blockIdx.x * uint64_t{k_block_threads} + threadIdx.x) / k_warp;
  const unsigned lane = threadIdx.x % k_warp;
  CheckPartial part = no_check();
  if (s < u.n) {  // the whole warp
    double2 terms = bracket_terms(u, s, lane, k_warp);
    warp_sum(terms);
    if (lane == 0) part = bracket_part(u, s, terms);
  }
  reduce_check(part, u.check);
}

}  // namespace

void launch_bias_sweep(const BiasSweep& u, bool warp_per_row, StreamHandle stream) {
  if (u.n == 0) return;
  launch_thread_or_warp_per_item(bias_sweep_thread, bias_sweep_warp, warp_per_row, u.n, u, stream, "bias_sweep");
}

void launch_bias_bracket(const BiasBracket& u, bool warp_per_row, StreamHandle stream) {
  if (u.n == 0) return;
  launch_thread_or_warp_per_item(bias_bracket_thread, bias_bracket_warp, warp_per_row, u.n, u, stream,
                                 "bias_bracket");
}

}  // namespace pmc::cuda
