// Backward searches on a resident chain's predecessors (cuda/resident_chain.cuh):
// DTMC prob0/prob1 (graph/dtmc_precomputation.hpp) as frontier fixpoints
// on the device, level by level. A level is one launch over the frontier
// (thread per frontier state, its predecessors claimed with an atomic
// exchange, so each state enters a frontier once) and one 4-byte read-back
// of the next frontier's size. The sets are the CPU's bit for bit: both are
// the least fixpoint of the same search.
#pragma once

#include <cstdint>

#include "cuda/device_buffer.cuh"
#include "cuda/launch.cuh"
#include "cuda/resident_chain.cuh"

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

// One level: predecessors in `allowed` and not in `blocked` join the next
// frontier (blocked may be null).
static __global__ void expand_frontier(uint64_t frontier_size, const uint32_t* frontier, const uint64_t* pred_offsets,
                                       const uint32_t* predecessors, const uint64_t* allowed, const uint64_t* blocked,
                                       unsigned* reached, uint32_t* next, unsigned* next_size) {
  const uint64_t i = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (i >= frontier_size) return;
  const uint32_t t = frontier[i];
  for (uint64_t k = pred_offsets[t]; k < pred_offsets[t + 1]; ++k) {
    const uint32_t s = predecessors[k];
    if (!in_set(allowed, s) || (blocked != nullptr && in_set(blocked, s))) continue;
    if (reached[s] == 0 && atomicExch(&reached[s], 1u) == 0) next[atomicAdd(next_size, 1u)] = s;
  }
}

// Frontier queues and the per-level size read-back of one search.
class FrontierSearch {
 public:
  explicit FrontierSearch(uint64_t n) : n_(n), current_(n), next_(n), sizes_(2) {}

  // Expands from the queued seeds (queue_size of them in current_) until no
  // state joins; `reached` marks the result. Returns the number of levels.
  uint64_t run(const ResidentChain& chain, const uint64_t* allowed, const uint64_t* blocked, unsigned* reached) {
    unsigned size = read_size(0);
    uint64_t levels = 0;
    while (size > 0) {
      PMC_CUDA_CHECK(cudaMemset(sizes_.data() + 1, 0, sizeof(unsigned)));
      expand_frontier<<<blocks_for_threads(size), k_block_threads>>>(size, current_.data(), chain.predecessor_offsets.data(),
                                                                     chain.predecessors.data(), allowed, blocked, reached,
                                                                     next_.data(), sizes_.data() + 1);
      PMC_CUDA_CHECK_LAUNCH("expand_frontier");
      size = read_size(1);
      std::swap(current_, next_);
      ++levels;
    }
    return levels;
  }

  // Seeds for run(): `seed`'s states, or those `first` left unreached.
  void seed_set(const uint64_t* seed, unsigned* reached) {
    reset_size();
    if (n_ == 0) return;
    seed_frontier<<<blocks_for_threads(n_), k_block_threads>>>(n_, seed, reached, current_.data(), sizes_.data());
    PMC_CUDA_CHECK_LAUNCH("seed_frontier");
  }
  void seed_unreached_by(const unsigned* first, unsigned* reached) {
    reset_size();
    if (n_ == 0) return;
    seed_unreached<<<blocks_for_threads(n_), k_block_threads>>>(n_, first, reached, current_.data(), sizes_.data());
    PMC_CUDA_CHECK_LAUNCH("seed_unreached");
  }

 private:
  void reset_size() { PMC_CUDA_CHECK(cudaMemset(sizes_.data(), 0, sizeof(unsigned))); }
  unsigned read_size(int which) {
    unsigned size = 0;
    PMC_CUDA_CHECK(cudaMemcpy(&size, sizes_.data() + which, sizeof size, cudaMemcpyDeviceToHost));
    return size;
  }

  uint64_t n_;
  DeviceBuffer<uint32_t> current_, next_;
  DeviceBuffer<unsigned> sizes_;  // [0]: the seeds, [1]: the next frontier
};

}  // namespace pmc::cuda
