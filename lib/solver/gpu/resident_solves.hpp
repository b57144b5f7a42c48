// gpu.interval-vi's solve on a resident MDP (resident_mdp_reachability.cpp),
// and the pieces it shares with the chain's (resident_chain_reachability.cpp).
// Built with CUDA only.
#pragma once

#include <cstdint>
#include <vector>

#include "cuda/device_buffer.hpp"
#include "cuda/interval_kernels.hpp"
#include "cuda/resident_chain.hpp"
#include "solver/problem.hpp"

namespace pmc {

// Pmax/Pmin of φ U ψ on `chain` (an MDP): Prob0A/1E or Prob0E/1A on the
// device, interval iteration over the maybe states masked in the whole
// matrix, the scheduler chosen there too. Pmax with end components among
// the maybe states returns after the precomputation with out.solved false.
SolveStats gpu_mdp_reachability_on_chain(cuda::ResidentChain& chain, const ReachabilityProblem& p,
                                         ReachabilitySolution& out, const SolverSettings& settings);

// φ or ψ's Bitset words into a device mask of the same size.
void upload_words(cuda::DeviceBuffer<uint64_t>& to, const std::vector<uint64_t>& words);

// The pinned read-back into out's per-state vectors (status, bounds, their
// midpoint).
void split_reachability_results(const cuda::BoundPair* pairs, const uint8_t* status, uint64_t n,
                                 ReachabilitySolution& out);

}  // namespace pmc
