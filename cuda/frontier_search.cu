// frontier_search.hpp's searches: per level, the kernels of
// frontier_kernels.cuh and CUB's scan of the frontier's degrees.
#include <cstdint>
#include <utility>

#include <cub/device/device_scan.cuh>

#include "cuda/check.cuh"
#include "cuda/frontier_kernels.cuh"
#include "cuda/frontier_search.hpp"
#include "cuda/launch.hpp"

namespace pmc::cuda {

FrontierSearch::FrontierSearch(uint64_t n)
    : n_(n), current_(n), next_(n), sizes_(2), degrees_(n + 1), edge_offsets_(n + 1) {
  // CUB's scratch for the largest frontier (all n states) serves every level.
  size_t bytes = 0;
  PMC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, degrees_.data(), edge_offsets_.data(), n + 1));
  scratch_.allocate(bytes);
}

uint64_t FrontierSearch::run(const ResidentChain& chain, const uint64_t* allowed, const uint64_t* blocked,
                             unsigned* reached, Expansion how) {
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

void FrontierSearch::seed_set(const uint64_t* seed, unsigned* reached) {
  reset_size();
  if (n_ == 0) return;
  seed_frontier<<<blocks_for_threads(n_), k_block_threads>>>(n_, seed, reached, current_.data(), sizes_.data());
  PMC_CUDA_CHECK_LAUNCH("seed_frontier");
}

void FrontierSearch::seed_unreached_by(const unsigned* first, unsigned* reached) {
  reset_size();
  if (n_ == 0) return;
  seed_unreached<<<blocks_for_threads(n_), k_block_threads>>>(n_, first, reached, current_.data(), sizes_.data());
  PMC_CUDA_CHECK_LAUNCH("seed_unreached");
}

void FrontierSearch::reset_size() { PMC_CUDA_CHECK(cudaMemset(sizes_.data(), 0, sizeof(unsigned))); }

unsigned FrontierSearch::read_size(int which) {
  unsigned size = 0;
  PMC_CUDA_CHECK(cudaMemcpy(&size, sizes_.data() + which, sizeof size, cudaMemcpyDeviceToHost));
  return size;
}

}  // namespace pmc::cuda
