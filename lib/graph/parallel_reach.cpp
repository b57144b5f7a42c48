#include "graph/parallel_reach.hpp"

#include <atomic>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace pmc::graph {

namespace {

// Frontiers below this many nodes are expanded on one core: a parallel
// region costs more than their edges.
constexpr size_t k_parallel_frontier = 4096;

}  // namespace

int graph_threads(int threads) {
#ifdef _OPENMP
  return threads > 0 ? threads : omp_get_max_threads();
#else
  (void)threads;
  return 1;
#endif
}

Bitset reachable_from(uint64_t n, const uint64_t* offsets, const uint32_t* targets, uint32_t start, int threads) {
  std::vector<uint64_t> words((n + 63) / 64, 0);
  if (n == 0) return Bitset(0, std::move(words));
  threads = graph_threads(threads);
  words[start >> 6] |= uint64_t{1} << (start & 63);
  std::vector<uint32_t> frontier = {start};
  std::vector<std::vector<uint32_t>> found(threads);
  while (!frontier.empty()) {
    const auto size = static_cast<int64_t>(frontier.size());
    const bool parallel = threads > 1 && frontier.size() >= k_parallel_frontier;
#pragma omp parallel num_threads(threads) if (parallel)
    {
#ifdef _OPENMP
      std::vector<uint32_t>& mine = found[omp_get_thread_num()];
#else
      std::vector<uint32_t>& mine = found[0];
#endif
#pragma omp for schedule(dynamic, 1024)
      for (int64_t i = 0; i < size; ++i) {
        const uint32_t node = frontier[i];
        for (uint64_t k = offsets[node]; k < offsets[node + 1]; ++k) {
          const uint32_t t = targets[k];
          const uint64_t bit = uint64_t{1} << (t & 63);
          std::atomic_ref<uint64_t> word(words[t >> 6]);
          if ((word.load(std::memory_order_relaxed) & bit) != 0) continue;
          if ((word.fetch_or(bit, std::memory_order_relaxed) & bit) == 0) mine.push_back(t);
        }
      }
    }
    frontier.clear();
    for (std::vector<uint32_t>& part : found) {
      frontier.insert(frontier.end(), part.begin(), part.end());
      part.clear();
    }
  }
  return Bitset(n, std::move(words));
}

}  // namespace pmc::graph
