// The kernels of frontier_search.cu's backward searches, and in_set for
// the kernels that read the searches' masks.
#pragma once

#include <cstdint>

#include "cuda/frontier_search.hpp"
#include "cuda/launch.hpp"

namespace pmc::cuda {

__device__ inline bool in_set(const uint64_t* words, uint64_t s) { return (words[s >> 6] >> (s & 63)) & 1u; }

// Seeds: every state of `seed` is reached and queued.
static __global__ void seed_frontier(uint64_t n, const uint64_t* seed, unsigned* reached, uint32_t* queue,
                                     unsigned* queued) {
  const uint64_t s = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (s >= n) return;
  if (in_set(seed, s)) {
    reached[s] = 1;
    queue[atomicAdd(queued, 1u)] = static_cast<uint32_t>(s);
  } else {
    reached[s] = 0;
  }
}

// Seeds: the states `first` did not reach (prob0).
static __global__ void seed_unreached(uint64_t n, const unsigned* first, unsigned* reached, uint32_t* queue,
                                      unsigned* queued) {
  const uint64_t s = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (s >= n) return;
  if (first[s] == 0) {
    reached[s] = 1;
    queue[atomicAdd(queued, 1u)] = static_cast<uint32_t>(s);
  } else {
    reached[s] = 0;
  }
}

// Each frontier state's number of predecessors; entry `size` is 0, so that
// the exclusive scan's last entry is the level's total.
static __global__ void frontier_degrees(uint64_t size, const uint32_t* frontier, const uint64_t* pred_offsets,
                                        uint64_t* degrees) {
  const uint64_t i = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (i > size) return;
  degrees[i] = i == size ? 0 : pred_offsets[frontier[i] + 1] - pred_offsets[frontier[i]];
}

// One level, a thread per predecessor edge of the frontier (the edge's
// frontier state found by binary search in the scanned degrees): a hub
// with millions of predecessors is spread over the grid, not left to one
// thread. Predecessors in `allowed` and not in `blocked` (may be null)
// join the next frontier, each once, as `how` lets them.
static __global__ void expand_edges(uint64_t edges, uint64_t size, const uint32_t* frontier,
                                    const uint64_t* edge_offsets, const uint64_t* pred_offsets,
                                    const uint32_t* predecessors, const uint64_t* allowed, const uint64_t* blocked,
                                    Expansion how, unsigned* reached, uint32_t* next, unsigned* next_size) {
  const uint64_t e = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (e >= edges) return;
  uint64_t lo = 0, hi = size - 1;  // the last i with edge_offsets[i] <= e: it has a predecessor
  while (lo < hi) {
    const uint64_t mid = (lo + hi + 1) / 2;
    if (edge_offsets[mid] <= e) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  const uint32_t row = predecessors[pred_offsets[frontier[lo]] + (e - edge_offsets[lo])];
  const uint32_t s = how.state_of_row == nullptr ? row : how.state_of_row[row];
  if (how.mode == k_through_every_row) {
    // Counted once per row, whatever the state's status: the count is of
    // rows known to enter the set (a row of a blocked state never matters).
    if (atomicExch(&how.row_hit[row], 1u) != 0) return;
    if (!in_set(allowed, s) || (blocked != nullptr && in_set(blocked, s)) || reached[s] != 0) return;
    if (atomicSub(&how.pending[s], 1u) != 1u) return;
  } else {
    if (how.mode == k_through_usable_row && how.usable[row] == 0) return;
    if (!in_set(allowed, s) || (blocked != nullptr && in_set(blocked, s))) return;
  }
  if (reached[s] == 0 && atomicExch(&reached[s], 1u) == 0) {
    if (how.via != nullptr) how.via[s] = row;
    next[atomicAdd(next_size, 1u)] = s;
  }
}

}  // namespace pmc::cuda
