// interval_kernels.hpp's launchers over the kernels of interval_kernels.cuh.
#include "cuda/check.cuh"
#include "cuda/interval_kernels.cuh"
#include "cuda/interval_kernels.hpp"

namespace pmc::cuda {

void launch_interval_rows(const IntervalRows& u, bool warp_per_row, StreamHandle stream) {
  if (u.rows == 0) return;  // a grid of 0 blocks is a launch error
  const DeviceIntervalRows d = on_device(u);
  if (warp_per_row) {
    interval_rows_warp<<<blocks_for_warps(u.rows), k_block_threads, 0, stream>>>(d);
  } else {
    interval_rows_thread<<<blocks_for_threads(u.rows), k_block_threads, 0, stream>>>(d);
  }
  PMC_CUDA_CHECK_LAUNCH("interval_rows");
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
  const DeviceIntervalBellman d = on_device(u);
  if (warp_per_state) {
    interval_bellman_warp<<<blocks_for_warps(u.states), k_block_threads, 0, stream>>>(d);
  } else {
    interval_bellman_thread<<<blocks_for_threads(u.states), k_block_threads, 0, stream>>>(d);
  }
  PMC_CUDA_CHECK_LAUNCH("interval_bellman");
}

void launch_optimistic_guess(uint64_t n, BoundPair* v, double epsilon, StreamHandle stream) {
  optimistic_guess<<<blocks_for_threads(n), k_block_threads, 0, stream>>>(n, as_double2(v), epsilon);
  PMC_CUDA_CHECK_LAUNCH("optimistic_guess");
}

}  // namespace pmc::cuda
