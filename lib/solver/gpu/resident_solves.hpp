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

// The solve's per-state results (bounds, their midpoint, status and, where
// `local` is given, each state's choice within its group) into out's
// vectors: sized on every core, then filled a piece at a time through the
// workspace's pinned `staging` buffer (32 MB; no pinned array of the
// model's size: pinning gigabytes took longer than copying them, ~0.5 s of
// a 61M-state check). The copies' time is added to `transfer_seconds`.
void download_reachability_results(const cuda::DeviceBuffer<cuda::BoundPair>& v,
                                   const cuda::DeviceBuffer<uint8_t>& status, const cuda::DeviceBuffer<int32_t>* local,
                                   uint64_t n, cuda::PinnedBuffer<unsigned char>& staging, ReachabilitySolution& out,
                                   double& transfer_seconds);

}  // namespace pmc
