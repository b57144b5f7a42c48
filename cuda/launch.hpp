// Launch geometry, chosen in one place (after CUB's dispatch layer, docs/style.md).
#pragma once

#include <cstdint>

namespace pmc::cuda {

inline constexpr int k_block_threads = 256;
inline constexpr int k_warp = 32;

// Blocks for one thread per item.
inline unsigned blocks_for_threads(uint64_t items) {
  return static_cast<unsigned>((items + k_block_threads - 1) / k_block_threads);
}
// Blocks for one warp per item.
inline unsigned blocks_for_warps(uint64_t items) {
  const uint64_t warps_per_block = k_block_threads / k_warp;
  return static_cast<unsigned>((items + warps_per_block - 1) / warps_per_block);
}

// Thread-per-row loses to warp-per-row once rows are long enough that a
// warp's lanes would otherwise wait on the longest row (GPU-PRISM §3;
// Berger 2014 §3.5). Measured crossover noted in bench/NOTES.md.
inline bool use_warp_per_row(uint64_t rows, uint64_t entries) {
  return rows > 0 && entries >= 12 * rows;
}

}  // namespace pmc::cuda
