// Prob0A/Prob0E/Prob1A/Prob1E of an MDP resident on the device:
// graph/mdp_precomputation.hpp's fixpoints, each as frontier searches over
// the resident predecessor rows (cuda/frontier_search.hpp). Bit for bit the
// host's sets: each search is the least fixpoint of the same step, however
// the atomics order a level (tests/gpu/test_gpu_resident.cpp compares them
// on every carried MDP).
//
// Sets are `unsigned` flags per state (1 = reached by the search), as the
// searches leave them; the complement is what the host functions return
// where they return a complement.
#pragma once

#include <cstdint>

#include "cuda/device_buffer.hpp"
#include "cuda/frontier_search.hpp"
#include "cuda/resident_chain.hpp"

namespace pmc::cuda {

// Scratch the MDP searches need beyond FrontierSearch's queues.
struct MdpSearchScratch {
  MdpSearchScratch(uint64_t states, uint64_t rows) : pending(states), row_hit(rows), usable(rows) {}
  DeviceBuffer<unsigned> pending, row_hit;
  DeviceBuffer<uint8_t> usable;
};

// Pmax = 0 is the complement of `reached`: backward reachability from ψ
// through φ-states by any choice.
void search_prob0a(FrontierSearch& search, const ResidentChain& chain, const uint64_t* phi,
                   const uint64_t* psi, unsigned* reached);

// Pmin = 0 is the complement of `reached`: the attractor of ψ, a φ\ψ-state
// joining once every one of its choices has a successor in it.
void search_prob0e(FrontierSearch& search, MdpSearchScratch& scratch, const ResidentChain& chain,
                   const uint64_t* phi, const uint64_t* psi, unsigned* reached);

// Pmin = 1 is the complement of `reached`: the states that reach a Pmin = 0
// state (those `attractor` left unreached) through φ\ψ by some choice.
void search_prob1a(FrontierSearch& search, const ResidentChain& chain, const uint64_t* phi,
                   const uint64_t* psi, const unsigned* attractor, unsigned* reached);

// Pmax = 1 is `reached` itself: the greatest u such that every state of u
// reaches ψ through φ using only choices whose successors all lie in u.
// Each round is one search over the rows still usable; u shrinks until a
// round reaches as many states as the last (the host's stopping test).
// Returns the number of rounds.
uint64_t search_prob1e(FrontierSearch& search, MdpSearchScratch& scratch, const ResidentChain& chain,
                       const uint64_t* phi, const uint64_t* psi, unsigned* reached);

}  // namespace pmc::cuda
