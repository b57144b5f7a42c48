// minmax_kernels.hpp's launchers over the kernels of vi_kernels.cuh.
#include "cuda/check.cuh"
#include "cuda/minmax_kernels.hpp"
#include "cuda/vi_kernels.cuh"

namespace pmc::cuda {

void launch_bellman(const BellmanUpdate& u, bool warp_per_state, StreamHandle stream) {
  if (u.states <= u.first) return;
  const uint64_t count = u.states - u.first;
  if (warp_per_state) {
    bellman_warp<<<blocks_for_warps(count), k_block_threads, 0, stream>>>(u);
  } else {
    bellman_thread<<<blocks_for_threads(count), k_block_threads, 0, stream>>>(u);
  }
  PMC_CUDA_CHECK_LAUNCH("bellman");
}

}  // namespace pmc::cuda
