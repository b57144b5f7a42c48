// Prob0A/Prob0E/Prob1A/Prob1E of an MDP resident on the device (issue 19):
// graph/mdp_precomputation.hpp's fixpoints, each as frontier searches over
// the resident predecessor rows (cuda/frontier_search.cuh). Bit for bit the
// host's sets: each search is the least fixpoint of the same step, however
// the atomics order a level (tests/gpu/test_gpu_resident.cpp compares them
// on every carried MDP).
//
// Sets are `unsigned` flags per state (1 = reached by the search), as the
// searches leave them; the complement is what the host functions return
// where they return a complement.
#pragma once

#include <cstdint>

#include "cuda/check.cuh"
#include "cuda/device_buffer.hpp"
#include "cuda/frontier_search.cuh"
#include "cuda/launch.hpp"
#include "cuda/resident_chain.cuh"

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

// Scratch the MDP searches need beyond FrontierSearch's queues.
struct MdpSearchScratch {
  MdpSearchScratch(uint64_t states, uint64_t rows) : pending(states), row_hit(rows), usable(rows) {}
  DeviceBuffer<unsigned> pending, row_hit;
  DeviceBuffer<uint8_t> usable;
};

// Pmax = 0 is the complement of `reached`: backward reachability from ψ
// through φ-states by any choice.
inline void search_prob0a(FrontierSearch& search, const ResidentChain& chain, const uint64_t* phi,
                          const uint64_t* psi, unsigned* reached) {
  search.seed_set(psi, reached);
  search.run(chain, phi, nullptr, reached);
}

// Pmin = 0 is the complement of `reached`: the attractor of ψ, a φ\ψ-state
// joining once every one of its choices has a successor in it.
inline void search_prob0e(FrontierSearch& search, MdpSearchScratch& scratch, const ResidentChain& chain,
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

// Pmin = 1 is the complement of `reached`: the states that reach a Pmin = 0
// state (those `attractor` left unreached) through φ\ψ by some choice.
inline void search_prob1a(FrontierSearch& search, const ResidentChain& chain, const uint64_t* phi,
                          const uint64_t* psi, const unsigned* attractor, unsigned* reached) {
  search.seed_unreached_by(attractor, reached);
  search.run(chain, phi, psi, reached);
}

// Pmax = 1 is `reached` itself: the greatest u such that every state of u
// reaches ψ through φ using only choices whose successors all lie in u.
// Each round is one search over the rows still usable; u shrinks until a
// round reaches as many states as the last (the host's stopping test).
// Returns the number of rounds.
inline uint64_t search_prob1e(FrontierSearch& search, MdpSearchScratch& scratch, const ResidentChain& chain,
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
