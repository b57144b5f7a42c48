// Launching a kernel that comes in two layouts, a thread per item or a warp
// per item (launch.hpp's geometry), as the row and state updates do.
#pragma once

#include <cstdint>

#include "cuda/check.cuh"
#include "cuda/device_runtime.hpp"
#include "cuda/launch.hpp"

namespace pmc::cuda {

// Launches `per_warp` with a warp per item, or `per_thread` with a thread
// per item, over `items` > 0 items on `stream` (both kernels take the same
// view), and checks the launch, naming it `name`.
template <typename View>
void launch_thread_or_warp_per_item(void (*per_thread)(View), void (*per_warp)(View), bool warp, uint64_t items,
                                    const View& view, StreamHandle stream, const char* name) {
  if (warp) {
    per_warp<<<blocks_for_warps(items), k_block_threads, 0, stream>>>(view);
  } else {
    per_thread<<<blocks_for_threads(items), k_block_threads, 0, stream>>>(view);
  }
  PMC_CUDA_CHECK_LAUNCH(name);
}

}  // namespace pmc::cuda
