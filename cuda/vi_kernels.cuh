// Bellman updates of an MDP (Berger 2014 §3.5): x'_s = opt over the
// choices r of s of (b_r + Σ_k a_k·x[col_k]). A thread per state when states
// have few entries; a warp per state (lanes over each choice's entries,
// shuffle reduction) when they have many.
#pragma once

#include <cstdint>

#include "cuda/check.cuh"
#include "cuda/launch.hpp"
#include "cuda/minmax_kernels.hpp"  // BellmanUpdate
#include "cuda/reduce.cuh"

namespace pmc::cuda {

__device__ inline void finish_state(const BellmanUpdate& u, uint64_t s, double best, uint32_t best_choice) {
  const double old_value = u.x[u.slot_base + s];
  if (u.groups[s] == u.groups[s + 1]) best = old_value;  // no choice: keep the value
  u.y[u.slot_base + s] = best;
  if (u.diff) u.diff[s] = convergence_difference(old_value, best, u.relative);
  if (u.choice) u.choice[s] = best_choice;
}

static __global__ void bellman_thread(BellmanUpdate u) {
  const uint64_t s = u.first + blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (s >= u.states) return;
  double best = u.maximize ? -INFINITY : INFINITY;
  uint32_t best_choice = 0;
  for (uint64_t r = u.groups[s]; r < u.groups[s + 1]; ++r) {
    double v = u.b[r];
    for (uint64_t k = u.a.offsets[r]; k < u.a.offsets[r + 1]; ++k) v += u.a.values[k] * u.x[u.a.columns[k]];
    if (u.maximize ? v > best : v < best) {
      best = v;
      best_choice = static_cast<uint32_t>(r - u.groups[s]);
    }
  }
  finish_state(u, s, best, best_choice);
}

static __global__ void bellman_warp(BellmanUpdate u) {
  const uint64_t s = u.first + (blockIdx.x * uint64_t{k_block_threads} + threadIdx.x) / k_warp;
  const unsigned lane = threadIdx.x % k_warp;
  if (s >= u.states) return;
  double best = u.maximize ? -INFINITY : INFINITY;
  uint32_t best_choice = 0;
  for (uint64_t r = u.groups[s]; r < u.groups[s + 1]; ++r) {
    double v = 0.0;
    for (uint64_t k = u.a.offsets[r] + lane; k < u.a.offsets[r + 1]; k += k_warp) {
      v += u.a.values[k] * u.x[u.a.columns[k]];
    }
    warp_sum(v);
    v = __shfl_sync(0xffffffffu, v, 0) + u.b[r];
    if (u.maximize ? v > best : v < best) {
      best = v;
      best_choice = static_cast<uint32_t>(r - u.groups[s]);
    }
  }
  if (lane == 0) finish_state(u, s, best, best_choice);
}

}  // namespace pmc::cuda
