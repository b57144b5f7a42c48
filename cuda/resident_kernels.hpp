// Launchers of gpu.interval-vi's kernels on a resident chain
// (resident_kernels.cu), over plain views of device memory: the host half
// (lib/solver/gpu/resident_chain_reachability.cpp) calls them without nvcc.
// Every launch is enqueued on `stream`.
#pragma once

#include <cstdint>

#include "cuda/device_runtime.hpp"
#include "cuda/interval_kernels.hpp"

namespace pmc::cuda {

// A state's status after prob0/prob1, as ReachabilitySolution::status
// (lib/solver/problem.hpp, whose values the host half checks these against).
inline constexpr uint8_t k_reach_maybe = 0, k_reach_one = 1, k_reach_zero = 2;

// prob0 = not reached by the first search; prob1 = not reached by the
// second. Fixed states start at their value in both vectors, maybe states
// at [0, 1]. n > 0.
void launch_classify_states(uint64_t n, const unsigned* first, const unsigned* second, uint8_t* status, BoundPair* v,
                            BoundPair* w, StreamHandle stream);

// Pair: BoundPair on the host, double2 in the kernels (same layout).
template <typename Pair>
struct MaskedRowsView {
  uint64_t rows;
  CsrView a;
  const uint8_t* status;
  const Pair* v;
  Pair* w;
  IntervalCheck* check;  // null except on check iterations
  double epsilon;
  int relative;
};
using MaskedRows = MaskedRowsView<BoundPair>;

// One interval step of the maybe states, the others held fixed: a thread or
// a warp per row.
void launch_masked_rows(const MaskedRows& u, bool warp_per_row, StreamHandle stream);

// The stopping test on the start bounds: 0 open means no maybe state. n > 0.
void launch_masked_gaps(uint64_t n, const uint8_t* status, const BoundPair* v, double epsilon, int relative,
                        IntervalCheck* check, StreamHandle stream);

}  // namespace pmc::cuda
