#include "graph/transpose.hpp"

#include <algorithm>
#include <atomic>
#include <numeric>

#include "common/error.hpp"
#include "graph/parallel_reach.hpp"
#include "graph/row_graph.hpp"

namespace pmc::graph {

namespace {

// Matrices from this many entries are transposed on all cores.
constexpr uint64_t k_parallel_entries = uint64_t{1} << 20;

// The same graph as the serial counting sort below, on `threads` cores: the
// entries counted by target and placed through atomic cursors (so a list's
// order depends on the threads' timing), then each list sorted by row —
// the order the serial pass gives.
void transpose_on_cores(const std::vector<uint64_t>& row_offsets, const std::vector<uint32_t>& columns, uint64_t n,
                        uint64_t rows, int threads, TransposedGraph& g) {
  const auto row_count = static_cast<int64_t>(rows);
  std::vector<uint64_t> counts(n + 1, 0);
#pragma omp parallel for num_threads(threads) schedule(static, 4096)
  for (int64_t e = 0; e < static_cast<int64_t>(columns.size()); ++e) {
    std::atomic_ref<uint64_t>(counts[columns[e] + 1]).fetch_add(1, std::memory_order_relaxed);
  }
  std::partial_sum(counts.begin(), counts.end(), counts.begin());
  g.offsets = counts;
  g.sources.resize(columns.size());
#pragma omp parallel for num_threads(threads) schedule(static, 1024)
  for (int64_t r = 0; r < row_count; ++r) {
    for (uint64_t e = row_offsets[r]; e < row_offsets[r + 1]; ++e) {
      const uint64_t slot = std::atomic_ref<uint64_t>(counts[columns[e]]).fetch_add(1, std::memory_order_relaxed);
      g.sources[slot] = static_cast<uint32_t>(r);
    }
  }
#pragma omp parallel for num_threads(threads) schedule(dynamic, 4096)
  for (int64_t t = 0; t < static_cast<int64_t>(n); ++t) {
    std::sort(g.sources.begin() + static_cast<int64_t>(g.offsets[t]),
              g.sources.begin() + static_cast<int64_t>(g.offsets[t + 1]));
  }
}

}  // namespace

TransposedGraph transpose(const Model& model, int threads) {
  const uint64_t n = model.num_states();
  const uint64_t rows = model.num_rows();
  const std::vector<uint64_t>& row_offsets = model.row_offsets();
  const std::vector<uint32_t>& columns = model.columns();
  if (rows > k_max_states) {
    fail(ErrorCode::unsupported, "the transposed graph stores 32-bit row indices; this model has {} rows", rows);
  }

  TransposedGraph g;
  g.num_states = n;
  g.num_rows = rows;
  threads = graph_threads(threads);
  if (threads > 1 && columns.size() >= k_parallel_entries) {
    transpose_on_cores(row_offsets, columns, n, rows, threads, g);
  } else {
    // Counting sort by target, with the offsets array shifted by one slot so
    // it doubles as the fill cursor: after the prefix sum offsets[t+1] is the
    // start of t's list, each fill advances it, and when all entries are placed
    // it has become the end of t's list = the start of t+1's. That saves a
    // separate n-sized cursor array on multi-million-state models.
    g.offsets.assign(n + 2, 0);
    for (uint32_t target : columns) ++g.offsets[static_cast<uint64_t>(target) + 2];
    for (uint64_t t = 2; t < n + 2; ++t) g.offsets[t] += g.offsets[t - 1];
    g.sources.resize(columns.size());
    // Rows are visited in increasing order, so each predecessor list comes out
    // sorted, which keeps results deterministic and memory access forward-only.
    for (uint64_t r = 0; r < rows; ++r) {
      for (uint64_t e = row_offsets[r]; e < row_offsets[r + 1]; ++e) {
        g.sources[g.offsets[static_cast<uint64_t>(columns[e]) + 1]++] = static_cast<uint32_t>(r);
      }
    }
    g.offsets.pop_back();
  }
  if (model.type() == ModelType::mdp) g.row_to_state = row_owners(row_graph(model));
  return g;
}

}  // namespace pmc::graph
