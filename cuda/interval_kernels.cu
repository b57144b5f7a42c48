// interval_kernels.hpp's launchers over the kernels of interval_kernels.cuh.
#include "cuda/check.cuh"
#include "cuda/interval_kernels.cuh"
#include "cuda/interval_kernels.hpp"
#include "cuda/launch_per_item.cuh"

namespace pmc::cuda {

void launch_interval_rows(const IntervalRows& u, bool warp_per_row, StreamHandle stream) {
  if (u.rows == 0) return;  // a grid of 0 blocks is a launch error
  launch_thread_or_warp_per_item(interval_rows_thread, interval_rows_warp, warp_per_row, u.rows, on_device(u), stream,
                                 "interval_rows");
}

void launch_sound_vi_bounds(uint64_t n, BoundPair* v, double lowest, double highest, StreamHandle stream) {
  sound_vi_bounds<<<blocks_for_threads(n), k_block_threads, 0, stream>>>(n, as_double2(v), lowest, highest);
  PMC_CUDA_CHECK_LAUNCH("sound_vi_bounds");
}

void launch_interval_gaps(uint64_t n, const BoundPair* v, double epsilon, int relative, IntervalCheck* check,
                          StreamHandle stream) {
  interval_gaps<<<blocks_for_threads(n), k_block_threads, 0, stream>>>(n, as_double2(v), epsilon, relative, check);
  PMC_CUDA_CHECK_LAUNCH("interval_gaps");
}

void launch_interval_bellman(const IntervalBellman& u, bool warp_per_state, StreamHandle stream) {
  if (u.states == 0) return;
  launch_thread_or_warp_per_item(interval_bellman_thread, interval_bellman_warp, warp_per_state, u.states,
                                 on_device(u), stream, "interval_bellman");
}

void launch_optimistic_guess(uint64_t n, BoundPair* v, double epsilon, double cap, StreamHandle stream) {
  optimistic_guess<<<blocks_for_threads(n), k_block_threads, 0, stream>>>(n, as_double2(v), epsilon, cap);
  PMC_CUDA_CHECK_LAUNCH("optimistic_guess");
}

}  // namespace pmc::cuda
