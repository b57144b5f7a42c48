// Launchers of gpu.interval-vi's kernels (interval_kernels.cu over
// interval_kernels.cuh), over plain views of device memory: host code
// (lib/solver/gpu/) calls them without nvcc. One pass over the matrix
// updates the lower and the upper bound together, with the stopping test
// reduced in the same kernel on the iterations that check it.
#pragma once

#include <cstdint>
#include <cstring>

#include "cuda/device_csr.hpp"
#include "cuda/device_runtime.hpp"

// Functions both the host and the kernels call: marked for nvcc, plain C++
// for the host compiler.
#ifdef __CUDACC__
#define PMC_HOST_DEVICE __host__ __device__
#else
#define PMC_HOST_DEVICE
#endif

namespace pmc::cuda {

// One unknown's {lower, upper} bound, as the host sees it. The kernels read
// the same 16 bytes as CUDA's double2 (interval_kernels.cuh checks the
// layout): one 16-byte gather serves both bounds.
struct alignas(16) BoundPair {
  double lower;
  double upper;
};

// Doubles as integers that order like the values, negative ones included, so
// that integer atomicMin/atomicMax reduce doubles of either sign (the first
// phase's x/(1 − y) bounds may be negative for negative rewards).
PMC_HOST_DEVICE inline unsigned long long ordered_bits(double v) {
  unsigned long long bits;
  memcpy(&bits, &v, sizeof bits);
  return (bits >> 63) ? ~bits : bits | (1ull << 63);
}
PMC_HOST_DEVICE inline double from_ordered_bits(unsigned long long o) {
  const unsigned long long bits = (o >> 63) ? o & ~(1ull << 63) : ~o;
  double v;
  memcpy(&v, &bits, sizeof v);
  return v;
}

// What a check iteration reduces over the unknowns; read back in one copy.
struct IntervalCheck {
  unsigned long long open;     // unknowns failing the test (bounds not close; guess not inductive)
  unsigned long long widest;   // ordered_bits: widest gap / largest change / most mass kept
  unsigned long long lowest;   // ordered_bits: min x/(1 − y) (first phase)
  unsigned long long highest;  // ordered_bits: max x/(1 − y) (first phase)
};

// ---- Linear systems x = A·x + b, Jacobi splitting ------------------------

// First phase (Quatmann & Katoen, CAV 2018): {x, y} with x_k = k Jacobi
// steps from 0 and y_k = k steps of the homogeneous system from 1, no
// clamping. Interval phase: both members use b, clamped monotone.
enum IntervalPhase : int { k_sound_vi_phase = 0, k_interval_phase = 1 };

// Pair: BoundPair on the host, double2 in the kernels (same layout).
template <typename Pair>
struct IntervalRowsView {
  uint64_t rows;
  CsrView a;  // the matrix as given: a_ii is skipped, scale holds 1/(1 − a_ii)
  const double* b;
  const double* scale;
  const Pair* v;
  Pair* w;
  IntervalCheck* check;  // null except on check iterations
  double epsilon;
  int relative;
  int phase;
};
using IntervalRows = IntervalRowsView<BoundPair>;

// A thread or a warp per row; nothing for 0 rows. Enqueued on `stream`.
void launch_interval_rows(const IntervalRows& u, bool warp_per_row, StreamHandle stream);

// After the first phase, with every y < 1: v = {x + y·lowest, x + y·highest}.
// n > 0.
void launch_sound_vi_bounds(uint64_t n, BoundPair* v, double lowest, double highest, StreamHandle stream);

// The stopping test alone, for the bounds a solve starts from. n > 0.
void launch_interval_gaps(uint64_t n, const BoundPair* v, double epsilon, int relative, IntervalCheck* check,
                          StreamHandle stream);

// ---- MDPs: the Bellman operator on both bounds ----------------------------

// both: interval iteration, l' = max(l, B(l)), u' = min(u, B(u)), each with
// its own optimal choice. lower_only: optimistic VI's lower iteration
// (Hartmanns & Kaminski, CAV 2020); the check is its largest change.
// test_upper: counts the states where B(u) ≤ u fails; writes nothing.
enum IntervalBellmanMode : int { k_both = 0, k_lower_only = 1, k_test_upper = 2 };

template <typename Pair>
struct IntervalBellmanView {
  uint64_t states;
  const uint64_t* groups;  // states + 1
  CsrView a;               // a row per choice
  const double* b;         // null: none (a resident MDP's known states hold their values in v)
  const Pair* v;
  Pair* w;
  IntervalCheck* check;  // null except on check iterations
  double epsilon;
  int relative;
  int maximize;
  int mode;
  // Null: every state is an unknown. Else only k_reach_maybe states are
  // (a resident MDP, lib/solver/gpu/resident_mdp_reachability.cpp): the others keep their values,
  // which the iteration never writes, so v and w must both hold them.
  const uint8_t* status = nullptr;
};
using IntervalBellman = IntervalBellmanView<BoundPair>;

// A thread or a warp per state; nothing for 0 states. Enqueued on `stream`.
void launch_interval_bellman(const IntervalBellman& u, bool warp_per_state, StreamHandle stream);

// Optimistic VI's guess u = min(l·(1 + ε) + ε, cap) (Hartmanns & Kaminski,
// CAV 2020); cap: the problem's a-priori bound (1 for probabilities) or +inf.
// n > 0.
void launch_optimistic_guess(uint64_t n, BoundPair* v, double epsilon, double cap, StreamHandle stream);

}  // namespace pmc::cuda
