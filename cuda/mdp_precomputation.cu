// mdp_precomputation.hpp's searches, with the kernels only they use.
#include <cstdint>

#include "cuda/check.cuh"
#include "cuda/launch.hpp"
#include "cuda/mdp_precomputation.hpp"

namespace pmc::cuda {

// Prob0E's counters: every state starts with its number of rows.
static __global__ void count_rows(uint64_t n, const uint64_t* groups, unsigned* pending) {
  const uint64_t s = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (s < n) pending[s] = static_cast<unsigned>(groups[s + 1] - groups[s]);
}

// Prob1E: a row is usable while all its successors lie in the current u
// (`inside`, flags per state).
static __global__ void rows_staying_in(uint64_t rows, const uint64_t* offsets, const uint32_t* columns,
                                       const unsigned* inside, uint8_t* usable) {
  const uint64_t r = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (r >= rows) return;
  uint8_t stays = 1;
  for (uint64_t k = offsets[r]; k < offsets[r + 1] && stays; ++k) stays = inside[columns[k]] != 0;
  usable[r] = stays;
}

void search_prob0a(FrontierSearch& search, const ResidentChain& chain, const uint64_t* phi,
                   const uint64_t* psi, unsigned* reached) {
  search.seed_set(psi, reached);
  search.run(chain, phi, nullptr, reached);
}

void search_prob0e(FrontierSearch& search, MdpSearchScratch& scratch, const ResidentChain& chain,
                   const uint64_t* phi, const uint64_t* psi, unsigned* reached) {
  const uint64_t n = chain.states;
  if (n > 0) {
    count_rows<<<blocks_for_threads(n), k_block_threads>>>(n, chain.groups.data(), scratch.pending.data());
    PMC_CUDA_CHECK_LAUNCH("count_rows");
  }
  scratch.row_hit.fill_zero();
  Expansion how;
  how.mode = k_through_every_row;
  how.row_hit = scratch.row_hit.data();
  how.pending = scratch.pending.data();
  search.seed_set(psi, reached);
  search.run(chain, phi, psi, reached, how);
}

void search_prob1a(FrontierSearch& search, const ResidentChain& chain, const uint64_t* phi,
                   const uint64_t* psi, const unsigned* attractor, unsigned* reached) {
  search.seed_unreached_by(attractor, reached);
  search.run(chain, phi, psi, reached);
}

uint64_t search_prob1e(FrontierSearch& search, MdpSearchScratch& scratch, const ResidentChain& chain,
                       const uint64_t* phi, const uint64_t* psi, unsigned* reached) {
  scratch.usable.fill_bytes(1);  // u = all states: every row stays in it
  Expansion how;
  how.mode = k_through_usable_row;
  how.usable = scratch.usable.data();
  uint64_t u_count = chain.states, rounds = 0;
  while (true) {
    ++rounds;
    search.seed_set(psi, reached);
    search.run(chain, phi, psi, reached, how);
    if (search.reached_count() == u_count) return rounds;
    u_count = search.reached_count();
    if (chain.rows > 0) {
      rows_staying_in<<<blocks_for_threads(chain.rows), k_block_threads>>>(chain.rows, chain.offsets.data(),
                                                                          chain.columns.data(), reached,
                                                                          scratch.usable.data());
      PMC_CUDA_CHECK_LAUNCH("rows_staying_in");
    }
  }
}

}  // namespace pmc::cuda
