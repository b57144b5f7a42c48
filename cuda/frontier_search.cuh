// Backward searches on a resident chain's predecessors (cuda/resident_chain.cuh):
// DTMC prob0/prob1 (graph/dtmc_precomputation.hpp) and MDP
// Prob0A/0E/1A/1E (graph/mdp_precomputation.hpp, through
// cuda/mdp_precomputation.cuh) as frontier fixpoints on the device, level
// by level. A level spreads the frontier's predecessor
// edges over the grid (a thread per edge, balanced however skewed the
// in-degrees are); predecessors are claimed with an atomic exchange, so
// each state enters a frontier once. The sets are the CPU's bit for bit: both are
// the least fixpoint of the same search.
#pragma once

#include <cstdint>

#include "cuda/check.cuh"
#include "cuda/device_buffer.hpp"
#include "cuda/launch.hpp"
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

// Each frontier state's number of predecessors; entry `size` is 0, so that
// the exclusive scan's last entry is the level's total.
static __global__ void frontier_degrees(uint64_t size, const uint32_t* frontier, const uint64_t* pred_offsets,
                                        uint64_t* degrees) {
  const uint64_t i = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (i > size) return;
  degrees[i] = i == size ? 0 : pred_offsets[frontier[i] + 1] - pred_offsets[frontier[i]];
}

// How a predecessor row passes its state into the next frontier (MDPs;
// a chain's rows are its states and take the default).
//  - k_through_any_row: through any row (Prob0A, Prob1A: some choice).
//  - k_through_every_row: once every row of the state has entered the
//    reached set (Prob0E's attractor): `row_hit` marks a row counted, and
//    `pending` (per state, its number of rows) counts down; the state
//    joins when it reaches 0, as graph/mdp_precomputation.cpp's counter.
//  - k_through_usable_row: through rows flagged in `usable` only (Prob1E's
//    rounds, the progressing scheduler); `via` (may be null) records the row
//    through which each state was reached.
enum ExpansionMode : int { k_through_any_row = 0, k_through_every_row = 1, k_through_usable_row = 2 };

struct Expansion {
  int mode = k_through_any_row;
  const uint32_t* state_of_row = nullptr;  // null: rows are states
  unsigned* row_hit = nullptr;
  unsigned* pending = nullptr;
  const uint8_t* usable = nullptr;
  uint32_t* via = nullptr;
};

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

// Frontier queues and the per-level size read-back of one search.
class FrontierSearch {
 public:
  explicit FrontierSearch(uint64_t n) : n_(n), current_(n), next_(n), sizes_(2), degrees_(n + 1), edge_offsets_(n + 1) {
    // CUB's scratch for the largest frontier (all n states) serves every level.
    size_t bytes = 0;
    PMC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, degrees_.data(), edge_offsets_.data(), n + 1));
    scratch_.allocate(bytes);
  }

  // Expands from the queued seeds (queue_size of them in current_) until no
  // state joins; `reached` marks the result. Returns the number of levels;
  // reached_count() then gives the states reached, seeds included.
  // A level: degrees, their scan, one read-back of the edge count, the
  // edges, one read-back of the next frontier's size.
  uint64_t run(const ResidentChain& chain, const uint64_t* allowed, const uint64_t* blocked, unsigned* reached,
               Expansion how = {}) {
    if (chain.is_mdp()) how.state_of_row = chain.state_of_row.data();
    unsigned size = read_size(0);
    reached_count_ = size;
    uint64_t levels = 0;
    while (size > 0) {
      frontier_degrees<<<blocks_for_threads(size + 1), k_block_threads>>>(size, current_.data(),
                                                                         chain.predecessor_offsets.data(), degrees_.data());
      PMC_CUDA_CHECK_LAUNCH("frontier_degrees");
      size_t bytes = scratch_.size();
      PMC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch_.data(), bytes, degrees_.data(), edge_offsets_.data(), size + 1));
      uint64_t edges = 0;
      PMC_CUDA_CHECK(cudaMemcpy(&edges, edge_offsets_.data() + size, sizeof edges, cudaMemcpyDeviceToHost));
      PMC_CUDA_CHECK(cudaMemset(sizes_.data() + 1, 0, sizeof(unsigned)));
      if (edges > 0) {
        expand_edges<<<blocks_for_threads(edges), k_block_threads>>>(
            edges, size, current_.data(), edge_offsets_.data(), chain.predecessor_offsets.data(),
            chain.predecessors.data(), allowed, blocked, how, reached, next_.data(), sizes_.data() + 1);
        PMC_CUDA_CHECK_LAUNCH("expand_edges");
      }
      size = read_size(1);
      reached_count_ += size;
      std::swap(current_, next_);
      ++levels;
    }
    return levels;
  }

  uint64_t reached_count() const { return reached_count_; }

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
  uint64_t reached_count_ = 0;
  DeviceBuffer<uint32_t> current_, next_;
  DeviceBuffer<unsigned> sizes_;  // [0]: the seeds, [1]: the next frontier
  DeviceBuffer<uint64_t> degrees_, edge_offsets_;
  DeviceBuffer<unsigned char> scratch_;
};

}  // namespace pmc::cuda
