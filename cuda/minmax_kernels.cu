// minmax_kernels.hpp's launchers over the kernels of vi_kernels.cuh.
#include "cuda/launch_per_item.cuh"
#include "cuda/minmax_kernels.hpp"
#include "cuda/vi_kernels.cuh"

namespace pmc::cuda {

void launch_bellman(const BellmanUpdate& u, bool warp_per_state, StreamHandle stream) {
  if (u.states <= u.first) return;
  launch_thread_or_warp_per_item(bellman_thread, bellman_warp, warp_per_state, u.states - u.first, u, stream,
                                 "bellman");
}

}  // namespace pmc::cuda
