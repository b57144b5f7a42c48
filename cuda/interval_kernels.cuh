// gpu.interval-vi's kernels, launched by interval_kernels.cu (declared in
// interval_kernels.hpp) and by the resident solves: one pass over the
// matrix updates the lower and the upper bound together (Haddad & Monmege
// 2018; Baier et al., CAV 2017), with the stopping test reduced in the same
// kernel on the iterations that check it.
//
// Layout: the iterate is one double2 {lower, upper} per unknown. A gathered
// column then costs one 16-byte load of one 32-byte sector, where two
// arrays cost two loads of two sectors: the gathers are what is random, so
// interleaving halves the sectors the second vector adds (the matrix
// itself, 12 bytes per entry, is streamed once for both).
#pragma once

#include <cfloat>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <cub/block/block_reduce.cuh>

#include "cuda/check.cuh"
#include "cuda/interval_kernels.hpp"
#include "cuda/launch.hpp"
#include "cuda/reduce.cuh"

namespace pmc::cuda {

// The kernels' views: interval_kernels.hpp's, with CUDA's double2 for the
// host's BoundPair (the same 16 bytes).
static_assert(sizeof(BoundPair) == sizeof(double2) && alignof(BoundPair) == alignof(double2) &&
              offsetof(BoundPair, upper) == offsetof(double2, y));
using DeviceIntervalRows = IntervalRowsView<double2>;
using DeviceIntervalBellman = IntervalBellmanView<double2>;

inline double2* as_double2(BoundPair* pairs) { return reinterpret_cast<double2*>(pairs); }
inline const double2* as_double2(const BoundPair* pairs) { return reinterpret_cast<const double2*>(pairs); }

// A host view as the kernels read it: the two differ only in the type the
// pair pointers point to.
template <template <typename> class View>
View<double2> on_device(const View<BoundPair>& host) {
  static_assert(sizeof(View<double2>) == sizeof(View<BoundPair>) && std::is_trivially_copyable_v<View<BoundPair>>);
  View<double2> device;
  memcpy(static_cast<void*>(&device), &host, sizeof device);  // trivially copyable, as asserted
  return device;
}

// bounds_close (solver/convergence.hpp) on the device, with its floor
// k_relative_floor = 1e-9; NaN and an infinite upper bound are never close.
__device__ inline bool device_bounds_close(double lower, double upper, double epsilon, int relative) {
  const double scale = relative ? fmax(fabs(lower), 1e-9) : 1.0;
  return upper - lower <= 2.0 * epsilon * scale;
}

// B(u) ≤ u up to the rounding of computing B(u) (as optimistic_upper in
// solver/minmax/interval_value_iteration.cpp: a silent row maps the guess onto
// itself, and the exact test fails on the last bit).
inline constexpr double k_inductive_rounding = 8 * DBL_EPSILON;

struct CheckPartial {
  unsigned long long open;
  double widest, lowest, highest;
};

__device__ inline CheckPartial no_check() { return {0, -INFINITY, INFINITY, -INFINITY}; }

struct CombineChecks {
  __device__ CheckPartial operator()(const CheckPartial& a, const CheckPartial& b) const {
    return {a.open + b.open, fmax(a.widest, b.widest), fmin(a.lowest, b.lowest), fmax(a.highest, b.highest)};
  }
};

// One block reduction, then one atomic per field per block (one per warp
// would be 8x the atomics on one address). Every thread of the block must
// call it: the kernels below have no early return for that reason.
__device__ inline void reduce_check(const CheckPartial& partial, IntervalCheck* out) {
  using Reduce = cub::BlockReduce<CheckPartial, k_block_threads>;
  __shared__ typename Reduce::TempStorage storage;
  const CheckPartial block = Reduce(storage).Reduce(partial, CombineChecks());
  if (threadIdx.x == 0) {
    if (block.open != 0) atomicAdd(&out->open, block.open);
    atomicMax(&out->widest, ordered_bits(block.widest));
    atomicMin(&out->lowest, ordered_bits(block.lowest));
    atomicMax(&out->highest, ordered_bits(block.highest));
  }
}

// The stopping test's part for one unknown's bounds.
__device__ inline CheckPartial gap_check(double lower, double upper, double epsilon, int relative) {
  CheckPartial part = no_check();
  part.open = device_bounds_close(lower, upper, epsilon, relative) ? 0 : 1;
  part.widest = upper - lower;
  return part;
}

// A clamped step of one unknown from its bounds `old`: the lower bound only
// rises and the upper only falls, *w ← {max(old.x, lower), min(old.y,
// upper)}; the stopping test's part for the new bounds.
__device__ inline CheckPartial tighten(double2* w, double2 old, double lower, double upper, double epsilon,
                                      int relative) {
  lower = fmax(old.x, lower);
  upper = fmin(old.y, upper);
  *w = make_double2(lower, upper);
  return gap_check(lower, upper, epsilon, relative);
}

// ---- Linear systems x = A·x + b, Jacobi splitting ------------------------

// Σ_{k: j ≠ i} a_k·v[j] on both bounds over the entries of row i that one
// lane of `lanes` reads (every lanes-th, from the row's first + lane).
__device__ inline double2 interval_row_sum(const DeviceIntervalRows& u, uint64_t i, unsigned lane, unsigned lanes) {
  double2 sum = make_double2(0.0, 0.0);
  for (uint64_t k = u.a.offsets[i] + lane; k < u.a.offsets[i + 1]; k += lanes) {
    const uint32_t j = u.a.columns[k];
    if (j == i) continue;
    const double a = u.a.values[k];
    const double2 x = u.v[j];  // one 16-byte gather for both bounds
    sum.x += a * x.x;
    sum.y += a * x.y;
  }
  return sum;
}

__device__ inline CheckPartial finish_interval_row(const DeviceIntervalRows& u, uint64_t i, double2 sum) {
  const double scale = u.scale[i];
  const double first = (u.b[i] + sum.x) * scale;
  CheckPartial part = no_check();
  if (u.phase == k_sound_vi_phase) {
    const double kept = sum.y * scale;
    u.w[i] = make_double2(first, kept);
    part.widest = kept;
    part.lowest = part.highest = first / (1.0 - kept);  // used only once every kept < 1 − 10⁻³
    return part;
  }
  // Clamped: l only rises and u only falls, and both stay sound because the
  // Jacobi map is monotone with the solution as its only fixed point.
  return tighten(&u.w[i], u.v[i], first, (u.b[i] + sum.y) * scale, u.epsilon, u.relative);
}

static __global__ void interval_rows_thread(DeviceIntervalRows u) {
  const uint64_t i = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  CheckPartial part = no_check();
  if (i < u.rows) part = finish_interval_row(u, i, interval_row_sum(u, i, 0, 1));
  if (u.check) reduce_check(part, u.check);
}

static __global__ void interval_rows_warp(DeviceIntervalRows u) {
  const uint64_t i = (blockIdx.x * uint64_t{k_block_threads} + threadIdx.x) / k_warp;
  const unsigned lane = threadIdx.x % k_warp;
  CheckPartial part = no_check();
  if (i < u.rows) {  // the whole warp: i is the same for its lanes, so the shuffles see all 32
    double2 sum = interval_row_sum(u, i, lane, k_warp);
    warp_sum(sum);
    if (lane == 0) part = finish_interval_row(u, i, sum);
  }
  if (u.check) reduce_check(part, u.check);
}

// After the first phase, with every y_s < 1: x*(s) = x_k(s) + (G^k·x*)(s)
// gives x_k + y_k·min_t x_k(t)/(1 − y_k(t)) ≤ x* ≤ x_k + y_k·max_t (…)
// (Quatmann & Katoen, CAV 2018; the proof in solver/linear/interval_linear.cpp).
static __global__ void sound_vi_bounds(uint64_t n, double2* v, double lowest, double highest) {
  const uint64_t i = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (i >= n) return;
  const double2 p = v[i];
  v[i] = make_double2(p.x + p.y * lowest, p.x + p.y * highest);
}

// The stopping test alone, for the bounds a solve starts from.
static __global__ void interval_gaps(uint64_t n, const double2* v, double epsilon, int relative, IntervalCheck* check) {
  const uint64_t i = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  CheckPartial part = no_check();
  if (i < n) {
    const double2 p = v[i];
    part = gap_check(p.x, p.y, epsilon, relative);
  }
  reduce_check(part, check);
}

// ---- MDPs: the Bellman operator on both bounds ----------------------------

__device__ inline bool is_unknown(const DeviceIntervalBellman& u, uint64_t s) {
  return u.status == nullptr || u.status[s] == 0;  // 0: k_reach_maybe (solver/problem.hpp)
}

__device__ inline double better(const DeviceIntervalBellman& u, double best, double v) {
  return (u.maximize ? v > best : v < best) ? v : best;
}

// start + Σ_k a_k·v[col_k] on both bounds over the entries of row r that one
// lane of `lanes` reads (every lanes-th, from the row's first + lane).
__device__ inline double2 choice_sum(const DeviceIntervalBellman& u, uint64_t r, double2 start, unsigned lane,
                                     unsigned lanes) {
  double2 sum = start;
  for (uint64_t k = u.a.offsets[r] + lane; k < u.a.offsets[r + 1]; k += lanes) {
    const double a = u.a.values[k];
    const double2 x = u.v[u.a.columns[k]];
    sum.x += a * x.x;
    sum.y += a * x.y;
  }
  return sum;
}

__device__ inline CheckPartial finish_interval_state(const DeviceIntervalBellman& u, uint64_t s, double best_lower,
                                                     double best_upper) {
  const double2 old = u.v[s];
  if (u.groups[s] == u.groups[s + 1]) {  // no choice: keeps its values, as B does (solver/minmax/bellman.hpp)
    best_lower = old.x;
    best_upper = old.y;
  }
  CheckPartial part = no_check();
  if (u.mode == k_test_upper) {
    part.open = best_upper - old.y <= k_inductive_rounding * fabs(old.y) ? 0 : 1;
    return part;
  }
  if (u.mode == k_lower_only) {
    const double lower = fmax(old.x, best_lower);
    u.w[s] = make_double2(lower, old.y);
    part.widest = convergence_difference(old.x, lower, u.relative);
    return part;
  }
  return tighten(&u.w[s], old, best_lower, best_upper, u.epsilon, u.relative);
}

static __global__ void interval_bellman_thread(DeviceIntervalBellman u) {
  const uint64_t s = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  CheckPartial part = no_check();
  if (s < u.states && is_unknown(u, s)) {
    double best_lower = u.maximize ? -INFINITY : INFINITY, best_upper = best_lower;
    for (uint64_t r = u.groups[s]; r < u.groups[s + 1]; ++r) {
      const double earned = u.b == nullptr ? 0.0 : u.b[r];
      const double2 sum = choice_sum(u, r, make_double2(earned, earned), 0, 1);
      best_lower = better(u, best_lower, sum.x);
      best_upper = better(u, best_upper, sum.y);
    }
    part = finish_interval_state(u, s, best_lower, best_upper);
  }
  if (u.check) reduce_check(part, u.check);
}

static __global__ void interval_bellman_warp(DeviceIntervalBellman u) {
  const uint64_t s = (blockIdx.x * uint64_t{k_block_threads} + threadIdx.x) / k_warp;
  const unsigned lane = threadIdx.x % k_warp;
  CheckPartial part = no_check();
  if (s < u.states && is_unknown(u, s)) {  // the whole warp, as in interval_rows_warp
    double best_lower = u.maximize ? -INFINITY : INFINITY, best_upper = best_lower;
    for (uint64_t r = u.groups[s]; r < u.groups[s + 1]; ++r) {
      double2 sum = choice_sum(u, r, make_double2(0.0, 0.0), lane, k_warp);
      warp_sum(sum);
      const double earned = u.b == nullptr ? 0.0 : u.b[r];
      best_lower = better(u, best_lower, __shfl_sync(0xffffffffu, sum.x, 0) + earned);
      best_upper = better(u, best_upper, __shfl_sync(0xffffffffu, sum.y, 0) + earned);
    }
    if (lane == 0) part = finish_interval_state(u, s, best_lower, best_upper);
  }
  if (u.check) reduce_check(part, u.check);
}

// Optimistic VI's guess (interval_kernels.hpp).
static __global__ void optimistic_guess(uint64_t n, double2* v, double epsilon, double cap) {
  const uint64_t i = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (i < n) v[i].y = fmin(v[i].x * (1.0 + epsilon) + epsilon, cap);
}

}  // namespace pmc::cuda
