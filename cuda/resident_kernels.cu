// resident_kernels.hpp's launchers: gpu.interval-vi on a resident chain,
// the iteration over the whole matrix with the states prob0/prob1 decide
// held fixed (the equation system the host would build, restrict_linear,
// is implicit in that mask).
#include "cuda/check.cuh"
#include "cuda/interval_kernels.cuh"
#include "cuda/launch.hpp"
#include "cuda/launch_per_item.cuh"
#include "cuda/resident_kernels.hpp"

namespace pmc::cuda {

namespace {

// prob0 = not reached by the first search; prob1 = not reached by the second.
__global__ void classify_states(uint64_t n, const unsigned* first, const unsigned* second, uint8_t* status,
                                double2* v, double2* w) {
  const uint64_t s = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (s >= n) return;
  const uint8_t st = first[s] == 0 ? k_reach_zero : (second[s] == 0 ? k_reach_one : k_reach_maybe);
  status[s] = st;
  // Fixed states hold their value in both vectors (the iteration swaps
  // them and writes maybe states only); maybe states start from [0, 1].
  const double2 start = st == k_reach_one ? make_double2(1.0, 1.0)
                                           : (st == k_reach_zero ? make_double2(0.0, 0.0) : make_double2(0.0, 1.0));
  v[s] = start;
  w[s] = start;
}

using DeviceMaskedRows = MaskedRowsView<double2>;

// x_s = Σ_{t≠s} P(s,t)·x_t / (1 − P(s,s)) on both bounds, clamped monotone
// (as interval_rows in cuda/interval_kernels.cuh, with the diagonal and
// the fixed states' contribution found in the row itself).
__device__ inline CheckPartial finish_masked_row(const DeviceMaskedRows& u, uint64_t i, double2 sum, double diagonal) {
  const double scale = 1.0 / (1.0 - diagonal);
  return tighten(&u.w[i], u.v[i], sum.x * scale, sum.y * scale, u.epsilon, u.relative);
}

// Σ_{k: j ≠ i} a_k·v[j] on both bounds, and the diagonal Σ_{k: j = i} a_k,
// over the entries of row i that one lane of `lanes` reads (every
// lanes-th, from the row's first + lane).
__device__ inline double2 masked_row_sum(const DeviceMaskedRows& u, uint64_t i, unsigned lane, unsigned lanes,
                                         double& diagonal) {
  double2 sum = make_double2(0.0, 0.0);
  diagonal = 0.0;
  for (uint64_t k = u.a.offsets[i] + lane; k < u.a.offsets[i + 1]; k += lanes) {
    const uint32_t j = u.a.columns[k];
    const double a = u.a.values[k];
    if (j == i) {
      diagonal += a;
      continue;
    }
    const double2 x = u.v[j];
    sum.x += a * x.x;
    sum.y += a * x.y;
  }
  return sum;
}

__global__ void masked_rows_thread(DeviceMaskedRows u) {
  const uint64_t i = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  CheckPartial part = no_check();
  if (i < u.rows && u.status[i] == k_reach_maybe) {
    double diagonal;
    const double2 sum = masked_row_sum(u, i, 0, 1, diagonal);
    part = finish_masked_row(u, i, sum, diagonal);
  }
  if (u.check) reduce_check(part, u.check);
}

__global__ void masked_rows_warp(DeviceMaskedRows u) {
  const uint64_t i = (blockIdx.x * uint64_t{k_block_threads} + threadIdx.x) / k_warp;
  const unsigned lane = threadIdx.x % k_warp;
  CheckPartial part = no_check();
  if (i < u.rows && u.status[i] == k_reach_maybe) {  // uniform across the warp: the shuffles see all 32
    double diagonal;
    double2 sum = masked_row_sum(u, i, lane, k_warp, diagonal);
    warp_sum(sum);
    warp_sum(diagonal);
    if (lane == 0) part = finish_masked_row(u, i, sum, diagonal);
  }
  if (u.check) reduce_check(part, u.check);
}

// The stopping test on the start bounds: 0 open means no maybe state.
__global__ void masked_gaps(uint64_t n, const uint8_t* status, const double2* v, double epsilon, int relative,
                            IntervalCheck* check) {
  const uint64_t i = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  CheckPartial part = no_check();
  if (i < n && status[i] == k_reach_maybe) {
    const double2 p = v[i];
    part = gap_check(p.x, p.y, epsilon, relative);
  }
  reduce_check(part, check);
}

}  // namespace

void launch_classify_states(uint64_t n, const unsigned* first, const unsigned* second, uint8_t* status, BoundPair* v,
                            BoundPair* w, StreamHandle stream) {
  classify_states<<<blocks_for_threads(n), k_block_threads, 0, stream>>>(n, first, second, status, as_double2(v),
                                                                         as_double2(w));
  PMC_CUDA_CHECK_LAUNCH("classify_states");
}

void launch_masked_rows(const MaskedRows& u, bool warp_per_row, StreamHandle stream) {
  launch_thread_or_warp_per_item(masked_rows_thread, masked_rows_warp, warp_per_row, u.rows, on_device(u), stream,
                                 "masked_rows");
}

void launch_masked_gaps(uint64_t n, const uint8_t* status, const BoundPair* v, double epsilon, int relative,
                        IntervalCheck* check, StreamHandle stream) {
  masked_gaps<<<blocks_for_threads(n), k_block_threads, 0, stream>>>(n, status, as_double2(v), epsilon, relative,
                                                                     check);
  PMC_CUDA_CHECK_LAUNCH("masked_gaps");
}

}  // namespace pmc::cuda
